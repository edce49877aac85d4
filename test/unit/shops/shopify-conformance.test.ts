import { readFileSync } from "node:fs";
import { buildSchema, type GraphQLSchema, parse, validate } from "graphql";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import {
  ADMIN_EXTRACT,
  ADMIN_INTROSPECTION,
  ADMIN_KEPT,
  extractSdl,
  loadPublishedSchema,
  PARTNER_EXTRACT,
  PARTNER_INTROSPECTION,
  PARTNER_KEPT,
} from "../../../scripts/shopify-schema-extract.ts";
import { SANDBOX_SHOPIFY_PARTNER_APP_ID, SANDBOX_SHOPIFY_PARTNER_TOKEN } from "../../../sandbox/provider-vars.ts";
import * as shopify from "../../../workers/integrations/shopify.ts";
import { productSearchQuery, productsPage, STORE_DOCUMENTS, shopDetails } from "../../../workers/integrations/shopify-admin.ts";
import { answerProblems, requestProblems } from "../../support/graphql-conformance.ts";
import { useSandbox } from "../../support/sandbox.ts";
import { rejectionOf } from "../../support/rejection.ts";
import { PRO_MONTHLY_CHARGE } from "./shopify-charge.ts";

// Conformance with the GraphQL schemas Shopify publishes (contracts/specs/shopify-admin-2025-01.introspection.json.gz
// and shopify-partner-2026-07.introspection.json.gz, from the npm package @shopify/dev-mcp, ISC; see
// contracts/specs/shopify-dev-mcp.LICENSE and docs/decisions/098-shopify-graphql-conformance.md).
// The worker's clients (workers/integrations/shopify.ts: app billing and the Partner API's AppSaleAdjustment
// transactions; shopify-admin.ts: the store's name and products) are driven against the stand-in
// (sandbox/providers/shopify/) and every GraphQL exchange is recorded. Each request's document is validated
// against the published schema with its variables coerced to the declared types (test/support/graphql-conformance.ts),
// and each answer's `data` is walked against the document's selection set: exactly the selected fields,
// nullability, lists, enum values, scalar forms, `__typename`, abstract types resolved to one possible type.
// `errors` entries are checked against the GraphQL specification's shape, `extensions.cost` and the 401 body
// against Shopify's documentation of them (the schema does not describe them). Not GraphQL, so not covered
// here: the OAuth install (authorize, access_token), the token's revocation (DELETE api_permissions/current.json)
// and the charge confirmation page.

let admin: GraphQLSchema;
let partner: GraphQLSchema;
beforeAll(() => {
  admin = loadPublishedSchema(ADMIN_INTROSPECTION);
  partner = loadPublishedSchema(PARTNER_INTROSPECTION);
}, 60_000);

const sandbox = useSandbox();
const env = () => ({ SHOPIFY_ADMIN_URL: `${sandbox.url}/shopify/{shop}/admin/api`, SHOPIFY_API_VERSION: "2025-01", SHOPIFY_TIMEOUT_MS: "5000" });
const partnerEnv = () => ({
  SHOPIFY_PARTNER_API_URL: `${sandbox.url}/shopify/partners/4100100/api/2026-07/graphql.json`,
  SHOPIFY_PARTNER_APP_ID: SANDBOX_SHOPIFY_PARTNER_APP_ID,
  SHOPIFY_PARTNER_ACCESS_TOKEN: SANDBOX_SHOPIFY_PARTNER_TOKEN,
  SHOPIFY_TIMEOUT_MS: "5000",
});
const TOKEN = "shpat_conformance0123456789";
const CHARGE = PRO_MONTHLY_CHARGE;
let shopNumber = 0;
const newShop = (name: string) => `conformance-${name}-${Date.now()}-${(shopNumber += 1)}.myshopify.com`;

// ---- recording the GraphQL exchanges -------------------------------------------------------------

