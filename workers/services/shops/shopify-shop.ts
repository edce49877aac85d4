import { and, eq, gt, isNull, lt } from "drizzle-orm";
import type * as v from "valibot";
import { sameSitePath } from "../../../contracts/paths.ts";
import { PRODUCTS_PER_PAGE, type ShopListingsPage } from "../../../contracts/shops/shops.ts";
import {
  SHOP_DOMAIN_PATTERN,
  SHOPIFY_RECONNECT_MESSAGE,
  shopListingsError,
  type AnonymousShopifyEntry,
  type ShopifyListingsFromTokenQuery,
  type ShopifyListingsQuery,
} from "../../../contracts/shops/shopify-shop.ts";
import { seal, unseal } from "../../auth/sealed.ts";
import { randomToken, sha256Hex } from "../../auth/tokens.ts";
import { database } from "../../db/client.ts";
import { shopifyAnonymousInstalls, shopifyOauthStates } from "../../db/schema.ts";
import type { Env } from "../../env.ts";
import * as admin from "../../integrations/shopify-admin.ts";
import { ShopifyError } from "../../integrations/shopify.ts";
import type { User } from "../accounts/accounts.ts";
import { ServiceError } from "../core/errors.ts";
import { markShopNeedsReconnect, onShopRemoved, saveShopConnection, shopCredentials, shopProfileOf, type ShopProfile } from "./shops.ts";

/**
 * Shopify stores connected by the app install flow (Shopify's authorization
 * code grant; docs/decisions/029-shopify-store-connection.md) and their
 * products. Two ways in:
 * - from our pages: the user names their store, `recordShopifyStateCheck`
 *   records the browser's state (bound to this browser by an httpOnly cookie,
 *   as Pinterest's, decision 018) and answers Shopify's authorization page;
 * - from Shopify's side (the App Store, an install link): Shopify opens our App
 *   URL with shop, timestamp and hmac; we check the HMAC and start the same
 *   flow with a state of our own, for the signed-in user or, when nobody is
 *   signed in, for the anonymous entry that the account signing up or logging
 *   in next in this browser receives.
 * The callback checks the HMAC (constant time), the state, this browser, and
 * that the store is the one the state was for, then exchanges the code for an
 * offline token, sealed at rest in shop_profiles (decision 027).
 */

const STATE_TTL_MS = 10 * 60_000;
/** How long an install begun on Shopify's side waits for its owner to sign up or log in. */
export const ANONYMOUS_INSTALL_TTL_MS = 24 * 60 * 60_000;
/** Shopify's App URL requests older than this (or this far in the future) are refused. */
const INSTALL_REQUEST_MAX_AGE_S = 15 * 60;
const INSTALL_REQUEST_MAX_AHEAD_S = 60;
const ANONYMOUS_SEAL_PURPOSE = "shopify-anonymous-install";

export const SHOPIFY_CALLBACK_PATH = "/api/shopifyAPI/oauthCallback";
/** The cookie holding the anonymous entry's secret: sent to the sign-up, login and anonymousShop calls under /api. */
export const ANONYMOUS_INSTALL_COOKIE = "pb_shopify_install";

export const CONNECT_FAILED_MESSAGE = "We were unable to connect your Shopify store. Please try again.";
export const NOT_VERIFIED_MESSAGE = "This Shopify connection could not be verified. Please connect your store again.";
export const OTHER_BROWSER_MESSAGE = "This Shopify connection was started in another browser. Please connect again from your account here.";
export const STATE_EXPIRED_MESSAGE = "This Shopify connection link has expired. Please connect again.";
export const OTHER_STORE_MESSAGE = "Shopify answered for another store than the one you asked to connect. Please connect again.";

export function shopifyCallbackUrl(env: Pick<Env, "APP_URL">): string {
  return new URL(SHOPIFY_CALLBACK_PATH, env.APP_URL).toString();
}

