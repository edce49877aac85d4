import { and, asc, eq, isNull, lt, ne } from "drizzle-orm";
import * as v from "valibot";
import type { PinterestBoard, PinterestBoardSection } from "../../../contracts/pinterest/pinterest.ts";
import {
  BLOCKED_MESSAGE,
  REAUTHENTICATE_MESSAGE,
  type ActivateResponse,
  type AuthorizedPinterestProfile,
} from "../../../contracts/pinterest/pinterest-connection.ts";
import { defaultSchedulingSettings, SchedulingSettings } from "../../../contracts/pinterest/scheduling.ts";
import { sameSitePath } from "../../../contracts/paths.ts";
import { seal, unseal } from "../../auth/sealed.ts";
import { randomToken, sha256Hex, signToken, verifyToken } from "../../auth/tokens.ts";
import { database } from "../../db/client.ts";
import { pinHistory, pinterestOauthStates, pinterestProfiles } from "../../db/schema.ts";
import type { Env } from "../../env.ts";
import { ledgerOf } from "../../ledger/client.ts";
import { PinterestApiError, PinterestClient, type PinterestTokens } from "../../integrations/pinterest.ts";
import { tokenSettings, type User } from "../accounts/accounts.ts";
import { ServiceError } from "../core/errors.ts";
import { tickOnboardingStep } from "../accounts/onboarding.ts";
import { schedulerFor } from "./scheduler-index.ts";

/**
 * Connected Pinterest profiles: the OAuth connection, Pinterest's tokens
 * sealed at rest and kept fresh (each refresh stores the new refresh token),
 * and the short-lived handles the browser uses instead of those tokens.
 */

export type PinterestProfile = typeof pinterestProfiles.$inferSelect;

const SEAL_PURPOSE = "pinterest-token";
const STATE_TTL_MS = 10 * 60_000;
/** Refresh Pinterest's access token when it has less than this left. */
const REFRESH_MARGIN_MS = 10 * 60_000;
/** The background refresh renews tokens this long before they expire. */
export const BACKGROUND_REFRESH_AHEAD_MS = 3 * 24 * 60 * 60_000;
export const HANDLE_TTL_SECONDS = 60 * 60;
const REFRESH_HANDLE_TTL_SECONDS = 30 * 24 * 60 * 60;

export function pinterestClient(env: Env): PinterestClient {
  return new PinterestClient(env);
}

/** Where Pinterest sends the user back to (registered with the Pinterest app). */
export function oauthCallbackUrl(env: Pick<Env, "APP_URL">): string {
  return new URL("/api/pinterestAPI/oauthCallback", env.APP_URL).toString();
}

// ------------------------------------------------------------------ connecting

/** The cookie that ties a connection to the browser that started it (one per state, so two tabs may connect at once). */
export function oauthBindingCookieName(stateCheck: string): Promise<string> {
  return sha256Hex(`binding\n${stateCheck}`).then((hash) => `pb_pinterest_${hash.slice(0, 16)}`);
}

export const OTHER_BROWSER_MESSAGE = "This Pinterest connection was started in another browser. Please connect again from your account here.";
export const STATE_EXPIRED_MESSAGE = "This Pinterest connection link has expired. Please connect again.";

/** The page to go back to: a path of this site (normalised), else /scheduling. */
function backTo(env: Pick<Env, "APP_URL">, redirectUrl: string | null | undefined): string {
  return (redirectUrl && sameSitePath(redirectUrl, env.APP_URL)) || "/scheduling";
}

/**
 * Records the browser's state check (hashed, one use, 10 minutes), bound to a
 * secret the browser keeps in an httpOnly cookie (`binding`): the callback
 * connects only in the browser that started it. Answers Pinterest's
 * authorization page and the binding secret.
 */
export async function recordStateCheck(env: Env, user: User, stateCheck: string, redirectUrl: string): Promise<{ authorizeUrl: string; binding: string }> {
  const path = sameSitePath(redirectUrl, env.APP_URL);
  if (!path) throw new ServiceError(400, "redirectUrl must be a path of this site, such as /scheduling", "redirectUrl");
  const binding = randomToken();
  const inserted = await database(env.DB)
    .insert(pinterestOauthStates)
    .values({
      stateHash: await sha256Hex(stateCheck),
      userId: user.id,
      redirectUrl: path,
      browserHash: await sha256Hex(binding),
      expiresAt: Date.now() + STATE_TTL_MS,
    })
    .onConflictDoNothing()
    .returning({ stateHash: pinterestOauthStates.stateHash });
  if (inserted.length === 0) throw new ServiceError(409, "This state check was used before. Please try connecting again.", "stateCheck");
  return { authorizeUrl: pinterestClient(env).buildAuthorizeUrl(stateCheck, oauthCallbackUrl(env)), binding };
}

