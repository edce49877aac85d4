import { brotliDecompressSync, inflateSync } from "node:zlib";

/**
 * Font files as bytes: what format a file is, and WOFF and WOFF2 unpacked to
 * the sfnt (TrueType or OpenType) inside. No font parser here, so build
 * scripts in Node can use it too (scripts/copy-fonts.ts).
 *
 * WOFF2 (https://www.w3.org/TR/WOFF2/) is Brotli plus a reversible transform
 * of the glyf, loca and hmtx tables. Brotli comes from node:zlib, which is
 * native in workerd (no WebAssembly to compile at run time); the transforms
 * are undone below, following section 5 of the specification.
 */

export type FontFormat = "ttf" | "otf" | "woff" | "woff2";

/** A font file that is not one, is damaged, or uses features we cannot unpack. */
export class UnreadableFont extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = "UnreadableFont";
  }
}

/** The largest sfnt we rebuild from a WOFF or WOFF2 (a 5 MB WOFF2 can unpack to three times that). */
export const MAX_SFNT_BYTES = 24 * 1024 * 1024;

/**
 * A bound for decompression: the stated size plus room, since workerd's
 * node:zlib counts its output buffer in chunks. It stops a small file that
 * claims a small size from unpacking into an exhausted isolate; the exact
 * size is checked afterwards.
 */
const outputLimit = (expected: number) => expected + 256 * 1024;

const tag = (text: string) => ((text.charCodeAt(0) << 24) | (text.charCodeAt(1) << 16) | (text.charCodeAt(2) << 8) | text.charCodeAt(3)) >>> 0;
const TRUETYPE = 0x00010000;
export const OTTO = tag("OTTO");

/** The font format a file's first bytes announce (its name and declared type count for nothing). */
export function sniffFontFormat(bytes: Uint8Array): FontFormat | null {
  if (bytes.length < 12) return null;
  const signature = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0);
  if (signature === TRUETYPE || signature === tag("true")) return "ttf";
  if (signature === OTTO) return "otf";
  if (signature === tag("wOFF")) return "woff";
  if (signature === tag("wOF2")) return "woff2";
  return null;
}
// ---------------------------------------------------------------- reading and writing bytes

export function readU32(bytes: Uint8Array, offset: number) {
  return ((bytes[offset] << 24) | (bytes[offset + 1] << 16) | (bytes[offset + 2] << 8) | bytes[offset + 3]) >>> 0;
}

/** A bounds-checked big-endian reader. */
class Reader {
  private readonly view: DataView;
  offset = 0;
  readonly bytes: Uint8Array;
  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  private need(n: number) {
    if (this.offset + n > this.bytes.length) throw new UnreadableFont("the file ends too early");
  }
  u8() {
    this.need(1);
    return this.view.getUint8(this.offset++);
  }
  u16() {
    this.need(2);
    const value = this.view.getUint16(this.offset);
    this.offset += 2;
    return value;
  }
  i16() {
    this.need(2);
    const value = this.view.getInt16(this.offset);
    this.offset += 2;
    return value;
  }
  u32() {
    this.need(4);
    const value = this.view.getUint32(this.offset);
    this.offset += 4;
    return value;
  }
  take(n: number) {
    this.need(n);
    const slice = this.bytes.subarray(this.offset, this.offset + n);
    this.offset += n;
    return slice;
  }
  /** UIntBase128 (WOFF2 section 4.1). */
  base128() {
    let value = 0;
    for (let i = 0; i < 5; i++) {
      const byte = this.u8();
      if (i === 0 && byte === 0x80) throw new UnreadableFont("a number has leading zeros");
      if (value & 0xfe000000) throw new UnreadableFont("a number overflows");
      value = ((value << 7) | (byte & 0x7f)) >>> 0;
      if ((byte & 0x80) === 0) return value;
    }
    throw new UnreadableFont("a number is too long");
  }
  /** 255UInt16 (WOFF2 section 4.2). */
  u255() {
    const code = this.u8();
    if (code === 253) return this.u16();
    if (code === 255) return this.u8() + 253;
    if (code === 254) return this.u8() + 253 * 2;
    return code;
  }
}

