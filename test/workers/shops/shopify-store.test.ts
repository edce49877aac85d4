import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { SHOPIFY_RECONNECT_MESSAGE } from "../../../contracts/shops/shopify-shop.ts";
import type { ShopListingsPage } from "../../../contracts/shops/shops.ts";
import { DEMO_PRODUCTS, searchProducts } from "../../../sandbox/demo-shop/catalog.ts";
import { database } from "../../../workers/db/client.ts";
import { shopifyAnonymousInstalls, shopProfiles } from "../../../workers/db/schema.ts";
import { shopCredentials } from "../../../workers/services/shops/shops.ts";
import { bearer, GOOD_PASSWORD, json, signUpUser, uniqueEmail, type TestUser } from "../accounts/accounts-support.ts";
import { callback, connectStore, installOnShopify, newStore, recordState, signed, stateCheck } from "./shopify-support.ts";
import { app, cookiesSetBy, read, sandbox, testEnv } from "../support.ts";

// Shopify stores (decision 029): the app install flow against the stand-in (HMAC, state, this
// browser, the store), the token sealed at rest, the anonymous entry of an install begun on
// Shopify's side, and the products through the Admin GraphQL API: cursor pages both ways, search,
// status, cost throttling and each failure's message. The sandbox is shared: every test uses
// its own stores and scopes its faults to them.

const db = database(testEnv.DB);
const LISTINGS = "/api/shopifyAPI/getShopifyShopListings";

function listings(user: TestUser, query: Record<string, string>) {
  return app(`${LISTINGS}?${new URLSearchParams(query)}`, { headers: bearer(user.tokens) });
}

async function page(user: TestUser, query: Record<string, string>): Promise<ShopListingsPage> {
  const response = await listings(user, query);
  expect(response.status, await response.clone().text()).toBe(200);
  return read(response);
}

async function shopsOf(user: TestUser) {
  return (await read(await app("/api/shops", { headers: bearer(user.tokens) }))).authorizedShops as {
    id: string;
    shopType: string;
    shopName: string;
    status: string;
  }[];
}

async function storeCalls(shop: string) {
  const calls = await sandbox<{ path: string; method: string; body: unknown }[]>("/requests?service=shopify");
  return calls.filter((call) => call.path.startsWith(`/${shop}/`));
}

/** A Shopify Plus sized cost bucket, for tests that read many pages in a row. */
const roomyBucket = (shop: string) =>
  sandbox("/shopify/throttle", { method: "POST", json: { shop, maximumAvailable: 20_000, currentlyAvailable: 20_000, restoreRate: 1_000 } });

const graphqlCalls = async (shop: string) => (await storeCalls(shop)).filter((call) => call.path.endsWith("/graphql.json"));

async function fault(shop: string, body: Record<string, unknown>) {
  await sandbox("/faults", { method: "POST", json: { service: "shopify", path: `/${shop}/admin/api/*`, ...body } });
}

