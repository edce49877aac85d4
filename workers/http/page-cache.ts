import type { Context } from "hono";
import type { AppBindings } from "../api/core/hono.ts";
import { sessionCookieFrom } from "../auth/session-cookie.ts";
import { edgeCountry } from "../domain/pricing-parity.ts";
import type { Env } from "../env.ts";
import { withPageStylesOnly } from "./site-styles-subset.ts";

/**
 * The edge page cache (docs/decisions/042-edge-page-cache-and-home-page.md): the public,
 * server-rendered pages that every signed-out visitor sees the same are kept
 * in the Cache API (caches.default) and served from it.
 *
 * - Only GET requests for the pages listed in CACHED_PAGES, with no query
 *   other than the ones the page reads (tracking parameters are ignored).
 * - A signed-in visitor (session cookie) is never served from the cache and
 *   their page is never stored: it carries their account (x-cache: BYPASS).
 * - A page whose loader answers `x-page-vary: country` (prices with pricing
 *   parity) is stored once per country: the page's own key then holds a small
 *   marker naming a generation, and each country's copy sits under that
 *   generation. Purging the page deletes the marker, which orphans every
 *   country's copy at once.
 * - The Content-Security-Policy nonce: a stored page remembers the nonce it
 *   was rendered with; served again, every occurrence is replaced by this
 *   request's fresh nonce, which the security-headers middleware puts in the
 *   policy. A nonce is never sent twice.
 * - Keys include the build (the Remix assets version), so a deployment never
 *   serves pages that point at the previous build's scripts.
 * - Admin changes to blog posts and pages purge the addresses they affect
 *   (purgePages, called by the content API).
 * - Each isolate also keeps what it served last for MEMORY_SECONDS, so a hit
 *   usually costs no Cache API round trip.
 * - A kept page's inline site styles are cut to the rules its markup uses
 *   (site-styles-subset.ts, docs/decisions/064-cached-pages-carry-their-own-styles.md).
 */

/** Debug header: HIT (from the cache), MISS (rendered, stored when it could be), BYPASS (signed in or an uncached query). */
export const CACHE_STATUS_HEADER = "x-cache";
/** A loader's answer header naming what else its page varies by (only "country" is known). */
export const PAGE_VARY_HEADER = "x-page-vary";
/** On a stored page: the nonce it was rendered with. */
const STORED_NONCE_HEADER = "x-page-nonce";
/** On a marker: the generation of the page's per-country copies. */
const MARKER_HEADER = "x-page-variants";

/** How long the browser may keep a page without asking again. */
export const BROWSER_MAX_AGE = 60;
/** Content (posts, pages, the blog list, the sitemap): short at the edge, as a purge reaches only the local cache (see the decision). */
export const CONTENT_EDGE_SECONDS = 300;
/** Pages that change only with a deployment. */
export const STATIC_EDGE_SECONDS = 3600;

const TRACKING_PARAMS = /^(utm_[a-z_]+|fbclid|gclid|msclkid|pgref|mc_cid|mc_eid)$/i;
const SLUG = "[a-z0-9]+(?:-[a-z0-9]+)*";

interface CachedPage {
  pattern: RegExp;
  edgeSeconds: number;
  /** Which query parameters the page reads (the rest bypasses the cache); default: none. */
  query?: (name: string, value: string) => boolean;
}

export const CACHED_PAGES: CachedPage[] = [
  { pattern: /^\/$/, edgeSeconds: STATIC_EDGE_SECONDS },
  { pattern: /^\/(pricing|lifetime|privacy-policy|terms-and-conditions|pinterest-mini-course)$/, edgeSeconds: STATIC_EDGE_SECONDS },
  {
    pattern: /^\/savings-calculator$/,
    edgeSeconds: STATIC_EDGE_SECONDS,
    // The calculator's form (workers/domain/savings.ts savingsInputsFrom).
    query: (name, value) =>
      /^(pinsPerWeek|minutesPerPinByHand|minutesPerPinWithApp|hourlyValue)$/.test(name)
        ? /^[0-9]{1,6}(\.[0-9]{1,2})?$/.test(value)
        : name === "planId" && /^[a-z0-9-]{1,40}$/.test(value),
  },
  { pattern: /^\/robots\.txt$/, edgeSeconds: STATIC_EDGE_SECONDS },
  { pattern: /^\/blog$/, edgeSeconds: CONTENT_EDGE_SECONDS, query: (name, value) => name === "page" && /^[1-9][0-9]{0,3}$/.test(value) },
  { pattern: new RegExp(`^/(blog|page)/${SLUG}$`), edgeSeconds: CONTENT_EDGE_SECONDS },
  { pattern: /^\/sitemap\.xml$/, edgeSeconds: CONTENT_EDGE_SECONDS },
];

let build = "dev";

/** The build whose pages are cached (router.ts sets the Remix assets version). */
export function setPageCacheBuild(id: string) {
  build = id.replace(/[^A-Za-z0-9_-]/g, "") || "dev";
}

