// The untrusted-bytes campaign at scale (issue 37, decision 078): a million seeded mutations shared among every
// parser of bytes from outside, each on its production code: JPEG and PNG pictures, WOFF and WOFF2 fonts, products
// CSV, feeds and sitemaps in Node, scraped HTML and fonts in workerd (bench/fuzz-workerd.ts). Each parser's campaign runs in a
// process of its own, as many at once as the machine has cores, longest first. Prints per parser: cases, accepted
// and refused, failures (the first ones with their seeds), the slowest case with its seed, memory growth, wall and
// CPU time. Exit code 1 when any case failed.
//
//   npm run bench:fuzz                          a million cases
//   node bench/fuzz.ts --cases 20000            fewer (BENCH_FUZZ_CASES too); --seed N (37), --only png
//   node bench/fuzz.ts --skip jpeg,png          the same cases for the other parsers (a run finished in parts)
//   node bench/fuzz.ts --replay html 2375322440 one case again: its size, outcome and CPU time
import { spawn } from "node:child_process";
import { availableParallelism } from "node:os";
import { parseArgs } from "node:util";
import type { CampaignResult, Target } from "../test/fuzz/campaign.ts";

/** The parsers, longest campaign first. */
const PARSERS = ["scraped HTML", "products CSV", "WOFF2 fonts", "JPEG pictures", "sitemap XML", "feed XML", "WOFF fonts", "PNG pictures"];
/**
 * A case of scraped HTML costs workerd about 20 ms (HTMLRewriter calls our handlers one by one), one in Node 2 to
 * 5 ms: HTML's share of the cases is 4%, so that it does not take longer than the rest together.
 */
const SHARE: Record<string, number> = { "scraped HTML": 0.04 };

const { values, positionals } = parseArgs({
  options: {
    cases: { type: "string" },
    seed: { type: "string", default: "37" },
    only: { type: "string" },
    skip: { type: "string" },
    replay: { type: "boolean" },
    parser: { type: "string" }, // one campaign, in this process (what each child runs)
  },
  allowPositionals: true,
});

/** The target named `name`, on this process (HTML and fonts with a workerd of their own). */
async function loadTarget(name: string): Promise<Target & { close?(): Promise<void> }> {
  await import("../test/fuzz/node-hooks.ts");
  const { fontSeeds, htmlSeeds, nodeTargets } = await import("../test/fuzz/targets.ts");
  const { fontCases } = await import("../test/fuzz/font-mutations.ts");
  const { htmlCases } = await import("../test/fuzz/html-target.ts");
  const { targetInWorkerd } = await import("./fuzz-workerd.ts");
  if (name === "scraped HTML") return targetInWorkerd(htmlCases(await htmlSeeds()), "/html");
  for (const format of ["woff", "woff2"] as const) {
    const cases = fontCases(format, fontSeeds(format));
    if (name === cases.name) return targetInWorkerd(cases, "/font");
  }
  const target = (await nodeTargets()).find((candidate) => candidate.name === name);
  if (!target) throw new Error(`no parser named ${name}`);
  return target;
}

const named = (wanted: string) => PARSERS.filter((name) => name.toLowerCase().includes(wanted.toLowerCase()));
const seed = Number(values.seed);