describe("connecting a Shopify store (the app install flow)", () => {
  it("installs the app, checks Shopify's HMAC and the state, and keeps the offline token sealed at rest", async () => {
    const user = await signUpUser();
    const shop = newStore("linen-and-clay");
    const { authorizeUrl, cookie } = await recordState(user, shop);
    const authorize = new URL(authorizeUrl);
    expect(authorize.pathname).toBe(`/shopify/${shop}/admin/oauth/authorize`);
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
      client_id: testEnv.SHOPIFY_CLIENT_ID,
      scope: "read_products",
      redirect_uri: "http://app.test/api/shopifyAPI/oauthCallback",
    });
    expect(cookie).toMatch(/^pb_shopify_[0-9a-f]{16}=/);

    const redirect = await installOnShopify(authorizeUrl);
    expect(Object.keys(Object.fromEntries(redirect.searchParams)).sort()).toEqual(["code", "hmac", "host", "shop", "state", "timestamp"]);
    const { location } = await callback(redirect, cookie);
    expect(location.pathname).toBe("/products");
    expect(location.searchParams.get("shopifyConnected")).toMatch(/^Linen And Clay/);

    const [store] = await shopsOf(user);
    expect(store).toMatchObject({ shopType: "Shopify", status: "ok", isActive: true, shopUrl: `https://${shop}` });
    const [install] = await sandbox<{ token: string; scope: string }[]>(`/shopify/installs?shop=${shop}`);
    expect(install.scope).toBe("read_products");
    const [row] = await db.select().from(shopProfiles).where(eq(shopProfiles.id, store!.id));
    expect(JSON.stringify(row)).not.toContain(install.token);
    expect(await shopCredentials(testEnv, row!)).toEqual({ accessToken: install.token, scope: "read_products" });
    // Nothing the browser reads carries it.
    const { credentials } = await read(await app("/api/user", { headers: bearer(user.tokens) }));
    expect(JSON.stringify(credentials)).not.toContain(install.token);
    // The code was exchanged once, with our client secret, server to server.
    const exchanges = (await storeCalls(shop)).filter((call) => call.path === `/${shop}/admin/oauth/access_token`);
    expect(exchanges).toHaveLength(1);
    // The same Shopify redirect again is refused: the state was used.
    const replay = await callback(redirect, cookie);
    expect(replay.location.searchParams.get("shopifyError")).toBe("This Shopify connection link has expired. Please connect again.");
  });

  it("refuses a forged HMAC and a tampered redirect, and saves nothing", async () => {
    const user = await signUpUser();
    const shop = newStore();
    const { authorizeUrl, cookie } = await recordState(user, shop);
    const redirect = await installOnShopify(authorizeUrl);
    const forged = new URL(redirect);
    const hmac = forged.searchParams.get("hmac")!;
    forged.searchParams.set("hmac", `${hmac[0] === "0" ? "1" : "0"}${hmac.slice(1)}`);
    expect((await callback(forged, cookie)).location.searchParams.get("shopifyError")).toBe(
      "This Shopify connection could not be verified. Please connect your store again.",
    );
    const tampered = new URL(redirect);
    tampered.searchParams.set("code", "0123456789abcdef0123456789abcdef");
    expect((await callback(tampered, cookie)).location.searchParams.get("shopifyError")).toBe(
      "This Shopify connection could not be verified. Please connect your store again.",
    );
    const unsigned = new URL(redirect);
    unsigned.searchParams.delete("hmac");
    expect((await callback(unsigned, cookie)).location.searchParams.get("shopifyError")).toMatch(/could not be verified/);
    expect(await shopsOf(user)).toEqual([]);
    expect((await storeCalls(shop)).filter((call) => call.path.endsWith("/oauth/access_token"))).toEqual([]);
    // The genuine redirect still works afterwards: the forgeries used nothing up.
    expect((await callback(redirect, cookie)).location.searchParams.get("shopifyConnected")).toBeTruthy();
  });

  it("refuses a state it did not record, one from another browser, and a redirect for another store", async () => {
    const user = await signUpUser();
    const shop = newStore();
    // A state nobody recorded, in a redirect Shopify signed.
    const unknown = signed({ code: "c0de", host: "aG9zdA", shop, state: "never-recorded-state-0123456789", timestamp: String(Math.floor(Date.now() / 1000)) });
    const outcome = await callback(new URL(`http://app.test/api/shopifyAPI/oauthCallback?${unknown}`), "");
    expect(outcome.location.searchParams.get("shopifyError")).toBe("This Shopify connection could not be verified. Please connect your store again.");

    // The attacker's own genuine redirect, opened in the victim's browser (without the attacker's cookie).
    const attacker = await signUpUser();
    const started = await recordState(attacker, shop);
    const redirect = await installOnShopify(started.authorizeUrl);
    const victim = await callback(redirect, user.cookie);
    expect(victim.location.searchParams.get("shopifyError")).toBe(
      "This Shopify connection was started in another browser. Please connect again from your account here.",
    );
    expect(await shopsOf(user)).toEqual([]);
    expect(await shopsOf(attacker)).toEqual([]);

    // A redirect Shopify signed for another store than the state was recorded for.
    const other = newStore("other");
    const mine = await recordState(user, shop);
    const swapped = signed({ code: "c0de", host: "aG9zdA", shop: other, state: mine.state, timestamp: String(Math.floor(Date.now() / 1000)) });
    const wrongStore = await callback(new URL(`http://app.test/api/shopifyAPI/oauthCallback?${swapped}`), mine.cookie);
    expect(wrongStore.location.searchParams.get("shopifyError")).toBe(
      "Shopify answered for another store than the one you asked to connect. Please connect again.",
    );
    expect(await shopsOf(user)).toEqual([]);

    // A store address that is not a myshopify.com store is refused before anything starts.
    const bad = await app(
      "/api/shopifyAPI/recordShopifyStateCheck",
      json({ shop: "evil.example.com", stateCheck: "state0123456789abcdef", redirectUrl: "/products" }, bearer(user.tokens)),
    );
    expect(bad.status).toBe(400);
    expect(await read(bad)).toMatchObject({ field: "shop" });
    // What people paste is forgiven.
    const pasted = await app(
      "/api/shopifyAPI/recordShopifyStateCheck",
      json({ shop: "https://My-Store.myshopify.com/admin", stateCheck: stateCheck(), redirectUrl: "/products" }, bearer(user.tokens)),
    );
    expect(new URL((await read(pasted)).authorizeUrl).pathname).toBe("/shopify/my-store.myshopify.com/admin/oauth/authorize");
  });
});

