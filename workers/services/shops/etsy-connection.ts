import { and, eq, isNull, lt } from "drizzle-orm";
import { ETSY_DEFAULT_RETURN, ETSY_LISTINGS_ERROR, ETSY_SCOPES } from "../../../contracts/shops/etsy.ts";
import { sameSitePath } from "../../../contracts/paths.ts";
import { PRODUCTS_PER_PAGE, type ShopListingsPage } from "../../../contracts/shops/shops.ts";
import { seal, unseal } from "../../auth/sealed.ts";
import { randomToken, sha256Hex } from "../../auth/tokens.ts";
import { database } from "../../db/client.ts";
import { waitInWords } from "../../domain/waiting.ts";
import { etsyOauthStates, shopProfiles } from "../../db/schema.ts";
import type { Env } from "../../env.ts";
import { EtsyApiError, EtsyClient, forgetEtsyShop, pkcePair, type EtsyTokens } from "../../integrations/etsy.ts";
import type { User } from "../accounts/accounts.ts";
import { ServiceError } from "../core/errors.ts";
import { markShopNeedsReconnect, onShopRemoved, saveShopConnection, shopCredentials, shopProfileOf, updateShopCredentials, type ShopProfile } from "./shops.ts";

/**
 * Connecting an Etsy shop and reading its listings (decision 028): OAuth 2.0
 * with PKCE, the state bound to the browser that started it (decision 018),
 * the code verifier kept on the server, Etsy's tokens sealed in the shop's
 * row (decision 027) and refreshed when they expire (an hour).
 */

/** Etsy's tokens as the shop's row keeps them. */
export type EtsyCredentials = EtsyTokens;

export const ETSY_CALLBACK_PATH = "/api/etsyAPI/oauthCallback";
const STATE_TTL_MS = 10 * 60_000;
const VERIFIER_PURPOSE = "etsy-pkce";
/** Refresh the access token when it has less than this left. */
const REFRESH_MARGIN_MS = 2 * 60_000;
/** How long a refused refresh looks for tokens another request is storing, before asking the user to reconnect. */
const REFRESH_RACE_MS = 1_500;

export const ETSY_OTHER_BROWSER_MESSAGE = "This Etsy connection was started in another browser. Please connect again from your account here.";
export const ETSY_STATE_EXPIRED_MESSAGE = "This Etsy connection link has expired. Please connect again.";
export const ETSY_NOT_GRANTED_MESSAGE = "Etsy access was not granted.";
export const ETSY_CONNECT_FAILED_MESSAGE = "We were unable to connect to your Etsy shop. Please try again.";
export const ETSY_NO_SHOP_MESSAGE = "This Etsy account has no shop yet. Open your shop on Etsy, then connect again.";
export const ETSY_RECONNECT_REASON = "Etsy no longer accepts this connection. Please reconnect your Etsy shop.";

export function etsyClient(env: Env): EtsyClient {
  return new EtsyClient(env);
}

/** Where Etsy sends the user back to (registered as the Etsy app's callback URL). */
export function etsyCallbackUrl(env: Pick<Env, "APP_URL">): string {
  return new URL(ETSY_CALLBACK_PATH, env.APP_URL).toString();
}

/** The cookie that ties a connection to the browser that started it (one per state: two tabs may connect at once). */
export async function etsyBindingCookieName(state: string): Promise<string> {
  return `pb_etsy_${(await sha256Hex(`etsy binding\n${state}`)).slice(0, 16)}`;
}

// ------------------------------------------------------------------ connecting

/**
 * Starts a connection: a new state (kept hashed, one use, 10 minutes), bound
 * to a secret the browser keeps in an httpOnly cookie, and a PKCE pair whose
 * verifier stays here, sealed. Answers Etsy's authorization page, the state
 * (it names the cookie) and the browser's secret.
 */
export async function startEtsyConnection(env: Env, user: User, redirectUrl: string): Promise<{ authorizeUrl: string; state: string; binding: string }> {
  const path = sameSitePath(redirectUrl, env.APP_URL);
  if (!path) throw new ServiceError(400, "redirectUrl must be a path of this site, such as /products", "redirectUrl");
  const state = randomToken();
  const binding = randomToken();
  const stateHash = await sha256Hex(state);
  const { verifier, challenge } = await pkcePair();
  const db = database(env.DB);
  const now = Date.now();
  await db.batch([
    // The user's connections that were never finished are of no use once expired.
    db.delete(etsyOauthStates).where(and(eq(etsyOauthStates.userId, user.id), lt(etsyOauthStates.expiresAt, now))),
    db.insert(etsyOauthStates).values({
      stateHash,
      userId: user.id,
      redirectUrl: path,
      browserHash: await sha256Hex(binding),
      codeVerifierSealed: await seal(env.AUTH_SECRET, VERIFIER_PURPOSE, verifier, stateHash),
      expiresAt: now + STATE_TTL_MS,
    }),
  ]);
  const authorizeUrl = etsyClient(env).buildAuthorizeUrl({ state, codeChallenge: challenge, redirectUri: etsyCallbackUrl(env), scopes: ETSY_SCOPES });
  return { authorizeUrl, state, binding };
}

