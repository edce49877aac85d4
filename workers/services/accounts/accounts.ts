import { and, eq, gt, isNull } from "drizzle-orm";
import type { AuthTokens, SignupBody } from "../../../contracts/accounts/auth.ts";
import { hashPassword, needsRehash, verifyPassword } from "../../auth/password-hash.ts";
import { seal, unseal } from "../../auth/sealed.ts";
import { DEVICE_TTL_SECONDS, SESSION_TTL_MS } from "../../auth/session-cookie.ts";
import { randomToken, sha256Hex, signIdToken, signToken, verifyIdToken, verifyToken, type IdTokenClaims, type TokenSettings } from "../../auth/tokens.ts";
import { database } from "../../db/client.ts";
import { authSessions, passwordResets, pinterestProfiles, refreshTokens, users } from "../../db/schema.ts";
import { handleBase, handleCandidates, newReferralCode } from "../../domain/handles.ts";
import { RESERVED_HANDLES } from "../../../contracts/accounts/user.ts";
import { passwordProblem } from "../../domain/password-policy.ts";
import type { Env } from "../../env.ts";
import type { PinterestProfile } from "../pinterest/pinterest-connection.ts";
import { sendEmail, type Delivery } from "../../integrations/email.ts";
import { SUPPRESSED_MESSAGES, suppressionOf } from "./email-suppressions.ts";
import { verifyGoogleIdToken } from "../../integrations/google-identity.ts";
import { existingAccountEmail, passwordResetEmail, verificationEmail } from "./emails.ts";
import { AddressSuppressed, sendToTypedAddress } from "./typed-address-mail.ts";
import { ServiceError } from "../core/errors.ts";
import { consumeRateLimits, RATE_LIMITS, RateLimited, waitBeforeTrying, type RateLimitRule } from "./rate-limit.ts";

export type User = typeof users.$inferSelect;

/** Who is asking: where from, with what browser. */
export interface RequestMeta {
  ip: string | null;
  userAgent: string | null;
}

/** A new sign-in: the tokens of spec section 7 plus the value of the session cookie. */
export interface SignIn {
  tokens: AuthTokens;
  cookie: string;
  user: User;
}

export const VERIFY_EMAIL_TTL_SECONDS = 48 * 60 * 60;
const PASSWORD_RESET_TTL_MS = 60 * 60 * 1000;
export const WRONG_CREDENTIALS = "Wrong e-mail or password.";
/** Answered to a blocked account's sign-in (decision 051), only once its password or Google identity checked out. */
export const ACCOUNT_BLOCKED = "This account has been blocked. If you think this is a mistake, please contact us.";

export function tokenSettings(env: Pick<Env, "AUTH_SECRET" | "APP_URL">): TokenSettings {
  return { secret: env.AUTH_SECRET, issuer: new URL(env.APP_URL).origin };
}

/** A PBKDF2 hash of a random password: compared against when no account matches, so timing does not tell. */
let decoyHash: Promise<string> | null = null;

// ---------------------------------------------------------------- sign-in sessions

/** Opens a sign-in: a session (cookie) and the first refresh token of its family, in one batch. */
async function startSession(env: Env, user: User, meta: RequestMeta): Promise<SignIn> {
  const db = database(env.DB);
  const now = Date.now();
  const sessionId = crypto.randomUUID();
  const cookie = randomToken();
  const refreshToken = randomToken();
  await db.batch([
    db.insert(authSessions).values({
      id: sessionId,
      userId: user.id,
      cookieHash: await sha256Hex(cookie),
      lastUsedAt: now,
      expiresAt: now + SESSION_TTL_MS,
      ip: meta.ip,
      userAgent: meta.userAgent?.slice(0, 300) ?? null,
    }),
    db.insert(refreshTokens).values({ tokenHash: await sha256Hex(refreshToken), sessionId }),
  ]);
  const idToken = await signIdToken(tokenSettings(env), { sub: user.id, sid: sessionId });
  return { tokens: { idToken, refreshToken }, cookie, user };
}