/** The cookie that ties a connection to the browser that started it (one per state, so two tabs may connect at once). */
export function bindingCookieName(state: string): Promise<string> {
  return sha256Hex(`shopify-binding\n${state}`).then((hash) => `pb_shopify_${hash.slice(0, 16)}`);
}

async function recordState(
  env: Env,
  userId: string | null,
  shop: string,
  state: string,
  redirectUrl: string,
): Promise<{ authorizeUrl: string; binding: string }> {
  const binding = randomToken();
  const inserted = await database(env.DB)
    .insert(shopifyOauthStates)
    .values({ stateHash: await sha256Hex(state), userId, shop, redirectUrl, browserHash: await sha256Hex(binding), expiresAt: Date.now() + STATE_TTL_MS })
    .onConflictDoNothing()
    .returning({ stateHash: shopifyOauthStates.stateHash });
  if (inserted.length === 0) throw new ServiceError(409, "This state check was used before. Please try connecting again.", "stateCheck");
  return { authorizeUrl: admin.authorizeUrl(env, shop, state, shopifyCallbackUrl(env)), binding };
}

/**
 * POST /api/shopifyAPI/recordShopifyStateCheck: the browser's state (it keeps
 * it as ShopifyStateCheck), hashed, one use, 10 minutes, bound to a secret for
 * this browser's cookie; answers Shopify's authorization page on the store.
 */
export async function recordShopifyStateCheck(env: Env, user: User, input: { shop: string; stateCheck: string; redirectUrl: string }) {
  const path = sameSitePath(input.redirectUrl, env.APP_URL);
  if (!path) throw new ServiceError(400, "redirectUrl must be a path of this site, such as /products", "redirectUrl");
  return recordState(env, user.id, input.shop, input.stateCheck, path);
}

/**
 * GET /api/shopifyAPI/install (the App URL): Shopify opens it with shop,
 * timestamp and hmac when a merchant installs the app from Shopify's side.
 * Verified, it starts the authorization for the signed-in user, or for the
 * anonymous entry when nobody is signed in here.
 */
export async function startInstallFromShopify(env: Env, params: URLSearchParams, signedInUserId: string | null) {
  const shop = params.get("shop") ?? "";
  if (!SHOP_DOMAIN_PATTERN.test(shop)) throw new ServiceError(400, "shop must be a myshopify.com store address", "shop");
  if (!(await admin.verifyQueryHmac(env.SHOPIFY_CLIENT_SECRET, params))) {
    console.warn("Shopify install request with a bad HMAC refused", { shop });
    throw new ServiceError(400, "This request did not come from Shopify.", "hmac");
  }
  const timestamp = Number(params.get("timestamp"));
  const now = Date.now() / 1000;
  if (!Number.isFinite(timestamp) || timestamp < now - INSTALL_REQUEST_MAX_AGE_S || timestamp > now + INSTALL_REQUEST_MAX_AHEAD_S)
    throw new ServiceError(400, "This Shopify install link has expired. Please open the app from Shopify again.", "timestamp");
  const state = randomToken();
  const { authorizeUrl, binding } = await recordState(env, signedInUserId, shop, state, "/products");
  return { authorizeUrl, binding, state };
}

export interface InstallOutcome {
  /** The page of this site to go to (a normalised path). */
  redirectUrl: string;
  shopName?: string;
  error?: string;
  /** An install for nobody signed in: the anonymous entry's cookie value. */
  anonymousCookie?: string;
}

/**
 * GET /api/shopifyAPI/oauthCallback?code&hmac&host&shop&state&timestamp.
 * Nothing is saved unless the HMAC is Shopify's, the state is known, unused,
 * fresh and came back to the browser that started it, and `shop` is the
 * store the state was recorded for.
 */
