import { crc32, pngChunk } from "../../workers/render/overlay.ts";
import { BYTE_MUTATORS, concat, hugeSize, readU16, readU32, writeU16, writeU32, type Mutator, type Random } from "./mutations.ts";

/**
 * Mutations that know the picture formats: a JPEG's segments (SOF dimensions,
 * components and sampling factors, DHT, DQT, SOS selectors, restart
 * intervals, the frame type) and a PNG's chunks (lengths, CRCs, IHDR, the zlib
 * stream, with the CRC made right again so the damage gets past the check).
 */

// ---------------------------------------------------------------- JPEG

interface Segment {
  /** Offset of the 0xFF of the marker. */
  at: number;
  marker: number;
  /** Offset of the segment's payload (after the length), and its length field. */
  payload: number;
  length: number;
}

/** The marker segments up to and including the first SOS (whose entropy-coded data follows). */
function jpegSegments(bytes: Uint8Array): Segment[] {
  const segments: Segment[] = [];
  let at = 2;
  while (at + 4 <= bytes.length && bytes[at] === 0xff) {
    const marker = bytes[at + 1];
    const length = readU16(bytes, at + 2);
    segments.push({ at, marker, payload: at + 4, length });
    if (marker === 0xda || length < 2) break;
    at += 2 + length;
  }
  return segments;
}

function segmentOf(bytes: Uint8Array, random: Random, markers: (marker: number) => boolean): Segment | null {
  const found = jpegSegments(bytes).filter((segment) => markers(segment.marker));
  return found.length ? random.pick(found) : null;
}

const isSof = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

