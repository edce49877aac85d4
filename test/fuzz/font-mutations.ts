import { brotliCompressSync, brotliDecompressSync, constants, deflateSync, inflateSync } from "node:zlib";
import {
  BYTE_MUTATORS,
  bitFlips,
  byteSets,
  concat,
  duplicateRun,
  edgeNumber,
  hugeSize,
  readU32,
  truncation,
  writeU16,
  writeU32,
  type Mutator,
} from "./mutations.ts";
import type { Target } from "./campaign.ts";

/**
 * Mutations of WOFF and WOFF2 font uploads: the header (length, table count,
 * the sfnt size), the table directory (tags, offsets, compressed and original
 * lengths, up to 2^32), and the tables themselves: unpacked, damaged and
 * packed again, so the damage reaches the sfnt rebuild and opentype.js rather
 * than stopping at zlib or Brotli.
 */

/** The largest table data a mutation unpacks, damages and packs again. */
const MAX_REPACKED = 1024 * 1024;

// ---------------------------------------------------------------- WOFF

interface WoffEntry {
  record: number;
  offset: number;
  compLength: number;
  origLength: number;
}

function woffEntries(bytes: Uint8Array): WoffEntry[] {
  const count = bytes.length >= 14 ? (bytes[12] << 8) | bytes[13] : 0;
  const entries: WoffEntry[] = [];
  for (let i = 0; i < count && 44 + 20 * (i + 1) <= bytes.length; i++) {
    const record = 44 + 20 * i;
    entries.push({ record, offset: readU32(bytes, record + 4), compLength: readU32(bytes, record + 8), origLength: readU32(bytes, record + 12) });
  }
  return entries;
}

const woffHeader: Mutator = (bytes, random) => {
  const out = bytes.slice();
  switch (random.int(3)) {
    case 0:
      writeU32(out, 8, random.chance(0.5) ? hugeSize(random, 32) : out.length + random.pick([-1, 1, 100]));
      break;
    case 1:
      writeU16(out, 12, hugeSize(random, 16));
      break;
    default:
      writeU32(out, 16, hugeSize(random, 32));
  }
  return out;
};

const woffDirectory: Mutator = (bytes, random) => {
  const entries = woffEntries(bytes);
  if (!entries.length) return bytes;
  const entry = random.pick(entries);
  const out = bytes.slice();
  const field = random.int(4);
  if (field === 0)
    writeU32(out, entry.record, random.pick([0x676c7966, 0x6c6f6361, 0x68656164, 0x636d6170, 0, 0xffffffff])); // glyf, loca, head, cmap
  else
    writeU32(
      out,
      entry.record + 4 * field,
      random.chance(0.6) ? hugeSize(random, 32) : readU32(out, entry.record + 4 * field) + random.pick([-4, -1, 1, 4, 4096]),
    );
  return out;
};

/** A table unpacked, damaged (its counts, offsets and lengths most of all), packed again, the directory kept right. */
const woffTable: Mutator = (bytes, random) => {
  const entries = woffEntries(bytes).filter((entry) => entry.offset + entry.compLength <= bytes.length);
  if (!entries.length) return bytes;
  const entry = random.pick(entries);
  const stored = bytes.subarray(entry.offset, entry.offset + entry.compLength);
  let table: Uint8Array;
  try {
    table = entry.compLength === entry.origLength ? stored : new Uint8Array(inflateSync(stored, { maxOutputLength: MAX_REPACKED }));
  } catch {
    return bytes;
  }
  const damaged = random.pick([bitFlips, byteSets, edgeNumber, edgeNumber, truncation, duplicateRun])(table, random);
  const packed = new Uint8Array(deflateSync(damaged));
  const out = concat(bytes.subarray(0, entry.offset), packed, bytes.subarray(entry.offset + entry.compLength));
  writeU32(out, entry.record + 8, packed.length);
  writeU32(out, entry.record + 12, damaged.length);
  const shift = packed.length - entry.compLength;
  for (const other of woffEntries(out)) if (other.offset > entry.offset) writeU32(out, other.record + 4, other.offset + shift);
  writeU32(out, 8, out.length);
  return out;
};

export const WOFF_MUTATORS: Mutator[] = [...BYTE_MUTATORS, woffHeader, woffDirectory, woffDirectory, woffTable, woffTable, woffTable, woffTable];

// ---------------------------------------------------------------- WOFF2

