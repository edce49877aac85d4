// `npm run bench:render`: renders every standard template at 1000x1500 to JPEG
// inside workerd (sample photos from the sandbox), prints median and p95 ms per
// pin split into layout, pictures, rasterisation and encoding, then renders the
// same designs by screenshotting them in a warm headless Chromium (page reused,
// how most pin generators render) and prints the ratio, all in one run.
import { spawn } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { launchChromium } from "../test/e2e/support/browser.ts";
import { startSandbox } from "../sandbox/server.ts";
import { childEnv, ROOT, run } from "../scripts/process.ts";

interface Timings {
  layoutMs: number;
  picturesMs: number;
  rasterMs: number;
  encodeMs: number;
  totalMs: number;
  peakBufferBytes: number;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};
const fmt = (n: number) => n.toFixed(1).padStart(7);

/** Peak resident memory (VmHWM) and current (VmRSS) of the workerd processes, in MB. */
function workerdMemory(): { peak: number; current: number } {
  let peak = 0;
  let current = 0;
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("workerd")) continue;
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      peak = Math.max(peak, Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
      current = Math.max(current, Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
    } catch {
      // the process ended
    }
  }
  return { peak, current };
}

const results = new Map<string, { family: string; samples: Timings[] }>();
const svgs = new Map<string, string>();
let cold: Timings | null = null;
let warmMemory = { peak: 0, current: 0 };
let endMemory = { peak: 0, current: 0 };
const receiver = createServer((req, res) => {
  if (req.method === "GET" && req.url?.startsWith("/fonts/")) {
    try {
      res.end(readFileSync(join(ROOT, "public", req.url.slice(1).replace(/\.\./g, ""))));
    } catch {
      res.statusCode = 404;
      res.end();
    }
    return;
  }
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const body = Buffer.concat(chunks).toString("utf8");
    const [kind, id] = (req.url ?? "/").slice(1).split("/");
    if (kind === "cold") cold = JSON.parse(body);
    else if (kind === "phase") warmMemory = workerdMemory();
    else if (kind === "result") results.set(id, JSON.parse(body));
    else if (kind === "svg") svgs.set(id, body);
    else if (kind === "done") endMemory = workerdMemory();
    res.end("ok");
  });
});
await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
const sandbox = await startSandbox(0);

await run(join(ROOT, "node_modules", ".bin", "node"), ["scripts/copy-fonts.ts"], { quiet: true });
console.log("Rendering every standard template inside workerd ...");
const code = await new Promise<number>((resolve) => {
  const child = spawn(join("node_modules", ".bin", "vitest"), ["run", "--config", "bench/vitest.render.config.ts", "--reporter", "dot"], {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "inherit"],
    env: childEnv({ BENCH_SANDBOX_URL: sandbox.url, BENCH_RECEIVER_URL: receiverUrl, BENCH_ROUNDS: process.env.BENCH_ROUNDS ?? "5" }),
  });
  child.on("close", (c) => resolve(c ?? 1));
});
if (code !== 0 || results.size === 0) {
  console.error("The workerd benchmark failed.");
  process.exit(1);
}

const all = [...results.values()].flatMap((r) => r.samples);
const stage = (key: keyof Timings) => all.map((t) => t[key]);
console.log(`\nworkerd: ${results.size} standard templates x ${all.length / results.size} renders (photos decoded once, then cached)\n`);
console.log("stage            median     p95");
for (const key of ["layoutMs", "picturesMs", "rasterMs", "encodeMs", "totalMs"] as const) {
  console.log(`${key.replace("Ms", "").padEnd(14)} ${fmt(percentile(stage(key), 50))} ${fmt(percentile(stage(key), 95))}`);
}
if (cold) console.log(`\ncold first render (fonts and photos loaded): ${(cold as Timings).totalMs.toFixed(1)} ms`);
console.log(
  `workerd memory: ${warmMemory.current.toFixed(0)} MB resident once warm; peak ${endMemory.peak.toFixed(0)} MB over the run, ` +
    `${Math.max(0, endMemory.peak - warmMemory.current).toFixed(0)} MB above the warm level during ${all.length} renders`,
);
const peakBuffers = Math.max(...all.map((t) => t.peakBufferBytes)) / (1024 * 1024);
console.log(`peak memory per render (large buffers alive at once, incl. the pixel module's WebAssembly memory): max ${peakBuffers.toFixed(1)} MB, median ${(percentile(stage("peakBufferBytes"), 50) / (1024 * 1024)).toFixed(1)} MB`);
const slowest = [...results.entries()]
  .map(([id, r]) => ({ id, total: percentile(r.samples.map((t) => t.totalMs), 50), raster: percentile(r.samples.map((t) => t.rasterMs), 50) }))
  .sort((a, b) => b.total - a.total)
  .slice(0, 6);
console.log("slowest: " + slowest.map((t) => `${t.id} ${t.total.toFixed(0)} ms (raster ${t.raster.toFixed(0)})`).join(", "));

const byFamily = new Map<string, number[]>();
for (const r of results.values()) byFamily.set(r.family ?? "?", [...(byFamily.get(r.family ?? "?") ?? []), ...r.samples.map((s) => s.totalMs)]);
console.log("\nmedian per family: " + [...byFamily].map(([f, t]) => `${f} ${percentile(t, 50).toFixed(0)} ms`).join(", "));

console.log("\nThe same designs in a warm headless Chromium (one page reused, screenshot to JPEG) ...");
const browser = await launchChromium();
const page = await browser.newPage({ viewport: { width: 1000, height: 1500 } });
const chromiumTimes: number[] = [];
const ids = [...svgs.keys()];
for (const [index, id] of [...ids, ...ids.slice(0, 3)].entries()) {
  const svg = svgs.get(id)!;
  const started = performance.now();
  await page.setContent(`<html><body style="margin:0"><img id="pin" width="1000" height="1500" src="data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}"></body></html>`);
  await page.waitForFunction(() => (document.getElementById("pin") as HTMLImageElement).complete);
  await page.screenshot({ type: "jpeg", quality: 88, clip: { x: 0, y: 0, width: 1000, height: 1500 } });
  // The first three renders warm the browser up and are not counted.
  if (index >= 3) chromiumTimes.push(performance.now() - started);
}
await browser.close();
await sandbox.close();
receiver.close();

const ours = percentile(stage("totalMs"), 50);
const theirs = percentile(chromiumTimes, 50);
console.log(`Chromium: median ${theirs.toFixed(1)} ms, p95 ${percentile(chromiumTimes, 95).toFixed(1)} ms per pin`);
console.log(`\nworkerd renderer median ${ours.toFixed(1)} ms vs warm Chromium ${theirs.toFixed(1)} ms: ${(theirs / ours).toFixed(2)}x ${ours < theirs ? "faster" : "slower"}`);
console.log(`target: median <= 100 ms per pin: ${ours <= 100 ? "met" : "NOT met"}`);
