import { micromark } from "micromark";
import { escapeHtml } from "../../contracts/html.ts";

/**
 * Markdown of blog posts and pages to HTML (docs/decisions/039-content-in-d1.md).
 *
 * micromark (CommonMark) with its safe defaults: raw HTML in the Markdown is
 * escaped, never passed through (`allowDangerousHtml: false`), and link and
 * image addresses with a protocol other than http(s), mailto, irc(s) or xmpp
 * (javascript:, data:, vbscript: ...) are dropped (`allowDangerousProtocol:
 * false`). So nothing in content can run a script on the page.
 *
 * Links to the product's blog at its old host(s) or at the app's own address
 * are rewritten to this site's /blog path, so readers stay on this site.
 */
export interface BlogHosts {
  /** The app's own origin (APP_URL). */
  appUrl: string;
  /** Origins where the blog lived before (comma-separated BLOG_LEGACY_ORIGINS). */
  legacyOrigins: string;
}

export function renderMarkdown(markdown: string, hosts: BlogHosts): string {
  const html = micromark(markdown, { allowDangerousHtml: false, allowDangerousProtocol: false });
  // micromark writes every attribute as name="value" with `"` escaped, so this finds exactly its links.
  return html.replace(/<a href="([^"]*)"/g, (_whole, href: string) => `<a href="${escapeAttribute(rewriteBlogLink(decodeAttribute(href), hosts))}"`);
}

/** A link to the product's blog (old host, or this app's /blog) as a path on this site; any other link as it was. */
export function rewriteBlogLink(href: string, hosts: BlogHosts): string {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return href; // relative or not an address: already on this site, or not a link we own
  }
  const app = originOf(hosts.appUrl);
  const legacy = hosts.legacyOrigins
    .split(",")
    .map((origin) => originOf(origin.trim()))
    .filter((origin): origin is string => origin !== null);
  const tail = `${url.search}${url.hash}`;
  if (url.origin === app) {
    return url.pathname === "/blog" || url.pathname.startsWith("/blog/") ? `${trimSlash(url.pathname)}${tail}` : href;
  }
  if (legacy.includes(url.origin)) {
    // The old blog served posts at /{slug}/ (or /blog/{slug}/); its home and listing pages map to /blog.
    const path = trimSlash(url.pathname.replace(/^\/blog(?=\/|$)/, ""));
    return `/blog${path === "/" ? "" : path}${tail}`;
  }
  return href;
}

function originOf(value: string): string | null {
  try {
    return new URL(value).origin;
  } catch {
    return null;
  }
}

function trimSlash(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, "") || "/" : path;
}

function decodeAttribute(value: string): string {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

const escapeAttribute = escapeHtml;

/** Words a reader takes a minute to read, for "n min read". */
export function readingMinutes(markdown: string): number {
  const words = markdown.split(/\s+/).filter(Boolean).length;
  return Math.max(1, Math.round(words / 220));
}
