import Papa from "papaparse";
import { beforeAll, describe, expect, it } from "vitest";
import type { CatalogsState, CatalogStatus } from "../../../contracts/pinterest/catalogs.ts";
import { bearer, json, signUpUser, type TestUser } from "../accounts/accounts-support.ts";
import { connectProfile, pinterestName, type ConnectedProfile } from "./scheduling-support.ts";
import { app, read, sandbox, testEnv } from "../support.ts";

// Catalogs (issue 18, decision 043): every call at its path, scoped to the caller; the feed file
// against Pinterest's column rules; publish, re-ingest and item issues against the Pinterest stand-in.

const call = (user: TestUser, method: string, path: string, body?: unknown) =>
  app(path, body === undefined ? { method, headers: bearer(user.tokens) } : { ...json(body, bearer(user.tokens)), method });

async function ok(user: TestUser, method: string, path: string, body?: unknown, status = 200) {
  const response = await call(user, method, path, body);
  const text = await response.text();
  expect(response.status, `${method} ${path}: ${text}`).toBe(status);
  return JSON.parse(text);
}

const image = (file: string) => `${testEnv.SANDBOX_URL}/blog-demo/images/${file}`;

const item = (title: string, fields: Record<string, unknown> = {}) => ({
  title,
  description: `${title}, made by hand in small batches.`,
  link: `https://linen.example/products/${title.toLowerCase().replace(/\W+/g, "-")}`,
  price: "24.50",
  currency: "USD",
  availability: "in stock",
  brand: "Linen & Lark",
  condition: "new",
  categories: ["Home", "Kitchen"],
  images: [image("balcony-herb-garden-1.jpg"), image("balcony-herb-garden-2.jpg")],
  ...fields,
});

async function createCatalog(user: TestUser, name: string, profile?: ConnectedProfile) {
  return (await ok(user, "POST", "/api/catalogs/createCatalog", { name, ...(profile ? { pinterestUsername: profile.username } : {}) }, 201)).catalog;
}

async function itemRows(catalogId: string) {
  return (await testEnv.DB.prepare("SELECT * FROM catalog_items WHERE catalog_id = ?1").bind(catalogId).all()).results;
}

/** The workers tests' app (http://app.test) has no address the stand-in can reach: hand it the bytes the app serves there. */
async function handFeedToPinterest(feedUrl: string) {
  const served = await app(new URL(feedUrl).pathname);
  expect(served.status).toBe(200);
  await sandbox("/pinterest/feed-files", { method: "PUT", json: { url: feedUrl, body: await served.text() } });
}

interface SandboxRequest {
  method: string;
  path: string;
  body: unknown;
}
const pinterestRequests = async (pathPart: string) =>
  (await sandbox<SandboxRequest[]>("/requests?service=pinterest")).filter((request) => request.path.includes(pathPart));

let owner: TestUser;
let other: TestUser;
let profile: ConnectedProfile;

beforeAll(async () => {
  [owner, other] = await Promise.all([signUpUser({ firstName: "Cata" }), signUpUser({ firstName: "Other" })]);
  profile = await connectProfile(owner, pinterestName("catalogs"), { settings: null });
});

