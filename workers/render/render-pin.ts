import { PhotonImage } from "@cf-wasm/photon/workerd";
import { Resvg } from "@cf-wasm/resvg/workerd";
import { satori } from "@cf-wasm/satori/workerd";
import type { PostContent, SvgLayer, TemplateDesign } from "../../contracts/template.ts";
import { isGradient, resolveColor, type Rgba } from "./colors.ts";
import type { FontLoader } from "./fonts.ts";
import { fontsNeeded, planPin, satoriElement, satoriFonts, type PinPlan, type PlannedPicture } from "./layout.ts";
import { createBitmap, drawBitmap, drawLayer, fillBox, fitGeometry, resizeRegion, type Bitmap, type LinearGradient } from "./pixels.ts";
import { decodedPicture, type PictureSource } from "./pictures.ts";

/**
 * The worker's renderer: template + post to a 1000x1500 JPEG.
 *
 * Layout decides everything (layout.ts). Pictures, plain shapes and the
 * background are drawn straight into the pixel buffer (decoded once, resized
 * with a box filter, composited in typed-array code); only text and complex
 * shapes go through satori (to SVG) and resvg (to pixels), on a transparent
 * canvas laid over the buffer. resvg is slowest at photos and large gradients,
 * so it never gets them.
 */

export interface RenderTimings {
  /** Planning, auto-fit and satori layout to SVG. */
  layoutMs: number;
  /** Fetching and decoding pictures (zero when cached). */
  picturesMs: number;
  /** resvg and the compositor. */
  rasterMs: number;
  encodeMs: number;
  totalMs: number;
}

export interface RenderedPin {
  jpeg: Uint8Array;
  width: number;
  height: number;
  timings: RenderTimings;
  plan: PinPlan;
  /** The pixels before encoding (for tests and checks). */
  pixels: Bitmap;
}

export interface RenderDependencies {
  fonts: FontLoader;
  pictures: PictureSource;
}

export const JPEG_QUALITY = 88;

function paintOf(fill: SvgLayer["fill"], pin: Rgba): Rgba | LinearGradient | null {
  if (isGradient(fill)) {
    const from = resolveColor(fill.from, pin);
    const to = resolveColor(fill.to, pin);
    if (from === "auto" || to === "auto") return null;
    return { from, to, angle: fill.angle };
  }
  const color = resolveColor(fill, pin);
  return color === "auto" ? null : color;
}

async function drawPicture(canvas: Bitmap, picture: PlannedPicture, deps: RenderDependencies) {
  if (!picture.url) return;
  const image = await decodedPicture(deps.pictures, picture.url);
  if (!image) return;
  const { layer } = picture;
  const geometry = fitGeometry(image, layer, layer.fit ?? "cover");
  const resized = resizeRegion(image, geometry.crop, geometry.width, geometry.height);
  drawBitmap(canvas, resized, layer.x + geometry.offsetX, layer.y + geometry.offsetY, {
    opacity: layer.opacity ?? 1,
    radius: geometry.offsetX === 0 && geometry.offsetY === 0 ? (layer.borderRadius ?? 0) : 0,
  });
}

function drawShape(canvas: Bitmap, layer: SvgLayer, pin: Rgba) {
  const paint = paintOf(layer.fill, pin);
  if (!paint) return;
  fillBox(canvas, layer, paint, { opacity: layer.opacity ?? 1, radius: layer.borderRadius ?? 0, ellipse: layer.shape === "ellipse" });
}

export async function renderPin(design: TemplateDesign, post: PostContent, deps: RenderDependencies, quality = JPEG_QUALITY): Promise<RenderedPin> {
  const started = performance.now();
  const fonts = await deps.fonts.loadAll(fontsNeeded(design, post));
  let layoutMs = 0;
  let rasterMs = 0;
  let picturesMs = 0;
  let mark = performance.now();
  const plan = planPin(design, post, fonts);
  layoutMs += performance.now() - mark;

  // Start fetching and decoding every picture at once.
  mark = performance.now();
  await Promise.all([...plan.pictures.values()].map((p) => (p.url ? decodedPicture(deps.pictures, p.url) : null)));
  picturesMs += performance.now() - mark;

  mark = performance.now();
  const canvas = createBitmap(plan.width, plan.height);
  const background = paintOf(plan.background, plan.pinColor) ?? { r: 255, g: 255, b: 255, a: 1 };
  fillBox(canvas, { x: 0, y: 0, width: plan.width, height: plan.height }, "angle" in background ? background : { ...background, a: 1 });
  rasterMs += performance.now() - mark;

  for (const segment of plan.segments) {
    if (segment.kind === "raster") {
      mark = performance.now();
      for (const item of segment.layers) {
        if ("shape" in item) drawShape(canvas, item.shape, plan.pinColor);
        else await drawPicture(canvas, item, deps);
      }
      rasterMs += performance.now() - mark;
      continue;
    }
    mark = performance.now();
    const svg = await satori(satoriElement(plan, segment.layers, false) as never, { width: plan.width, height: plan.height, fonts: satoriFonts(plan) });
    layoutMs += performance.now() - mark;
    mark = performance.now();
    const rendered = new Resvg(svg, { fitTo: { mode: "original" }, font: { loadSystemFonts: false } }).render();
    drawLayer(canvas, rendered.pixels);
    rendered.free();
    rasterMs += performance.now() - mark;
  }

  mark = performance.now();
  const photon = new PhotonImage(new Uint8Array(canvas.data.buffer, canvas.data.byteOffset, canvas.data.byteLength), plan.width, plan.height);
  const jpeg = photon.get_bytes_jpeg(quality);
  photon.free();
  const encodeMs = performance.now() - mark;
  return {
    jpeg,
    width: plan.width,
    height: plan.height,
    pixels: canvas,
    plan,
    timings: { layoutMs, picturesMs, rasterMs, encodeMs, totalMs: performance.now() - started },
  };
}
