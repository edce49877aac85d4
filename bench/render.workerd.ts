// Runs inside workerd (started by bench/render.ts): renders every standard template
// with sample photos and posts per-stage timings, the last JPEG (for the PSNR
// against a reference run) and the design's SVG (for Chromium) to the receiver.
import { env } from "cloudflare:test";
import { satori } from "@cf-wasm/satori/workerd";
import * as v from "valibot";
import { it } from "vitest";
import { TemplateDesign } from "../contracts/content/template.ts";
import { STANDARD_TEMPLATES } from "../workers/db/seed/standard-templates.ts";
import { BUNDLED_FONTS } from "../workers/render/fonts.ts";
import { previewElement, satoriFonts } from "../workers/render/layout.ts";
import { renderPin } from "../workers/render/render-pin.ts";
import { benchFonts, benchPictures, benchPost } from "./render-post.ts";

const benchEnv = env as unknown as { BENCH_SANDBOX_URL: string; BENCH_RECEIVER_URL: string; BENCH_ROUNDS: string };

it("renders every standard template", async () => {
  const post = benchPost(benchEnv.BENCH_SANDBOX_URL);
  const deps = { fonts: benchFonts(), pictures: benchPictures(benchEnv.BENCH_SANDBOX_URL) };
  const rounds = Number(benchEnv.BENCH_ROUNDS);
  const send = (path: string, body: unknown) =>
    fetch(`${benchEnv.BENCH_RECEIVER_URL}/${path}`, {
      method: "POST",
      body: typeof body === "string" ? body : body instanceof Uint8Array ? (body as Uint8Array<ArrayBuffer>) : JSON.stringify(body),
    });

  // Every bundled font loaded first: through vitest, a data module is fetched from its Node process, which a deployed
  // worker does not do, and "each template's first render" below is meant with its fonts already loaded.
  await deps.fonts.loadAll(BUNDLED_FONTS.flatMap((font) => font.weights.map((weight) => ({ family: font.family, weight }))));
  await send("phase", "warm"); // the orchestrator reads workerd's memory here
  for (const template of STANDARD_TEMPLATES) {
    const design = v.parse(TemplateDesign, template.design);
    const samples = [];
    // The template's first render: fonts and photos already loaded by earlier templates, its picture boxes mostly new (a batch of pins).
    let last = await renderPin(design, post, deps);
    const first = last.timings;
    for (let round = 0; round < rounds; round++) {
      last = await renderPin(design, post, deps);
      samples.push(last.timings);
    }
    // The same design as one SVG (photos embedded), for the Chromium comparison.
    const svg = await satori(previewElement(last.plan, design) as never, { width: 1000, height: 1500, fonts: satoriFonts(last.plan) });
    await send(`result/${template.id}`, { id: template.id, family: design.family, samples, first });
    await send(`svg/${template.id}`, svg);
    await send(`jpeg/${template.id}`, last.jpeg);
  }
  await send("done", {});
});
