// `npm run bench:render`: renders every standard template at 1000x1500 to JPEG
// inside workerd (sample photos from the sandbox), prints median and p95 ms per
// pin split into layout, pictures, rasterisation and encoding, then renders the
// same designs by screenshotting them in a warm headless Chromium (page reused,
// how most pin generators render) and prints the ratio, all in one run.
// Before that, the cold first render: BENCH_COLD_RUNS fresh workerd processes
// each render one pin as their isolate's very first work (a Worker bundled by
// wrangler as for deployment, holding the whole app: decision 074), after ICU's
// once-per-process set-up, which is timed apart (median reported, with what it
// spent on fonts, pictures and the pixel module), one more runs the same steps
// one by one (WebAssembly engines' first calls, fonts, pictures, the render),
// and the WebAssembly modules' compilation is timed in Node's V8.
// PSNR against a reference: `BENCH_SAVE_REFERENCE=1 npm run bench:render` saves
// every template's JPEG to BENCH_REFERENCE (default: a folder in the system's
// temp dir); later runs compare their JPEGs with those, pixel by pixel.
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cpus as cpuList } from "node:os";
import { launchChromium } from "../test/e2e/support/browser.ts";
import { startSandbox } from "../sandbox/server.ts";
import { ROOT, run } from "../scripts/process.ts";
import { bundleColdWorker, runBundled, runInWorkerd, startReceiver } from "./render-workerd.ts";