/** How long a used refresh token still answers the successor it was exchanged for (two tabs refreshing at once). */
export const REFRESH_GRACE_MS = 30_000;
const SUCCESSOR_PURPOSE = "refresh-successor";
export const SESSION_ENDED = "Your session has ended. Please log in again.";

/**
 * Exchanges a refresh token for a new pair. Tokens rotate on every use. For
 * REFRESH_GRACE_MS after its use, the same token answers the same successor
 * again (two tabs refreshing together both stay signed in; the successor is
 * kept sealed, bound to the old token's hash); presented later, a used token
 * revokes the whole family: whoever holds a copy is locked out.
 *
 * The session cookie is kept when the caller already holds the session's
 * cookie (a lost response then costs nothing); otherwise (it expired or was
 * cleared) a new one is issued. `cookie` is null when the old one stays.
 */
export async function refreshSignIn(env: Env, refreshToken: string, presentedCookie?: string): Promise<Omit<SignIn, "cookie"> & { cookie: string | null }> {
  const db = database(env.DB);
  const now = Date.now();
  const tokenHash = await sha256Hex(refreshToken);
  const find = () =>
    db
      .select({ token: refreshTokens, session: authSessions, user: users })
      .from(refreshTokens)
      .innerJoin(authSessions, eq(authSessions.id, refreshTokens.sessionId))
      .innerJoin(users, eq(users.id, authSessions.userId))
      .where(eq(refreshTokens.tokenHash, tokenHash))
      .get();
  const found = await find();
  if (!found) throw new ServiceError(401, "Invalid refresh token.");
  const { session, user } = found;
  if (session.revokedAt !== null || session.expiresAt <= now || user.blockedAt !== null) throw new ServiceError(401, SESSION_ENDED);
  const keepsCookie = presentedCookie !== undefined && (await sha256Hex(presentedCookie)) === session.cookieHash;
  const answer = async (nextRefreshToken: string, cookie: string | null) => ({
    tokens: { idToken: await signIdToken(tokenSettings(env), { sub: user.id, sid: session.id }), refreshToken: nextRefreshToken },
    cookie,
    user,
  });

  /** A used token: its successor again within the grace, else the family is revoked. */
  const alreadyUsed = async (token: typeof found.token) => {
    if (token.usedAt !== null && now - token.usedAt <= REFRESH_GRACE_MS && token.successorSealed) {
      const successor = await unseal(env.AUTH_SECRET, SUCCESSOR_PURPOSE, token.successorSealed, tokenHash);
      // The cookie stays as it is: the other tab's request may have replaced it already.
      if (successor) return answer(successor, null);
    }
    await revokeSession(env, session.id, "refresh token reused");
    throw new ServiceError(401, SESSION_ENDED);
  };
  if (found.token.usedAt !== null) return alreadyUsed(found.token);

  // Claim the token and write its successor in one transaction: the successor exists only if the claim won.
  const nextRefreshToken = randomToken();
  const nextHash = await sha256Hex(nextRefreshToken);
  const sealed = await seal(env.AUTH_SECRET, SUCCESSOR_PURPOSE, nextRefreshToken, tokenHash);
  const cookie = keepsCookie ? null : randomToken();
  const [claimed] = await env.DB.batch([
    env.DB.prepare(
      `UPDATE refresh_tokens SET used_at = ?1, successor_hash = ?2, successor_sealed = ?3 WHERE token_hash = ?4 AND used_at IS NULL RETURNING token_hash`,
    ).bind(now, nextHash, sealed, tokenHash),
    env.DB.prepare(
      `INSERT INTO refresh_tokens (token_hash, session_id) SELECT ?1, ?2 WHERE EXISTS (SELECT 1 FROM refresh_tokens WHERE token_hash = ?3 AND successor_hash = ?1)`,
    ).bind(nextHash, session.id, tokenHash),
    env.DB.prepare(`UPDATE auth_sessions SET last_used_at = ?1, expires_at = ?2 WHERE id = ?3`).bind(now, now + SESSION_TTL_MS, session.id),
  ]);
  if (claimed.results.length === 0) {
    // Another request (the other tab) used it a moment ago: answer what it got.
    const again = await find();
    if (!again) throw new ServiceError(401, "Invalid refresh token.");
    return alreadyUsed(again.token);
  }
  if (cookie)
    await db
      .update(authSessions)
      .set({ cookieHash: await sha256Hex(cookie) })
      .where(eq(authSessions.id, session.id));
  return answer(nextRefreshToken, cookie);
}

