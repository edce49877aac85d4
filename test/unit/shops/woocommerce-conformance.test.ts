import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PRODUCTS_PER_PAGE } from "../../../contracts/shops/shops.ts";
import { DEMO_PRODUCTS } from "../../../sandbox/demo-shop/catalog.ts";
import { authorizeUrl, listProducts, readStoreCurrency, readStoreIndex, WooCommerceError } from "../../../workers/integrations/woocommerce.ts";
import { createOpenApiChecker, type Exchange, type Json } from "../../support/openapi-conformance.ts";
import { useSandbox } from "../../support/sandbox.ts";
import { DESCRIPTION_FILE, descriptionText, productExample, readDocPages } from "./woocommerce-docs-to-openapi.ts";
import { recordGlobalFetch } from "../../support/recorded-fetch.ts";

// Conformance with WooCommerce's REST API v3 documentation (github.com/woocommerce/woocommerce-rest-api-docs, the
// pages kept in contracts/specs/woocommerce-rest-api-docs/). WooCommerce publishes no OpenAPI description: the script
// beside this test (woocommerce-docs-to-openapi.ts) derives one from the pages' property and parameter tables for the
// calls our client (workers/integrations/woocommerce.ts) makes, and this test first checks that the committed
// description (contracts/specs/woocommerce-rest-v3.openapi.json) is the script's output. Then the client is driven
// against the stand-in (sandbox/providers/woocommerce) with every exchange recorded and checked with closed objects
// (test/support/openapi-conformance.ts): GET /wp-json/wc/v3/products (page, per_page <= 100, status, search; HTTP
// Basic; the Product, its categories, tags and images; X-WP-Total and X-WP-TotalPages), GET
// /wp-json/wc/v3/settings/general/woocommerce_currency (the setting option), the error answer {code, message,
// data: {status}} on 400, 401 and 404, the app authorisation URL (/wc-auth/v1/authorize with its five mandatory
// parameters) and the JSON of keys the stand-in posts to the app. Not covered: GET /wp-json/ (WordPress's site
// index, which WooCommerce's pages do not describe) and the grant page's HTML.

const spec: Json = JSON.parse(readFileSync(DESCRIPTION_FILE, "utf8"));
const woo = createOpenApiChecker(spec, "woocommerce-rest-v3");

const sandbox = useSandbox();
const STORE = "conformance";
const storeUrl = () => `${sandbox.url}/woocommerce/${STORE}`;
const env = () => ({ WOOCOMMERCE_TIMEOUT_MS: "15000", TRUSTED_FETCH_ORIGINS: sandbox.url, DNS_RESOLVER_URL: `${sandbox.url}/dns` });
const ACTIVE = DEMO_PRODUCTS.filter((product) => product.status === "active").length;

// ---- recording what the client sends and the stand-in answers ------------------------------------

const realFetch = globalThis.fetch;
const exchanges = recordGlobalFetch((url) => url.startsWith(`${sandbox.url}/woocommerce/`));

const apiBase = () => new URL(storeUrl());
/** WordPress's site index, and the grant page's Approve link (the shop owner's click): not in WooCommerce's pages. */
const described = () => exchanges.filter((exchange) => !/(\/wp-json\/?|\/wc-auth\/v1\/access_granted)$/.test(exchange.url.pathname));
const problemsOf = (exchange: Exchange, options?: { request?: boolean }) => woo.conformanceProblems(exchange, apiBase(), options);
const operationsCovered = () => new Set(described().map((exchange) => woo.operationId(exchange, apiBase()) ?? `${exchange.method} ${exchange.url.pathname}`));
function expectAllConform() {
  expect(described().flatMap((exchange) => problemsOf(exchange))).toEqual([]);
}

async function control(path: string, body?: unknown) {
  const answer = await realFetch(
    `${sandbox.url}/__sandbox/woocommerce${path}`,
    body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) },
  );
  return answer.json();
}

