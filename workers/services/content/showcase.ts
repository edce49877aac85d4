import { PhotonImage } from "@cf-wasm/photon/workerd";
import type { TemplateDesign } from "../../../contracts/content/template.ts";
import type { Env } from "../../env.ts";
import { encodeJpeg, fillBox, resizeRegion } from "../../render/pixel-module.ts";
import { createBitmap, drawBitmap, type Bitmap } from "../../render/pixels.ts";
import { renderPin } from "../../render/render-pin.ts";
import { workerFontLoader } from "../../render/worker-fonts.ts";
import type { PictureSource } from "../../render/pictures.ts";
import { EXAMPLE_PINS, exampleDesigns, type ExampleWidth, OG_HEIGHT, OG_WIDTH, SHOWCASE_VERSION, type ExamplePin } from "./showcase-catalog.ts";

/**
 * The home page's example pins and its Open Graph picture (issue 17; decision
 * 042): the standard templates and demo content of showcase-catalog.ts,
 * rendered by the same engine as users' pins (workers/render) at their first
 * request, then kept in R2. A key names the template's version (its updatedAt)
 * and SHOWCASE_VERSION, so an edited standard template or new demo content is
 * rendered afresh.
 */

/** Pictures of the demo content come from the app's own static files (no network, nothing a visitor can choose). */
function staticPictures(env: Pick<Env, "ASSETS">): PictureSource {
  return {
    async fetch(url) {
      if (!/^\/(samples|demo-products)\/[a-z0-9-]+\.jpg$/.test(url)) return null;
      const response = await env.ASSETS.fetch(new Request(`https://assets.invalid${url}`));
      return response.ok ? new Uint8Array(await response.arrayBuffer()) : null;
    },
  };
}

/** The example's full pin, shrunk to `width` x `height` by the engine's resampler. */
async function renderExample(env: Env, pin: ExamplePin, design: TemplateDesign, width: number, height: number): Promise<Bitmap> {
  const rendered = await renderPin(design, pin.post, { fonts: workerFontLoader(env), pictures: staticPictures(env) });
  return resizeRegion(rendered.pixels, { x: 0, y: 0, width: rendered.width, height: rendered.height }, width, height);
}

/** Example pins are JPEG, by the engine's own encoder (what users download); the Open Graph picture is PNG. */
export const EXAMPLE_JPEG_QUALITY = 82;

function encode(bitmap: Bitmap, format: "jpeg" | "webp" | "png"): Uint8Array {
  if (format === "jpeg") return encodeJpeg(bitmap.data, bitmap.width, bitmap.height, EXAMPLE_JPEG_QUALITY);
  const image = new PhotonImage(new Uint8Array(bitmap.data.buffer, bitmap.data.byteOffset, bitmap.data.byteLength), bitmap.width, bitmap.height);
  try {
    return format === "webp" ? image.get_bytes_webp() : image.get_bytes();
  } finally {
    image.free();
  }
}

export interface ShowcasePicture {
  bytes: ArrayBuffer | ReadableStream;
  contentType: string;
  etag: string;
}

const inflight = new Map<string, Promise<Uint8Array | null>>();

/** Reads `key` from R2, or makes it once (concurrent first requests share one render) and stores it. */
async function stored(env: Env, key: string, contentType: string, make: () => Promise<Uint8Array | null>): Promise<ShowcasePicture | null> {
  // The key names everything the picture is made of, so it is the picture's validator too.
  const etag = `"${key.split("/").pop()}"`;
  const object = await env.MEDIA.get(key);
  if (object) return { bytes: object.body, contentType, etag };
  let pending = inflight.get(key);
  if (!pending) {
    pending = make().then(async (bytes) => {
      if (bytes) await env.MEDIA.put(key, bytes, { httpMetadata: { contentType } });
      return bytes;
    });
    inflight.set(key, pending);
    pending.finally(() => inflight.delete(key)).catch(() => undefined);
  }
  const bytes = await pending;
  if (!bytes) return null;
  return { bytes: bytes.slice().buffer as ArrayBuffer, contentType, etag };
}

/** GET /example-pins/{templateId}: the example pin as JPEG, or null when the template is not one of the examples. */
export async function examplePinPicture(env: Env, templateId: string, width: ExampleWidth): Promise<ShowcasePicture | null> {
  const pin = EXAMPLE_PINS.find((candidate) => candidate.templateId === templateId);
  if (!pin) return null;
  const designs = await exampleDesigns(env);
  const found = designs.get(templateId);
  if (!found) return null;
  const key = `site/showcase/v${SHOWCASE_VERSION}/${templateId}-${found.version}-${width}.jpg`;
  return stored(env, key, "image/jpeg", async () => encode(await renderExample(env, pin, found.design, width, width * 1.5), "jpeg"));
}

/** The Open Graph picture's backdrop: the brand's deep red. */
const OG_BACKGROUND = { r: 128, g: 22, b: 44, a: 1 };

/** GET /og-image.png: three example pins side by side on the brand colour, 1200 x 630 PNG. */
export async function openGraphPicture(env: Env): Promise<ShowcasePicture | null> {
  const designs = await exampleDesigns(env);
  const pins = EXAMPLE_PINS.filter((pin) => designs.has(pin.templateId)).slice(0, 3);
  if (pins.length === 0) return null;
  const versions = pins.map((pin) => designs.get(pin.templateId)!.version).join("-");
  const key = `site/showcase/v${SHOWCASE_VERSION}/og-${pins.map((pin) => pin.templateId.replace(/^std-/, "")).join("+")}-${versions}.png`;
  return stored(env, key, "image/png", async () => {
    const gap = 36;
    const height = OG_HEIGHT - 2 * 45;
    const width = Math.round((height * 2) / 3);
    const canvas = createBitmap(OG_WIDTH, OG_HEIGHT);
    fillBox(canvas, { x: 0, y: 0, width: OG_WIDTH, height: OG_HEIGHT }, OG_BACKGROUND);
    const total = pins.length * width + (pins.length - 1) * gap;
    let x = Math.round((OG_WIDTH - total) / 2);
    for (const pin of pins) {
      const bitmap = await renderExample(env, pin, designs.get(pin.templateId)!.design, width, height);
      drawBitmap(canvas, bitmap, x, 45, { radius: 18 });
      x += width + gap;
    }
    return encode(canvas, "png");
  });
}