export interface EtsyCallbackOutcome {
  /** The page of this site to go back to (a normalised path). */
  redirectUrl: string;
  shopName?: string;
  error?: string;
}

function backTo(env: Pick<Env, "APP_URL">, redirectUrl: string | null | undefined): string {
  return (redirectUrl && sameSitePath(redirectUrl, env.APP_URL)) || ETSY_DEFAULT_RETURN;
}

/**
 * Etsy's callback: claims the state (known, unused, unexpired, and started by
 * this browser: `binding` reads its cookie), exchanges the code with the
 * state's verifier, reads the user's shop and saves the connection. A state
 * arriving in another browser connects nothing and stays unused.
 */
export async function completeEtsyConnection(
  env: Env,
  query: { code?: string; state?: string; error?: string },
  binding: (state: string) => Promise<string | undefined>,
): Promise<EtsyCallbackOutcome> {
  const db = database(env.DB);
  if (!query.state) return { redirectUrl: ETSY_DEFAULT_RETURN, error: ETSY_STATE_EXPIRED_MESSAGE };
  const stateHash = await sha256Hex(query.state);
  const secret = await binding(query.state);
  const [claimed] = secret
    ? await db
        .update(etsyOauthStates)
        .set({ usedAt: Date.now() })
        .where(and(eq(etsyOauthStates.stateHash, stateHash), isNull(etsyOauthStates.usedAt), eq(etsyOauthStates.browserHash, await sha256Hex(secret))))
        .returning()
    : [];
  if (!claimed) {
    const known = await db.query.etsyOauthStates.findFirst({ where: eq(etsyOauthStates.stateHash, stateHash) });
    if (known && !known.usedAt && known.expiresAt >= Date.now()) {
      console.warn("Etsy OAuth callback refused: the state was started in another browser", { userId: known.userId });
      return { redirectUrl: ETSY_DEFAULT_RETURN, error: ETSY_OTHER_BROWSER_MESSAGE };
    }
    return { redirectUrl: backTo(env, known?.redirectUrl), error: ETSY_STATE_EXPIRED_MESSAGE };
  }
  const redirectUrl = backTo(env, claimed.redirectUrl);
  if (claimed.expiresAt < Date.now()) return { redirectUrl, error: ETSY_STATE_EXPIRED_MESSAGE };
  if (query.error || !query.code) return { redirectUrl, error: ETSY_NOT_GRANTED_MESSAGE };
  const verifier = await unseal(env.AUTH_SECRET, VERIFIER_PURPOSE, claimed.codeVerifierSealed, stateHash);
  if (!verifier) return { redirectUrl, error: ETSY_CONNECT_FAILED_MESSAGE };
  const client = etsyClient(env);
  try {
    const tokens = await client.exchangeCode(query.code, verifier, etsyCallbackUrl(env));
    const shop = await client.shopOfUser(tokens.accessToken, tokens.etsyUserId);
    await saveShopConnection<EtsyCredentials>(env, claimed.userId, {
      shopType: "Etsy",
      shopId: String(shop.shop_id),
      shopName: shop.shop_name,
      shopUrl: shop.url || null,
      credentials: tokens,
      scopes: ETSY_SCOPES.join(" "),
    });
    return { redirectUrl, shopName: shop.shop_name };
  } catch (error) {
    if (!(error instanceof EtsyApiError)) throw error;
    if (error.operation === "users/shops" && error.kind === "not_found") return { redirectUrl, error: ETSY_NO_SHOP_MESSAGE };
    console.error("Etsy OAuth callback failed", error.operation, error.status, error.message);
    return { redirectUrl, error: ETSY_CONNECT_FAILED_MESSAGE };
  }
}

// ------------------------------------------------------------------ tokens

/** The shop's stored credentials as they are now (another request may have refreshed them). */
async function currentProfile(env: Env, profile: ShopProfile): Promise<ShopProfile | undefined> {
  return database(env.DB).query.shopProfiles.findFirst({ where: eq(shopProfiles.id, profile.id) });
}

/** The shop's row when another request stored new credentials since `profile` was read, looking for up to `withinMs`. */
async function refreshedMeanwhile(env: Env, profile: ShopProfile, withinMs: number): Promise<ShopProfile | undefined> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const current = await currentProfile(env, profile);
    if (current && current.credentialsSealed !== profile.credentialsSealed) return current;
    if (Date.now() >= deadline) return undefined;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function needsReconnect(env: Env, profile: ShopProfile): Promise<never> {
  await markShopNeedsReconnect(env, profile);
  profile.status = "reauth";
  throw new ServiceError(401, `${ETSY_LISTINGS_ERROR}${ETSY_RECONNECT_REASON}`);
}

/**
 * A working access token for the shop: refreshed first when it has (nearly)
 * expired, or when `force` says Etsy refused it. A refresh token Etsy refuses
 * marks the shop for reconnecting, unless another request refreshed meanwhile
 * (then its tokens are used).
 */
