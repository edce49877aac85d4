import {
  PINTEREST_DEFAULT_PAGE_SIZE,
  PINTEREST_SCOPES,
  type PinterestAccount,
  type PinterestBoard,
  type PinterestBoardPrivacy,
  type PinterestBoardSection,
  type PinterestErrorBody,
  type PinterestFeed,
  type PinterestFeedCreate,
  type PinterestFeedIngestion,
  type PinterestFeedProcessingResult,
  type PinterestItemIssues,
  type PinterestMedia,
  type PinterestMediaUpload,
  type PinterestPage,
  type PinterestPin,
  type PinterestPinCreate,
  type PinterestTokenResponse,
} from "../../contracts/pinterest/pinterest.ts";
import {
  PINTEREST_TERMS_SUGGESTED_MAX,
  type PinterestRelatedTerms,
  type PinterestTrendingKeywordsResponse,
  type PinterestTrendRegion,
  type PinterestTrendsQuery,
  type PinterestTrendType,
} from "../../contracts/pinterest/pinterest-trends.ts";
import {
  PINTEREST_ACCOUNT_METRICS,
  PINTEREST_ANALYTICS_MAX_PINS,
  PINTEREST_PIN_METRICS,
  type PinterestAccountAnalytics,
  type PinterestBulkPinAnalytics,
} from "../../contracts/pinterest/pinterest-analytics.ts";
import { ProviderError, retryAfter, secondsHeader } from "./http.ts";

/**
 * The bindings the client reads (a subset of the worker's Env; spelled out so
 * Node-side tests can build the client without the worker's generated types).
 */
export interface PinterestEnv {
  PINTEREST_API_URL: string;
  PINTEREST_OAUTH_URL: string;
  PINTEREST_CLIENT_ID: string;
  /** Secret: sent only to the token endpoint. */
  PINTEREST_CLIENT_SECRET: string;
}

/**
 * What went wrong, for the caller's decision:
 * - `timeout`, `network`: no answer (the request may or may not have been acted on: `outcomeUnknown`);
 * - `unauthorized` (401): the access token is missing, expired, revoked or lacks a scope: refresh once;
 * - `invalid_grant` (401 code 283 from the token endpoint): the code or refresh token is no good: re-authorize;
 * - `forbidden` (403; `blocked` when Pinterest says code 29, "not permitted");
 * - `not_found` (404), `bad_request` (400 and other 4xx), `rate_limited` (429, see retryAfterMs),
 *   `server` (5xx), `unexpected` (a success answer we could not read).
 */
export type PinterestErrorKind =
  | "timeout"
  | "network"
  | "unauthorized"
  | "invalid_grant"
  | "forbidden"
  | "not_found"
  | "bad_request"
  | "rate_limited"
  | "server"
  | "unexpected";

/** Pinterest's error code for an account that may not act ("You are not permitted to access that resource."). */
export const PINTEREST_NOT_PERMITTED_CODE = 29;
/** Pinterest's error code for a bad authorization code or refresh token ("The authorization grant is invalid"). */
export const PINTEREST_INVALID_GRANT_CODE = 283;

/** A Pinterest call failed: with Pinterest's status, error code and message, or without an answer. */
export class PinterestApiError extends ProviderError {
  readonly kind: PinterestErrorKind;
  /** Pinterest's own error code from the body ({code, message}); null without one. */
  readonly code: number | null;
  /** How long to wait before trying again: Retry-After, else x-ratelimit-reset on a 429; null when not said. */
  readonly retryAfterMs: number | null;
  /** Seconds until the rate-limit window resets (x-ratelimit-reset), when Pinterest said. */
  readonly rateLimitReset: number | null;
  /** Which call failed, e.g. "pins/create". */
  readonly operation: string;

  constructor(options: {
    operation: string;
    kind: PinterestErrorKind;
    status: number | null;
    code?: number | null;
    message: string;
    body?: string;
    retryAfterMs?: number | null;
    rateLimitReset?: number | null;
  }) {
    super("pinterest", options.message, options.status, options.body ?? "");
    this.name = "PinterestApiError";
    this.kind = options.kind;
    this.code = options.code ?? null;
    this.retryAfterMs = options.retryAfterMs ?? null;
    this.rateLimitReset = options.rateLimitReset ?? null;
    this.operation = options.operation;
  }