/** Connects the store as the app does in production (https return and callback), the keys held for the test. */
async function connect(scope: "read" | "read_write" = "read") {
  await control("/settings", { holdCallbacks: true });
  const url = authorizeUrl(storeUrl(), {
    appName: "Pinboard Studio",
    userId: "signed-connection-id",
    returnUrl: "https://app.example/api/woocommerce/return",
    callbackUrl: "https://app.example/api/woocommerce/keys",
    scope,
  });
  const page = await fetch(url);
  expect(page.status).toBe(200);
  const approve = /id="approve" href="([^"]+)"/.exec(await page.text())![1].replaceAll("&amp;", "&");
  expect((await fetch(approve)).status).toBe(202);
  const [callback] = (await control(`/callbacks?store=${STORE}`)) as { id: string; body: string; headers: Record<string, string> }[];
  await control(`/callbacks/${callback.id}/answered`, { status: 200 });
  const keys = JSON.parse(callback.body);
  return { callback, keys: { consumerKey: keys.consumer_key as string, consumerSecret: keys.consumer_secret as string } };
}

async function failure(promise: Promise<unknown>): Promise<WooCommerceError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(WooCommerceError);
  return error as WooCommerceError;
}

// ---- the checks ---------------------------------------------------------------------------------

describe("the description derived from WooCommerce's documentation", () => {
  it("is the script's output for the pages kept in contracts/specs", () => {
    expect(readFileSync(DESCRIPTION_FILE, "utf8")).toBe(descriptionText(readDocPages()));
    expect(spec.info["x-source"].commit).toMatch(/^[0-9a-f]{40}$/);
  });

  it("carries the documentation's tables: the product's fields, the status options, the error answer", () => {
    const product = spec.components.schemas.Product;
    expect(Object.keys(product.properties)).toEqual(expect.arrayContaining(["id", "name", "permalink", "price", "regular_price", "images", "_links"]));
    expect(Object.keys(product.properties)).toHaveLength(66);
    const parameters = spec.paths["/wp-json/wc/v3/products"].get.parameters as { name: string; schema: Json }[];
    expect(parameters.find((parameter) => parameter.name === "status")?.schema.enum).toEqual(["any", "draft", "pending", "private", "publish"]);
    expect(parameters.find((parameter) => parameter.name === "orderby")?.schema.enum).toContain("popularity");
    expect(spec.components.schemas.Error.required).toEqual(["code", "message", "data"]);
  });
});

describe("the WooCommerce check itself", () => {
  const base = new URL("https://shop.example");
  const list = (query: string, answer: Partial<Exchange> = {}): Exchange => ({
    method: "GET",
    url: new URL(`https://shop.example/wp-json/wc/v3/products?${query}`),
    requestHeaders: new Headers({ authorization: "Basic Y2s6Y3M=" }),
    requestBody: null,
    ...answer,
  });
  // The documentation's own example of a product, which the derived description must take as it is.
  const complete = productExample(readDocPages());
  const { price: _price, ...withoutPrice } = complete;
  const answered = (body: unknown, headers: Record<string, string> = { "x-wp-total": "1", "x-wp-totalpages": "1" }): Partial<Exchange> => ({
    status: 200,
    responseHeaders: new Headers({ "content-type": "application/json", ...headers }),
    responseBody: JSON.stringify(body),
  });

  it("holds the products list to per_page <= 100, the status options, and HTTP Basic or the key parameters", () => {
    expect(woo.conformanceProblems(list("page=1&per_page=100&status=publish&search=mug"), base)).toEqual([]);
    expect(woo.conformanceProblems(list("per_page=101"), base).join("\n")).toContain("must be <= 100");
    expect(woo.conformanceProblems(list("status=published"), base).join("\n")).toContain("must be equal to one of the allowed values");
    expect(woo.conformanceProblems(list("orderby=newest"), base).join("\n")).toContain("must be equal to one of the allowed values");
    const unsigned = { ...list("page=1"), requestHeaders: new Headers() };
    expect(woo.conformanceProblems(unsigned, base).join("\n")).toContain("does not meet the security requirements");
    const byQuery = { ...list("page=1&consumer_key=ck_1&consumer_secret=cs_1"), requestHeaders: new Headers() };
    expect(woo.conformanceProblems(byQuery, base)).toEqual([]);
  });

  it("closes the product, wants the fields we read and the X-WP-Total headers", () => {
    expect(woo.conformanceProblems(list("page=1", answered([complete])), base)).toEqual([]);
    expect(woo.conformanceProblems(list("page=1", answered([{ ...complete, price_text: "9.50" }])), base).join("\n")).toContain("price_text");
    expect(woo.conformanceProblems(list("page=1", answered([withoutPrice])), base).join("\n")).toContain("must have required property 'price'");
    expect(
      woo.conformanceProblems(list("page=1", answered([{ ...complete, images: [{ ...complete.images[0], src: undefined, url: "x" }] }])), base).join("\n"),
    ).toContain("src");
    expect(woo.conformanceProblems(list("page=1", answered([complete], {})), base).join("\n")).toContain("without the X-WP-Total header");
  });
});