export async function revokeSession(env: Env, sessionId: string, reason: string) {
  await database(env.DB)
    .update(authSessions)
    .set({ revokedAt: Date.now(), revokeReason: reason })
    .where(and(eq(authSessions.id, sessionId), isNull(authSessions.revokedAt)));
}

async function revokeAllSessions(env: Env, userId: string, reason: string) {
  await database(env.DB)
    .update(authSessions)
    .set({ revokedAt: Date.now(), revokeReason: reason })
    .where(and(eq(authSessions.userId, userId), isNull(authSessions.revokedAt)));
}

/** The session a refresh token belongs to, if any (logout with only a refresh token). */
export async function sessionOfRefreshToken(env: Env, refreshToken: string): Promise<string | null> {
  const row = await database(env.DB)
    .select({ sessionId: refreshTokens.sessionId })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, await sha256Hex(refreshToken)))
    .get();
  return row?.sessionId ?? null;
}

export interface Authenticated {
  user: User;
  sessionId: string;
  via: "bearer" | "cookie";
}

/** The user behind an id token: valid signature, issuer, audience, expiry, and a session still open. */
export async function authenticateBearer(env: Env, idToken: string): Promise<Authenticated | null> {
  const claims = await verifyIdToken(tokenSettings(env), idToken);
  if (!claims) return null;
  return (await openSession(env, eq(authSessions.id, claims.sid), claims.sub, "bearer", null))?.auth ?? null;
}

/** The user behind a session cookie. */
export async function authenticateCookie(env: Env, cookie: string): Promise<Authenticated | null> {
  return (await openSession(env, eq(authSessions.cookieHash, await sha256Hex(cookie)), null, "cookie", null))?.auth ?? null;
}

/** What a request signs in with: the bearer token of its Authorization header, or its session cookie. */
export type Credential = { via: "bearer"; token: string } | { via: "cookie"; cookie: string };

/** A signed-in caller and their own Pinterest profile of one name (null when they have none by that name). */
export interface AuthenticatedWithProfile {
  auth: Authenticated;
  profile: PinterestProfile | null;
}

/**
 * The caller behind `credential` (the same checks as authenticateBearer and authenticateCookie: the
 * token's signature, the session still open, the user not blocked) and their profile named `username`,
 * read in ONE D1 query: the profile is joined on the session's own user, so it is the caller's or none.
 * `verified` is the bearer token's claims when the caller has checked them already.
 */
export async function authenticateWithProfile(
  env: Env,
  credential: Credential,
  username: string,
  verified?: IdTokenClaims | null,
): Promise<AuthenticatedWithProfile | null> {
  if (credential.via === "bearer") {
    const claims = verified === undefined ? await verifyIdToken(tokenSettings(env), credential.token) : verified;
    if (!claims) return null;
    return openSession(env, eq(authSessions.id, claims.sid), claims.sub, "bearer", username);
  }
  return openSession(env, eq(authSessions.cookieHash, await sha256Hex(credential.cookie)), null, "cookie", username);
}

/**
 * The open session matching `which` (not revoked, not expired, its user not blocked), and with
 * `username` the session user's profile of that name, in one query. Every request is checked
 * against D1: a sign-out, a revoked session or a block takes effect on the very next request.
 */
