/**
 * A legal document as plain, typed text: the same words make its page and its PDF
 * (scripts/generate-legal-pdfs.ts). Inline markup in paragraphs and list items:
 * `**bold**` and `[text](href)`; href is a path of the app, a mailto: or an https address.
 */
export interface LegalDocument {
  title: string;
  /** When the text last changed, e.g. "22 November 2026". */
  updated: string;
  lead: string;
  sections: LegalSection[];
}

export interface LegalSection {
  /** The anchor on the page. */
  id: string;
  title: string;
  blocks: LegalBlock[];
}

export type LegalBlock = { paragraph: string } | { list: string[] };

export type InlinePart = { text: string; bold?: boolean } | { text: string; href: string };

const INLINE = /\*\*([^*]+)\*\*|\[([^\]]+)\]\(([^)\s]+)\)/g;

/** Splits a paragraph's markup into plain, bold and link parts. */
export function inlineParts(markup: string): InlinePart[] {
  const parts: InlinePart[] = [];
  let at = 0;
  for (const match of markup.matchAll(INLINE)) {
    if (match.index > at) parts.push({ text: markup.slice(at, match.index) });
    parts.push(match[1] !== undefined ? { text: match[1], bold: true } : { text: match[2], href: match[3] });
    at = match.index + match[0].length;
  }
  if (at < markup.length) parts.push({ text: markup.slice(at) });
  return parts;
}

/** The public addresses of the legal PDFs (files in public/). */
export const PRIVACY_POLICY_PDF = "/privacy-policy.pdf";
export const AFFILIATE_AGREEMENT_PDF = "/affiliate-agreement.pdf";
