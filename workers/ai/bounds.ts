import { ALT_TEXT_MAX_CHARS, DESCRIPTION_MAX_CHARS, DESCRIPTION_MIN_CHARS, TITLE_MAX_CHARS, type RewriteKind } from "../../contracts/content/ai.ts";

/**
 * The pure rules for AI answers (spec section 5): what a title, a description
 * and an alt text may be, how an answer a little outside the bounds is
 * repaired, and when two answers count as the same. Lengths are counted in
 * characters (code points), as a person counts them.
 */
export type AiTextKind = RewriteKind | "altText";

/** Inclusive length range of each kind: titles under 40, descriptions over 200 and under 500, alt text at most 500. */
export const LENGTH_BOUNDS: Record<AiTextKind, { min: number; max: number }> = {
  title: { min: 1, max: TITLE_MAX_CHARS - 1 },
  description: { min: DESCRIPTION_MIN_CHARS + 1, max: DESCRIPTION_MAX_CHARS - 1 },
  altText: { min: 1, max: ALT_TEXT_MAX_CHARS },
};

/**
 * How far over the limit an answer may be and still be trimmed rather than
 * asked for again: beyond this the model ignored the instruction and a cut
 * would lose too much of what it wrote.
 */
const REPAIR_SLACK: Record<AiTextKind, number> = { title: 20, description: 200, altText: 200 };

/** A trimmed title keeps at least this share of the limit, or it is asked for again. */
const MIN_TRIMMED_TITLE_SHARE = 0.5;

export type Rejection = "empty" | "tooShort" | "tooLong" | "duplicate";
export type BoundsCheck = { ok: true; text: string; repaired: boolean } | { ok: false; reason: Exclude<Rejection, "duplicate">; text: string };