describe("the anonymous Shopify entry (an install begun on Shopify's side)", () => {
  async function installFromShopify(shop: string) {
    const launch = await fetch(
      `${testEnv.SANDBOX_URL}/__sandbox/shopify/launch?${new URLSearchParams({ shop, appUrl: "http://app.test/api/shopifyAPI/install" })}`,
      { redirect: "manual" },
    );
    const appUrl = new URL(launch.headers.get("location")!);
    const started = await app(`${appUrl.pathname}${appUrl.search}`, { redirect: "manual" });
    expect(started.status).toBe(302);
    const redirect = await installOnShopify(started.headers.get("location")!);
    const outcome = await callback(redirect, cookiesSetBy(started));
    // The browser keeps the anonymous entry's cookie (the state's binding cookie is deleted).
    return {
      location: outcome.location,
      cookies: outcome.cookies
        .split("; ")
        .filter((cookie) => cookie.startsWith("pb_shopify_install="))
        .join("; "),
    };
  }

  it("is kept without its token until the account signs up in that browser, then becomes its store", async () => {
    const shop = newStore("harbour-goods");
    const { location, cookies } = await installFromShopify(shop);
    expect(location.pathname).toBe("/signup");
    expect(cookies).toMatch(/^pb_shopify_install=/);
    const entry = await read(await app("/api/shopifyAPI/anonymousShop", { headers: { cookie: cookies } }));
    expect(entry.anonymousShop).toMatchObject({
      shopType: "Shopify",
      shopName: expect.stringMatching(/^Harbour Goods/),
      authDetails: { shop, scope: "read_products" },
    });
    const [install] = await sandbox<{ token: string }[]>(`/shopify/installs?shop=${shop}`);
    expect(JSON.stringify(entry)).not.toContain(install.token);
    const [kept] = await db.select().from(shopifyAnonymousInstalls).where(eq(shopifyAnonymousInstalls.shop, shop));
    expect(JSON.stringify(kept)).not.toContain(install.token);
    // Another browser has no entry.
    expect((await read(await app("/api/shopifyAPI/anonymousShop"))).anonymousShop).toBeNull();

    const signup = await app(
      "/api/signup",
      json(
        { email: uniqueEmail("shopify"), password: GOOD_PASSWORD, firstName: "Ines", lastName: "Moreau", leadSource: "Pinterest" },
        { cookie: cookies, "cf-connecting-ip": "198.51.100.77" },
      ),
    );
    expect(signup.status).toBe(201);
    expect(signup.headers.getSetCookie().some((cookie) => cookie.startsWith("pb_shopify_install=;"))).toBe(true);
    const tokens = await read(signup);
    const { authorizedShops } = await read(await app("/api/shops", { headers: { authorization: `Bearer ${tokens.idToken}` } }));
    expect(authorizedShops).toEqual([expect.objectContaining({ shopType: "Shopify", shopName: entry.anonymousShop.shopName, isActive: true, status: "ok" })]);
    const [row] = await db.select().from(shopProfiles).where(eq(shopProfiles.id, authorizedShops[0].id));
    expect(await shopCredentials(testEnv, row!)).toMatchObject({ accessToken: install.token });
    // Taken once: the entry is gone, and its cookie attaches nothing to the next account.
    expect((await read(await app("/api/shopifyAPI/anonymousShop", { headers: { cookie: cookies } }))).anonymousShop).toBeNull();
    const second = await app(
      "/api/signup",
      json({ email: uniqueEmail("second"), password: GOOD_PASSWORD, firstName: "Ada", lastName: "Quinn", leadSource: "Pinterest" }, { cookie: cookies }),
    );
    const secondTokens = await read(second);
    expect((await read(await app("/api/shops", { headers: { authorization: `Bearer ${secondTokens.idToken}` } }))).authorizedShops).toEqual([]);
  });

  it("is attached at login too; a forged App URL request starts nothing", async () => {
    const user = await signUpUser();
    const shop = newStore("login");
    const { cookies } = await installFromShopify(shop);
    const login = await app("/api/login", json({ email: user.email, password: user.password }, { cookie: cookies }));
    expect(login.status).toBe(200);
    expect((await shopsOf(user)).map((store) => store.shopType)).toEqual(["Shopify"]);

    const forged = signed({ host: "aG9zdA", shop: newStore("forged"), timestamp: String(Math.floor(Date.now() / 1000)) }, "not-the-app-secret-0123456789");
    const refused = await app(`/api/shopifyAPI/install?${forged}`, { redirect: "manual" });
    expect(refused.status).toBe(400);
    expect(await read(refused)).toMatchObject({ field: "hmac" });
    const stale = signed({ host: "aG9zdA", shop: newStore("stale"), timestamp: String(Math.floor(Date.now() / 1000) - 3600) });
    const old = await app(`/api/shopifyAPI/install?${stale}`, { redirect: "manual" });
    expect(old.status).toBe(400);
    expect(await read(old)).toMatchObject({ field: "timestamp" });
  });
});

