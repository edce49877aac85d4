import { DnsLookupFailed, resolveAddresses, type DnsEnv } from "../integrations/dns.ts";
import { ipLiteral, isPrivateName, isPublicAddress } from "./address.ts";

/**
 * The one way the worker fetches an address that came from a user or from a
 * user's content (pages, sitemaps, feeds, robots.txt, pictures, stores):
 * http and https only; redirects followed by hand, at most MAX_REDIRECTS,
 * each hop checked again; every hop's host resolved (DNS over HTTPS) and
 * every address it has judged public or refused; one deadline and one size
 * limit for the whole exchange, body included; credentials sent only to the
 * origin they were given for. Only an origin named in TRUSTED_FETCH_ORIGINS
 * (the local sandbox; empty in production) skips the address check.
 * docs/decisions/076-one-guarded-fetch.md.
 */

export interface GuardedFetchEnv extends DnsEnv {
  /** Comma-separated origins fetched without the address check: the sandbox locally and in tests, none in production. */
  TRUSTED_FETCH_ORIGINS?: string;
}

export const MAX_REDIRECTS = 5;

export type FetchRefusalKind =
  /** Not http or https (`target` is the scheme). */
  | "scheme"
  /** The host is, or resolves to, an address outside the public internet. */
  | "private"
  /** The resolver did not answer: refused rather than fetched unchecked. */
  | "lookup"
  /** The name does not exist or has no address. */
  | "unknown-host"
  | "unreachable"
  | "timeout"
  | "redirect-loop"
  | "too-many-redirects"
  /** A Location that is not an address (`target` is what it said). */
  | "bad-redirect"
  /** A request carrying credentials was sent to another origin (`target`); not followed. */
  | "credentials-redirect"
  | "too-large"
  | "unreadable";

/** Why a guarded fetch did not happen or did not finish; callers turn it into their own words. */
export class FetchRefused extends Error {
  readonly kind: FetchRefusalKind;
  /** The host of the hop that was refused or failed (host:port). */
  readonly host: string;
  /** Which hop: 0 for the address asked for, 1 for the first redirect ... */
  readonly hop: number;
  readonly target: string;
  constructor(kind: FetchRefusalKind, host: string, hop: number, target = "") {
    super(`${kind}: ${host}${target ? ` (${target})` : ""}`);
    this.name = "FetchRefused";
    this.kind = kind;
    this.host = host;
    this.hop = hop;
    this.target = target;
  }
}

export interface GuardedRequest {
  /** The whole exchange (look-ups, redirects and body) must finish within this. */
  timeoutMs: number;
  /** The body is cut past this many bytes (counted after any decoding the caller asks for). */
  maxBytes: number;
  headers?: Record<string, string>;
  /** Headers sent only to the origin of the address asked for (Authorization, cookies); a redirect elsewhere is not followed. */
  credentials?: Record<string, string>;
}

/** An answer whose headers are in; its body is read within the same deadline and size limit. */
export interface GuardedResponse {
  /** The address that answered, after redirects. */
  url: string;
  redirected: boolean;
  status: number;
  ok: boolean;
  headers: Headers;
  /**
   * The body, through `decoder` when given (gzip), cut at the size limit and
   * the deadline: past either it simply ends and failure() says why. Readers
   * must check failure() once they have read it.
   */
  stream(decoder?: ReadableWritablePair<Uint8Array, Uint8Array>): ReadableStream<Uint8Array>;
  /** The whole body; throws FetchRefused when it is too large or too slow. */
  bytes(): Promise<Uint8Array<ArrayBuffer>>;
  text(): Promise<string>;
  /** Why the body ended early, or null when it was read whole. */
  failure(): FetchRefused | null;
  /** Drops the body unread and stops the clock. */
  discard(): Promise<void>;
}

const isRedirect = (status: number) => status === 301 || status === 302 || status === 303 || status === 307 || status === 308;

/** The origins of TRUSTED_FETCH_ORIGINS. */
function trustedOrigins(env: GuardedFetchEnv): Set<string> {
  const origins = new Set<string>();
  for (const entry of (env.TRUSTED_FETCH_ORIGINS ?? "").split(",")) {
    if (!entry.trim()) continue;
    try {
      origins.add(new URL(entry.trim()).origin);
    } catch {
      // not an address: trusts nothing
    }
  }
  return origins;
}

/** Whether `url` is exactly (scheme, host and port) one of the configured trusted origins. */
export function isTrustedOrigin(env: GuardedFetchEnv, url: URL | string): boolean {
  let origin: string;
  try {
    origin = typeof url === "string" ? new URL(url).origin : url.origin;
  } catch {
    return false;
  }
  return origin !== "null" && trustedOrigins(env).has(origin);
}

/** The hosts of the trusted origins (the URL rule lets them keep plain http). */
export function trustedHosts(env: GuardedFetchEnv): string[] {
  return [...trustedOrigins(env)].map((origin) => new URL(origin).hostname);
}