export async function completeShopifyInstall(
  env: Env,
  params: URLSearchParams,
  binding: (state: string) => Promise<string | undefined>,
): Promise<InstallOutcome> {
  const shop = params.get("shop") ?? "";
  const state = params.get("state") ?? "";
  if (!(await admin.verifyQueryHmac(env.SHOPIFY_CLIENT_SECRET, params))) {
    console.warn("Shopify callback with a bad HMAC refused", { shop });
    return { redirectUrl: "/products", error: NOT_VERIFIED_MESSAGE };
  }
  if (!state) return { redirectUrl: "/products", error: NOT_VERIFIED_MESSAGE };
  const db = database(env.DB);
  const stateHash = await sha256Hex(state);
  const secret = await binding(state);
  const browserHash = secret ? await sha256Hex(secret) : null;
  const [claimed] = browserHash
    ? await db
        .update(shopifyOauthStates)
        .set({ usedAt: Date.now() })
        .where(and(eq(shopifyOauthStates.stateHash, stateHash), isNull(shopifyOauthStates.usedAt), eq(shopifyOauthStates.browserHash, browserHash)))
        .returning()
    : [];
  if (!claimed) {
    const known = await db.query.shopifyOauthStates.findFirst({ where: eq(shopifyOauthStates.stateHash, stateHash) });
    if (known && !known.usedAt && known.expiresAt >= Date.now()) {
      console.warn("Shopify callback refused: the state was started in another browser", { shop });
      return { redirectUrl: "/products", error: OTHER_BROWSER_MESSAGE };
    }
    return { redirectUrl: backTo(env, known?.redirectUrl), error: known ? STATE_EXPIRED_MESSAGE : NOT_VERIFIED_MESSAGE };
  }
  const redirectUrl = backTo(env, claimed.redirectUrl);
  if (claimed.expiresAt < Date.now()) return { redirectUrl, error: STATE_EXPIRED_MESSAGE };
  if (shop !== claimed.shop) {
    console.warn("Shopify callback for another store than the state's refused", { expected: claimed.shop, got: shop });
    return { redirectUrl, error: OTHER_STORE_MESSAGE };
  }
  const code = params.get("code");
  if (!code) return { redirectUrl, error: "Shopify access was not granted." };
  let credentials: admin.ShopifyCredentials;
  let details: admin.ShopDetails;
  try {
    credentials = await admin.exchangeCode(env, shop, code);
    details = await admin.shopDetails(env, shop, credentials.accessToken);
  } catch (error) {
    if (!(error instanceof ShopifyError)) throw error;
    console.error("Shopify install failed", { shop, kind: error.kind, status: error.status, details: error.details.slice(0, 300) });
    return { redirectUrl, error: CONNECT_FAILED_MESSAGE };
  }
  if (claimed.userId) {
    await connectStore(env, claimed.userId, shop, details, credentials);
    return { redirectUrl, shopName: details.name };
  }
  const anonymousCookie = await keepAnonymousInstall(env, shop, details, credentials);
  return { redirectUrl: "/signup", shopName: details.name, anonymousCookie };
}

function backTo(env: Pick<Env, "APP_URL">, redirectUrl: string | null | undefined): string {
  return (redirectUrl && sameSitePath(redirectUrl, env.APP_URL)) || "/products";
}

function connectStore(env: Env, userId: string, shop: string, details: admin.ShopDetails, credentials: admin.ShopifyCredentials) {
  return saveShopConnection<admin.ShopifyCredentials>(env, userId, {
    shopType: "Shopify",
    shopId: shop,
    shopName: details.name,
    shopUrl: details.url,
    credentials: { accessToken: credentials.accessToken, scope: credentials.scope },
    scopes: credentials.scope,
  });
}

// ------------------------------------------------------------------ the anonymous entry

/** Keeps an install nobody here is signed in for; answers the cookie value (`{id}.{secret}`) for this browser. */
async function keepAnonymousInstall(env: Env, shop: string, details: admin.ShopDetails, credentials: admin.ShopifyCredentials): Promise<string> {
  const db = database(env.DB);
  const id = crypto.randomUUID();
  const secret = randomToken();
  await db.delete(shopifyAnonymousInstalls).where(lt(shopifyAnonymousInstalls.expiresAt, Date.now()));
  await db.insert(shopifyAnonymousInstalls).values({
    id,
    secretHash: await sha256Hex(secret),
    shop,
    shopName: details.name,
    shopUrl: details.url,
    credentialsSealed: await seal(env.AUTH_SECRET, ANONYMOUS_SEAL_PURPOSE, JSON.stringify(credentials), id),
    scopes: credentials.scope,
    expiresAt: Date.now() + ANONYMOUS_INSTALL_TTL_MS,
  });
  return `${id}.${secret}`;
}

