// The untrusted-bytes campaign at scale (issue 37, decision 078): a million seeded mutations shared among every
// parser of bytes from outside, each on its production code: JPEG and PNG pictures, WOFF and WOFF2 fonts, products
// CSV, feeds and sitemaps in Node, scraped HTML in workerd (bench/fuzz-html.ts). Prints per parser: cases,
// accepted and refused, failures (the first ones with their seeds), the slowest case with its seed, memory growth,
// and wall and CPU time. Exit code 1 when any case failed.
//
//   npm run bench:fuzz                          a million cases
//   node bench/fuzz.ts --cases 20000            fewer (BENCH_FUZZ_CASES too); --seed N (37), --only png
//   node bench/fuzz.ts --replay html 2375322440 one case again: its size, outcome and time
import { parseArgs } from "node:util";

await import("../test/fuzz/node-hooks.ts");
const { htmlSeeds, nodeTargets } = await import("../test/fuzz/targets.ts");
const { htmlTargetInWorkerd } = await import("./fuzz-html.ts");
const { mutantOf, runCampaign, summary } = await import("../test/fuzz/campaign.ts");

const { values, positionals } = parseArgs({
  options: { cases: { type: "string" }, seed: { type: "string", default: "37" }, only: { type: "string" }, replay: { type: "boolean" } },
  allowPositionals: true,
});
const nodeSide = await nodeTargets();
const names = [...nodeSide.map((target) => target.name), "scraped HTML"];
const matches = (name: string, wanted: string) => name.toLowerCase().includes(wanted.toLowerCase());
const wanted = values.replay ? (positionals[0] ?? "") : (values.only ?? "");
const chosenNames = names.filter((name) => matches(name, wanted));
if (!chosenNames.length) throw new Error(`no parser named "${wanted}": parsers are ${names.join(", ")}`);
const html = chosenNames.includes("scraped HTML") ? await htmlTargetInWorkerd(await htmlSeeds()) : null;
const targets = [...nodeSide.filter((target) => chosenNames.includes(target.name)), ...(html ? [html] : [])];

try {
  if (values.replay) {
    const [target] = targets;
    const seedText = positionals[1];
    if (!seedText) throw new Error("--replay <parser> <seed>");
    const bytes = mutantOf(target, Number(seedText));
    const clock = target.clock ?? (() => performance.now());
    const started = clock();
    try {
      console.log(`${target.name}, seed ${seedText}: ${bytes.length} bytes, ${await target.run(bytes)} in ${(clock() - started).toFixed(1)} ms`);
    } catch (error) {
      console.log(`${target.name}, seed ${seedText}: ${bytes.length} bytes, failed after ${(clock() - started).toFixed(1)} ms:`, error);
    }
  } else {
    const total = Number(values.cases ?? process.env.BENCH_FUZZ_CASES ?? 1_000_000);
    const seed = Number(values.seed);
    console.log(`bench:fuzz: ${total.toLocaleString("en")} cases over ${targets.length} parsers, seed ${seed}`);
    let failures = 0;
    const started = performance.now();
    for (const [i, target] of targets.entries()) {
      const cases = Math.floor(total / targets.length) + (i < total % targets.length ? 1 : 0);
      const result = await runCampaign(target, {
        cases,
        seed,
        onProgress: (done) => {
          if (done % 10_000 === 0) process.stderr.write(`  ${target.name}: ${done.toLocaleString("en")} of ${cases.toLocaleString("en")}\n`);
        },
      });
      failures += result.failures;
      console.log(summary(result));
      console.log(`  rate ${(result.cases / result.seconds).toFixed(0)} cases/s; memory checkpoints: ${result.memory.map((m) => `${m.name} ${m.checkpoints.map((b) => (b / 1048576).toFixed(1)).join("/")} MB`).join("; ")}`);
      for (const example of result.examples.slice(0, 10)) console.log(`  failure: ${example.kind}, seed ${example.seed}, ${example.bytes} bytes: ${example.message}`);
    }
    console.log(`bench:fuzz: ${total.toLocaleString("en")} cases, ${failures} failures, ${((performance.now() - started) / 1000).toFixed(0)} s`);
    process.exitCode = failures ? 1 : 0;
  }
} finally {
  await html?.close();
}
