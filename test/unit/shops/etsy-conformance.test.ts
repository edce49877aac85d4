import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ETSY_SCOPES } from "../../../contracts/shops/etsy.ts";
import { SANDBOX_ETSY_KEYSTRING, SANDBOX_ETSY_SHARED_SECRET } from "../../../sandbox/provider-vars.ts";
import { ETSY_SCOPE_DESCRIPTIONS } from "../../../sandbox/providers/etsy/state.ts";
import { EtsyApiError, EtsyClient, type EtsyTokens, forgetEtsyShop, pkcePair } from "../../../workers/integrations/etsy.ts";
import { createOpenApiChecker, type Exchange, type Json } from "../../support/openapi-conformance.ts";
import { useSandbox } from "../../support/sandbox.ts";
import { recordExchange } from "../../support/recorded-fetch.ts";

// Conformance with Etsy's published OpenAPI description of Open API v3 (contracts/specs/etsy-open-api-v3.openapi.json,
// source and terms in etsy-open-api-v3.TERMS): every request our client (workers/integrations/etsy.ts) sends to the
// stand-in (sandbox/providers/etsy), and every answer of the stand-in, is checked against its operation with closed
// objects (test/support/openapi-conformance.ts): method and path, query parameters (names, types, enums, bounds),
// the security requirement (x-api-key; a Bearer token where an operation asks for OAuth), the answer's status and
// body. Etsy's server reads a list parameter (listing_ids, includes) as one comma-separated value, which is what every
// Etsy client sends; the description leaves the style at OpenAPI's default (the name repeated), so the check reads
// lists as comma-separated (decision 094). The OAuth token endpoint is described only as the oauth2 scheme's
// authorizationUrl, tokenUrl and scopes: those are checked; its form and answer are RFC 6749's and are not in the
// description. Etsy's 401 answers carry error_description beside error (etsy/open-api issues 370 and 519), which
// the description's ErrorSchema does not declare: that one field is allowed on a 401.

const spec: Json = JSON.parse(readFileSync(fileURLToPath(new URL("../../../contracts/specs/etsy-open-api-v3.openapi.json", import.meta.url)), "utf8"));
const etsy = createOpenApiChecker(spec, "etsy-open-api-v3", { arrayQueryCommaSeparated: true });
const oauthFlow = spec.components.securitySchemes.oauth2.flows.authorizationCode;

const sandbox = useSandbox();
/** Etsy's server (https://openapi.etsy.com): paths start with /v3. */
const apiBase = () => new URL(`${sandbox.url}/etsy`);
const env = () => ({
  ETSY_API_URL: `${sandbox.url}/etsy/v3`,
  ETSY_OAUTH_URL: `${sandbox.url}/etsy/oauth/connect`,
  ETSY_KEYSTRING: SANDBOX_ETSY_KEYSTRING,
  ETSY_SHARED_SECRET: SANDBOX_ETSY_SHARED_SECRET,
});
const REDIRECT = "https://app.example/api/etsyAPI/oauthCallback";
const KEY = `${SANDBOX_ETSY_KEYSTRING}:${SANDBOX_ETSY_SHARED_SECRET}`;

// ---- recording what the client sends and the stand-in answers ------------------------------------

let exchanges: Exchange[] = [];
const recording = (input: RequestInfo | URL, init?: RequestInit) => recordExchange(new Request(input, init), fetch, exchanges);
const client = () => new EtsyClient(env(), { fetch: recording });
/** A call the client does not make (the stand-in's other answers), recorded the same way. */
const call = (path: string, accessToken?: string, key = KEY) =>
  recording(`${sandbox.url}/etsy/v3/application${path}`, {
    headers: { accept: "application/json", "x-api-key": key, ...(accessToken ? { authorization: `Bearer ${accessToken}` } : {}) },
  });

const connected: { userId: string; shopId: string }[] = [];
beforeEach(() => {
  exchanges = [];
});
afterEach(() => {
  // The client keeps a shop's sections and budget per isolate; the sandbox's next test reuses the ids.
  for (const { userId, shopId } of connected.splice(0)) forgetEtsyShop(userId, shopId);
});

