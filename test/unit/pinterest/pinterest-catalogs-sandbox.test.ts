import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useSandbox } from "../../support/sandbox.ts";

// The Pinterest stand-in's catalog data sources (sandbox/providers/pinterest/catalogs.ts, decision 043), over
// HTTP: it downloads feed files from a real server, checks them the way Pinterest documents, and reports
// processing results and item issues; scopes, ownership and bad requests are refused as Pinterest does.

const sandbox = useSandbox();
const CLIENT_ID = "1500000000000001";
const REDIRECT_URI = "http://app.test/pinterest/callback";
const ALL_SCOPES = "user_accounts:read,catalogs:read,catalogs:write";

/** A shop's server: feed files by path (and a 404 for any other). */
const files = new Map<string, string>();
let shop: Server;
let shopUrl = "";
beforeAll(async () => {
  shop = createServer((request, response) => {
    const body = files.get(request.url ?? "");
    if (body === undefined) {
      response.writeHead(404).end("Not found");
      return;
    }
    response.writeHead(200, { "content-type": request.url?.endsWith(".tsv") ? "text/tab-separated-values" : "text/csv" }).end(body);
  });
  await new Promise<void>((resolve) => shop.listen(0, "127.0.0.1", resolve));
  shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => shop.close(() => resolve())));

async function connect(username: string, scope = ALL_SCOPES): Promise<string> {
  const query = new URLSearchParams({
    client_id: CLIENT_ID,
    redirect_uri: REDIRECT_URI,
    response_type: "code",
    scope,
    state: "st",
    auto_approve: "1",
    username,
  });
  const consent = await fetch(`${sandbox.url}/pinterest/oauth/?${query}`, { redirect: "manual" });
  const code = new URL(consent.headers.get("location")!).searchParams.get("code")!;
  const answer = await fetch(`${sandbox.url}/pinterest/v5/oauth/token`, {
    method: "POST",
    headers: { authorization: `Basic ${Buffer.from(`${CLIENT_ID}:secret`).toString("base64")}`, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI }),
  });
  return ((await answer.json()) as { access_token: string }).access_token;
}

