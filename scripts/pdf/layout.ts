/**
 * The layout of the PDFs the app serves from public/ (the Success plan, the privacy policy, the
 * affiliate agreement): a top-to-bottom flow of headings, paragraphs, lists, callouts and tables in
 * the standard Helvetica fonts, reproducible byte for byte.
 */
import {
  beginText,
  endText,
  moveText,
  popGraphicsState,
  pushGraphicsState,
  rgb,
  setFillingColor,
  setFontAndSize,
  showText,
  type Color,
  type PDFDocument,
  type PDFFont,
  type PDFName,
  type PDFPage,
} from "pdf-lib";

// ---- look ----------------------------------------------------------------------------------------

export const PAGE = { width: 612, height: 792 }; // US Letter
export const MARGIN = { left: 60, right: 60, top: 70, bottom: 70 };
export const CONTENT_WIDTH = PAGE.width - MARGIN.left - MARGIN.right;

const hexColor = (hex: string) => rgb(parseInt(hex.slice(1, 3), 16) / 255, parseInt(hex.slice(3, 5), 16) / 255, parseInt(hex.slice(5, 7), 16) / 255);
export const BRAND = hexColor("#2f8f77");
export const BRAND_DARK = hexColor("#1f5f4f");
export const BRAND_TINT = hexColor("#e6f2ee");
export const INK = hexColor("#1d2524");
export const MUTED = hexColor("#5b6664");
export const WHITE = rgb(1, 1, 1);

export interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
  italic: PDFFont;
}

/** A run of text in one font; `**bold**` in the source strings becomes a bold run. */
interface Run {
  text: string;
  font: PDFFont;
}

// ---- layout --------------------------------------------------------------------------------------

/** A top-to-bottom flow of blocks over as many pages as needed. */
export class Flow {
  doc: PDFDocument;
  fonts: Fonts;
  /** The running header of every page the flow starts. */
  header: string;
  page!: PDFPage;
  y = 0;

  constructor(doc: PDFDocument, fonts: Fonts, header: string) {
    this.doc = doc;
    this.fonts = fonts;
    this.header = header;
  }

  newPage() {
    this.page = this.doc.addPage([PAGE.width, PAGE.height]);
    this.y = PAGE.height - MARGIN.top;
    // Running header on content pages.
    this.page.drawRectangle({ x: 0, y: PAGE.height - 8, width: PAGE.width, height: 8, color: BRAND });
    this.page.drawText(this.header.toUpperCase(), { x: MARGIN.left, y: PAGE.height - 40, size: 8, font: this.fonts.bold, color: BRAND });
    this.page.drawLine({
      start: { x: MARGIN.left, y: PAGE.height - 47 },
      end: { x: PAGE.width - MARGIN.right, y: PAGE.height - 47 },
      thickness: 0.5,
      color: BRAND_TINT,
    });
  }

  /** Starts a new page unless `height` points still fit on this one. */
  ensure(height: number) {
    if (this.y - height < MARGIN.bottom) this.newPage();
  }

  section(title: string, kicker?: string) {
    this.ensure(90);
    if (this.y < PAGE.height - MARGIN.top) this.y -= 14;
    if (kicker) {
      this.page.drawText(kicker.toUpperCase(), { x: MARGIN.left, y: this.y - 9, size: 9, font: this.fonts.bold, color: MUTED });
      this.y -= 16;
    }
    const lines = wrap(runs(title, this.fonts.bold, this.fonts.bold), 21, CONTENT_WIDTH);
    for (const line of lines) {
      drawLine(this.page, line, MARGIN.left, this.y - 21, 21, BRAND);
      this.y -= 26;
    }
    this.page.drawRectangle({ x: MARGIN.left, y: this.y - 4, width: 44, height: 3, color: BRAND });
    this.y -= 18;
  }

  subheading(text: string) {
    this.ensure(50);
    this.y -= 6;
    this.page.drawText(text, { x: MARGIN.left, y: this.y - 12, size: 12.5, font: this.fonts.bold, color: BRAND_DARK });
    this.y -= 20;
  }