describe("WooCommerce client and stand-in against WooCommerce's documentation", () => {
  it("connecting: the authorisation URL and the keys posted to the app", async () => {
    const { callback } = await connect();
    const authorize = exchanges.find((exchange) => exchange.url.pathname.endsWith("/wc-auth/v1/authorize"))!;
    expect(problemsOf({ ...authorize, status: undefined })).toEqual([]);
    expect(callback.headers["content-type"]).toMatch(/^application\/json/);
    const keysSchema = { $ref: "#/components/schemas/ApiKeys" };
    expect(woo.schemaProblems("keys posted", "#keys", keysSchema, JSON.parse(callback.body))).toEqual([]);
    expect(woo.schemaProblems("keys posted", "#keys", keysSchema, { ...JSON.parse(callback.body), store: STORE }).join("\n")).toContain("store");
  });

  it("the products and the currency as the app reads them: pages, a search, the last page and past it", async () => {
    const { keys } = await connect();
    expect((await readStoreIndex(env(), storeUrl())).hasWooCommerce).toBe(true);
    expect(await readStoreCurrency(env(), storeUrl(), keys)).toBe("USD");
    const first = await listProducts(env(), storeUrl(), keys, { page: 1, perPage: PRODUCTS_PER_PAGE });
    expect(first.total).toBe(ACTIVE);
    expect(first.products).toHaveLength(Math.min(PRODUCTS_PER_PAGE, ACTIVE));
    await listProducts(env(), storeUrl(), keys, { page: 1, perPage: PRODUCTS_PER_PAGE, search: "mug" });
    await listProducts(env(), storeUrl(), keys, { page: first.totalPages, perPage: PRODUCTS_PER_PAGE });
    expect((await listProducts(env(), storeUrl(), keys, { page: first.totalPages + 1, perPage: PRODUCTS_PER_PAGE })).products).toEqual([]);
    expect([...operationsCovered()].sort()).toEqual(["authorize", "listProducts", "retrieveSettingOption"]);
    expectAllConform();
  });

  it("the error answers: keys refused, an unknown setting, per_page over 100", async () => {
    const { keys } = await connect();
    const refused = await failure(listProducts(env(), storeUrl(), { ...keys, consumerSecret: "cs_wrong" }, { page: 1, perPage: 10 }));
    expect([refused.kind, refused.status, refused.code]).toEqual(["unauthorized", 401, "woocommerce_rest_authentication_error"]);
    const basic = `Basic ${btoa(`${keys.consumerKey}:${keys.consumerSecret}`)}`;
    expect((await fetch(`${storeUrl()}/wp-json/wc/v3/settings/general/no_such_setting`, { headers: { authorization: basic } })).status).toBe(404);
    expect((await fetch(`${storeUrl()}/wp-json/wc/v3/products?page=1`)).status).toBe(401);
    // A request that breaks the description on purpose: its answer is checked, then it is left out.
    expect((await fetch(`${storeUrl()}/wp-json/wc/v3/products?per_page=101`, { headers: { authorization: basic } })).status).toBe(400);
    const tooMany = exchanges.pop()!;
    expect(problemsOf(tooMany).join("\n")).toContain("must be <= 100");
    expect(problemsOf(tooMany, { request: false })).toEqual([]);
    expect(JSON.parse(tooMany.responseBody!).data).toMatchObject({ status: 400, params: { per_page: expect.any(String) } });
    // The call without a key breaks the description too (no HTTP Basic): its 401 answer is checked.
    const unsigned = exchanges.pop()!;
    expect(problemsOf(unsigned).join("\n")).toContain("does not meet the security requirements");
    expect(problemsOf(unsigned, { request: false })).toEqual([]);
    expectAllConform();
  });
});
