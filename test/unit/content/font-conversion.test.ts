import { readFileSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, brotliDecompressSync } from "node:zlib";
import { parse, type Font } from "opentype.js";
import { describe, expect, it } from "vitest";
import { readUploadedFont, sniffFontFormat, UnreadableFont, woff2ToSfnt } from "../../../workers/media/fonts.ts";
import { BUNDLED_FONTS } from "../../../workers/render/font-catalog.ts";
import { checkCharacterRanges } from "../../../workers/media/sfnt.ts";

/**
 * The WOFF/WOFF2 unpacking of workers/media/fonts.ts against fonts we did not
 * make: every bundled @fontsource family, whose WOFF opentype.js reads by
 * itself. (The media-library workers tests run the same code inside workerd.)
 */

const fontsource = (slug: string, ext: "woff" | "woff2") =>
  new Uint8Array(readFileSync(join("node_modules", "@fontsource", slug, "files", `${slug}-latin-400-normal.${ext}`)));
const fixture = (name: string) => new Uint8Array(readFileSync(join("test", "fixtures", "fonts", name)));

const open = (bytes: Uint8Array): Font => parse(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);

/** Every glyph with a code point: its advance, left side bearing and outline. */
function glyphsByCodePoint(font: Font) {
  const glyphs = new Map<number, string>();
  for (let i = 0; i < font.glyphs.length; i++) {
    const glyph = font.glyphs.get(i);
    for (const unicode of glyph.unicodes ?? [])
      glyphs.set(unicode, `${glyph.advanceWidth} ${glyph.leftSideBearing} ${glyph.getPath(0, 0, 1000).toPathData(2)}`);
  }
  return glyphs;
}

/** One table of an sfnt, by tag. */
function sfntTable(sfnt: Uint8Array, tag: string): Uint8Array {
  const view = new DataView(sfnt.buffer, sfnt.byteOffset, sfnt.byteLength);
  for (let i = 0; i < view.getUint16(4); i++) {
    const record = 12 + 16 * i;
    if (String.fromCharCode(...sfnt.subarray(record, record + 4)) === tag) {
      return sfnt.subarray(view.getUint32(record + 8), view.getUint32(record + 8) + view.getUint32(record + 12));
    }
  }
  throw new Error(`no ${tag} table`);
}