  paragraph(text: string, options: { size?: number; color?: Color; font?: PDFFont; after?: number } = {}) {
    const size = options.size ?? 10.5;
    const lineHeight = size * 1.45;
    const lines = wrap(runs(text, options.font ?? this.fonts.regular, this.fonts.bold), size, CONTENT_WIDTH);
    for (const line of lines) {
      this.ensure(lineHeight);
      drawLine(this.page, line, MARGIN.left, this.y - size, size, options.color ?? INK);
      this.y -= lineHeight;
    }
    this.y -= options.after ?? 6;
  }

  bullets(items: string[], marker: "dot" | "box" | "number" = "dot") {
    const size = 10.5;
    const lineHeight = size * 1.45;
    const indent = marker === "box" ? 22 : 16;
    items.forEach((item, index) => {
      const lines = wrap(runs(item, this.fonts.regular, this.fonts.bold), size, CONTENT_WIDTH - indent);
      this.ensure(Math.min(lines.length, 2) * lineHeight);
      const top = this.y;
      if (marker === "dot") this.page.drawCircle({ x: MARGIN.left + 4, y: top - size * 0.62, size: 2.4, color: BRAND });
      if (marker === "box") {
        this.page.drawRectangle({ x: MARGIN.left + 1, y: top - size - 1, width: 10, height: 10, borderColor: BRAND, borderWidth: 1.2 });
      }
      if (marker === "number") {
        this.page.drawText(`${index + 1}.`, { x: MARGIN.left, y: top - size, size, font: this.fonts.bold, color: BRAND });
      }
      for (const line of lines) {
        this.ensure(lineHeight);
        drawLine(this.page, line, MARGIN.left + indent, this.y - size, size, INK);
        this.y -= lineHeight;
      }
      this.y -= 4;
    });
    this.y -= 4;
  }

  /** A tinted box with a label, e.g. a tip or an example. */
  callout(label: string, text: string) {
    const size = 10;
    const lineHeight = size * 1.45;
    const padding = 12;
    // "\n" starts a new line inside the box.
    const lines = text.split("\n").flatMap((part) => wrap(runs(part, this.fonts.regular, this.fonts.bold), size, CONTENT_WIDTH - 2 * padding - 4));
    const height = padding + 14 + lines.length * lineHeight + padding - 4;
    this.ensure(height + 8);
    this.y -= 4;
    this.page.drawRectangle({ x: MARGIN.left, y: this.y - height, width: CONTENT_WIDTH, height, color: BRAND_TINT });
    this.page.drawRectangle({ x: MARGIN.left, y: this.y - height, width: 4, height, color: BRAND });
    this.page.drawText(label.toUpperCase(), { x: MARGIN.left + padding + 4, y: this.y - padding - 8, size: 8.5, font: this.fonts.bold, color: BRAND_DARK });
    let y = this.y - padding - 14;
    for (const line of lines) {
      drawLine(this.page, line, MARGIN.left + padding + 4, y - size, size, INK);
      y -= lineHeight;
    }
    this.y -= height + 12;
  }

  /** Two columns, the first bold: a small reference table. */
  table(rows: [string, string][], firstWidth = 120) {
    const size = 10;
    const lineHeight = size * 1.4;
    rows.forEach(([left, right], index) => {
      const lines = wrap(runs(right, this.fonts.regular, this.fonts.bold), size, CONTENT_WIDTH - firstWidth - 16);
      const height = lines.length * lineHeight + 10;
      this.ensure(height);
      if (index % 2 === 0) this.page.drawRectangle({ x: MARGIN.left, y: this.y - height, width: CONTENT_WIDTH, height, color: BRAND_TINT });
      this.page.drawText(left, { x: MARGIN.left + 8, y: this.y - 5 - size, size, font: this.fonts.bold, color: BRAND_DARK });
      let y = this.y - 5;
      for (const line of lines) {
        drawLine(this.page, line, MARGIN.left + firstWidth + 8, y - size, size, INK);
        y -= lineHeight;
      }
      this.y -= height;
    });
    this.y -= 10;
  }
}