/** The page's address as the cache knows it (path and the query it reads, sorted), or null when it is not cached. */
export function cacheablePath(url: URL): { path: string; edgeSeconds: number } | null | "uncached-query" {
  const page = CACHED_PAGES.find((candidate) => candidate.pattern.test(url.pathname));
  if (!page) return null;
  const kept: [string, string][] = [];
  for (const [name, value] of url.searchParams) {
    if (TRACKING_PARAMS.test(name)) continue;
    if (!page.query?.(name, value)) return "uncached-query";
    kept.push([name, value]);
  }
  kept.sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : x > y ? 1 : 0) : a < b ? -1 : 1));
  const query = new URLSearchParams(kept).toString();
  return { path: query ? `${url.pathname}?${query}` : url.pathname, edgeSeconds: page.edgeSeconds };
}

function cacheKey(env: Pick<Env, "APP_URL">, path: string, variant = "all"): string {
  return `${new URL(env.APP_URL).origin}/__page-cache/${build}/${variant}${path}`;
}

function pageCache(): Cache | null {
  // The worker types come from worker-configuration.d.ts, which leaves out the runtime's CacheStorage.default.
  return typeof caches === "undefined" ? null : (caches as unknown as { default: Cache }).default;
}

/** What the browser and shared caches are told about a page served to signed-out visitors. */
function publicCacheControl(edgeSeconds: number) {
  return `public, max-age=${BROWSER_MAX_AGE}, s-maxage=${edgeSeconds}`;
}

