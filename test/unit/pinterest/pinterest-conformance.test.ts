import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeEach, describe, expect, it } from "vitest";
import { PinterestApiError, PinterestClient, type PinterestEnv } from "../../../workers/integrations/pinterest.ts";
import { encodePng } from "../../../workers/render/overlay.ts";
import { labelPicture, TEMPLATE_FAMILY_KEYWORD } from "../../../workers/render/picture-label.ts";
import { createOpenApiChecker, type Exchange, type Json } from "../../support/openapi-conformance.ts";
import { useSandbox } from "../../support/sandbox.ts";
import { rejectionOf } from "../../support/rejection.ts";
import { recordExchange } from "../../support/recorded-fetch.ts";

// Conformance with Pinterest's published OpenAPI description
// (contracts/specs/pinterest-api-v5.openapi.json, a copy of ../shared/specs): every request our client
// (workers/integrations/pinterest.ts) sends, and every answer of the sandbox's
// stand-in, is checked against the operation it belongs to: method and path,
// declared query parameters, security scheme, request content type and body,
// response status, content type and body. Schemas are checked with Ajv
// (JSON Schema 2019-09) with the OpenAPI 3.0 keywords translated
// (nullable, discriminator) and objects closed: a property the description
// does not declare is an error, so `image_url` at the top of a pin instead of
// inside media_source fails, as does a stand-in answer missing a required field.

// ---- the validator (test/support/openapi-conformance.ts) ---------------------------------------

const { spec, conformanceProblems, operationId } = createOpenApiChecker(
  JSON.parse(readFileSync(fileURLToPath(new URL("../../../contracts/specs/pinterest-api-v5.openapi.json", import.meta.url)), "utf8")),
  "pinterest-v5",
);

// ---- the client against the stand-in ---------------------------------------------------------

const sandbox = useSandbox();
const CLIENT_ID = "1500000000000001";
const REDIRECT_URI = "http://app.test/pinterest/callback";
const PNG_1X1 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
const OPERATIONS_WE_USE = [
  "oauth/token",
  "user_account/get",
  "boards/list",
  "boards/create",
  "board_sections/list",
  "board_sections/create",
  "boards/list_pins",
  "pins/create",
  "media/create",
  "media/get",
  "feeds/create",
  "feeds/ingest",
  "feed_processing_results/list",
  "items_issues/list",
];

let exchanges: Exchange[] = [];
beforeEach(() => {
  exchanges = [];
});

/** fetch that records each request and answer for validation. */
const recordingFetch: typeof fetch = (input, init) => recordExchange(new Request(input, init), fetch, exchanges);

const envFor = (): PinterestEnv => ({
  PINTEREST_API_URL: `${sandbox.url}/pinterest/v5`,
  PINTEREST_OAUTH_URL: `${sandbox.url}/pinterest/oauth/`,
  PINTEREST_CLIENT_ID: CLIENT_ID,
  PINTEREST_CLIENT_SECRET: "conformance-secret",
});
const clientFor = (options: { timeoutMs?: number } = {}) => new PinterestClient(envFor(), { fetch: recordingFetch, ...options });
const apiBase = () => new URL(`${sandbox.url}/pinterest/v5`);

async function connect(client: PinterestClient, username: string) {
  const authorize = new URL(client.buildAuthorizeUrl("state-1", REDIRECT_URI));
  authorize.searchParams.set("auto_approve", "1");
  authorize.searchParams.set("username", username);
  const redirect = await fetch(authorize, { redirect: "manual" });
  const code = new URL(redirect.headers.get("location")!).searchParams.get("code")!;
  return client.exchangeCode(code, REDIRECT_URI);
}