async function openSession(
  env: Env,
  which: ReturnType<typeof eq>,
  userId: string | null,
  via: Authenticated["via"],
  username: string | null,
): Promise<AuthenticatedWithProfile | null> {
  const open = and(which, isNull(authSessions.revokedAt), gt(authSessions.expiresAt, Date.now()), isNull(users.blockedAt));
  const db = database(env.DB);
  let row: { session: typeof authSessions.$inferSelect; user: User; profile: PinterestProfile | null } | undefined;
  if (username === null) {
    const found = await db
      .select({ session: authSessions, user: users })
      .from(authSessions)
      .innerJoin(users, eq(users.id, authSessions.userId))
      .where(open)
      .get();
    row = found && { ...found, profile: null };
  } else {
    row = await db
      .select({ session: authSessions, user: users, profile: pinterestProfiles })
      .from(authSessions)
      .innerJoin(users, eq(users.id, authSessions.userId))
      .leftJoin(pinterestProfiles, and(eq(pinterestProfiles.userId, users.id), eq(pinterestProfiles.username, username)))
      .where(open)
      .get();
  }
  if (!row || (userId !== null && row.user.id !== userId)) return null;
  return { auth: { user: row.user, sessionId: row.session.id, via }, profile: row.profile };
}

// ---------------------------------------------------------------- sign-up and login

/**
 * What a sign-up with an address that has an account answers: the same words a new account is shown, and the
 * account's owner gets an e-mail instead (decision 083). No session: the caller has not shown they own it.
 */
export interface SignUpElsewhere {
  existing: true;
}

export async function signUp(env: Env, input: SignupBody, meta: RequestMeta): Promise<SignIn | SignUpElsewhere> {
  await consumeRateLimits(env.DB, [[RATE_LIMITS.signupPerIp, meta.ip]]);
  const problem = passwordProblem(input.password, input.email);
  if (problem) throw new ServiceError(400, problem, "password");
  const db = database(env.DB);
  // Hashed before looking the address up, so both answers cost the same time.
  const passwordHash = await hashPassword(input.password);
  const owner = await db.query.users.findFirst({ where: eq(users.email, input.email) });
  if (owner) return tellOwnerOfSignUp(env, owner, meta);
  let user: User;
  try {
    user = await createUser(env, {
      email: input.email,
      passwordHash,
      firstName: input.firstName,
      lastName: input.lastName,
      leadSource: input.leadSource ?? null,
      leadSourceOther: input.leadSource === "Other" ? (input.leadSourceOther ?? null) : null,
      signupIp: meta.ip,
    });
  } catch (error) {
    // Two sign-ups with one address at once: the second is told as if the account had been there before.
    const raced = error instanceof EmailTaken ? await db.query.users.findFirst({ where: eq(users.email, input.email) }) : undefined;
    if (raced) return tellOwnerOfSignUp(env, raced, meta);
    throw error;
  }
  const signIn = await startSession(env, user, meta);
  await sendVerificationEmail(env, user).catch((error) => console.error("signup: verification e-mail not sent", error));
  return signIn;
}

/**
 * E-mails the owner of an address that someone tried to sign up with: a few an hour at most per address, and
 * through the gate for mail to typed addresses (decision 080), since a stranger typed it.
 */
async function tellOwnerOfSignUp(env: Env, owner: User, meta: RequestMeta): Promise<SignUpElsewhere> {
  try {
    await consumeRateLimits(env.DB, [[RATE_LIMITS.signupExistingPerEmail, owner.email]]);
    const login = new URL("/login", env.APP_URL).toString();
    const reset = new URL("/forgot-password", env.APP_URL).toString();
    await sendToTypedAddress(env, { ip: meta.ip }, existingAccountEmail(owner.email, owner.firstName, login, reset));
  } catch (error) {
    // The answer must not depend on whether this e-mail went: a limit or an e-mail outage is only logged.
    if (!(error instanceof RateLimited) && !(error instanceof AddressSuppressed))
      console.error("signup: the e-mail to an existing account's owner was not sent", error);
  }
  return { existing: true };
}

/** createUser's refusal of an address another account holds (a race between two sign-ups). */
class EmailTaken extends Error {}

type NewUser = Pick<
  typeof users.$inferInsert,
  "email" | "passwordHash" | "firstName" | "lastName" | "leadSource" | "leadSourceOther" | "signupIp" | "googleSub" | "isEmailVerified"
