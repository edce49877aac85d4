import { Resvg } from "@cf-wasm/resvg/workerd";
import { satori } from "@cf-wasm/satori/workerd";
import type { Layer, PostContent, SvgLayer, TemplateDesign } from "../../contracts/content/template.ts";
import { isGradient, resolveColor, type Rgba } from "./colors.ts";
import type { FontLoader } from "./fonts.ts";
import {
  fontsNeeded,
  paintedFrame,
  picturesNeeded,
  planPin,
  satoriElement,
  satoriFonts,
  shapeMarkup,
  TEXT_SHADOW,
  type Frame,
  type PinPlan,
  type PlannedPicture,
  type Segment,
} from "./layout.ts";
import { blurAlpha, encodeJpeg, fillBox, pixelModuleMemoryBytes, warmPixelModule } from "./pixel-module.ts";
import { createBitmap, drawBitmap, drawLayer, drawShadow, fitGeometry, type Bitmap, type LinearGradient } from "./pixels.ts";
import { decodedPicture, drawResizedPicture, resizedPicture, type PictureSource } from "./pictures.ts";
import { addToAlpha, fillShape, parseSatoriSvg, rasterise, type VectorShape } from "./vector.ts";
import { layerShapes } from "./vector-shapes.ts";
import { noteLoad } from "./load-stats.ts";

/**
 * The worker's renderer: template + post to a 1000x1500 JPEG.
 *
 * Layout decides everything (layout.ts). Pictures, plain shapes and the
 * background are drawn straight into the pixel buffer (decoded once, resized
 * in WebAssembly, composited in typed-array code). Other shapes are written as
 * plain SVG and text is laid out by satori; resvg rasterises them on a
 * transparent canvas covering just those layers, laid over the buffer. Text
 * shadows are blurred by us rather than by resvg's filters. resvg is slowest at
 * photos, large gradients, masks and blur filters, so it never gets them. JPEG
 * by our WebAssembly encoder (4:2:0), about three times faster than photon's.
 */

