import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from "jose";
import type { Env } from "../env.ts";

/** Google's ID-token issuers (https://developers.google.com/identity/openid-connect/openid-connect#validatinganidtoken). */
const GOOGLE_ISSUERS = ["https://accounts.google.com", "accounts.google.com"];

const jwksByUrl = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

export type GoogleVerification = { ok: true; identity: GoogleIdentity } | { ok: false; reason: "invalid" | "unverified-email" };

export interface GoogleIdentity {
  sub: string;
  email: string;
  givenName: string;
  familyName: string;
  picture: string | null;
}

/**
 * Verifies a Google ID token against Google's published keys (GOOGLE_JWKS_URL:
 * Google's in production, the sandbox's locally): RS256 only, Google's issuer,
 * our client id as audience, not expired, and a verified e-mail.
 */
export async function verifyGoogleIdToken(env: Pick<Env, "GOOGLE_JWKS_URL" | "GOOGLE_CLIENT_ID">, idToken: string): Promise<GoogleVerification> {
  let jwks = jwksByUrl.get(env.GOOGLE_JWKS_URL);
  if (!jwks) {
    jwks = createRemoteJWKSet(new URL(env.GOOGLE_JWKS_URL), { timeoutDuration: 5_000, cooldownDuration: 30_000 });
    jwksByUrl.set(env.GOOGLE_JWKS_URL, jwks);
  }
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(idToken, jwks, {
      algorithms: ["RS256"],
      issuer: GOOGLE_ISSUERS,
      audience: env.GOOGLE_CLIENT_ID,
      requiredClaims: ["sub", "email", "exp", "iat"],
    }));
  } catch (error) {
    if (error instanceof errors.JOSEError) return { ok: false, reason: "invalid" };
    throw error;
  }
  if (typeof payload.email !== "string" || typeof payload.sub !== "string") return { ok: false, reason: "invalid" };
  if (payload.email_verified !== true) return { ok: false, reason: "unverified-email" };
  const name = typeof payload.name === "string" ? payload.name : "";
  const identity: GoogleIdentity = {
    sub: payload.sub,
    email: payload.email.toLowerCase(),
    givenName: typeof payload.given_name === "string" ? payload.given_name : name.split(" ")[0] || "",
    familyName: typeof payload.family_name === "string" ? payload.family_name : name.split(" ").slice(1).join(" "),
    picture: typeof payload.picture === "string" ? payload.picture : null,
  };
  return { ok: true, identity };
}
