import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "../../../workers/db/client.ts";
import { shopProfiles } from "../../../workers/db/schema.ts";
import { saveShopConnection, shopCredentials, shopProfileOf } from "../../../workers/services/shops/shops.ts";
import { bearer, json, signUpUser } from "../accounts/accounts-support.ts";
import { app, read, testEnv } from "../support.ts";

// Shop profiles (decision 027): credentials sealed at rest, one active shop, removal, and the
// credentials of the user's shops in GET /api/user without a token in sight.

const connect = (userId: string, shopId: string, token: string) =>
  saveShopConnection(testEnv, userId, {
    shopType: "Etsy",
    shopId,
    shopName: `Shop ${shopId}`,
    shopUrl: `https://www.etsy.example/shop/${shopId}`,
    credentials: { accessToken: token, refreshToken: `${token}-refresh` },
  });

describe("shop profiles", () => {
  it("keep credentials sealed at rest, bound to their row, and show users their shops without them", async () => {
    const user = await signUpUser();
    const profile = await connect(user.userId, "linenloft", "etsy-access-0123456789");
    const [row] = await database(testEnv.DB).select().from(shopProfiles).where(eq(shopProfiles.id, profile.id));
    expect(JSON.stringify(row)).not.toContain("etsy-access-0123456789");
    expect(await shopCredentials(testEnv, row!)).toEqual({ accessToken: "etsy-access-0123456789", refreshToken: "etsy-access-0123456789-refresh" });
    // Sealed values copied to another row do not open.
    const other = await connect(user.userId, "otherloft", "etsy-access-other");
    expect(await shopCredentials(testEnv, { ...other, credentialsSealed: row!.credentialsSealed })).toBeNull();

    const { credentials } = await read(await app("/api/user", { headers: bearer(user.tokens) }));
    expect(credentials.authorizedShops).toEqual([
      { id: profile.id, shopType: "Etsy", shopName: "Shop linenloft", shopUrl: "https://www.etsy.example/shop/linenloft", isActive: false, status: "ok" },
      { id: other.id, shopType: "Etsy", shopName: "Shop otherloft", shopUrl: "https://www.etsy.example/shop/otherloft", isActive: true, status: "ok" },
    ]);
    expect(JSON.stringify(credentials)).not.toContain("etsy-access");
  });

  it("keep one shop active, connect again in place, deactivate all, and remove only the caller's", async () => {
    const user = await signUpUser();
    const first = await connect(user.userId, "alpha", "token-a");
    const second = await connect(user.userId, "beta", "token-b");
    const activated = await read(await app("/api/etsyAPI/activateShopProfile", json({ shopID: first.id }, bearer(user.tokens))));
    expect(activated.authorizedShops.map((shop: { id: string; isActive: boolean }) => [shop.id, shop.isActive])).toEqual([
      [first.id, true],
      [second.id, false],
    ]);
    // Connecting a shop again keeps its row and makes it the active one.
    const again = await connect(user.userId, "beta", "token-b2");
    expect(again.id).toBe(second.id);
    expect(await shopCredentials(testEnv, await shopProfileOf(testEnv, user.userId, second.id))).toMatchObject({ accessToken: "token-b2" });
    const none = await read(await app("/api/etsyAPI/deactivateAllShopProfiles", { method: "POST", headers: bearer(user.tokens) }));
    expect(none.authorizedShops.every((shop: { isActive: boolean }) => !shop.isActive)).toBe(true);

    const stranger = await signUpUser();
    const refused = await app(`/api/etsyAPI/removeShopProfile/${first.id}`, { method: "DELETE", headers: bearer(stranger.tokens) });
    expect(refused.status).toBe(404);
    expect(await read(refused)).toMatchObject({ error: "That shop is not connected to your account.", field: "shop" });
    const removed = await read(await app(`/api/etsyAPI/removeShopProfile/${first.id}`, { method: "DELETE", headers: bearer(user.tokens) }));
    expect(removed.authorizedShops.map((shop: { id: string }) => shop.id)).toEqual([second.id]);

    const bad = await app("/api/etsyAPI/activateShopProfile", json({ shopID: "../x" }, bearer(user.tokens)));
    expect(bad.status).toBe(400);
    expect(await read(bad)).toMatchObject({ field: "shopID" });
  });
});
