import { parse, type Font } from "opentype.js";
import { parseFont } from "../render/fonts.ts";
import { checkCharacterRanges, OTTO, readU32, sniffFontFormat, UnreadableFont, woff2ToSfnt, woffToSfnt, type FontFormat } from "./sfnt.ts";

export { MAX_SFNT_BYTES, sniffFontFormat, UnreadableFont, woff2ToSfnt, woffToSfnt, type FontFormat } from "./sfnt.ts";

/**
 * Uploaded fonts, made readable for the renderer. satori and opentype.js read
 * TrueType and OpenType (sfnt) files, and WOFF, but not WOFF2; so every
 * upload is stored as a plain sfnt: WOFF and WOFF2 are unpacked (./sfnt.ts), then
 * the result is parsed with opentype.js (what the renderer uses) before it is
 * accepted, and its family name is read from the name table.
 */

export interface ReadableFont {
  /** A TrueType or OpenType file that satori and opentype.js can read. */
  data: Uint8Array;
  format: "ttf" | "otf";
  sourceFormat: FontFormat;
  /** The family name from the font's name table (typographic family first). */
  family: string;
}

/** Turns an uploaded font file into a readable sfnt with its family name, or throws UnreadableFont. */
export function readUploadedFont(bytes: Uint8Array): ReadableFont {
  const sourceFormat = sniffFontFormat(bytes);
  if (!sourceFormat) throw new UnreadableFont("not a TrueType, OpenType, WOFF or WOFF2 file");
  let data: Uint8Array;
  try {
    data = sourceFormat === "woff2" ? woff2ToSfnt(bytes) : sourceFormat === "woff" ? woffToSfnt(bytes) : bytes;
  } catch (error) {
    if (error instanceof UnreadableFont) throw error;
    throw new UnreadableFont(`cannot unpack the ${sourceFormat} file: ${(error as Error).message}`);
  }
  checkCharacterRanges(data);
  let font: Font;
  try {
    font = parse(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer);
  } catch (error) {
    throw new UnreadableFont(`opentype.js cannot parse it: ${(error as Error).message}`);
  }
  if (!font.glyphs || font.glyphs.length < 2 || !(font.unitsPerEm > 0)) throw new UnreadableFont("the font has no glyphs");
  checkDrawable(data);
  const family = familyName(font);
  if (!family) throw new UnreadableFont("the font has no family name");
  return { data, format: readU32(data, 0) === OTTO ? "otf" : "ttf", sourceFormat, family };
}

/** Text set with a font before it is accepted, besides the characters it maps: letters, figures, ligatures, kerning pairs. */
const SAMPLE_TEXT = "The quick brown fox jumps over the lazy dog. AVAWATo fi fl ffi 0123456789 café “quoted” — ½ €";

/**
 * opentype.js reads a glyph's outline, and the substitution and positioning tables, only when text is set: so a
 * font with a damaged glyph or a damaged GSUB passed the parse above and then failed every render that set text
 * with it (satori threw). Here every outline is read, and the characters the font maps are set as satori sets them
 * (features, kerning, outlines), with the renderer's own build of opentype.js, before the font is accepted
 * (decision 078).
 */
function checkDrawable(data: Uint8Array) {
  try {
    const font = parseFont(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer);
    for (let i = 0; i < font.numGlyphs; i++) font.glyphs.get(i).getPath(0, 0, 72);
    const mapped = Object.keys((font.tables.cmap as { glyphIndexMap?: Record<string, number> } | undefined)?.glyphIndexMap ?? {})
      .map(Number)
      .filter((code) => code > 0x20 && code < 0x110000 && !(code >= 0xd800 && code < 0xe000))
      .slice(0, 4096);
    const text = `${String.fromCodePoint(...mapped)} ${SAMPLE_TEXT}`;
    font.getAdvanceWidth(text, 72, { kerning: true, features: { liga: true, rlig: true } });
    font.getPath(text, 0, 0, 72, { kerning: true, features: { liga: true, rlig: true } }).toPathData(1);
  } catch (error) {
    throw new UnreadableFont(`the font cannot be drawn: ${(error as Error).message}`);
  }
}

type NameRecords = Record<string, Record<string, string> | undefined>;

/** The typographic family (name ID 16), else the family (name ID 1), in English when there is a choice. */
function familyName(font: Font): string | null {
  const platforms = font.names as unknown as Record<"windows" | "macintosh" | "unicode", NameRecords | undefined>;
  for (const key of ["preferredFamily", "fontFamily"]) {
    for (const platform of [platforms.windows, platforms.macintosh, platforms.unicode]) {
      const translations = platform?.[key];
      if (!translations) continue;
      // biome-ignore lint/suspicious/noControlCharactersInRegex: a font's name is shown: control characters in it are dropped.
      const name = (translations.en ?? Object.values(translations)[0] ?? "").replace(/[\u0000-\u001f]/g, "").trim();
      if (name) return name.slice(0, 80);
    }
  }
  return null;
}