>;

/** Inserts a user with a free handle and referral code (retrying on the rare collision). */
async function createUser(env: Env, fields: NewUser): Promise<User> {
  const db = database(env.DB);
  const candidates = handleCandidates(handleBase(fields.firstName, fields.lastName, fields.email)).filter((handle) => !RESERVED_HANDLES.has(handle));
  for (const handle of candidates) {
    const taken = await db.query.users.findFirst({ where: eq(users.handle, handle), columns: { id: true } });
    if (taken) continue;
    try {
      const [user] = await db
        .insert(users)
        .values({
          ...fields,
          id: crypto.randomUUID(),
          handle,
          referralCode: newReferralCode(crypto.getRandomValues(new Uint8Array(8))),
          // Born after the move to per-user ledgers (decision 084): nothing of theirs is in D1's per-pin tables.
          ledgerMovedAt: Date.now(),
          updatedAt: Date.now(),
        })
        .returning();
      return user;
    } catch (error) {
      if (!/UNIQUE constraint failed: users\.(handle|referral_code)/.test(String(error))) {
        if (/UNIQUE constraint failed: users\.email/.test(String(error))) throw new EmailTaken("An account with this e-mail already exists");
        throw error;
      }
    }
  }
  throw new Error("Could not find a free handle");
}

/** A browser's proof that it signed in to this e-mail's account before (a signed token naming the e-mail and the device). */
export async function deviceTokenFor(env: Env, email: string): Promise<string> {
  return signToken(tokenSettings(env), "device", { n: randomToken(12) }, await sha256Hex(email.toLowerCase()), DEVICE_TTL_SECONDS);
}

/** The device's own id when its token is good for this e-mail, else null (a stranger's browser). */
async function knownDevice(env: Env, email: string, token: string | undefined): Promise<string | null> {
  if (!token) return null;
  const claims = await verifyToken(tokenSettings(env), "device", token, DEVICE_TTL_SECONDS);
  if (!claims || claims.sub !== (await sha256Hex(email.toLowerCase())) || typeof claims.n !== "string") return null;
  return claims.n;
}

export const NEW_DEVICE_LOCKED = (minutes: string) =>
  `There were too many failed sign-ins for this account from new devices. Please try again in ${minutes}, or reset your password to sign in now.`;

/**
 * Signs in with e-mail and password, throttled as OWASP advises without
 * letting strangers lock the owner out (decision 019): attempts per address;
 * failures per e-mail and address; failures per e-mail from browsers that
 * never signed in to it (only those are held back); failures per known
 * device. `device` is the browser's device cookie; a successful sign-in
 * answers a new one.
 */
export async function logIn(env: Env, email: string, password: string, meta: RequestMeta, device?: string): Promise<SignIn & { device: string }> {
  await consumeRateLimits(env.DB, [[RATE_LIMITS.loginPerIp, meta.ip]]);
  const deviceId = await knownDevice(env, email, device);
  const failureBuckets: [RateLimitRule, string | null][] = [
    [RATE_LIMITS.loginFailuresPerEmailAndIp, meta.ip ? `${email}|${meta.ip}` : null],
    deviceId ? [RATE_LIMITS.loginFailuresPerDevice, deviceId] : [RATE_LIMITS.loginFailuresPerEmailUnknownDevice, email],
  ];
  const waitSeconds = await waitBeforeTrying(env.DB, failureBuckets);
  if (waitSeconds > 0) throw new RateLimited(waitSeconds, deviceId ? undefined : NEW_DEVICE_LOCKED);
  const failed = async (): Promise<never> => {
    await consumeRateLimits(env.DB, failureBuckets).catch((error) => {
      if (!(error instanceof RateLimited)) throw error;
    });
    throw new ServiceError(401, WRONG_CREDENTIALS);
  };
  const db = database(env.DB);
  const user = await db.query.users.findFirst({ where: eq(users.email, email) });
  if (!user?.passwordHash) {
    // Same work as a real check, so response time does not reveal whether the e-mail has an account.
    decoyHash ??= hashPassword(randomToken());
    await verifyPassword(password, await decoyHash);
    return failed();
  }
  if (!(await verifyPassword(password, user.passwordHash))) return failed();
  if (user.blockedAt !== null) throw new ServiceError(403, ACCOUNT_BLOCKED);
  if (needsRehash(user.passwordHash)) {
    await db
      .update(users)
      .set({ passwordHash: await hashPassword(password), updatedAt: Date.now() })
      .where(eq(users.id, user.id));
  }
  return { ...(await startSession(env, user, meta)), device: await deviceTokenFor(env, user.email) };
}