async function anonymousInstallOf(env: Env, cookie: string | undefined) {
  const [id, secret] = (cookie ?? "").split(".");
  if (!id || !secret || !/^[0-9a-f-]{36}$/.test(id)) return null;
  const row = await database(env.DB).query.shopifyAnonymousInstalls.findFirst({
    where: and(
      eq(shopifyAnonymousInstalls.id, id),
      eq(shopifyAnonymousInstalls.secretHash, await sha256Hex(secret)),
      gt(shopifyAnonymousInstalls.expiresAt, Date.now()),
    ),
  });
  return row ?? null;
}

/** GET /api/shopifyAPI/anonymousShop: the store this browser installed before signing up, without its token. */
export async function anonymousShop(env: Env, cookie: string | undefined): Promise<AnonymousShopifyEntry | null> {
  const row = await anonymousInstallOf(env, cookie);
  if (!row) return null;
  return {
    shopType: "Shopify",
    shopName: row.shopName,
    shopUrl: row.shopUrl,
    authDetails: { shop: row.shop, scope: row.scopes, installedAt: new Date(row.createdAt).toISOString() },
  };
}

/**
 * At sign-up and login: the anonymous entry this browser holds becomes a
 * connected store of the account (once: the row is taken as it is read).
 * Answers the store's name, or null when there is none.
 */
export async function attachAnonymousInstall(env: Env, userId: string, cookie: string | undefined): Promise<string | null> {
  const row = await anonymousInstallOf(env, cookie);
  if (!row) return null;
  const [taken] = await database(env.DB).delete(shopifyAnonymousInstalls).where(eq(shopifyAnonymousInstalls.id, row.id)).returning();
  if (!taken) return null;
  const plain = await unseal(env.AUTH_SECRET, ANONYMOUS_SEAL_PURPOSE, taken.credentialsSealed, taken.id);
  if (!plain) return null;
  const credentials = JSON.parse(plain) as admin.ShopifyCredentials;
  await connectStore(
    env,
    userId,
    taken.shop,
    { name: taken.shopName, myshopifyDomain: taken.shop, url: taken.shopUrl ?? `https://${taken.shop}` },
    credentials,
  );
  return taken.shopName;
}

// ------------------------------------------------------------------ listings

type ListingsInput = v.InferOutput<typeof ShopifyListingsQuery>;
type FromTokenInput = v.InferOutput<typeof ShopifyListingsFromTokenQuery>;

/** A connected Shopify store of the user and its token; a store whose token we cannot use must be reconnected. */
export async function shopifyStoreOf(env: Env, userId: string, id: string, field = "shopID"): Promise<{ profile: ShopProfile; accessToken: string }> {
  const profile = await shopProfileOf(env, userId, id, field);
  if (profile.shopType !== "Shopify") throw new ServiceError(400, `${field} must be one of your Shopify stores`, field);
  const credentials = profile.status === "ok" ? await shopCredentials<admin.ShopifyCredentials>(env, profile) : null;
  if (!credentials?.accessToken) {
    if (profile.status === "ok") await markShopNeedsReconnect(env, profile);
    throw new ServiceError(409, SHOPIFY_RECONNECT_MESSAGE, undefined, { code: "reconnect" });
  }
  return { profile, accessToken: credentials.accessToken };
}

