/**
 * What mail clients turn into links in plain text (Gmail, Outlook, Apple Mail): a scheme URL, a www.
 * address, an e-mail address, or a bare domain name ending in a top-level domain of 2+ letters.
 */
export function autolinkable(text: string): string[] {
  const patterns = [
    /\b[a-z][a-z0-9+.-]*:\/\/\S+/giu,
    /\bwww\.\S+/giu,
    /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}/gu,
    /\b[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}\b/gu,
  ];
  return patterns.flatMap((pattern) => text.match(pattern) ?? []);
}

/** The text with our own links taken out: what is left must link nothing. */
export function withoutOwnLinks(text: string, links: string[]): string {
  return links.reduce((rest, link) => rest.split(link).join(""), text);
}
