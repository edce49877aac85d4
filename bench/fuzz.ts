// The untrusted-bytes campaign at scale (issue 37, decision 078): a million seeded mutations, shared among the
// parsers that run in Node (JPEG and PNG pictures, WOFF and WOFF2 fonts, products CSV, feeds, sitemaps), each on its
// production code. Prints per parser: cases, accepted and refused, failures (the first ones with their seeds), the
// slowest case with its seed, and memory growth. Exit code 1 when any case failed.
//
//   npm run bench:fuzz                          a million cases
//   node bench/fuzz.ts --cases 20000            fewer (BENCH_FUZZ_CASES too); --seed N (37), --only png
//   node bench/fuzz.ts --replay png 2375322440  one case again: its size, outcome and time
//
// Scraped HTML needs workerd's HTMLRewriter: test/workers/untrusted-bytes.test.ts runs its campaign.
import { spawnSync } from "node:child_process";
import { parseArgs } from "node:util";

if (!(globalThis as { gc?: unknown }).gc) {
  // Memory is measured after a collection: run again with the collector exposed.
  const child = spawnSync(process.execPath, ["--expose-gc", ...process.execArgv, process.argv[1], ...process.argv.slice(2)], { stdio: "inherit" });
  process.exit(child.status ?? 1);
}

await import("../test/fuzz/node-hooks.ts");
const { nodeTargets } = await import("../test/fuzz/targets.ts");
const { mutantOf, runCampaign, summary } = await import("../test/fuzz/campaign.ts");

const { values, positionals } = parseArgs({
  options: { cases: { type: "string" }, seed: { type: "string", default: "37" }, only: { type: "string" }, replay: { type: "boolean" } },
  allowPositionals: true,
});
const targets = await nodeTargets();
const named = (name: string) => targets.filter((target) => target.name.toLowerCase().includes(name.toLowerCase()));

if (values.replay) {
  const [name, seedText] = positionals;
  const [target] = named(name ?? "");
  if (!target || !seedText) throw new Error("--replay <parser> <seed>: parsers are " + targets.map((t) => t.name).join(", "));
  const bytes = mutantOf(target, Number(seedText));
  const started = performance.now();
  try {
    console.log(`${target.name}, seed ${seedText}: ${bytes.length} bytes, ${await target.run(bytes)} in ${(performance.now() - started).toFixed(1)} ms`);
  } catch (error) {
    console.log(`${target.name}, seed ${seedText}: ${bytes.length} bytes, failed after ${(performance.now() - started).toFixed(1)} ms:`, error);
  }
  process.exit(0);
}

const total = Number(values.cases ?? process.env.BENCH_FUZZ_CASES ?? 1_000_000);
const chosen = values.only ? named(values.only) : targets;
const seed = Number(values.seed);
console.log(`bench:fuzz: ${total.toLocaleString("en")} cases over ${chosen.length} parsers, seed ${seed}`);
let failures = 0;
const started = performance.now();
for (const [i, target] of chosen.entries()) {
  const cases = Math.floor(total / chosen.length) + (i < total % chosen.length ? 1 : 0);
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
process.exit(failures ? 1 : 0);