const jpegFrame: Mutator = (bytes, random) => {
  const sof = segmentOf(bytes, random, isSof);
  if (!sof) return bytes;
  const out = bytes.slice();
  const p = sof.payload;
  switch (random.int(7)) {
    case 0: // height and width: zero, huge, or just past the limits
      writeU16(out, p + 1, hugeSize(random, 16));
      if (random.chance(0.5)) writeU16(out, p + 3, hugeSize(random, 16));
      break;
    case 1: // precision
      out[p] = random.pick([0, 1, 7, 12, 16, 255]);
      break;
    case 2: // component count
      out[p + 5] = random.pick([0, 2, 4, 5, 255]);
      break;
    case 3: {
      // one component's sampling factors
      const component = random.int(Math.max(1, out[p + 5] ?? 1));
      out[p + 7 + component * 3] = random.pick([0x00, 0x10, 0x01, 0x33, 0x44, 0x41, 0x14, 0xff, 0x22, 0x12, 0x21, 0x31]);
      break;
    }
    case 4: {
      // one component's quantisation table or id (ids made equal, or to nothing the scan names)
      const component = random.int(Math.max(1, out[p + 5] ?? 1));
      if (random.chance(0.5)) out[p + 8 + component * 3] = random.pick([1, 3, 4, 15, 255]);
      else out[p + 6 + component * 3] = random.chance(0.5) ? out[p + 6] : random.int(256);
      break;
    }
    case 5: // another frame type: progressive, lossless, arithmetic, hierarchical
      out[sof.at + 1] = random.pick([0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);
      break;
    default: // a second frame header
      return concat(out.subarray(0, sof.at), out.subarray(sof.at, sof.payload + sof.length - 2), out.subarray(sof.at));
  }
  return out;
};

const jpegTables: Mutator = (bytes, random) => {
  const segment = segmentOf(bytes, random, (marker) => marker === 0xc4 || marker === 0xdb);
  if (!segment) return bytes;
  const out = bytes.slice();
  const p = segment.payload;
  if (segment.marker === 0xdb) {
    // Pq/Tq (16-bit tables, a fifth table), or a value (zero divides nothing here, but a huge one overflows)
    if (random.chance(0.5)) out[p] = random.pick([0x04, 0x10, 0x13, 0xff, 0x05]);
    else out[p + 1 + random.int(64)] = random.pick([0, 255, 1]);
    return out;
  }
  switch (random.int(4)) {
    case 0: // table class and id
      out[p] = random.pick([0x02, 0x04, 0x14, 0x20, 0xff, 0x13]);
      break;
    case 1: // code counts that overfill the code space, or promise more values than there are
      for (let i = 0; i < 1 + random.int(4); i++) out[p + 1 + random.int(16)] = random.pick([0, 1, 2, 0xff, 0x80, 16]);
      break;
    case 2: // the values (symbols): run and size beyond what a block holds
      out[p + 17 + random.int(Math.max(1, segment.length - 19))] = random.pick([0xf0, 0x0f, 0xff, 0x10, 0x1f, 0x00]);
      break;
    default: // all counts in the first lengths (codes longer than the bits)
      for (let i = 0; i < 16; i++) out[p + 1 + i] = i < 2 ? 0xff : 0;
  }
  return out;
};

const jpegScan: Mutator = (bytes, random) => {
  const sos = segmentOf(bytes, random, (marker) => marker === 0xda);
  if (!sos) return bytes;
  const out = bytes.slice();
  const p = sos.payload;
  switch (random.int(5)) {
    case 0: // component count of the scan
      out[p] = random.pick([0, 2, 3, 4, 255]);
      break;
    case 1: // a selector naming no component, or the same one twice
      out[p + 1 + 2 * random.int(Math.max(1, out[p] ?? 1))] = random.chance(0.5) ? out[p + 1] : random.int(256);
      break;
    case 2: // Huffman table ids
      out[p + 2 + 2 * random.int(Math.max(1, out[p] ?? 1))] = random.pick([0x44, 0x04, 0x40, 0xff, 0x11, 0x33]);
      break;
    case 3: {
      // markers inside the entropy-coded data: restarts out of order, a stray EOI, stuffing removed
      const start = sos.payload + sos.length - 2;
      if (start >= out.length - 2) return out;
      const at = start + random.int(out.length - start - 2);
      const marker = random.pick([0xd0, 0xd3, 0xd7, 0xd9, 0xd8, 0xc4, 0xda, 0xff, 0x01]);
      return concat(out.subarray(0, at), Uint8Array.of(0xff, marker), out.subarray(at));
    }
    default: {
      // spectral selection and approximation (progressive scans' fields)
      const tail = p + 1 + 2 * (out[p] ?? 0);
      if (tail + 2 < out.length) {
        out[tail] = random.int(64);
        out[tail + 1] = random.int(64);
        out[tail + 2] = random.int(256);
      }
    }
  }
  return out;
};

const jpegRestart: Mutator = (bytes, random) => {
  const interval = random.pick([0, 1, 2, 7, 0xffff, 0x8000]);
  const dri = Uint8Array.of(0xff, 0xdd, 0x00, 0x04, interval >> 8, interval & 0xff);
  const existing = segmentOf(bytes, random, (marker) => marker === 0xdd);
  if (existing) {
    const out = bytes.slice();
    writeU16(out, existing.payload, interval);
    return out;
  }
  const sos = segmentOf(bytes, random, (marker) => marker === 0xda);
  if (!sos) return bytes;
  return concat(bytes.subarray(0, sos.at), dri, bytes.subarray(sos.at));
};

const jpegLength: Mutator = (bytes, random) => {
  const segments = jpegSegments(bytes);
  if (!segments.length) return bytes;
  const segment = random.pick(segments);
  const out = bytes.slice();
  const length = random.chance(0.5) ? hugeSize(random, 16) : segment.length + random.pick([-3, -2, -1, 1, 2, 64]);
  writeU16(out, segment.at + 2, length & 0xffff);
  return out;
};

export const JPEG_MUTATORS: Mutator[] = [...BYTE_MUTATORS, jpegFrame, jpegFrame, jpegTables, jpegTables, jpegScan, jpegScan, jpegRestart, jpegLength];

// ---------------------------------------------------------------- PNG

interface Chunk {
  at: number;
  length: number;
  type: string;
}

function pngChunks(bytes: Uint8Array): Chunk[] {
  const chunks: Chunk[] = [];
  let at = 8;
  while (at + 12 <= bytes.length) {
    const length = readU32(bytes, at);
    chunks.push({ at, length, type: String.fromCharCode(bytes[at + 4], bytes[at + 5], bytes[at + 6], bytes[at + 7]) });
    if (length > bytes.length) break;
    at += 12 + length;
  }
  return chunks;
}

/** Recomputes the CRC of the chunk at `at`, so a damaged chunk passes the checksum and reaches the decoder. */
function fixCrc(bytes: Uint8Array, chunk: Chunk) {
  const end = chunk.at + 8 + chunk.length;
  if (end + 4 > bytes.length) return;
  writeU32(bytes, end, crc32(bytes.subarray(chunk.at + 4, end)));
}

const pngHeader: Mutator = (bytes, random) => {
  const ihdr = pngChunks(bytes).find((chunk) => chunk.type === "IHDR");
  if (!ihdr) return bytes;
  const out = bytes.slice();
  const p = ihdr.at + 8;
  switch (random.int(4)) {
    case 0: // width and height far beyond the limits, zero, or past 2^31
      writeU32(out, p, hugeSize(random, 32));
      if (random.chance(0.5)) writeU32(out, p + 4, hugeSize(random, 32));
      break;
    case 1: // bit depth and colour type, valid or not together
      out[p + 8] = random.pick([0, 1, 2, 4, 8, 16, 3, 255]);
      out[p + 9] = random.pick([0, 2, 3, 4, 6, 1, 5, 7, 255]);
      break;
    case 2: // compression, filter and interlace methods
      out[p + 10 + random.int(3)] = random.pick([1, 2, 255]);
      break;
    default: // a size just around the pixel limit
      writeU32(out, p, random.pick([3465, 3464, 4000, 20_000, 20_001, 1]));
      writeU32(out, p + 4, random.pick([3465, 3464, 3000, 1, 20_001, 600]));
  }
  if (random.chance(0.85)) fixCrc(out, ihdr);
  return out;
};

const pngLengths: Mutator = (bytes, random) => {
  const chunks = pngChunks(bytes);
  if (!chunks.length) return bytes;
  const chunk = random.pick(chunks);
  const out = bytes.slice();
  if (random.chance(0.5)) writeU32(out, chunk.at, random.chance(0.5) ? hugeSize(random, 32) : chunk.length + random.pick([-4, -1, 1, 4, 1000]));
  else writeU32(out, chunk.at + 8 + chunk.length, random.int(0x100000000));
  return out;
};

/** Damage inside a chunk's data (the zlib stream of IDAT most often), with the CRC made right again. */
const pngData: Mutator = (bytes, random) => {
  const chunks = pngChunks(bytes).filter((chunk) => chunk.length > 0 && chunk.at + 12 + chunk.length <= bytes.length);
  if (!chunks.length) return bytes;
  const idat = chunks.filter((chunk) => chunk.type === "IDAT");
  const chunk = idat.length && random.chance(0.7) ? random.pick(idat) : random.pick(chunks);
  const out = bytes.slice();
  const p = chunk.at + 8;
  const edits = 1 + random.int(4);
  for (let i = 0; i < edits; i++) {
    // The zlib header (method, window, dictionary flag), the first deflate block's type, or anywhere.
    const at = random.chance(0.3) ? p + random.int(Math.min(3, chunk.length)) : p + random.int(chunk.length);
    out[at] = random.chance(0.5) ? out[at] ^ (1 << random.int(8)) : random.int(256);
  }
  fixCrc(out, chunk);
  return out;
};

const pngStructure: Mutator = (bytes, random) => {
  const chunks = pngChunks(bytes);
  if (!chunks.length) return bytes;
  const chunk = random.pick(chunks);
  const whole = bytes.subarray(chunk.at, chunk.at + 12 + chunk.length);
  switch (random.int(4)) {
    case 0: // a chunk left out (IHDR, PLTE, the only IDAT, IEND)
      return concat(bytes.subarray(0, chunk.at), bytes.subarray(chunk.at + 12 + chunk.length));
    case 1: // a chunk twice
      return concat(bytes.subarray(0, chunk.at), whole, bytes.subarray(chunk.at));
    case 2: {
      // a chunk moved after IEND or before IHDR
      const rest = concat(bytes.subarray(0, chunk.at), bytes.subarray(chunk.at + 12 + chunk.length));
      return random.chance(0.5) ? concat(rest, whole) : concat(rest.subarray(0, 8), whole, rest.subarray(8));
    }
    default: {
      // an odd chunk: a huge palette, a transparency chunk longer than the palette, an empty IDAT
      const type = random.pick(["PLTE", "tRNS", "IDAT", "acTL", "iCCP", "zTXt"]);
      const data = new Uint8Array(random.pick([0, 1, 3, 768, 769, 4096]));
      for (let i = 0; i < data.length; i++) data[i] = random.int(256);
      const before = chunks.find((c) => c.type === "IDAT") ?? chunk;
      return concat(bytes.subarray(0, before.at), pngChunk(type, data), bytes.subarray(before.at));
    }
  }
};

export const PNG_MUTATORS: Mutator[] = [...BYTE_MUTATORS, pngHeader, pngHeader, pngLengths, pngData, pngData, pngData, pngStructure, pngStructure];
