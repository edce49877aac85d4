import type { Font } from "@shuding/opentype.js";

/** Font sizes auto-fit searches between (spec section 9). */
export const MIN_FONT_SIZE = 5;
export const MAX_FONT_SIZE = 600;
/** Lines are fitted into this share of the box width, leaving room for rendering differences. */
const WIDTH_SAFETY = 0.97;

export interface TextBox {
  width: number;
  height: number;
}

export interface TextMetrics {
  /** The text split into lines; the layout draws exactly these. */
  lines: string[];
  fontSize: number;
  /** Widest line in px. */
  width: number;
  /** Lines x line height in px. */
  height: number;
  /** True when the last line was cut short with an ellipsis. */
  truncated: boolean;
}

/** Word widths at 1 px, measured once per font and text. */
class WordMeter {
  private readonly cache = new Map<string, number>();
  private readonly font: Font;
  private readonly letterSpacing: number;
  constructor(font: Font, letterSpacing: number) {
    this.font = font;
    this.letterSpacing = letterSpacing;
  }

  /**
   * Advance widths plus pair kerning, in em. Measured from the glyphs directly
   * (no ligature substitution): ligatures are never wider, so this errs on the
   * side of fitting.
   */
  private measure(text: string): number {
    const glyphs = [...text].map((char) => this.font.charToGlyph(char));
    let units = 0;
    for (let i = 0; i < glyphs.length; i++) {
      units += glyphs[i].advanceWidth ?? 0;
      if (i > 0) units += this.font.getKerningValue(glyphs[i - 1], glyphs[i]);
    }
    return units / this.font.unitsPerEm;
  }

  /** Width of a run of text at 1 px (letter spacing is in em). */
  unitWidth(text: string): number {
    let width = this.cache.get(text);
    if (width === undefined) {
      width = this.measure(text) + this.letterSpacing * [...text].length;
      this.cache.set(text, width);
    }
    return width;
  }
}

/** Greedy line breaking at spaces and explicit newlines, at one size. Null when a single word is wider than the box. */
function wrap(meter: WordMeter, paragraphs: string[][], fontSize: number, maxWidth: number): { lines: string[]; width: number } | null {
  const lines: string[] = [];
  let widest = 0;
  const space = meter.unitWidth(" ") * fontSize;
  for (const words of paragraphs) {
    let line = "";
    let lineWidth = 0;
    for (const word of words) {
      const wordWidth = meter.unitWidth(word) * fontSize;
      if (wordWidth > maxWidth) return null;
      if (line && lineWidth + space + wordWidth > maxWidth) {
        lines.push(line);
        widest = Math.max(widest, lineWidth);
        line = word;
        lineWidth = wordWidth;
      } else {
        lineWidth = line ? lineWidth + space + wordWidth : wordWidth;
        line = line ? `${line} ${word}` : word;
      }
    }
    lines.push(line);
    widest = Math.max(widest, lineWidth);
  }
  return { lines, width: widest };
}

function paragraphsOf(text: string): string[][] {
  return text
    .split(/\r?\n/)
    .map((paragraph) => paragraph.split(/\s+/).filter(Boolean))
    .filter((words, i, all) => words.length > 0 || (i > 0 && i < all.length - 1));
}

export interface FitOptions {
  font: Font;
  text: string;
  box: TextBox;
  lineHeight: number;
  letterSpacing?: number;
  maxLines?: number;
}

/**
 * Height of a block of lines as drawn: the line boxes, plus what the glyphs
 * reach beyond them when the font's ascent + descent exceed the line height
 * (CSS splits that excess above the first line and below the last).
 */
export function blockHeight(font: Font, lines: number, size: number, lineHeight: number): number {
  const content = (font.ascender - font.descender) / font.unitsPerEm;
  const overhang = Math.max(0, content - lineHeight) * size;
  return lines * size * lineHeight + overhang;
}

function fits(meter: WordMeter, paragraphs: string[][], size: number, options: FitOptions) {
  const wrapped = wrap(meter, paragraphs, size, options.box.width * WIDTH_SAFETY);
  if (!wrapped) return null;
  const height = blockHeight(options.font, wrapped.lines.length, size, options.lineHeight);
  if (height > options.box.height) return null;
  if (options.maxLines && wrapped.lines.length > options.maxLines) return null;
  return { ...wrapped, height };
}

/**
 * The largest whole font size between 5 and 600 px at which the text fills its
 * box without overflowing (binary search: fitting is monotone in the size).
 * Text that cannot fit even at 5 px is cut with an ellipsis.
 */
export function autoFitText(options: FitOptions): TextMetrics {
  const meter = new WordMeter(options.font, options.letterSpacing ?? 0);
  const paragraphs = paragraphsOf(options.text);
  if (paragraphs.length === 0) return { lines: [], fontSize: MIN_FONT_SIZE, width: 0, height: 0, truncated: false };
  let low = MIN_FONT_SIZE;
  let high = MAX_FONT_SIZE;
  let best: ReturnType<typeof fits> = null;
  let bestSize = MIN_FONT_SIZE;
  while (low <= high) {
    const mid = Math.floor((low + high) / 2);
    const result = fits(meter, paragraphs, mid, options);
    if (result) {
      best = result;
      bestSize = mid;
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  if (best) return { lines: best.lines, fontSize: bestSize, width: best.width, height: best.height, truncated: false };
  return fixedSizeText({ ...options, fontSize: MIN_FONT_SIZE });
}

/**
 * Text at a fixed size: wrapped to the box, and cut with an ellipsis when it
 * has more lines than fit (or than maxLines), so it never overflows.
 */
export function fixedSizeText(options: FitOptions & { fontSize: number }): TextMetrics {
  const meter = new WordMeter(options.font, options.letterSpacing ?? 0);
  const maxWidth = options.box.width * WIDTH_SAFETY;
  const size = options.fontSize;
  // Break words wider than the box into pieces that fit.
  const paragraphs = paragraphsOf(options.text).map((words) => words.flatMap((word) => splitLongWord(meter, word, size, maxWidth)));
  const wrapped = wrap(meter, paragraphs, size, maxWidth) ?? { lines: [], width: 0 };
  let room = Math.max(1, Math.floor(options.box.height / (size * options.lineHeight)));
  while (room > 1 && blockHeight(options.font, room, size, options.lineHeight) > options.box.height) room -= 1;
  const limit = Math.min(room, options.maxLines ?? room);
  let lines = wrapped.lines;
  let truncated = false;
  if (lines.length > limit) {
    truncated = true;
    lines = lines.slice(0, limit);
    let last = lines[limit - 1];
    while (last && meter.unitWidth(`${last}…`) * size > maxWidth) last = last.slice(0, -1).trimEnd();
    lines[limit - 1] = `${last}…`;
  }
  const width = Math.max(0, ...lines.map((line) => meter.unitWidth(line) * size));
  return { lines, fontSize: size, width, height: blockHeight(options.font, lines.length, size, options.lineHeight), truncated };
}

function splitLongWord(meter: WordMeter, word: string, size: number, maxWidth: number): string[] {
  if (meter.unitWidth(word) * size <= maxWidth) return [word];
  const pieces: string[] = [];
  let piece = "";
  for (const char of word) {
    if (piece && meter.unitWidth(piece + char) * size > maxWidth) {
      pieces.push(piece);
      piece = char;
    } else piece += char;
  }
  if (piece) pieces.push(piece);
  return pieces;
}