export interface CallbackOutcome {
  /** The page of this site to go back to (a normalised path). */
  redirectUrl: string;
  username?: string;
  error?: string;
}

/**
 * The OAuth callback: checks the state (known, unused, not expired: it names
 * the user) and that this browser started it (`binding`, from its cookie),
 * exchanges the code, reads the account and stores the profile. A state
 * arriving in another browser connects nothing and stays unused.
 */
export async function completeOAuth(
  env: Env,
  query: { code?: string; state?: string; error?: string },
  binding: (stateCheck: string) => Promise<string | undefined>,
): Promise<CallbackOutcome> {
  const db = database(env.DB);
  if (!query.state) return { redirectUrl: "/scheduling", error: "The Pinterest connection was not started here. Please try again." };
  const stateHash = await sha256Hex(query.state);
  const secret = await binding(query.state);
  const browserHash = secret ? await sha256Hex(secret) : null;
  const [claimed] = browserHash
    ? await db
        .update(pinterestOauthStates)
        .set({ usedAt: Date.now() })
        .where(and(eq(pinterestOauthStates.stateHash, stateHash), isNull(pinterestOauthStates.usedAt), eq(pinterestOauthStates.browserHash, browserHash)))
        .returning()
    : [];
  if (!claimed) {
    const known = await db.query.pinterestOauthStates.findFirst({ where: eq(pinterestOauthStates.stateHash, stateHash) });
    if (known && !known.usedAt && known.expiresAt >= Date.now()) {
      console.warn("Pinterest OAuth callback refused: the state was started in another browser", { userId: known.userId });
      return { redirectUrl: "/scheduling", error: OTHER_BROWSER_MESSAGE };
    }
    return { redirectUrl: backTo(env, known?.redirectUrl), error: STATE_EXPIRED_MESSAGE };
  }
  const redirectUrl = backTo(env, claimed.redirectUrl);
  if (claimed.expiresAt < Date.now()) return { redirectUrl, error: STATE_EXPIRED_MESSAGE };
  if (query.error || !query.code) return { redirectUrl, error: "Pinterest access was not granted." };
  const client = pinterestClient(env);
  try {
    const tokens = await client.exchangeCode(query.code, oauthCallbackUrl(env));
    const account = await client.getUserAccount(tokens.accessToken);
    if (!account.username)
      throw new PinterestApiError({
        operation: "user_account/get",
        kind: "unexpected",
        status: 200,
        message: "Pinterest did not say which account was connected.",
      });
    await saveConnection(env, claimed.userId, account.username, account, tokens);
    await tickOnboardingStep(env.DB, claimed.userId, "connectPinterest");
    return { redirectUrl, username: account.username };
  } catch (error) {
    if (!(error instanceof PinterestApiError)) throw error;
    console.error("Pinterest OAuth callback failed", error.operation, error.status, error.message);
    return { redirectUrl, error: "We were unable to connect to your Pinterest profile. Please try again." };
  }
}

async function saveConnection(
  env: Env,
  userId: string,
  username: string,
  account: { account_type?: string | null; profile_image?: string | null },
  tokens: PinterestTokens,
) {
  const db = database(env.DB);
  const existing = await db.query.pinterestProfiles.findFirst({ where: and(eq(pinterestProfiles.userId, userId), eq(pinterestProfiles.username, username)) });
  const id = existing?.id ?? crypto.randomUUID();
  const hasActive = await db.query.pinterestProfiles.findFirst({
    where: and(eq(pinterestProfiles.userId, userId), eq(pinterestProfiles.isActive, true)),
    columns: { id: true },
  });
  const sealed = {
    accessTokenSealed: await seal(env.AUTH_SECRET, SEAL_PURPOSE, tokens.accessToken, `${id}:access`),
    refreshTokenSealed: await seal(env.AUTH_SECRET, SEAL_PURPOSE, tokens.refreshToken ?? "", `${id}:refresh`),
    accessExpiresAt: tokens.accessTokenExpiresAt,
    refreshExpiresAt: tokens.refreshTokenExpiresAt ?? tokens.accessTokenExpiresAt,
    scopes: tokens.scopes.join(","),
  };
  const now = Date.now();
  if (existing) {
    await db
      .update(pinterestProfiles)
      .set({ ...sealed, status: "ok", lastError: null, accountType: account.account_type ?? null, profileImage: account.profile_image ?? null, updatedAt: now })
      .where(eq(pinterestProfiles.id, id));
  } else {
    await db.insert(pinterestProfiles).values({
      id,
      userId,
      username,
      ...sealed,
      accountType: account.account_type ?? null,
      profileImage: account.profile_image ?? null,
      isActive: !hasActive,
      schedulingSettings: defaultSchedulingSettings(),
      updatedAt: now,
    });
  }
}

