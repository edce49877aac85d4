// The JavaScript a page ships (issue 17's budget: under 100 KB gzipped for / and /pricing).
// `measurePageJs(baseUrl, path)` fetches the page's server HTML, collects every script it makes
// the browser load before it is interactive (<script src>, <link rel="modulepreload">, and the
// modules the inline <script type="module"> imports), fetches each once, gzips it and sums.
// Used by the budget test (test/e2e/core/js-budget.test.ts) and by `npm run bench:pages`.
//
//   node scripts/js-budget.ts http://127.0.0.1:8787 / /pricing
import { gzipSync } from "node:zlib";

/** The budget of issue 17 for / and /pricing, in bytes (gzipped). */
export const PAGE_JS_BUDGET_BYTES = 100 * 1024;

export interface PageJsFile {
  /** The script's path (or URL when it is on another origin). */
  url: string;
  bytes: number;
  gzippedBytes: number;
}

export interface PageJs {
  path: string;
  files: PageJsFile[];
  /** The sum of every file's gzipped size. */
  gzippedBytes: number;
  /** The sum of every file's size as served (not compressed). */
  bytes: number;
}

const TAG = /<(script|link)\b([^>]*)>/gi;
const ATTRIBUTE = /([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;
/** `import "…"`, `import x from "…"`, `import * as x from "…"` and `import("…")` in an inline module script. */
const IMPORT = /\bimport\s*(?:[\w*{}\s,$]+\s+from\s*)?\(?\s*["']([^"']+)["']/g;
const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;

function attributes(source: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const match of source.matchAll(ATTRIBUTE)) {
    found.set(match[1].toLowerCase(), decodeEntities(match[2] ?? match[3] ?? match[4] ?? ""));
  }
  return found;
}

function decodeEntities(value: string): string {
  return value
    .replace(/&amp;/g, "&")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">");
}

/** Every script URL the HTML makes the browser load, resolved against the page's URL, in order, once each. */
export function scriptUrlsOf(html: string, pageUrl: string): string[] {
  const urls: string[] = [];
  const add = (reference: string) => {
    if (!reference || reference.startsWith("data:")) return;
    const url = new URL(reference, pageUrl).href;
    if (!urls.includes(url)) urls.push(url);
  };
  for (const match of html.matchAll(TAG)) {
    const attrs = attributes(match[2]);
    if (match[1].toLowerCase() === "script") {
      if (attrs.has("src")) add(attrs.get("src")!);
    } else if ((attrs.get("rel") ?? "").toLowerCase().split(/\s+/).includes("modulepreload") && attrs.has("href")) {
      add(attrs.get("href")!);
    }
  }
  for (const match of html.matchAll(INLINE_SCRIPT)) {
    const attrs = attributes(match[1]);
    if (attrs.has("src") || (attrs.get("type") ?? "").toLowerCase() !== "module") continue;
    for (const imported of match[2].matchAll(IMPORT)) add(imported[1]);
  }
  return urls;
}

/** Fetches `path` from `baseUrl` and measures the JavaScript its HTML loads, each file gzipped (level 9, as a CDN would). */
export async function measurePageJs(baseUrl: string, path: string, init?: RequestInit): Promise<PageJs> {
  const pageUrl = new URL(path, baseUrl).href;
  const page = await fetch(pageUrl, init);
  if (!page.ok) throw new Error(`${pageUrl} answered ${page.status}`);
  const html = await page.text();
  const files = await Promise.all(
    scriptUrlsOf(html, pageUrl).map(async (url): Promise<PageJsFile> => {
      const response = await fetch(url);
      if (!response.ok) throw new Error(`${url} (loaded by ${path}) answered ${response.status}`);
      const body = Buffer.from(await response.arrayBuffer());
      const sameOrigin = new URL(url).origin === new URL(pageUrl).origin;
      return { url: sameOrigin ? new URL(url).pathname : url, bytes: body.length, gzippedBytes: gzipSync(body, { level: 9 }).length };
    }),
  );
  return {
    path,
    files,
    gzippedBytes: files.reduce((sum, file) => sum + file.gzippedBytes, 0),
    bytes: files.reduce((sum, file) => sum + file.bytes, 0),
  };
}

export const kilobytes = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** A printable table of one page's files, largest first. */
export function describePageJs(measured: PageJs): string {
  const rows = [...measured.files].sort((a, b) => b.gzippedBytes - a.gzippedBytes).map((file) => `  ${kilobytes(file.gzippedBytes).padStart(9)}  ${file.url}`);
  return [
    `${measured.path}: ${kilobytes(measured.gzippedBytes)} gzipped in ${measured.files.length} files (${kilobytes(measured.bytes)} as served)`,
    ...rows,
  ].join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [baseUrl, ...paths] = process.argv.slice(2);
  if (!baseUrl) {
    console.error("usage: node scripts/js-budget.ts <base URL> [path ...]");
    process.exit(2);
  }
  for (const path of paths.length > 0 ? paths : ["/", "/pricing"]) console.log(`${describePageJs(await measurePageJs(baseUrl, path))}\n`);
}
