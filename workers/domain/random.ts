/**
 * The one seeded randomness of the codebase (the generator, the RSS and WordPress pins, the stand-ins' pictures, the
 * tests' and benchmarks' campaigns), passed in so that tests can fix it: a function answering numbers in [0, 1), like
 * Math.random.
 */
export type Random = () => number;

/** A small seeded generator (mulberry32): the same seed gives the same sequence. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A 32-bit seed from text (FNV-1a): the same text always gives the same seed. */
export function stableSeed(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** A whole number in [0, length). */
export function randomIndex(length: number, random: Random): number {
  return Math.min(length - 1, Math.floor(random() * length));
}

/** A random index other than `current` (when there is another to pick). */
export function randomOtherIndex(length: number, current: number, random: Random): number {
  if (length <= 1 || current < 0 || current >= length) return randomIndex(length, random);
  const pick = randomIndex(length - 1, random);
  return pick >= current ? pick + 1 : pick;
}

/** A shuffled copy (Fisher-Yates). */
export function shuffled<T>(items: readonly T[], random: Random): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = randomIndex(i + 1, random);
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

/**
 * An index in [0, weights.length), each as likely as its weight (issue 41: templates of the families that perform
 * best are drawn more often). Weights that are not positive numbers count as 0; when none is positive, every index is
 * as likely.
 */
export function weightedIndex(weights: readonly number[], random: Random): number {
  const clean = weights.map((weight) => (Number.isFinite(weight) && weight > 0 ? weight : 0));
  const total = clean.reduce((sum, weight) => sum + weight, 0);
  if (total <= 0) return randomIndex(weights.length, random);
  let point = random() * total;
  for (const [index, weight] of clean.entries()) {
    if (weight === 0) continue;
    if (point < weight) return index;
    point -= weight;
  }
  // Rounding at the very end: the last index with weight.
  return clean.findLastIndex((weight) => weight > 0);
}

/**
 * A shuffled copy where heavier items tend to come first (a weighted draw without replacement, one item at a time):
 * every item appears once, as in `shuffled`.
 */
export function weightedShuffled<T>(items: readonly T[], weightOf: (item: T) => number, random: Random): T[] {
  const left = [...items];
  const out: T[] = [];
  while (left.length > 0) {
    const [picked] = left.splice(weightedIndex(left.map(weightOf), random), 1);
    out.push(picked as T);
  }
  return out;
}
