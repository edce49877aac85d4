/**
 * The bundled fonts (latin subsets of @fontsource packages, copied to
 * /fonts/<slug>-<weight>.woff by scripts/copy-fonts.ts) and the font loader
 * shared by the browser preview and the worker. Satori reads TTF, OTF and WOFF
 * (not WOFF2: uploads are converted when stored).
 */

export interface BundledFont {
  family: string;
  slug: string;
  weights: (400 | 700)[];
  category: "sans-serif" | "serif" | "display" | "script";
}

export const BUNDLED_FONTS: BundledFont[] = [
  { family: "Carter One", slug: "carter-one", weights: [400], category: "display" },
  { family: "Inter", slug: "inter", weights: [400, 700], category: "sans-serif" },
  { family: "Roboto", slug: "roboto", weights: [400, 700], category: "sans-serif" },
  { family: "Open Sans", slug: "open-sans", weights: [400, 700], category: "sans-serif" },
  { family: "Montserrat", slug: "montserrat", weights: [400, 700], category: "sans-serif" },
  { family: "Lato", slug: "lato", weights: [400, 700], category: "sans-serif" },
  { family: "Poppins", slug: "poppins", weights: [400, 700], category: "sans-serif" },
  { family: "Nunito", slug: "nunito", weights: [400, 700], category: "sans-serif" },
  { family: "Raleway", slug: "raleway", weights: [400, 700], category: "sans-serif" },
  { family: "Oswald", slug: "oswald", weights: [400, 700], category: "sans-serif" },
  { family: "Playfair Display", slug: "playfair-display", weights: [400, 700], category: "serif" },
  { family: "Merriweather", slug: "merriweather", weights: [400, 700], category: "serif" },
  { family: "Bebas Neue", slug: "bebas-neue", weights: [400], category: "display" },
  { family: "Anton", slug: "anton", weights: [400], category: "display" },
  { family: "Archivo Black", slug: "archivo-black", weights: [400], category: "display" },
  { family: "Abril Fatface", slug: "abril-fatface", weights: [400], category: "display" },
  { family: "Lobster", slug: "lobster", weights: [400], category: "script" },
  { family: "Pacifico", slug: "pacifico", weights: [400], category: "script" },
  { family: "Dancing Script", slug: "dancing-script", weights: [400, 700], category: "script" },
  { family: "Great Vibes", slug: "great-vibes", weights: [400], category: "script" },
];

/** What a font that cannot be loaded falls back to (a sans-serif, spec section 4). */
export const FALLBACK_FONT_FAMILY = "Inter";
export const FONTS_PATH = "/fonts/";

export function bundledFont(family: string): BundledFont | undefined {
  const wanted = family.trim().toLowerCase();
  return BUNDLED_FONTS.find((font) => font.family.toLowerCase() === wanted);
}

/** The weight a bundled family really has closest to the one asked for. */
export function availableWeight(font: BundledFont, weight: number): 400 | 700 {
  return font.weights.includes(weight as 400 | 700) ? (weight as 400 | 700) : font.weights[0];
}

export function bundledFontPath(font: BundledFont, weight: 400 | 700): string {
  return `${FONTS_PATH}${font.slug}-${weight}.woff`;
}