const TOKEN_PATH = "/v3/public/oauth/token";
const pathOf = (exchange: Exchange) => exchange.url.pathname.slice(apiBase().pathname.length);
const described = () => exchanges.filter((exchange) => pathOf(exchange) !== TOKEN_PATH);

/** The description's ErrorSchema, with the error_description Etsy's 401 answers carry (see above). */
const errorSchema = { $ref: "#/components/schemas/ErrorSchema" };
const unauthorizedSchema = { type: "object", required: ["error"], properties: { error: { type: "string" }, error_description: { type: "string" } } };

function problemsOf(exchange: Exchange, options?: { request?: boolean }): string[] {
  if (exchange.status === 401) {
    // Only the body differs from what the description says of a 401: the request is checked as usual.
    const request = options?.request === false ? [] : etsy.conformanceProblems({ ...exchange, status: undefined }, apiBase());
    return [...request, ...etsy.schemaProblems("401 answer", "#unauthorized", unauthorizedSchema, JSON.parse(exchange.responseBody ?? "null"))];
  }
  return etsy.conformanceProblems(exchange, apiBase(), options);
}
const operationsCovered = () => new Set(described().map((exchange) => etsy.operationId(exchange, apiBase()) ?? `${exchange.method} ${pathOf(exchange)}`));

function expectAllConform() {
  expect(described().flatMap((exchange) => problemsOf(exchange))).toEqual([]);
}

/** A shop connected through the consent page (auto-approved) and the token endpoint, as the app connects one. */
async function connect(shopName: string): Promise<{ tokens: EtsyTokens; shopId: string }> {
  const { verifier, challenge } = await pkcePair();
  const authorize = new URL(client().buildAuthorizeUrl({ state: "state-1", codeChallenge: challenge, redirectUri: REDIRECT }));
  authorize.searchParams.set("auto_approve", "1");
  authorize.searchParams.set("shop_name", shopName);
  const answer = await fetch(authorize, { redirect: "manual" });
  expect(answer.status).toBe(302);
  const code = new URL(answer.headers.get("location")!).searchParams.get("code")!;
  const tokens = await client().exchangeCode(code, verifier, REDIRECT);
  const shop = await client().shopOfUser(tokens.accessToken, tokens.etsyUserId);
  connected.push({ userId: tokens.etsyUserId, shopId: String(shop.shop_id) });
  return { tokens, shopId: String(shop.shop_id) };
}

async function failure(promise: Promise<unknown>): Promise<EtsyApiError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(EtsyApiError);
  return error as EtsyApiError;
}

// ---- the checks ---------------------------------------------------------------------------------

describe("the Etsy check itself", () => {
  const base = new URL("https://openapi.etsy.com");
  const active = (query: string, headers: Record<string, string> = { "x-api-key": "k:s" }): Exchange => ({
    method: "GET",
    url: new URL(`https://openapi.etsy.com/v3/application/shops/123/listings/active?${query}`),
    requestHeaders: new Headers(headers),
    requestBody: null,
  });

  it("holds a listings call to the parameters, bounds and enums Etsy declares, and to its API key", () => {
    expect(etsy.conformanceProblems(active("limit=100&offset=0&keywords=mug&sort_on=created&sort_order=desc"), base)).toEqual([]);
    expect(etsy.conformanceProblems(active("limit=101"), base).join("\n")).toContain("must be <= 100");
    expect(etsy.conformanceProblems(active("sort_on=newest"), base).join("\n")).toContain("must be equal to one of the allowed values");
    expect(etsy.conformanceProblems(active("includes=Images"), base).join("\n")).toContain("query parameter includes is not declared");
    expect(etsy.conformanceProblems(active("limit=5", {}), base).join("\n")).toContain("does not meet the security requirements api_key");
  });

  it("reads listing_ids as a comma-separated list of positive integers, and closes Etsy's objects", () => {
    const batch = (query: string): Exchange => ({
      method: "GET",
      url: new URL(`https://openapi.etsy.com/v3/application/listings/batch?${query}`),
      requestHeaders: new Headers({ "x-api-key": "k:s" }),
      requestBody: null,
      status: 200,
      responseHeaders: new Headers({ "content-type": "application/json" }),
      responseBody: JSON.stringify({ count: 1, results: [{ listing_id: 1, title: "Mug", price: { amount: 2450, divisor: 100, currency_code: "USD" } }] }),
    });
    expect(etsy.conformanceProblems(batch("listing_ids=1,2,3&includes=Images"), base)).toEqual([]);
    expect(etsy.conformanceProblems(batch("listing_ids=1,x"), base).join("\n")).toContain("must be integer");
    expect(etsy.conformanceProblems(batch("listing_ids=1&listing_ids=2"), base).join("\n")).toContain("is repeated");
    expect(etsy.conformanceProblems(batch("listing_ids=1&includes=Pictures"), base).join("\n")).toContain("must be equal to one of the allowed values");
    const invented = { ...batch("listing_ids=1"), responseBody: JSON.stringify({ count: 1, results: [{ listing_id: 1, price_text: "24.50" }] }) };
    expect(etsy.conformanceProblems(invented, base).join("\n")).toContain('{"unevaluatedProperty":"price_text"}');
  });
});

