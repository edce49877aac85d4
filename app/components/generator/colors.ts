import type { RgbaColor } from "../../../contracts/content/design-settings.ts";

/** A design colour as CSS. */
export function cssColor(color: RgbaColor): string {
  return `rgba(${color.r}, ${color.g}, ${color.b}, ${color.a ?? 1})`;
}

/** "#rrggbb" for a colour input. */
export function hexOf(color: RgbaColor): string {
  return `#${[color.r, color.g, color.b].map((n) => n.toString(16).padStart(2, "0")).join("")}`;
}

/** A colour input's "#rrggbb" as a design colour (opaque). */
export function rgbaOf(hex: string): RgbaColor {
  const value = hex.replace("#", "");
  return { r: parseInt(value.slice(0, 2), 16), g: parseInt(value.slice(2, 4), 16), b: parseInt(value.slice(4, 6), 16), a: 1 };
}