/** A growable big-endian writer. */
class Writer {
  bytes = new Uint8Array(1024);
  length = 0;
  private reserve(n: number) {
    if (this.length + n <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + n));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }
  u8(value: number) {
    this.reserve(1);
    this.bytes[this.length++] = value & 0xff;
  }
  u16(value: number) {
    this.reserve(2);
    this.bytes[this.length++] = (value >> 8) & 0xff;
    this.bytes[this.length++] = value & 0xff;
  }
  u32(value: number) {
    this.u16(value >>> 16);
    this.u16(value & 0xffff);
  }
  write(data: Uint8Array) {
    this.reserve(data.length);
    this.bytes.set(data, this.length);
    this.length += data.length;
  }
  pad(multiple: number) {
    while (this.length % multiple !== 0) this.u8(0);
  }
  result() {
    return this.bytes.slice(0, this.length);
  }
}

// ---------------------------------------------------------------- sfnt

interface SfntTable {
  tag: number;
  data: Uint8Array;
  /** The table's checksum as the WOFF directory states it (origChecksum). */
  statedChecksum?: number;
}

function checksum(data: Uint8Array, offset = 0, length = data.length - offset) {
  let sum = 0;
  const end = offset + length;
  for (let i = offset; i < end; i += 4) {
    sum = (sum + (((data[i] << 24) | ((data[i + 1] ?? 0) << 16) | ((data[i + 2] ?? 0) << 8) | (data[i + 3] ?? 0)) >>> 0)) >>> 0;
  }
  return sum;
}

/**
 * Writes an sfnt: the offset table, the table records sorted by tag, the
 * tables 4-byte aligned, and head's checksum adjustment. With `statedChecksums`
 * the records carry the checksums the WOFF states and head is copied as it
 * is, adjustment included, as the font was before it was packed; otherwise
 * (fonts stored for download) every checksum is computed.
 */
function writeSfnt(flavor: number, tables: SfntTable[], statedChecksums = false): Uint8Array {
  const sorted = [...tables].sort((a, b) => a.tag - b.tag);
  const count = sorted.length;
  const headerLength = 12 + 16 * count;
  const total = sorted.reduce((sum, table) => sum + Math.ceil(table.data.length / 4) * 4, headerLength);
  if (total > MAX_SFNT_BYTES) throw new UnreadableFont("the font is too large once unpacked");
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  const entrySelector = Math.floor(Math.log2(count));
  const searchRange = 2 ** entrySelector * 16;
  view.setUint32(0, flavor);
  view.setUint16(4, count);
  view.setUint16(6, searchRange);
  view.setUint16(8, entrySelector);
  view.setUint16(10, count * 16 - searchRange);
  let offset = headerLength;
  let headOffset = -1;
  sorted.forEach((table, i) => {
    out.set(table.data, offset);
    if (!statedChecksums && table.tag === tag("head") && table.data.length >= 12) {
      headOffset = offset;
      view.setUint32(offset + 8, 0);
    }
    const record = 12 + 16 * i;
    view.setUint32(record, table.tag);
    view.setUint32(record + 4, statedChecksums ? (table.statedChecksum ?? 0) : checksum(out, offset, table.data.length));
    view.setUint32(record + 8, offset);
    view.setUint32(record + 12, table.data.length);
    offset += Math.ceil(table.data.length / 4) * 4;
  });
  if (headOffset >= 0) view.setUint32(headOffset + 8, (0xb1b0afba - checksum(out)) >>> 0);
  return out;
}

// ---------------------------------------------------------------- WOFF 1.0