async function control(path: string, json: unknown) {
  const response = await fetch(`${sandbox.url}/__sandbox${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(json),
  });
  expect(response.ok).toBe(true);
}

function expectAllConform() {
  const problems = exchanges
    .filter((exchange) => exchange.url.pathname.startsWith(apiBase().pathname))
    .flatMap((exchange) => conformanceProblems(exchange, apiBase()));
  expect(problems).toEqual([]);
}

const failure = (promise: Promise<unknown>) => rejectionOf(promise, PinterestApiError);

describe("the OpenAPI check itself", () => {
  const base = new URL("https://api.pinterest.com/v5");
  const pinRequest = (body: unknown): Exchange => ({
    method: "POST",
    url: new URL("https://api.pinterest.com/v5/pins"),
    requestHeaders: new Headers({ authorization: "Bearer pina_x", "content-type": "application/json" }),
    requestBody: JSON.stringify(body),
  });

  it("accepts a well-formed pin and refuses image_url outside media_source, unknown source types and over-long titles", () => {
    const good = { board_id: "123", title: "T", media_source: { source_type: "image_url", url: "https://x.test/a.jpg" } };
    expect(conformanceProblems(pinRequest(good), base)).toEqual([]);
    expect(conformanceProblems(pinRequest({ board_id: "123", title: "T", image_url: "https://x.test/a.jpg" }), base).join("\n")).toContain("unevaluated");
    expect(conformanceProblems(pinRequest({ ...good, media_source: { source_type: "image_url", url: "u", content_type: "image/png" } }), base)).not.toEqual([]);
    expect(conformanceProblems(pinRequest({ ...good, media_source: { source_type: "gif_url", url: "u" } }), base)).not.toEqual([]);
    expect(conformanceProblems(pinRequest({ ...good, title: "t".repeat(101) }), base).join("\n")).toContain("must NOT have more than 100 characters");
    expect(conformanceProblems({ ...pinRequest(good), requestHeaders: new Headers({ "content-type": "application/json" }) }, base).join("\n")).toContain(
      "security",
    );
  });

  it("refuses answers missing a required field or with a wrong type, and undeclared query parameters", () => {
    const boards = (body: unknown, query = ""): Exchange => ({
      method: "GET",
      url: new URL(`https://api.pinterest.com/v5/boards${query}`),
      requestHeaders: new Headers({ authorization: "Bearer pina_x" }),
      requestBody: null,
      status: 200,
      responseHeaders: new Headers({ "content-type": "application/json" }),
      responseBody: JSON.stringify(body),
    });
    expect(conformanceProblems(boards({ items: [{ id: "1", name: "B" }], bookmark: null }), base)).toEqual([]);
    expect(conformanceProblems(boards({ items: [{ name: "B" }] }), base).join("\n")).toContain("required");
    expect(conformanceProblems(boards({ items: [{ id: 1, name: "B" }] }), base)).not.toEqual([]);
    expect(conformanceProblems(boards({ boards: [] }), base)).not.toEqual([]);
    expect(conformanceProblems(boards({ items: [] }, "?page_size=0"), base).join("\n")).toContain("page_size");
    expect(conformanceProblems(boards({ items: [] }, "?limit=5"), base).join("\n")).toContain("limit is not declared");
  });

  it("refuses a token request that is not form-encoded or lacks client authentication, and a token answer without its fields", () => {
    const tokenExchange = (init: Partial<Exchange>): Exchange => ({
      method: "POST",
      url: new URL("https://api.pinterest.com/v5/oauth/token"),
      requestHeaders: new Headers({ authorization: "Basic eDp5", "content-type": "application/x-www-form-urlencoded" }),
      requestBody: "grant_type=refresh_token&refresh_token=pinr_x",
      ...init,
    });
    expect(conformanceProblems(tokenExchange({}), base)).toEqual([]);
    expect(
      conformanceProblems(tokenExchange({ requestHeaders: new Headers({ authorization: "Basic eDp5", "content-type": "application/json" }) }), base),
    ).not.toEqual([]);
    expect(conformanceProblems(tokenExchange({ requestHeaders: new Headers({ "content-type": "application/x-www-form-urlencoded" }) }), base)).not.toEqual([]);
    expect(conformanceProblems(tokenExchange({ requestBody: "grant_type=refresh_token" }), base).join("\n")).toContain("refresh_token");
    const answer = (body: unknown) =>
      conformanceProblems(
        tokenExchange({ status: 200, responseHeaders: new Headers({ "content-type": "application/json" }), responseBody: JSON.stringify(body) }),
        base,
      );
    const refreshAnswer = {
      access_token: "a",
      refresh_token: "r",
      response_type: "refresh_token",
      token_type: "bearer",
      expires_in: 1,
      scope: "s",
      refresh_token_expires_in: 2,
      refresh_token_expires_at: 3,
    };
    expect(answer(refreshAnswer)).toEqual([]);
    const { refresh_token_expires_at: _dropped, ...withoutExpiry } = refreshAnswer;
    expect(answer(withoutExpiry).join("\n")).toContain("refresh_token_expires_at");
  });

  it("knows no operation outside the description", () => {
    const exchange: Exchange = { method: "POST", url: new URL("https://api.pinterest.com/v5/pins/bulk"), requestHeaders: new Headers(), requestBody: null };
    expect(conformanceProblems(exchange, base).join("\n")).toContain("is not an operation");
  });
});