  /** The account is blocked or may not act (403 with code 29). */
  get blocked(): boolean {
    return this.status === 403 && this.code === PINTEREST_NOT_PERMITTED_CODE;
  }

  /** No answer came back: the request may have been carried out (look before repeating a write). */
  get outcomeUnknown(): boolean {
    return this.kind === "timeout" || this.kind === "network";
  }
}

/** Tokens from the token endpoint, with absolute expiry times (epoch milliseconds). */
export interface PinterestTokens {
  accessToken: string;
  /** Null when Pinterest did not send a new one (keep the old one then). */
  refreshToken: string | null;
  accessTokenExpiresAt: number;
  refreshTokenExpiresAt: number | null;
  scopes: string[];
}

export interface PinterestClientOptions {
  /** Per-request time limit for API calls (default 15 s). */
  timeoutMs?: number;
  /** Time limit for a video upload to upload_url (default 120 s). */
  uploadTimeoutMs?: number;
  /** The fetch to use (default: the global fetch). */
  fetch?: typeof fetch;
}

/** A client token (client credentials flow): acts for the app owner's own account; no refresh token. */
export interface PinterestClientToken {
  accessToken: string;
  /** Epoch milliseconds. */
  expiresAt: number;
  scopes: string[];
}

interface CallOptions {
  method: "GET" | "POST";
  accessToken?: string;
  /** Arrays are sent as repeated parameters (OpenAPI form style, explode). */
  query?: Record<string, string | number | boolean | readonly string[] | undefined>;
  json?: unknown;
  form?: Record<string, string>;
}

/** Safety stop for bookmark loops: 200 pages of up to 250 items. */
const MAX_PAGES = 200;

/** How long one call to Pinterest may take before the client gives up on it (uploads excepted). */
export const PINTEREST_TIMEOUT_MS = 15_000;

/**
 * Pinterest API v5 client (the one place the worker talks to Pinterest).
 * PINTEREST_API_URL is https://api.pinterest.com/v5 in production and the
 * sandbox stand-in locally; PINTEREST_OAUTH_URL is the authorization page. The
 * client secret is only ever sent to the token endpoint, as HTTP Basic auth.
 * Every failure is a PinterestApiError.
 */
export class PinterestClient {
  readonly #env: PinterestEnv;
  readonly #timeoutMs: number;
  readonly #uploadTimeoutMs: number;
  readonly #fetch: typeof fetch;

  constructor(env: PinterestEnv, options: PinterestClientOptions = {}) {
    if (!env.PINTEREST_API_URL || !env.PINTEREST_OAUTH_URL || !env.PINTEREST_CLIENT_ID) {
      throw new Error("Pinterest is not configured: PINTEREST_API_URL, PINTEREST_OAUTH_URL and PINTEREST_CLIENT_ID are required");
    }
    this.#env = env;
    this.#timeoutMs = options.timeoutMs ?? PINTEREST_TIMEOUT_MS;
    this.#uploadTimeoutMs = options.uploadTimeoutMs ?? 120_000;
    const fetcher = options.fetch;
    this.#fetch = fetcher ? (input, init) => fetcher(input, init) : (input, init) => fetch(input, init);
  }

  /** The Pinterest authorization page to send the user to (response_type=code, comma-separated scopes). */
  buildAuthorizeUrl(state: string, redirectUri: string, scopes: readonly string[] = PINTEREST_SCOPES): string {
    const url = new URL(this.#env.PINTEREST_OAUTH_URL);
    url.searchParams.set("client_id", this.#env.PINTEREST_CLIENT_ID);
    url.searchParams.set("redirect_uri", redirectUri);
    url.searchParams.set("response_type", "code");
    url.searchParams.set("scope", scopes.join(","));
    url.searchParams.set("state", state);
    return url.toString();
  }

  /** Exchanges the code from the OAuth callback (with the same redirect_uri) for tokens. */
  async exchangeCode(code: string, redirectUri: string): Promise<PinterestTokens> {
    const answer = await this.#call<PinterestTokenResponse>("oauth/token", "/oauth/token", {
      method: "POST",
      form: { grant_type: "authorization_code", code, redirect_uri: redirectUri },
    });
    return tokensFrom(answer, "oauth/token");
  }

