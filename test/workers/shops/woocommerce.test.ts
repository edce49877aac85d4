import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { DEMO_PRODUCTS, searchProducts } from "../../../sandbox/demo-shop/catalog.ts";
import { signToken } from "../../../workers/auth/tokens.ts";
import { database } from "../../../workers/db/client.ts";
import { shopProfiles, woocommerceConnections } from "../../../workers/db/schema.ts";
import { tokenSettings } from "../../../workers/services/accounts/accounts.ts";
import { saveShopConnection, shopCredentials } from "../../../workers/services/shops/shops.ts";
import { DENIED_MESSAGE, NOT_STARTED_MESSAGE, OTHER_BROWSER_MESSAGE, USED_MESSAGE } from "../../../workers/services/shops/woocommerce-connection.ts";
import { bearer, json, signUpUser, type TestUser } from "../accounts/accounts-support.ts";
import { app, read, sandbox, testEnv } from "../support.ts";
import {
  approveWooCommerce as approve,
  comeBackFromWooCommerce as comeBack,
  connectWooCommerceStore as connectStore,
  deliverWooCommerceKeys as deliver,
  holdWooCommerceCallbacks,
  newStore,
  startWooCommerce as start,
  storeUrl,
} from "./woocommerce-support.ts";

// WooCommerce (decision 030): keys issued by the store's own authorisation page and POSTed to our
// callback for the connection named by a signed, single-use user_id; kept only in the browser that
// started the connection; sealed at rest; then the store's products as listings through the stand-in.

const db = database(testEnv.DB);
const ACTIVE = DEMO_PRODUCTS.filter((product) => product.status === "active");

beforeAll(async () => {
  await holdWooCommerceCallbacks();
});

async function listings(user: TestUser, shopID: string, query: Record<string, string> = {}) {
  return app(`/api/woocommerce/products?${new URLSearchParams({ shopID, ...query })}`, { headers: bearer(user.tokens) });
}

async function fault(slug: string, settings: Record<string, unknown>, path = "/wp-json/wc/v3/products") {
  await sandbox("/faults", { method: "POST", json: { service: "woocommerce", method: "GET", path: `/${slug}${path}`, ...settings } });
}

let alice: TestUser;
let bob: TestUser;
beforeAll(async () => {
  alice = await signUpUser({ firstName: "Alice" });
  bob = await signUpUser({ firstName: "Bob" });
});

