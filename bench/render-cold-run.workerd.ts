// The cold first render, run inside a fresh workerd (bench/render.ts starts one
// per run): the first render of an isolate, as a user meets it after the edge
// started a new isolate. bench/render-cold-worker.workerd.ts runs it in the worker as
// wrangler bundles it for deployment; bench/render-cold.workerd.ts in vitest
// (for the profile, which attaches to vitest's inspector).
// BENCH_COLD_MODE=whole renders straight away and reports its stages and what
// it spent loading; BENCH_COLD_MODE=staged first makes one tiny call into each
// WebAssembly engine, then loads the fonts, then the pictures, then renders, and
// reports each step, so the cold render's parts can be told apart.
import { PhotonImage } from "@cf-wasm/photon/workerd";
import { Resvg } from "@cf-wasm/resvg/workerd";
import { satori } from "@cf-wasm/satori/workerd";
import * as v from "valibot";
import { TemplateDesign } from "../contracts/content/template.ts";
import { STANDARD_TEMPLATES } from "../workers/db/seed/standard-templates.ts";
import type { FontLoader } from "../workers/render/fonts.ts";
import { fontsNeeded, planPin } from "../workers/render/layout.ts";
import { loadStats } from "../workers/render/load-stats.ts";
import { encodeJpeg, warmPixelModule } from "../workers/render/pixel-module.ts";
import { decodedPicture } from "../workers/render/pictures.ts";
import { renderPin } from "../workers/render/render-pin.ts";
import { benchFonts, benchPictures, benchPost } from "./render-post.ts";

export interface ColdEnv {
  BENCH_SANDBOX_URL: string;
  BENCH_RECEIVER_URL: string;
  BENCH_COLD_MODE: string;
  BENCH_COLD_TEMPLATE: string;
}

/** One cold run in this (fresh) isolate; the report goes to the orchestrator's receiver. */
export async function coldRun(benchEnv: ColdEnv): Promise<void> {
  const post = benchPost(benchEnv.BENCH_SANDBOX_URL);
  const fonts: FontLoader = benchFonts();
  const pictures = benchPictures(benchEnv.BENCH_SANDBOX_URL);
  const template = STANDARD_TEMPLATES.find((t) => t.id === benchEnv.BENCH_COLD_TEMPLATE) ?? STANDARD_TEMPLATES[0];
  const design = v.parse(TemplateDesign, template.design);
  // The edge starts a fresh isolate inside a runtime process that has long been running other isolates, and ICU
  // (Intl's library) is set up once per process: its first use in a fresh process took about 20 ms, in a second
  // isolate of the same process under 1 ms (decision 069). Here each cold run is a fresh process, so that first
  // use is made before the render, as any date formatting in the process would have made it, and timed apart.
  const icuStarted = performance.now();
  new Intl.DateTimeFormat("en-US", { timeZone: "UTC", dateStyle: "medium" }).format(0);
  const report: Record<string, unknown> = { template: template.id, mode: benchEnv.BENCH_COLD_MODE, icuFirstUseMs: performance.now() - icuStarted };
  if (benchEnv.BENCH_COLD_MODE === "staged") {
    const steps: Record<string, number> = {};
    let mark = performance.now();
    const tiny = encodeJpeg(new Uint8Array(16 * 16 * 4).fill(200), 16, 16);
    warmPixelModule();
    steps.wasmPixels = performance.now() - mark;
    mark = performance.now();
    PhotonImage.new_from_byteslice(tiny).free();
    steps.wasmPhoton = performance.now() - mark;
    mark = performance.now();
    await satori({ type: "div", props: { style: { display: "flex", width: 10, height: 10, backgroundColor: "#fff" } } } as never, {
      width: 10,
      height: 10,
      fonts: [],
    });
    steps.satoriYoga = performance.now() - mark;
    mark = performance.now();
    new Resvg('<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="4" height="4" fill="#000"/></svg>').render().free();
    steps.wasmResvg = performance.now() - mark;
    mark = performance.now();
    const loaded = await fonts.loadAll(fontsNeeded(design, post));
    steps.fonts = performance.now() - mark;
    mark = performance.now();
    const plan = planPin(design, post, loaded);
    await Promise.all([...plan.pictures.values()].map((p) => (p.url ? decodedPicture(pictures, p.url) : null)));
    steps.pictures = performance.now() - mark;
    mark = performance.now();
    const pin = await renderPin(design, post, { fonts, pictures });
    steps.render = performance.now() - mark;
    report.steps = steps;
    report.timings = pin.timings;
  } else {
    if (benchEnv.BENCH_COLD_MODE === "profile") {
      // The orchestrator attaches V8's profiler first: wait until it says go.
      for (;;) {
        const answer = await (await fetch(`${benchEnv.BENCH_RECEIVER_URL}/ready`, { method: "POST", body: "" })).text();
        if (answer === "go") break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    const before = loadStats();
    const mark = performance.now();
    const pin = await renderPin(design, post, { fonts, pictures });
    report.wallMs = performance.now() - mark;
    const after = loadStats();
    report.timings = pin.timings;
    report.loads = Object.fromEntries(Object.entries(after).map(([key, value]) => [key, value - before[key as keyof typeof before]]));
    if (benchEnv.BENCH_COLD_MODE !== "profile") report.secondMs = (await renderPin(design, post, { fonts, pictures })).timings.totalMs;
  }
  await fetch(`${benchEnv.BENCH_RECEIVER_URL}/cold`, { method: "POST", body: JSON.stringify(report) });
}