if (values.replay) {
  const [name] = named(positionals[0] ?? "");
  if (!name || !positionals[1]) throw new Error(`--replay <parser> <seed>: parsers are ${PARSERS.join(", ")}`);
  const { mutantOf } = await import("../test/fuzz/campaign.ts");
  const target = await loadTarget(name);
  try {
    const bytes = mutantOf(target, Number(positionals[1]));
    const clock = target.clock ?? (() => performance.now());
    const started = clock();
    try {
      console.log(`${name}, seed ${positionals[1]}: ${bytes.length} bytes, ${await target.run(bytes)} in ${(clock() - started).toFixed(1)} ms`);
    } catch (error) {
      console.log(`${name}, seed ${positionals[1]}: ${bytes.length} bytes, failed after ${(clock() - started).toFixed(1)} ms:`, error);
    }
  } finally {
    await target.close?.();
  }
} else if (values.parser) {
  // A child: one campaign, its result as the last line of its output.
  const { runCampaign } = await import("../test/fuzz/campaign.ts");
  const target = await loadTarget(values.parser);
  const cases = Number(values.cases);
  try {
    const result = await runCampaign(target, {
      cases,
      seed,
      onProgress: (done) => {
        if (done % 10_000 === 0) process.stderr.write(`  ${target.name}: ${done.toLocaleString("en")} of ${cases.toLocaleString("en")}\n`);
      },
    });
    for (const example of result.examples)
      process.stderr.write(`  ${target.name} failure: ${example.kind}, seed ${example.seed}, ${example.bytes} bytes: ${example.message}\n`);
    process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
  } finally {
    await target.close?.();
  }
} else {
  const { summary } = await import("../test/fuzz/campaign.ts");
  const total = Number(values.cases ?? process.env.BENCH_FUZZ_CASES ?? 1_000_000);
  const chosen = values.only ? named(values.only) : PARSERS;
  if (!chosen.length) throw new Error(`no parser named "${values.only}": parsers are ${PARSERS.join(", ")}`);
  // Cases per parser: the shares above, the rest equally among the others; what rounding leaves goes to the first.
  const shared = chosen.length > 1 ? chosen.reduce((sum, name) => sum + (SHARE[name] ?? 0), 0) : 0;
  const equal = (1 - shared) / chosen.filter((name) => chosen.length === 1 || !(name in SHARE)).length;
  const plan = chosen.map((name) => ({ name, cases: Math.floor(total * (chosen.length > 1 && name in SHARE ? SHARE[name] : equal)) }));
  plan[0].cases += total - plan.reduce((sum, part) => sum + part.cases, 0);
  // Skipped after planning: the others keep the cases (and so the seeds) they have in the whole run.
  const skipped = new Set((values.skip ?? "").split(",").filter(Boolean).flatMap(named));
  plan.splice(0, plan.length, ...plan.filter((part) => !skipped.has(part.name)));
  const parallel = Math.min(availableParallelism(), plan.length);
  const running = plan.reduce((sum, part) => sum + part.cases, 0);
  console.log(
    `bench:fuzz: ${running.toLocaleString("en")} cases over ${plan.length} parsers (${plan.map((part) => `${part.name} ${part.cases.toLocaleString("en")}`).join(", ")}), seed ${seed}, ${parallel} at a time`,
  );

  const started = performance.now();
  const results = new Map<string, CampaignResult>();
  const runChild = (part: { name: string; cases: number }) =>
    new Promise<void>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [...process.execArgv, process.argv[1], "--parser", part.name, "--cases", String(part.cases), "--seed", String(seed)],
        { stdio: ["ignore", "pipe", "inherit"] },
      );
      let output = "";
      child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.on("error", reject);
      child.on("close", (code) => {
        const line = output.split("\n").find((text) => text.startsWith("RESULT "));
        if (!line) {
          // The process died (V8 gave up, say): a failure of that campaign, reported with the others.
          console.log(`the ${part.name} campaign's process ended (${code ?? "killed"}) without a result:\n${output.slice(-2000)}`);
          return resolve();
        }
        const result = JSON.parse(line.slice("RESULT ".length)) as CampaignResult;
        results.set(part.name, result);
        console.log(`${summary(result)}\n  rate ${(result.cases / result.seconds).toFixed(0)} cases/s`);
        resolve();
      });
    });
  const queue = [...plan];
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      for (let part = queue.shift(); part; part = queue.shift()) await runChild(part);
    }),
  );

  console.log("\nPer parser (seed, then `node bench/fuzz.ts --replay <parser> <seed>` for one case):");
  let failures = 0;
  for (const { name } of plan) {
    const result = results.get(name);
    if (!result) {
      failures += 1;
      console.log(`${name}: its process died before the campaign ended (above)`);
      continue;
    }
    failures += result.failures;
    console.log(summary(result));
    for (const example of result.examples.slice(0, 10))
      console.log(`  failure: ${example.kind}, seed ${example.seed}, ${example.bytes} bytes: ${example.message}`);
  }
  const cpu = [...results.values()].reduce((sum, result) => sum + (result.cpuSeconds ?? 0), 0);
  console.log(
    `bench:fuzz: ${running.toLocaleString("en")} cases, ${failures} failures, ${((performance.now() - started) / 1000).toFixed(0)} s (${cpu.toFixed(0)} s of the parsers' CPU)`,
  );
  process.exitCode = failures ? 1 : 0;
}