function withStatus(response: Response, status: "HIT" | "MISS" | "BYPASS", cacheControl?: string): Response {
  const headers = new Headers(response.headers);
  headers.set(CACHE_STATUS_HEADER, status);
  if (cacheControl) headers.set("cache-control", cacheControl);
  if (status !== "BYPASS") headers.append("vary", "Cookie");
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/**
 * A cached page as this isolate keeps it: the body cut at the nonce it was
 * rendered with (so a fresh nonce is one join away), its headers, or, for a
 * marker, the generation of its per-country copies.
 */
interface Entry {
  /** The body's bytes (UTF-8) between the occurrences of the nonce it was rendered with. */
  parts: Uint8Array[];
  headers: [string, string][];
  generation: string | null;
  expires: number;
  size: number;
}

/**
 * In front of the Cache API, each isolate keeps the pages it served last for
 * a few seconds: a hit then costs no Cache API round trip. A purge clears this
 * isolate's copies; other isolates drop theirs within MEMORY_SECONDS.
 */
export const MEMORY_SECONDS = 20;
const MEMORY_BUDGET_BYTES = 8 * 1024 * 1024;
const memory = new Map<string, Entry>();
let memoryBytes = 0;

function forget(key: string) {
  const entry = memory.get(key);
  if (!entry) return;
  memory.delete(key);
  memoryBytes -= entry.size;
}

function remember(key: string, entry: Entry) {
  forget(key);
  memory.set(key, entry);
  memoryBytes += entry.size;
  // Oldest first: a Map keeps insertion order, and a hit re-inserts its entry.
  for (const [oldest] of memory) {
    if (memoryBytes <= MEMORY_BUDGET_BYTES) break;
    forget(oldest);
  }
}

const INTERNAL_HEADERS = new Set([STORED_NONCE_HEADER, MARKER_HEADER, "cf-cache-status", "age", "expires", "cache-control", "vary", "date", "content-length"]);

async function entryOf(response: Response): Promise<Entry> {
  const generation = response.headers.get(MARKER_HEADER);
  const headers = [...response.headers].filter(([name]) => !INTERNAL_HEADERS.has(name.toLowerCase()));
  const expires = Date.now() + MEMORY_SECONDS * 1000;
  if (generation) {
    await response.body?.cancel();
    return { parts: [], headers, generation, expires, size: 200 };
  }
  const body = await response.text();
  const renderedWith = response.headers.get(STORED_NONCE_HEADER);
  const parts = (renderedWith ? body.split(renderedWith) : [body]).map((part) => utf8.encode(part));
  return { parts, headers, generation: null, expires, size: parts.reduce((sum, part) => sum + part.byteLength, 0) + 500 };
}

/** The entry under `key`: from this isolate's memory, else from the Cache API (then remembered). */
async function lookup(cache: Cache, key: string): Promise<Entry | null> {
  const kept = memory.get(key);
  if (kept && kept.expires > Date.now()) {
    memory.delete(key);
    memory.set(key, kept);
    return kept;
  }
  forget(key);
  const found = await cache.match(key);
  if (!found) return null;
  const entry = await entryOf(found);
  remember(key, entry);
  return entry;
}

async function store(cache: Cache, key: string, response: Response) {
  const entry = await entryOf(response.clone());
  await cache.put(key, response);
  remember(key, entry);
}

const utf8 = new TextEncoder();

/** The parts with `separator` between them, as one byte array: a copy, no text encoding per hit. */
function joined(parts: Uint8Array[], separator: Uint8Array): Uint8Array<ArrayBuffer> {
  const total = parts.reduce((sum, part) => sum + part.byteLength, 0) + separator.byteLength * Math.max(parts.length - 1, 0);
  const out = new Uint8Array(total);
  let at = 0;
  parts.forEach((part, index) => {
    if (index > 0) {
      out.set(separator, at);
      at += separator.byteLength;
    }
    out.set(part, at);
    at += part.byteLength;
  });
  return out;
}

/** A stored page, with this answer's nonce. */
function served(entry: Entry, nonce: string, edgeSeconds: number): Response {
  const headers = new Headers(entry.headers);
  headers.set("cache-control", publicCacheControl(edgeSeconds));
  headers.set(CACHE_STATUS_HEADER, "HIT");
  headers.set("vary", "Cookie");
  return new Response(joined(entry.parts, utf8.encode(nonce)), { status: 200, headers });
}

/** What the page varies by besides its address, from its answer: [] , ["country"], or null (something unknown: not stored). */
function variesBy(response: Response): string[] | null {
  const named = (response.headers.get(PAGE_VARY_HEADER) ?? "")
    .split(",")
    .map((part) => part.trim().toLowerCase())
    .filter(Boolean);
  return named.every((name) => name === "country") ? [...new Set(named)] : null;
}

function storable(response: Response): boolean {
  const type = response.headers.get("content-type") ?? "";
  return (
    response.status === 200 &&
    !response.headers.has("set-cookie") &&
    /^(text\/html|text\/plain|application\/xml|text\/xml)/.test(type) &&
    !/no-store|private/.test(response.headers.get("cache-control") ?? "")
  );
}

const countryOf = (request: Request, env: Pick<Env, "APP_ENV">) => (edgeCountry(request, env.APP_ENV) ?? "").replace(/[^A-Z]/g, "") || "XX";

/**
 * Serves a page from the edge cache, or renders it with `render` (and stores
 * it when every signed-out visitor would get the same page).
 */
export async function cachedPage(c: Context<AppBindings>, render: () => Promise<Response>): Promise<Response> {
  const request = c.req.raw;
  if (request.method !== "GET") return render();
  const cacheable = cacheablePath(new URL(request.url));
  if (cacheable === null) return render();
  if (cacheable === "uncached-query") return withStatus(await render(), "BYPASS");
  if (sessionCookieFrom(request.headers.get("cookie"))) {
    // A signed-in visitor's page shows their account: never shared, never kept.
    return withStatus(await render(), "BYPASS", "private, no-store");
  }
  const cache = pageCache();
  if (!cache) return render();
  const { path, edgeSeconds } = cacheable;
  const nonce = c.get("cspNonce") ?? "";

  const baseKey = cacheKey(c.env, path);
  let generation: string | null = null;
  const found = await lookup(cache, baseKey);
  if (found) {
    generation = found.generation;
    if (!generation) return served(found, nonce, edgeSeconds);
    const variant = await lookup(cache, cacheKey(c.env, path, `${generation}-${countryOf(request, c.env)}`));
    if (variant) return served(variant, nonce, edgeSeconds);
  }

  const rendered = await render();
  const vary = variesBy(rendered);
  if (!storable(rendered) || vary === null) return withStatus(rendered, "MISS");
  // A kept page carries only the site styles its markup uses; the rest comes linked (decision 064).
  const text = await rendered.text();
  const body = (rendered.headers.get("content-type") ?? "").startsWith("text/html") ? withPageStylesOnly(text) : text;
  const stored = new Headers(rendered.headers);
  stored.set("cache-control", `public, max-age=${edgeSeconds}`);
  stored.delete("vary");
  if (nonce) stored.set(STORED_NONCE_HEADER, nonce);
  if (vary.includes("country")) {
    if (!generation) {
      generation = crypto.randomUUID().replaceAll("-", "");
      await store(cache, baseKey, new Response(null, { headers: { [MARKER_HEADER]: generation, "cache-control": `public, max-age=${edgeSeconds}` } }));
    }
    await store(cache, cacheKey(c.env, path, `${generation}-${countryOf(request, c.env)}`), new Response(body, { status: 200, headers: stored }));
  } else {
    await store(cache, baseKey, new Response(body, { status: 200, headers: stored }));
  }
  return withStatus(new Response(body, { status: 200, headers: rendered.headers }), "MISS", publicCacheControl(edgeSeconds));
}

/**
 * Forgets the cached copies of these addresses (paths with the query they
 * read), every country's copy included, from the Cache API and this isolate's
 * memory. In production this reaches the data centre that runs the purge;
 * elsewhere copies live at most their edge time (other isolates' memory: MEMORY_SECONDS).
 */
export async function purgePages(env: Pick<Env, "APP_URL">, paths: Iterable<string>): Promise<number> {
  const cache = pageCache();
  if (!cache) return 0;
  const keys = new Set<string>();
  for (const path of paths) {
    const cacheable = cacheablePath(new URL(path, env.APP_URL));
    if (cacheable && cacheable !== "uncached-query") keys.add(cacheKey(env, cacheable.path));
  }
  for (const key of keys) forget(key);
  const deleted = await Promise.all([...keys].map((key) => cache.delete(key)));
  return deleted.filter(Boolean).length;
}
