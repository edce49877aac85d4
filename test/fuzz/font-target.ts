import { satori } from "@cf-wasm/satori/workerd";
import { readUploadedFont, UnreadableFont } from "../../workers/media/fonts.ts";
import { parseFont } from "../../workers/render/fonts.ts";
import { autoFitText } from "../../workers/render/text-fit.ts";
import type { Outcome, Target } from "./campaign.ts";
import { fontCases } from "./font-mutations.ts";

/**
 * Font uploads: their campaign runs where the upload check runs, in workerd (test/workers/core/untrusted-bytes.test.ts,
 * and bench:fuzz's workerd harness). In Node the check would also be measured against Node's zlib, which keeps
 * 16 KB for every damaged stream it is given (inflateSync and brotliDecompressSync; workerd's keeps nothing:
 * 40,000 damaged streams, its resident set flat), so memory there would grow for Node's sake (decision 078).
 */

/**
 * Small real fonts (@fontsource's subsets of a few glyphs, as Google Fonts cut them): hinted TrueType with GSUB,
 * GPOS and GDEF, composite glyphs, a script face. Each costs a case a few milliseconds; the latin subsets of
 * 200 to 500 glyphs cost 80 to 100.
 */
export const SMALL_FONT_FILES = [
  "roboto/files/roboto-greek-ext",
  "great-vibes/files/great-vibes-greek-ext",
  "lato/files/lato-latin-ext",
  "open-sans/files/open-sans-greek-ext",
].map((name) => `@fontsource/${name}-400-normal`);

/**
 * The upload check (readUploadedFont: unpack, then opentype.js, every outline drawn); for a font it accepts, what
 * the render does with it: our parse and measuring (fonts.ts, text-fit.ts) and satori's own layout and outlines,
 * of text made of characters the font maps (a font of a few glyphs draws them, not its .notdef).
 */
export async function readFontUpload(bytes: Uint8Array): Promise<Outcome> {
  let data: Uint8Array;
  try {
    data = readUploadedFont(bytes).data;
  } catch (error) {
    if (error instanceof UnreadableFont) return "refused";
    throw error;
  }
  const buffer = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer;
  const font = parseFont(buffer);
  const mapped = Object.keys((font.tables.cmap as { glyphIndexMap?: Record<string, number> } | undefined)?.glyphIndexMap ?? {})
    .map(Number)
    .filter((code) => code > 0x20 && code < 0x110000 && !(code >= 0xd800 && code < 0xe000));
  const text = `${String.fromCodePoint(...mapped.slice(0, 12))} ${String.fromCodePoint(...mapped.slice(12, 24))} 10 ideas`;
  autoFitText({ text, font, box: { width: 400, height: 200 }, lineHeight: 1.2, letterSpacing: 0.5 });
  await satori({ type: "div", props: { style: { display: "flex", fontFamily: "Uploaded", fontSize: 32 }, children: text } } as never, {
    width: 400,
    height: 80,
    fonts: [{ name: "Uploaded", data: buffer, weight: 400, style: "normal" }],
  });
  return "accepted";
}

export function fontTarget(format: "woff" | "woff2", seeds: Uint8Array[]): Target {
  return { ...fontCases(format, seeds), run: readFontUpload };
}
