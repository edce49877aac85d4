import { and, eq, lt, ne } from "drizzle-orm";
import { PRODUCTS_PER_PAGE, type ShopListingsPage } from "../../../contracts/shops/shops.ts";
import { sameSitePath } from "../../../contracts/paths.ts";
import { seal, unseal } from "../../auth/sealed.ts";
import { randomToken, sha256Hex, signToken, verifyToken } from "../../auth/tokens.ts";
import { database } from "../../db/client.ts";
import { woocommerceConnections } from "../../db/schema.ts";
import type { Env } from "../../env.ts";
import { authorizeUrl, listProducts, readStoreCurrency, readStoreIndex, WooCommerceError, type WooCommerceKeys } from "../../integrations/woocommerce.ts";
import { toShopListing } from "../../integrations/woocommerce-listing.ts";
import { isPrivateHost } from "../../http/address.ts";
import { isTrustedOrigin, trustedHosts } from "../../http/guarded-fetch.ts";
import { normalizeSourceUrl } from "../../scrape/url.ts";
import { tokenSettings, type User } from "../accounts/accounts.ts";
import { ServiceError } from "../core/errors.ts";
import { RateLimited } from "../accounts/rate-limit.ts";
import { markShopNeedsReconnect, onShopRemoved, saveShopConnection, shopCredentials, shopProfileOf, updateShopCredentials, type ShopProfile } from "./shops.ts";

/**
 * WooCommerce connections (docs/decisions/030-woocommerce-connection.md): the
 * user names their store, WooCommerce's authorisation page issues read keys
 * and POSTs them to our callback for the connection named by the signed,
 * single-use `user_id` we gave it; the keys are tried on the store that was
 * named, held sealed, and saved as the user's shop when the browser that
 * started the connection comes back. Then the store's products as listings.
 */

/** The app name the store owner sees on the authorisation page and in their list of keys. */
export const APP_NAME = "Pinboard Studio";
const CONNECTION_TTL_SECONDS = 15 * 60;
const KEYS_PURPOSE = "woocommerce-keys-received";
/** The store's currency is read again after this long. */
const CURRENCY_MAX_AGE_MS = 24 * 60 * 60_000;

export const CALLBACK_PATH = "/api/woocommerce/callback";
export const RETURN_PATH = "/api/woocommerce/return";

/** What a connected WooCommerce shop keeps, sealed (decision 027: each provider owns its shape). */
export interface WooCommerceCredentials extends WooCommerceKeys {
  keyId: number;
  /** The store's currency (woocommerce_currency) and when it was read. */
  currency: string;
  currencyCheckedAt: number;
}

interface ReceivedKeys extends WooCommerceKeys {
  keyId: number;
  permissions: string;
  currency: string;
}

export const NOT_STARTED_MESSAGE = "This WooCommerce connection was not started here. Please connect your store again.";
export const OTHER_BROWSER_MESSAGE = "This WooCommerce connection was started in another browser. Please connect your store again from your account here.";
export const EXPIRED_MESSAGE = "This WooCommerce connection has expired. Please connect your store again.";
export const USED_MESSAGE = "This WooCommerce connection was used already or has expired.";
export const DENIED_MESSAGE = "WooCommerce access was not granted.";
export const NO_KEYS_MESSAGE = "Your store did not send us its keys. Please connect your store again.";

/** The cookie that ties a connection to the browser that started it (one per connection, so two tabs may connect at once). */
export function bindingCookieName(connectionId: string): Promise<string> {
  return sha256Hex(`woocommerce-binding\n${connectionId}`).then((hash) => `pb_woo_${hash.slice(0, 16)}`);
}

const host = (storeUrl: string) => new URL(storeUrl).host;
const PUBLIC_STORE_MESSAGE = "storeUrl must be the public https address of your store, such as https://shop.example.com";

/**
 * The store's address as we call it: the address its shop opens at, without
 * query or fragment, and without a pasted /wp-admin or /wp-json part. https
 * and a public host; only a trusted origin (the local stand-in) keeps http.
 * Whether the name resolves to a public address is the guarded fetch's to
 * judge, on every call.
 */
export function checkStoreUrl(env: Env, input: string): string {
  const check = normalizeSourceUrl(input, { localHosts: trustedHosts(env), field: "storeUrl" });
  if (!check.ok) throw new ServiceError(400, check.error.replace("such as https://example.com/my-post", "such as https://shop.example.com"), "storeUrl");
  const url = new URL(check.url);
  if (!isTrustedOrigin(env, url) && (isPrivateHost(url.hostname) || url.protocol !== "https:")) throw new ServiceError(400, PUBLIC_STORE_MESSAGE, "storeUrl");
  const path = url.pathname.replace(/\/(wp-admin|wp-json|wp-login\.php)(\/.*)?$/i, "").replace(/\/+$/, "");
  return `${url.origin}${path}`;
}

