import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppBindings } from "../api/hono.ts";
import { apiError } from "../api/errors.ts";
import { authenticateBearer, authenticateCookie, type RequestMeta } from "../services/accounts.ts";
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
  if (!SAFE_METHODS.has(c.req.method) && !isOwnOrigin(c)) return apiError(c, 403, "This request did not come from our site.");
  c.set("auth", auth);
  return next();
});

function isOwnOrigin(c: Context<AppBindings>) {
  const origin = c.req.header("origin");
  if (!origin) return false;
  return origin === new URL(c.env.APP_URL).origin || origin === new URL(c.req.url).origin;
}