/** Splits `**bold**` markup into runs. */
export function runs(text: string, regular: PDFFont, bold: PDFFont): Run[] {
  assertWinAnsi(text);
  return text.split("**").map((part, index) => ({ text: part, font: index % 2 === 1 ? bold : regular }));
}

/** Greedy word wrap of runs to a width; each line is a list of runs. */
export function wrap(input: Run[], size: number, width: number): Run[][] {
  const words: Run[] = [];
  let previous = " ";
  for (const run of input) {
    if (!run.text) continue;
    for (const [index, word] of run.text.split(" ").entries()) {
      // A run boundary inside a word (e.g. "**bold**," has no space before the comma) glues the word to the one before.
      const glued = index === 0 && words.length > 0 && !previous.endsWith(" ") && !run.text.startsWith(" ");
      if (word) words.push({ text: glued ? `\u0000${word}` : word, font: run.font });
    }
    previous = run.text;
  }
  const lines: Run[][] = [];
  let line: Run[] = [];
  let lineWidth = 0;
  for (const word of words) {
    const glued = word.text.startsWith("\u0000");
    const text = glued ? word.text.slice(1) : word.text;
    const space = line.length && !glued ? word.font.widthOfTextAtSize(" ", size) : 0;
    const wordWidth = word.font.widthOfTextAtSize(text, size);
    if (line.length && !glued && lineWidth + space + wordWidth > width) {
      lines.push(line);
      line = [];
      lineWidth = 0;
    }
    const prefix = line.length && !glued ? " " : "";
    // One run per font change, not per word: viewers then space words with the font's own metrics.
    const last = line[line.length - 1];
    if (last && last.font === word.font) last.text += prefix + text;
    else line.push({ text: prefix + text, font: word.font });
    lineWidth += (prefix ? space : 0) + wordWidth;
  }
  if (line.length) lines.push(line);
  return lines;
}

/**
 * Draws a line of runs as one text object, so a viewer places each run after the previous one with
 * its own font metrics (drawText per run would place them with pdf-lib's, and a viewer substituting
 * Helvetica with a slightly wider font would then eat the space after a bold lead-in).
 */
export function drawLine(page: PDFPage, line: Run[], x: number, y: number, size: number, color: Color) {
  const operators = [pushGraphicsState(), beginText(), setFillingColor(color), moveText(x, y)];
  for (const run of line) operators.push(setFontAndSize(fontKey(page, run.font), size), showText(run.font.encodeText(run.text)));
  operators.push(endText(), popGraphicsState());
  page.pushOperators(...operators);
}

const fontKeys = new WeakMap<PDFPage, Map<PDFFont, PDFName>>();

/** The page's resource name for a font, registered once per page. */
function fontKey(page: PDFPage, font: PDFFont) {
  let keys = fontKeys.get(page);
  if (!keys) fontKeys.set(page, (keys = new Map()));
  let key = keys.get(font);
  if (!key) keys.set(font, (key = page.node.newFontDictionary(font.name, font.ref)));
  return key;
}

function assertWinAnsi(text: string) {
  const bad = text.match(/[^\x20-\x7e]/);
  if (bad) throw new Error(`Use plain ASCII in PDF text (found ${JSON.stringify(bad[0])} in "${text.slice(0, 60)}...")`);
}

/** "Name | Title" and "Page n of m" at the foot of every page but the cover (the first page when `cover`). */
export function footers(doc: PDFDocument, fonts: Fonts, label: string, cover = true) {
  const pages = doc.getPages();
  pages.forEach((page, index) => {
    if (cover && index === 0) return;
    const size = 8.5;
    const y = 36;
    page.drawLine({ start: { x: MARGIN.left, y: y + 14 }, end: { x: PAGE.width - MARGIN.right, y: y + 14 }, thickness: 0.5, color: BRAND_TINT });
    page.drawText(label, { x: MARGIN.left, y, size, font: fonts.regular, color: MUTED });
    const pageNumber = `Page ${index + 1} of ${pages.length}`;
    page.drawText(pageNumber, { x: PAGE.width - MARGIN.right - fonts.regular.widthOfTextAtSize(pageNumber, size), y, size, font: fonts.bold, color: BRAND });
  });
}