describe("our client and the stand-in, against the OpenAPI description", () => {
  it("builds the authorization URL of the description's OAuth flow", () => {
    const production = new PinterestClient({
      PINTEREST_API_URL: "https://api.pinterest.com/v5",
      PINTEREST_OAUTH_URL: "https://www.pinterest.com/oauth/",
      PINTEREST_CLIENT_ID: "1234",
      PINTEREST_CLIENT_SECRET: "the-app-secret-value",
    });
    const flow = spec.components.securitySchemes.pinterest_oauth2.flows.authorizationCode;
    const url = new URL(production.buildAuthorizeUrl("st", "https://app.pinboard.studio/pinterest/callback"));
    expect(`${url.origin}${url.pathname}`).toBe(flow.authorizationUrl);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: "1234",
      redirect_uri: "https://app.pinboard.studio/pinterest/callback",
      response_type: "code",
      state: "st",
    });
    const scopes = url.searchParams.get("scope")!.split(",");
    expect(scopes.every((scope) => scope in flow.scopes)).toBe(true);
    // Every scope the operations we use need is asked for.
    const needed = OPERATIONS_WE_USE.flatMap((id) => {
      const [template, method] = Object.entries(spec.paths as Record<string, Record<string, Json>>).flatMap(([path, item]) =>
        Object.entries(item)
          .filter(([, op]) => op?.operationId === id)
          .map(([verb]) => [path, verb] as const),
      )[0];
      return (spec.paths[template][method].security ?? []).find((requirement: Json) => requirement.pinterest_oauth2)?.pinterest_oauth2 ?? [];
    });
    expect(needed.filter((scope: string) => !scopes.includes(scope))).toEqual([]);
    expect(production.buildAuthorizeUrl("st", "x")).not.toContain("the-app-secret-value");
  });

  it("conforms on every operation we use, on success", async () => {
    const client = clientFor();
    const first = await connect(client, "many_boards_conformance");
    expect(first.refreshToken).toMatch(/^pinr_/);
    const tokens = await client.refreshToken(first.refreshToken!);
    const token = tokens.accessToken;
    expect(tokens.refreshTokenExpiresAt).toBeGreaterThan(Date.now());

    expect((await client.getUserAccount(token)).username).toBe("many_boards_conformance");
    const boards = await client.listAllBoards(token);
    expect(boards).toHaveLength(30);
    expect(new Set(boards.map((board) => board.id)).size).toBe(30);
    expect(exchanges.filter((exchange) => exchange.url.pathname.endsWith("/boards")).length).toBe(2);

    const board = await client.createBoard(token, { name: "Conformance", description: "Made by the test", privacy: "PUBLIC" });
    const sectionA = await client.createSection(token, board.id, "Section A");
    await client.createSection(token, board.id, "Section B");
    expect((await client.listSections(token, board.id, { pageSize: 1 })).map((section) => section.name)).toEqual(["Section A", "Section B"]);

    const imagePin = await client.createPin(token, {
      board_id: board.id,
      board_section_id: sectionA.id,
      title: "Image URL pin",
      description: "Described",
      link: "https://blog.test/post",
      alt_text: "Alt",
      media_source: { source_type: "image_url", url: "https://blog.test/image.jpg" },
    });
    await client.createPin(token, {
      board_id: board.id,
      title: "Base64 pin",
      media_source: { source_type: "image_base64", content_type: "image/png", data: PNG_1X1 },
    });

    const upload = await client.registerMedia(token);
    const video = new Uint8Array(64);
    video.set(new TextEncoder().encode("ftypisom"), 4);
    await client.uploadMedia(upload, new Blob([video], { type: "video/mp4" }));
    expect((await client.getMedia(token, upload.media_id)).status).toBe("processing");
    expect((await client.getMedia(token, upload.media_id)).status).toBe("succeeded");
    await client.createPin(token, {
      board_id: board.id,
      title: "Video pin",
      media_source: { source_type: "video_id", media_id: upload.media_id, cover_image_url: "https://blog.test/cover.jpg" },
    });

    const page = await client.listBoardPins(token, board.id, { pageSize: 2 });
    expect(page.items.map((pin) => pin.title)).toEqual(["Video pin", "Base64 pin"]);
    const rest = await client.listBoardPins(token, board.id, { pageSize: 2, bookmark: page.bookmark! });
    expect(rest.items.map((pin) => pin.id)).toEqual([imagePin.id]);

    // A catalog's feed file, registered as a data source, ingested again, its processing result and item issues.
    const feedUrl = "https://shop.example/catalog-feeds/conformance.csv";
    const file = [
      "id,title,description,link,image_link,price,availability,additional_image_link,brand,condition,product_type",
      `good-1,Linen napkins,Three folds.,https://shop.example/napkins,${sandbox.url}/blog-demo/images/amalfi-coast-itinerary-1.jpg,12.99 USD,in stock,,Linen Co,new,Home > Kitchen`,
      `bad-2,Plain mug,,http://shop.example/mug,${sandbox.url}/blog-demo/images/amalfi-coast-itinerary-1.jpg,twelve,sold out,,,,`,
    ].join("\r\n");
    const handed = await fetch(`${sandbox.url}/__sandbox/pinterest/feed-files`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ url: feedUrl, body: file }),
    });
    expect(handed.ok).toBe(true);
    const feed = await client.createCatalogFeed(token, {
      name: "Conformance",
      format: "CSV",
      location: feedUrl,
      default_currency: "USD",
      default_locale: "en-US",
      default_country: "US",
      default_availability: "IN_STOCK",
      status: "ACTIVE",
    });
    const ingestion = await client.ingestCatalogFeed(token, feed.id);
    expect(ingestion).toMatchObject({ feed_id: feed.id, status: "PROCESSING" });
    const results = await client.listFeedProcessingResults(token, feed.id, { pageSize: 1 });
    expect(results.items[0]).toMatchObject({ status: "COMPLETED", product_counts: { original: 2, ingested: 1 } });
    const issues = await client.listItemIssues(token, results.items[0].id);
    expect(issues.items).toHaveLength(1);
    expect(issues.items[0]).toMatchObject({ item_number: 1, item_id: "bad-2" });
    expect(Object.keys(issues.items[0].errors).sort()).toEqual(["AVAILABILITY_INVALID", "DESCRIPTION_MISSING", "LINK_FORMAT_INVALID", "PRODUCT_PRICE_INVALID"]);

    const covered = new Set(exchanges.map((exchange) => operationId(exchange, apiBase())).filter(Boolean));
    expect([...covered].sort()).toEqual([...OPERATIONS_WE_USE].sort());
    // The only call outside the API base is the video upload, to the upload_url Pinterest named.
    expect(exchanges.filter((exchange) => !exchange.url.pathname.startsWith(apiBase().pathname)).map((exchange) => exchange.url.toString())).toEqual([
      upload.upload_url,
    ]);
    expectAllConform();
  });

  it("conforms on the error answers, which the client turns into typed errors", async () => {
    const client = clientFor();
    const tokens = await connect(client, "conformance_errors");
    const token = tokens.accessToken;
    const [board] = await client.listAllBoards(token);

    const tooLong = await failure(
      client.createPin(token, { board_id: board.id, title: "t".repeat(101), media_source: { source_type: "image_url", url: "https://blog.test/a.jpg" } }),
    );
    expect(tooLong).toMatchObject({ kind: "bad_request", status: 400, code: 1 });
    expect(tooLong.message).toContain("'title'");
    // That request breaks the description on purpose: check its answer only, then leave it out.
    const deliberate = exchanges.pop()!;
    expect(conformanceProblems(deliberate, apiBase()).join("\n")).toContain("title must NOT have more than 100 characters");
    expect(conformanceProblems(deliberate, apiBase(), { request: false })).toEqual([]);

    const missingBoard = await failure(client.listBoardPins(token, "999"));
    expect(missingBoard).toMatchObject({ kind: "not_found", status: 404 });

    const badGrant = await failure(client.refreshToken("pinr_unknown"));
    expect(badGrant).toMatchObject({ kind: "invalid_grant", status: 401, code: 283 });
    const badCode = await failure(client.exchangeCode("not-a-code", REDIRECT_URI));
    expect(badCode.kind).toBe("invalid_grant");

    await control("/pinterest/expire-token", { username: "conformance_errors" });
    const expired = await failure(client.getUserAccount(token));
    expect(expired).toMatchObject({ kind: "unauthorized", status: 401, code: 2, retryable: false });
    const fresh = await client.refreshToken(tokens.refreshToken!);

    await control("/pinterest/rate-limit", { username: "conformance_limited", perMinute: 1 });
    const limitedTokens = await connect(client, "conformance_limited");
    await client.getUserAccount(limitedTokens.accessToken);
    const limited = await failure(client.listAllBoards(limitedTokens.accessToken));
    expect(limited).toMatchObject({ kind: "rate_limited", status: 429, code: 8, retryable: true });
    expect(limited.rateLimitReset).toBeGreaterThan(0);
    expect(limited.retryAfterMs).toBe(limited.rateLimitReset! * 1000);

    await control("/pinterest/block", { username: "conformance_errors" });
    const blocked = await failure(client.getUserAccount(fresh.accessToken));
    expect(blocked).toMatchObject({ kind: "forbidden", status: 403, code: 29, blocked: true });
    await control("/pinterest/block", { username: "conformance_errors", blocked: false });

    await control("/faults", { service: "pinterest", path: "/v5/boards", status: 503, times: 1 });
    const unavailable = await failure(client.listAllBoards(fresh.accessToken));
    expect(unavailable).toMatchObject({ kind: "server", status: 503, retryable: true, outcomeUnknown: false });

    expectAllConform();
  });

  it("reports a pin whose answer never came as a timeout with an unknown outcome, and the pin can be found on the board", async () => {
    const client = clientFor({ timeoutMs: 300 });
    const { accessToken } = await connect(client, "conformance_timeout");
    const [board] = await client.listAllBoards(accessToken);
    await control("/pinterest/drop-after-create", { times: 1, delayMs: 2000 });
    const pin = {
      board_id: board.id,
      title: "Did it post?",
      link: "https://blog.test/p",
      media_source: { source_type: "image_url" as const, url: "https://blog.test/p.jpg" },
    };
    const timedOut = await failure(client.createPin(accessToken, pin));
    expect(timedOut).toMatchObject({ kind: "timeout", status: null, outcomeUnknown: true, retryable: true });
    const { items } = await client.listBoardPins(accessToken, board.id);
    expect(items.map((item) => [item.title, item.link])).toEqual([["Did it post?", "https://blog.test/p"]]);

    await control("/pinterest/drop-after-create", { mode: "reset" });
    const cut = await failure(client.createPin(accessToken, { ...pin, title: "Cut off" }));
    expect(cut).toMatchObject({ kind: "network", status: null, outcomeUnknown: true });
    expect((await client.listBoardPins(accessToken, board.id)).items.map((item) => item.title)).toEqual(["Cut off", "Did it post?"]);
    expectAllConform();
  });
});