/** Signs in with a Google ID token; `created` tells whether a new account was made (answered 201). */
export async function signInWithGoogle(env: Env, idToken: string, leadSource: string | null, meta: RequestMeta): Promise<SignIn & { created: boolean }> {
  await consumeRateLimits(env.DB, [[RATE_LIMITS.googlePerIp, meta.ip]]);
  const verification = await verifyGoogleIdToken(env, idToken);
  if (!verification.ok) {
    throw new ServiceError(
      401,
      verification.reason === "unverified-email"
        ? "Your Google account's e-mail address is not verified. Please verify it with Google, or sign up with e-mail and password."
        : "Google sign-in failed. Please try again.",
    );
  }
  const identity = verification.identity;
  const db = database(env.DB);
  let user = await db.query.users.findFirst({ where: eq(users.googleSub, identity.sub) });
  if (!user) {
    const byEmail = await db.query.users.findFirst({ where: eq(users.email, identity.email) });
    if (byEmail) {
      // Google has verified the address, so the existing account is theirs: link it.
      [user] = await db
        .update(users)
        .set({ googleSub: identity.sub, isEmailVerified: true, updatedAt: Date.now() })
        .where(eq(users.id, byEmail.id))
        .returning();
    }
  }
  if (user?.blockedAt != null) throw new ServiceError(403, ACCOUNT_BLOCKED);
  if (user) return { ...(await startSession(env, user, meta)), created: false };
  const created = await createUser(env, {
    email: identity.email,
    passwordHash: null,
    googleSub: identity.sub,
    firstName: identity.givenName || identity.email.split("@")[0],
    lastName: identity.familyName || "",
    leadSource,
    leadSourceOther: null,
    signupIp: meta.ip,
    isEmailVerified: true,
  }).catch((error) => {
    // Google has shown the caller owns this address, so saying it has an account tells them nothing new.
    if (error instanceof EmailTaken) throw new ServiceError(409, "An account with this e-mail already exists. Please log in instead.", "email");
    throw error;
  });
  return { ...(await startSession(env, created, meta)), created: true };
}

// ---------------------------------------------------------------- password reset

/** Sends a reset link when the e-mail has an account; answers the same either way. */
export async function requestPasswordReset(env: Env, email: string, meta: RequestMeta) {
  await consumeRateLimits(env.DB, [
    [RATE_LIMITS.forgotPasswordPerEmail, email],
    [RATE_LIMITS.forgotPasswordPerIp, meta.ip],
  ]);
  // Looked at before the account, so the refusal says nothing about whether the address has one (decision 097).
  const suppressed = await suppressionOf(env.DB, email);
  if (suppressed) throw new ServiceError(422, SUPPRESSED_MESSAGES[suppressed.reason], "email");
  const db = database(env.DB);
  const user = await db.query.users.findFirst({ where: eq(users.email, email) });
  if (!user) return;
  const token = randomToken();
  await db.insert(passwordResets).values({ tokenHash: await sha256Hex(token), userId: user.id, expiresAt: Date.now() + PASSWORD_RESET_TTL_MS });
  const link = new URL(`/reset-password?token=${encodeURIComponent(token)}`, env.APP_URL).toString();
  const delivery = await sendEmail(env, passwordResetEmail(user.email, user.firstName, link));
  if (!delivery.sent) throw new ServiceError(422, SUPPRESSED_MESSAGES[delivery.suppressed.reason], "email");
}