/**
 * Starts a connection: checks the address is a WooCommerce store, records the
 * connection (15 minutes, one use) bound to a secret this browser keeps in an
 * httpOnly cookie (`binding`), and answers the store's authorisation page.
 */
export async function startConnection(env: Env, user: User, input: { storeUrl: string; redirectUrl?: string }) {
  let storeUrl = checkStoreUrl(env, input.storeUrl);
  const redirectUrl = sameSitePath(input.redirectUrl ?? "/products", env.APP_URL);
  if (!redirectUrl) throw new ServiceError(400, "redirectUrl must be a path of this site, such as /products", "redirectUrl");
  let storeName = host(storeUrl);
  try {
    const index = await readStoreIndex(env, storeUrl);
    if (!index.hasWooCommerce)
      throw new ServiceError(
        400,
        `${host(storeUrl)} does not offer WooCommerce's REST API. Check that WooCommerce is installed and active, then try again.`,
        "storeUrl",
      );
    storeName = index.name || storeName;
    // Where the store answered from after redirects, when that address passes the same rule.
    if (index.storeUrl !== storeUrl) storeUrl = checkStoreUrl(env, index.storeUrl);
  } catch (error) {
    if (!(error instanceof WooCommerceError)) throw error;
    // Some security plugins hide the site index from visitors; the authorisation page still works.
    if (error.kind === "unauthorized") storeName = host(storeUrl);
    else if (error.kind === "private_address") throw new ServiceError(400, PUBLIC_STORE_MESSAGE, "storeUrl");
    else if (error.kind === "not_found" || error.kind === "refused" || error.kind === "unreadable") {
      throw new ServiceError(
        400,
        `We could not find a WooCommerce store at ${host(storeUrl)}. Check the address your shop opens at and try again.`,
        "storeUrl",
      );
    } else throw new ServiceError(502, error.message, "storeUrl"); // the client's one sentence (issue 40 point 7: never said twice)
  }
  const id = randomToken(18);
  const binding = randomToken();
  const db = database(env.DB);
  const now = Date.now();
  await db.batch([
    db.delete(woocommerceConnections).where(and(eq(woocommerceConnections.userId, user.id), lt(woocommerceConnections.expiresAt, now))),
    db.insert(woocommerceConnections).values({
      id,
      userId: user.id,
      storeUrl,
      storeName,
      browserHash: await sha256Hex(binding),
      redirectUrl,
      status: "pending",
      expiresAt: now + CONNECTION_TTL_SECONDS * 1000,
      updatedAt: now,
    }),
  ]);
  const userId = await signToken(tokenSettings(env), "wooConnect", {}, id, CONNECTION_TTL_SECONDS);
  const url = authorizeUrl(storeUrl, {
    appName: APP_NAME,
    scope: "read",
    userId,
    returnUrl: new URL(RETURN_PATH, env.APP_URL).toString(),
    callbackUrl: new URL(CALLBACK_PATH, env.APP_URL).toString(),
  });
  return { authorizeUrl: url, binding, connectionId: id };
}

/** The connection a `user_id` names, when we signed it and it has not expired. */
async function connectionIdOf(env: Env, userId: string | undefined): Promise<string | null> {
  if (!userId) return null;
  const claims = await verifyToken(tokenSettings(env), "wooConnect", userId, CONNECTION_TTL_SECONDS);
  return claims?.sub ?? null;
}

async function failConnection(env: Env, id: string, error: string) {
  await database(env.DB)
    .update(woocommerceConnections)
    .set({ status: "failed", keysSealed: null, error, updatedAt: Date.now() })
    .where(and(eq(woocommerceConnections.id, id), ne(woocommerceConnections.status, "connected")));
}

/**
 * WooCommerce's POST of the keys (server to server, no session). Only a
 * connection we started, still pending, takes them, once; the keys must open
 * the store that was named for it (so keys of another store cannot be slipped
 * in), then wait sealed for the browser. Anything else is refused: WooCommerce
 * then deletes the key it made.
 */
