import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppBindings } from "../api/core/hono.ts";
import { apiError } from "../api/core/errors.ts";
import {
  authenticateBearer,
  authenticateCookie,
  authenticateWithProfile,
  tokenSettings,
  type Authenticated,
  type Credential,
  type RequestMeta,
} from "../services/accounts/accounts.ts";
import { verifyIdToken } from "./tokens.ts";
import { readSessionCookie } from "./session-cookie.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Where a request comes from: the client address Cloudflare saw, and the browser. */
export function requestMeta(c: Context): RequestMeta {
  return { ip: c.req.header("cf-connecting-ip") ?? null, userAgent: c.req.header("user-agent") ?? null };
}

const EXPIRED = "Your sign-in has expired. Please log in again.";
const SIGN_IN_FIRST = "Please log in to continue.";

/** The credential a request carries: its Authorization header's bearer token (null when the header is malformed), else its session cookie, else none. */
function credentialOf(c: Context): Credential | null | "malformed" {
  const header = c.req.header("authorization");
  if (header !== undefined) {
    const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
    return token ? { via: "bearer", token } : "malformed";
  }
  const cookie = readSessionCookie(c);
  return cookie ? { via: "cookie", cookie } : null;
}

/**
 * The one sign-in check of every signed-in call: `open` looks the credential up (D1, every
 * request); a bad or expired id token answers 403 (the client refreshes once and retries, spec
 * section 7); no credentials answer 401. Writes authenticated by the cookie must come from our
 * own origin (cross-site request forgery).
 */
function signInCheck<T extends { auth: Authenticated }>(
  open: (c: Context<AppBindings>, credential: Credential) => Promise<T | null>,
  found: (c: Context<AppBindings>, value: T) => void,
) {
  return createMiddleware<AppBindings>(async (c, next) => {
    const credential = credentialOf(c);
    if (credential === "malformed") return apiError(c, 403, EXPIRED);
    const value = credential ? await open(c, credential) : null;
    if (!value) return apiError(c, credential?.via === "bearer" ? 403 : 401, credential?.via === "bearer" ? EXPIRED : SIGN_IN_FIRST);
    if (credential!.via === "cookie" && !SAFE_METHODS.has(c.req.method) && !cameFromOurSite(c)) return apiError(c, 403, NOT_FROM_OUR_SITE);
    c.set("auth", value.auth);
    found(c, value);
    return next();
  });
}

/** Requires a signed-in caller: `Authorization: Bearer <idToken>` or the session cookie (signInCheck). */
export const requireUser = signInCheck(
  async (c, credential) => {
    const auth = credential.via === "bearer" ? await authenticateBearer(c.env, credential.token) : await authenticateCookie(c.env, credential.cookie);
    return auth && { auth };
  },
  () => undefined,
);

/**
 * requireUser for a call on one of the caller's Pinterest profiles, named by the path parameter
 * `param` (or by what `param` reads from the request, such as a query parameter): the sign-in and the
 * profile are read in ONE D1 query (authenticateWithProfile), and the
 * profile (null when the caller has none by that name) is left in `c.var.namedProfile`. With a
 * bearer token, `meanwhile` is called once the token's signature has checked out and before D1 is
 * asked, with the user id the token names: work started there must not change anything, and its
 * result may be used only once the check has passed (decision 062).
 */
export function requireUserAndProfile(
  param: string | ((c: Context<AppBindings>) => string),
  meanwhile?: (c: Context<AppBindings>, userId: string, username: string) => void,
) {
  return signInCheck(
    async (c, credential) => {
      const username = typeof param === "string" ? (c.req.param(param) ?? "") : param(c);
      if (credential.via === "cookie") return authenticateWithProfile(c.env, credential, username);
      const claims = await verifyIdToken(tokenSettings(c.env), credential.token);
      if (!claims) return null;
      meanwhile?.(c, claims.sub, username);
      return authenticateWithProfile(c.env, credential, username, claims);
    },
    (c, { profile }) => c.set("namedProfile", profile),
  );
}

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
    return auth ?? apiError(c, 403, EXPIRED);
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