describe("keyword research: the client token, terms and trends operations against the OpenAPI description", () => {
  const KEYWORD_OPERATIONS = ["oauth/token", "terms_suggested/list", "terms_related/list", "trending_keywords/list"];

  it("conforms on success: a client token, suggested and related terms, and trends with every filter", async () => {
    const client = clientFor();
    const appToken = await client.clientToken(["ads:read", "user_accounts:read"]);
    expect(appToken.scopes).toEqual(["ads:read", "user_accounts:read"]);
    expect(appToken.expiresAt).toBeGreaterThan(Date.now());

    const suggested = await client.suggestedTerms(appToken.accessToken, "christmas", 10);
    expect(suggested).toHaveLength(10);
    expect(suggested.every((term) => term.startsWith("christmas "))).toBe(true);
    expect(await client.suggestedTerms(appToken.accessToken, "christmas")).toEqual(suggested.slice(0, 10));

    const related = await client.relatedTerms(appToken.accessToken, ["christmas nails", "workout"]);
    expect([...related.keys()]).toEqual(["christmas nails", "workout"]);
    expect(related.get("christmas nails")!.length).toBeGreaterThan(5);

    const { trends } = await client.trendingKeywords(appToken.accessToken, "GB+IE", "monthly", {
      interests: ["beauty", "home_decor"],
      genders: ["female", "unknown"],
      ages: ["25-34", "35-44"],
      includeKeywords: ["christmas", "nails"],
      normalizeAgainstGroup: true,
      limit: 10,
      includePrediction: true,
      includeDemographics: true,
    });
    expect(trends.length).toBeGreaterThan(2);
    expect(trends.every((trend) => /\b(christmas|nails)\b/.test(trend.keyword))).toBe(true);
    expect(Object.keys(trends[0].time_series!)).toHaveLength(52);
    expect(Math.max(...trends.flatMap((trend) => Object.values(trend.time_series!)))).toBe(100);
    const sent = exchanges.find((exchange) => exchange.url.pathname.includes("/trends/"))!;
    expect(sent.url.pathname).toContain("/trends/keywords/GB+IE/top/monthly");
    expect(sent.url.searchParams.getAll("include_keywords")).toEqual(["christmas", "nails"]);

    for (const type of ["growing", "yearly", "seasonal"] as const)
      expect((await client.trendingKeywords(appToken.accessToken, "US", type)).trends.length).toBeGreaterThan(0);

    const covered = new Set(exchanges.map((exchange) => operationId(exchange, apiBase())).filter(Boolean));
    expect([...covered].sort()).toEqual([...KEYWORD_OPERATIONS].sort());
    expectAllConform();
  });

  it("conforms on the error answers: bad parameters are 400s, an empty bucket a 429 saying when to retry", async () => {
    const client = clientFor();
    const { accessToken } = await client.clientToken(["ads:read", "user_accounts:read"]);

    const tooMany = await failure(client.suggestedTerms(accessToken, "christmas", 11));
    expect(tooMany).toMatchObject({ kind: "bad_request", status: 400 });
    expect(tooMany.message).toContain("'limit'");
    const deliberate = exchanges.pop()!;
    expect(conformanceProblems(deliberate, apiBase()).join("\n")).toContain("limit must be <= 10");
    expect(conformanceProblems(deliberate, apiBase(), { request: false })).toEqual([]);

    await control("/pinterest/trends/rate-limit", { category: "trends_read", perMinute: 2 });
    await client.trendingKeywords(accessToken, "US", "monthly", { limit: 1 });
    await client.trendingKeywords(accessToken, "US", "monthly", { limit: 1 });
    const limited = await failure(client.trendingKeywords(accessToken, "US", "monthly", { limit: 1 }));
    expect(limited).toMatchObject({ kind: "rate_limited", status: 429, code: 8, retryable: true });
    expect(limited.retryAfterMs).toBe(30_000);
    // The terms bucket is a different category: still open.
    expect(await client.suggestedTerms(accessToken, "summer", 2)).toHaveLength(2);

    // A token without ads:read may read trends but not terms.
    const trendsOnly = await client.clientToken(["user_accounts:read"]);
    const scoped = await failure(client.suggestedTerms(trendsOnly.accessToken, "christmas"));
    expect(scoped).toMatchObject({ kind: "unauthorized", status: 401, code: 3 });
    expectAllConform();
  });
});