// ------------------------------------------------------------------ tokens

async function openToken(env: Env, profile: PinterestProfile, which: "access" | "refresh"): Promise<string | null> {
  return unseal(env.AUTH_SECRET, SEAL_PURPOSE, which === "access" ? profile.accessTokenSealed : profile.refreshTokenSealed, `${profile.id}:${which}`);
}

async function markProfile(env: Env, profile: PinterestProfile, status: PinterestProfile["status"], lastError: string) {
  await database(env.DB).update(pinterestProfiles).set({ status, lastError, updatedAt: Date.now() }).where(eq(pinterestProfiles.id, profile.id));
  profile.status = status;
  profile.lastError = lastError;
}

/**
 * A working access token for the profile, refreshed when (nearly) expired or
 * when `force` says Pinterest refused it. Refresh tokens rotate: the new one
 * is stored only if the row still holds the one we used, so two refreshes at
 * once never lose a token (the loser reads the winner's).
 */
export async function accessTokenFor(env: Env, profile: PinterestProfile, force = false): Promise<string> {
  if (profile.status === "blocked") throw new ServiceError(423, BLOCKED_MESSAGE);
  if (profile.status === "reauth") throw new ServiceError(401, REAUTHENTICATE_MESSAGE);
  if (!force && profile.accessExpiresAt - Date.now() > REFRESH_MARGIN_MS) {
    const token = await openToken(env, profile, "access");
    if (token) return token;
  }
  const refreshToken = await openToken(env, profile, "refresh");
  if (!refreshToken || profile.refreshExpiresAt < Date.now()) {
    await markProfile(env, profile, "reauth", "The Pinterest connection expired.");
    throw new ServiceError(401, REAUTHENTICATE_MESSAGE);
  }
  const db = database(env.DB);
  let tokens: PinterestTokens;
  try {
    tokens = await pinterestClient(env).refreshToken(refreshToken);
  } catch (error) {
    if (!(error instanceof PinterestApiError)) throw error;
    const current = await db.query.pinterestProfiles.findFirst({ where: eq(pinterestProfiles.id, profile.id) });
    if (current && current.refreshTokenSealed !== profile.refreshTokenSealed) {
      // Someone else refreshed meanwhile: use their token.
      Object.assign(profile, current);
      return accessTokenFor(env, profile);
    }
    if (error.kind === "invalid_grant" || error.status === 401) {
      await markProfile(env, profile, "reauth", "Pinterest no longer accepts this connection.");
      throw new ServiceError(401, REAUTHENTICATE_MESSAGE);
    }
    throw providerFailure(error);
  }
  const update = {
    accessTokenSealed: await seal(env.AUTH_SECRET, SEAL_PURPOSE, tokens.accessToken, `${profile.id}:access`),
    refreshTokenSealed: tokens.refreshToken
      ? await seal(env.AUTH_SECRET, SEAL_PURPOSE, tokens.refreshToken, `${profile.id}:refresh`)
      : profile.refreshTokenSealed,
    accessExpiresAt: tokens.accessTokenExpiresAt,
    refreshExpiresAt: tokens.refreshTokenExpiresAt ?? profile.refreshExpiresAt,
    updatedAt: Date.now(),
  };
  const [stored] = await db
    .update(pinterestProfiles)
    .set(update)
    .where(and(eq(pinterestProfiles.id, profile.id), eq(pinterestProfiles.refreshTokenSealed, profile.refreshTokenSealed)))
    .returning();
  if (stored) Object.assign(profile, stored);
  return tokens.accessToken;
}

/** A Pinterest failure as the caller should see it. */
function providerFailure(error: PinterestApiError): ServiceError {
  if (error.kind === "rate_limited") return new ServiceError(429, "Pinterest is rate limiting this profile. Please try again in a minute.");
  if (error.kind === "bad_request" || error.kind === "not_found") return new ServiceError(400, `Pinterest refused the request: ${error.message}`);
  return new ServiceError(502, "Pinterest did not answer. Please try again.");
}