describe("catalog calls", () => {
  it("create, open, add items in bulk, list, edit, delete a picture, delete an item, rename, and remove the active catalog", async () => {
    const first = await createCatalog(owner, "Kitchen linens", profile);
    expect(first).toMatchObject({ name: "Kitchen linens", pinterestUsername: profile.username, itemCount: 0, currency: "USD", pinterestFeedId: null });
    expect(first.feedUrl).toMatch(/^http:\/\/app\.test\/catalog-feeds\/[A-Za-z0-9_-]{32}\.csv$/);
    const second = await createCatalog(owner, "Candles", profile);

    // "latest" opens the newest; an id opens that one.
    let state: CatalogsState = await ok(owner, "GET", "/api/catalogs/getCatalogs/latest");
    expect(state.allCatalogs.map((catalog) => catalog.name)).toEqual(["Candles", "Kitchen linens"]);
    expect(state.activeCatalog?.id).toBe(second.id);

    const added = await ok(
      owner,
      "POST",
      "/api/catalogs/addItemsToCatalog",
      { catalogID: first.id, items: [item("Napkins"), item("Tea towel", { price: 12 }), item("Apron")] },
      201,
    );
    expect(added.added).toBe(3);
    expect(added.catalogItems.map((entry: { title: string; price: string }) => [entry.title, entry.price])).toEqual([
      ["Napkins", "24.50"],
      ["Tea towel", "12.00"],
      ["Apron", "24.50"],
    ]);
    state = await ok(owner, "GET", `/api/catalogs/getCatalogs/${first.id}`);
    expect(state.activeCatalog).toMatchObject({ id: first.id, itemCount: 3 });
    expect(state.catalogItems).toHaveLength(3);
    const [napkins, towel, apron] = (await ok(owner, "GET", `/api/catalogs/getCatalogItems/${first.id}`)).catalogItems;

    const edited = await ok(owner, "PATCH", `/api/catalogs/updateCatalogItem/${towel.id}`, {
      title: "Striped tea towel",
      availability: "preorder",
      price: "9.9",
    });
    expect(edited.catalogItem).toMatchObject({ title: "Striped tea towel", availability: "preorder", price: "9.90", description: towel.description });

    const fewer = await ok(owner, "DELETE", "/api/catalogs/deleteCatalogItemImage", { catalogItemID: napkins.id, image: napkins.images[1] });
    expect(fewer.catalogItem.images).toEqual([napkins.images[0]]);
    // A picture the item does not have changes nothing.
    expect(
      (await ok(owner, "DELETE", "/api/catalogs/deleteCatalogItemImage", { catalogItemID: napkins.id, image: "https://elsewhere.example/x.jpg" })).catalogItem
        .images,
    ).toEqual([napkins.images[0]]);

    expect(await ok(owner, "DELETE", `/api/catalogs/deleteCatalogItem/${apron.id}`)).toEqual({ deletedCatalogItemID: apron.id, catalogID: first.id });
    expect((await ok(owner, "GET", `/api/catalogs/getCatalogItems/${first.id}`)).catalogItems.map((entry: { title: string }) => entry.title)).toEqual([
      "Napkins",
      "Striped tea towel",
    ]);

    const renamed = await ok(owner, "PATCH", `/api/catalogs/updateCatalog/${first.id}`, { name: "Table linens", currency: "EUR" });
    expect(renamed.catalog).toMatchObject({ name: "Table linens", currency: "EUR", feedUrl: first.feedUrl });

    // Removing the open catalog: "latest" then opens the other one, and the removed one is gone.
    const removed = await ok(owner, "DELETE", `/api/catalogs/deleteCatalog/${second.id}`);
    expect(removed.allCatalogs.map((catalog: { id: string }) => catalog.id)).not.toContain(second.id);
    expect((await call(owner, "GET", `/api/catalogs/getCatalogs/${second.id}`)).status).toBe(404);
    state = await ok(owner, "GET", "/api/catalogs/getCatalogs/latest");
    expect(state.activeCatalog?.id).toBe(first.id);
    await ok(owner, "DELETE", `/api/catalogs/deleteCatalog/${first.id}`);
    expect(await itemRows(first.id)).toEqual([]);
    expect((await ok(owner, "GET", "/api/catalogs/getCatalogs/latest")).activeCatalog).toBeNull();
  });

  it("refuses bad input with 400 naming the field, and writes nothing of a batch with one bad item", async () => {
    const catalog = await createCatalog(owner, "Strict", profile);
    const cases: [string, string, unknown, string][] = [
      ["POST", "/api/catalogs/createCatalog", { name: "  " }, "name"],
      ["POST", "/api/catalogs/createCatalog", { name: "X", currency: "dollars" }, "currency"],
      ["POST", "/api/catalogs/addItemsToCatalog", { catalogID: catalog.id, items: [] }, "items"],
      ["POST", "/api/catalogs/addItemsToCatalog", { items: [item("A")] }, "catalogID"],
      [
        "POST",
        "/api/catalogs/addItemsToCatalog",
        { catalogID: catalog.id, items: [item("Good"), item("Bad", { link: "not a link" }), item("Fine")] },
        "items.1.link",
      ],
      ["POST", "/api/catalogs/addItemsToCatalog", { catalogID: catalog.id, items: [item("Bad", { price: "cheap" })] }, "items.0.price"],
      ["POST", "/api/catalogs/addItemsToCatalog", { catalogID: catalog.id, items: [item("Bad", { availability: "soon" })] }, "items.0.availability"],
      ["POST", "/api/catalogs/addItemsToCatalog", { catalogID: catalog.id, items: [item("Bad", { images: ["ftp://x.example/a.jpg"] })] }, "items.0.images.0"],
      ["PATCH", `/api/catalogs/updateCatalog/${catalog.id}`, { name: "" }, "name"],
      ["DELETE", "/api/catalogs/deleteCatalogItemImage", { catalogItemID: "x" }, "image"],
    ];
    for (const [method, path, body, field] of cases) {
      const response = await call(owner, method, path, body);
      const answer = await read(response);
      expect([response.status, answer.field], `${method} ${path} ${JSON.stringify(body)}`).toEqual([400, field]);
    }
    expect(await itemRows(catalog.id)).toEqual([]);
    const unknownProfile = await call(owner, "PATCH", `/api/catalogs/updateCatalog/${catalog.id}`, { pinterestUsername: "nobody_here" });
    expect([unknownProfile.status, (await read(unknownProfile)).field]).toEqual([404, "pinterestUsername"]);
  });

  it("keeps another user's catalog untouchable: every call answers 404 and changes nothing", async () => {
    const catalog = await createCatalog(owner, "Private", profile);
    await ok(owner, "POST", "/api/catalogs/addItemsToCatalog", { catalogID: catalog.id, items: [item("Secret mug")] }, 201);
    const [mug] = (await ok(owner, "GET", `/api/catalogs/getCatalogItems/${catalog.id}`)).catalogItems;
    const before = JSON.stringify(await ok(owner, "GET", `/api/catalogs/getCatalogs/${catalog.id}`));
    const attempts: [string, string, unknown?][] = [
      ["GET", `/api/catalogs/getCatalogs/${catalog.id}`],
      ["GET", `/api/catalogs/getCatalogItems/${catalog.id}`],
      ["PATCH", `/api/catalogs/updateCatalog/${catalog.id}`, { name: "Mine now" }],
      ["POST", "/api/catalogs/addItemsToCatalog", { catalogID: catalog.id, items: [item("Intruder")] }],
      ["PATCH", `/api/catalogs/updateCatalogItem/${mug.id}`, { title: "Mine now" }],
      ["DELETE", "/api/catalogs/deleteCatalogItemImage", { catalogItemID: mug.id, image: mug.images[0] }],
      ["DELETE", `/api/catalogs/deleteCatalogItem/${mug.id}`],
      ["POST", `/api/catalogs/publishCatalog/${catalog.id}`],
      ["GET", `/api/catalogs/getCatalogStatus/${catalog.id}`],
      ["DELETE", `/api/catalogs/deleteCatalog/${catalog.id}`],
    ];
    for (const [method, path, body] of attempts) {
      const response = await call(other, method, path, body);
      const text = await response.text();
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(text).not.toContain("Secret mug");
    }
    expect((await ok(other, "GET", "/api/catalogs/getCatalogs/latest")).allCatalogs).toEqual([]);
    expect(JSON.stringify(await ok(owner, "GET", `/api/catalogs/getCatalogs/${catalog.id}`))).toBe(before);
    // Nothing reached Pinterest about this catalog (other files' tests share the stand-in: only this catalog's file counts).
    expect(
      (await pinterestRequests("/catalogs/feeds")).filter((request) => JSON.stringify(request.body ?? null).includes(new URL(catalog.feedUrl).pathname)),
    ).toEqual([]);
  });
});

