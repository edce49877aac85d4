import type { Color, Fill, Gradient } from "../../contracts/content/template.ts";

/** An sRGB colour with 0-255 channels and 0-1 alpha. */
export interface Rgba {
  r: number;
  g: number;
  b: number;
  a: number;
}

export const BLACK_TEXT: Rgba = { r: 17, g: 17, b: 17, a: 1 };
export const WHITE_TEXT: Rgba = { r: 255, g: 255, b: 255, a: 1 };

/** WCAG AA for normal text. */
export const AA_CONTRAST = 4.5;

export function parseHex(hex: string): Rgba {
  let h = hex.replace(/^#/, "");
  if (h.length === 3)
    h = h
      .split("")
      .map((c) => c + c)
      .join("");
  const n = (i: number) => parseInt(h.slice(i, i + 2), 16);
  return { r: n(0), g: n(2), b: n(4), a: h.length === 8 ? n(6) / 255 : 1 };
}

export function toCss({ r, g, b, a }: Rgba): string {
  const hex = (n: number) =>
    Math.round(Math.max(0, Math.min(255, n)))
      .toString(16)
      .padStart(2, "0");
  return a >= 1 ? `#${hex(r)}${hex(g)}${hex(b)}` : `rgba(${Math.round(r)},${Math.round(g)},${Math.round(b)},${+a.toFixed(3)})`;
}

function mix(a: Rgba, b: Rgba, amount: number): Rgba {
  return { r: a.r + (b.r - a.r) * amount, g: a.g + (b.g - a.g) * amount, b: a.b + (b.b - a.b) * amount, a: a.a };
}

/** The colour roles a post decides: "pin" and its darker and lighter shades. */
export function resolveColor(color: Color, pin: Rgba): Rgba | "auto" {
  switch (color) {
    case "pin":
      return { ...pin, a: 1 };
    case "pin-dark":
      return mix({ ...pin, a: 1 }, { r: 0, g: 0, b: 0, a: 1 }, 0.45);
    case "pin-light":
      return mix({ ...pin, a: 1 }, { r: 255, g: 255, b: 255, a: 1 }, 0.82);
    case "auto":
      return "auto";
    default:
      return parseHex(color);
  }
}

/** Relative luminance (WCAG 2.x). */
export function luminance({ r, g, b }: Rgba): number {
  const channel = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** Contrast ratio between two opaque colours, 1 to 21. */
export function contrastRatio(a: Rgba, b: Rgba): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** A translucent colour over an opaque one. */
export function over(top: Rgba, bottom: Rgba): Rgba {
  return { r: top.r * top.a + bottom.r * (1 - top.a), g: top.g * top.a + bottom.g * (1 - top.a), b: top.b * top.a + bottom.b * (1 - top.a), a: 1 };
}

/** Black or white, whichever contrasts more with the background. */
export function readableOn(background: Rgba): Rgba {
  return contrastRatio(BLACK_TEXT, background) >= contrastRatio(WHITE_TEXT, background) ? BLACK_TEXT : WHITE_TEXT;
}

/**
 * The text colour to draw: "auto" picks black or white; with fixLowContrastText
 * a colour below WCAG AA against its background is switched to black or white.
 */
export function textColor(wanted: Rgba | "auto", background: Rgba, fixLowContrast: boolean): Rgba {
  if (wanted === "auto") return readableOn(background);
  if (fixLowContrast && contrastRatio(over(wanted, background), background) < AA_CONTRAST) return readableOn(background);
  return wanted;
}

/** The single colour that stands for a fill when judging contrast (a gradient's midpoint). */
export function representative(fill: Fill, pin: Rgba, under: Rgba): Rgba {
  if (typeof fill === "object") {
    const from = resolveColor(fill.from, pin);
    const to = resolveColor(fill.to, pin);
    const a = from === "auto" ? under : over(from, under);
    const b = to === "auto" ? under : over(to, under);
    return mix(a, b, 0.5);
  }
  const color = resolveColor(fill, pin);
  return color === "auto" ? under : over(color, under);
}

export function isGradient(fill: Fill): fill is Gradient {
  return typeof fill === "object";
}

/** A fill as CSS (for satori): a colour or a linear-gradient. */
export function fillToCss(fill: Fill, pin: Rgba): string {
  if (isGradient(fill)) {
    const from = resolveColor(fill.from, pin);
    const to = resolveColor(fill.to, pin);
    const css = (c: Rgba | "auto") => (c === "auto" ? "transparent" : toCss(c));
    return `linear-gradient(${fill.angle}deg, ${css(from)}, ${css(to)})`;
  }
  const color = resolveColor(fill, pin);
  return color === "auto" ? "transparent" : toCss(color);
}