interface Timings {
  fontsMs?: number;
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
const cpus = cpuList().length;
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

const results = new Map<string, { family: string; samples: Timings[]; first?: Timings }>();
const svgs = new Map<string, string>();
const jpegs = new Map<string, Buffer>();
interface ColdReport {
  mode: "whole" | "staged";
  template: string;
  timings: Timings;
  wallMs?: number;
  secondMs?: number;
  loads?: Record<string, number>;
  steps?: Record<string, number>;
  /** ICU's first use in the fresh process, made before the render (render-cold.workerd.ts). */
  icuFirstUseMs?: number;
}
const colds: ColdReport[] = [];
let warmMemory = { peak: 0, current: 0 };
let endMemory = { peak: 0, current: 0 };
const receiver = await startReceiver((path, raw) => {
  const body = raw.toString("utf8");
  const [kind, id] = path.split("/");
  if (kind === "cold") colds.push(JSON.parse(body));
  else if (kind === "jpeg") jpegs.set(id, raw);
  else if (kind === "phase") warmMemory = workerdMemory();
  else if (kind === "result") results.set(id, JSON.parse(body));
  else if (kind === "svg") svgs.set(id, body);
  else if (kind === "done") endMemory = workerdMemory();
});
const sandbox = await startSandbox(0);

await run(join(ROOT, "node_modules", ".bin", "node"), ["scripts/copy-fonts.ts"], { quiet: true });

/** One workerd (vitest) process running a benchmark file. */
const workerd = (file: string, extra: Record<string, string> = {}) =>
  runInWorkerd(file, { BENCH_SANDBOX_URL: sandbox.url, BENCH_RECEIVER_URL: receiver.url, BENCH_ROUNDS: process.env.BENCH_ROUNDS ?? "5", ...extra });

const coldRuns = Number(process.env.BENCH_COLD_RUNS ?? 3);
console.log(`Cold first render: ${coldRuns} fresh workerd processes, then one more step by step ...`);
// The cold runs use the Worker as wrangler bundles it for deployment: its modules load as at the edge (in a
// vitest file each module is fetched from vitest's Node process, which a fresh isolate would pay for).
const coldWorker = await bundleColdWorker();
const cold = (mode: string) =>
  runBundled(coldWorker, {
    BENCH_SANDBOX_URL: sandbox.url,
    BENCH_RECEIVER_URL: receiver.url,
    BENCH_COLD_MODE: mode,
    BENCH_COLD_TEMPLATE: process.env.BENCH_COLD_TEMPLATE ?? "",
  }).catch((error: Error) => console.error(`A cold run (${mode}) failed: ${error.message}`));
for (let i = 0; i < coldRuns; i++) await cold("whole");
await cold("staged");
if (process.env.BENCH_COLD_ONLY === "1") {
  // Only the cold figures (BENCH_COLD_ONLY=1): quicker while working on the cold path.
  printCold();
  console.log(`\nmachine load (uptime): ${readFileSync("/proc/loadavg", "utf8").trim()} on ${cpus} cores`);
  await sandbox.close();
  receiver.close();
  process.exit(0);
}

console.log("Rendering every standard template inside workerd ...");
const code = await workerd("bench/render.workerd.ts");
if (code !== 0 || results.size === 0) {
  console.error("The workerd benchmark failed.");
  process.exit(1);
}

const all = [...results.values()].flatMap((r) => r.samples);
const stage = (key: keyof Timings) => all.map((t) => t[key] ?? 0);
console.log(`\nworkerd: ${results.size} standard templates x ${all.length / results.size} renders (photos decoded once, then cached)\n`);
console.log("stage            median     p95");
for (const key of ["fontsMs", "layoutMs", "picturesMs", "rasterMs", "encodeMs", "totalMs"] as const) {
  console.log(`${key.replace("Ms", "").padEnd(14)} ${fmt(percentile(stage(key), 50))} ${fmt(percentile(stage(key), 95))}`);
}
const firsts = [...results.values()].flatMap((r) => (r.first ? [r.first.totalMs] : []));
if (firsts.length) {
  console.log(
    `each template's first render (as in a batch: photos already decoded, its boxes' resized pictures mostly new): median ${percentile(firsts, 50).toFixed(1)} ms, p95 ${percentile(firsts, 95).toFixed(1)} ms`,
  );
}
printCold();
console.log(
  `workerd memory: ${warmMemory.current.toFixed(0)} MB resident once warm; peak ${endMemory.peak.toFixed(0)} MB over the run, ` +
    `${Math.max(0, endMemory.peak - warmMemory.current).toFixed(0)} MB above the warm level during ${all.length} renders`,
);
const peakBuffers = Math.max(...all.map((t) => t.peakBufferBytes)) / (1024 * 1024);
console.log(
  `peak memory per render (large buffers alive at once, incl. the pixel module's WebAssembly memory): max ${peakBuffers.toFixed(1)} MB, median ${(percentile(stage("peakBufferBytes"), 50) / (1024 * 1024)).toFixed(1)} MB`,
);
const slowest = [...results.entries()]
  .map(([id, r]) => ({
    id,
    total: percentile(
      r.samples.map((t) => t.totalMs),
      50,
    ),
    raster: percentile(
      r.samples.map((t) => t.rasterMs),
      50,
    ),
  }))
  .sort((a, b) => b.total - a.total)
  .slice(0, 6);
console.log(`slowest: ${slowest.map((t) => `${t.id} ${t.total.toFixed(0)} ms (raster ${t.raster.toFixed(0)})`).join(", ")}`);

const byFamily = new Map<string, number[]>();
for (const r of results.values()) byFamily.set(r.family ?? "?", [...(byFamily.get(r.family ?? "?") ?? []), ...r.samples.map((s) => s.totalMs)]);
console.log(`\nmedian per family: ${[...byFamily].map(([f, t]) => `${f} ${percentile(t, 50).toFixed(0)} ms`).join(", ")}`);

console.log("\nThe same designs in a warm headless Chromium (one page reused, screenshot to JPEG) ...");
const browser = await launchChromium();
const page = await browser.newPage({ viewport: { width: 1000, height: 1500 } });
const chromiumTimes: number[] = [];
const previews = new Map<string, Buffer>();
const ids = [...svgs.keys()];
for (const [index, id] of [...ids, ...ids.slice(0, 3)].entries()) {
  const svg = svgs.get(id)!;
  const started = performance.now();
  await page.setContent(
    `<html><body style="margin:0"><img id="pin" width="1000" height="1500" src="data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}"></body></html>`,
  );
  await page.waitForFunction(() => (document.getElementById("pin") as HTMLImageElement).complete);
  const shot = await page.screenshot({ type: "jpeg", quality: 88, clip: { x: 0, y: 0, width: 1000, height: 1500 } });
  previews.set(id, shot);
  // The first three renders warm the browser up and are not counted.
  if (index >= 3) chromiumTimes.push(performance.now() - started);
}
await browser.close();
await sandbox.close();
receiver.close();

const ours = percentile(stage("totalMs"), 50);
const theirs = percentile(chromiumTimes, 50);
console.log(`Chromium: median ${theirs.toFixed(1)} ms, p95 ${percentile(chromiumTimes, 95).toFixed(1)} ms per pin`);
console.log(
  `\nworkerd renderer median ${ours.toFixed(1)} ms vs warm Chromium ${theirs.toFixed(1)} ms: ${(theirs / ours).toFixed(2)}x ${ours < theirs ? "faster" : "slower"}`,
);
const p95 = percentile(stage("totalMs"), 95);
const slowestTemplate = slowest[0];
const coldMedian = percentile(
  colds.filter((c) => c.mode === "whole").map((c) => c.timings.totalMs),
  50,
);
console.log(`\ntargets (issue 21):`);
console.log(`  median at most a third of warm Chromium's: ${(ours / theirs).toFixed(2)} of it: ${ours <= theirs / 3 ? "met" : "NOT met"}`);
console.log(`  p95 under 70 ms: ${p95.toFixed(1)} ms: ${p95 < 70 ? "met" : "NOT met"}`);
console.log(
  `  no standard template above 100 ms (median of its renders): slowest ${slowestTemplate.id} ${slowestTemplate.total.toFixed(0)} ms: ${slowestTemplate.total <= 100 ? "met" : "NOT met"}`,
);
console.log(
  `  cold first render at most 120 ms (a fresh isolate in a running runtime process): median ${coldMedian.toFixed(0)} ms: ${coldMedian <= 120 ? "met" : "NOT met"}`,
);
await printPsnr();
console.log(`\nmachine load (uptime): ${readFileSync("/proc/loadavg", "utf8").trim()} on ${cpus} cores`);

function printCold() {
  const whole = colds.filter((c) => c.mode === "whole");
  const staged = colds.find((c) => c.mode === "staged");
  if (whole.length === 0) {
    console.log("\ncold first render: no run finished");
    return;
  }
  const med = (pick: (c: ColdReport) => number) => percentile(whole.map(pick), 50);
  const loads = (key: string) => med((c) => c.loads?.[key] ?? 0);
  console.log(
    `\ncold first render (${whole[0].template}, a fresh isolate each, median of ${whole.length}): ${med((c) => c.timings.totalMs).toFixed(0)} ms, fastest ${Math.min(...whole.map((c) => c.timings.totalMs)).toFixed(0)} ms ` +
      `(runs ${whole.map((c) => c.timings.totalMs.toFixed(0)).join(", ")}; the same pin again in that isolate ${med((c) => c.secondMs ?? 0).toFixed(0)} ms)`,
  );
  console.log(
    `  ICU's set-up, once per runtime process, made before each render (each run is a fresh workerd process; at the edge the process has long been running): ` +
      `median ${med((c) => c.icuFirstUseMs ?? 0).toFixed(0)} ms; render and set-up added up, as a process's very first render would pay them: median ${med((c) => c.timings.totalMs + (c.icuFirstUseMs ?? 0)).toFixed(0)} ms`,
  );
  console.log(
    `  stages: fonts ${med((c) => c.timings.fontsMs ?? 0).toFixed(0)}, layout ${med((c) => c.timings.layoutMs).toFixed(0)}, pictures ${med((c) => c.timings.picturesMs).toFixed(0)}, ` +
      `raster ${med((c) => c.timings.rasterMs).toFixed(0)}, encode ${med((c) => c.timings.encodeMs).toFixed(0)} ms`,
  );
  console.log(
    `  loading work inside it: fonts ${loads("fontsLoaded")} (their data modules read in ${loads("fontFetchMs").toFixed(0)} ms, waiting behind the warm-ups on the one thread; parse ${loads("fontParseMs").toFixed(0)} ms), ` +
      `pictures ${loads("picturesDecoded")} (fetch ${loads("pictureFetchMs").toFixed(0)} ms, decode ${loads("pictureDecodeMs").toFixed(0)} ms), pixel module instance ${loads("wasmMs").toFixed(1)} ms, ` +
      `warm-up of the pixel module and satori ${loads("warmUpMs").toFixed(1)} ms (while the fonts and pictures are fetched)`,
  );
  if (staged?.steps) {
    const st = staged.steps;
    const sum = Object.values(st).reduce((a, b) => a + b, 0);
    console.log(
      `  step by step in one more fresh isolate (total ${sum.toFixed(0)} ms): WebAssembly first calls: pixel module (and its warm-up) ${st.wasmPixels.toFixed(0)}, photon ${st.wasmPhoton.toFixed(0)}, ` +
        `resvg ${st.wasmResvg.toFixed(0)}, satori and yoga ${st.satoriYoga.toFixed(0)} ms; fonts (data module + parse) ${st.fonts.toFixed(0)} ms; pictures (fetch + decode) ${st.pictures.toFixed(0)} ms; the render itself ${st.render.toFixed(0)} ms`,
    );
  }
  const wasmDir = (pkg: string) => join(ROOT, "node_modules", pkg);
  const modules: [string, string][] = [
    ["pixel module", join(ROOT, "workers", "render", "wasm", "pixels.wasm")],
    ["photon", join(wasmDir("@cf-wasm/photon"), "dist", "lib", "photon_rs_bg.wasm")],
    ["resvg", join(wasmDir("@cf-wasm/resvg"), "dist", "lib", "resvg.wasm")],
    ["yoga (satori)", join(wasmDir("@cf-wasm/satori"), "dist", "lib", "yoga.wasm")],
  ];
  const compiled = modules
    .filter(([, path]) => existsSync(path))
    .map(([name, path]) => {
      const bytes = readFileSync(path);
      const started = performance.now();
      new WebAssembly.Module(bytes);
      return `${name} ${(bytes.length / 1024).toFixed(0)} KB ${(performance.now() - started).toFixed(1)} ms`;
    });
  console.log(`  WebAssembly compiled when an isolate starts, before its first request (timed here in Node's V8): ${compiled.join(", ")}`);
}

async function printPsnr() {
  const { PhotonImage } = await import("@cf-wasm/photon/node");
  const decode = (bytes: Uint8Array) => {
    const image = PhotonImage.new_from_byteslice(bytes);
    try {
      return { width: image.get_width(), height: image.get_height(), pixels: image.get_raw_pixels() };
    } finally {
      image.free();
    }
  };
  const psnrOf = (a: Uint8Array, b: Uint8Array) => {
    let sum = 0;
    for (let i = 0; i < a.length; i += 4) {
      for (let c = 0; c < 3; c++) {
        const d = a[i + c] - b[i + c];
        sum += d * d;
      }
    }
    const mse = sum / ((a.length / 4) * 3);
    return mse === 0 ? Infinity : 10 * Math.log10((255 * 255) / mse);
  };
  // How close each pin is to its preview: the browser showing satori's SVG (Chromium's screenshot above).
  const againstPreview: { id: string; psnr: number }[] = [];
  for (const [id, jpeg] of jpegs) {
    const shot = previews.get(id);
    if (!shot) continue;
    const ours = decode(jpeg);
    const preview = decode(shot);
    if (ours.pixels.length === preview.pixels.length) againstPreview.push({ id, psnr: psnrOf(ours.pixels, preview.pixels) });
  }
  if (againstPreview.length) {
    againstPreview.sort((a, b) => a.psnr - b.psnr);
    console.log(
      `\nPSNR against the preview (the same design's SVG shown by Chromium), ${againstPreview.length} templates: median ${againstPreview[Math.floor(againstPreview.length / 2)].psnr.toFixed(1)} dB, ` +
        `lowest ${againstPreview
          .slice(0, 3)
          .map((s) => `${s.id} ${s.psnr.toFixed(1)} dB`)
          .join(", ")}`,
    );
  }
  const dir = process.env.BENCH_REFERENCE ?? join(tmpdir(), "pinboard-render-reference");
  if (process.env.BENCH_SAVE_REFERENCE === "1") {
    mkdirSync(dir, { recursive: true });
    for (const [id, jpeg] of jpegs) writeFileSync(join(dir, `${id}.jpg`), jpeg);
    console.log(`\nreference saved: ${jpegs.size} JPEGs in ${dir}`);
    return;
  }
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    console.log(`\nPSNR: no reference in ${dir} (make one with BENCH_SAVE_REFERENCE=1 on the commit to compare with)`);
    return;
  }
  const scores: { id: string; psnr: number }[] = [];
  const wrongSize: string[] = [];
  for (const [id, jpeg] of jpegs) {
    const path = join(dir, `${id}.jpg`);
    if (!existsSync(path)) continue;
    const ours = decode(jpeg);
    const theirs = decode(readFileSync(path));
    if (ours.width !== 1000 || ours.height !== 1500 || ours.width !== theirs.width || ours.height !== theirs.height) {
      wrongSize.push(`${id} ${ours.width}x${ours.height}`);
      continue;
    }
    let sum = 0;
    for (let i = 0; i < ours.pixels.length; i += 4) {
      for (let c = 0; c < 3; c++) {
        const d = ours.pixels[i + c] - theirs.pixels[i + c];
        sum += d * d;
      }
    }
    const mse = sum / ((ours.pixels.length / 4) * 3);
    scores.push({ id, psnr: mse === 0 ? Infinity : 10 * Math.log10((255 * 255) / mse) });
  }
  if (scores.length === 0) {
    console.log(`\nPSNR: the reference in ${dir} has none of these templates`);
    return;
  }
  scores.sort((a, b) => a.psnr - b.psnr);
  const identical = scores.filter((s) => s.psnr === Infinity).length;
  const fmtDb = (v: number) => (v === Infinity ? "identical" : `${v.toFixed(1)} dB`);
  console.log(
    `\nPSNR against the reference JPEGs (${dir}), ${scores.length} templates, 1000x1500 at quality 88: ` +
      `lowest ${fmtDb(scores[0].psnr)} (${scores
        .slice(0, 3)
        .map((s) => `${s.id} ${fmtDb(s.psnr)}`)
        .join(", ")}), median ${fmtDb(scores[Math.floor(scores.length / 2)].psnr)}, ${identical} identical` +
      (wrongSize.length ? `; WRONG SIZE: ${wrongSize.join(", ")}` : ""),
  );
}