export async function receiveKeys(
  env: Env,
  body: { key_id: number | string; user_id: string; consumer_key: string; consumer_secret: string; key_permissions: "read" | "write" | "read_write" },
): Promise<void> {
  const id = await connectionIdOf(env, body.user_id);
  if (!id) throw new ServiceError(400, NOT_STARTED_MESSAGE, "user_id");
  const db = database(env.DB);
  const [claimed] = await db
    .update(woocommerceConnections)
    .set({ status: "checking", updatedAt: Date.now() })
    .where(and(eq(woocommerceConnections.id, id), eq(woocommerceConnections.status, "pending")))
    .returning();
  if (!claimed) throw new ServiceError(409, USED_MESSAGE, "user_id");
  if (claimed.expiresAt < Date.now()) {
    await failConnection(env, id, EXPIRED_MESSAGE);
    throw new ServiceError(409, USED_MESSAGE, "user_id");
  }
  if (body.key_permissions === "write") {
    await failConnection(env, id, "Your store gave keys that cannot read its products. Please connect your store again.");
    throw new ServiceError(400, "The keys must be able to read the store's products.", "key_permissions");
  }
  const keys = { consumerKey: body.consumer_key, consumerSecret: body.consumer_secret };
  let currency: string;
  try {
    currency = await readStoreCurrency(env, claimed.storeUrl, keys);
  } catch (error) {
    if (!(error instanceof WooCommerceError)) throw error;
    const refused = error.kind === "unauthorized";
    await failConnection(
      env,
      id,
      refused ? `The keys your store sent did not open ${host(claimed.storeUrl)}. Please connect your store again.` : error.message,
    );
    throw refused ? new ServiceError(400, `These keys do not open ${host(claimed.storeUrl)}.`, "consumer_key") : new ServiceError(502, error.message);
  }
  const received: ReceivedKeys = { ...keys, keyId: Number(body.key_id), permissions: body.key_permissions, currency };
  await db
    .update(woocommerceConnections)
    .set({ status: "granted", keysSealed: await seal(env.AUTH_SECRET, KEYS_PURPOSE, JSON.stringify(received), id), updatedAt: Date.now() })
    .where(and(eq(woocommerceConnections.id, id), eq(woocommerceConnections.status, "checking")));
}

export interface ReturnOutcome {
  /** A normalised path of this site. */
  redirectUrl: string;
  shopName?: string;
  error?: string;
}

/**
 * The browser's return from WooCommerce (`return_url?success&user_id`). In the
 * browser that started the connection (its cookie: `binding`) the keys
 * received are saved as the user's shop. Anywhere else the connection is
 * spent and its keys dropped: a link started by someone else connects nothing.
 */
export async function finishConnection(
  env: Env,
  query: { success?: string; user_id?: string },
  binding: (connectionId: string) => Promise<string | undefined>,
): Promise<ReturnOutcome> {
  const id = await connectionIdOf(env, query.user_id);
  const db = database(env.DB);
  const row = id ? await db.query.woocommerceConnections.findFirst({ where: eq(woocommerceConnections.id, id) }) : undefined;
  if (!id || !row) return { redirectUrl: "/products", error: NOT_STARTED_MESSAGE };
  const secret = await binding(id);
  if (!secret || (await sha256Hex(secret)) !== row.browserHash) {
    await failConnection(env, id, OTHER_BROWSER_MESSAGE);
    if (row.status !== "connected") console.warn("WooCommerce return refused: the connection was started in another browser", { userId: row.userId });
    return { redirectUrl: "/products", error: OTHER_BROWSER_MESSAGE };
  }
  const redirectUrl = sameSitePath(row.redirectUrl, env.APP_URL) ?? "/products";
  if (row.status === "connected") return { redirectUrl, shopName: row.storeName };
  if (row.status === "failed") return { redirectUrl, error: row.error ?? NO_KEYS_MESSAGE };
  if (query.success !== "1") {
    await failConnection(env, id, DENIED_MESSAGE);
    return { redirectUrl, error: DENIED_MESSAGE };
  }
  if (row.status !== "granted" || !row.keysSealed) {
    const error = row.expiresAt < Date.now() ? EXPIRED_MESSAGE : NO_KEYS_MESSAGE;
    await failConnection(env, id, error);
    return { redirectUrl, error };
  }
  const [claimed] = await db
    .update(woocommerceConnections)
    .set({ status: "connected", keysSealed: null, updatedAt: Date.now() })
    .where(and(eq(woocommerceConnections.id, id), eq(woocommerceConnections.status, "granted")))
    .returning({ id: woocommerceConnections.id });
  if (!claimed) return { redirectUrl, error: USED_MESSAGE };
  const plain = await unseal(env.AUTH_SECRET, KEYS_PURPOSE, row.keysSealed, id);
  if (!plain) return { redirectUrl, error: NO_KEYS_MESSAGE };
  const keys = JSON.parse(plain) as ReceivedKeys;
  await saveShopConnection<WooCommerceCredentials>(env, row.userId, {
    shopType: "WooCommerce",
    shopId: row.storeUrl,
    shopName: row.storeName,
    shopUrl: row.storeUrl,
    credentials: {
      consumerKey: keys.consumerKey,
      consumerSecret: keys.consumerSecret,
      keyId: keys.keyId,
      currency: keys.currency,
      currencyCheckedAt: Date.now(),
    },
    scopes: keys.permissions,
  });
  return { redirectUrl, shopName: row.storeName };
}