/** Refuses a hop whose scheme or addresses are not allowed; resolves names on the way. */
async function checkHop(env: GuardedFetchEnv, url: URL, hop: number, deadline: Promise<never>): Promise<void> {
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new FetchRefused("scheme", url.host, hop, url.protocol);
  if (isTrustedOrigin(env, url)) return;
  const literal = ipLiteral(url.hostname);
  if (literal !== null) {
    if (!isPublicAddress(literal)) throw new FetchRefused("private", url.host, hop);
    return;
  }
  if (isPrivateName(url.hostname)) throw new FetchRefused("private", url.host, hop);
  let addresses: string[];
  try {
    addresses = await Promise.race([resolveAddresses(env, url.hostname), deadline]);
  } catch (error) {
    if (error instanceof FetchRefused) throw error;
    if (error instanceof DnsLookupFailed) console.warn("DNS look-up failed; the fetch is refused", error.message);
    throw new FetchRefused("lookup", url.host, hop);
  }
  if (addresses.length === 0) throw new FetchRefused("unknown-host", url.host, hop);
  // One private answer is enough to refuse: the runtime may connect to any of them.
  if (!addresses.every(isPublicAddress)) throw new FetchRefused("private", url.host, hop);
}

/**
 * GETs `address` under the rules above and answers once the final response's
 * headers are in (any status: callers judge it). Throws FetchRefused.
 */
export async function guardedFetch(env: GuardedFetchEnv, address: string, request: GuardedRequest): Promise<GuardedResponse> {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new FetchRefused("scheme", "", 0, address);
  }
  url.hash = "";
  const origin = url.origin;

  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, request.timeoutMs);
  const stop = (error: FetchRefused) => {
    clearTimeout(timer);
    controller.abort();
    return error;
  };
  let hop = 0;
  const deadline = new Promise<never>((_, reject) => {
    const onAbort = () => reject(timedOut ? new FetchRefused("timeout", url.host, hop) : new FetchRefused("unreadable", url.host, hop));
    if (controller.signal.aborted) onAbort();
    else controller.signal.addEventListener("abort", onAbort, { once: true });
  });
  deadline.catch(() => {});

  const visited = new Set<string>();
  let response: Response;
  for (; ; hop += 1) {
    try {
      await checkHop(env, url, hop, deadline);
    } catch (error) {
      throw stop(error as FetchRefused);
    }
    visited.add(url.href);
    const headers = new Headers(request.headers);
    for (const [name, value] of Object.entries(request.credentials ?? {})) if (url.origin === origin) headers.set(name, value);
    try {
      response = await fetch(url.href, { redirect: "manual", signal: controller.signal, headers });
    } catch {
      throw stop(new FetchRefused(timedOut ? "timeout" : "unreachable", url.host, hop));
    }
    if (!isRedirect(response.status)) break;
    const location = response.headers.get("location");
    if (!location) break;
    await response.body?.cancel().catch(() => {});
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      throw stop(new FetchRefused("bad-redirect", url.host, hop + 1, location));
    }
    next.hash = "";
    if (visited.has(next.href)) throw stop(new FetchRefused("redirect-loop", url.host, hop + 1));
    if (hop + 1 > MAX_REDIRECTS) throw stop(new FetchRefused("too-many-redirects", url.host, hop + 1));
    if (request.credentials && next.origin !== origin) throw stop(new FetchRefused("credentials-redirect", url.host, hop + 1, next.host));
    url = next;
  }

  const final = response;
  const finalHost = url.host;
  let failure: FetchRefused | null = null;
  let started = false;
  // The reader stopped reading (it had what it wanted): what that cut short is not a failure of the source.
  let cancelled = false;

  function stream(decoder?: ReadableWritablePair<Uint8Array, Uint8Array>): ReadableStream<Uint8Array> {
    if (started) throw new Error("the body of a guarded fetch is read once");
    started = true;
    let raw: ReadableStream<Uint8Array> = final.body ?? new ReadableStream({ start: (c) => c.close() });
    if (decoder) raw = raw.pipeThrough(decoder);
    const reader = raw.getReader();
    let received = 0;
    return new ReadableStream<Uint8Array>({
      async pull(out) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await Promise.race([reader.read(), deadline]);
        } catch {
          if (!cancelled) failure ??= new FetchRefused(timedOut ? "timeout" : "unreadable", finalHost, hop);
          clearTimeout(timer);
          reader.cancel().catch(() => {});
          // Ended, not errored: an error would surface as an unhandled rejection inside HTMLRewriter's pipe.
          out.close();
          return;
        }
        if (chunk.done) {
          clearTimeout(timer);
          out.close();
          return;
        }
        received += chunk.value.byteLength;
        if (received > request.maxBytes) {
          failure = new FetchRefused("too-large", finalHost, hop);
          clearTimeout(timer);
          controller.abort();
          reader.cancel().catch(() => {});
          out.close();
          return;
        }
        out.enqueue(chunk.value);
      },
      cancel() {
        cancelled = true;
        clearTimeout(timer);
        controller.abort();
        return reader.cancel().catch(() => {});
      },
    });
  }

  async function bytes(): Promise<Uint8Array<ArrayBuffer>> {
    const declared = Number(final.headers.get("content-length"));
    if (Number.isFinite(declared) && declared > request.maxBytes) {
      await discard();
      throw new FetchRefused("too-large", finalHost, hop);
    }
    let body: Uint8Array<ArrayBuffer>;
    try {
      body = new Uint8Array(await new Response(stream()).arrayBuffer());
    } catch {
      throw failure ?? new FetchRefused("unreadable", finalHost, hop);
    }
    if (failure) throw failure;
    return body;
  }

  async function discard() {
    clearTimeout(timer);
    if (!started) await final.body?.cancel().catch(() => {});
    controller.abort();
  }

  return {
    url: url.href,
    redirected: hop > 0,
    status: final.status,
    ok: final.ok,
    headers: final.headers,
    stream,
    bytes,
    text: async () => new TextDecoder().decode(await bytes()),
    failure: () => failure,
    discard,
  };
}