describe("connecting a WooCommerce store", () => {
  it("goes through the store's authorisation page with read scope and an opaque user_id, and keeps the keys sealed", async () => {
    const slug = newStore("linen-loft");
    await sandbox(`/woocommerce/stores/${slug}`, { method: "POST", json: { name: "Linen & Loft" } });
    const { back, callback, shop, authorizeUrl } = await connectStore(alice, slug);

    expect(authorizeUrl.origin + authorizeUrl.pathname).toBe(`${storeUrl(slug)}/wc-auth/v1/authorize`);
    expect(authorizeUrl.searchParams.get("app_name")).toBe("Pinboard Studio");
    expect(authorizeUrl.searchParams.get("scope")).toBe("read");
    expect(authorizeUrl.searchParams.get("callback_url")).toBe("http://app.test/api/woocommerce/callback");
    expect(authorizeUrl.searchParams.get("return_url")).toBe("http://app.test/api/woocommerce/return");
    // Not the user's id: a signed name for this one connection.
    expect(authorizeUrl.searchParams.get("user_id")).not.toContain(alice.userId);
    expect(JSON.parse(callback.body)).toEqual({
      key_id: callback.keyId,
      user_id: authorizeUrl.searchParams.get("user_id"),
      consumer_key: expect.stringMatching(/^ck_[0-9a-f]{40}$/),
      consumer_secret: expect.stringMatching(/^cs_[0-9a-f]{40}$/),
      key_permissions: "read",
    });

    expect(back.pathname).toBe("/products");
    expect(back.searchParams.get("shopConnected")).toBe("Linen & Loft");
    expect(shop).toMatchObject({ shopType: "WooCommerce", shopName: "Linen & Loft", shopUrl: storeUrl(slug), status: "ok" });

    // Sealed at rest: neither the shop row nor the finished connection holds the keys in the clear.
    const { consumer_key, consumer_secret } = JSON.parse(callback.body);
    const [row] = await db.select().from(shopProfiles).where(eq(shopProfiles.id, shop.id));
    expect(JSON.stringify(row)).not.toContain(consumer_key);
    expect(JSON.stringify(row)).not.toContain(consumer_secret);
    expect(await shopCredentials(testEnv, row!)).toMatchObject({
      consumerKey: consumer_key,
      consumerSecret: consumer_secret,
      keyId: callback.keyId,
      currency: "USD",
    });
    const connections = await db.select().from(woocommerceConnections).where(eq(woocommerceConnections.userId, alice.userId));
    expect(JSON.stringify(connections)).not.toContain(consumer_secret);
    // Nor do the answers the browser sees.
    const me = await read(await app("/api/user", { headers: bearer(alice.tokens) }));
    expect(JSON.stringify(me)).not.toContain(consumer_secret);
  });

  it("refuses a forged, a replayed and an expired user_id, and WooCommerce then deletes the key", async () => {
    const slug = newStore("forged");
    const { authorizeUrl, cookie } = await start(alice, storeUrl(slug));
    const callback = await approve(authorizeUrl);
    const body = JSON.parse(callback.body);

    // Forged: a user_id we never signed.
    const forgedToken = await signToken({ secret: "another-secret-0123456789abcdefghijklmnop", issuer: "http://app.test" }, "wooConnect", {}, "whatever", 900);
    for (const userId of ["123", forgedToken]) {
      const forged = await app("/api/woocommerce/callback", json({ ...body, user_id: userId }));
      expect(forged.status).toBe(400);
      expect(await read(forged)).toMatchObject({ error: NOT_STARTED_MESSAGE, field: "user_id" });
    }
    // Expired: signed by us, for a real pending connection, but past its time.
    const connection = await db.query.woocommerceConnections.findFirst({
      where: eq(woocommerceConnections.userId, alice.userId),
      orderBy: (c, { desc }) => desc(c.createdAt),
    });
    const expiredToken = await signToken(tokenSettings(testEnv), "wooConnect", {}, connection!.id, -60);
    const expired = await app("/api/woocommerce/callback", json({ ...body, user_id: expiredToken }));
    expect(expired.status).toBe(400);

    // The real delivery is taken once; the same POST again is refused.
    const first = await deliver(callback);
    expect(first.response.status).toBe(200);
    const replay = await app("/api/woocommerce/callback", { method: "POST", headers: callback.headers, body: callback.body });
    expect(replay.status).toBe(409);
    expect(await read(replay)).toMatchObject({ error: USED_MESSAGE, field: "user_id" });
    expect((await comeBack(first.settled.returnUrl!, cookie)).searchParams.get("shopConnected")).toBeTruthy();

    // A refused delivery: the stand-in deletes the key, as WooCommerce does.
    const other = await start(alice, storeUrl(newStore("refused")));
    const refusedCallback = await approve(other.authorizeUrl);
    const refused = await deliver(refusedCallback, JSON.stringify({ ...JSON.parse(refusedCallback.body), user_id: forgedToken }));
    expect(refused.response.status).toBe(400);
    expect(refused.settled.error).toContain("unable to send the consumer data");
    const keys = await sandbox<{ keyId: number }[]>(`/woocommerce/keys`);
    expect(keys.map((key) => key.keyId)).not.toContain(refusedCallback.keyId);
  });

  it("refuses a connection past its 15 minutes even with a good user_id", async () => {
    const { authorizeUrl, cookie } = await start(bob, storeUrl(newStore("late")));
    const callback = await approve(authorizeUrl);
    await db
      .update(woocommerceConnections)
      .set({ expiresAt: Date.now() - 1 })
      .where(eq(woocommerceConnections.userId, bob.userId));
    const { response, settled } = await deliver(callback);
    expect(response.status).toBe(409);
    expect(settled.error).toBeTruthy();
    const back = await comeBack(callback.returnUrl, cookie);
    expect(back.searchParams.get("shopError")).toBeTruthy();
    expect(back.searchParams.get("shopConnected")).toBeNull();
  });

  it("attaches keys POSTed for one pending connection to nobody else: another user's connection refuses them", async () => {
    const aliceStore = newStore("alice-shop");
    const bobStore = newStore("bob-shop");
    const aliceStart = await start(alice, storeUrl(aliceStore));
    const bobStart = await start(bob, storeUrl(bobStore));
    const aliceCallback = await approve(aliceStart.authorizeUrl);
    // Alice's store's keys, sent for Bob's pending connection: they do not open the store Bob named.
    const slipped = await app(
      "/api/woocommerce/callback",
      json({ ...JSON.parse(aliceCallback.body), user_id: bobStart.authorizeUrl.searchParams.get("user_id") }),
    );
    expect(slipped.status).toBe(400);
    expect(await read(slipped)).toMatchObject({ field: "consumer_key" });
    const bobBack = await comeBack(
      `http://app.test/api/woocommerce/return?success=1&user_id=${encodeURIComponent(bobStart.authorizeUrl.searchParams.get("user_id")!)}`,
      bobStart.cookie,
    );
    expect(bobBack.searchParams.get("shopError")).toBeTruthy();
    const bobShops = (await read(await app("/api/shops", { headers: bearer(bob.tokens) }))).authorizedShops;
    expect(bobShops).toEqual([]);

    // Alice's own connection still takes her keys, for her only.
    const { response, settled } = await deliver(aliceCallback);
    expect(response.status).toBe(200);
    expect((await comeBack(settled.returnUrl!, aliceStart.cookie)).searchParams.get("shopConnected")).toBeTruthy();
    const aliceShops = (await read(await app("/api/shops", { headers: bearer(alice.tokens) }))).authorizedShops as { shopUrl: string }[];
    expect(aliceShops.map((shop) => shop.shopUrl)).toContain(storeUrl(aliceStore));
  });

  it("connects nothing when the return comes to another browser: a link someone else started gives them no store", async () => {
    const victimStore = newStore("victim");
    // Bob starts a connection naming a store that is not his, keeps the cookie, and sends the link to its owner...
    const bobStart = await start(bob, storeUrl(victimStore));
    // ...who approves it: the keys do open the store Bob named.
    const callback = await approve(bobStart.authorizeUrl);
    const { response, settled } = await deliver(callback);
    expect(response.status).toBe(200);
    // The owner's browser comes back without Bob's cookie: the keys are dropped.
    const ownerBack = await comeBack(settled.returnUrl!, "");
    expect(ownerBack.searchParams.get("shopError")).toBe(OTHER_BROWSER_MESSAGE);
    // Bob, with his cookie, comes too late.
    const bobBack = await comeBack(settled.returnUrl!, bobStart.cookie);
    expect(bobBack.searchParams.get("shopConnected")).toBeNull();
    expect((await read(await app("/api/shops", { headers: bearer(bob.tokens) }))).authorizedShops).toEqual([]);
    expect(
      (await db.select().from(woocommerceConnections).where(eq(woocommerceConnections.userId, bob.userId))).every(
        (connection) => connection.keysSealed === null,
      ),
    ).toBe(true);
  });

  it("comes back with a plain message when the owner denies access, and refuses an address that is not a WooCommerce store", async () => {
    const { authorizeUrl, cookie } = await start(alice, storeUrl(newStore("denied")), "/products?tab=shops");
    const page = await (await fetch(authorizeUrl)).text();
    const deny = /id="deny" href="([^"]+)"/.exec(page)![1]!.replaceAll("&amp;", "&");
    expect(new URL(deny).searchParams.get("success")).toBe("0");
    const back = await comeBack(deny, cookie);
    expect(back.pathname).toBe("/products");
    expect(back.searchParams.get("tab")).toBe("shops");
    expect(back.searchParams.get("shopError")).toBe(DENIED_MESSAGE);

    for (const [storeInput, status] of [
      ["not a web address", 400],
      ["ftp://shop.example", 400],
      [`${testEnv.SANDBOX_URL}/blog-demo`, 400],
    ] as const) {
      const refused = await app("/api/woocommerce/connect", json({ storeUrl: storeInput }, bearer(alice.tokens)));
      expect(refused.status, storeInput).toBe(status);
      expect(await read(refused)).toMatchObject({ field: "storeUrl" });
    }
    const offSite = await app("/api/woocommerce/connect", json({ storeUrl: storeUrl("x"), redirectUrl: "//evil.example/" }, bearer(alice.tokens)));
    expect(offSite.status).toBe(400);
    expect(await read(offSite)).toMatchObject({ field: "redirectUrl" });
    // A pasted admin address connects the store itself.
    const pasted = await start(alice, `${storeUrl("pasted")}/wp-admin/admin.php?page=wc-settings`);
    expect(pasted.authorizeUrl.pathname).toBe("/woocommerce/pasted/wc-auth/v1/authorize");
    // A store that fails to answer is said once, in one sentence (issue 40 point 7: not "We could not reach …: The store at …").
    const failing = newStore("failing");
    await fault(failing, { status: 503 }, "/wp-json/");
    const down = await app("/api/woocommerce/connect", json({ storeUrl: storeUrl(failing) }, bearer(alice.tokens)));
    expect(down.status).toBe(502);
    expect(await read(down)).toEqual({ error: "The store had a problem answering (error 503). Please try again in a moment.", field: "storeUrl" });
    // A store that moved (shop.example → www.shop.example) is connected where it answers.
    const moved = newStore("moved");
    await fault(moved, { status: 301, headers: { location: `${storeUrl(`${moved}-www`)}/wp-json/` } }, "/wp-json/");
    expect((await start(alice, storeUrl(moved))).authorizeUrl.pathname).toBe(`/woocommerce/${moved}-www/wc-auth/v1/authorize`);
  });
});