  /** A new access token and (continuous refresh) a new refresh token; the old refresh token stops working. */
  async refreshToken(refreshToken: string): Promise<PinterestTokens> {
    const answer = await this.#call<PinterestTokenResponse>("oauth/token", "/oauth/token", {
      method: "POST",
      form: { grant_type: "refresh_token", refresh_token: refreshToken },
    });
    return tokensFrom(answer, "oauth/token");
  }

  getUserAccount(accessToken: string): Promise<PinterestAccount> {
    return this.#call("user_account/get", "/user_account", { method: "GET", accessToken });
  }

  /** One page of the account's boards. */
  listBoards(accessToken: string, page: { bookmark?: string; pageSize?: number } = {}): Promise<PinterestPage<PinterestBoard>> {
    return this.#page("boards/list", "/boards", accessToken, page);
  }

  /** Every board of the account, following bookmarks to the last page. */
  listAllBoards(accessToken: string, options: { pageSize?: number } = {}): Promise<PinterestBoard[]> {
    return this.#all((bookmark) => this.listBoards(accessToken, { bookmark, pageSize: options.pageSize }), "boards/list");
  }

  createBoard(accessToken: string, board: { name: string; description?: string; privacy?: PinterestBoardPrivacy }): Promise<PinterestBoard> {
    return this.#call("boards/create", "/boards", { method: "POST", accessToken, json: compact(board) });
  }

  /** Every section of a board, following bookmarks to the last page. */
  listSections(accessToken: string, boardId: string, options: { pageSize?: number } = {}): Promise<PinterestBoardSection[]> {
    return this.#all(
      (bookmark) =>
        this.#page<PinterestBoardSection>("board_sections/list", `/boards/${encodeURIComponent(boardId)}/sections`, accessToken, {
          bookmark,
          pageSize: options.pageSize,
        }),
      "board_sections/list",
    );
  }

  createSection(accessToken: string, boardId: string, name: string): Promise<PinterestBoardSection> {
    return this.#call("board_sections/create", `/boards/${encodeURIComponent(boardId)}/sections`, { method: "POST", accessToken, json: { name } });
  }

  /** Creates a pin. Not idempotent: after a timeout (outcomeUnknown) look on the board before trying again. */
  createPin(accessToken: string, pin: PinterestPinCreate): Promise<PinterestPin> {
    return this.#call("pins/create", "/pins", { method: "POST", accessToken, json: compact({ ...pin, media_source: compact(pin.media_source) }) });
  }

  /** One page of a board's pins, newest first. */
  listBoardPins(accessToken: string, boardId: string, page: { bookmark?: string; pageSize?: number } = {}): Promise<PinterestPage<PinterestPin>> {
    return this.#page("boards/list_pins", `/boards/${encodeURIComponent(boardId)}/pins`, accessToken, page);
  }

  /** Registers a video upload: answers the media_id and where to upload the file. */
  registerMedia(accessToken: string): Promise<PinterestMediaUpload> {
    return this.#call("media/create", "/media", { method: "POST", accessToken, json: { media_type: "video" } });
  }

  /** Uploads the video file to a registered upload's upload_url (multipart: every upload_parameters field, then `file`). */
  async uploadMedia(upload: PinterestMediaUpload, file: Blob, filename = "video.mp4"): Promise<void> {
    const operation = "media/upload";
    if (!upload.upload_url) throw new PinterestApiError({ operation, kind: "unexpected", status: null, message: "The media upload has no upload_url" });
    const form = new FormData();
    for (const [name, value] of Object.entries(upload.upload_parameters ?? {})) form.append(name, value);
    form.append("file", file, filename);
    const response = await this.#send(operation, upload.upload_url, { method: "POST", body: form }, this.#uploadTimeoutMs);
    const body = await this.#readBody(operation, response);
    if (!response.ok) {
      const code = /<Code>([^<]*)<\/Code>/.exec(body)?.[1];
      throw new PinterestApiError({
        operation,
        kind: kindOf(response.status, null, false),
        status: response.status,
        message: `The video upload was refused (${response.status}${code ? ` ${code}` : ""})`,
        body,
      });
    }
  }

  /** A media upload's status: registered, processing, succeeded or failed. */
  getMedia(accessToken: string, mediaId: string): Promise<PinterestMedia> {
    return this.#call("media/get", `/media/${encodeURIComponent(mediaId)}`, { method: "GET", accessToken });
  }

  // ---- catalogs (issue 18) ----------------------------------------------------------------------

  /** Registers a product feed file (a data source) for the token's account; Pinterest then downloads and processes it. */
  createCatalogFeed(accessToken: string, feed: PinterestFeedCreate): Promise<PinterestFeed> {
    return this.#call("feeds/create", "/catalogs/feeds", { method: "POST", accessToken, json: compact(feed) });
  }

  /** Asks Pinterest to download and process the feed again now (after changes). */
  ingestCatalogFeed(accessToken: string, feedId: string): Promise<PinterestFeedIngestion> {
    return this.#call("feeds/ingest", `/catalogs/feeds/${encodeURIComponent(feedId)}/ingest`, { method: "POST", accessToken });
  }

  /** One page of the feed's processing results, newest first. */
  listFeedProcessingResults(
    accessToken: string,
    feedId: string,
    page: { bookmark?: string; pageSize?: number } = {},
  ): Promise<PinterestPage<PinterestFeedProcessingResult>> {
    return this.#page("feed_processing_results/list", `/catalogs/feeds/${encodeURIComponent(feedId)}/processing_results`, accessToken, page);
  }

  /** One page of the item issues of a processing result. */
  listItemIssues(
    accessToken: string,
    processingResultId: string,
    page: { bookmark?: string; pageSize?: number } = {},
  ): Promise<PinterestPage<PinterestItemIssues>> {
    return this.#page("items_issues/list", `/catalogs/processing_results/${encodeURIComponent(processingResultId)}/item_issues`, accessToken, page);
  }

  // ---- terms and trends (keyword research) -------------------------------------------------------

  /** A client token for the app's own account (grant_type=client_credentials), e.g. for ads:read and user_accounts:read. */
  async clientToken(scopes: readonly string[]): Promise<PinterestClientToken> {
    const operation = "oauth/token";
    const answer = await this.#call<{ access_token?: unknown; expires_in?: unknown; scope?: unknown }>(operation, "/oauth/token", {
      method: "POST",
      form: { grant_type: "client_credentials", scope: scopes.join(",") },
    });
    if (typeof answer?.access_token !== "string" || typeof answer.expires_in !== "number") {
      throw new PinterestApiError({ operation, kind: "unexpected", status: 200, message: "Pinterest's client token answer has no access_token or expires_in" });
    }
    return {
      accessToken: answer.access_token,
      expiresAt: Date.now() + answer.expires_in * 1000,
      scopes: typeof answer.scope === "string" ? answer.scope.split(/[,\s]+/).filter(Boolean) : [...scopes],
    };
  }

  /** Popular searches that begin with the term (terms_suggested/list, scope ads:read), at most `limit` (1-10). */
  async suggestedTerms(accessToken: string, term: string, limit: number = PINTEREST_TERMS_SUGGESTED_MAX): Promise<string[]> {
    const operation = "terms_suggested/list";
    const answer = await this.#call<unknown>(operation, "/terms/suggested", { method: "GET", accessToken, query: { term, limit } });
    if (!Array.isArray(answer) || answer.some((item) => typeof item !== "string")) {
      throw new PinterestApiError({ operation, kind: "unexpected", status: 200, message: "Pinterest answered suggested terms that are not a list of strings" });
    }
    return answer as string[];
  }

  /** Terms related to each input term (terms_related/list, scope ads:read), keyed by the input term. */
  async relatedTerms(accessToken: string, terms: readonly string[]): Promise<Map<string, string[]>> {
    const operation = "terms_related/list";
    const answer = await this.#call<PinterestRelatedTerms>(operation, "/terms/related", { method: "GET", accessToken, query: { terms } });
    if (!answer || typeof answer !== "object" || (answer.related_terms_list !== undefined && !Array.isArray(answer.related_terms_list))) {
      throw new PinterestApiError({ operation, kind: "unexpected", status: 200, message: "Pinterest answered related terms without a list" });
    }
    const related = new Map<string, string[]>();
    for (const entry of answer.related_terms_list ?? []) {
      if (typeof entry?.term === "string")
        related.set(
          entry.term,
          (entry.related_terms ?? []).filter((term): term is string => typeof term === "string"),
        );
    }
    return related;
  }

  /** The top trending keywords of a region by a trend type (trending_keywords/list, scope user_accounts:read), in trend order. */
  async trendingKeywords(
    accessToken: string,
    region: PinterestTrendRegion,
    trendType: PinterestTrendType,
    filters: PinterestTrendsQuery = {},
  ): Promise<PinterestTrendingKeywordsResponse> {
    const operation = "trending_keywords/list";
    const list = (values: readonly string[] | undefined) => (values && values.length > 0 ? values : undefined);
    // The region stays as Pinterest writes it ("GB+IE"): "+" is a literal in a path segment.
    const answer = await this.#call<PinterestTrendingKeywordsResponse>(operation, `/trends/keywords/${region}/top/${encodeURIComponent(trendType)}`, {
      method: "GET",
      accessToken,
      query: {
        interests: list(filters.interests),
        genders: list(filters.genders),
        ages: list(filters.ages),
        include_keywords: list(filters.includeKeywords),
        normalize_against_group: filters.normalizeAgainstGroup,
        limit: filters.limit,
        include_prediction: filters.includePrediction,
        include_demographics: filters.includeDemographics,
      },
    });
    if (!answer || !Array.isArray(answer.trends) || answer.trends.some((trend) => typeof trend?.keyword !== "string")) {
      throw new PinterestApiError({ operation, kind: "unexpected", status: 200, message: "Pinterest answered trends without a list of keywords" });
    }
    return answer;
  }

  // ---- analytics (issue 41) ---------------------------------------------------------------------

  /**
   * Daily impressions, saves, pin clicks and outbound clicks of up to 100 of the account's pins
   * (multi_pins/analytics, scopes boards:read and pins:read), by pin id then app type ("ALL"). Dates are UTC
   * days (YYYY-MM-DD), start_date at most 90 days back. pin_ids repeat (the description's form style, exploded);
   * metric_types is one comma-separated value (explode: false).
   */
  async pinAnalytics(accessToken: string, pinIds: readonly string[], range: { startDate: string; endDate: string }): Promise<PinterestBulkPinAnalytics> {
    const operation = "multi_pins/analytics";
    if (pinIds.length === 0 || pinIds.length > PINTEREST_ANALYTICS_MAX_PINS) {
      throw new PinterestApiError({ operation, kind: "bad_request", status: null, message: `Ask for 1 to ${PINTEREST_ANALYTICS_MAX_PINS} pins at a time` });
    }
    const answer = await this.#call<unknown>(operation, "/pins/analytics", {
      method: "GET",
      accessToken,
      query: { pin_ids: pinIds, start_date: range.startDate, end_date: range.endDate, metric_types: PINTEREST_PIN_METRICS.join(",") },
    });
    if (!isRecordOfRecords(answer)) {
      throw new PinterestApiError({ operation, kind: "unexpected", status: 200, message: "Pinterest answered pin analytics that are not keyed by pin" });
    }
    return answer as PinterestBulkPinAnalytics;
  }

  /** The account's daily totals over every pin (user_account/analytics, scope user_accounts:read), unsplit: `{all: {...}}`. */
  async accountAnalytics(accessToken: string, range: { startDate: string; endDate: string }): Promise<PinterestAccountAnalytics> {
    const operation = "user_account/analytics";
    const answer = await this.#call<unknown>(operation, "/user_account/analytics", {
      method: "GET",
      accessToken,
      query: { start_date: range.startDate, end_date: range.endDate, metric_types: PINTEREST_ACCOUNT_METRICS.join(",") },
    });
    if (!isRecordOfRecords(answer)) {
      throw new PinterestApiError({ operation, kind: "unexpected", status: 200, message: "Pinterest answered account analytics that are not an object" });
    }
    return answer as PinterestAccountAnalytics;
  }

  // ---- plumbing ---------------------------------------------------------------------------------

  #page<T>(operation: string, path: string, accessToken: string, page: { bookmark?: string; pageSize?: number }): Promise<PinterestPage<T>> {
    return this.#call<PinterestPage<T>>(operation, path, {
      method: "GET",
      accessToken,
      query: { page_size: page.pageSize ?? PINTEREST_DEFAULT_PAGE_SIZE, bookmark: page.bookmark || undefined },
    }).then((answer) => {
      if (!answer || !Array.isArray(answer.items)) {
        throw new PinterestApiError({ operation, kind: "unexpected", status: 200, message: "Pinterest answered a page without items" });
      }
      return answer;
    });
  }

  async #all<T>(fetchPage: (bookmark: string | undefined) => Promise<PinterestPage<T>>, operation: string): Promise<T[]> {
    const items: T[] = [];
    const seen = new Set<string>();
    let bookmark: string | undefined;
    for (let pages = 0; pages < MAX_PAGES; pages += 1) {
      const page = await fetchPage(bookmark);
      items.push(...page.items);
      if (!page.bookmark) return items;
      if (seen.has(page.bookmark)) {
        throw new PinterestApiError({ operation, kind: "unexpected", status: 200, message: "Pinterest answered the same bookmark twice" });
      }
      seen.add(page.bookmark);
      bookmark = page.bookmark;
    }
    throw new PinterestApiError({ operation, kind: "unexpected", status: 200, message: `More than ${MAX_PAGES} pages: stopped following bookmarks` });
  }

  async #call<T>(operation: string, path: string, options: CallOptions): Promise<T> {
    const url = new URL(`${this.#env.PINTEREST_API_URL.replace(/\/+$/, "")}${path}`);
    for (const [name, value] of Object.entries(options.query ?? {})) {
      if (value === undefined) continue;
      if (Array.isArray(value)) for (const item of value) url.searchParams.append(name, item);
      else url.searchParams.set(name, String(value));
    }
    const headers = new Headers({ accept: "application/json" });
    let body: string | undefined;
    if (options.form) {
      if (!this.#env.PINTEREST_CLIENT_SECRET) {
        throw new PinterestApiError({
          operation,
          kind: "unexpected",
          status: null,
          message: "Pinterest is not configured: PINTEREST_CLIENT_SECRET is required",
        });
      }
      headers.set("authorization", `Basic ${btoa(`${this.#env.PINTEREST_CLIENT_ID}:${this.#env.PINTEREST_CLIENT_SECRET}`)}`);
      headers.set("content-type", "application/x-www-form-urlencoded");
      body = new URLSearchParams(options.form).toString();
    } else {
      if (options.accessToken !== undefined) headers.set("authorization", `Bearer ${options.accessToken}`);
      if (options.json !== undefined) {
        headers.set("content-type", "application/json");
        body = JSON.stringify(options.json);
      }
    }
    const response = await this.#send(operation, url.toString(), { method: options.method, headers, body }, this.#timeoutMs);
    const text = await this.#readBody(operation, response);
    if (!response.ok) throw errorFrom(operation, response, text, Boolean(options.form));
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new PinterestApiError({
        operation,
        kind: "unexpected",
        status: response.status,
        message: "Pinterest answered something that is not JSON",
        body: text.slice(0, 2000),
      });
    }
  }

  async #send(operation: string, url: string, init: RequestInit, timeoutMs: number): Promise<Response> {
    try {
      return await this.#fetch(url, { ...init, redirect: "manual", signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      throw noAnswer(operation, error, timeoutMs);
    }
  }

  /** The body as text; a connection lost mid-answer is a network failure (outcome unknown). */
  async #readBody(operation: string, response: Response): Promise<string> {
    try {
      return await response.text();
    } catch (error) {
      throw noAnswer(operation, error, this.#timeoutMs);
    }
  }
}

