import { FetchRefused, guardedFetch, MAX_REDIRECTS, type GuardedFetchEnv, type GuardedResponse } from "../http/guarded-fetch.ts";
import { ServiceError } from "../services/core/errors.ts";

/**
 * How the worker fetches a user's source (a page, a sitemap, a feed,
 * robots.txt): through the guarded fetch (workers/http/guarded-fetch.ts:
 * schemes, addresses, redirects, time and size), checking the content type,
 * and failing with a message a user can act on. Every failure is a
 * ServiceError with field "url" (4xx or 502, never 500).
 * See docs/decisions/005-fetching-sources.md and 076-one-guarded-fetch.md.
 */

/** What the scraper needs from the worker's environment. */
export interface ScrapeEnv extends GuardedFetchEnv {
  APP_URL?: string;
  /** Optional override of DEFAULT_TIMEOUT_MS (milliseconds). */
  SCRAPE_TIMEOUT_MS?: string;
}

export const DEFAULT_TIMEOUT_MS = 10_000;
export const MAX_HTML_BYTES = 5 * 1024 * 1024;
export const MAX_XML_BYTES = 20 * 1024 * 1024;
export const MAX_ROBOTS_BYTES = 512 * 1024;
export { MAX_REDIRECTS };

export const HTML_TYPES = ["text/html", "application/xhtml+xml"];
export const FEED_TYPES = [
  "application/rss+xml",
  "application/atom+xml",
  "application/rdf+xml",
  "application/feed+xml",
  "application/xml",
  "text/xml",
  "text/plain",
];
const GZIP_TYPES = ["application/gzip", "application/x-gzip"];
export const SITEMAP_TYPES = ["application/xml", "text/xml", "text/plain", ...GZIP_TYPES];

export interface SourceRequest {
  /** How the thing is called in messages: "page", "sitemap", "feed". */
  noun: string;
  /** What it should be, for the wrong-type message: "a web page", "an RSS or Atom feed". */
  what: string;
  /** Accepted media types (without parameters). A response without a content type is accepted. */
  accept: readonly string[];
  maxBytes: number;
  /** The whole fetch (redirects and body included) must finish within this; default from env or 10 s. */
  timeoutMs?: number;
  /** Sent as the Accept header. */
  acceptHeader?: string;
}

/** An answered fetch whose body is still to be read, within the limits. */
export interface OpenedSource {
  noun: string;
  /** The URL that answered, after redirects. */
  url: string;
  /** Media type without parameters, lowercased ("" when the response had none). */
  contentType: string;
  charset: string | null;
  /**
   * A Response whose body enforces the size limit and the deadline: past
   * either, the body simply ends early and failure() says why. Readers must
   * check failure() once they have read it.
   */
  response: Response;
  /** Why the body ended early (too large, too slow), or null when it was read whole. */
  failure(): ServiceError | null;
}

const USER_AGENT = "Mozilla/5.0 (compatible; PinboardStudio/2; +https://pinboard.studio/bot)";

export function timeoutFor(env: ScrapeEnv, request: Pick<SourceRequest, "timeoutMs">): number {
  if (request.timeoutMs) return request.timeoutMs;
  const configured = Number(env.SCRAPE_TIMEOUT_MS);
  return Number.isFinite(configured) && configured > 0 ? configured : DEFAULT_TIMEOUT_MS;
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}

const capitalised = (noun: string) => noun.charAt(0).toUpperCase() + noun.slice(1);

export const sourceErrors = {
  timeout: (noun: string) => new ServiceError(502, `The ${noun} took too long to answer.`, "url"),
  tooLarge: (noun: string, maxBytes: number) => new ServiceError(413, `The ${noun} is too large (over ${formatBytes(maxBytes)}).`, "url"),
  wrongType: (what: string, type: string) => new ServiceError(415, `That address is not ${what} (it is ${type}).`, "url"),
  tooManyRedirects: (noun: string) => new ServiceError(502, `The ${noun} redirected too many times.`, "url"),
  redirectLoop: (noun: string) => new ServiceError(502, `The ${noun} redirects in a loop and never arrives.`, "url"),
  badRedirect: (noun: string, target: string) => new ServiceError(502, `The ${noun} redirected to ${target}, which is not a web address we can fetch.`, "url"),
  privateAddress: () => new ServiceError(400, "That address is on a private network; we can only fetch public web pages.", "url"),
  notWeb: () => new ServiceError(400, "url must be a web address starting with http:// or https://.", "url"),
  lookupFailed: (host: string) => new ServiceError(502, `We could not look up ${host} just now. Please try again in a moment.`, "url"),
  unreachable: (noun: string, host: string) => new ServiceError(502, `We could not reach the ${noun} at ${host}. Check the address and try again.`, "url"),
  status: (noun: string, status: number) =>
    new ServiceError(
      502,
      `The ${noun} answered ${status}${STATUS_HINTS[status] ? ` (${STATUS_HINTS[status]})` : status >= 500 ? " (a server error)" : ""}.`,
      "url",
    ),
  unreadable: (noun: string) => new ServiceError(502, `${capitalised(noun)} could not be read completely. Please try again.`, "url"),
  tooComplex: (noun: string) =>
    new ServiceError(422, `We could not read the ${noun}: its HTML has a tag megabytes long, or tags nested thousands deep.`, "url"),
};

