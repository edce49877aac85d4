import { and, asc, eq, ne } from "drizzle-orm";
import type { ShopProfileView, ShopType } from "../../../contracts/shops/shops.ts";
import { seal, unseal } from "../../auth/sealed.ts";
import { database } from "../../db/client.ts";
import { shopProfiles } from "../../db/schema.ts";
import type { Env } from "../../env.ts";
import { ServiceError } from "../core/errors.ts";

/**
 * Connected shops (decision 027): one row per shop a user connected, its
 * credentials sealed at rest bound to the row. Every function takes the
 * caller's user id: nobody reaches another user's shop. The providers'
 * clients (workers/integrations/{etsy,shopify-admin,woocommerce}.ts) connect
 * shops through `saveShopConnection` and read credentials through
 * `shopCredentials`.
 */

const SEAL_PURPOSE = "shop-credentials";

export type ShopProfile = typeof shopProfiles.$inferSelect;

export function shopView(profile: ShopProfile): ShopProfileView {
  return {
    id: profile.id,
    shopType: profile.shopType,
    shopName: profile.shopName,
    shopUrl: profile.shopUrl,
    isActive: profile.isActive,
    status: profile.status,
  };
}

/** The user's shops, oldest first. */
export async function listShopProfiles(env: Env, userId: string): Promise<ShopProfile[]> {
  return database(env.DB).select().from(shopProfiles).where(eq(shopProfiles.userId, userId)).orderBy(asc(shopProfiles.createdAt), asc(shopProfiles.id));
}

export async function authorizedShops(env: Env, userId: string): Promise<ShopProfileView[]> {
  return (await listShopProfiles(env, userId)).map(shopView);
}

/** One of the user's shops by our id; 404 when it is not theirs (whether or not it exists). */
export async function shopProfileOf(env: Env, userId: string, id: string, field = "shopID"): Promise<ShopProfile> {
  const profile = await database(env.DB).query.shopProfiles.findFirst({ where: and(eq(shopProfiles.id, id), eq(shopProfiles.userId, userId)) });
  if (!profile) throw new ServiceError(404, "That shop is not connected to your account.", field);
  return profile;
}

export interface ShopConnection<C> {
  shopType: ShopType;
  /** The provider's id of the shop. */
  shopId: string;
  shopName: string;
  shopUrl: string | null;
  credentials: C;
  scopes?: string;
}

/**
 * Saves a connection the provider has just granted: a shop connected again
 * keeps its row (and id) and gets the new credentials; the shop connected
 * last becomes the active one.
 */
export async function saveShopConnection<C>(env: Env, userId: string, connection: ShopConnection<C>): Promise<ShopProfile> {
  const db = database(env.DB);
  const existing = await db.query.shopProfiles.findFirst({
    where: and(eq(shopProfiles.userId, userId), eq(shopProfiles.shopType, connection.shopType), eq(shopProfiles.shopId, connection.shopId)),
  });
  const id = existing?.id ?? crypto.randomUUID();
  const now = Date.now();
  const sealed = await seal(env.AUTH_SECRET, SEAL_PURPOSE, JSON.stringify(connection.credentials), id);
  const row = {
    shopName: connection.shopName,
    shopUrl: connection.shopUrl,
    credentialsSealed: sealed,
    scopes: connection.scopes ?? "",
    isActive: true,
    status: "ok" as const,
    updatedAt: now,
  };
  await db.batch([
    db
      .update(shopProfiles)
      .set({ isActive: false })
      .where(and(eq(shopProfiles.userId, userId), ne(shopProfiles.id, id))),
    existing
      ? db.update(shopProfiles).set(row).where(eq(shopProfiles.id, id))
      : db.insert(shopProfiles).values({ id, userId, shopType: connection.shopType, shopId: connection.shopId, ...row }),
  ]);
  return shopProfileOf(env, userId, id);
}

/** The shop's credentials, or null when they do not open (another key, another row): the user must reconnect. */
export async function shopCredentials<C>(env: Env, profile: ShopProfile): Promise<C | null> {
  const plain = await unseal(env.AUTH_SECRET, SEAL_PURPOSE, profile.credentialsSealed, profile.id);
  if (plain === null) return null;
  return JSON.parse(plain) as C;
}

/** Stores refreshed credentials (an Etsy token refreshed); the row stays the same. */
export async function updateShopCredentials<C>(env: Env, profile: ShopProfile, credentials: C): Promise<void> {
  const sealed = await seal(env.AUTH_SECRET, SEAL_PURPOSE, JSON.stringify(credentials), profile.id);
  await database(env.DB).update(shopProfiles).set({ credentialsSealed: sealed, status: "ok", updatedAt: Date.now() }).where(eq(shopProfiles.id, profile.id));
}

/** The provider refused our credentials: the shop waits for the user to reconnect it. */
export async function markShopNeedsReconnect(env: Env, profile: ShopProfile): Promise<void> {
  await database(env.DB).update(shopProfiles).set({ status: "reauth", updatedAt: Date.now() }).where(eq(shopProfiles.id, profile.id));
}

/** POST /api/etsyAPI/activateShopProfile: this shop becomes the active one, the others not. */
export async function activateShopProfile(env: Env, userId: string, id: string): Promise<ShopProfileView[]> {
  await shopProfileOf(env, userId, id);
  const db = database(env.DB);
  await db.batch([
    db
      .update(shopProfiles)
      .set({ isActive: false })
      .where(and(eq(shopProfiles.userId, userId), ne(shopProfiles.id, id))),
    db
      .update(shopProfiles)
      .set({ isActive: true })
      .where(and(eq(shopProfiles.userId, userId), eq(shopProfiles.id, id))),
  ]);
  return authorizedShops(env, userId);
}

/** POST /api/etsyAPI/deactivateAllShopProfiles (the products page shows CSV rows instead). */
export async function deactivateAllShopProfiles(env: Env, userId: string): Promise<ShopProfileView[]> {
  await database(env.DB).update(shopProfiles).set({ isActive: false }).where(eq(shopProfiles.userId, userId));
  return authorizedShops(env, userId);
}

/**
 * What a provider can revoke when a shop is removed (Etsy and Shopify let an
 * app give up its token; WooCommerce keys are revoked by the shop owner).
 * The providers' modules register theirs; a revocation that fails does not
 * keep the shop: the user asked for it to go. A revoker may answer a message
 * for the user (what is left for them to revoke at the provider).
 */
// biome-ignore lint/suspicious/noConfusingVoidType: a revoker answers a message or nothing; void lets those with nothing to say leave out `return`.
type Revoker = (env: Env, profile: ShopProfile) => Promise<string | void>;
const revokers = new Map<ShopType, Revoker>();
export function onShopRemoved(shopType: ShopType, revoke: Revoker) {
  revokers.set(shopType, revoke);
}

/** DELETE /api/etsyAPI/removeShopProfile/{shop} */
export async function removeShopProfile(env: Env, userId: string, id: string): Promise<{ authorizedShops: ShopProfileView[]; message?: string }> {
  const profile = await shopProfileOf(env, userId, id, "shop");
  let message: string | undefined;
  try {
    message = (await revokers.get(profile.shopType)?.(env, profile)) || undefined;
  } catch (error) {
    console.warn(`revoking ${profile.shopType} shop ${profile.id} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  await database(env.DB)
    .delete(shopProfiles)
    .where(and(eq(shopProfiles.id, id), eq(shopProfiles.userId, userId)));
  return { authorizedShops: await authorizedShops(env, userId), ...(message ? { message } : {}) };
}
