import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { DEMO_PRODUCTS, searchProducts } from "../../../sandbox/demo-shop/catalog.ts";
import { unseal } from "../../../workers/auth/sealed.ts";
import { sha256Hex } from "../../../workers/auth/tokens.ts";
import { database } from "../../../workers/db/client.ts";
import { etsyOauthStates, shopProfiles } from "../../../workers/db/schema.ts";
import { EtsyApiError, EtsyClient, pkceChallenge } from "../../../workers/integrations/etsy.ts";
import {
  etsyCallbackUrl,
  ETSY_CONNECT_FAILED_MESSAGE,
  ETSY_NO_SHOP_MESSAGE,
  ETSY_NOT_GRANTED_MESSAGE,
  ETSY_OTHER_BROWSER_MESSAGE,
  ETSY_STATE_EXPIRED_MESSAGE,
  type EtsyCredentials,
} from "../../../workers/services/shops/etsy-connection.ts";
import { seal } from "../../../workers/auth/sealed.ts";
import { shopCredentials, shopProfileOf, updateShopCredentials } from "../../../workers/services/shops/shops.ts";
import { bearer, json, signUpUser, type TestUser } from "../accounts/accounts-support.ts";
import { connectEtsyShop, etsyAccount, etsyShopName, finishEtsyConnection, startEtsyConnection } from "./etsy-support.ts";
import { app, read, sandbox, testEnv } from "../support.ts";

// Issue 14, Etsy (decision 028): the connection (OAuth 2.0 with PKCE, the state bound to the
// browser), Etsy's tokens sealed and refreshed, and the listings through the Etsy stand-in.

const db = database(testEnv.DB);
const ACTIVE = DEMO_PRODUCTS.filter((product) => product.status === "active");
/** The catalogue's active products as Etsy lists them: newest first. */
const NEWEST_FIRST = [...ACTIVE].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.number - a.number);

let alice: TestUser;
let bob: TestUser;
beforeAll(async () => {
  alice = await signUpUser({ firstName: "Alice" });
  bob = await signUpUser({ firstName: "Bob" });
});

const listings = (user: TestUser, query: Record<string, string>) =>
  app(`/api/etsyAPI/getEtsyShopListings?${new URLSearchParams(query)}`, { headers: bearer(user.tokens) });

interface RecordedCall {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body: Record<string, string> | null;
  at: string;
}
/** The calls the Etsy stand-in received for a shop (by its Etsy ids in the path), oldest first. */
async function callsFor(account: { user_id: number; shop_id: number | null }): Promise<RecordedCall[]> {
  const calls = await sandbox<RecordedCall[]>("/requests?service=etsy");
  return calls.filter((call) => call.path.includes(`/shops/${account.shop_id}/`) || call.path.includes(`/users/${account.user_id}/`));
}