interface Exchange {
  api: "admin" | "partner";
  body: { query?: unknown; variables?: unknown };
  status: number;
  answer: unknown;
}
let exchanges: Exchange[] = [];
const realFetch = globalThis.fetch;
beforeEach(() => {
  exchanges = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    const path = new URL(request.url).pathname;
    if (!request.url.startsWith(`${sandbox.url}/shopify/`) || !path.endsWith("/graphql.json")) return realFetch(request);
    const body = JSON.parse(await request.clone().text()) as Exchange["body"];
    const response = await realFetch(request);
    const text = await response.clone().text();
    exchanges.push({ api: path.startsWith("/shopify/partners/") ? "partner" : "admin", body, status: response.status, answer: JSON.parse(text) });
    return response;
  });
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** Shopify's documented `extensions.cost` (https://shopify.dev/docs/api/usage/limits): on every Admin API answer. */
function costProblems(answer: unknown): string[] {
  const cost = (answer as { extensions?: { cost?: Record<string, unknown> } }).extensions?.cost;
  // A document refused before it runs costs nothing and carries no cost; an answer that ran, or THROTTLED, does.
  const ran = Boolean(answer && typeof answer === "object" && "data" in answer);
  const throttled = (answer as { errors?: { extensions?: { code?: string } }[] }).errors?.some?.((error) => error.extensions?.code === "THROTTLED") ?? false;
  if (!cost) return ran || throttled ? ["extensions.cost: missing"] : [];
  const status = cost.throttleStatus as Record<string, unknown> | undefined;
  const problems: string[] = [];
  if (!Number.isInteger(cost.requestedQueryCost)) problems.push("extensions.cost.requestedQueryCost: not an integer");
  if (cost.actualQueryCost !== null && !Number.isInteger(cost.actualQueryCost)) problems.push("extensions.cost.actualQueryCost: not an integer or null");
  for (const key of ["maximumAvailable", "currentlyAvailable", "restoreRate"])
    if (typeof status?.[key] !== "number") problems.push(`extensions.cost.throttleStatus.${key}: not a number`);
  return problems;
}

/** Everything that does not conform in one exchange. */
function problemsOf(exchange: Exchange): string[] {
  const schema = exchange.api === "admin" ? admin : partner;
  const problems = requestProblems(schema, exchange.body).map((problem) => `request: ${problem}`);
  if (exchange.status === 401) {
    // Shopify's 401 (https://shopify.dev/docs/api/usage/response-codes): {"errors": "[API] Invalid API key or access token ..."}.
    const errors = (exchange.answer as { errors?: unknown }).errors;
    if (typeof errors !== "string" || !errors.startsWith("[API] ")) problems.push(`401: ${JSON.stringify(exchange.answer)} is not Shopify's 401 body`);
    return problems;
  }
  if (exchange.status !== 200) return [...problems, `status ${exchange.status}: Shopify answers GraphQL with 200`];
  problems.push(...answerProblems(schema, exchange.body.query as string, exchange.answer).map((problem) => `answer: ${problem}`));
  if (exchange.api === "admin") problems.push(...costProblems(exchange.answer).map((problem) => `answer: ${problem}`));
  return problems;
}

function expectAllConform() {
  expect(exchanges.length).toBeGreaterThan(0);
  const problems = exchanges.flatMap((exchange) =>
    problemsOf(exchange).map((problem) => `${exchange.api} ${String(exchange.body.query).slice(0, 40)}: ${problem}`),
  );
  expect(problems).toEqual([]);
}

const errorsOf = (exchange: Exchange) => (exchange.answer as { errors?: { message: string; extensions?: { code?: string } }[] }).errors;
const dataOf = (exchange: Exchange) => (exchange.answer as { data?: Record<string, Record<string, unknown>> }).data;

const failure = (promise: Promise<unknown>) => rejectionOf(promise, shopify.ShopifyError);

async function approve(confirmationUrl: string) {
  const response = await realFetch(confirmationUrl, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "action=approve",
    redirect: "manual",
  });
  expect(response.status).toBe(303);
}