/**
 * Runs a Pinterest call with the profile's token: on 401 the token is
 * refreshed once and the call retried; a second 401 means the user must
 * reconnect; a blocked account answers 423.
 */
export async function withPinterest<T>(env: Env, profile: PinterestProfile, call: (client: PinterestClient, accessToken: string) => Promise<T>): Promise<T> {
  const client = pinterestClient(env);
  for (let attempt = 0; ; attempt += 1) {
    const token = await accessTokenFor(env, profile, attempt > 0);
    try {
      return await call(client, token);
    } catch (error) {
      if (!(error instanceof PinterestApiError)) throw error;
      if (error.blocked) {
        await markProfile(env, profile, "blocked", error.message);
        throw new ServiceError(423, BLOCKED_MESSAGE);
      }
      if (error.kind === "unauthorized") {
        if (attempt === 0) continue;
        await markProfile(env, profile, "reauth", error.message);
        throw new ServiceError(401, REAUTHENTICATE_MESSAGE);
      }
      throw providerFailure(error);
    }
  }
}

// ------------------------------------------------------------------ handles for the browser

async function issueHandles(env: Env, user: User, profile: PinterestProfile) {
  const settings = tokenSettings(env);
  const authToken = await signToken(settings, "pinterest", { pid: profile.id }, user.id, HANDLE_TTL_SECONDS);
  const refreshToken = await signToken(settings, "pinterestRefresh", { pid: profile.id }, user.id, REFRESH_HANDLE_TTL_SECONDS);
  return { authToken, refreshToken, expiresAt: Date.now() + HANDLE_TTL_SECONDS * 1000 };
}

/** The caller's profile named by a handle; 401 for an expired handle or one of another user. */
export async function profileOfHandle(env: Env, user: User, handle: string, kind: "pinterest" | "pinterestRefresh" = "pinterest"): Promise<PinterestProfile> {
  const ttl = kind === "pinterest" ? HANDLE_TTL_SECONDS : REFRESH_HANDLE_TTL_SECONDS;
  const claims = await verifyToken(tokenSettings(env), kind, handle, ttl);
  if (!claims || claims.sub !== user.id || typeof claims.pid !== "string") {
    throw new ServiceError(401, "The Pinterest access token has expired.", kind === "pinterest" ? "access_token" : "refresh_token");
  }
  const profile = await database(env.DB).query.pinterestProfiles.findFirst({
    where: and(eq(pinterestProfiles.id, claims.pid), eq(pinterestProfiles.userId, user.id)),
  });
  if (!profile) throw new ServiceError(401, REAUTHENTICATE_MESSAGE);
  return profile;
}

export async function refreshHandle(env: Env, user: User, refreshHandleToken: string) {
  const profile = await profileOfHandle(env, user, refreshHandleToken, "pinterestRefresh");
  if (profile.status === "blocked") throw new ServiceError(423, BLOCKED_MESSAGE);
  if (profile.status === "reauth") throw new ServiceError(401, REAUTHENTICATE_MESSAGE);
  return issueHandles(env, user, profile);
}

// ------------------------------------------------------------------ profiles

/** The user's profiles, oldest connection first: a query to await, or to send in a batch with others (one D1 round trip). */
export function profilesQuery(env: Env, userId: string) {
  return database(env.DB).query.pinterestProfiles.findMany({ where: eq(pinterestProfiles.userId, userId), orderBy: asc(pinterestProfiles.createdAt) });
}

export async function listProfiles(env: Env, userId: string): Promise<PinterestProfile[]> {
  return profilesQuery(env, userId);
}

export function profileView(profile: PinterestProfile): AuthorizedPinterestProfile {
  return { username: profile.username, isActive: profile.isActive, status: profile.status, profileImage: profile.profileImage };
}

export async function authorizedProfiles(env: Env, userId: string): Promise<AuthorizedPinterestProfile[]> {
  return (await listProfiles(env, userId)).map(profileView);
}

async function profileNamed(env: Env, user: User, username: string): Promise<PinterestProfile> {
  const profile = await database(env.DB).query.pinterestProfiles.findFirst({
    where: and(eq(pinterestProfiles.userId, user.id), eq(pinterestProfiles.username, username)),
  });
  if (!profile) throw new ServiceError(404, `No Pinterest profile named ${username} is connected.`, "username");
  return profile;
}

export function schedulingSettingsOf(profile: PinterestProfile): SchedulingSettings {
  const parsed = v.safeParse(SchedulingSettings, profile.schedulingSettings ?? {});
  return parsed.success ? parsed.output : defaultSchedulingSettings();
}

