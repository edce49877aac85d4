import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import type { Font } from "@shuding/opentype.js";
import { autoFitText, blockHeight, fixedSizeText, MAX_FONT_SIZE, MIN_FONT_SIZE } from "../../../workers/render/text-fit.ts";

// opentype.js is CommonJS under Node; the worker bundles its ES module.
const opentype = createRequire(import.meta.url)("opentype.js") as { parse(buffer: ArrayBuffer): Font };
const load = (slug: string) => {
  const file = readFileSync(new URL(`../../../node_modules/@fontsource/${slug}/files/${slug}-latin-400-normal.woff`, import.meta.url));
  return opentype.parse(file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength));
};
const carter = load("carter-one");
const pacifico = load("pacifico");

/** Width of a line as the fitter measures it (advances plus kerning), at 1 px. */
function unitWidth(font: Font, text: string) {
  const glyphs = [...text].map((c) => font.charToGlyph(c));
  return glyphs.reduce((sum, g, i) => sum + (g.advanceWidth ?? 0) + (i ? font.getKerningValue(glyphs[i - 1], g) : 0), 0) / font.unitsPerEm;
}

describe("auto-fit", () => {
  const box = { width: 800, height: 400 };

  it("finds the largest size at which the text fits its box, and one pixel more would not", () => {
    const fit = autoFitText({ font: carter, text: "15 COZY FALL DECOR IDEAS FOR A SMALL LIVING ROOM", box, lineHeight: 1.15 });
    expect(fit.truncated).toBe(false);
    expect(fit.height).toBeLessThanOrEqual(box.height);
    for (const line of fit.lines) expect(unitWidth(carter, line) * fit.fontSize).toBeLessThanOrEqual(box.width);
    const bigger = autoFitText({ font: carter, text: fit.lines.join(" "), box: { ...box, height: fit.height - 1 }, lineHeight: 1.15 });
    expect(bigger.fontSize).toBeLessThan(fit.fontSize);
  });

  it("stays between 5 and 600 px", () => {
    expect(autoFitText({ font: carter, text: "Hi", box: { width: 4000, height: 4000 }, lineHeight: 1 }).fontSize).toBe(MAX_FONT_SIZE);
    const tiny = autoFitText({ font: carter, text: "word ".repeat(400), box: { width: 100, height: 40 }, lineHeight: 1.2 });
    expect(tiny.fontSize).toBe(MIN_FONT_SIZE);
    expect(tiny.truncated).toBe(true);
    expect(tiny.lines.at(-1)).toMatch(/…$/);
  });

  it("never splits a word: a long word makes the text smaller instead", () => {
    const fit = autoFitText({ font: carter, text: "Supercalifragilisticexpialidocious tips", box: { width: 500, height: 600 }, lineHeight: 1.1 });
    expect(fit.lines).toContain("Supercalifragilisticexpialidocious");
  });

  it("counts glyphs that reach beyond the line height (tall script fonts)", () => {
    const content = (pacifico.ascender - pacifico.descender) / pacifico.unitsPerEm;
    expect(content).toBeGreaterThan(1.15);
    expect(blockHeight(pacifico, 2, 100, 1.15)).toBeCloseTo(2 * 115 + (content - 1.15) * 100, 5);
    const fit = autoFitText({ font: pacifico, text: "Cozy fall decor ideas", box, lineHeight: 1.15 });
    expect(blockHeight(pacifico, fit.lines.length, fit.fontSize, 1.15)).toBeLessThanOrEqual(box.height);
  });

  it("respects maxLines", () => {
    const fit = autoFitText({ font: carter, text: "one two three four five six seven eight", box, lineHeight: 1.1, maxLines: 1 });
    expect(fit.lines).toHaveLength(1);
  });
});

describe("fixed-size text", () => {
  it("wraps to the box and cuts with an ellipsis when it would overflow", () => {
    const text = fixedSizeText({
      font: carter,
      text: "A fairly long description that cannot possibly fit in two lines of this narrow box",
      box: { width: 300, height: 80 },
      lineHeight: 1.2,
      fontSize: 30,
    });
    expect(text.truncated).toBe(true);
    expect(text.height).toBeLessThanOrEqual(80);
    expect(text.lines.at(-1)).toMatch(/…$/);
  });
});