describe("connecting an Etsy shop", () => {
  it("sends the user to Etsy with our keystring, the read scopes, the state and an S256 challenge, and seals Etsy's tokens", async () => {
    const shopName = etsyShopName("linen");
    const attempt = await startEtsyConnection(alice, shopName, "/products?tab=shops");
    const { authorizeUrl, started } = attempt;
    expect(`${authorizeUrl.origin}${authorizeUrl.pathname}`).toBe(testEnv.ETSY_OAUTH_URL);
    expect(authorizeUrl.searchParams.get("response_type")).toBe("code");
    expect(authorizeUrl.searchParams.get("client_id")).toBe(testEnv.ETSY_KEYSTRING);
    expect(authorizeUrl.searchParams.get("redirect_uri")).toBe("http://app.test/api/etsyAPI/oauthCallback");
    expect(authorizeUrl.searchParams.get("scope")).toBe("shops_r listings_r");
    expect(authorizeUrl.searchParams.get("code_challenge_method")).toBe("S256");
    const state = authorizeUrl.searchParams.get("state")!;
    const challenge = authorizeUrl.searchParams.get("code_challenge")!;
    expect(challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);

    // The verifier stays on the server, sealed with the state, and is the one behind the challenge.
    const [row] = await db
      .select()
      .from(etsyOauthStates)
      .where(eq(etsyOauthStates.stateHash, await sha256Hex(state)));
    expect(row!.userId).toBe(alice.userId);
    const verifier = await unseal(testEnv.AUTH_SECRET, "etsy-pkce", row!.codeVerifierSealed, row!.stateHash);
    expect(await pkceChallenge(verifier!)).toBe(challenge);
    expect(await started.clone().text()).not.toContain(verifier!);
    expect(started.headers.get("set-cookie")).not.toContain(verifier!);
    expect(started.headers.get("set-cookie")).toMatch(/HttpOnly/);
    expect(started.headers.get("set-cookie")).toMatch(/Secure/);
    expect(started.headers.get("set-cookie")).toMatch(/SameSite=Lax/);
    expect(started.headers.get("set-cookie")).toMatch(/Path=\/api\/etsyAPI\/oauthCallback/);

    const back = await finishEtsyConnection(attempt, attempt.cookie);
    expect(back.pathname).toBe("/products");
    expect(back.searchParams.get("tab")).toBe("shops");
    expect(back.searchParams.get("etsyConnected")).toBe(shopName);

    const { authorizedShops } = await read(await app("/api/shops", { headers: bearer(alice.tokens) }));
    const shop = authorizedShops.find((candidate: { shopName: string }) => candidate.shopName === shopName);
    expect(shop).toMatchObject({ shopType: "Etsy", isActive: true, status: "ok" });
    expect(shop.shopUrl).toMatch(new RegExp(`/etsy/shop/${shopName}$`));

    // Sealed at rest: the row holds none of Etsy's tokens, yet they open to the live ones.
    const account = await etsyAccount(shopName);
    const [profileRow] = await db.select().from(shopProfiles).where(eq(shopProfiles.id, shop.id));
    expect(profileRow!.shopId).toBe(String(account.shop_id));
    expect(account.tokens.length).toBe(2);
    for (const token of account.tokens) expect(JSON.stringify(profileRow)).not.toContain(token.value.split(".")[1]);
    const credentials = await shopCredentials<EtsyCredentials>(testEnv, profileRow!);
    expect(credentials).toMatchObject({ etsyUserId: String(account.user_id), accessToken: account.tokens.find((token) => token.kind === "access")!.value });
    expect(credentials!.expiresAt - Date.now()).toBeGreaterThan(55 * 60_000);
    expect(credentials!.expiresAt - Date.now()).toBeLessThanOrEqual(60 * 60_000);

    // What we sent Etsy's token endpoint: the code with its verifier, for our callback.
    const tokenCall = (await sandbox<RecordedCall[]>("/requests?service=etsy")).find(
      (call) => call.path === "/v3/public/oauth/token" && call.body?.code_verifier === `****${verifier!.slice(-4)}`,
    );
    expect(tokenCall?.body).toMatchObject({
      grant_type: "authorization_code",
      client_id: testEnv.ETSY_KEYSTRING,
      redirect_uri: "http://app.test/api/etsyAPI/oauthCallback",
    });
    expect(account.grants.map((grant) => grant.grant_type)).toEqual(["authorization_code"]);

    // The state is good once, even in the browser that started it.
    const replay = await finishEtsyConnection(attempt, attempt.cookie);
    expect(replay.searchParams.get("etsyError")).toBe(ETSY_STATE_EXPIRED_MESSAGE);
  });

  it("refuses a forged state and a callback in another browser, which the browser that started it can still finish", async () => {
    const forged = await finishEtsyConnection(
      { callbackPath: "/api/etsyAPI/oauthCallback?code=abc&state=never-recorded-state" },
      "pb_etsy_0123456789abcdef=forged",
    );
    expect(forged.searchParams.get("etsyError")).toBe(ETSY_STATE_EXPIRED_MESSAGE);
    expect(forged.searchParams.get("etsyConnected")).toBeNull();

    // Bob starts a connection and sends its link to Alice, whose browser consents and comes back.
    const shopName = etsyShopName("victim");
    const attempt = await startEtsyConnection(bob, shopName);
    for (const cookie of [null, "pb_etsy_0123456789abcdef=forged", attempt.cookie.replace(/=.*/, "=not-the-secret")]) {
      const elsewhere = await finishEtsyConnection(attempt, cookie);
      expect(elsewhere.searchParams.get("etsyError")).toBe(ETSY_OTHER_BROWSER_MESSAGE);
      expect(elsewhere.searchParams.get("etsyConnected")).toBeNull();
    }
    // Another connection's cookie does not finish this one either.
    const other = await startEtsyConnection(bob, etsyShopName("other"));
    expect((await finishEtsyConnection(attempt, other.cookie)).searchParams.get("etsyError")).toBe(ETSY_OTHER_BROWSER_MESSAGE);
    const bobShops = async () =>
      (await read(await app("/api/shops", { headers: bearer(bob.tokens) }))).authorizedShops.map((shop: { shopName: string }) => shop.shopName);
    expect(await bobShops()).not.toContain(shopName);

    // Refused elsewhere, the state stays good for the browser that started it.
    const home = await finishEtsyConnection(attempt, attempt.cookie);
    expect(home.searchParams.get("etsyConnected")).toBe(shopName);
    expect(await bobShops()).toContain(shopName);
  });

  it("refuses a code with the wrong PKCE verifier (Etsy checks it) and connects nothing", async () => {
    // Etsy's side: the stand-in refuses a verifier whose S256 is not the challenge.
    const attempt = await startEtsyConnection(alice, etsyShopName("pkce"));
    const code = new URL(attempt.callbackPath, "http://app.test").searchParams.get("code")!;
    const refused = await new EtsyClient(testEnv)
      .exchangeCode(code, "a-wrong-verifier-of-forty-three-characters-x", etsyCallbackUrl(testEnv))
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(EtsyApiError);
    expect(refused).toMatchObject({ kind: "invalid_grant", status: 400 });
    expect((refused as Error).message).toContain("code_verifier is invalid");

    // Our side: a state whose stored verifier is not the challenge's connects nothing.
    const shopName = etsyShopName("pkcetwo");
    const second = await startEtsyConnection(alice, shopName);
    const stateHash = await sha256Hex(second.authorizeUrl.searchParams.get("state")!);
    await db
      .update(etsyOauthStates)
      .set({ codeVerifierSealed: await seal(testEnv.AUTH_SECRET, "etsy-pkce", "another-verifier-of-forty-three-characters-y", stateHash) })
      .where(eq(etsyOauthStates.stateHash, stateHash));
    const back = await finishEtsyConnection(second, second.cookie);
    expect(back.searchParams.get("etsyError")).toBe(ETSY_CONNECT_FAILED_MESSAGE);
    const { authorizedShops } = await read(await app("/api/shops", { headers: bearer(alice.tokens) }));
    expect(authorizedShops.map((shop: { shopName: string }) => shop.shopName)).not.toContain(shopName);
  });

  it("says so when the user cancels on Etsy, when the Etsy account has no shop, and refuses a return path off the site", async () => {
    // Cancel on the consent page.
    const started = await app("/api/etsyAPI/connectEtsyShop", json({}, bearer(alice.tokens)));
    const authorizeUrl = new URL((await read(started.clone())).authorizeUrl);
    const form = new URLSearchParams(authorizeUrl.searchParams);
    form.set("action", "deny");
    const denied = await fetch(`${testEnv.SANDBOX_URL}/etsy/oauth/connect/approve`, { method: "POST", body: form, redirect: "manual" });
    const deniedBack = new URL(denied.headers.get("location")!);
    expect(deniedBack.searchParams.get("error")).toBe("access_denied");
    const cookie = started.headers
      .getSetCookie()
      .map((value) => value.split(";")[0])
      .join("; ");
    const cancelled = await finishEtsyConnection({ callbackPath: `${deniedBack.pathname}${deniedBack.search}` }, cookie);
    expect(cancelled.pathname).toBe("/products");
    expect(cancelled.searchParams.get("etsyError")).toBe(ETSY_NOT_GRANTED_MESSAGE);

    // A member without a shop.
    const shopless = etsyShopName("noshop");
    await sandbox("/etsy/accounts", { method: "POST", json: { shop_name: shopless, has_shop: false } });
    const attempt = await startEtsyConnection(alice, shopless);
    expect((await finishEtsyConnection(attempt, attempt.cookie)).searchParams.get("etsyError")).toBe(ETSY_NO_SHOP_MESSAGE);

    for (const redirectUrl of ["https://evil.example/", "//evil.example", "/\\evil.example"]) {
      const bad = await app("/api/etsyAPI/connectEtsyShop", json({ redirectUrl }, bearer(alice.tokens)));
      expect(bad.status).toBe(400);
      expect(await read(bad)).toMatchObject({ field: "redirectUrl" });
    }
    expect((await app("/api/etsyAPI/connectEtsyShop", json({}))).status).toBe(401);
  });
});

