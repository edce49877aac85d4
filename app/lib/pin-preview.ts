import type { PostContent, TemplateDesign } from "../../contracts/template.ts";
import { FontLoader } from "../../workers/render/fonts.ts";
import { fontsNeeded, planPin, previewElement, satoriFonts } from "../../workers/render/layout.ts";

/**
 * The browser half of the pin engine: the same layout as the worker's renderer
 * (workers/render/layout.ts), drawn by satori into SVG that the page shows. The
 * downloaded JPEG is the same design, rasterised in the worker.
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

/** Sample photos (from the demo blog) for previews of templates without a post. */
export const SAMPLE_PHOTOS = [
  "/samples/amalfi-coast-itinerary-1.jpg",
  "/samples/cozy-small-living-room-ideas-2.jpg",
  "/samples/balcony-herb-garden-1.jpg",
  "/samples/one-pan-lemon-garlic-chicken-1.jpg",
  "/samples/berry-smoothie-bowls-1.jpg",
  "/samples/fall-capsule-wardrobe-1.jpg",
];

/** What a template shows when no post fills it. */
export const SAMPLE_POST: PostContent = {
  title: "15 cozy fall decor ideas for a small living room",
  description: "Simple, budget-friendly ways to make a small living room feel warm and welcoming this autumn.",
  URLText: "linenandlark.com",
  brandName: "Linen & Lark",
  price: "$24",
  allImages: SAMPLE_PHOTOS,
};

/** Same-origin absolute URLs for the pictures (satori fetches them). */
function absolute(post: PostContent): PostContent {
  const origin = window.location.origin;
  const fix = (url: string) => (url.startsWith("/") ? origin + url : url);
  return {
    ...post,
    allImages: post.allImages?.map(fix),
    uploadedImages: post.uploadedImages?.map(fix),
    logoImage: post.logoImage ? fix(post.logoImage) : post.logoImage,
  };
}

/**
 * satori for the browser, loaded on first use. It must never be part of the
 * worker's server build: it compiles WebAssembly at load, which workerd refuses
 * (the worker uses @cf-wasm/satori instead).
 */
let satoriModule: Promise<typeof import("satori")> | null = null;

/** The pin as SVG text (browser only). */
export async function renderPreviewSvg(design: TemplateDesign, post: PostContent = SAMPLE_POST): Promise<string> {
  // A constant in each build: the server build drops the import entirely.
  satoriModule ??= import.meta.env.SSR ? Promise.reject(new Error("Pin previews are drawn in the browser")) : import("satori");
  const { default: satori } = await satoriModule;
  const content = absolute(post);
  const loaded = await fontLoader().loadAll(fontsNeeded(design, content));
  const plan = planPin(design, content, loaded);
  return satori(previewElement(plan, design) as never, { width: plan.width, height: plan.height, fonts: stableFonts(plan) });
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
