import { decodedUrlPart, pictureKey } from "../domain/picture-identity.ts";
import { resolveImageUrl, type ImageCandidate } from "./images.ts";
import { cleanAttribute, cleanText } from "./text.ts";
import { resolveWebUrl } from "./url.ts";

/**
 * What a post offers the templates besides its title and pictures (issue 13):
 * list items, a quotation, a price, a video, a before and an after picture.
 * Each is taken only where the page plainly says so; a post without one gets
 * none, and the templates that need it are not used for it. Pure.
 */

/** A list item longer than this is a paragraph, not a line of a list. */
export const MAX_LIST_ITEM = 120;
/** At most this many list items per post. */
export const MAX_LIST_ITEMS = 12;
/** A list (or the headings) must have at least this many items to count. */
export const MIN_LIST_ITEMS = 3;
/** A quotation longer than this does not fit a quote pin. */
export const MAX_QUOTE = 280;
const MIN_QUOTE = 12;

/** "1. Pack layers", "Step 2: Plan" and "#3 - Rug" lose their numbering: the templates number the lines themselves. */
function withoutNumbering(item: string): string {
  return item
    .replace(/^(?:(?:step|tip|idea|day|no\.?)\s*)?#?\d{1,3}\s*[.):\-–—]\s*/i, "")
    .replace(/^[•·▪◦*-]\s*/, "")
    .trim();
}

function cleanItems(raw: readonly string[]): string[] {
  const items = raw.map((item) => withoutNumbering(cleanText(item, 1000))).filter((item) => item.length > 0);
  return items.every((item) => item.length <= MAX_LIST_ITEM) ? items : [];
}

/**
 * The post's list items: its longest list (the items of a <ul> or <ol> in the
 * article, each short enough to be a line), else its section headings (h2
 * and h3 in the article), when there are at least MIN_LIST_ITEMS.
 */
export function chooseListItems(lists: readonly string[][], headings: readonly string[]): string[] {
  const candidates = lists.map(cleanItems).filter((items) => items.length >= MIN_LIST_ITEMS);
  const longest = candidates.reduce<string[]>((best, items) => (items.length > best.length ? items : best), []);
  if (longest.length > 0) return longest.slice(0, MAX_LIST_ITEMS);
  const sections = cleanItems(headings);
  return sections.length >= MIN_LIST_ITEMS ? sections.slice(0, MAX_LIST_ITEMS) : [];
}

/** The post's quotation: its first blockquote short enough for a pin, without the quotation marks around it. */
export function chooseQuote(quotes: readonly string[]): string {
  for (const raw of quotes) {
    const text = cleanText(raw, 2000)
      .replace(/^["“”«„'‘’]+\s*|\s*["“”»'‘’]+$/g, "")
      .trim();
    if (text.length >= MIN_QUOTE && text.length <= MAX_QUOTE) return text;
  }
  return "";
}

const CURRENCY = /^[A-Z]{3}$/;

/**
 * The price a product page states in its meta tags (Open Graph product
 * tags, schema.org itemprop): "$59", "€12.50", or the amount with its
 * currency code. "" when the page states none.
 */
export function choosePrice(meta: Record<string, string>): string {
  const amountText = ["product:price:amount", "og:price:amount", "price"].map((key) => cleanAttribute(meta[key], 40)).find(Boolean);
  if (!amountText) return "";
  const amount = Number(amountText.replace(/[\s,](?=\d{3}\b)/g, "").replace(",", "."));
  if (!Number.isFinite(amount) || amount <= 0) return "";
  const currency =
    ["product:price:currency", "og:price:currency", "pricecurrency"].map((key) => cleanAttribute(meta[key], 10).toUpperCase()).find(Boolean) ?? "";
  const whole = Number.isInteger(amount);
  if (!CURRENCY.test(currency)) return whole ? String(amount) : amount.toFixed(2);
  try {
    return new Intl.NumberFormat("en-US", { style: "currency", currency, minimumFractionDigits: whole ? 0 : 2, maximumFractionDigits: 2 }).format(amount);
  } catch {
    return `${whole ? amount : amount.toFixed(2)} ${currency}`;
  }
}

/** The first video the page shares, as an absolute http(s) URL. */
export function chooseVideo(videos: readonly string[], base: string): string {
  for (const raw of videos) {
    const url = resolveWebUrl(cleanAttribute(raw, 2048), base);
    if (url) return url;
  }
  return "";
}

const BEFORE = /\bbefore\b/i;
const AFTER = /\bafter\b/i;

function saysWhich(candidate: ImageCandidate, base: string): "before" | "after" | null {
  const url = resolveImageUrl(candidate.url, base);
  const file = url ? decodedUrlPart(url.pathname.split("/").pop() ?? "").replace(/[-_.]+/g, " ") : "";
  const words = `${cleanAttribute(candidate.alt ?? "", 500)} ${file}`;
  const before = BEFORE.test(words);
  const after = AFTER.test(words);
  return before === after ? null : before ? "before" : "after";
}

/**
 * A before and an after picture: two different chosen pictures, one whose
 * alt text or file name says "before" and one that says "after". Undefined
 * when the post shows no such pair (two photos of one thing are no comparison).
 */
export function chooseComparison(candidates: readonly ImageCandidate[], chosen: readonly string[], base: string): [string, string] | undefined {
  const byKey = new Map(chosen.map((url) => [pictureKey(url), url]));
  let before: string | undefined;
  let after: string | undefined;
  for (const candidate of candidates) {
    const url = resolveImageUrl(candidate.url, base);
    const picture = url ? byKey.get(pictureKey(url.href)) : undefined;
    if (!picture) continue;
    const which = saysWhich(candidate, base);
    if (which === "before") before ??= picture;
    if (which === "after") after ??= picture;
  }
  return before && after && pictureKey(before) !== pictureKey(after) ? [before, after] : undefined;
}
