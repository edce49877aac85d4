import type { PostContent, TemplateDesign } from "../../contracts/content/template.ts";
import { FontLoader } from "../../workers/render/fonts.ts";
import { fontsNeeded, planPin, previewElement, satoriFonts, type SatoriNode } from "../../workers/render/layout.ts";
import { SAMPLE_POST, sampleContentFor } from "./sample-post.ts";

/**
 * The browser half of the pin engine: the same layout as the worker's renderer
 * (workers/render/layout.ts), drawn by satori into SVG that the page shows. The
 * downloaded JPEG is the same design, rasterised in the worker.
 *
 * It runs in the page's preview workers (app/lib/preview-worker.ts) and, where
 * workers are unavailable, on the page itself: nothing here touches the DOM.
 */

let fonts: FontLoader | null = null;
function fontLoader() {
  fonts ??= new FontLoader({
    async fetchFont(url, signal) {
      const response = await fetch(url, { signal });
      if (!response.ok) throw new Error(`font ${url} answered ${response.status}`);
      return response.arrayBuffer();
    },
  });
  return fonts;
}

const origin = () => globalThis.location.origin;

/** Same-origin absolute URLs for the pictures (satori fetches them). */
function absolute(post: PostContent): PostContent {
  const fix = (url: string) => (url.startsWith("/") ? origin() + url : url);
  return {
    ...post,
    allImages: post.allImages?.map(fix),
    uploadedImages: post.uploadedImages?.map(fix),
    logoImage: post.logoImage ? fix(post.logoImage) : post.logoImage,
  };
}

// ---------------------------------------------------------------- pictures

/**
 * Pictures as data URLs, fetched once each: satori would otherwise fetch and
 * encode a post's photo again for every pin that shows it. Bounded, oldest
 * out first; a failed fetch is forgotten so a later preview tries again.
 */
const MAX_PICTURES = 48;
const pictures = new Map<string, Promise<string | null>>();

function readAsDataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(reader.error ?? new Error("unreadable picture"));
    reader.readAsDataURL(blob);
  });
}

/** Previews show pins at most ~300 px wide: photos twice that wide stay sharp on dense screens and are quick to embed and draw. */
export const PREVIEW_PICTURE_WIDTH = 600;

/**
 * A photo downscaled to the preview's needs, natively (createImageBitmap and
 * OffscreenCanvas, in the worker); anything else (transparency, a browser
 * without them, a failure) is used as it is.
 */
async function previewSized(picture: Blob): Promise<Blob> {
  if (picture.type !== "image/jpeg" || typeof OffscreenCanvas === "undefined" || typeof createImageBitmap === "undefined") return picture;
  try {
    const bitmap = await createImageBitmap(picture);
    if (bitmap.width <= PREVIEW_PICTURE_WIDTH * 1.25) {
      bitmap.close();
      return picture;
    }
    const height = Math.max(1, Math.round((bitmap.height * PREVIEW_PICTURE_WIDTH) / bitmap.width));
    const canvas = new OffscreenCanvas(PREVIEW_PICTURE_WIDTH, height);
    const context = canvas.getContext("2d");
    if (!context) {
      bitmap.close();
      return picture;
    }
    context.imageSmoothingQuality = "high";
    context.drawImage(bitmap, 0, 0, PREVIEW_PICTURE_WIDTH, height);
    bitmap.close();
    return await canvas.convertToBlob({ type: "image/jpeg", quality: 0.85 });
  } catch {
    return picture;
  }
}

/** Where the pictures' time went (fetched, then downscaled and encoded), since last taken (the worker hands them to the page with a preview). */
let pictureSteps: PreviewSteps = [];
export function takePictureSteps(): PreviewSteps {
  const taken = pictureSteps;
  pictureSteps = [];
  return taken;
}

function pictureData(url: string): Promise<string | null> {
  const absoluteUrl = url.startsWith("/") ? origin() + url : url;
  let pending = pictures.get(absoluteUrl);
  if (!pending) {
    const now = () => performance.timeOrigin + performance.now();
    const started = now();
    pending = fetch(absoluteUrl)
      .then(async (response) => {
        if (!response.ok) return null;
        const blob = await response.blob();
        const fetched = now();
        const data = await readAsDataUrl(await previewSized(blob));
        pictureSteps.push(["picture-fetch", started, fetched], ["picture-resize", fetched, now()]);
        return data;
      })
      .catch(() => null);
    pending.then((data) => {
      if (data === null) pictures.delete(absoluteUrl);
    });
    pictures.set(absoluteUrl, pending);
    while (pictures.size > MAX_PICTURES) pictures.delete(pictures.keys().next().value!);
  }
  return pending;
}

/** Starts fetching pictures that previews are about to draw (e.g. a page's photos as soon as it is read). */
export function preloadPictures(urls: string[]): void {
  for (const url of urls) void pictureData(url);
}

/** The element with each picture's address replaced by its data (addresses that fail stay: satori reports them). */
async function inlinePictures(element: SatoriNode): Promise<SatoriNode> {
  const images: SatoriNode[] = [];
  const walk = (node: SatoriNode | SatoriNode[] | string | undefined) => {
    if (!node || typeof node === "string") return;
    if (Array.isArray(node)) return node.forEach(walk);
    if (node.type === "img" && typeof node.props.src === "string" && !node.props.src.startsWith("data:")) images.push(node);
    walk(node.props.children);
  };
  walk(element);
  await Promise.all(
    images.map(async (image) => {
      const data = await pictureData(image.props.src as string);
      if (data) image.props.src = data;
    }),
  );
  return element;
}

