import { errors, jwtVerify, SignJWT } from "jose";
import { toBase64Url } from "./password-hash.ts";

/** The only algorithm our tokens are signed with, and the only one accepted. */
const ALGORITHM = "HS256";
export const ID_TOKEN_TTL_SECONDS = 60 * 60;

/**
 * What a signed token is for. Each purpose has its own audience, so a token
 * made for one purpose (say, an e-mail link) is refused for another.
 */
export const AUDIENCES = {
  api: "pinboard:api",
  verifyEmail: "pinboard:verify-email",
  unsubscribe: "pinboard:unsubscribe",
  /** A trend alert digest's unsubscribe link: names the user whose trend alert e-mails stop (decision 047). */
  unsubscribeTrendAlerts: "pinboard:unsubscribe-trend-alerts",
  /** The weekly insights e-mail's unsubscribe link: names the user whose weekly summary stops (decision 093). */
  unsubscribeWeeklySummary: "pinboard:unsubscribe-weekly-summary",
  /** A browser that signed in to an account before (decision 019): its failed sign-ins are counted apart. */
  device: "pinboard:device",
  /** Short-lived handle the browser holds for one connected Pinterest profile (never Pinterest's own token). */
  pinterest: "pinboard:pinterest",
  /** Longer-lived handle that renews the one above. */
  pinterestRefresh: "pinboard:pinterest-refresh",
  /** The `user_id` we hand a WooCommerce store: names one connection under way, never the user (decision 030). */
  wooConnect: "pinboard:woocommerce-connect",
  /** A reviewer's signed link to one profile's pins awaiting approval (decision 052): revoked by removing the reviewer. */
  approvalReviewer: "pinboard:approval-reviewer",
} as const;
type Purpose = keyof typeof AUDIENCES;

export interface TokenSettings {
  /** At least 32 characters (AUTH_SECRET). */
  secret: string;
  /** Our own origin (APP_URL): the issuer of every token. */
  issuer: string;
}

const keys = new Map<string, Uint8Array>();
function keyFor(secret: string): Uint8Array {
  if (secret.length < 32) throw new Error("AUTH_SECRET must be at least 32 characters");
  let key = keys.get(secret);
  if (!key) {
    key = new TextEncoder().encode(secret);
    keys.set(secret, key);
  }
  return key;
}

export interface IdTokenClaims {
  /** The user's id. */
  sub: string;
  /** The sign-in (auth session) it belongs to; logging out revokes it. */
  sid: string;
}

export async function signToken(
  settings: TokenSettings,
  purpose: Purpose,
  claims: Record<string, string>,
  subject: string,
  ttlSeconds: number,
): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: ALGORITHM, typ: "JWT" })
    .setIssuer(settings.issuer)
    .setAudience(AUDIENCES[purpose])
    .setSubject(subject)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
    .sign(keyFor(settings.secret));
}

/**
 * Verifies signature, algorithm, issuer, audience and expiry, and that the
 * token was not made to live longer than `maxTtlSeconds`. Answers null for any
 * token that is not good (forged, `alg: none`, expired, for another purpose).
 */
export async function verifyToken(
  settings: TokenSettings,
  purpose: Purpose,
  token: string,
  maxTtlSeconds: number,
): Promise<(Record<string, unknown> & { sub: string }) | null> {
  try {
    const { payload } = await jwtVerify(token, keyFor(settings.secret), {
      algorithms: [ALGORITHM],
      issuer: settings.issuer,
      audience: AUDIENCES[purpose],
      requiredClaims: ["sub", "iat", "exp"],
    });
    if (typeof payload.sub !== "string" || payload.exp! - payload.iat! > maxTtlSeconds) return null;
    return payload as Record<string, unknown> & { sub: string };
  } catch (error) {
    if (error instanceof errors.JOSEError) return null;
    throw error;
  }
}

export function signIdToken(settings: TokenSettings, claims: IdTokenClaims) {
  return signToken(settings, "api", { sid: claims.sid }, claims.sub, ID_TOKEN_TTL_SECONDS);
}

export async function verifyIdToken(settings: TokenSettings, token: string): Promise<IdTokenClaims | null> {
  const payload = await verifyToken(settings, "api", token, ID_TOKEN_TTL_SECONDS);
  return payload && typeof payload.sid === "string" ? { sub: payload.sub, sid: payload.sid } : null;
}

/** A random secret of `bytes` bytes (default 32, i.e. 256 bits), base64url. */
export function randomToken(bytes = 32): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(bytes)));
}

/** SHA-256 of a token, hex: how refresh tokens, cookies and reset tokens are stored. */
export async function sha256Hex(value: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(value));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** HMAC-SHA-256 of a value under a secret, hex: a stored key that nobody without the secret can compute or reverse. */
export async function hmacSha256Hex(secret: string, value: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const signature = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(value));
  return [...new Uint8Array(signature)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