describe("Shopify listings (Admin GraphQL products)", () => {
  it("pages 50 at a time forward and back by cursor, with every listing's fields and photos", async () => {
    const user = await signUpUser();
    const { id, shop } = await connectStore(user);
    await roomyBucket(shop);
    const first = await page(user, { shopID: id });
    expect(first.count).toBe(DEMO_PRODUCTS.length);
    expect(first.listings).toHaveLength(50);
    expect(first.previousPageLink).toBeNull();
    expect(first.nextPageLink).toMatch(/^after:/);
    const mug = DEMO_PRODUCTS[0]!;
    expect(first.listings[0]).toMatchObject({
      title: mug.title,
      description: mug.description,
      price: Number(mug.price).toFixed(2),
      currency: mug.currency,
      categories: [...new Set([mug.categories[0], ...mug.tags])],
    });
    expect(first.listings[0]!.images).toHaveLength(Math.min(mug.photoCount, 4));
    const photo = first.listings[0]!.images[0]!;
    const bytes: Record<string, number> = {};
    for (const [size, url] of Object.entries(photo)) {
      const response = await fetch(url);
      expect(response.status, size).toBe(200);
      expect(response.headers.get("content-type")).toBe("image/jpeg");
      bytes[size] = (await response.arrayBuffer()).byteLength;
    }
    // Three sizes of one photo, served by the stand-in at its own URLs.
    expect(bytes.full).toBeGreaterThan(bytes.medium!);
    expect(bytes.medium).toBeGreaterThan(bytes.small!);

    const second = await page(user, { shopID: id, paginationLink: first.nextPageLink! });
    expect(second.listings.map((listing) => listing.title)).toEqual(DEMO_PRODUCTS.slice(50, 100).map((product) => product.title));
    const third = await page(user, { shopID: id, paginationLink: second.nextPageLink! });
    expect(third.listings).toHaveLength(DEMO_PRODUCTS.length - 100);
    expect(third.nextPageLink).toBeNull();
    const back = await page(user, { shopID: id, paginationLink: third.previousPageLink! });
    expect(back.listings).toEqual(second.listings);
    const start = await page(user, { shopID: id, paginationLink: back.previousPageLink! });
    expect(start.listings).toEqual(first.listings);
    expect(start.previousPageLink).toBeNull();
  });

  it("searches and filters by status (default all)", async () => {
    const user = await signUpUser();
    const { id, shop } = await connectStore(user);
    await roomyBucket(shop);
    const found = await page(user, { shopID: id, searchInput: "mug" });
    const mugs = searchProducts(DEMO_PRODUCTS, "mug");
    expect(found.count).toBe(mugs.length);
    expect(found.listings.map((listing) => listing.title)).toEqual(mugs.slice(0, 50).map((product) => product.title));
    for (const status of ["active", "draft", "archived"] as const) {
      const filtered = await page(user, { shopID: id, productStatus: status });
      expect(filtered.count, status).toBe(DEMO_PRODUCTS.filter((product) => product.status === status).length);
    }
    expect((await page(user, { shopID: id, productStatus: "all" })).count).toBe(DEMO_PRODUCTS.length);
    const activeMugs = await page(user, { shopID: id, searchInput: "mug", productStatus: "active" });
    expect(activeMugs.count).toBe(mugs.filter((product) => product.status === "active").length);
    // A search cannot smuggle Shopify's own filters in.
    expect((await page(user, { shopID: id, searchInput: "status:draft" })).count).toBe(0);
    const bad = await listings(user, { shopID: id, productStatus: "sold" });
    expect(bad.status).toBe(400);
    expect(await read(bad)).toMatchObject({ field: "productStatus" });
  });

  it("waits for Shopify's cost bucket when throttled, and says so when it would wait too long", async () => {
    const user = await signUpUser();
    const { id, shop } = await connectStore(user);
    const before = (await graphqlCalls(shop)).length;
    await sandbox("/shopify/throttle", { method: "POST", json: { shop, currentlyAvailable: 0, restoreRate: 500 } });
    const answered = await page(user, { shopID: id });
    expect(answered.listings).toHaveLength(50);
    // One THROTTLED answer, then the same query again once the bucket had refilled.
    expect((await graphqlCalls(shop)).length - before).toBe(2);

    await sandbox("/shopify/throttle", { method: "POST", json: { shop, currentlyAvailable: 0, restoreRate: 1 } });
    const refused = await listings(user, { shopID: id });
    expect(refused.status).toBe(429);
    expect((await read(refused)).error).toBe("Unable to get shop listings: Shopify is limiting how fast your store can be read. Please try again in a minute.");
  });

  it("a Shopify 401 asks to reconnect and marks the store; reconnecting clears it", async () => {
    const user = await signUpUser();
    const { id, shop } = await connectStore(user);
    await fault(shop, { status: 401, body: { errors: "[API] Invalid API key or access token (unrecognized login or wrong password)" } });
    const refused = await listings(user, { shopID: id });
    expect(refused.status).toBe(409);
    expect((await read(refused)).error).toBe(SHOPIFY_RECONNECT_MESSAGE);
    expect((await shopsOf(user))[0]).toMatchObject({ id, status: "reauth" });
    const calls = (await graphqlCalls(shop)).length;
    expect((await read(await listings(user, { shopID: id }))).error).toBe(SHOPIFY_RECONNECT_MESSAGE);
    expect((await graphqlCalls(shop)).length).toBe(calls);

    await connectStore(user, shop);
    expect((await shopsOf(user))[0]).toMatchObject({ id, status: "ok" });
    expect((await page(user, { shopID: id })).listings).toHaveLength(50);
  });

  it("other failures say what went wrong", async () => {
    const user = await signUpUser();
    const { id, shop } = await connectStore(user);
    await fault(shop, { status: 503, body: { errors: "Service Unavailable" } });
    const down = await listings(user, { shopID: id });
    expect(down.status).toBe(502);
    expect((await read(down)).error).toBe("Unable to get shop listings: Shopify is unavailable (error 503). Please try again.");
    await fault(shop, { delayMs: 2500 });
    const slow = await listings(user, { shopID: id });
    expect(slow.status).toBe(503);
    expect((await read(slow)).error).toBe("Unable to get shop listings: Shopify did not answer in time. Please try again.");
    const badCursor = await listings(user, { shopID: id, paginationLink: "after:Zm9vYmFy" });
    expect(badCursor.status).toBe(502);
    expect((await read(badCursor)).error).toBe("Unable to get shop listings: Invalid cursor for current pagination sort.");
    const badLink = await listings(user, { shopID: id, paginationLink: "https://evil.example.com/" });
    expect(badLink.status).toBe(400);
    expect(await read(badLink)).toMatchObject({ field: "paginationLink" });
    // Still a working store: failures other than 401 do not ask for a reconnection.
    expect((await shopsOf(user))[0]).toMatchObject({ status: "ok" });
  });

  it("another user's store is untouchable, and removing a store gives its token back to Shopify", async () => {
    const owner = await signUpUser();
    const { id, shop } = await connectStore(owner);
    const stranger = await signUpUser();
    const peek = await listings(stranger, { shopID: id });
    expect(peek.status).toBe(404);
    expect(await read(peek)).toMatchObject({ error: "That shop is not connected to your account.", field: "shopID" });
    expect((await app(`/api/etsyAPI/removeShopProfile/${id}`, { method: "DELETE", headers: bearer(stranger.tokens) })).status).toBe(404);
    expect(await shopsOf(owner)).toHaveLength(1);

    const removed = await app(`/api/etsyAPI/removeShopProfile/${id}`, { method: "DELETE", headers: bearer(owner.tokens) });
    expect(removed.status).toBe(200);
    const [install] = await sandbox<{ token: string; revokedAt: string | null }[]>(`/shopify/installs?shop=${shop}`);
    expect(install.revokedAt).not.toBeNull();
    // The token no longer opens the store.
    const withOldToken = await app(
      `/api/shopifyAPI/getShopifyShopListingsFromAccessToken?${new URLSearchParams({ accessToken: install.token, shopName: shop })}`,
      { headers: bearer(owner.tokens) },
    );
    expect(withOldToken.status).toBe(409);
    expect((await read(withOldToken)).error).toBe(SHOPIFY_RECONNECT_MESSAGE);
  });
});

