import { seededRandom } from "../../workers/domain/random.ts";
import { concatBytes } from "../../workers/render/overlay.ts";

/**
 * The seeded mutation engine of the untrusted-bytes campaign (decision 078).
 * One case is one 32-bit seed: the seed picks a starting file and a stack of
 * mutations, so any case (the slowest, a failure) is replayed from its seed
 * alone. No Node API, so the same cases can be made in Node and inside workerd.
 */

/** The codebase's seeded randomness (workers/domain/random.ts), with the campaign's helpers. */
export class Random {
  /** 0 <= x < 1. */
  readonly next: () => number;
  constructor(seed: number) {
    this.next = seededRandom(seed);
  }
  /** 0 <= x < n. */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }
}

/** The seed of case `index` of a campaign seeded with `campaign` (splitmix-style mixing: neighbouring cases differ in every bit). */
export function caseSeed(campaign: number, index: number): number {
  let z = (Math.imul(campaign >>> 0, 0x9e3779b1) + Math.imul(index + 1, 0x85ebca6b)) >>> 0;
  z = Math.imul(z ^ (z >>> 16), 0x21f0aaad) >>> 0;
  z = Math.imul(z ^ (z >>> 15), 0x735a2d97) >>> 0;
  return (z ^ (z >>> 15)) >>> 0;
}

export type Mutator = (bytes: Uint8Array, random: Random) => Uint8Array;

// ---------------------------------------------------------------- byte-level mutations (any format)

/** Values that sit on the edges of sizes and signs. */
const EDGE_BYTES = [0x00, 0x01, 0x7f, 0x80, 0xfe, 0xff, 0x10, 0x40];
const EDGE_U16 = [0x0000, 0x0001, 0x7fff, 0x8000, 0xfffe, 0xffff, 0x0100, 0x4000];
const EDGE_U32 = [0x00000000, 0x00000001, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff, 0x00010000, 0x01000000];

export const bitFlips: Mutator = (bytes, random) => {
  const out = bytes.slice();
  const flips = 1 + random.int(8);
  for (let i = 0; i < flips && out.length > 0; i++) out[random.int(out.length)] ^= 1 << random.int(8);
  return out;
};

export const byteSets: Mutator = (bytes, random) => {
  const out = bytes.slice();
  const sets = 1 + random.int(4);
  for (let i = 0; i < sets && out.length > 0; i++) out[random.int(out.length)] = random.chance(0.5) ? random.pick(EDGE_BYTES) : random.int(256);
  return out;
};

export const truncation: Mutator = (bytes, random) => bytes.slice(0, random.int(bytes.length + 1));

/** A run of random or repeated bytes inserted somewhere. */
export const insertRun: Mutator = (bytes, random) => {
  const at = random.int(bytes.length + 1);
  const length = 1 + random.int(random.chance(0.1) ? 4096 : 64);
  const run = new Uint8Array(length);
  const fill = random.int(256);
  for (let i = 0; i < length; i++) run[i] = random.chance(0.5) ? fill : random.int(256);
  return concat(bytes.subarray(0, at), run, bytes.subarray(at));
};

export const deleteRun: Mutator = (bytes, random) => {
  if (bytes.length === 0) return bytes;
  const at = random.int(bytes.length);
  const length = 1 + random.int(Math.min(bytes.length - at, random.chance(0.1) ? 4096 : 64));
  return concat(bytes.subarray(0, at), bytes.subarray(at + length));
};

/** A stretch of the file copied over another place (repeats structures: tables, tags, segments). */
export const duplicateRun: Mutator = (bytes, random) => {
  if (bytes.length < 2) return bytes;
  const from = random.int(bytes.length);
  const length = 1 + random.int(Math.min(bytes.length - from, 512));
  const at = random.int(bytes.length + 1);
  return concat(bytes.subarray(0, at), bytes.subarray(from, from + length), bytes.subarray(at));
};

/** A 16- or 32-bit big-endian field somewhere set to an edge value: lengths, counts, sizes and offsets gone wrong. */
export const edgeNumber: Mutator = (bytes, random) => {
  if (bytes.length < 4) return byteSets(bytes, random);
  const out = bytes.slice();
  const at = random.int(out.length - 3);
  if (random.chance(0.5)) writeU16(out, at, random.pick(EDGE_U16));
  else writeU32(out, at, random.pick(EDGE_U32));
  return out;
};

export const BYTE_MUTATORS: Mutator[] = [bitFlips, byteSets, truncation, insertRun, deleteRun, duplicateRun, edgeNumber];

/** One to four mutations, picked from `mutators`, applied one after another to `bytes`. */
export function mutate(bytes: Uint8Array, random: Random, mutators: readonly Mutator[]): Uint8Array {
  let out = bytes;
  const count = 1 + random.int(4);
  for (let i = 0; i < count; i++) out = random.pick(mutators)(out, random);
  return out;
}

// ---------------------------------------------------------------- helpers

export const concat = concatBytes;

export function readU16(bytes: Uint8Array, at: number): number {
  return ((bytes[at] << 8) | bytes[at + 1]) >>> 0;
}
export function readU32(bytes: Uint8Array, at: number): number {
  return ((bytes[at] << 24) | (bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3]) >>> 0;
}
export function writeU16(bytes: Uint8Array, at: number, value: number) {
  if (at + 1 >= bytes.length) return;
  bytes[at] = (value >>> 8) & 0xff;
  bytes[at + 1] = value & 0xff;
}
export function writeU32(bytes: Uint8Array, at: number, value: number) {
  if (at + 3 >= bytes.length) return;
  writeU16(bytes, at, value >>> 16);
  writeU16(bytes, at + 2, value & 0xffff);
}

/** A size far beyond any limit, or just past one, or nothing at all. */
export function hugeSize(random: Random, bits: 16 | 32): number {
  const top = bits === 16 ? 0xffff : 0xffffffff;
  return random.pick([0, 1, top, top - 1, top >>> 1, (top >>> 1) + 1, bits === 16 ? 20_001 : 0x10000000, bits === 16 ? 4097 : 0x01000000]);
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
export const utf8 = (text: string) => encoder.encode(text);

/**
 * A markup file with only its first `count` `<tag>` elements (the others dropped, whatever follows the last kept):
 * a short seed with every kind of element of the long one (a feed's items, a sitemap's URLs, a page's cards).
 */
export function firstElements(file: Uint8Array, tag: string, count: number): Uint8Array {
  const source = decoder.decode(file);
  const elements = [...source.matchAll(new RegExp(`<${tag}(?:\\s[^>]*)?>[\\s\\S]*?</${tag}>\\s*`, "g"))];
  if (elements.length <= count) return file;
  const last = elements[elements.length - 1];
  return utf8(source.slice(0, elements[count - 1].index + elements[count - 1][0].length) + source.slice(last.index + last[0].length));
}