/** Where the WOFF2 table directory ends (the compressed stream starts there), read loosely. */
function woff2Layout(bytes: Uint8Array): { directoryEnd: number; compressedLength: number } | null {
  if (bytes.length < 48) return null;
  const count = (bytes[12] << 8) | bytes[13];
  let at = 48;
  const base128 = () => {
    for (let i = 0; i < 5 && at < bytes.length; i++) if ((bytes[at++] & 0x80) === 0) return;
  };
  for (let i = 0; i < count; i++) {
    if (at >= bytes.length) return null;
    const flags = bytes[at++];
    if ((flags & 0x3f) === 0x3f) at += 4;
    base128();
    const tag = flags & 0x3f;
    const version = flags >> 6;
    const transformed = tag === 10 || tag === 11 ? version !== 3 : version !== 0;
    if (transformed) base128();
  }
  return { directoryEnd: at, compressedLength: readU32(bytes, 20) };
}

const woff2Header: Mutator = (bytes, random) => {
  const out = bytes.slice();
  const field = random.pick([8, 12, 16, 20]);
  if (field === 12) writeU16(out, 12, hugeSize(random, 16));
  else writeU32(out, field, random.chance(0.6) ? hugeSize(random, 32) : readU32(out, field) + random.pick([-1, 1, 100]));
  return out;
};

/** A directory entry's flags, or a length written as UIntBase128 with leading zeros, too many bytes, or past 2^32. */
const woff2Directory: Mutator = (bytes, random) => {
  const layout = woff2Layout(bytes);
  if (!layout || layout.directoryEnd <= 48) return bytes;
  const at = 48 + random.int(layout.directoryEnd - 48);
  const out = bytes.slice();
  if (random.chance(0.4)) {
    out[at] = random.pick([0x3f, 0x0a, 0x4a, 0x8a, 0xca, 0x0b, 0xcb, 0x03, 0x43, 0xff]);
    return out;
  }
  const lengths = [
    [0x80, 0x00],
    [0xff, 0xff, 0xff, 0xff, 0x7f],
    [0x8f, 0xff, 0xff, 0xff, 0x7f],
    [0x81, 0x80, 0x80, 0x80, 0x80, 0x00],
    [0x8b, 0xb8, 0x80, 0x80, 0x00],
  ];
  return concat(out.subarray(0, at), Uint8Array.from(random.pick(lengths)), out.subarray(at + 1));
};

/** The decompressed stream (the tables, glyf and loca transformed) damaged and compressed again. */
const woff2Stream: Mutator = (bytes, random) => {
  const layout = woff2Layout(bytes);
  if (!layout || layout.directoryEnd + layout.compressedLength > bytes.length) return bytes;
  let stream: Uint8Array;
  try {
    // A font's tables, not a bomb an earlier mutation put there (unpacking and packing 100 MB again took 2 s).
    stream = new Uint8Array(
      brotliDecompressSync(bytes.subarray(layout.directoryEnd, layout.directoryEnd + layout.compressedLength), { maxOutputLength: MAX_REPACKED }),
    );
  } catch {
    return bytes;
  }
  // Damage of the same length keeps the directory's table lengths right, so the transforms are reached.
  const damaged = random.pick([bitFlips, byteSets, edgeNumber, edgeNumber, edgeNumber])(stream, random);
  const packed = new Uint8Array(brotliCompressSync(damaged, FAST_BROTLI));
  const out = concat(bytes.subarray(0, layout.directoryEnd), packed, bytes.subarray(layout.directoryEnd + layout.compressedLength));
  writeU32(out, 20, packed.length);
  writeU32(out, 8, out.length);
  return out;
};

/** Quick Brotli: the mutations need a valid stream, not a small one. */
const FAST_BROTLI = { params: { [constants.BROTLI_PARAM_QUALITY]: 2 } };
const bombs = new Map<number, Uint8Array>();

/** A Brotli stream that unpacks to far more than the directory states (a decompression bomb). */
const woff2Bomb: Mutator = (bytes, random) => {
  const layout = woff2Layout(bytes);
  if (!layout) return bytes;
  const megabytes = random.pick([30, 100]);
  let bomb = bombs.get(megabytes);
  if (!bomb) bombs.set(megabytes, (bomb = new Uint8Array(brotliCompressSync(new Uint8Array(megabytes * 1024 * 1024), FAST_BROTLI))));
  const out = concat(bytes.subarray(0, layout.directoryEnd), bomb);
  writeU32(out, 20, bomb.length);
  writeU32(out, 8, out.length);
  return out;
};

export const WOFF2_MUTATORS: Mutator[] = [
  ...BYTE_MUTATORS,
  woff2Header,
  woff2Directory,
  woff2Directory,
  woff2Stream,
  woff2Stream,
  woff2Stream,
  woff2Stream,
  woff2Bomb,
];

/** A font campaign's cases: its name, seeds (real fonts of the format) and mutators; font-target.ts reads them. */
export function fontCases(format: "woff" | "woff2", seeds: Uint8Array[]): Omit<Target, "run"> {
  return { name: format === "woff" ? "WOFF fonts" : "WOFF2 fonts", seeds, mutators: format === "woff" ? WOFF_MUTATORS : WOFF2_MUTATORS };
}