/** The start of the header WOFF and WOFF2 share: flavor, length, table count and the size of the sfnt inside. */
function webFontHeader(bytes: Uint8Array, format: "WOFF" | "WOFF2") {
  const reader = new Reader(bytes);
  reader.offset = 4;
  const flavor = reader.u32();
  const length = reader.u32();
  const numTables = reader.u16();
  reader.u16(); // reserved
  const totalSfntSize = reader.u32();
  if (flavor === tag("ttcf")) throw new UnreadableFont("font collections are not supported");
  if (length !== bytes.length) throw new UnreadableFont(`the ${format} header's length does not match the file`);
  if (numTables === 0 || totalSfntSize > MAX_SFNT_BYTES) throw new UnreadableFont(`the ${format} header is not sensible`);
  return { reader, flavor, numTables };
}

/**
 * WOFF 1.0 (https://www.w3.org/TR/WOFF/): zlib-compressed sfnt tables. With
 * `statedChecksums` the checksums are taken from the WOFF rather than
 * computed (the renderer's parsers never read them).
 */
export function woffToSfnt(bytes: Uint8Array, statedChecksums = false): Uint8Array {
  const { reader, flavor, numTables } = webFontHeader(bytes, "WOFF");
  reader.offset = 44;
  const tables: SfntTable[] = [];
  let unpacked = 0;
  for (let i = 0; i < numTables; i++) {
    const tableTag = reader.u32();
    const offset = reader.u32();
    const compLength = reader.u32();
    const origLength = reader.u32();
    const statedChecksum = reader.u32();
    if (offset + compLength > bytes.length || compLength > origLength || origLength > MAX_SFNT_BYTES)
      throw new UnreadableFont("a WOFF table lies outside the file");
    // Checked before unpacking: each table may be within the limit while together they are far beyond it.
    unpacked += origLength;
    if (unpacked > MAX_SFNT_BYTES) throw new UnreadableFont("the font is too large once unpacked");
    const stored = bytes.subarray(offset, offset + compLength);
    const data = compLength === origLength ? stored : new Uint8Array(inflateSync(stored, { maxOutputLength: outputLimit(origLength) }));
    if (data.length !== origLength) throw new UnreadableFont("a WOFF table does not unpack to its stated length");
    tables.push({ tag: tableTag, data, statedChecksum });
  }
  return writeSfnt(flavor, tables, statedChecksums);
}

// ---------------------------------------------------------------- WOFF 2.0

/** Tags of the table directory's known-table index (WOFF2 section 4.1, table 2). */
const KNOWN_TAGS = [
  "cmap",
  "head",
  "hhea",
  "hmtx",
  "maxp",
  "name",
  "OS/2",
  "post",
  "cvt ",
  "fpgm",
  "glyf",
  "loca",
  "prep",
  "CFF ",
  "VORG",
  "EBDT",
  "EBLC",
  "gasp",
  "hdmx",
  "kern",
  "LTSH",
  "PCLT",
  "VDMX",
  "vhea",
  "vmtx",
  "BASE",
  "GDEF",
  "GPOS",
  "GSUB",
  "EBSC",
  "JSTF",
  "MATH",
  "CBDT",
  "CBLC",
  "COLR",
  "CPAL",
  "SVG ",
  "sbix",
  "acnt",
  "avar",
  "bdat",
  "bloc",
  "bsln",
  "cvar",
  "fdsc",
  "feat",
  "fmtx",
  "fvar",
  "gvar",
  "hsty",
  "just",
  "lcar",
  "mort",
  "morx",
  "opbd",
  "prop",
  "trak",
  "Zapf",
  "Silf",
  "Glat",
  "Gloc",
  "Feat",
  "Sill",
].map(tag);

const GLYF = tag("glyf");
const LOCA = tag("loca");
const HMTX = tag("hmtx");

interface Woff2Entry {
  tag: number;
  origLength: number;
  /** Bytes the table takes in the decompressed stream. */
  streamLength: number;
  transformed: boolean;
}