const STATUS_HINTS: Record<number, string> = {
  401: "it needs a sign-in",
  403: "access refused",
  404: "not found",
  410: "gone",
  429: "too many requests; try again later",
};

/** The media type and charset of a Content-Type header. */
export function parseContentType(header: string | null): { type: string; charset: string | null } {
  if (!header) return { type: "", charset: null };
  const [type = "", ...params] = header.split(";");
  const charset = params.map((p) => /^\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(p)?.[1]).find(Boolean) ?? null;
  return { type: type.trim().toLowerCase(), charset: charset ? charset.toLowerCase() : null };
}

/** A refused or failed guarded fetch in the words of `sourceErrors`. */
export function sourceFailure(noun: string, maxBytes: number, refusal: FetchRefused): ServiceError {
  switch (refusal.kind) {
    case "scheme":
      return refusal.hop === 0 ? sourceErrors.notWeb() : sourceErrors.badRedirect(noun, refusal.target);
    case "bad-redirect":
    case "credentials-redirect":
      return sourceErrors.badRedirect(noun, refusal.target);
    case "private":
      return sourceErrors.privateAddress();
    case "lookup":
      return sourceErrors.lookupFailed(refusal.host);
    case "unknown-host":
    case "unreachable":
      return sourceErrors.unreachable(noun, refusal.host);
    case "timeout":
      return sourceErrors.timeout(noun);
    case "redirect-loop":
      return sourceErrors.redirectLoop(noun);
    case "too-many-redirects":
      return sourceErrors.tooManyRedirects(noun);
    case "too-large":
      return sourceErrors.tooLarge(noun, maxBytes);
    case "unreadable":
      return sourceErrors.unreadable(noun);
  }
}

/**
 * Fetches a source within the limits and answers once the headers are in;
 * reading the body goes on under the same deadline and size limit.
 */
export async function openSource(env: ScrapeEnv, startUrl: string, request: SourceRequest): Promise<OpenedSource> {
  const fail = (error: unknown) => (error instanceof FetchRefused ? sourceFailure(request.noun, request.maxBytes, error) : error);
  let fetched: GuardedResponse;
  try {
    fetched = await guardedFetch(env, startUrl, {
      timeoutMs: timeoutFor(env, request),
      maxBytes: request.maxBytes,
      headers: { "user-agent": USER_AGENT, accept: request.acceptHeader ?? `${request.accept.join(", ")};q=0.9, */*;q=0.1` },
    });
  } catch (error) {
    throw fail(error);
  }
  if (!fetched.ok) {
    await fetched.discard();
    throw sourceErrors.status(request.noun, fetched.status);
  }
  const { type, charset } = parseContentType(fetched.headers.get("content-type"));
  const gzipFile = GZIP_TYPES.includes(type) || (type === "application/octet-stream" && new URL(fetched.url).pathname.endsWith(".gz"));
  if (type && !request.accept.includes(type) && !(gzipFile && request.accept.some((t) => GZIP_TYPES.includes(t)))) {
    await fetched.discard();
    throw sourceErrors.wrongType(request.what, type);
  }
  const declared = Number(fetched.headers.get("content-length"));
  if (!gzipFile && Number.isFinite(declared) && declared > request.maxBytes) {
    await fetched.discard();
    throw sourceErrors.tooLarge(request.noun, request.maxBytes);
  }
  // Counted after decompression: a small gzip file may hold a huge sitemap.
  const body = fetched.stream(gzipFile ? (new DecompressionStream("gzip") as unknown as ReadableWritablePair<Uint8Array, Uint8Array>) : undefined);
  const headers = new Headers({ "content-type": fetched.headers.get("content-type") ?? "text/html" });
  return {
    noun: request.noun,
    url: fetched.url,
    contentType: type,
    charset,
    response: new Response(body, { headers }),
    failure: () => {
      const refusal = fetched.failure();
      return refusal ? sourceFailure(request.noun, request.maxBytes, refusal) : null;
    },
  };
}

/** Reads an opened source's body as text, in its declared (or XML-declared) encoding. */
export async function readSourceText(source: OpenedSource): Promise<string> {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await source.response.arrayBuffer());
  } catch {
    throw source.failure() ?? sourceErrors.unreadable(source.noun);
  }
  const failure = source.failure();
  if (failure) throw failure;
  const declared = source.charset ?? /<\?xml[^>]*encoding=["']([\w.-]+)["']/i.exec(new TextDecoder().decode(bytes.subarray(0, 200)))?.[1] ?? "utf-8";
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(declared);
  } catch {
    decoder = new TextDecoder("utf-8");
  }
  return decoder.decode(bytes);
}

/** Fetches a source and reads it as text, within the limits. */
export async function fetchSourceText(env: ScrapeEnv, url: string, request: SourceRequest): Promise<{ url: string; contentType: string; text: string }> {
  const source = await openSource(env, url, request);
  return { url: source.url, contentType: source.contentType, text: await readSourceText(source) };
}
