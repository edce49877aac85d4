import type { Context, Next } from "hono";
import type { AppBindings } from "../api/core/hono.ts";
import type { Env } from "../env.ts";

/**
 * The headers a careful site sends with every answer (docs/decisions/020-security-headers.md).
 * Pages get a Content-Security-Policy whose scripts must carry this request's
 * nonce (Remix's inline scripts get it through the load context); everything
 * else gets a policy that allows nothing to run at all.
 */

/** A fresh nonce for one page (128 random bits, base64). */
export function newNonce(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
}

/** The policy of a page: our own scripts with this nonce, WebAssembly for the preview engine, nothing framed. */
export function pagePolicy(env: Pick<Env, "APP_ENV">, nonce: string): string {
  const development = env.APP_ENV !== "production";
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic' 'wasm-unsafe-eval'`,
    // React sets style attributes, and dialogs add one <style> while they lock scrolling.
    "style-src 'self' 'unsafe-inline'",
    // Previews are data: and blob: pictures; posts show pictures from anywhere on the web.
    `img-src 'self' data: blob: https:${development ? " http:" : ""}`,
    `media-src 'self' blob: https:${development ? " http:" : ""}`,
    "font-src 'self' data:",
    "connect-src 'self' data: blob:",
    "worker-src 'self' blob:",
    "frame-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** For answers that are not pages (JSON, media, redirects): nothing in them may run or be framed. */
const NOTHING_RUNS = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

export function applySecurityHeaders(headers: Headers, env: Pick<Env, "APP_ENV" | "APP_URL">, nonce: string | null) {
  const isPage = nonce !== null && (headers.get("content-type") ?? "").startsWith("text/html");
  headers.set("Content-Security-Policy", isPage ? pagePolicy(env, nonce) : NOTHING_RUNS);
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("X-Frame-Options", "DENY");
  headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  headers.set("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()");
  if (env.APP_ENV === "production" && env.APP_URL.startsWith("https://")) {
    headers.set("Strict-Transport-Security", "max-age=63072000; includeSubDomains");
  }
}

/** The middleware: a nonce for the page about to be rendered, the headers on whatever is answered. */
export async function securityHeaders(c: Context<AppBindings>, next: Next) {
  const nonce = newNonce();
  c.set("cspNonce", nonce);
  await next();
  // Some answers (fetched media, redirects) carry immutable headers: copy them once.
  let response = c.res;
  try {
    applySecurityHeaders(response.headers, c.env, nonce);
  } catch {
    response = new Response(response.body, response);
    applySecurityHeaders(response.headers, c.env, nonce);
    c.res = response;
  }
}