function noAnswer(operation: string, error: unknown, timeoutMs: number) {
  const name = error instanceof Error ? error.name : "";
  if (name === "TimeoutError" || name === "AbortError") {
    return new PinterestApiError({ operation, kind: "timeout", status: null, message: `Pinterest did not answer within ${timeoutMs} ms` });
  }
  const reason = error instanceof Error ? error.message : String(error);
  return new PinterestApiError({ operation, kind: "network", status: null, message: `Pinterest could not be reached: ${reason}` });
}

function errorFrom(operation: string, response: Response, text: string, tokenEndpoint: boolean) {
  let code: number | null = null;
  let message = `Pinterest answered ${response.status}`;
  try {
    const parsed = JSON.parse(text) as Partial<PinterestErrorBody>;
    if (typeof parsed.code === "number") code = parsed.code;
    if (typeof parsed.message === "string" && parsed.message) message = parsed.message;
  } catch {
    // not JSON (a proxy's error page): keep the status line
  }
  const rateLimitReset = secondsHeader(response.headers.get("x-ratelimit-reset"));
  let retryAfterMs = retryAfter(response.headers.get("retry-after"));
  if (retryAfterMs === null && response.status === 429 && rateLimitReset !== null) retryAfterMs = rateLimitReset * 1000;
  return new PinterestApiError({
    operation,
    kind: kindOf(response.status, code, tokenEndpoint),
    status: response.status,
    code,
    message,
    body: text.slice(0, 2000),
    retryAfterMs,
    rateLimitReset,
  });
}