/** GET /api/shopifyAPI/getShopifyShopListings: a page of the user's connected store. */
export async function getShopifyShopListings(env: Env, userId: string, input: ListingsInput): Promise<ShopListingsPage> {
  const { profile, accessToken } = await shopifyStoreOf(env, userId, input.shopID);
  try {
    return await readListings(env, profile.shopId, accessToken, profile.shopUrl ?? `https://${profile.shopId}`, input);
  } catch (error) {
    if (error instanceof ShopifyError && error.kind === "http" && error.status === 401) {
      await markShopNeedsReconnect(env, profile);
      console.warn("Shopify no longer accepts the token of a connected store", { shop: profile.shopId });
    }
    throw listingsFailure(error);
  }
}

/**
 * GET /api/shopifyAPI/getShopifyShopListingsFromAccessToken: a store the
 * caller holds a token for, read with that token once; the token is neither
 * stored nor answered (decision 029).
 */
export async function getShopifyShopListingsFromAccessToken(env: Env, input: FromTokenInput): Promise<ShopListingsPage> {
  try {
    return await readListings(env, input.shopName, input.accessToken, `https://${input.shopName}`, input);
  } catch (error) {
    throw listingsFailure(error);
  }
}

async function readListings(
  env: Env,
  shop: string,
  accessToken: string,
  shopUrl: string,
  input: { searchInput: string; paginationLink: string; productStatus: ListingsInput["productStatus"] },
): Promise<ShopListingsPage> {
  const [direction, cursor] = input.paginationLink
    ? [input.paginationLink.slice(0, input.paginationLink.indexOf(":")), input.paginationLink.slice(input.paginationLink.indexOf(":") + 1)]
    : [];
  const query = admin.productSearchQuery(input.searchInput, input.productStatus);
  const page = await admin.productsPage(env, shop, accessToken, {
    size: PRODUCTS_PER_PAGE,
    after: direction === "after" ? cursor : undefined,
    before: direction === "before" ? cursor : undefined,
    query: query || undefined,
  });
  return {
    listings: page.products.map((product) => admin.toListing(product, shopUrl)),
    count: page.count,
    nextPageLink: page.pageInfo.hasNextPage && page.pageInfo.endCursor ? `after:${page.pageInfo.endCursor}` : null,
    previousPageLink: page.pageInfo.hasPreviousPage && page.pageInfo.startCursor ? `before:${page.pageInfo.startCursor}` : null,
  };
}

/** Spec section 8, Shop listings: Shopify's 401 asks for a reconnection; anything else says what went wrong. */
function listingsFailure(error: unknown): ServiceError {
  if (!(error instanceof ShopifyError)) throw error;
  // Our own 401 and 403 sign the user out (app/lib/api-client.ts): the store's refusal answers 409.
  if (error.kind === "http" && error.status === 401) return new ServiceError(409, SHOPIFY_RECONNECT_MESSAGE, undefined, { code: "reconnect" });
  console.warn("Shopify listings failed", { kind: error.kind, status: error.status, details: error.details.slice(0, 300) });
  switch (error.kind) {
    case "timeout":
      return new ServiceError(503, shopListingsError("Shopify did not answer in time. Please try again."));
    case "network":
      return new ServiceError(502, shopListingsError("Shopify could not be reached. Please try again."));
    case "throttled":
      return new ServiceError(429, shopListingsError("Shopify is limiting how fast your store can be read. Please try again in a minute."));
    case "graphql":
      return new ServiceError(502, shopListingsError(error.details));
    case "http":
      if (error.status === 403)
        return new ServiceError(409, shopListingsError("Shopify did not give us permission to read your products. Please reconnect your store."));
      if (error.status === 404) return new ServiceError(404, shopListingsError("Shopify does not know this store."));
      return new ServiceError(502, shopListingsError(`Shopify is unavailable (error ${error.status}). Please try again.`));
  }
}

// ------------------------------------------------------------------ removal

/** Removing a Shopify store uninstalls the app from it: Shopify forgets our token (and cancels the app's charges). */
onShopRemoved("Shopify", async (env, profile) => {
  const credentials = await shopCredentials<admin.ShopifyCredentials>(env, profile);
  if (credentials?.accessToken) await admin.revokeAccess(env, profile.shopId, credentials.accessToken);
});