describe("listings from an access token the caller holds", () => {
  it("reads the store with that token once and never keeps or answers it", async () => {
    const user = await signUpUser();
    const shop = newStore("custom-app");
    const token = "shpat_customapp0123456789abcdef";
    const response = await app(
      `/api/shopifyAPI/getShopifyShopListingsFromAccessToken?${new URLSearchParams({ accessToken: token, shopName: shop, searchInput: "candle" })}`,
      {
        headers: bearer(user.tokens),
      },
    );
    expect(response.status).toBe(200);
    const body = (await read(response)) as ShopListingsPage;
    expect(body.count).toBe(searchProducts(DEMO_PRODUCTS, "candle").length);
    expect(JSON.stringify(body)).not.toContain(token);
    expect(await shopsOf(user)).toEqual([]);
    expect((await app(`/api/shopifyAPI/getShopifyShopListingsFromAccessToken?${new URLSearchParams({ accessToken: token, shopName: shop })}`)).status).toBe(
      401,
    );
    const bad = await app(
      `/api/shopifyAPI/getShopifyShopListingsFromAccessToken?${new URLSearchParams({ accessToken: token, shopName: "evil.example.com" })}`,
      { headers: bearer(user.tokens) },
    );
    expect(bad.status).toBe(400);
    expect(await read(bad)).toMatchObject({ field: "shopName" });
  });
});