/** WOFF 2.0 to sfnt: Brotli, then the glyf/loca and hmtx transforms undone. Font collections are refused. */
export function woff2ToSfnt(bytes: Uint8Array): Uint8Array {
  const { reader, flavor, numTables } = webFontHeader(bytes, "WOFF2");
  const totalCompressedSize = reader.u32();
  reader.offset = 48;

  const entries: Woff2Entry[] = [];
  for (let i = 0; i < numTables; i++) {
    const flags = reader.u8();
    const tableTag = (flags & 0x3f) === 0x3f ? reader.u32() : KNOWN_TAGS[flags & 0x3f];
    const version = flags >> 6;
    const origLength = reader.base128();
    // glyf and loca are transformed unless version 3; any other table only when its version is not 0.
    const transformed = tableTag === GLYF || tableTag === LOCA ? version !== 3 : version !== 0;
    if (transformed && tableTag !== GLYF && tableTag !== LOCA && !(tableTag === HMTX && version === 1)) {
      throw new UnreadableFont("the file uses an unknown table transform");
    }
    const streamLength = transformed ? reader.base128() : origLength;
    if (origLength > MAX_SFNT_BYTES || streamLength > MAX_SFNT_BYTES) throw new UnreadableFont("a table is too large");
    entries.push({ tag: tableTag, origLength, streamLength, transformed });
  }

  const compressed = reader.take(totalCompressedSize);
  const expected = entries.reduce((sum, entry) => sum + entry.streamLength, 0);
  if (expected > MAX_SFNT_BYTES) throw new UnreadableFont("the font is too large once unpacked");
  const stream = new Uint8Array(brotliDecompressSync(compressed, { maxOutputLength: outputLimit(expected) }));
  if (stream.length !== expected) throw new UnreadableFont("the compressed data does not unpack to the stated size");

  const raw = new Map<number, { entry: Woff2Entry; data: Uint8Array }>();
  let offset = 0;
  for (const entry of entries) {
    raw.set(entry.tag, { entry, data: stream.subarray(offset, offset + entry.streamLength) });
    offset += entry.streamLength;
  }

  const tables: SfntTable[] = [];
  const glyf = raw.get(GLYF);
  const loca = raw.get(LOCA);
  let rebuilt: ReturnType<typeof reconstructGlyf> | null = null;
  if (glyf?.entry.transformed || loca?.entry.transformed) {
    if (!glyf || !loca || !glyf.entry.transformed || !loca.entry.transformed || loca.entry.streamLength !== 0) {
      throw new UnreadableFont("glyf and loca must be transformed together");
    }
    rebuilt = reconstructGlyf(glyf.data);
  }
  for (const { entry, data } of raw.values()) {
    if (entry.tag === GLYF && rebuilt) tables.push({ tag: GLYF, data: rebuilt.glyf });
    else if (entry.tag === LOCA && rebuilt) tables.push({ tag: LOCA, data: rebuilt.loca });
    else if (entry.tag === HMTX && entry.transformed) {
      if (!rebuilt) throw new UnreadableFont("a transformed hmtx needs a transformed glyf");
      tables.push({ tag: HMTX, data: reconstructHmtx(data, raw, rebuilt.xMins) });
    } else tables.push({ tag: entry.tag, data });
  }
  return writeSfnt(flavor, tables);
}

// glyf flags of the reconstructed simple glyphs.
const ON_CURVE = 0x01;
const X_SHORT = 0x02;
const Y_SHORT = 0x04;
const REPEAT = 0x08;
const X_SAME_OR_POSITIVE = 0x10;
const Y_SAME_OR_POSITIVE = 0x20;
const OVERLAP_SIMPLE = 0x40;
// Composite glyph flags.
const ARGS_ARE_WORDS = 0x0001;
const HAVE_SCALE = 0x0008;
const MORE_COMPONENTS = 0x0020;
const HAVE_XY_SCALE = 0x0040;
const HAVE_TWO_BY_TWO = 0x0080;
const HAVE_INSTRUCTIONS = 0x0100;