function kindOf(status: number, code: number | null, tokenEndpoint: boolean): PinterestErrorKind {
  if (status === 401) return tokenEndpoint && code === PINTEREST_INVALID_GRANT_CODE ? "invalid_grant" : "unauthorized";
  if (status === 403) return "forbidden";
  if (status === 404) return "not_found";
  if (status === 429) return "rate_limited";
  if (status >= 500) return "server";
  if (status >= 400) return "bad_request";
  return "unexpected";
}

function tokensFrom(answer: PinterestTokenResponse, operation: string): PinterestTokens {
  if (!answer || typeof answer.access_token !== "string" || typeof answer.expires_in !== "number") {
    throw new PinterestApiError({ operation, kind: "unexpected", status: 200, message: "Pinterest's token answer has no access_token or expires_in" });
  }
  const now = Date.now();
  const refreshExpiresAt =
    typeof answer.refresh_token_expires_at === "number"
      ? answer.refresh_token_expires_at * 1000
      : typeof answer.refresh_token_expires_in === "number"
        ? now + answer.refresh_token_expires_in * 1000
        : null;
  return {
    accessToken: answer.access_token,
    refreshToken: typeof answer.refresh_token === "string" && answer.refresh_token ? answer.refresh_token : null,
    accessTokenExpiresAt: now + answer.expires_in * 1000,
    refreshTokenExpiresAt: answer.refresh_token ? refreshExpiresAt : null,
    scopes: typeof answer.scope === "string" ? answer.scope.split(/[,\s]+/).filter(Boolean) : [],
  };
}

function isRecordOfRecords(value: unknown): boolean {
  if (!value || typeof value !== "object" || Array.isArray(value)) return false;
  return Object.values(value).every((item) => item !== null && typeof item === "object" && !Array.isArray(item));
}

/** The object without its undefined fields (null stays: it is a value Pinterest accepts). */
function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;
}
