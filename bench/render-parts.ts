// `npm run bench:render-parts`: the cold first render compared in parts, for a
// machine too noisy for the whole render's wall time to tell 10 ms apart
// (decision 068). Each run starts fresh workerd processes: one for the pixel
// module's first calls and the first word segmenter (render-parts.workerd.ts),
// one for a whole cold render with its stages (the bundled cold-render Worker,
// bench/render-cold-worker.workerd.ts, which holds the whole app: each checkout
// needs its \`npm run build\`).
// BENCH_PARTS_BASE=<another checkout> (a git worktree of the base commit, with
// node_modules linked) alternates that checkout with this one, run by run, so
// both meet the same moments of the machine; the workerd file is copied there
// for the runs if it lacks it. BENCH_PARTS_RUNS runs per checkout (6);
// BENCH_PARTS_RENDER_ONLY=1 runs only the whole cold renders. Prints the
// median of each part per checkout.
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { startSandbox } from "../sandbox/server.ts";
import { childEnv, ROOT } from "../scripts/process.ts";
import { bundleColdWorker, runBundled, runInWorkerd, startReceiver } from "./render-workerd.ts";

const runs = Number(process.env.BENCH_PARTS_RUNS ?? 6);
// BENCH_PARTS_RENDER_ONLY=1: only the whole cold renders (with their stages), twice as many in the same time.
const renderOnly = process.env.BENCH_PARTS_RENDER_ONLY === "1";
const trees = [ROOT, ...(process.env.BENCH_PARTS_BASE ? [resolve(process.env.BENCH_PARTS_BASE)] : [])];
const PARTS_FILE = "bench/render-parts.workerd.ts";

let received: Record<string, unknown> | null = null;
const receiver = await startReceiver((_, body) => {
  received = JSON.parse(body.toString("utf8")) as Record<string, unknown>;
});
const sandbox = await startSandbox(0);

/** One fresh workerd (vitest) in `tree` running `file`: what it posted, or null. */
async function once(tree: string, file: string): Promise<Record<string, unknown> | null> {
  received = null;
  await runInWorkerd(file, { BENCH_SANDBOX_URL: sandbox.url, BENCH_RECEIVER_URL: receiver.url, BENCH_COLD_MODE: "whole" }, { tree });
  return received;
}

// The fonts' data modules (workers/render/fonts), written in each checkout, as bench:render does.
for (const tree of trees) spawnSync(join(tree, "node_modules", ".bin", "node"), ["scripts/copy-fonts.ts"], { cwd: tree, stdio: "ignore", env: childEnv() });
// The whole cold renders run each checkout's cold-render Worker as wrangler bundles it (bench/render.ts does the same).
const coldWorkers = new Map<string, Awaited<ReturnType<typeof bundleColdWorker>>>();
for (const tree of trees) {
  if (!existsSync(join(tree, "bench", "wrangler.cold.toml"))) throw new Error(`${tree} has no bench/wrangler.cold.toml: compare with a commit that has it`);
  coldWorkers.set(tree, await bundleColdWorker(tree));
}
const copied = trees.filter((tree) => !existsSync(join(tree, PARTS_FILE)));
for (const tree of copied) copyFileSync(join(ROOT, PARTS_FILE), join(tree, PARTS_FILE));
const samples = new Map<string, Map<string, number[]>>(trees.map((tree) => [tree, new Map()]));
const note = (tree: string, name: string, value: number) => {
  const parts = samples.get(tree) as Map<string, number[]>;
  parts.set(name, [...(parts.get(name) ?? []), value]);
};
try {
  console.log(`Cold render in parts: ${runs} runs per checkout, alternating ${trees.join(" and ")} ...`);
  for (let run = 0; run < runs; run++) {
    for (const tree of trees) {
      if (!renderOnly) {
        const parts = await once(tree, PARTS_FILE);
        if (parts) for (const [name, value] of Object.entries(parts)) note(tree, name, Number(value));
        else console.error(`A parts run in ${tree} failed.`);
      }
      received = null;
      await runBundled(coldWorkers.get(tree)!, {
        BENCH_SANDBOX_URL: sandbox.url,
        BENCH_RECEIVER_URL: receiver.url,
        BENCH_COLD_MODE: "whole",
        BENCH_COLD_TEMPLATE: "",
      }).catch((error: Error) => console.error(error.message));
      const cold = received as { timings?: Record<string, number> } | null;
      if (cold?.timings) {
        const t = cold.timings;
        for (const [name, key] of [
          ["render: total", "totalMs"],
          ["render: fonts", "fontsMs"],
          ["render: layout", "layoutMs"],
          ["render: pictures", "picturesMs"],
          ["render: raster", "rasterMs"],
          ["render: encode", "encodeMs"],
        ])
          note(tree, name, t[key]);
      } else console.error(`A cold render in ${tree} failed.`);
    }
  }
} finally {
  for (const tree of copied) rmSync(join(tree, PARTS_FILE), { force: true });
  receiver.close();
  await sandbox.close();
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const names = [...new Set([...samples.values()].flatMap((parts) => [...parts.keys()]))];
console.log(`\nmedian ms per part (fastest in brackets)${trees.length > 1 ? `: ${trees.map((tree, i) => `[${i + 1}] ${tree}`).join(", ")}` : ""}`);
for (const name of names) {
  const cells = trees.map((tree) => {
    const values = samples.get(tree)?.get(name) ?? [];
    return values.length ? `${median(values).toFixed(1).padStart(7)} (${Math.min(...values).toFixed(0)})` : "      -";
  });
  console.log(`${name.padEnd(26)} ${cells.join("   ")}`);
}