/** Section 5.1-5.3: the transformed glyf table back to glyf and loca, with each glyph's xMin for hmtx. */
function reconstructGlyf(data: Uint8Array) {
  const header = new Reader(data);
  header.u16(); // reserved
  const optionFlags = header.u16();
  const numGlyphs = header.u16();
  const indexFormat = header.u16();
  const sizes = Array.from({ length: 7 }, () => header.u32());
  let offset = header.offset;
  const streams = sizes.map((size) => {
    if (offset + size > data.length) throw new UnreadableFont("a glyf stream lies outside the table");
    const stream = new Reader(data.subarray(offset, offset + size));
    offset += size;
    return stream;
  });
  const [nContourStream, nPointsStream, flagStream, glyphStream, compositeStream, bboxStream, instructionStream] = streams;
  const bboxBitmap = bboxStream.take(4 * Math.floor((numGlyphs + 31) / 32));
  const overlapBitmap = optionFlags & 1 ? data.subarray(offset, offset + Math.floor((numGlyphs + 7) / 8)) : null;
  const hasBit = (bitmap: Uint8Array | null, i: number) => !!bitmap && (bitmap[i >> 3] & (0x80 >> (i & 7))) !== 0;

  const glyf = new Writer();
  const locaOffsets: number[] = [];
  const xMins = new Int16Array(numGlyphs);
  const align = indexFormat ? 4 : 2;

  for (let i = 0; i < numGlyphs; i++) {
    locaOffsets.push(glyf.length);
    const nContours = nContourStream.i16();
    const explicitBbox = hasBit(bboxBitmap, i);
    if (nContours === 0) {
      if (explicitBbox) throw new UnreadableFont("an empty glyph has a bounding box");
      continue;
    }
    if (nContours === -1) {
      if (!explicitBbox) throw new UnreadableFont("a composite glyph has no bounding box");
      const bbox = [bboxStream.i16(), bboxStream.i16(), bboxStream.i16(), bboxStream.i16()];
      const start = compositeStream.offset;
      let flags = MORE_COMPONENTS;
      let instructions = false;
      while (flags & MORE_COMPONENTS) {
        flags = compositeStream.u16();
        instructions ||= (flags & HAVE_INSTRUCTIONS) !== 0;
        compositeStream.take(2 + (flags & ARGS_ARE_WORDS ? 4 : 2) + (flags & HAVE_SCALE ? 2 : flags & HAVE_XY_SCALE ? 4 : flags & HAVE_TWO_BY_TWO ? 8 : 0));
      }
      glyf.u16(0xffff);
      for (const value of bbox) glyf.u16(value);
      glyf.write(compositeStream.bytes.subarray(start, compositeStream.offset));
      if (instructions) {
        const length = glyphStream.u255();
        glyf.u16(length);
        glyf.write(instructionStream.take(length));
      }
      xMins[i] = bbox[0];
      glyf.pad(align);
      continue;
    }
    if (nContours < 0) throw new UnreadableFont("a glyph has a negative number of contours");

    const endPoints: number[] = [];
    let total = 0;
    for (let c = 0; c < nContours; c++) {
      total += nPointsStream.u255();
      endPoints.push(total - 1);
    }
    if (total > 0xffff) throw new UnreadableFont("a glyph has too many points");
    const xs = new Int32Array(total);
    const ys = new Int32Array(total);
    const onCurve = new Uint8Array(total);
    let x = 0;
    let y = 0;
    for (let p = 0; p < total; p++) {
      const flag = flagStream.u8();
      onCurve[p] = flag >> 7 ? 0 : 1;
      const [dx, dy] = tripletDelta(flag & 0x7f, glyphStream);
      x += dx;
      y += dy;
      xs[p] = x;
      ys[p] = y;
    }
    const instructionLength = glyphStream.u255();
    const instructions = instructionStream.take(instructionLength);

    let bbox: number[];
    if (explicitBbox) bbox = [bboxStream.i16(), bboxStream.i16(), bboxStream.i16(), bboxStream.i16()];
    else if (total === 0) bbox = [0, 0, 0, 0];
    else bbox = boundingBox(xs, ys);
    xMins[i] = bbox[0];

    glyf.u16(nContours);
    for (const value of bbox) glyf.u16(value);
    for (const end of endPoints) glyf.u16(end);
    glyf.u16(instructionLength);
    glyf.write(instructions);
    writePoints(glyf, xs, ys, onCurve, hasBit(overlapBitmap, i));
    glyf.pad(align);
  }
  locaOffsets.push(glyf.length);

  if (!indexFormat && glyf.length > 0x1fffe) throw new UnreadableFont("the glyphs do not fit a short loca table");
  const loca = new Writer();
  for (const value of locaOffsets) {
    if (indexFormat) loca.u32(value);
    else loca.u16(value >> 1);
  }
  return { glyf: glyf.result(), loca: loca.result(), xMins, numGlyphs };
}

