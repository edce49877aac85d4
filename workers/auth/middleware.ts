import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppBindings } from "../api/hono.ts";
import { apiError } from "../api/errors.ts";
import { authenticateBearer, authenticateCookie, type Authenticated, type RequestMeta } from "../services/accounts.ts";
import { readSessionCookie } from "./session-cookie.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Where a request comes from: the client address Cloudflare saw, and the browser. */
export function requestMeta(c: Context): RequestMeta {
  return { ip: c.req.header("cf-connecting-ip") ?? null, userAgent: c.req.header("user-agent") ?? null };
}

/**
 * Requires a signed-in caller: `Authorization: Bearer <idToken>` or the session
 * cookie. A bad or expired id token answers 403 (the client refreshes once and
 * retries, spec section 7); no credentials answer 401. Writes authenticated by
 * the cookie must come from our own origin (cross-site request forgery).
 */
export const requireUser = createMiddleware<AppBindings>(async (c, next) => {
  const header = c.req.header("authorization");
  if (header !== undefined) {
    const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
    const auth = token ? await authenticateBearer(c.env, token) : null;
    if (!auth) return apiError(c, 403, "Your sign-in has expired. Please log in again.");
    c.set("auth", auth);
    return next();
  }
  const cookie = readSessionCookie(c);
  const auth = cookie ? await authenticateCookie(c.env, cookie) : null;
  if (!auth) return apiError(c, 401, "Please log in to continue.");
  if (!SAFE_METHODS.has(c.req.method) && !cameFromOurSite(c)) return apiError(c, 403, NOT_FROM_OUR_SITE);
  c.set("auth", auth);
  return next();
});

/**
 * The caller when signed in, null for a visitor, for calls open to both (the
 * keyword research tool's one free try). A bad or expired bearer token answers
 * 403 as requireUser does, so the client refreshes it instead of being taken
 * for a visitor; a stale cookie is a visitor.
 */
export async function signedInCaller(c: Context<AppBindings>): Promise<Authenticated | null | Response> {
  const header = c.req.header("authorization");
  if (header !== undefined) {
    const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
    const auth = token ? await authenticateBearer(c.env, token) : null;
    return auth ?? apiError(c, 403, "Your sign-in has expired. Please log in again.");
  }
  const cookie = readSessionCookie(c);
  return cookie ? authenticateCookie(c.env, cookie) : null;
}

export const NOT_FROM_OUR_SITE = "This request did not come from our site.";

/**
 * Proof that a request was sent by our own pages: its Origin is ours, or,
 * when the browser sent no Origin (a same-origin GET), Sec-Fetch-Site says
 * same-origin. A link or form on another site has neither.
 */
export function cameFromOurSite(c: Context) {
  const origin = c.req.header("origin");
  if (origin) return origin === new URL(c.env.APP_URL).origin || origin === new URL(c.req.url).origin;
  return c.req.header("sec-fetch-site") === "same-origin";
}

/**
 * For the few GET calls that change state (the spec makes resetScheduledTimes
 * a GET): a caller signed in by the cookie alone must prove the request came
 * from our site, as writes must; a bearer token is proof enough.
 */
export const requireSameSiteWhenCookie = createMiddleware<AppBindings>(async (c, next) => {
  if (c.req.header("authorization") === undefined && !cameFromOurSite(c)) return apiError(c, 403, NOT_FROM_OUR_SITE);
  return next();
});

/**
 * After `requireUser`: lets only admins through (the role column, never the browser's `pgrole`); anyone
 * else gets a 403 with `message`. Every admin call uses it.
 */
export const adminOnly = (message = "Only admins can do this.") =>
  createMiddleware<AppBindings>(async (c, next) => (c.var.auth.user.role === "admin" ? next() : apiError(c, 403, message)));