// Two tests below decode every bundled family and compare it glyph by glyph: CPU work that takes a few seconds alone and
// went past vitest's 5 s default on a busy 2-core machine. They wait for nothing, so a longer limit hides no hang.
describe("font conversion", { timeout: 30_000 }, () => {
  // These families ship WOFF and WOFF2 built from the same font file; the others' WOFF2 come from a different build.
  const sameBuild = ["abril-fatface", "anton", "archivo-black", "bebas-neue", "carter-one", "great-vibes", "lato", "lobster", "pacifico", "poppins"];

  it("unpacks each bundled family's WOFF2 into a TrueType file that draws every glyph exactly as its WOFF does", () => {
    for (const slug of sameBuild) {
      const font = readUploadedFont(fontsource(slug, "woff2"));
      expect(font.format, slug).toBe("ttf");
      expect(font.sourceFormat).toBe("woff2");
      expect([...font.data.subarray(0, 4)]).toEqual([0, 1, 0, 0]);
      const expected = glyphsByCodePoint(open(fontsource(slug, "woff")));
      const actual = glyphsByCodePoint(open(font.data));
      expect(actual.size, slug).toBe(expected.size);
      for (const [codePoint, glyph] of expected) expect(actual.get(codePoint), `${slug} U+${codePoint.toString(16)}`).toBe(glyph);
    }
  });

  it("unpacks every bundled family, reading its family name", () => {
    for (const bundled of BUNDLED_FONTS) {
      for (const ext of ["woff", "woff2"] as const) {
        const font = readUploadedFont(fontsource(bundled.slug, ext));
        expect(font.family.toLowerCase(), `${bundled.slug}.${ext}`).toContain(bundled.family.toLowerCase());
        const parsed = open(font.data);
        expect(parsed.glyphs.length).toBeGreaterThan(100);
        expect(parsed.charToGlyph("A").getPath(0, 0, 100).commands.length).toBeGreaterThan(2);
      }
    }
  });

  it("writes a valid sfnt: sorted table records with checksums and head's checksum adjustment", () => {
    const sfnt = readUploadedFont(fixture("pacifico-latin-400.woff2")).data;
    const view = new DataView(sfnt.buffer, sfnt.byteOffset, sfnt.byteLength);
    const count = view.getUint16(4);
    const sum = (from: number, length: number) => {
      let total = 0;
      for (let i = from; i < from + length; i += 4) total = (total + (i + 4 <= sfnt.length ? view.getUint32(i) : 0)) >>> 0;
      return total;
    };
    const tags: string[] = [];
    for (let i = 0; i < count; i++) {
      const record = 12 + 16 * i;
      const tag = String.fromCharCode(...sfnt.subarray(record, record + 4));
      tags.push(tag);
      const offset = view.getUint32(record + 8);
      expect(offset % 4, tag).toBe(0);
      if (tag !== "head") expect(view.getUint32(record + 4), tag).toBe(sum(offset, view.getUint32(record + 12)));
    }
    expect(tags).toEqual([...tags].sort());
    // The whole file sums to the magic number once head's adjustment is in.
    expect(sum(0, sfnt.length)).toBe(0xb1b0afba);
  });

  it("rebuilds a transformed hmtx from the glyphs' xMin", () => {
    const original = fixture("pacifico-latin-400.woff2");
    const rewritten = withTransformedHmtx(original);
    expect(rewritten.flags & 1).toBe(1);
    const expected = woff2ToSfnt(original);
    const actual = woff2ToSfnt(rewritten.file);
    expect(sfntTable(actual, "hmtx")).toEqual(sfntTable(expected, "hmtx"));
    expect(glyphsByCodePoint(open(actual))).toEqual(glyphsByCodePoint(open(expected)));
  });

  it("knows fonts by their first bytes and refuses damaged or foreign files", () => {
    expect(sniffFontFormat(fixture("pacifico-latin-400.woff2"))).toBe("woff2");
    expect(sniffFontFormat(fixture("pacifico-latin-400.woff"))).toBe("woff");
    expect(sniffFontFormat(new TextEncoder().encode("OTTO and then some text"))).toBe("otf");
    expect(sniffFontFormat(new TextEncoder().encode("<svg>not a font</svg>"))).toBeNull();

    const woff2 = fixture("pacifico-latin-400.woff2");
    expect(() => readUploadedFont(woff2.subarray(0, woff2.length - 10))).toThrow(UnreadableFont);
    const collection = woff2.slice();
    collection.set([0x74, 0x74, 0x63, 0x66], 4); // flavor "ttcf"
    expect(() => readUploadedFont(collection)).toThrow(/collections/);
    const bomb = woff2.slice();
    new DataView(bomb.buffer).setUint32(12, 0x7fffffff); // totalSfntSize
    expect(() => readUploadedFont(bomb)).toThrow(UnreadableFont);
  });
});

// ---------------------------------------------------------------- a WOFF2 with a transformed hmtx (WOFF2 section 5.4)

function readBase128(bytes: Uint8Array, at: { offset: number }) {
  let value = 0;
  for (;;) {
    const byte = bytes[at.offset++];
    value = value * 128 + (byte & 0x7f);
    if (!(byte & 0x80)) return value;
  }
}

function base128(value: number): number[] {
  const out = [value & 0x7f];
  for (value = Math.floor(value / 128); value > 0; value = Math.floor(value / 128)) out.unshift((value & 0x7f) | 0x80);
  return out;
}

/**
 * Re-encodes a WOFF2 (whose hmtx is stored as is) with hmtx transformed: the
 * left side bearings that equal their glyph's xMin are left out.
 */