function boundingBox(xs: Int32Array, ys: Int32Array) {
  const box = [xs[0], ys[0], xs[0], ys[0]];
  for (let p = 1; p < xs.length; p++) {
    box[0] = Math.min(box[0], xs[p]);
    box[1] = Math.min(box[1], ys[p]);
    box[2] = Math.max(box[2], xs[p]);
    box[3] = Math.max(box[3], ys[p]);
  }
  return box;
}

/** One point's coordinate deltas from its flag and the glyph stream (section 5.2, table "triplet encoding"). */
function tripletDelta(flag: number, glyphs: Reader): [number, number] {
  const sign = (bit: number, value: number) => (bit & 1 ? value : -value);
  if (flag < 10) return [0, sign(flag, ((flag & 14) << 7) + glyphs.u8())];
  if (flag < 20) return [sign(flag, (((flag - 10) & 14) << 7) + glyphs.u8()), 0];
  if (flag < 84) {
    const b0 = flag - 20;
    const b1 = glyphs.u8();
    return [sign(flag, 1 + (b0 & 0x30) + (b1 >> 4)), sign(flag >> 1, 1 + ((b0 & 0x0c) << 2) + (b1 & 0x0f))];
  }
  if (flag < 120) {
    const b0 = flag - 84;
    const b1 = glyphs.u8();
    const b2 = glyphs.u8();
    return [sign(flag, 1 + (Math.floor(b0 / 12) << 8) + b1), sign(flag >> 1, 1 + (((b0 % 12) >> 2) << 8) + b2)];
  }
  if (flag < 124) {
    const b1 = glyphs.u8();
    const b2 = glyphs.u8();
    const b3 = glyphs.u8();
    return [sign(flag, (b1 << 4) + (b2 >> 4)), sign(flag >> 1, ((b2 & 0x0f) << 8) + b3)];
  }
  const b1 = glyphs.u8();
  const b2 = glyphs.u8();
  const b3 = glyphs.u8();
  const b4 = glyphs.u8();
  return [sign(flag, (b1 << 8) + b2), sign(flag >> 1, (b3 << 8) + b4)];
}

/** A simple glyph's flags and coordinates in the compact TrueType encoding (short deltas, repeated flags). */
function writePoints(out: Writer, xs: Int32Array, ys: Int32Array, onCurve: Uint8Array, overlap: boolean) {
  const flags: number[] = [];
  const xBytes = new Writer();
  const yBytes = new Writer();
  let lastX = 0;
  let lastY = 0;
  for (let p = 0; p < xs.length; p++) {
    let flag = onCurve[p] ? ON_CURVE : 0;
    if (p === 0 && overlap) flag |= OVERLAP_SIMPLE;
    const dx = xs[p] - lastX;
    const dy = ys[p] - lastY;
    if (dx === 0) flag |= X_SAME_OR_POSITIVE;
    else if (dx > -256 && dx < 256) {
      flag |= X_SHORT | (dx > 0 ? X_SAME_OR_POSITIVE : 0);
      xBytes.u8(Math.abs(dx));
    } else xBytes.u16(dx & 0xffff);
    if (dy === 0) flag |= Y_SAME_OR_POSITIVE;
    else if (dy > -256 && dy < 256) {
      flag |= Y_SHORT | (dy > 0 ? Y_SAME_OR_POSITIVE : 0);
      yBytes.u8(Math.abs(dy));
    } else yBytes.u16(dy & 0xffff);
    flags.push(flag);
    lastX = xs[p];
    lastY = ys[p];
  }
  for (let p = 0; p < flags.length; ) {
    let repeats = 0;
    while (p + repeats + 1 < flags.length && flags[p + repeats + 1] === flags[p] && repeats < 255) repeats++;
    if (repeats > 0) {
      out.u8(flags[p] | REPEAT);
      out.u8(repeats);
    } else out.u8(flags[p]);
    p += repeats + 1;
  }
  out.write(xBytes.result());
  out.write(yBytes.result());
}

