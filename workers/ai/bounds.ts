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

/**
 * Why an answer was turned away. Beyond length: "fragment", a title that ends in a phrase cut off (the start
 * of a longer phrase of the post, not a whole one); "unfinished", a description that does not end on a whole
 * sentence and has none to end on within bounds.
 */
export type Rejection = "empty" | "tooShort" | "tooLong" | "fragment" | "unfinished" | "duplicate";
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
 * Checks a cleaned answer against its kind's bounds and repairs what a reader would trip over (issue 40 point 3):
 *
 * - a title: stray capitals made one style (sentence case or title case, whichever most of it is in; words
 *   capitalised in the post's own text kept), a word said twice said once, trailing punctuation dropped; a
 *   phrase cut off at its end (the start of a longer phrase of `source`) dropped with its clause, or the answer
 *   refused; a little too long, cut only where a clause ends (":", " - ", " | "), never in the middle of a phrase;
 * - a description: it ends on a whole sentence (hashtags may follow), cut after the last one that fits;
 * - alt text: never names a host or web address (the picture is described, not where it came from).
 *
 * Too short, empty, far too long or beyond repair must be asked for again.
 */
export function fitToBounds(raw: string, kind: AiTextKind, source = ""): BoundsCheck {
  const cleaned = cleanAnswer(raw, kind);
  let text = cleaned;
  if (kind === "altText") text = withoutHosts(text);
  if (kind === "title") {
    const tidied = tidyTitle(text, source);
    if (tidied === null) return { ok: false, reason: "fragment", text };
    text = tidied;
  }
  const { min, max } = LENGTH_BOUNDS[kind];
  const length = charCount(text);
  if (length === 0) return { ok: false, reason: "empty", text };
  if (length < min) return { ok: false, reason: "tooShort", text };
  if (kind === "title") {
    if (length <= max) return { ok: true, text, repaired: text !== raw };
    // Whole clauses only, however long the rest was: what is kept was written to stand alone.
    const cut = cutAtClause(text, max);
    return cut !== null && wordsOf(cut).length >= 2 ? { ok: true, text: cut, repaired: true } : { ok: false, reason: "tooLong", text };
  }
  if (length > max + REPAIR_SLACK[kind]) return { ok: false, reason: "tooLong", text };
  if (kind === "description") {
    // A whole sentence at the end (hashtags after it are the pin's, not a thought cut short).
    const { body, tags } = splitHashtags(text);
    if (length <= max && endsOnSentence(body)) return { ok: true, text, repaired: text !== raw };
    const room = max - (tags ? charCount(tags) + 1 : 0);
    const sentence = cutAtSentence(body, Math.min(room, charCount(body)), Math.max(1, min - (tags ? charCount(tags) + 1 : 0)));
    const repaired = sentence && tags ? `${sentence} ${tags}` : sentence;
    if (repaired && charCount(repaired) >= min && charCount(repaired) <= max) return { ok: true, text: repaired, repaired: true };
    return { ok: false, reason: length > max ? "tooLong" : "unfinished", text };
  }
  if (length <= max) return { ok: true, text, repaired: text !== raw };
  const sentence = cutAtSentence(text, max, min);
  if (sentence) return { ok: true, text: sentence, repaired: true };
  const word = cutAtWord(text, max - 1);
  if (charCount(word) >= Math.max(min, 1)) return { ok: true, text: `${word}…`, repaired: true };
  return { ok: false, reason: "tooLong", text };
}

/** Ends with ., ! or ? (a closing quote or bracket may follow). */
function endsOnSentence(text: string): boolean {
  return /[.!?。！？]["'”’)\]]?$/u.test(text.trim());
}

/** A description's trailing hashtags ("#decor #home"), apart from what comes before them. */
function splitHashtags(text: string): { body: string; tags: string } {
  const match = /(?:\s+#[\p{L}\p{N}_]+)+$/u.exec(text);
  if (!match || match.index === 0) return { body: text, tags: "" };
  return { body: text.slice(0, match.index).trim(), tags: match[0].trim() };
}

/** The longest start of `text` that ends where a clause ends (":", " - ", " – ", " | "), within `max` characters. */
function cutAtClause(text: string, max: number): string | null {
  let best: string | null = null;
  for (const match of text.matchAll(/\s*(?::|\s[-–—|]\s)/g)) {
    const head = text.slice(0, match.index).trim();
    if (charCount(head) <= max && charCount(head) > 0) best = head;
  }
  return best;
}

const MINOR_WORDS = new Set(["a", "an", "the", "and", "or", "but", "nor", "of", "for", "to", "with", "in", "on", "at", "by", "from", "as", "vs"]);
const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu;
const isCapitalised = (word: string) => /^\p{Lu}/u.test(word) && word !== word.toUpperCase();
const isAcronym = (word: string) => word.length > 1 && word === word.toUpperCase() && /\p{L}/u.test(word);

/**
 * A title as a person would write it, or null when it ends in a phrase cut off that cannot be dropped.
 * `source`: the text being rewritten (the post's title or description), whose capitalised words are names.
 */
export function tidyTitle(text: string, source = ""): string | null {
  let title = text.replace(/[\s:;,\-–—|/&…]+$/u, "").trim();
  // The same word twice ("Cozy decor: 12 Cozy small ideas"): said once, where it first comes.
  const seen = new Set<string>();
  title = title
    .replace(WORD, (word) => {
      const key = word.toLocaleLowerCase();
      if (key.length < 4 || /^\d/.test(key) || MINOR_WORDS.has(key)) return word;
      if (seen.has(key)) return "";
      seen.add(key);
      return word;
    })
    .replace(/\s+([:,;])/g, "$1")
    .replace(/\s{2,}/g, " ")
    .replace(/[\s:;,\-–—|/&]+$/u, "")
    .trim();

  // A phrase cut off at the end ("…ideas: 12 Cozy"): the last clause is the start of a longer run of the
  // source's words. Dropped with its separator; a title that is nothing else is asked for again.
  const clause = /\s*(?::|\s[-–—|]\s)\s*([^:|–—]+)$/u.exec(title);
  if (clause && isCutOff(clause[1], source)) {
    title = title.slice(0, clause.index).trim();
    if (!title) return null;
  }
  return withOneCase(title, source);
}

/** The words of `text`, lower-cased. */
const wordsOf = (text: string) => [...text.matchAll(WORD)].map((match) => match[0].toLocaleLowerCase());

/** A clause of two or more words that the source goes on from with a word that is not a joiner: cut short. */
function isCutOff(clause: string, source: string): boolean {
  const words = wordsOf(clause);
  const from = wordsOf(source);
  if (words.length < 2 || from.length <= words.length) return false;
  for (let i = 0; i + words.length < from.length; i += 1) {
    if (words.every((word, j) => from[i + j] === word) && !MINOR_WORDS.has(from[i + words.length])) return true;
  }
  return false;
}

/**
 * One style of capitals: title case when most of the words after the first are capitalised, else sentence case.
 * Acronyms, and words capitalised in a source that is not itself in title case (names), keep their capitals.
 */
function withOneCase(title: string, source: string): string {
  const words = [...title.matchAll(WORD)].map((match) => match[0]);
  const later = words.slice(1).filter((word) => !/^\d/.test(word) && !MINOR_WORDS.has(word.toLocaleLowerCase()) && !isAcronym(word));
  if (later.length === 0) return title;
  const capitalised = later.filter(isCapitalised).length;
  const sourceWords = [...source.matchAll(WORD)].map((match) => match[0]);
  const sourceTitleCase = sourceWords.length > 0 && sourceWords.filter(isCapitalised).length / sourceWords.length >= 0.6;
  const names = new Set(sourceTitleCase ? [] : sourceWords.slice(1).filter(isCapitalised));
  const titleCase = capitalised / later.length >= 0.6;
  let index = 0;
  return title.replace(WORD, (word) => {
    const first = index === 0;
    index += 1;
    if (isAcronym(word) || /^\d/.test(word)) return word;
    const lower = word.toLocaleLowerCase();
    const upper = word.charAt(0).toLocaleUpperCase() + word.slice(1);
    if (first) return upper;
    if (titleCase) return MINOR_WORDS.has(lower) ? lower : upper;
    return names.has(word) ? word : isCapitalised(word) ? lower : word;
  });
}

/** Hosts, addresses and "from example.com" removed: alt text describes the picture, not where it came from. */
export function withoutHosts(text: string): string {
  const host = String.raw`(?:https?:\/\/\S+|www\.\S+|\b(?:\d{1,3}\.){3}\d{1,3}(?::\d+)?\b|\b(?:[a-z0-9-]+\.)+(?:com|net|org|io|co|uk|de|fr|es|it|nl|test|example|dev|app|shop|store|blog|info|me|us|ca|au)\b(?::\d+)?(?:\/\S*)?)`;
  return text
    .replace(new RegExp(String.raw`[,;]?\s*\b(?:from|on|at|via|taken from|hosted on|found on|source:?)\s+${host}`, "gi"), "")
    .replace(new RegExp(host, "gi"), "")
    .replace(/\s+([.,;:!?])/g, "$1")
    .replace(/([,;:])(?=[.!?]|$)/g, "")
    .replace(/\s{2,}/g, " ")
    .replace(/^[\s,;:.-]+/, "")
    .trim();
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
  options: { kind: AiTextKind; wanted: number; unique: boolean; avoid?: string[]; source?: string },
): Collected {
  const accepted = [...collected.accepted];
  const rejected = { ...collected.rejected };
  const seen = new Set([...(options.avoid ?? []), ...accepted].map(comparisonKey));
  for (const answer of answers) {
    if (accepted.length >= options.wanted) break;
    const check = fitToBounds(answer, options.kind, options.source);
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
  if (worst === "fragment") return "The AI could only write titles that break off mid-phrase. Please try again, or change a few words yourself.";
  if (worst === "unfinished") return "The AI could only write descriptions that stop mid-thought. Please try again.";
  if (kind === "title") return `The AI could not write a title under ${TITLE_MAX_CHARS} characters. Please try again.`;
  if (kind === "description") {
    return `The AI could not write a description between ${DESCRIPTION_MIN_CHARS} and ${DESCRIPTION_MAX_CHARS} characters. Please try again.`;
  }
  return `The AI could not write alt text of at most ${ALT_TEXT_MAX_CHARS} characters. Please try again.`;
}