/**
 * Sets a new password from a reset link (one-time, expiring) and signs every
 * session out. Answers a device token: the browser that used the link has
 * shown it reads the account's e-mail, so it signs in as a known device.
 */
export async function resetPassword(env: Env, token: string, password: string): Promise<{ device: string }> {
  const db = database(env.DB);
  const now = Date.now();
  const claimed = await db
    .update(passwordResets)
    .set({ usedAt: now })
    .where(and(eq(passwordResets.tokenHash, await sha256Hex(token)), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, now)))
    .returning({ userId: passwordResets.userId });
  if (claimed.length === 0) {
    throw new ServiceError(400, "This password reset link has expired or was already used. Please ask for a new one.", "token");
  }
  const user = await db.query.users.findFirst({ where: eq(users.id, claimed[0].userId) });
  if (!user) throw new ServiceError(400, "This password reset link is no longer valid.", "token");
  const problem = passwordProblem(password, user.email);
  if (problem) {
    // The link stays usable for a better password.
    await db
      .update(passwordResets)
      .set({ usedAt: null })
      .where(eq(passwordResets.tokenHash, await sha256Hex(token)));
    throw new ServiceError(400, problem, "password");
  }
  await db.batch([
    db
      .update(users)
      .set({ passwordHash: await hashPassword(password), updatedAt: now })
      .where(eq(users.id, user.id)),
    db
      .update(authSessions)
      .set({ revokedAt: now, revokeReason: "password reset" })
      .where(and(eq(authSessions.userId, user.id), isNull(authSessions.revokedAt))),
    db
      .update(passwordResets)
      .set({ usedAt: now })
      .where(and(eq(passwordResets.userId, user.id), isNull(passwordResets.usedAt))),
  ]);
  return { device: await deviceTokenFor(env, user.email) };
}

// ---------------------------------------------------------------- e-mail verification

/** Sends the verification link; answers whether it went (not when the address is suppressed, decision 097). */
export async function sendVerificationEmail(env: Env, user: User): Promise<Delivery> {
  const token = await signToken(tokenSettings(env), "verifyEmail", { email: user.email }, user.id, VERIFY_EMAIL_TTL_SECONDS);
  const link = new URL(`/verify-email?uid=${encodeURIComponent(user.id)}&token=${encodeURIComponent(token)}`, env.APP_URL).toString();
  return sendEmail(env, verificationEmail(user.email, user.firstName, link));
}

/** Sends the link again (rate-limited per user and per address); refused in words when the address is suppressed. */
export async function resendVerificationEmail(env: Env, user: User, meta: RequestMeta) {
  if (user.isEmailVerified) throw new ServiceError(409, "Your e-mail address is already verified.");
  const suppressed = await suppressionOf(env.DB, user.email);
  if (suppressed) throw new ServiceError(422, SUPPRESSED_MESSAGES[suppressed.reason]);
  await consumeRateLimits(env.DB, [
    [RATE_LIMITS.verificationPerUser, user.id],
    [RATE_LIMITS.verificationPerIp, meta.ip],
  ]);
  const delivery = await sendVerificationEmail(env, user);
  if (!delivery.sent) throw new ServiceError(422, SUPPRESSED_MESSAGES[delivery.suppressed.reason]);
}

/** Verifies from the link's uid and signed token; a bare uid never verifies an account. */
export async function verifyEmail(env: Env, uid: string, token: string) {
  const claims = await verifyToken(tokenSettings(env), "verifyEmail", token, VERIFY_EMAIL_TTL_SECONDS);
  if (!claims || claims.sub !== uid) throw new ServiceError(400, "This verification link is invalid or has expired.", "token");
  const db = database(env.DB);
  const updated = await db
    .update(users)
    .set({ isEmailVerified: true, updatedAt: Date.now() })
    .where(and(eq(users.id, uid), eq(users.email, String(claims.email))))
    .returning({ id: users.id });
  if (updated.length === 0) throw new ServiceError(400, "This verification link is invalid or has expired.", "token");
}

export { revokeAllSessions };
