import { decodeHTML, decodeHTMLAttribute } from "entities/decode";

/**
 * Text as people read it: HTML entities decoded (HTMLRewriter hands text and
 * attributes over as written in the markup), whitespace collapsed, trimmed,
 * and cut at a word boundary when too long. Pure.
 */

export function cleanText(raw: string | null | undefined, maxLength = 2000): string {
  if (!raw) return "";
  return truncateWords(decodeHTML(raw).replace(/\s+/g, " ").trim(), maxLength);
}

export function cleanAttribute(raw: string | null | undefined, maxLength = 2000): string {
  if (!raw) return "";
  return truncateWords(decodeHTMLAttribute(raw).replace(/\s+/g, " ").trim(), maxLength);
}

/** A URL written in an attribute: entities decoded, surrounding whitespace dropped, never shortened. */
export function attributeUrl(raw: string | null | undefined): string {
  return raw ? decodeHTMLAttribute(raw).trim() : "";
}

/** Cuts text to at most maxLength characters at a word boundary, with an ellipsis when cut. */
export function truncateWords(text: string, maxLength: number): string {
  if (text.length <= maxLength) return text;
  const cut = text.slice(0, maxLength - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > maxLength * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,;:.-]+$/, "")}…`;
}

/** A date as ISO 8601, or "" when there is none or it cannot be read. */
export function isoDate(raw: string | null | undefined): string {
  const text = raw?.trim();
  if (!text) return "";
  const time = Date.parse(text);
  if (Number.isNaN(time)) return "";
  return new Date(time).toISOString();
}