describe("Etsy client and stand-in against Etsy's description", () => {
  it("the authorization request and the token endpoint are the oauth2 scheme's, with scopes it declares", async () => {
    const authorize = new URL(client().buildAuthorizeUrl({ state: "s", codeChallenge: "c".repeat(43), redirectUri: REDIRECT }));
    expect(authorize.pathname).toBe(`/etsy${new URL(oauthFlow.authorizationUrl).pathname}`);
    const scopes = authorize.searchParams.get("scope")!.split(" ");
    expect(scopes).toEqual([...ETSY_SCOPES]);
    for (const scope of [...scopes, ...Object.keys(ETSY_SCOPE_DESCRIPTIONS)]) expect(Object.keys(oauthFlow.scopes)).toContain(scope);

    const { tokens } = await connect("ScopeCheckShop");
    await client().refreshToken(tokens.refreshToken);
    const tokenCalls = exchanges.filter((exchange) => pathOf(exchange) === TOKEN_PATH);
    expect(tokenCalls.map((exchange) => [exchange.method, exchange.status])).toEqual([
      ["POST", 200],
      ["POST", 200],
    ]);
    expect(new URL(oauthFlow.tokenUrl).pathname).toBe(TOKEN_PATH);
    expectAllConform();
  });

  it("a page of listings as the app shows it: the shop, its sections, its active listings, their images", async () => {
    const { tokens, shopId } = await connect("ConformingShop");
    const first = await client().listingsPage(tokens.accessToken, shopId, { limit: 24, offset: 0 });
    expect(first.listings.length).toBe(24);
    expect(first.listings[0].images.length).toBeGreaterThan(0);
    const searched = await client().listingsPage(tokens.accessToken, shopId, { limit: 24, offset: 24, keywords: "mug" });
    expect(searched.count).toBeGreaterThan(0);
    const last = await client().activeListings(tokens.accessToken, shopId, { limit: 100, offset: first.count - 1 });
    expect(last.results).toHaveLength(1);
    await client().shopSections(tokens.accessToken, shopId);
    // The app's last page number (999999) asks for an offset far past the end: Etsy sets offset no maximum.
    const beyond = await client().activeListings(tokens.accessToken, shopId, { limit: 50, offset: 49_999_950 });
    expect(beyond).toEqual({ count: first.count, results: [] });

    expect([...operationsCovered()].sort()).toEqual(
      ["findAllActiveListingsByShop", "getListingsByListingIds", "getShopByOwnerUserId", "getShopSections"].sort(),
    );
    // Every call carries the app's key as Etsy describes it: keystring:shared_secret.
    for (const exchange of described()) expect(exchange.requestHeaders.get("x-api-key")).toMatch(/^[^:\s]+:[^:\s]+$/);
    expectAllConform();
  });

  it("the stand-in's other answers: the shop, one listing with its images, the member", async () => {
    const { tokens, shopId } = await connect("OtherAnswersShop");
    expect((await call(`/shops/${shopId}`, tokens.accessToken)).status).toBe(200);
    const page = await client().activeListings(tokens.accessToken, shopId, { limit: 1, offset: 0 });
    const listingId = page.results[0].listing_id;
    expect((await call(`/listings/${listingId}?includes=Images`, tokens.accessToken)).status).toBe(200);
    expect((await call(`/listings/${listingId}`)).status).toBe(200);
    expect((await call(`/listings/batch?listing_ids=${listingId}`)).status).toBe(200);
    expect((await call("/users/me", tokens.accessToken)).status).toBe(200);
    // A member without a shop (yet): Etsy's Self has no null shop_id.
    await fetch(`${sandbox.url}/__sandbox/etsy/accounts`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ shop_name: "NoShopMember", has_shop: false }),
    });
    const granted = await fetch(`${sandbox.url}/__sandbox/etsy/tokens`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ shop_name: "NoShopMember" }),
    });
    const noShop = (await granted.json()) as { access_token: string };
    expect(await (await call("/users/me", noShop.access_token)).json()).toEqual({ user_id: expect.any(Number) });
    expect([...operationsCovered()]).toEqual(expect.arrayContaining(["getShop", "getListing", "getMe"]));
    expectAllConform();
  });

  it("the error answers: a member without a shop, an unknown shop or listing, a limit over 100, an expired token", async () => {
    const { tokens, shopId } = await connect("ErrorAnswersShop");
    await fetch(`${sandbox.url}/__sandbox/etsy/accounts`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ shop_name: "NoShopYet", has_shop: false }),
    });
    const [noShop] = (await (await fetch(`${sandbox.url}/__sandbox/etsy/accounts?shop_name=NoShopYet`)).json()) as { user_id: number }[];
    expect((await failure(client().shopOfUser(tokens.accessToken, String(noShop.user_id)))).kind).toBe("not_found");
    expect((await failure(client().activeListings(tokens.accessToken, "999999", { limit: 5, offset: 0 }))).kind).toBe("not_found");
    expect((await call("/listings/1499999999")).status).toBe(404);
    expect((await call(`/shops/${shopId}/listings/active?sort_on=newest`)).status).toBe(400);

    // A request that breaks the description on purpose: its answer is checked, then it is left out.
    expect((await call(`/shops/${shopId}/listings/active?limit=101`, tokens.accessToken)).status).toBe(400);
    const tooMany = exchanges.pop()!;
    expect(problemsOf(tooMany).join("\n")).toContain("must be <= 100");
    expect(problemsOf(tooMany, { request: false })).toEqual([]);
    expect(tooMany.responseBody && JSON.parse(tooMany.responseBody).error).toBeTruthy();
    const sortOn = exchanges.pop()!;
    expect(problemsOf(sortOn, { request: false })).toEqual([]);

    await fetch(`${sandbox.url}/__sandbox/etsy/expire-token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ shop_name: "ErrorAnswersShop" }),
    });
    expect((await failure(client().activeListings(tokens.accessToken, shopId, { limit: 5, offset: 0 }))).kind).toBe("unauthorized");
    const expired = exchanges.at(-1)!;
    expect(expired.status).toBe(401);
    expect(JSON.parse(expired.responseBody!)).toEqual({ error: "invalid_token", error_description: "access token is expired" });
    expectAllConform();
  });

  it("answers the description does not list for these operations (a bad key, the rate limit) are still Etsy's ErrorSchema", async () => {
    const { tokens, shopId } = await connect("KeyAndBudgetShop");
    const refusals = [
      await call(`/shops/${shopId}/listings/active`, tokens.accessToken, SANDBOX_ETSY_KEYSTRING),
      await call(`/shops/${shopId}/listings/active`, tokens.accessToken, "someone-else:secret"),
    ];
    await fetch(`${sandbox.url}/__sandbox/etsy/rate-limit`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ shop_name: "KeyAndBudgetShop", perSecond: 1, perDay: 100 }),
    });
    const burst = await Promise.all([1, 2, 3].map(() => call(`/shops/${shopId}/sections`, tokens.accessToken)));
    const limited = burst.filter((answer) => answer.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    expect(refusals.map((answer) => answer.status)).toEqual([403, 403]);
    for (const answer of [...refusals, ...limited]) expect(etsy.schemaProblems("refusal", "#error", errorSchema, await answer.json())).toEqual([]);
  });
});