async function control(path: string, json: unknown) {
  const response = await realFetch(`${sandbox.url}/__sandbox/shopify${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(json),
  });
  expect(response.ok).toBe(true);
}

// ---- the check itself ------------------------------------------------------------------------------

describe("the GraphQL check itself", () => {
  const SHOP_QUERY = "query ShopDetails { shop { name myshopifyDomain primaryDomain { url } } }";
  const shopAnswer = (shop: Record<string, unknown>) => ({ data: { shop } });
  const good = { name: "Demo", myshopifyDomain: "demo.myshopify.com", primaryDomain: { url: "https://demo.example" } };

  it("refuses documents Shopify's schema does not allow, undeclared variables and variables of the wrong type", () => {
    expect(requestProblems(admin, { query: SHOP_QUERY, variables: {} })).toEqual([]);
    expect(requestProblems(admin, { query: "{ shop { name storeUrl } }" }).join("\n")).toContain('Cannot query field "storeUrl" on type "Shop"');
    expect(requestProblems(admin, { query: "{ products { nodes { id } } }" })).toEqual([]); // first/last are checked by Shopify at run time
    expect(requestProblems(admin, { query: "{ appSubscriptionCancel(id: 1) { userErrors { field } } }" }).join("\n")).toContain("Cannot query field");
    expect(requestProblems(admin, { query: "query Q($id: ID!) { node(id: $id) { id } }", variables: {} }).join("\n")).toContain('"$id" of required type "ID!"');
    expect(requestProblems(admin, { query: SHOP_QUERY, variables: { extra: 1 } }).join("\n")).toContain("$extra is not declared");
    const create = { query: shopify.BILLING_DOCUMENTS.appSubscriptionCreate };
    const lineItems = (amount: unknown, interval = "EVERY_30_DAYS") => [
      { plan: { appRecurringPricingDetails: { price: { amount, currencyCode: "USD" }, interval } } },
    ];
    const variables = { name: "P", returnUrl: "https://app.test/back", trialDays: 0, test: false };
    expect(requestProblems(admin, { ...create, variables: { ...variables, lineItems: lineItems("9.99") } })).toEqual([]);
    expect(requestProblems(admin, { ...create, variables: { ...variables, lineItems: lineItems(9.99) } }).join("\n")).toContain("9.99 is not a Decimal");
    expect(requestProblems(admin, { ...create, variables: { ...variables, lineItems: lineItems("9.99", "MONTHLY") } }).join("\n")).toContain("MONTHLY");
    expect(requestProblems(admin, { ...create, variables: { ...variables, returnUrl: "/back", lineItems: lineItems("9.99") } }).join("\n")).toContain(
      "is not a URL",
    );
  });

  it("refuses answers with a field not selected, a selected field missing, a null for a non-null, a wrong enum or scalar", () => {
    expect(answerProblems(admin, SHOP_QUERY, shopAnswer(good))).toEqual([]);
    expect(answerProblems(admin, SHOP_QUERY, shopAnswer({ ...good, email: "x@y" })).join("\n")).toContain("data.shop.email: not selected");
    expect(answerProblems(admin, SHOP_QUERY, shopAnswer({ name: "Demo", primaryDomain: good.primaryDomain })).join("\n")).toContain(
      "data.shop.myshopifyDomain: selected but missing",
    );
    expect(answerProblems(admin, SHOP_QUERY, shopAnswer({ ...good, primaryDomain: null })).join("\n")).toContain("null for the non-null Domain!");
    expect(answerProblems(admin, SHOP_QUERY, shopAnswer({ ...good, primaryDomain: { url: "demo.example" } })).join("\n")).toContain("is not a URL");
    const subscription = { id: "gid://shopify/AppSubscription/1", status: "PAUSED" };
    const create = shopify.BILLING_DOCUMENTS.appSubscriptionCreate;
    const created = (appSubscription: unknown) => ({
      data: { appSubscriptionCreate: { userErrors: [], appSubscription, confirmationUrl: "https://x.test/c" } },
    });
    expect(answerProblems(admin, create, created(subscription)).join("\n")).toContain('"PAUSED" is not a value of AppSubscriptionStatus');
    expect(answerProblems(admin, create, created({ ...subscription, status: "PENDING" }))).toEqual([]);
    const userErrors = {
      data: { appSubscriptionCreate: { userErrors: [{ field: "name", message: "Name can't be blank" }], appSubscription: null, confirmationUrl: null } },
    };
    expect(answerProblems(admin, create, userErrors).join("\n")).toContain("data.appSubscriptionCreate.userErrors[0].field: not a list");
  });

  it("resolves abstract types to one possible type, and checks error entries", () => {
    const node = shopify.BILLING_DOCUMENTS.appSubscription;
    expect(answerProblems(admin, node, { data: { node: {} } })).toEqual([]); // a Node that is not an AppSubscription
    expect(answerProblems(admin, node, { data: { node: { id: "gid://shopify/AppSubscription/1" } } }).join("\n")).toContain("fits none of Node's");
    const money = (amount: unknown) => ({
      data: {
        currentAppInstallation: {
          activeSubscriptions: [
            {
              id: "gid://shopify/AppSubscription/1",
              name: "P",
              status: "ACTIVE",
              test: true,
              trialDays: 0,
              createdAt: "2025-01-01T00:00:00Z",
              currentPeriodEnd: null,
              lineItems: [
                { id: "gid://x", plan: { pricingDetails: { __typename: "AppRecurringPricing", interval: "ANNUAL", price: { amount, currencyCode: "USD" } } } },
              ],
            },
          ],
        },
      },
    });
    expect(answerProblems(admin, shopify.BILLING_DOCUMENTS.activeSubscriptions, money("29.99"))).toEqual([]);
    expect(answerProblems(admin, shopify.BILLING_DOCUMENTS.activeSubscriptions, money(29.99)).join("\n")).toContain("29.99 is not a Decimal");
    expect(answerProblems(admin, SHOP_QUERY, { errors: [{ message: "Throttled", extensions: { code: "THROTTLED" } }] })).toEqual([]);
    expect(answerProblems(admin, SHOP_QUERY, { errors: [{ text: "Throttled" }] }).join("\n")).toContain("message: not a non-empty string");
    expect(answerProblems(admin, SHOP_QUERY, { data: null })).toEqual(["data is null without errors"]);
  });
});

// ---- the stand-in's schema -----------------------------------------------------------------------

describe("the stand-in's schema", () => {
  it("is the cut scripts/shopify-schema-extract.ts makes of the published schemas", () => {
    expect(readFileSync(ADMIN_EXTRACT, "utf8")).toBe(extractSdl(admin, ADMIN_KEPT));
    expect(readFileSync(PARTNER_EXTRACT, "utf8")).toBe(extractSdl(partner, PARTNER_KEPT));
  });

  it("accepts every document the clients send, as the published schema does", () => {
    const cutAdmin = buildSchema(readFileSync(ADMIN_EXTRACT, "utf8"));
    const cutPartner = buildSchema(readFileSync(PARTNER_EXTRACT, "utf8"));
    for (const document of [...Object.values(shopify.BILLING_DOCUMENTS), ...Object.values(STORE_DOCUMENTS)])
      expect(validate(cutAdmin, parse(document))).toEqual([]);
    expect(validate(cutPartner, parse(shopify.PARTNER_DOCUMENTS.appSaleAdjustments))).toEqual([]);
  });

  it("refuses a document Shopify would refuse, and answers only the fields a document selects", async () => {
    const shop = newShop("select");
    const post = (query: string, variables: Record<string, unknown> = {}) =>
      fetch(`${sandbox.url}/shopify/${shop}/admin/api/2025-01/graphql.json`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-shopify-access-token": TOKEN },
        body: JSON.stringify({ query, variables }),
      }).then((response) => response.json());
    const unknown = await post("{ shop { name storeUrl } }");
    expect(unknown.data).toBeUndefined();
    expect(unknown.errors[0].message).toContain('Cannot query field "storeUrl" on type "Shop"');
    const missing = await post('mutation { appSubscriptionCreate(name: "P") { confirmationUrl } }');
    expect(missing.errors.map((error: { message: string }) => error.message).join("\n")).toContain('argument "returnUrl" of type "URL!" is required');
    const wrongType = await post("query Q($first: Int) { products(first: $first) { nodes { id } } }", { first: "ten" });
    expect(wrongType.errors[0].message).toContain('Variable "$first" got invalid value "ten"');
    expect(await post("{ shop { name } }")).toMatchObject({ data: { shop: { name: expect.any(String) } } });
    expect(Object.keys((await post("{ shop { name } }")).data.shop)).toEqual(["name"]);
    const aliased = await post(
      "{ products(first: 1) { nodes { handle small: media(first: 1) { nodes { ... on MediaImage { image { w: url(transform: { maxWidth: 200 }) } } } } } } }",
    );
    expect(Object.keys(aliased.data.products.nodes[0])).toEqual(["handle", "small"]);
    expect(aliased.data.products.nodes[0].small.nodes[0].image.w).toMatch(/&width=200&height=200$/);
    // The refusals are answers of the specification's shape too.
    expect(exchanges.flatMap((exchange) => answerProblems(admin, String(exchange.body.query), exchange.answer))).toEqual([]);
  });
});

// ---- the clients against the stand-in --------------------------------------------------------------

describe("app billing (workers/integrations/shopify.ts) against the published Admin schema", () => {
  it("creates, approves, lists, reads and cancels a subscription", async () => {
    const shop = newShop("billing");
    const created = await shopify.createAppSubscription(env(), shop, TOKEN, CHARGE);
    await approve(created.confirmationUrl);
    const [active] = await shopify.activeSubscriptions(env(), shop, TOKEN);
    expect(active).toMatchObject({ id: created.appSubscription.id, status: "ACTIVE" });
    expect(await shopify.appSubscription(env(), shop, TOKEN, created.appSubscription.id)).toMatchObject({ status: "ACTIVE", trialDays: 7 });
    expect(await shopify.cancelAppSubscription(env(), shop, TOKEN, created.appSubscription.id)).toMatchObject({ status: "CANCELLED" });
    expect(await shopify.appSubscription(env(), shop, TOKEN, "gid://shopify/AppSubscription/1")).toBeNull();
    expect(exchanges.map((exchange) => exchange.body.query)).toEqual([
      shopify.BILLING_DOCUMENTS.appSubscriptionCreate,
      shopify.BILLING_DOCUMENTS.activeSubscriptions,
      shopify.BILLING_DOCUMENTS.appSubscription,
      shopify.BILLING_DOCUMENTS.appSubscriptionCancel,
      shopify.BILLING_DOCUMENTS.appSubscription,
    ]);
    expectAllConform();
  });

  it("answers bad input with userErrors, which the client reports", async () => {
    const shop = newShop("user-errors");
    expect(await failure(shopify.createAppSubscription(env(), shop, TOKEN, { ...CHARGE, price: 0 }))).toMatchObject({ kind: "graphql" });
    const created = await shopify.createAppSubscription(env(), shop, TOKEN, CHARGE);
    // A pending charge cannot be cancelled.
    const error = await failure(shopify.cancelAppSubscription(env(), shop, TOKEN, created.appSubscription.id));
    expect(error.details).toContain("id: Cannot cancel a subscription with status pending");
    const userErrors = exchanges.flatMap((exchange) => Object.values(dataOf(exchange) ?? {}).flatMap((payload) => (payload?.userErrors as unknown[]) ?? []));
    expect(userErrors.length).toBeGreaterThanOrEqual(2);
    expectAllConform();
  });

  it("waits out a THROTTLED answer, and reports a 401 for a revoked token", async () => {
    const shop = newShop("throttled");
    await control("/throttle", { shop, currentlyAvailable: 0, restoreRate: 200 });
    expect(await shopify.activeSubscriptions(env(), shop, TOKEN)).toEqual([]);
    expect(errorsOf(exchanges[0]!)?.[0]?.extensions?.code).toBe("THROTTLED");
    expect(dataOf(exchanges[1]!)).toEqual({ currentAppInstallation: { activeSubscriptions: [] } });

    const revoked = "shpat_revoked0123456789";
    await realFetch(`${sandbox.url}/shopify/${shop}/admin/api_permissions/current.json`, { method: "DELETE", headers: { "x-shopify-access-token": revoked } });
    expect(await failure(shopify.activeSubscriptions(env(), shop, revoked))).toMatchObject({ kind: "http", status: 401 });
    expect(exchanges.map((exchange) => exchange.status)).toEqual([200, 200, 401]);
    expectAllConform();
  });
});

describe("the store's products (workers/integrations/shopify-admin.ts) against the published Admin schema", () => {
  it("reads the store's name and pages through its products forward and back, with a search", async () => {
    const shop = newShop("store");
    expect(await shopDetails(env(), shop, TOKEN)).toMatchObject({ myshopifyDomain: shop });
    const first = await productsPage(env(), shop, TOKEN, { size: 5, query: productSearchQuery("", "active") });
    expect(first.products).toHaveLength(5);
    expect(first.products[0]!.media.nodes.length).toBeGreaterThan(0);
    const second = await productsPage(env(), shop, TOKEN, { size: 5, after: first.pageInfo.endCursor!, query: productSearchQuery("", "active") });
    expect(second.pageInfo.hasPreviousPage).toBe(true);
    const back = await productsPage(env(), shop, TOKEN, { size: 5, before: second.pageInfo.startCursor!, query: productSearchQuery("", "active") });
    expect(back.products.map((product) => product.id)).toEqual(first.products.map((product) => product.id));
    expect(exchanges.map((exchange) => exchange.body.query)).toEqual([STORE_DOCUMENTS.shopDetails, ...Array(3).fill(STORE_DOCUMENTS.products)]);
    expectAllConform();
  });

  it("reports a GraphQL error for a cursor Shopify does not know", async () => {
    const shop = newShop("cursor");
    expect(await failure(productsPage(env(), shop, TOKEN, { size: 5, after: "not-a-cursor" }))).toMatchObject({ kind: "graphql" });
    expect(errorsOf(exchanges[0]!)?.[0]?.message).toContain("Invalid cursor");
    expectAllConform();
  });
});

describe("refunds through the Partner API (decision 077) against the published Partner schema", () => {
  it("reads our app's AppSaleAdjustment transactions, and reports a 401", async () => {
    const shop = newShop("partner");
    const since = new Date(Date.now() - 60_000).toISOString();
    const created = await shopify.createAppSubscription(env(), shop, TOKEN, { ...CHARGE, trialDays: 0 });
    await approve(created.confirmationUrl);
    await control(`/subscriptions/${created.appSubscription.id.split("/").pop()}/refund`, { amount: "10.00" });
    exchanges = [];
    const { adjustments } = await shopify.appSaleAdjustments(partnerEnv(), { createdAtMin: since, after: null });
    expect(adjustments.filter((adjustment) => adjustment.shop?.myshopifyDomain === shop)).toMatchObject([
      { chargeId: created.appSubscription.id, grossAmount: { amount: "-10.00", currencyCode: "USD" } },
    ]);
    expect(
      await failure(shopify.appSaleAdjustments({ ...partnerEnv(), SHOPIFY_PARTNER_ACCESS_TOKEN: "not-a-partner-token" }, { createdAtMin: since, after: null })),
    ).toMatchObject({ kind: "http", status: 401 });
    expect(exchanges.map((exchange) => [exchange.api, exchange.status])).toEqual([
      ["partner", 200],
      ["partner", 401],
    ]);
    expectAllConform();
  });
});
