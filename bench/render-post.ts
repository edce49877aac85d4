// The sample post and font source both halves of the workerd render benchmark use.
import { FontLoader } from "../workers/render/fonts.ts";
import { bundledFontBytes } from "../workers/render/bundled-font-files.ts";
import { httpPictureSource } from "../workers/render/pictures.ts";

const PHOTOS = ["amalfi-coast-itinerary-1.jpg", "cozy-small-living-room-ideas-2.jpg", "balcony-herb-garden-1.jpg", "one-pan-lemon-garlic-chicken-1.jpg"];

/** The pictures' fetch as the app runs it locally: the sandbox is its one trusted origin (decision 076). */
export function benchPictures(sandboxUrl: string, options: { bypassResize?: boolean } = {}) {
  return httpPictureSource({ DNS_RESOLVER_URL: `${sandboxUrl}/dns`, TRUSTED_FETCH_ORIGINS: new URL(sandboxUrl).origin }, options);
}

export function benchPost(sandboxUrl: string) {
  return {
    title: "15 cozy fall decor ideas for a small living room",
    description: "Simple, budget-friendly ways to make a small living room feel warm and welcoming this autumn, from layered textiles to candlelight.",
    URLText: "linenandlark.com",
    brandName: "Linen & Lark",
    price: "$24",
    allImages: PHOTOS.map((name) => `${sandboxUrl}/blog-demo/images/${name}`),
  };
}

/** The bundled fonts, from the worker's own modules as the worker loads them (workers/render/worker-fonts.ts). */
export function benchFonts(): FontLoader {
  return new FontLoader({ fetchFont: bundledFontBytes });
}
