import { FONTS_PATH } from "./font-catalog.ts";

/**
 * The bundled fonts as the worker reads them: each one's sfnt, written from its
 * WOFF by scripts/copy-fonts.ts to ./fonts/<slug>-<weight>.bin, imported as a
 * data module the first time an isolate needs it (decision 074). Before, the
 * worker fetched the WOFF from its static assets and unpacked it, and in a
 * fresh isolate that fetch ran the static-assets Worker on the same thread as
 * the render. One entry per file of BUNDLED_FONTS (test/unit/font-files.test.ts).
 */
export const BUNDLED_FONT_FILES: Record<string, () => Promise<{ default: ArrayBuffer }>> = {
  "carter-one-400": () => import("./fonts/carter-one-400.bin"),
  "inter-400": () => import("./fonts/inter-400.bin"),
  "inter-700": () => import("./fonts/inter-700.bin"),
  "roboto-400": () => import("./fonts/roboto-400.bin"),
  "roboto-700": () => import("./fonts/roboto-700.bin"),
  "open-sans-400": () => import("./fonts/open-sans-400.bin"),
  "open-sans-700": () => import("./fonts/open-sans-700.bin"),
  "montserrat-400": () => import("./fonts/montserrat-400.bin"),
  "montserrat-700": () => import("./fonts/montserrat-700.bin"),
  "lato-400": () => import("./fonts/lato-400.bin"),
  "lato-700": () => import("./fonts/lato-700.bin"),
  "poppins-400": () => import("./fonts/poppins-400.bin"),
  "poppins-700": () => import("./fonts/poppins-700.bin"),
  "nunito-400": () => import("./fonts/nunito-400.bin"),
  "nunito-700": () => import("./fonts/nunito-700.bin"),
  "raleway-400": () => import("./fonts/raleway-400.bin"),
  "raleway-700": () => import("./fonts/raleway-700.bin"),
  "oswald-400": () => import("./fonts/oswald-400.bin"),
  "oswald-700": () => import("./fonts/oswald-700.bin"),
  "playfair-display-400": () => import("./fonts/playfair-display-400.bin"),
  "playfair-display-700": () => import("./fonts/playfair-display-700.bin"),
  "merriweather-400": () => import("./fonts/merriweather-400.bin"),
  "merriweather-700": () => import("./fonts/merriweather-700.bin"),
  "bebas-neue-400": () => import("./fonts/bebas-neue-400.bin"),
  "anton-400": () => import("./fonts/anton-400.bin"),
  "archivo-black-400": () => import("./fonts/archivo-black-400.bin"),
  "abril-fatface-400": () => import("./fonts/abril-fatface-400.bin"),
  "lobster-400": () => import("./fonts/lobster-400.bin"),
  "pacifico-400": () => import("./fonts/pacifico-400.bin"),
  "dancing-script-400": () => import("./fonts/dancing-script-400.bin"),
  "dancing-script-700": () => import("./fonts/dancing-script-700.bin"),
  "great-vibes-400": () => import("./fonts/great-vibes-400.bin"),
};

/** A bundled font's sfnt by its /fonts/ path (the path the browser loads its WOFF from). */
export async function bundledFontBytes(url: string): Promise<ArrayBuffer> {
  const name = url.startsWith(FONTS_PATH) ? url.slice(FONTS_PATH.length).replace(/\.woff$/, "") : "";
  const load = Object.hasOwn(BUNDLED_FONT_FILES, name) ? BUNDLED_FONT_FILES[name] : undefined;
  if (!load) throw new Error(`font ${url} is not a bundled font`);
  return (await load()).default;
}