describe("an Etsy shop's listings", () => {
  let shopName: string;
  let shopID: string;
  beforeAll(async () => {
    shopName = etsyShopName("studio");
    shopID = await connectEtsyShop(alice, shopName);
  });

  it("come 50 a page with a count, newest first, each with its pictures in three sizes, categories and the price Etsy gives", async () => {
    const pages = [];
    for (const pageNumber of ["1", "2", "3"]) {
      const response = await listings(alice, { shopID, pageNumber, searchInput: "" });
      expect(response.status).toBe(200);
      pages.push(await read(response));
    }
    expect(pages.map((page) => page.count)).toEqual([133, 133, 133]);
    expect(pages.map((page) => page.listings.length)).toEqual([50, 50, 33]);
    const all = pages.flatMap((page) => page.listings);
    expect(new Set(all.map((listing: { id: string }) => listing.id)).size).toBe(133);
    // The demo catalogue's active products, in Etsy's order, with Etsy's escaped text decoded and its price counted exactly.
    expect(all.map((listing: { title: string }) => listing.title)).toEqual(NEWEST_FIRST.map((product) => product.title));
    all.forEach((listing: { description: string; price: string; currency: string; categories: string[]; images: unknown[] }, i: number) => {
      const product = NEWEST_FIRST[i]!;
      expect(listing.description).toBe(product.description);
      expect(listing.price).toBe(product.price);
      expect(listing.currency).toBe("USD");
      expect(listing.categories[0]).toBe(product.categories[0]);
      expect(listing.categories).toEqual(expect.arrayContaining(product.tags));
      expect(listing.images).toHaveLength(product.photoCount);
    });
    expect(all.some((listing: { title: string }) => listing.title.includes("&"))).toBe(true);

    const first = all[0] as { url: string; title: string; images: { full: string; medium: string; small: string }[] };
    expect(new Set(first.images.flatMap((image) => [image.full, image.medium, image.small])).size).toBe(first.images.length * 3);
    const small = await fetch(first.images[0]!.small);
    expect(small.status).toBe(200);
    expect(small.headers.get("content-type")).toBe("image/jpeg");
    const full = await fetch(first.images[0]!.full);
    expect((await full.arrayBuffer()).byteLength).toBeGreaterThan((await small.arrayBuffer()).byteLength);
    const productPage = await fetch(first.url);
    expect(productPage.status).toBe(200);
    expect(await productPage.text()).toContain(first.title.replace(/&/g, "&amp;"));

    // Every call to Etsy carried the app's key with its shared secret, and the shop's token.
    const account = await etsyAccount(shopName);
    const calls = (await callsFor(account)).filter((call) => call.path.startsWith("/v3/application/"));
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) {
      expect(call.headers["x-api-key"]).toBe(`****${testEnv.ETSY_SHARED_SECRET.slice(-4)}`);
      expect(call.headers.authorization).toMatch(/^\*\*\*\*/);
    }
    expect(calls.filter((call) => call.path.endsWith("/listings/active")).map((call) => call.query)).toEqual(
      expect.arrayContaining([
        { limit: "50", offset: "0" },
        { limit: "50", offset: "50" },
        { limit: "50", offset: "100" },
      ]),
    );
    expect(calls.filter((call) => call.path === "/v3/application/listings/batch").every((call) => call.query.includes === "Images")).toBe(true);
  });

  it("are searched by Etsy's keywords", async () => {
    const expected = searchProducts(NEWEST_FIRST, "sea salt candle");
    expect(expected.length).toBeGreaterThan(0);
    const found = await read(await listings(alice, { shopID, pageNumber: "1", searchInput: "  sea salt candle " }));
    expect(found.count).toBe(expected.length);
    expect(found.listings.map((listing: { title: string }) => listing.title)).toEqual(expected.map((product) => product.title));
    const none = await read(await listings(alice, { shopID, pageNumber: "1", searchInput: "submarine" }));
    expect(none).toEqual({ listings: [], count: 0 });
    const account = await etsyAccount(shopName);
    expect((await callsFor(account)).some((call) => call.path.endsWith("/listings/active") && call.query.keywords === "sea salt candle")).toBe(true);
  });

  it("are the owner's alone, and bad input is named", async () => {
    const stolen = await listings(bob, { shopID, pageNumber: "1", searchInput: "" });
    expect(stolen.status).toBe(404);
    expect(await read(stolen)).toEqual({ error: "Unable to get Etsy shop listings: That shop is not connected to your account.", field: "shopID" });
    expect((await listings(bob, { shopID: "no-such-shop", pageNumber: "1" })).status).toBe(404);
    for (const [query, field] of [
      [{ shopID, pageNumber: "0" }, "pageNumber"],
      [{ shopID, pageNumber: "two" }, "pageNumber"],
      [{ pageNumber: "1" }, "shopID"],
      [{ shopID, searchInput: "x".repeat(201) }, "searchInput"],
    ] as const) {
      const bad = await listings(alice, query);
      expect(bad.status).toBe(400);
      expect(await read(bad)).toMatchObject({ field });
    }
    expect((await app(`/api/etsyAPI/getEtsyShopListings?shopID=${shopID}`)).status).toBe(401);
  });
});