export interface RenderTimings {
  /** Waiting for the fonts (zero once loaded: fonts are kept per isolate). */
  fontsMs: number;
  /** Planning, auto-fit and satori layout to SVG. */
  layoutMs: number;
  /** Fetching and decoding pictures (zero when cached). */
  picturesMs: number;
  /** resvg and the compositor. */
  rasterMs: number;
  encodeMs: number;
  totalMs: number;
  /**
   * The most memory the render's large buffers held at once: the pin's pixels,
   * the pictures it uses, its largest temporary buffer (a resized picture, or a
   * rasterised stretch with its shadow planes, counted twice for resvg's own
   * copy) and the pixel module's WebAssembly memory. JavaScript objects and the
   * libraries' code are not counted.
   */
  peakBufferBytes: number;
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
  /** Who rasterises text and shapes: our own rasteriser (the default) or resvg (tests compare the two). */
  textRasteriser?: "own" | "resvg";
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

async function drawPicture(canvas: Bitmap, picture: PlannedPicture, deps: RenderDependencies): Promise<number> {
  if (!picture.url) return 0;
  const image = await decodedPicture(deps.pictures, picture.url);
  if (!image) return 0;
  const { layer } = picture;
  const geometry = fitGeometry(image, layer, layer.fit ?? "cover");
  const opacity = layer.opacity ?? 1;
  const radius = geometry.offsetX === 0 && geometry.offsetY === 0 ? (layer.borderRadius ?? 0) : 0;
  if (image.opaque === true && opacity >= 1 && radius <= 0) {
    // Plain rows: copied into the pin (from the module's memory the first time this cut is drawn).
    drawResizedPicture(deps.pictures, picture.url, image, geometry, canvas, layer.x + geometry.offsetX, layer.y + geometry.offsetY);
    return geometry.width * geometry.height * 4;
  }
  const resized = resizedPicture(deps.pictures, picture.url, image, geometry);
  drawBitmap(canvas, resized, layer.x + geometry.offsetX, layer.y + geometry.offsetY, { opacity, radius });
  return resized.data.byteLength;
}

function drawShape(canvas: Bitmap, layer: SvgLayer, pin: Rgba) {
  const paint = paintOf(layer.fill, pin);
  if (!paint) return;
  fillBox(canvas, layer, paint, { opacity: layer.opacity ?? 1, radius: layer.borderRadius ?? 0, ellipse: layer.shape === "ellipse" });
}

/** Shapes as one plain SVG document covering `frame`; other layers in the stretch (rotated pictures) through satori. */
async function shapesSvg(plan: PinPlan, layers: Layer[], frame: Frame): Promise<string> {
  const parts: string[] = [];
  for (const layer of layers) {
    if (layer.type === "SVG") {
      parts.push(shapeMarkup(layer, plan));
      continue;
    }
    const own = paintedFrame(plan, [layer], 0);
    if (!own) continue;
    const inner = await satori(satoriElement(plan, [layer], false, own) as never, { width: own.width, height: own.height, fonts: satoriFonts(plan) });
    parts.push(inner.replace(/^<svg /, `<svg x="${own.x}" y="${own.y}" `));
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${frame.width}" height="${frame.height}" viewBox="${frame.x} ${frame.y} ${frame.width} ${frame.height}">${parts.join("")}</svg>`;
}

/** Text laid out by satori over `frame`, shadows left to drawTextShadow. */
function textsSvg(plan: PinPlan, layers: Layer[], frame: Frame): Promise<string> {
  return satori(satoriElement(plan, layers, false, frame, { omitShadows: true }) as never, {
    width: frame.width,
    height: frame.height,
    fonts: satoriFonts(plan),
  });
}

/** The CSS text-shadow of the preview, drawn from the text's own coverage: offset, blurred (box x3), tinted. */
function drawTextShadow(canvas: Bitmap, text: Uint8Array, frame: Frame, width: number, height: number) {
  const alpha = new Uint8Array(width * height);
  for (let i = 0, j = 3; i < alpha.length; i++, j += 4) alpha[i] = text[j];
  drawShadowOf(canvas, alpha, frame, width, height);
}

function drawShadowOf(canvas: Bitmap, alpha: Uint8Array, frame: Frame, width: number, height: number) {
  // A Gaussian of standard deviation blur / 2 is about three box passes of this radius.
  const sigma = TEXT_SHADOW.blur / 2;
  const radius = Math.round((Math.sqrt(4 * sigma * sigma + 1) - 1) / 2);
  const soft = blurAlpha(alpha, width, height, radius);
  drawShadow(canvas, soft, frame.x + TEXT_SHADOW.dx, frame.y + TEXT_SHADOW.dy, width, height, TEXT_SHADOW.color);
}

/**
 * Text (from satori's outlines) and shapes drawn by our own rasteriser (vector.ts), each
 * shape over its own box; with `shadow`, the shadow first, from the shapes'
 * combined coverage over the frame. Answers the bytes of its largest buffer.
 */
function drawOutlines(canvas: Bitmap, shapes: VectorShape[], frame: Frame, shadow: boolean): number {
  const coverages = shapes.map(rasterise);
  let largest = coverages.reduce((max, c) => Math.max(max, c.values.byteLength), 0);
  if (shadow) {
    const plane = new Float32Array(frame.width * frame.height);
    coverages.forEach((coverage, i) => {
      addToAlpha(plane, frame, coverage, shapes[i].color.a);
    });
    const alpha = new Uint8Array(plane.length);
    for (let i = 0; i < plane.length; i++) alpha[i] = Math.round(plane[i] * 255);
    drawShadowOf(canvas, alpha, frame, frame.width, frame.height);
    largest = Math.max(largest, plane.byteLength + alpha.byteLength * 2);
  }
  coverages.forEach((coverage, i) => {
    fillShape(canvas, coverage, shapes[i]);
  });
  return largest;
}

/**
 * Lets the isolate's event loop run once (a macrotask). satori's layout and our parse of its SVG run without
 * giving the event loop a turn, so a picture's fetch started before them would not send, receive or read
 * its answer until they end: on a cold isolate the render then waited for the picture after the layout.
 * `scheduler.wait` is the Workers runtime's own awaitable timer (a test runner may wrap setTimeout).
 */
const letFetchesProgress = () => scheduler.wait(0);

let layoutWarmed = false;

/** satori's first layout (its JavaScript and yoga's WebAssembly run once on a tiny box with no text), once per isolate. */
async function warmLayout() {
  if (layoutWarmed) return;
  layoutWarmed = true;
  const started = performance.now();
  await satori(
    {
      type: "div",
      props: {
        style: { display: "flex", flexDirection: "column", width: 40, height: 30, padding: 4, backgroundColor: "#ffffff" },
        children: [{ type: "div", props: { style: { flexGrow: 1, borderRadius: 6, backgroundColor: "#336699" } } }],
      },
    } as never,
    { width: 40, height: 30, fonts: [] },
  ).catch(() => undefined);
  noteLoad("warmUpMs", performance.now() - started);
}

export async function renderPin(design: TemplateDesign, post: PostContent, deps: RenderDependencies, quality = JPEG_QUALITY): Promise<RenderedPin> {
  const started = performance.now();
  // Pictures start loading at once, while the fonts load.
  const early = Promise.all(picturesNeeded(design, post).map((url) => decodedPicture(deps.pictures, url)));
  // Whether a picture is still on its way (a cached one is settled at once): then the layout below yields now and then.
  let fetching = true;
  void early.then(() => (fetching = false));
  const loading = deps.fonts.loadAll(fontsNeeded(design, post));
  // In a fresh isolate nothing is cached and the fetches above take a while: the pixel module and satori warm up meanwhile.
  // (Each once per isolate: a few milliseconds that save more on the first pin, and overlap the fetches.)
  warmPixelModule();
  const [fonts] = await Promise.all([loading, warmLayout()]);
  if (fetching) await letFetchesProgress();
  const fontsMs = performance.now() - started;
  let layoutMs = 0;
  let rasterMs = 0;
  let picturesMs = 0;
  let mark = performance.now();
  const plan = planPin(design, post, fonts);
  layoutMs += performance.now() - mark;

  // Text is laid out (satori, then its outlines parsed) while the pictures are still on their way:
  // on a cold isolate the picture's fetch and the first layout overlap instead of following each other.
  mark = performance.now();
  const laidOut = new Map<Segment, { frame: Frame; svg: string; shapes: VectorShape[] | null }>();
  for (const segment of plan.segments) {
    if (segment.kind !== "texts") continue;
    const frame = paintedFrame(plan, segment.layers);
    if (!frame) continue;
    const svg = await textsSvg(plan, segment.layers, frame);
    if (fetching) await letFetchesProgress();
    laidOut.set(segment, { frame, svg, shapes: deps.textRasteriser !== "resvg" ? parseSatoriSvg(svg, frame.x, frame.y) : null });
  }
  layoutMs += performance.now() - mark;

  // Every picture the plan uses (the early ones already on their way; cached pictures come back at once).
  mark = performance.now();
  await early;
  const pictures = await Promise.all(
    [...new Set([...plan.pictures.values()].map((p) => p.url))].map((url) => (url ? decodedPicture(deps.pictures, url) : null)),
  );
  picturesMs += performance.now() - mark;
  const pictureBytes = pictures.reduce((sum, bitmap) => sum + (bitmap ? bitmap.data.byteLength : 0), 0);
  let largestTemporary = 0;

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
        else largestTemporary = Math.max(largestTemporary, await drawPicture(canvas, item, deps));
      }
      rasterMs += performance.now() - mark;
      continue;
    }
    if (segment.kind === "shapes" && deps.textRasteriser !== "resvg") {
      // Shape layers as outlines for our rasteriser, unless one needs resvg (a stroked path, a rotated picture).
      mark = performance.now();
      const outlines = segment.layers.map((layer) => (layer.type === "SVG" ? layerShapes(layer, plan) : null));
      if (outlines.every((shapes) => shapes !== null)) {
        const shapes = outlines.flat() as VectorShape[];
        const frame = paintedFrame(plan, segment.layers) ?? { x: 0, y: 0, width: 0, height: 0 };
        largestTemporary = Math.max(largestTemporary, drawOutlines(canvas, shapes, frame, false));
        rasterMs += performance.now() - mark;
        continue;
      }
    }
    const prepared = segment.kind === "texts" ? laidOut.get(segment) : undefined;
    const frame = prepared?.frame ?? (segment.kind === "shapes" ? paintedFrame(plan, segment.layers) : null);
    if (!frame) continue;
    mark = performance.now();
    const svg = prepared ? prepared.svg : await shapesSvg(plan, segment.layers, frame);
    layoutMs += performance.now() - mark;
    mark = performance.now();
    const shapes = prepared?.shapes ?? null;
    if (shapes) {
      largestTemporary = Math.max(largestTemporary, drawOutlines(canvas, shapes, frame, segment.kind === "texts" && segment.shadow));
      rasterMs += performance.now() - mark;
      continue;
    }
    const rendered = new Resvg(svg, { fitTo: { mode: "original" }, font: { loadSystemFonts: false } }).render();
    const pixels = rendered.pixels;
    // resvg's own pixmap, its copy for us, and for shadows two alpha planes.
    largestTemporary = Math.max(largestTemporary, pixels.byteLength * 2 + (segment.kind === "texts" && segment.shadow ? (pixels.byteLength / 4) * 2 : 0));
    if (segment.kind === "texts" && segment.shadow) drawTextShadow(canvas, pixels, frame, rendered.width, rendered.height);
    drawLayer(canvas, pixels, frame.x, frame.y, rendered.width, rendered.height);
    rendered.free();
    rasterMs += performance.now() - mark;
  }

  mark = performance.now();
  const jpeg = encodeJpeg(canvas.data, plan.width, plan.height, quality);
  const encodeMs = performance.now() - mark;
  return {
    jpeg,
    width: plan.width,
    height: plan.height,
    pixels: canvas,
    plan,
    timings: {
      fontsMs,
      layoutMs,
      picturesMs,
      rasterMs,
      encodeMs,
      totalMs: performance.now() - started,
      peakBufferBytes: canvas.data.byteLength + pictureBytes + largestTemporary + jpeg.byteLength + pixelModuleMemoryBytes(),
    },
  };
}