// ------------------------------------------------------------------ listings

const LISTINGS_ERROR = "Unable to get shop listings";

/** The spec's 'Unable to get shop listings: {error}' for a store's failure; a refused key marks the shop for reconnecting. */
async function listingsFailure(env: Env, profile: ShopProfile, error: WooCommerceError): Promise<Error> {
  const store = profile.shopUrl ? host(profile.shopUrl) : profile.shopName;
  switch (error.kind) {
    case "unauthorized":
      await markShopNeedsReconnect(env, profile);
      return reconnect(store);
    case "rate_limited": {
      const seconds = Math.max(1, error.retryAfterSeconds ?? 60);
      return new RateLimited(
        seconds,
        () => `${LISTINGS_ERROR}: ${store} is receiving too many requests. Please try again in ${seconds} second${seconds === 1 ? "" : "s"}.`,
      );
    }
    case "not_found":
      return new ServiceError(
        502,
        `${LISTINGS_ERROR}: ${store} no longer answers WooCommerce's API. Check that WooCommerce is active and that permalinks are not set to Plain.`,
      );
    default:
      return new ServiceError(502, `${LISTINGS_ERROR}: ${error.message}`);
  }
}

/** 409, not 401: a 401 from our API would sign the user out of the app (app/lib/api-client.ts). */
const reconnect = (store: string) => new ServiceError(409, `${LISTINGS_ERROR}: ${store} no longer accepts our keys. Please reconnect your store.`);

/** GET /api/woocommerce/products: a page of 50 of the shop's published products, with the count. */
export async function wooCommerceListings(
  env: Env,
  userId: string,
  query: { shopID: string; pageNumber: number; searchInput: string },
): Promise<ShopListingsPage> {
  const profile = await shopProfileOf(env, userId, query.shopID);
  if (profile.shopType !== "WooCommerce") throw new ServiceError(400, "That shop is not a WooCommerce shop.", "shopID");
  const store = profile.shopUrl ? host(profile.shopUrl) : profile.shopName;
  if (profile.status === "reauth") throw reconnect(store);
  const credentials = await shopCredentials<WooCommerceCredentials>(env, profile);
  if (!credentials || !profile.shopUrl) {
    await markShopNeedsReconnect(env, profile);
    throw reconnect(store);
  }
  const storeUrl = profile.shopUrl;
  const stale = Date.now() - (credentials.currencyCheckedAt ?? 0) > CURRENCY_MAX_AGE_MS;
  try {
    const [page, currency] = await Promise.all([
      listProducts(env, storeUrl, credentials, { page: query.pageNumber, perPage: PRODUCTS_PER_PAGE, search: query.searchInput || undefined }),
      stale
        ? readStoreCurrency(env, storeUrl, credentials).then(
            async (fresh) => {
              await updateShopCredentials<WooCommerceCredentials>(env, profile, { ...credentials, currency: fresh, currencyCheckedAt: Date.now() });
              return fresh;
            },
            (error) => {
              // The products decide whether the keys still work; a currency that cannot be read now stays as it was.
              if (error instanceof WooCommerceError && error.kind === "unauthorized") throw error;
              return credentials.currency;
            },
          )
        : credentials.currency,
    ]);
    return { listings: await Promise.all(page.products.map((product) => toShopListing(product, currency))), count: page.total };
  } catch (error) {
    if (error instanceof WooCommerceError) throw await listingsFailure(env, profile, error);
    throw error;
  }
}

// ------------------------------------------------------------------ removal

/**
 * WooCommerce has no call for an app to revoke its own keys: only the store
 * owner can, in their admin. Removing the shop forgets the keys here and tells
 * the user where to revoke them there.
 */
onShopRemoved("WooCommerce", async (env, profile) => {
  const credentials = await shopCredentials<WooCommerceCredentials>(env, profile).catch(() => null);
  const ending = credentials?.consumerKey ? ` (the key ending in …${credentials.consumerKey.slice(-7)})` : "";
  return `${profile.shopName} is disconnected. WooCommerce does not let apps revoke their own keys: to revoke ours, open WooCommerce → Settings → Advanced → REST API in your store's admin and revoke the "${APP_NAME}" key${ending}.`;
});