function withTransformedHmtx(original: Uint8Array): { file: Uint8Array; flags: number } {
  const view = new DataView(original.buffer, original.byteOffset, original.byteLength);
  const numTables = view.getUint16(12);
  const at = { offset: 48 };
  const entries: { flagByte: number; tag?: number; origLength: number; transformLength?: number; start: number; end: number }[] = [];
  let streamLength = 0;
  for (let i = 0; i < numTables; i++) {
    const start = at.offset;
    const flagByte = original[at.offset++];
    const tag = (flagByte & 0x3f) === 0x3f ? view.getUint32((at.offset += 4) - 4) : undefined;
    const origLength = readBase128(original, at);
    const index = flagByte & 0x3f;
    const transformed = index === 10 || index === 11 ? flagByte >> 6 !== 3 : flagByte >> 6 !== 0;
    const transformLength = transformed ? readBase128(original, at) : undefined;
    entries.push({ flagByte, tag, origLength, transformLength, start, end: at.offset });
    streamLength += transformLength ?? origLength;
  }
  const stream = new Uint8Array(brotliDecompressSync(original.subarray(at.offset, at.offset + view.getUint32(20))));
  expect(stream.length).toBe(streamLength);

  const sfnt = woff2ToSfnt(original);
  const font = open(sfnt);
  const hhea = sfntTable(sfnt, "hhea");
  const numberOfHMetrics = (hhea[34] << 8) | hhea[35];
  const hmtx = new DataView(sfntTable(sfnt, "hmtx").slice().buffer);
  const xMin = (i: number) => {
    const glyph = font.glyphs.get(i);
    glyph.getPath();
    return glyph.xMin ?? 0;
  };
  const lsb = (i: number) => (i < numberOfHMetrics ? hmtx.getInt16(i * 4 + 2) : hmtx.getInt16(numberOfHMetrics * 4 + (i - numberOfHMetrics) * 2));
  const glyphs = font.glyphs.length;
  const proportional = Array.from({ length: numberOfHMetrics }, (_, i) => i).every((i) => lsb(i) === xMin(i));
  const monospace = Array.from({ length: glyphs - numberOfHMetrics }, (_, i) => i + numberOfHMetrics).every((i) => lsb(i) === xMin(i));
  const flags = (proportional ? 1 : 0) | (monospace ? 2 : 0);
  const transformed: number[] = [flags];
  const u16 = (value: number) => transformed.push((value >> 8) & 0xff, value & 0xff);
  for (let i = 0; i < numberOfHMetrics; i++) u16(hmtx.getUint16(i * 4));
  if (!proportional) for (let i = 0; i < numberOfHMetrics; i++) u16(lsb(i) & 0xffff);
  if (!monospace) for (let i = numberOfHMetrics; i < glyphs; i++) u16(lsb(i) & 0xffff);

  const directory: number[] = [];
  const tables: Uint8Array[] = [];
  let offset = 0;
  for (const entry of entries) {
    const length = entry.transformLength ?? entry.origLength;
    const data = stream.subarray(offset, offset + length);
    offset += length;
    if ((entry.flagByte & 0x3f) === 3) {
      directory.push(3 | (1 << 6), ...base128(entry.origLength), ...base128(transformed.length));
      tables.push(Uint8Array.from(transformed));
    } else {
      directory.push(...original.subarray(entry.start, entry.end));
      tables.push(data);
    }
  }
  const compressed = brotliCompressSync(Buffer.concat(tables));
  const file = new Uint8Array(48 + directory.length + compressed.length);
  file.set(original.subarray(0, 48));
  file.set(directory, 48);
  file.set(compressed, 48 + directory.length);
  const header = new DataView(file.buffer);
  header.setUint32(8, file.length);
  header.setUint32(20, compressed.length);
  return { file, flags };
}

describe("a character map beyond Unicode (decision 078)", () => {
  /** An sfnt holding only a cmap with one format 12 (or 13) subtable of the given ranges. */
  function sfntWithRanges(format: 12 | 13, ranges: [number, number][]): Uint8Array {
    const subtable = 16 + 12 * ranges.length;
    const cmap = 4 + 8 + subtable;
    const bytes = new Uint8Array(12 + 16 + cmap);
    const view = new DataView(bytes.buffer);
    view.setUint32(0, 0x00010000);
    view.setUint16(4, 1);
    bytes.set([...new TextEncoder().encode("cmap")], 12);
    view.setUint32(20, 28);
    view.setUint32(24, cmap);
    view.setUint16(28 + 2, 1);
    view.setUint16(28 + 4, 3);
    view.setUint16(28 + 6, 10);
    view.setUint32(28 + 8, 12);
    const start = 28 + 12;
    view.setUint16(start, format);
    view.setUint32(start + 4, subtable);
    view.setUint32(start + 12, ranges.length);
    ranges.forEach(([first, last], i) => {
      view.setUint32(start + 16 + 12 * i, first);
      view.setUint32(start + 20 + 12 * i, last);
      view.setUint32(start + 24 + 12 * i, 1);
    });
    return bytes;
  }

  it("refuses ranges past U+10FFFF, backwards, or holding more characters than Unicode, and lets real ones through", () => {
    expect(() => checkCharacterRanges(sfntWithRanges(12, [[0, 0x7fffffff]]))).toThrow(UnreadableFont);
    expect(() => checkCharacterRanges(sfntWithRanges(13, [[0x20, 0x10]]))).toThrow(UnreadableFont);
    expect(() =>
      checkCharacterRanges(
        sfntWithRanges(
          12,
          Array.from({ length: 20 }, () => [0, 0x10ffff] as [number, number]),
        ),
      ),
    ).toThrow(UnreadableFont);
    expect(() =>
      checkCharacterRanges(
        sfntWithRanges(12, [
          [0x20, 0x7e],
          [0x1f600, 0x1f64f],
        ]),
      ),
    ).not.toThrow();
  });
});