describe("analytics (issue 41): pin and account analytics against the OpenAPI description", () => {
  const ANALYTICS_OPERATIONS = ["oauth/token", "boards/list", "pins/create", "multi_pins/analytics", "user_account/analytics"];
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const picture = (family: string | null) => {
    const png = encodePng({ width: 2, height: 2, data: new Uint8Array(16).fill(200) });
    return Buffer.from(family ? labelPicture(png, TEMPLATE_FAMILY_KEYWORD, family) : png).toString("base64");
  };

  it("sends pin_ids repeated and metric_types as one comma-separated value, and the check refuses the other way round", () => {
    const base = new URL("https://api.pinterest.com/v5");
    const request = (query: string): Exchange => ({
      method: "GET",
      url: new URL(`https://api.pinterest.com/v5/pins/analytics?${query}`),
      requestHeaders: new Headers({ authorization: "Bearer pina_x" }),
      requestBody: null,
    });
    const dates = "start_date=2026-11-01&end_date=2026-11-30";
    expect(conformanceProblems(request(`pin_ids=1&pin_ids=2&${dates}&metric_types=IMPRESSION,SAVE`), base)).toEqual([]);
    expect(conformanceProblems(request(`pin_ids=1,2&${dates}&metric_types=IMPRESSION`), base).join("\n")).toContain("pin_ids");
    expect(conformanceProblems(request(`pin_ids=1&${dates}&metric_types=IMPRESSION&metric_types=SAVE`), base).join("\n")).toContain("comma-separated");
    expect(conformanceProblems(request(`pin_ids=1&${dates}&metric_types=CLOSEUP`), base)).not.toEqual([]);
  });

  it("conforms on success: figures that decay, differ by family, and add up to the account's totals", async () => {
    const client = clientFor();
    const { accessToken } = await connect(client, "conformance_insights");
    const [board] = await client.listAllBoards(accessToken);
    const made = async (title: string, family: string | null) =>
      client.createPin(accessToken, {
        board_id: board.id,
        title,
        media_source: { source_type: "image_base64", content_type: "image/png", data: picture(family) },
      });
    const quote = await made("Quote pin", "quote");
    const product = await made("Product pin", "product");
    const plain = await made("Plain pin", null);
    await control("/pinterest/analytics/age-pins", { username: "conformance_insights", days: 20 });

    const range = { startDate: day(-30), endDate: day(0) };
    const figures = await client.pinAnalytics(accessToken, [quote.id, product.id, plain.id], range);
    expect(Object.keys(figures).sort()).toEqual([quote.id, product.id, plain.id].sort());
    const daily = (id: string) => figures[id].ALL.daily_metrics ?? [];
    expect(daily(quote.id)).toHaveLength(31);
    // Today is still being counted; the days before the pin was made are zero; figures decay after.
    expect(daily(quote.id).at(-1)).toEqual({ date: day(0), data_status: "PROCESSING" });
    expect(daily(quote.id)[0].metrics?.IMPRESSION).toBe(0);
    const impressions = daily(quote.id).map((entry) => entry.metrics?.IMPRESSION ?? 0);
    const firstDay = impressions.findIndex((n) => n > 0);
    expect(impressions[firstDay]).toBeGreaterThan(impressions.at(-2)!);
    const sum = (id: string, metric: string) => daily(id).reduce((total, entry) => total + (entry.metrics?.[metric] ?? 0), 0);
    expect(figures[quote.id].ALL.summary_metrics?.IMPRESSION).toBe(sum(quote.id, "IMPRESSION"));
    // Quotes are saved and rarely clicked through; products the other way round.
    expect(sum(quote.id, "SAVE") / sum(quote.id, "IMPRESSION")).toBeGreaterThan(sum(product.id, "SAVE") / sum(product.id, "IMPRESSION"));
    expect(sum(product.id, "OUTBOUND_CLICK") / sum(product.id, "IMPRESSION")).toBeGreaterThan(sum(quote.id, "OUTBOUND_CLICK") / sum(quote.id, "IMPRESSION"));
    // The same question gets the same answer.
    expect(await client.pinAnalytics(accessToken, [quote.id, product.id, plain.id], range)).toEqual(figures);

    const account = await client.accountAnalytics(accessToken, range);
    const accountDays = account.all.daily_metrics ?? [];
    expect(accountDays).toHaveLength(31);
    const ourImpressions = sum(quote.id, "IMPRESSION") + sum(product.id, "IMPRESSION") + sum(plain.id, "IMPRESSION");
    expect(account.all.summary_metrics?.IMPRESSION).toBeGreaterThan(ourImpressions);

    const covered = new Set(exchanges.map((exchange) => operationId(exchange, apiBase())).filter(Boolean));
    expect([...covered].sort()).toEqual([...ANALYTICS_OPERATIONS].sort());
    expectAllConform();
  });

  it("conforms on the error answers: a range too far back, a pin of another account, 429 with its reset, 5xx and an expired token", async () => {
    const client = clientFor();
    const tokens = await connect(client, "conformance_insights_errors");
    const [board] = await client.listAllBoards(tokens.accessToken);
    const pin = await client.createPin(tokens.accessToken, {
      board_id: board.id,
      title: "Measured",
      media_source: { source_type: "image_base64", content_type: "image/png", data: picture("list") },
    });

    const tooOld = await failure(client.pinAnalytics(tokens.accessToken, [pin.id], { startDate: day(-120), endDate: day(-1) }));
    expect(tooOld).toMatchObject({ kind: "bad_request", status: 400 });
    expect(tooOld.message).toContain("90 days");

    const other = await connect(client, "conformance_insights_other");
    expect(await failure(client.pinAnalytics(other.accessToken, [pin.id], { startDate: day(-7), endDate: day(0) }))).toMatchObject({
      kind: "not_found",
      status: 404,
    });

    await control("/faults", {
      service: "pinterest",
      path: "/v5/pins/analytics",
      status: 429,
      times: 1,
      headers: { "x-ratelimit-reset": "42", "retry-after": "42" },
      body: { code: 8, message: "This request exceeded a rate limit." },
    });
    const limited = await failure(client.pinAnalytics(tokens.accessToken, [pin.id], { startDate: day(-7), endDate: day(0) }));
    expect(limited).toMatchObject({ kind: "rate_limited", status: 429, retryAfterMs: 42_000, rateLimitReset: 42 });

    await control("/faults", { service: "pinterest", path: "/v5/user_account/analytics", status: 503, times: 1 });
    expect(await failure(client.accountAnalytics(tokens.accessToken, { startDate: day(-7), endDate: day(0) }))).toMatchObject({ kind: "server", status: 503 });

    await control("/pinterest/expire-token", { username: "conformance_insights_errors" });
    expect(await failure(client.pinAnalytics(tokens.accessToken, [pin.id], { startDate: day(-7), endDate: day(0) }))).toMatchObject({
      kind: "unauthorized",
      status: 401,
    });
    expectAllConform();
  });
});