async function etsyAccessToken(env: Env, profile: ShopProfile, force = false): Promise<string> {
  if (profile.status === "reauth") throw new ServiceError(401, `${ETSY_LISTINGS_ERROR}${ETSY_RECONNECT_REASON}`);
  const credentials = await shopCredentials<EtsyCredentials>(env, profile);
  if (!credentials?.refreshToken) return needsReconnect(env, profile);
  if (!force && credentials.expiresAt - Date.now() > REFRESH_MARGIN_MS) return credentials.accessToken;
  let tokens: EtsyTokens;
  try {
    tokens = await etsyClient(env).refreshToken(credentials.refreshToken);
  } catch (error) {
    if (!(error instanceof EtsyApiError)) throw error;
    const refusedGrant = error.kind === "invalid_grant" || error.kind === "unauthorized";
    // Etsy's refresh token is good once: another request may have used it a moment ago and be storing its tokens.
    const current = await refreshedMeanwhile(env, profile, refusedGrant ? REFRESH_RACE_MS : 0);
    if (current) {
      Object.assign(profile, current);
      return etsyAccessToken(env, profile);
    }
    if (refusedGrant) return needsReconnect(env, profile);
    throw listingsFailure(error);
  }
  await updateShopCredentials<EtsyCredentials>(env, profile, tokens);
  const stored = await currentProfile(env, profile);
  if (stored) Object.assign(profile, stored);
  return tokens.accessToken;
}

/** Runs an Etsy call with the shop's token; on 401 the token is refreshed once and the call tried again. */
async function withEtsy<T>(env: Env, profile: ShopProfile, call: (client: EtsyClient, accessToken: string) => Promise<T>): Promise<T> {
  const client = etsyClient(env);
  for (let attempt = 0; ; attempt += 1) {
    const token = await etsyAccessToken(env, profile, attempt > 0);
    try {
      return await call(client, token);
    } catch (error) {
      if (!(error instanceof EtsyApiError)) throw error;
      if (error.kind === "unauthorized") {
        if (attempt === 0) continue;
        return needsReconnect(env, profile);
      }
      throw listingsFailure(error);
    }
  }
}

/** An Etsy failure in plain words, after 'Unable to get Etsy shop listings: ' (spec section 8). */
function listingsFailure(error: EtsyApiError): ServiceError {
  const fail = (status: ServiceError["status"], reason: string, details?: Record<string, string>) =>
    new ServiceError(status, `${ETSY_LISTINGS_ERROR}${reason}`, undefined, details);
  switch (error.kind) {
    case "rate_limited":
      if (error.retryAfterSeconds === null) return fail(429, "Etsy's daily limit of requests for this shop has been reached. Please try again later.");
      return fail(429, `Etsy is receiving too many requests for this shop. Please try again in ${waitInWords(error.retryAfterSeconds)}.`, {
        retryAfterSeconds: String(error.retryAfterSeconds),
      });
    case "timeout":
      return fail(502, "Etsy took too long to answer. Please try again.");
    case "network":
      return fail(502, "Etsy could not be reached. Please try again in a few minutes.");
    case "server":
      return fail(502, "Etsy is not answering right now. Please try again in a few minutes.");
    case "not_found":
      return fail(404, "Etsy no longer finds this shop. Please reconnect your Etsy shop.");
    default:
      console.error("Etsy refused a call", error.operation, error.status, error.message);
      return fail(502, "Etsy refused the request. Please try again later.");
  }
}

// ------------------------------------------------------------------ listings

/**
 * GET /api/etsyAPI/getEtsyShopListings: one page (1-based, 50 a page) of the
 * caller's Etsy shop's active listings, optionally matching `searchInput`.
 */
export async function etsyShopListings(
  env: Env,
  userId: string,
  query: { shopID: string; pageNumber: number; searchInput: string },
): Promise<ShopListingsPage> {
  let profile: ShopProfile;
  try {
    profile = await shopProfileOf(env, userId, query.shopID);
  } catch (error) {
    if (error instanceof ServiceError) throw new ServiceError(error.status, `${ETSY_LISTINGS_ERROR}${error.message}`, error.field);
    throw error;
  }
  if (profile.shopType !== "Etsy") throw new ServiceError(400, `${ETSY_LISTINGS_ERROR}That shop is not an Etsy shop.`, "shopID");
  const page = { limit: PRODUCTS_PER_PAGE, offset: (query.pageNumber - 1) * PRODUCTS_PER_PAGE, keywords: query.searchInput || undefined };
  const { count, listings } = await withEtsy(env, profile, (client, token) => client.listingsPage(token, profile.shopId, page));
  return { listings, count };
}

// Etsy has no endpoint to revoke a token: removing the shop deletes our copy of its tokens
// (shop_profiles), and what this isolate remembers of its rate limits. The tokens lapse on
// their own (the access token in an hour); the shop owner can also remove the app on Etsy.
onShopRemoved("Etsy", async (env, profile) => {
  const credentials = await shopCredentials<EtsyCredentials>(env, profile);
  if (credentials) forgetEtsyShop(credentials.etsyUserId, profile.shopId);
});