describe("WooCommerce listings", () => {
  let slug: string;
  let shopID: string;
  beforeAll(async () => {
    slug = newStore("homeware");
    await sandbox(`/woocommerce/stores/${slug}`, { method: "POST", json: { currency: "EUR" } });
    shopID = (await connectStore(alice, slug)).shop.id;
  });

  it("pages through the published products 50 at a time with the count, in the store's currency", async () => {
    const first = await listings(alice, shopID);
    expect(first.status).toBe(200);
    const page1 = await read(first);
    expect(page1.count).toBe(ACTIVE.length);
    expect(page1.listings).toHaveLength(50);
    const page3 = await read(await listings(alice, shopID, { pageNumber: "3" }));
    expect(page3.listings).toHaveLength(ACTIVE.length - 100);
    const ids = new Set([...page1.listings, ...page3.listings].map((listing: { id: string }) => listing.id));
    expect(ids.size).toBe(50 + ACTIVE.length - 100);

    const newest = ACTIVE.at(-1)!;
    const listing = page1.listings[0];
    expect(listing).toMatchObject({ title: newest.title, currency: "EUR", categories: expect.arrayContaining([...newest.categories, ...newest.tags]) });
    expect(listing.url).toBe(`${storeUrl(slug)}/product/${newest.handle}/`);
    // HTML to text: no tags, entities decoded.
    expect(listing.description).toContain(newest.description);
    expect(listing.description).not.toMatch(/[<>]|&amp;|&#/);
    expect(listing.description).toContain("Handmade – no two are quite alike");
    expect(listing.price).toMatch(/^\d+\.\d{2}$/);
    expect(listing.images).toHaveLength(newest.photoCount);
    for (const image of listing.images) expect(image.full === image.medium && image.medium === image.small).toBe(true);
    const photo = await fetch(listing.images[0].full);
    expect(photo.headers.get("content-type")).toBe("image/jpeg");
    expect((await photo.arrayBuffer()).byteLength).toBeGreaterThan(1000);

    // Past the last page: an empty page, the same count.
    expect(await read(await listings(alice, shopID, { pageNumber: "9" }))).toEqual({ listings: [], count: ACTIVE.length });
  });

  it("searches, asks WooCommerce with Basic auth (never keys in the URL) and reads the currency once", async () => {
    const expected = searchProducts(ACTIVE, "candle sage");
    const found = await read(await listings(alice, shopID, { searchInput: "  candle sage " }));
    expect(found.count).toBe(expected.length);
    expect(found.listings.map((listing: { title: string }) => listing.title).sort()).toEqual(expected.map((product) => product.title).sort());

    const requests = (
      await sandbox<{ path: string; query: Record<string, string>; headers: Record<string, string> }[]>("/requests?service=woocommerce")
    ).filter((request) => request.path.startsWith(`/${slug}/wp-json/wc/v3/`));
    const search = requests.filter((request) => request.path.endsWith("/products")).at(-1)!;
    expect(search.query).toEqual({ page: "1", per_page: "50", status: "publish", search: "candle sage" });
    expect(search.headers.authorization).toMatch(/^\*\*\*\*/);
    expect(requests.every((request) => !("consumer_key" in request.query) && !("consumer_secret" in request.query))).toBe(true);
    // The currency was read when the store was connected, and is kept for a day.
    expect(requests.filter((request) => request.path.includes("/settings/")).length).toBe(1);
  });

  it("turns each store failure into 'Unable to get shop listings: …', never a 500", async () => {
    await fault(slug, { status: 503 });
    const down = await listings(alice, shopID);
    expect(down.status).toBe(502);
    expect((await read(down)).error).toBe("Unable to get shop listings: The store had a problem answering (error 503). Please try again in a moment.");

    await fault(slug, { status: 429, headers: { "retry-after": "30" } });
    const busy = await listings(alice, shopID);
    expect(busy.status).toBe(429);
    expect(busy.headers.get("retry-after")).toBe("30");
    expect((await read(busy)).error).toMatch(/^Unable to get shop listings: .* Please try again in 30 seconds\.$/);

    await fault(slug, { delayMs: 3000 });
    const slow = await listings(alice, shopID);
    expect(slow.status).toBe(502);
    expect((await read(slow)).error).toBe("Unable to get shop listings: The store did not answer within 1.5 seconds. Please try again.");

    await fault(slug, {
      status: 200,
      body: "<html><body>Briefly unavailable for scheduled maintenance.</body></html>",
      headers: { "content-type": "text/html" },
    });
    const maintenance = await listings(alice, shopID);
    expect(maintenance.status).toBe(502);
    expect((await read(maintenance)).error).toMatch(/^Unable to get shop listings: The store answered with something other than WooCommerce's API/);

    await fault(slug, {
      status: 404,
      body: { code: "rest_no_route", message: "No route was found matching the URL and request method.", data: { status: 404 } },
    });
    const gone = await listings(alice, shopID);
    expect(gone.status).toBe(502);
    expect((await read(gone)).error).toMatch(/^Unable to get shop listings: .* permalinks are not set to Plain\.$/);

    // And the shop still works afterwards.
    expect((await listings(alice, shopID)).status).toBe(200);
  });

  it("reads WooCommerce's HTML as text: tags, scripts and entities", async () => {
    await fault(slug, {
      status: 200,
      headers: { "x-wp-total": "1", "x-wp-totalpages": "1" },
      body: [
        {
          id: 7,
          name: "Tom&#8217;s <b>Mug</b>",
          permalink: "https://shop.example/product/toms-mug/",
          description: "",
          short_description: "<p>Holds&nbsp;12&nbsp;oz.<br>Dishwasher safe &amp; sturdy.</p><script>alert(1)</script><style>p{}</style>",
          price: "",
          regular_price: "",
          categories: [{ id: 1, name: "Kitchen &amp; Dining", slug: "kitchen" }],
          tags: [{ id: 2, name: "Kitchen &amp; Dining", slug: "kitchen-tag" }],
          images: [
            { id: 3, src: "https://shop.example/wp-content/uploads/mug.jpg" },
            { id: 4, src: "javascript:alert(1)" },
          ],
        },
      ],
    });
    const page = await read(await listings(alice, shopID));
    expect(page).toEqual({
      count: 1,
      listings: [
        {
          id: "7",
          title: "Tom’s Mug",
          description: "Holds 12 oz. Dishwasher safe & sturdy.",
          images: [
            {
              full: "https://shop.example/wp-content/uploads/mug.jpg",
              medium: "https://shop.example/wp-content/uploads/mug.jpg",
              small: "https://shop.example/wp-content/uploads/mug.jpg",
            },
          ],
          categories: ["Kitchen & Dining"],
          price: "",
          currency: "EUR",
          url: "https://shop.example/product/toms-mug/",
        },
      ],
    });
  });

  it("answers 400 naming the field for bad paging or search", async () => {
    for (const [query, field] of [
      [{ pageNumber: "0" }, "pageNumber"],
      [{ pageNumber: "two" }, "pageNumber"],
      [{ searchInput: "x".repeat(201) }, "searchInput"],
    ] as const) {
      const refused = await listings(alice, shopID, query);
      expect(refused.status).toBe(400);
      expect(await read(refused)).toMatchObject({ field });
    }
    const missing = await app("/api/woocommerce/products", { headers: bearer(alice.tokens) });
    expect(missing.status).toBe(400);
    expect(await read(missing)).toMatchObject({ field: "shopID" });
  });
});

describe("a WooCommerce shop is its owner's alone", () => {
  it("is out of reach for another user, and only a WooCommerce shop lists here", async () => {
    const { shop } = await connectStore(alice, newStore("private"));
    for (const response of [
      await listings(bob, shop.id),
      await app(`/api/etsyAPI/removeShopProfile/${shop.id}`, { method: "DELETE", headers: bearer(bob.tokens) }),
      await app("/api/etsyAPI/activateShopProfile", json({ shopID: shop.id }, bearer(bob.tokens))),
    ]) {
      expect(response.status).toBe(404);
      expect((await read(response)).error).toBe("That shop is not connected to your account.");
    }
    expect((await listings(alice, shop.id)).status).toBe(200);

    const etsy = await saveShopConnection(testEnv, bob.userId, {
      shopType: "Etsy",
      shopId: newStore("etsy"),
      shopName: "Bob's Etsy",
      shopUrl: null,
      credentials: { accessToken: "x" },
    });
    const wrongKind = await listings(bob, etsy.id);
    expect(wrongKind.status).toBe(400);
    expect(await read(wrongKind)).toMatchObject({ error: "That shop is not a WooCommerce shop.", field: "shopID" });
  });
});

describe("when the store owner revokes the keys, and when the user removes the shop", () => {
  it("asks to reconnect (without signing the user out), and removal says where to revoke the keys", async () => {
    const slug = newStore("revoked");
    const { shop, callback } = await connectStore(alice, slug);
    // The owner revokes our key in WooCommerce → Settings → Advanced → REST API.
    await sandbox(`/woocommerce/keys/${callback.keyId}`, { method: "DELETE" });
    const refused = await listings(alice, shop.id);
    expect(refused.status).toBe(409);
    expect((await read(refused)).error).toBe(
      `Unable to get shop listings: ${new URL(storeUrl(slug)).host} no longer accepts our keys. Please reconnect your store.`,
    );
    const shops = (await read(await app("/api/shops", { headers: bearer(alice.tokens) }))).authorizedShops as { id: string; status: string }[];
    expect(shops.find((candidate) => candidate.id === shop.id)?.status).toBe("reauth");

    // Connecting again mends it, in place.
    const again = await connectStore(alice, slug);
    expect(again.shop.id).toBe(shop.id);
    expect(again.shop.status).toBe("ok");
    expect((await listings(alice, shop.id)).status).toBe(200);

    const removed = await read(await app(`/api/etsyAPI/removeShopProfile/${shop.id}`, { method: "DELETE", headers: bearer(alice.tokens) }));
    expect(removed.authorizedShops.map((candidate: { id: string }) => candidate.id)).not.toContain(shop.id);
    const keyEnding = JSON.parse(again.callback.body).consumer_key.slice(-7);
    expect(removed.message).toContain("WooCommerce → Settings → Advanced → REST API");
    expect(removed.message).toContain(keyEnding);
    // WooCommerce has no call for an app to revoke its key: it is still there for the owner to revoke.
    const keys = await sandbox<{ keyId: number }[]>(`/woocommerce/keys?store=${slug}`);
    expect(keys.map((key) => key.keyId)).toContain(again.callback.keyId);
  });
});