describe("Etsy's tokens", () => {
  it("are refreshed when the access token has expired, before calling, and the new ones stored sealed", async () => {
    const shopName = etsyShopName("refresh");
    const shopID = await connectEtsyShop(alice, shopName);
    const profile = await shopProfileOf(testEnv, alice.userId, shopID);
    const before = (await shopCredentials<EtsyCredentials>(testEnv, profile))!;
    await updateShopCredentials<EtsyCredentials>(testEnv, profile, { ...before, expiresAt: Date.now() - 1000 });

    const response = await listings(alice, { shopID, pageNumber: "1" });
    expect(response.status).toBe(200);
    const after = (await shopCredentials<EtsyCredentials>(testEnv, await shopProfileOf(testEnv, alice.userId, shopID)))!;
    expect(after.accessToken).not.toBe(before.accessToken);
    expect(after.refreshToken).not.toBe(before.refreshToken);
    expect(after.expiresAt).toBeGreaterThan(Date.now() + 55 * 60_000);
    // The refresh came first: no call went out with the expired token.
    const account = await etsyAccount(shopName);
    const refreshed = account.grants.filter((grant) => grant.grant_type === "refresh_token");
    expect(refreshed).toHaveLength(1);
    const pageCalls = (await callsFor(account)).filter((call) => call.path.endsWith("/listings/active"));
    expect(pageCalls).toHaveLength(1);
    expect(Date.parse(pageCalls[0]!.at)).toBeGreaterThanOrEqual(refreshed[0]!.at);
  });

  it("refreshed by two page loads at once stay good: the one whose refresh token was spent takes the other's tokens", async () => {
    const shopName = etsyShopName("together");
    const shopID = await connectEtsyShop(alice, shopName);
    const profile = await shopProfileOf(testEnv, alice.userId, shopID);
    const before = (await shopCredentials<EtsyCredentials>(testEnv, profile))!;
    await updateShopCredentials<EtsyCredentials>(testEnv, profile, { ...before, expiresAt: Date.now() - 1000 });
    const answers = await Promise.all([listings(alice, { shopID, pageNumber: "1" }), listings(alice, { shopID, pageNumber: "2" })]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    expect((await shopProfileOf(testEnv, alice.userId, shopID)).status).toBe("ok");
    // Both asked Etsy for new tokens with the same refresh token: Etsy granted one.
    expect((await etsyAccount(shopName)).grants.filter((grant) => grant.grant_type === "refresh_token")).toHaveLength(1);
  });

  it("are refreshed once when Etsy refuses the access token (401), then the page comes", async () => {
    const shopName = etsyShopName("expired");
    const shopID = await connectEtsyShop(alice, shopName);
    const before = (await shopCredentials<EtsyCredentials>(testEnv, await shopProfileOf(testEnv, alice.userId, shopID)))!;
    await sandbox("/etsy/expire-token", { method: "POST", json: { shop_name: shopName } });
    const response = await listings(alice, { shopID, pageNumber: "2" });
    expect(response.status).toBe(200);
    expect((await read(response)).listings).toHaveLength(50);
    const after = (await shopCredentials<EtsyCredentials>(testEnv, await shopProfileOf(testEnv, alice.userId, shopID)))!;
    expect(after.accessToken).not.toBe(before.accessToken);
  });

  it("that Etsy no longer accepts mark the shop for reconnecting, and connecting again mends it", async () => {
    const shopName = etsyShopName("revoked");
    const shopID = await connectEtsyShop(alice, shopName);
    await sandbox("/etsy/revoke", { method: "POST", json: { shop_name: shopName } });
    const refused = await listings(alice, { shopID, pageNumber: "1" });
    expect(refused.status).toBe(401);
    expect(await read(refused)).toEqual({
      error: "Unable to get Etsy shop listings: Etsy no longer accepts this connection. Please reconnect your Etsy shop.",
    });
    const shops = async () =>
      (await read(await app("/api/shops", { headers: bearer(alice.tokens) }))).authorizedShops.find((shop: { id: string }) => shop.id === shopID);
    expect((await shops()).status).toBe("reauth");

    // Until reconnected, the page answers at once without asking Etsy.
    const account = await etsyAccount(shopName);
    const callsBefore = (await callsFor(account)).length;
    expect((await listings(alice, { shopID, pageNumber: "1" })).status).toBe(401);
    expect((await callsFor(account)).length).toBe(callsBefore);

    expect(await connectEtsyShop(alice, shopName)).toBe(shopID);
    expect((await shops()).status).toBe("ok");
    expect((await listings(alice, { shopID, pageNumber: "1" })).status).toBe(200);
  });

  it("go with the shop when it is removed (Etsy has no revocation call)", async () => {
    const shopName = etsyShopName("removed");
    const shopID = await connectEtsyShop(alice, shopName);
    const removed = await app(`/api/etsyAPI/removeShopProfile/${shopID}`, { method: "DELETE", headers: bearer(alice.tokens) });
    expect(removed.status).toBe(200);
    expect(await db.select().from(shopProfiles).where(eq(shopProfiles.id, shopID))).toEqual([]);
    expect((await listings(alice, { shopID, pageNumber: "1" })).status).toBe(404);
  });
});

describe("Etsy's limits and failures", () => {
  it("waits out a spent per-second budget instead of overrunning it", async () => {
    const shopName = etsyShopName("persecond");
    const shopID = await connectEtsyShop(alice, shopName);
    await sandbox("/etsy/rate-limit", { method: "POST", json: { shop_name: shopName, perSecond: 1, perDay: 10_000 } });
    const response = await listings(alice, { shopID, pageNumber: "1", searchInput: "mug" });
    expect(response.status).toBe(200);
    expect((await read(response)).count).toBe(searchProducts(ACTIVE, "mug").length);
    const account = await etsyAccount(shopName);
    expect(account.refused).toBe(0);
    // The page's three calls (sections, listings, their pictures) went out one a second.
    const seconds = account.recent_calls.map((at) => Math.floor(at / 1000));
    expect(seconds).toHaveLength(3);
    expect(new Set(seconds).size).toBe(3);
  });

  it("stops at a spent daily budget and says to come back later", async () => {
    const shopName = etsyShopName("perday");
    const shopID = await connectEtsyShop(alice, shopName);
    await sandbox("/etsy/rate-limit", { method: "POST", json: { shop_name: shopName, perSecond: 10, perDay: 2 } });
    const response = await listings(alice, { shopID, pageNumber: "1" });
    expect(response.status).toBe(429);
    expect(await read(response)).toEqual({
      error: "Unable to get Etsy shop listings: Etsy's daily limit of requests for this shop has been reached. Please try again later.",
    });
    // The third call was never sent: the answers had said the day's budget was spent.
    expect(await etsyAccount(shopName)).toMatchObject({ calls_today: 2, refused: 0 });
  });

  it("waits out a short Retry-After and answers a long one with how long to wait", async () => {
    const shopName = etsyShopName("retry");
    const shopID = await connectEtsyShop(alice, shopName);
    const { shop_id } = await etsyAccount(shopName);
    const path = `/v3/application/shops/${shop_id}/listings/active`;
    await sandbox("/faults", {
      method: "POST",
      json: { service: "etsy", path, status: 429, headers: { "retry-after": "1" }, body: { error: "You have exceeded your quota of requests per second" } },
    });
    expect((await listings(alice, { shopID, pageNumber: "1" })).status).toBe(200);

    await sandbox("/faults", {
      method: "POST",
      json: { service: "etsy", path, status: 429, headers: { "retry-after": "30" }, body: { error: "You have exceeded your quota of requests per second" } },
    });
    const busy = await listings(alice, { shopID, pageNumber: "1" });
    expect(busy.status).toBe(429);
    expect(busy.headers.get("retry-after")).toBe("30");
    expect((await read(busy)).error).toBe(
      "Unable to get Etsy shop listings: Etsy is receiving too many requests for this shop. Please try again in 30 seconds.",
    );

    await sandbox("/faults", { method: "POST", json: { service: "etsy", path, status: 429, headers: { "retry-after": "600" } } });
    expect((await read(await listings(alice, { shopID, pageNumber: "1" }))).error).toBe(
      "Unable to get Etsy shop listings: Etsy is receiving too many requests for this shop. Please try again in 10 minutes.",
    );
  });

  it("turns Etsy's server errors, slow answers and an injected 401 into plain messages, never a 500", async () => {
    const shopName = etsyShopName("faults");
    const shopID = await connectEtsyShop(alice, shopName);
    const { shop_id } = await etsyAccount(shopName);
    const path = `/v3/application/shops/${shop_id}/listings/active`;

    await sandbox("/faults", { method: "POST", json: { service: "etsy", path, status: 503 } });
    const down = await listings(alice, { shopID, pageNumber: "1" });
    expect(down.status).toBe(502);
    expect(await read(down)).toEqual({ error: "Unable to get Etsy shop listings: Etsy is not answering right now. Please try again in a few minutes." });

    // Longer than ETSY_TIMEOUT_MS (1.5 s in the tests).
    await sandbox("/faults", { method: "POST", json: { service: "etsy", path, delayMs: 4000 } });
    const slow = await listings(alice, { shopID, pageNumber: "1" });
    expect(slow.status).toBe(502);
    expect(await read(slow)).toEqual({ error: "Unable to get Etsy shop listings: Etsy took too long to answer. Please try again." });

    // One 401 (an expired token, as Etsy says it): refreshed and tried again.
    await sandbox("/faults", {
      method: "POST",
      json: { service: "etsy", path, status: 401, body: { error: "invalid_token", error_description: "access token is expired" } },
    });
    expect((await listings(alice, { shopID, pageNumber: "1" })).status).toBe(200);

    // 401 twice over: the shop needs reconnecting.
    await sandbox("/faults", { method: "POST", json: { service: "etsy", path, status: 401, times: 2, body: { error: "invalid_token" } } });
    const refused = await listings(alice, { shopID, pageNumber: "1" });
    expect(refused.status).toBe(401);
    expect((await read(refused)).error).toBe("Unable to get Etsy shop listings: Etsy no longer accepts this connection. Please reconnect your Etsy shop.");
  });

  it("are refused by Etsy when the key lacks the shared secret, which the client always sends", async () => {
    const tokens = await sandbox<{ access_token: string }>("/etsy/tokens", { method: "POST", json: { shop_name: etsyShopName("keyless") } });
    const userId = tokens.access_token.split(".")[0]!;
    const keyless = new EtsyClient({ ...testEnv, ETSY_SHARED_SECRET: "" });
    const error = await keyless.shopOfUser(tokens.access_token, userId).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: "forbidden", status: 403 });
    expect((error as Error).message).toContain("Shared secret is required in x-api-key header");
    expect((await new EtsyClient(testEnv).shopOfUser(tokens.access_token, userId)).shop_name).toBeTruthy();
  });
});