/**
 * Makes a profile the active one after checking Pinterest still accepts it
 * (401 'User needs to reauthenticate', 423 'Pinterest profile is blocked').
 */
export async function activateProfile(env: Env, user: User, username: string): Promise<ActivateResponse> {
  const profile = await profileNamed(env, user, username);
  const account = await withPinterest(env, profile, (client, token) => client.getUserAccount(token));
  const db = database(env.DB);
  const now = Date.now();
  await db.batch([
    db
      .update(pinterestProfiles)
      .set({ isActive: false })
      .where(and(eq(pinterestProfiles.userId, user.id), ne(pinterestProfiles.id, profile.id))),
    db
      .update(pinterestProfiles)
      .set({ isActive: true, profileImage: account.profile_image ?? profile.profileImage, updatedAt: now })
      .where(eq(pinterestProfiles.id, profile.id)),
  ]);
  return {
    ...(await issueHandles(env, user, profile)),
    schedulingSettings: schedulingSettingsOf(profile),
    authorizedPinterestProfiles: await authorizedProfiles(env, user.id),
  };
}

export async function removeProfile(env: Env, user: User, username: string): Promise<AuthorizedPinterestProfile[]> {
  const profile = await profileNamed(env, user, username);
  const db = database(env.DB);
  await db.delete(pinterestProfiles).where(eq(pinterestProfiles.id, profile.id));
  // Its queue is cleared with it: the pins still waiting there will not post (decision 066; the partial index
  // pin_history_waiting reads only them, however long the history). Should this fail, the history page still
  // shows them deleted: it reads a waiting pin of a profile no longer connected as deleted.
  await ledgerOf(env, user.id)
    .db.update(pinHistory)
    .set({ queueState: "deleted", queueError: null })
    .where(
      and(eq(pinHistory.userId, user.id), eq(pinHistory.pinterestProfile, profile.username), eq(pinHistory.action, "scheduled"), isNull(pinHistory.postedAt)),
    );
  await schedulerFor(env, profile.id).clear();
  if (profile.isActive) {
    const next = (await listProfiles(env, user.id))[0];
    if (next) await db.update(pinterestProfiles).set({ isActive: true }).where(eq(pinterestProfiles.id, next.id));
  }
  return authorizedProfiles(env, user.id);
}

export async function failingProfiles(env: Env, userId: string) {
  return (await listProfiles(env, userId)).filter((p) => p.status !== "ok").map((p) => ({ username: p.username, status: p.status, reason: p.lastError ?? "" }));
}

// ------------------------------------------------------------------ boards

export async function allBoards(env: Env, user: User, handle: string): Promise<PinterestBoard[]> {
  return profileBoards(env, await profileOfHandle(env, user, handle));
}

/** Every board of one of the caller's profiles (the caller checked whose it is). */
export function profileBoards(env: Env, profile: PinterestProfile): Promise<PinterestBoard[]> {
  return withPinterest(env, profile, (client, token) => client.listAllBoards(token, { pageSize: 250 }));
}

export async function boardSections(env: Env, user: User, handle: string, boardId: string): Promise<PinterestBoardSection[]> {
  const profile = await profileOfHandle(env, user, handle);
  return withPinterest(env, profile, (client, token) => client.listSections(token, boardId, { pageSize: 250 }));
}

export async function createBoard(env: Env, user: User, handle: string, board: { boardName: string; boardDescription: string }): Promise<PinterestBoard> {
  const profile = await profileOfHandle(env, user, handle);
  return withPinterest(env, profile, (client, token) => client.createBoard(token, { name: board.boardName, description: board.boardDescription || undefined }));
}

// ------------------------------------------------------------------ background refresh

/** Renews access tokens that expire within three days (cron). Answers how many were renewed. */
export async function refreshExpiringTokens(env: Env, now = Date.now(), limit = 50): Promise<{ refreshed: number; failed: number }> {
  const due = await database(env.DB).query.pinterestProfiles.findMany({
    where: and(eq(pinterestProfiles.status, "ok"), lt(pinterestProfiles.accessExpiresAt, now + BACKGROUND_REFRESH_AHEAD_MS)),
    orderBy: asc(pinterestProfiles.accessExpiresAt),
    limit,
  });
  let refreshed = 0;
  let failed = 0;
  for (const profile of due) {
    try {
      await accessTokenFor(env, profile, true);
      refreshed += 1;
    } catch (error) {
      failed += 1;
      console.warn(`Background refresh of Pinterest profile ${profile.id} failed:`, error instanceof Error ? error.message : error);
    }
  }
  return { refreshed, failed };
}