describe("the feed file, against Pinterest's column rules", () => {
  it("has Pinterest's required columns, prices as '12.99 USD', https links, and leaves out the items Pinterest would refuse, saying why", async () => {
    const catalog = await createCatalog(owner, "Rules", profile);
    await ok(
      owner,
      "POST",
      "/api/catalogs/addItemsToCatalog",
      {
        catalogID: catalog.id,
        items: [
          item("Linen napkins, set of 4"),
          item("No price", { price: "" }),
          // An http link arrives as https (spec section 5, issue 40 point 2): it is published.
          item("Plain http link", { link: "http://linen.example/insecure" }),
          item("Tiny picture", { images: [image("avatar.png")] }),
          item("No picture", { images: [] }),
          item("T".repeat(501), { link: "https://linen.example/products/long-title" }),
          item("No description", { description: "" }),
        ],
      },
      201,
    );
    const status: CatalogStatus = await ok(owner, "POST", `/api/catalogs/publishCatalog/${catalog.id}`);
    const why = Object.fromEntries(
      status.refusedItems.map((entry) => [entry.title.slice(0, 20), entry.problems.map((problem) => `${problem.column}: ${problem.message}`)]),
    );
    expect(why).toEqual({
      "No price": ["price: The item has no price."],
      "Tiny picture": ["image_link: The main picture is too small (32 x 32 pixels); Pinterest needs at least 75 x 75."],
      "No picture": ["image_link: The item has no picture."],
      ["T".repeat(20)]: ["title: The title is 501 characters long; Pinterest takes at most 500."],
      "No description": ["description: The item has no description."],
    });
    expect(status.catalog).toMatchObject({ publishedItemCount: 2, leftOutItemCount: 5, changedSincePublish: false });

    const served = await app(new URL(catalog.feedUrl).pathname);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    const parsed = Papa.parse<Record<string, string>>(await served.text(), { header: true, skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    for (const column of ["id", "title", "description", "link", "image_link", "price", "availability"]) expect(parsed.meta.fields).toContain(column);
    expect(parsed.data).toHaveLength(2);
    expect(parsed.data.find((entry) => entry.title === "Plain http link")?.link).toBe("https://linen.example/insecure");
    const row = parsed.data.find((entry) => entry.title === "Linen napkins, set of 4")!;
    expect(row).toMatchObject({
      title: "Linen napkins, set of 4",
      link: "https://linen.example/products/linen-napkins-set-of-4",
      image_link: image("balcony-herb-garden-1.jpg"),
      additional_image_link: image("balcony-herb-garden-2.jpg"),
      price: "24.50 USD",
      availability: "in stock",
      brand: "Linen & Lark",
      condition: "new",
      product_type: "Home > Kitchen",
    });
    expect(row.price).toMatch(/^\d+\.\d{2} [A-Z]{3}$/);
    // An address that names no catalog, or a guessed one, answers 404.
    expect((await app("/catalog-feeds/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.csv")).status).toBe(404);
  });
});

describe("publishing to Pinterest (the stand-in)", () => {
  it("registers the feed for the connected profile, re-ingests after changes, and shows processing results and item issues in plain words", async () => {
    const catalog = await createCatalog(owner, "Published", profile);
    await ok(
      owner,
      "POST",
      "/api/catalogs/addItemsToCatalog",
      {
        catalogID: catalog.id,
        items: [
          item("Herb planter", { images: [image("amalfi-coast-itinerary-1.jpg")] }),
          item("Watering can", { images: [image("berry-smoothie-bowls-1.jpg")] }),
        ],
      },
      201,
    );

    // Before the first publish: nothing asked of Pinterest.
    const before: CatalogStatus = await ok(owner, "GET", `/api/catalogs/getCatalogStatus/${catalog.id}`);
    expect(before.processing).toBeNull();

    const published: CatalogStatus = await ok(owner, "POST", `/api/catalogs/publishCatalog/${catalog.id}`);
    expect(published.catalog.pinterestFeedId).toMatch(/^\d+$/);
    expect(published.processing?.status).toBe("processing");
    const [created] = (await pinterestRequests("/v5/catalogs/feeds")).filter(
      (request) => (request.body as { location?: string } | null)?.location === catalog.feedUrl,
    );
    expect(created).toMatchObject({
      method: "POST",
      body: {
        name: "Published",
        format: "CSV",
        location: catalog.feedUrl,
        default_currency: "USD",
        default_locale: "en-US",
        default_country: "US",
        status: "ACTIVE",
      },
    });
    const feeds = await sandbox<{ id: string; username: string; location: string }[]>(`/pinterest/feeds?username=${profile.username}`);
    expect(feeds.map((feed) => [feed.id, feed.location])).toContainEqual([published.catalog.pinterestFeedId, catalog.feedUrl]);

    // Pinterest downloads the file: the first image has gone missing meanwhile.
    await handFeedToPinterest(catalog.feedUrl);
    await sandbox("/faults", {
      method: "POST",
      json: { service: "blog-demo", method: "GET", path: "/images/amalfi-coast-itinerary-1.jpg", status: 404, times: 1 },
    });
    const processed: CatalogStatus = await ok(owner, "GET", `/api/catalogs/getCatalogStatus/${catalog.id}`);
    expect(processed.processing).toMatchObject({ status: "completed", itemsInFile: 2, itemsAccepted: 1 });
    expect(processed.processing?.itemIssues).toEqual([
      {
        itemId: expect.any(String),
        title: "Herb planter",
        column: "image_link",
        severity: "error",
        message: "Pinterest could not download the main picture.",
        providedValue: image("amalfi-coast-itinerary-1.jpg"),
      },
    ]);

    // A change, then publish again: the same data source is ingested again (no second feed).
    const [planter] = (await ok(owner, "GET", `/api/catalogs/getCatalogItems/${catalog.id}`)).catalogItems;
    await ok(owner, "PATCH", `/api/catalogs/updateCatalogItem/${planter.id}`, { title: "Terracotta herb planter" });
    expect((await ok(owner, "GET", `/api/catalogs/getCatalogs/${catalog.id}`)).activeCatalog.changedSincePublish).toBe(true);
    await ok(owner, "POST", `/api/catalogs/publishCatalog/${catalog.id}`);
    expect((await pinterestRequests(`/v5/catalogs/feeds/${published.catalog.pinterestFeedId}/ingest`)).map((request) => request.method)).toEqual(["POST"]);
    expect(
      (await pinterestRequests("/v5/catalogs/feeds")).filter(
        (request) => request.path === "/v5/catalogs/feeds" && (request.body as { location?: string } | null)?.location === catalog.feedUrl,
      ),
    ).toHaveLength(1);
    await handFeedToPinterest(catalog.feedUrl);
    const again: CatalogStatus = await ok(owner, "GET", `/api/catalogs/getCatalogStatus/${catalog.id}`);
    expect(again.processing).toMatchObject({ status: "completed", itemsInFile: 2, itemsAccepted: 2, itemIssues: [], feedErrors: [] });
    expect(again.catalog.changedSincePublish).toBe(false);
  });

  it("says so in plain words when Pinterest cannot download the file, and asks to choose a profile before publishing", async () => {
    const noProfile = await createCatalog(other, "Unlinked");
    await ok(other, "POST", "/api/catalogs/addItemsToCatalog", { catalogID: noProfile.id, items: [item("Bowl")] }, 201);
    const refused = await call(other, "POST", `/api/catalogs/publishCatalog/${noProfile.id}`);
    expect(refused.status).toBe(409);
    expect(await read(refused)).toMatchObject({ error: "Choose the Pinterest profile this catalog is published to first.", field: "pinterestUsername" });

    const catalog = await createCatalog(owner, "Unreachable", profile);
    await ok(owner, "POST", "/api/catalogs/addItemsToCatalog", { catalogID: catalog.id, items: [item("Jug")] }, 201);
    await ok(owner, "POST", `/api/catalogs/publishCatalog/${catalog.id}`);
    // Nothing handed over: the stand-in tries http://app.test itself, which no one answers.
    const status: CatalogStatus = await ok(owner, "GET", `/api/catalogs/getCatalogStatus/${catalog.id}`);
    expect(status.processing).toMatchObject({ status: "failed", feedErrors: ["Pinterest couldn't download your feed."] });
  });

  it("answers 409 with a clear message, never 401, when Pinterest refuses the connection or the request", async () => {
    const catalog = await createCatalog(owner, "Refused", profile);
    await ok(owner, "POST", "/api/catalogs/addItemsToCatalog", { catalogID: catalog.id, items: [item("Vase")] }, 201);
    await sandbox("/faults", {
      method: "POST",
      json: {
        service: "pinterest",
        method: "POST",
        path: "/v5/catalogs/feeds",
        status: 403,
        times: 1,
        body: { code: 654, message: "You must have a business account to use catalogs." },
      },
    });
    const forbidden = await call(owner, "POST", `/api/catalogs/publishCatalog/${catalog.id}`);
    expect(forbidden.status).toBe(409);
    expect((await read(forbidden)).error).toBe("Pinterest refused the catalog: You must have a business account to use catalogs.");
    const state = await ok(owner, "GET", `/api/catalogs/getCatalogs/${catalog.id}`);
    expect(state.activeCatalog).toMatchObject({
      pinterestFeedId: null,
      lastError: "Pinterest refused the catalog: You must have a business account to use catalogs.",
    });

    await sandbox("/faults", { method: "POST", json: { service: "pinterest", method: "POST", path: "/v5/catalogs/feeds", status: 503, times: 1 } });
    const down = await call(owner, "POST", `/api/catalogs/publishCatalog/${catalog.id}`);
    expect(down.status).toBe(502);
    expect((await read(down)).error).toBe("Pinterest did not answer. Please try again.");
    expect((await ok(owner, "POST", `/api/catalogs/publishCatalog/${catalog.id}`)).catalog.pinterestFeedId).toMatch(/^\d+$/);

    // A connection made before catalogs were asked for: Pinterest's 401 code 3 asks for a reconnection, the profile stays usable.
    await sandbox("/faults", {
      method: "POST",
      json: {
        service: "pinterest",
        method: "POST",
        path: `/v5/catalogs/feeds/${(await ok(owner, "GET", `/api/catalogs/getCatalogs/${catalog.id}`)).activeCatalog.pinterestFeedId}/ingest`,
        status: 401,
        times: 1,
        body: { code: 3, message: "Your token does not have sufficient permissions to perform this operation." },
      },
    });
    const scope = await call(owner, "POST", `/api/catalogs/publishCatalog/${catalog.id}`);
    expect(scope.status).toBe(409);
    expect(await read(scope)).toMatchObject({
      code: "reconnect",
      error: "Your Pinterest connection does not allow catalogs yet. Please reconnect your Pinterest profile on the scheduling page, then publish again.",
    });
  });

  it("asks to reconnect (409, not 401: the user stays signed in) when Pinterest no longer accepts the connection", async () => {
    const user = await signUpUser({ firstName: "Revoked" });
    const revoked = await connectProfile(user, pinterestName("catrevoked"), { settings: null });
    const catalog = await createCatalog(user, "Revoked", revoked);
    await ok(user, "POST", "/api/catalogs/addItemsToCatalog", { catalogID: catalog.id, items: [item("Plate")] }, 201);
    await sandbox("/pinterest/revoke", { method: "POST", json: { username: revoked.username } });
    const refused = await call(user, "POST", `/api/catalogs/publishCatalog/${catalog.id}`);
    expect(refused.status).toBe(409);
    expect(await read(refused)).toMatchObject({
      code: "reconnect",
      error: `Pinterest no longer accepts the connection to ${revoked.username}. Please reconnect it on the scheduling page, then publish again.`,
    });
    // Still signed in.
    expect((await call(user, "GET", "/api/catalogs/getCatalogs/latest")).status).toBe(200);
  });
});