export function charCount(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

function firstChars(text: string, count: number): string {
  return Array.from(text).slice(0, count).join("");
}

const LABEL =
  /^(?:(?:here(?:'s| is)\s+(?:an?|the|your)\s+)?(?:rewritten|new|improved|suggested|pin|pinterest|option|version)?\s*(?:title|description|alt[\s-]?text|text|option|version|rewrite)\s*(?:#?\d+)?\s*[:：\-–—]\s*)/i;
const LIST_MARKER = /^(?:\(?\d{1,2}[.)]|[-*•])\s+/;
const QUOTE_PAIRS: [string, string][] = [
  ['"', '"'],
  ["'", "'"],
  ["“", "”"],
  ["‘", "’"],
  ["«", "»"],
  ["„", "“"],
  ["「", "」"],
  ["`", "`"],
];

function unquote(text: string): string {
  for (const [open, close] of QUOTE_PAIRS) {
    if (text.length >= 2 && text.startsWith(open) && text.endsWith(close)) {
      const inner = text.slice(open.length, -close.length);
      // Only a wrapping pair: "A" and "B" is two quotes, not one wrapped text.
      if (!inner.includes(open) && !inner.includes(close)) return inner.trim();
    }
  }
  return text;
}

/**
 * What a model wraps around the text itself, removed: "Title:" style labels,
 * list markers, wrapping quotes, markdown emphasis and extra whitespace. A
 * title answered over several lines keeps its first line; other kinds join
 * their lines into one paragraph.
 */
export function cleanAnswer(raw: string, kind: AiTextKind): string {
  let text = raw
    .replace(/\r\n?/g, "\n")
    .replace(/\*\*|__/g, "")
    .trim();
  if (kind === "title") text = text.split("\n").find((line) => line.trim() !== "") ?? "";
  text = text.replace(/\s+/g, " ").trim();
  for (let pass = 0; pass < 3; pass += 1) {
    const before = text;
    text = unquote(text.replace(LIST_MARKER, "").replace(LABEL, "").trim());
    if (text === before) break;
  }
  return text;
}

const TRAILING_JOINERS = /(?:[\s,;:\-–—&|/(]+|\s+(?:and|or|with|for|the|a|an|of|to|in|on|at|by|your|from))+$/i;
const SENTENCE_END = /[.!?。！？](?=["'”’)\]]?(?:\s|$))/gu;

/** The longest start of `text` ending at a sentence end, at most `max` characters; null when none is long enough. */
function cutAtSentence(text: string, max: number, min: number): string | null {
  const head = firstChars(text, max);
  let best: string | null = null;
  for (const match of head.matchAll(SENTENCE_END)) {
    const candidate = head.slice(0, match.index + match[0].length).trim();
    if (charCount(candidate) >= min) best = candidate;
  }
  return best;
}

/** The longest start of `text` ending between words, at most `max` characters, without dangling joiners. */
function cutAtWord(text: string, max: number): string {
  const head = firstChars(text, max + 1);
  const boundary = head.search(/\s\S*$/);
  const cut = charCount(head) <= max ? head : boundary > 0 ? head.slice(0, boundary) : "";
  return cut.replace(TRAILING_JOINERS, "").trim();
}

/**
 * Checks a cleaned answer against its kind's bounds. A little too long is
 * repaired: a title is cut at a word boundary, a description or alt text at
 * the last sentence that fits (else at a word, ending with "…"). Too short,
 * empty or far too long cannot be repaired and must be asked for again.
 */
export function fitToBounds(raw: string, kind: AiTextKind): BoundsCheck {
  const text = cleanAnswer(raw, kind);
  const { min, max } = LENGTH_BOUNDS[kind];
  const length = charCount(text);
  if (length === 0) return { ok: false, reason: "empty", text };
  if (length < min) return { ok: false, reason: "tooShort", text };
  if (length <= max) return { ok: true, text, repaired: text !== raw };
  if (length > max + REPAIR_SLACK[kind]) return { ok: false, reason: "tooLong", text };

  if (kind === "title") {
    const cut = cutAtWord(text, max);
    return charCount(cut) >= Math.ceil(max * MIN_TRIMMED_TITLE_SHARE) ? { ok: true, text: cut, repaired: true } : { ok: false, reason: "tooLong", text };
  }
  const sentence = cutAtSentence(text, max, min);
  if (sentence) return { ok: true, text: sentence, repaired: true };
  const word = cutAtWord(text, max - 1);
  if (charCount(word) >= Math.max(min, 1)) return { ok: true, text: `${word}…`, repaired: true };
  return { ok: false, reason: "tooLong", text };
}

/** The form two answers are compared in: case, spacing and closing punctuation do not make a text different. */
export function comparisonKey(text: string): string {
  return text
    .normalize("NFKC")
    .toLocaleLowerCase()
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[\s.!?…。！？]+$/u, "");
}

/** Keyword input: one phrase per line; blank lines dropped, repeats removed. Empty means a free rewrite. */
export function keywordPhrases(keywords: string, limit = 20): string[] {
  const seen = new Set<string>();
  const phrases: string[] = [];
  for (const line of keywords.split(/\r?\n/)) {
    const phrase = line.replace(/\s+/g, " ").trim();
    const key = comparisonKey(phrase);
    if (!phrase || seen.has(key)) continue;
    seen.add(key);
    phrases.push(phrase);
    if (phrases.length === limit) break;
  }
  return phrases;
}

export interface Collected {
  /** Accepted answers, in the order they came. */
  accepted: string[];
  /** Why answers were turned away, counted. */
  rejected: Partial<Record<Rejection, number>>;
}

/**
 * Adds a batch of raw answers to those accepted so far, stopping at `wanted`.
 * With `unique`, an answer equal to one already accepted, or to one of
 * `avoid` (the text being rewritten), is turned away as a duplicate.
 */
export function collectAnswers(
  collected: Collected,
  answers: string[],
  options: { kind: AiTextKind; wanted: number; unique: boolean; avoid?: string[] },
): Collected {
  const accepted = [...collected.accepted];
  const rejected = { ...collected.rejected };
  const seen = new Set([...(options.avoid ?? []), ...accepted].map(comparisonKey));
  for (const answer of answers) {
    if (accepted.length >= options.wanted) break;
    const check = fitToBounds(answer, options.kind);
    if (!check.ok) {
      rejected[check.reason] = (rejected[check.reason] ?? 0) + 1;
      continue;
    }
    const key = comparisonKey(check.text);
    if (options.unique && seen.has(key)) {
      rejected.duplicate = (rejected.duplicate ?? 0) + 1;
      continue;
    }
    seen.add(key);
    accepted.push(check.text);
  }
  return { accepted, rejected };
}

/** The clear message for answers that stayed out of bounds after every attempt. */
export function outOfBoundsMessage(kind: AiTextKind, rejected: Collected["rejected"]): string {
  const worst = (Object.entries(rejected) as [Rejection, number][]).sort((a, b) => b[1] - a[1])[0]?.[0];
  if (worst === "duplicate") return "The AI kept repeating itself and could not write enough different texts. Please try again or ask for fewer results.";
  if (worst === "empty") return "The AI answered without any text. Please try again.";
  if (kind === "title") return `The AI could not write a title under ${TITLE_MAX_CHARS} characters. Please try again.`;
  if (kind === "description") {
    return `The AI could not write a description between ${DESCRIPTION_MIN_CHARS} and ${DESCRIPTION_MAX_CHARS} characters. Please try again.`;
  }
  return `The AI could not write alt text of at most ${ALT_TEXT_MAX_CHARS} characters. Please try again.`;
}
