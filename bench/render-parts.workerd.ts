// Runs inside a fresh workerd (bench/render-parts.ts starts one per run): the
// pixel module's part of a cold isolate's first pin, step by step, with the
// benchmark's 1200x800 photo. Warm-up, first decode, the resize that fills a
// 1000x1500 pin from a 533x800 cut, first encode; then a second decode and
// encode in the same isolate. Also the first word segmenter (satori builds
// one for line breaking), timed on its own: in a fresh process this is ICU's
// set-up, which a second isolate of the process does not pay (decision 069).
import { env } from "cloudflare:test";
import { it } from "vitest";
import { decodeJpeg, encodeJpeg, resizeRegion, warmPixelModule } from "../workers/render/pixel-module.ts";

const benchEnv = env as unknown as { BENCH_SANDBOX_URL: string; BENCH_RECEIVER_URL: string };

it("times the pixel module's first calls in a fresh isolate", async () => {
  const response = await fetch(`${benchEnv.BENCH_SANDBOX_URL}/blog-demo/images/amalfi-coast-itinerary-1.jpg`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  const parts: Record<string, number> = {};
  let mark = performance.now();
  const lap = (name: string) => {
    const now = performance.now();
    parts[name] = now - mark;
    mark = now;
  };
  warmPixelModule();
  lap("warm-up");
  const photo = decodeJpeg(bytes);
  lap("decode");
  if (typeof photo === "string") throw new Error(`the benchmark photo did not decode (${photo})`);
  const pin = resizeRegion(photo, { x: 333, y: 0, width: 533, height: 800 }, 1000, 1500);
  lap("resize");
  encodeJpeg(pin.data, 1000, 1500);
  lap("encode");
  decodeJpeg(bytes);
  lap("decode again");
  encodeJpeg(pin.data, 1000, 1500);
  lap("encode again");
  new Intl.Segmenter(undefined, { granularity: "word" });
  lap("ICU set-up (per process)");
  await fetch(`${benchEnv.BENCH_RECEIVER_URL}/parts`, { method: "POST", body: JSON.stringify(parts) });
});