function api(token: string, path: string, json?: unknown) {
  return fetch(`${sandbox.url}/pinterest/v5${path}`, {
    method: json === undefined ? (path.endsWith("/ingest") ? "POST" : "GET") : "POST",
    headers: { authorization: `Bearer ${token}`, ...(json === undefined ? {} : { "content-type": "application/json" }) },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
}

// biome-ignore lint/suspicious/noExplicitAny: the sandbox's JSON answers, read field by field in assertions.
type Json = Record<string, any>;

const feedBody = (location: string, fields: Record<string, unknown> = {}) => ({
  name: "Shop",
  format: "CSV",
  location,
  default_country: "US",
  default_locale: "en-US",
  default_currency: "USD",
  ...fields,
});
const image = () => `${sandbox.url}/blog-demo/images/amalfi-coast-itinerary-1.jpg`;

async function latestResult(token: string, feedId: string) {
  const page = (await (await api(token, `/catalogs/feeds/${feedId}/processing_results?page_size=1`)).json()) as { items: Json[] };
  return page.items[0];
}

describe("the stand-in's catalog data sources", () => {
  it("needs the catalogs scopes, and refuses feeds Pinterest would not register", async () => {
    const noScope = await connect("feeds_noscope", "user_accounts:read");
    const refused = await api(noScope, "/catalogs/feeds", feedBody(`${shopUrl}/a.csv`));
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ code: 3 });

    const token = await connect("feeds_checks");
    for (const [body, words] of [
      [feedBody(`${shopUrl}/a.csv`, { default_country: undefined }), "'default_country' is required"],
      [feedBody("shop.example/a.csv"), "'location' is required and must match"],
      [feedBody(`${shopUrl}/a.csv`, { format: "JSON" }), "'format' must be TSV, CSV or XML"],
      [feedBody(`${shopUrl}/a.csv`, { colour: "red" }), "'colour' is not a field of a feed"],
    ] as const) {
      const answer = await api(token, "/catalogs/feeds", body);
      expect(answer.status).toBe(400);
      expect(((await answer.json()) as { message: string }).message).toContain(words);
    }
  });

  it("downloads a TSV feed, counts what it ingested, and reports item issues per item and column, filtered and paged", async () => {
    const token = await connect("feeds_tsv");
    files.set(
      "/feed.tsv",
      [
        "id\ttitle\tdescription\tlink\timage_link\tprice\tavailability\tcondition",
        `a1\tMug\tA mug.\thttps://shop.example/mug\t${image()}\t12.00 USD\tin stock\tnew`,
        `a2\tVase\tA vase.\thttps://shop.example/vase\t${image()}\t30 USD\tpreorder\tvintage`,
        `a3\t\tNo title.\thttps://shop.example/x\t${sandbox.url}/blog-demo/images/missing.jpg\t9.99\tsoon\t`,
        `a1\tMug again\tDuplicate.\thttps://shop.example/mug2\t${image()}\t12.00 USD\tout of stock\t`,
      ].join("\n"),
    );
    const feed = (await (await api(token, "/catalogs/feeds", feedBody(`${shopUrl}/feed.tsv`, { format: "TSV" }))).json()) as {
      id: string;
      catalog_type: string;
    };
    expect(feed.catalog_type).toBe("RETAIL");
    const result = await latestResult(token, feed.id);
    expect(result).toMatchObject({
      status: "COMPLETED",
      product_counts: { original: 4, ingested: 2 },
      ingestion_details: { info: { IN_STOCK: 1, PREORDER: 1 } },
      validation_details: {
        errors: { TITLE_MISSING: 1, ITEM_MAIN_IMAGE_DOWNLOAD_FAILURE: 1, AVAILABILITY_INVALID: 1, DUPLICATE_PRODUCTS: 1 },
        warnings: { OPTIONAL_CONDITION_INVALID: 1 },
      },
    });
    // A price without a currency takes the feed's default currency.
    expect(result.validation_details.errors.PRODUCT_PRICE_INVALID).toBeUndefined();

    const issues = (await (await api(token, `/catalogs/processing_results/${result.id}/item_issues`)).json()) as { items: Json[] };
    expect(issues.items.map((entry) => [entry.item_number, entry.item_id])).toEqual([
      [1, "a2"],
      [2, "a3"],
      [3, "a1"],
    ]);
    expect(issues.items[1].errors.ITEM_MAIN_IMAGE_DOWNLOAD_FAILURE).toEqual({
      attribute_name: "IMAGE_LINK",
      provided_value: `${sandbox.url}/blog-demo/images/missing.jpg`,
    });
    expect(issues.items[0].warnings.OPTIONAL_CONDITION_INVALID).toEqual({ attribute_name: "CONDITION", provided_value: "vintage" });
    const onlyTitles = (await (await api(token, `/catalogs/processing_results/${result.id}/item_issues?item_validation_issue=TITLE_MISSING`)).json()) as {
      items: { item_id: string }[];
    };
    expect(onlyTitles.items.map((entry) => entry.item_id)).toEqual(["a3"]);
    const paged = (await (await api(token, `/catalogs/processing_results/${result.id}/item_issues?page_size=2`)).json()) as {
      items: unknown[];
      bookmark: string;
    };
    expect(paged.items).toHaveLength(2);
    const rest = (await (await api(token, `/catalogs/processing_results/${result.id}/item_issues?page_size=2&bookmark=${paged.bookmark}`)).json()) as {
      items: unknown[];
      bookmark: null;
    };
    expect([rest.items.length, rest.bookmark]).toEqual([1, null]);
  });

  it("fails an ingestion it cannot download or that lacks required columns, and processes a new one after ingest", async () => {
    const token = await connect("feeds_failures");
    const missing = (await (await api(token, "/catalogs/feeds", feedBody(`${shopUrl}/not-there.csv`))).json()) as { id: string };
    expect(await latestResult(token, missing.id)).toMatchObject({ status: "FAILED", validation_details: { errors: { FETCH_ERROR: 1 } }, product_counts: null });

    files.set("/columns.csv", "id,title,price\nx,Mug,12.00 USD\n");
    const columns = (await (await api(token, "/catalogs/feeds", feedBody(`${shopUrl}/columns.csv`))).json()) as { id: string };
    expect(await latestResult(token, columns.id)).toMatchObject({ status: "FAILED", validation_details: { errors: { REQUIRED_COLUMNS_MISSING: 1 } } });

    // Fixed, then ingested again: a new result, newest first.
    files.set("/columns.csv", `id,title,description,link,image_link,price,availability\nx,Mug,A mug.,https://shop.example/mug,${image()},12.00 USD,in stock\n`);
    const ingestion = await api(token, `/catalogs/feeds/${columns.id}/ingest`);
    expect(ingestion.status).toBe(200);
    expect(await ingestion.json()).toMatchObject({ feed_id: columns.id, status: "PROCESSING" });
    expect(await latestResult(token, columns.id)).toMatchObject({ status: "COMPLETED", product_counts: { original: 1, ingested: 1 } });
    const all = (await (await api(token, `/catalogs/feeds/${columns.id}/processing_results`)).json()) as { items: { status: string }[] };
    expect(all.items.map((result) => result.status)).toEqual(["COMPLETED", "FAILED"]);

    // Another account's feed does not exist for this one; faults apply as to every stand-in call.
    const stranger = await connect("feeds_stranger");
    const hidden = await api(stranger, `/catalogs/feeds/${columns.id}/ingest`);
    expect([hidden.status, ((await hidden.json()) as { code: number }).code]).toEqual([404, 4161]);
    await fetch(`${sandbox.url}/__sandbox/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ service: "pinterest", method: "POST", path: `/v5/catalogs/feeds/${columns.id}/ingest`, status: 503, times: 1 }),
    });
    expect((await api(token, `/catalogs/feeds/${columns.id}/ingest`)).status).toBe(503);
    expect((await api(token, `/catalogs/feeds/${columns.id}/ingest`)).status).toBe(200);
  });
});