/** Section 5.4: hmtx with its left side bearings taken from the glyphs' xMin where the file left them out. */
function reconstructHmtx(data: Uint8Array, raw: Map<number, { data: Uint8Array }>, xMins: Int16Array): Uint8Array {
  const hhea = raw.get(tag("hhea"))?.data;
  const maxp = raw.get(tag("maxp"))?.data;
  if (!hhea || hhea.length < 36 || !maxp || maxp.length < 6) throw new UnreadableFont("hmtx needs hhea and maxp");
  const numberOfHMetrics = (hhea[34] << 8) | hhea[35];
  const numGlyphs = (maxp[4] << 8) | maxp[5];
  if (numberOfHMetrics < 1 || numberOfHMetrics > numGlyphs || numGlyphs > xMins.length) throw new UnreadableFont("hmtx does not match the glyphs");
  const reader = new Reader(data);
  const flags = reader.u8();
  const advances = Array.from({ length: numberOfHMetrics }, () => reader.u16());
  const lsbs = Array.from({ length: numberOfHMetrics }, (_, i) => (flags & 1 ? xMins[i] : reader.i16()));
  const trailing = Array.from({ length: numGlyphs - numberOfHMetrics }, (_, i) => (flags & 2 ? xMins[numberOfHMetrics + i] : reader.i16()));
  const out = new Writer();
  for (let i = 0; i < numberOfHMetrics; i++) {
    out.u16(advances[i]);
    out.u16(lsbs[i] & 0xffff);
  }
  for (const lsb of trailing) out.u16(lsb & 0xffff);
  return out.result();
}

// ---------------------------------------------------------------- checks before opentype.js

/** The last code point Unicode has. */
const LAST_CODE_POINT = 0x10ffff;

/**
 * Refuses a font whose character map (cmap formats 12 and 13: ranges of characters) reaches beyond Unicode or
 * maps more characters than Unicode has. opentype.js fills its map one character at a time, so one damaged range
 * of 2^31 characters kept it busy for seconds before it ran out of memory (decision 078: a 4 KB WOFF2, 3.3 s).
 * What it cannot find or read is left to opentype.js, which refuses it.
 */
export function checkCharacterRanges(sfnt: Uint8Array): void {
  const u16 = (at: number) => (at + 2 <= sfnt.length ? (sfnt[at] << 8) | sfnt[at + 1] : null);
  const u32 = (at: number) => (at + 4 <= sfnt.length ? readU32(sfnt, at) : null);
  const tables = u16(4) ?? 0;
  let cmap: number | null = null;
  for (let i = 0; i < tables; i++) {
    const record = 12 + 16 * i;
    if (u32(record) === CMAP) cmap = u32(record + 8);
  }
  if (cmap === null) return;
  const subtables = u16(cmap + 2) ?? 0;
  for (let i = 0; i < subtables; i++) {
    const offset = u32(cmap + 4 + 8 * i + 4);
    if (offset === null) return;
    const start = cmap + offset;
    const format = u16(start);
    if (format !== 12 && format !== 13) continue;
    const groups = u32(start + 12) ?? 0;
    let characters = 0;
    for (let g = 0; g < groups; g++) {
      const first = u32(start + 16 + 12 * g);
      const last = u32(start + 20 + 12 * g);
      if (first === null || last === null) break;
      if (last > LAST_CODE_POINT || first > last) throw new UnreadableFont("its character map reaches beyond Unicode");
      characters += last - first + 1;
      if (characters > LAST_CODE_POINT + 1) throw new UnreadableFont("its character map holds more characters than Unicode has");
    }
  }
}
const CMAP = tag("cmap");
