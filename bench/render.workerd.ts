// Runs inside workerd (started by bench/render.ts): renders every standard template
// with sample photos and posts per-stage timings and the designs' SVG to the receiver.
import { env } from "cloudflare:test";
import { satori } from "@cf-wasm/satori/workerd";
import * as v from "valibot";
import { it } from "vitest";
import { TemplateDesign } from "../contracts/template.ts";
import { STANDARD_TEMPLATES } from "../workers/db/seed/standard-templates.ts";
import { previewElement, satoriFonts } from "../workers/render/layout.ts";
import { clearPictureCache, httpPictureSource } from "../workers/render/pictures.ts";
import { renderPin } from "../workers/render/render-pin.ts";
import { FontLoader } from "../workers/render/fonts.ts";

const benchEnv = env as unknown as { BENCH_SANDBOX_URL: string; BENCH_RECEIVER_URL: string; BENCH_ROUNDS: string };

const PHOTOS = ["amalfi-coast-itinerary-1.jpg", "cozy-small-living-room-ideas-2.jpg", "balcony-herb-garden-1.jpg", "one-pan-lemon-garlic-chicken-1.jpg"];

it("renders every standard template", async () => {
  const photos = PHOTOS.map((name) => `${benchEnv.BENCH_SANDBOX_URL}/blog-demo/images/${name}`);
  const post = {
    title: "15 cozy fall decor ideas for a small living room",
    description: "Simple, budget-friendly ways to make a small living room feel warm and welcoming this autumn, from layered textiles to candlelight.",
    URLText: "linenandlark.com",
    brandName: "Linen & Lark",
    price: "$24",
    allImages: photos,
  };
  // Bundled fonts, served by the orchestrator from public/fonts (the app serves them as static assets).
  const fonts = new FontLoader({
    async fetchFont(url, signal) {
      const response = await fetch(`${benchEnv.BENCH_RECEIVER_URL}${url}`, { signal });
      if (!response.ok) throw new Error(`font ${url}: ${response.status}`);
      return response.arrayBuffer();
    },
  });
  const deps = { fonts, pictures: httpPictureSource() };
  const rounds = Number(benchEnv.BENCH_ROUNDS);
  const send = (path: string, body: unknown) =>
    fetch(`${benchEnv.BENCH_RECEIVER_URL}/${path}`, { method: "POST", body: typeof body === "string" ? body : JSON.stringify(body) });

  // Cold: the first render of a template with its photos not yet decoded.
  clearPictureCache();
  const first = v.parse(TemplateDesign, STANDARD_TEMPLATES[0].design);
  const cold = await renderPin(first, post, deps);
  await send("cold", cold.timings);

  await send("phase", "warm"); // the orchestrator reads workerd's memory here
  for (const template of STANDARD_TEMPLATES) {
    const design = v.parse(TemplateDesign, template.design);
    const samples = [];
    let last = await renderPin(design, post, deps); // warm-up: fonts and photos loaded
    for (let round = 0; round < rounds; round++) {
      last = await renderPin(design, post, deps);
      samples.push(last.timings);
    }
    // The same design as one SVG (photos embedded), for the Chromium comparison.
    const svg = await satori(previewElement(last.plan, design) as never, { width: 1000, height: 1500, fonts: satoriFonts(last.plan) });
    await send(`result/${template.id}`, { id: template.id, family: design.family, samples });
    await send(`svg/${template.id}`, svg);
  }
  await send("done", {});
});