// ---------------------------------------------------------------- drawing

/**
 * satori for the browser, loaded on first use. It must never be part of the
 * worker's server build: it compiles WebAssembly at load, which workerd refuses
 * (the worker uses @cf-wasm/satori instead).
 */
let satoriModule: Promise<typeof import("satori")> | null = null;
function loadSatori() {
  // A constant in each build: the server build drops the import entirely.
  satoriModule ??= import.meta.env.SSR ? Promise.reject(new Error("Pin previews are drawn in the browser")) : import("satori");
  return satoriModule;
}

/** Where a preview's time went (epoch milliseconds), for the page's performance timeline. */
export type PreviewSteps = [step: string, start: number, end: number][];

/** The pin as SVG text (browser only). */
export async function renderPreviewSvg(design: TemplateDesign, post: PostContent = sampleContentFor(design), steps?: PreviewSteps): Promise<string> {
  const now = () => performance.timeOrigin + performance.now();
  let mark = now();
  const step = (name: string) => {
    const end = now();
    steps?.push([name, mark, end]);
    mark = end;
  };
  const satoriLoading = loadSatori();
  const content = absolute(post);
  const loaded = await fontLoader().loadAll(fontsNeeded(design, content));
  step("fonts");
  const plan = planPin(design, content, loaded);
  step("layout");
  const element = await inlinePictures(previewElement(plan, design));
  step("pictures");
  const { default: satori } = await satoriLoading;
  step("engine");
  const svg = await satori(element as never, { width: plan.width, height: plan.height, fonts: stableFonts(plan) });
  step("satori");
  return svg;
}

/** Designs drawn in full while warming (the rest only have their fonts parsed): enough for every code path of satori to be compiled. */
const WARM_DRAWINGS = 8;

/** A small photo for warm-up drawings, made here (no request): a JPEG where the browser can encode one, else a PNG. */
async function warmPicture(): Promise<string> {
  const png = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";
  if (typeof OffscreenCanvas === "undefined") return png;
  try {
    const canvas = new OffscreenCanvas(16, 16);
    const context = canvas.getContext("2d");
    if (!context) return png;
    context.fillStyle = "#a0522d";
    context.fillRect(0, 0, 16, 16);
    return await readAsDataUrl(await canvas.convertToBlob({ type: "image/jpeg", quality: 0.85 }));
  } catch {
    return png;
  }
}

/**
 * Gets the engine ready for these designs: satori compiled, their fonts
 * fetched, each set of fonts parsed by satori once, and the first designs
 * drawn in full with sample content (a made-up photo, no request), so that
 * the first previews only lay out and draw with code the browser has
 * already compiled. A failure shows later, in the preview. `steps` says
 * where the time went (engine, fonts, drawings).
 */
export async function warmEngine(designs: TemplateDesign[], steps?: PreviewSteps): Promise<void> {
  const now = () => performance.timeOrigin + performance.now();
  const content = absolute(SAMPLE_POST);
  const started = now();
  const engineLoading = loadSatori().then((module) => {
    steps?.push(["warm-engine", started, now()]);
    return module;
  });
  const fontsLoading = Promise.all(designs.map((design) => fontLoader().loadAll(fontsNeeded(design, content)))).then(() =>
    steps?.push(["warm-fonts", started, now()]),
  );
  const [engine] = await Promise.allSettled([engineLoading, fontsLoading]);
  if (engine.status !== "fulfilled") return;
  const satori = engine.value.default;
  const parsedFrom = now();
  const parsed = new Set<ReturnType<typeof satoriFonts>>();
  for (const design of designs) {
    try {
      const plan = planPin(design, content, await fontLoader().loadAll(fontsNeeded(design, content)));
      const fonts = stableFonts(plan);
      if (parsed.has(fonts) || fonts.length === 0) continue;
      parsed.add(fonts);
      await satori({ type: "div", props: { style: { display: "flex", fontFamily: fonts[0]!.name }, children: "Aa" } } as never, { width: 8, height: 8, fonts });
    } catch {
      // Drawn (and reported) when a preview needs it.
    }
  }
  const drawnFrom = now();
  steps?.push(["warm-font-sets", parsedFrom, drawnFrom]);
  const picture = await warmPicture();
  for (const design of designs.slice(0, WARM_DRAWINGS)) {
    try {
      const sample = { ...sampleContentFor(design), allImages: [picture, picture, picture, picture], uploadedImages: [], logoImage: picture };
      const plan = planPin(design, sample, await fontLoader().loadAll(fontsNeeded(design, sample)));
      await satori(previewElement(plan, design) as never, { width: plan.width, height: plan.height, fonts: stableFonts(plan) });
    } catch {
      // As above.
    }
  }
  steps?.push(["warm-drawings", drawnFrom, now()]);
}

/**
 * satori caches parsed fonts per fonts array (by identity): hand it the same
 * array for the same set of fonts, or every preview parses them again.
 */
const fontSets = new Map<string, ReturnType<typeof satoriFonts>>();
function stableFonts(plan: Parameters<typeof satoriFonts>[0]) {
  const key = plan.fonts.map((font) => `${font.family}|${font.weight}|${font.data.byteLength}`).join(",");
  let fonts = fontSets.get(key);
  if (!fonts) {
    fonts = satoriFonts(plan);
    fontSets.set(key, fonts);
  }
  return fonts;
}
