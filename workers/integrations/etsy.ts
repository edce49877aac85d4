import { decodeHTML } from "entities/decode";
import { ETSY_SCOPES } from "../../contracts/shops/etsy.ts";
import type { ListingImage, ShopListing } from "../../contracts/shops/shops.ts";
import { toBase64Url } from "../auth/password-hash.ts";
import { ProviderError, retryAfter, secondsHeader } from "./http.ts";

/**
 * Etsy Open API v3 client (the one place the worker talks to Etsy; decision 028).
 * ETSY_API_URL is https://api.etsy.com/v3 in production and the sandbox
 * stand-in locally; ETSY_OAUTH_URL is the authorization page
 * (https://www.etsy.com/oauth/connect). Every call carries the app's
 * `x-api-key: keystring:shared_secret`; calls for a shop carry its OAuth token
 * (`Bearer <user_id>.<token>`). Etsy's published rate limits are read from its
 * answers: when this second's budget is spent the next call waits for the
 * next second, a short Retry-After is waited out, and a long one (or the daily
 * budget spent) comes back as a `rate_limited` error saying how long to wait.
 * Every failure is an EtsyApiError.
 */

/** The bindings the client reads (a subset of the worker's Env). */
export interface EtsyEnv {
  ETSY_API_URL: string;
  ETSY_OAUTH_URL: string;
  /** The app's keystring: its OAuth client id. */
  ETSY_KEYSTRING: string;
  /** Secret: sent with the keystring in x-api-key. */
  ETSY_SHARED_SECRET: string;
  /** Time limit of one call in milliseconds (default 15000). */
  ETSY_TIMEOUT_MS?: string;
}

/**
 * - `timeout`, `network`: no answer;
 * - `unauthorized` (401): the access token is expired, revoked or unknown: refresh once;
 * - `invalid_grant` (400 from the token endpoint): the code, code verifier or refresh token is no good;
 * - `forbidden` (403: the app's key, or a scope), `not_found` (404), `bad_request` (other 4xx);
 * - `rate_limited` (429, or the daily budget spent; see retryAfterSeconds), `server` (5xx);
 * - `unexpected`: a success answer we could not read.
 */
export type EtsyErrorKind =
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

export class EtsyApiError extends ProviderError {
  readonly kind: EtsyErrorKind;
  /** Which call failed, e.g. "listings/active". */
  readonly operation: string;
  /** How long to wait before trying again (rate_limited); null when Etsy did not say (the daily budget). */
  readonly retryAfterSeconds: number | null;

  constructor(options: { operation: string; kind: EtsyErrorKind; status: number | null; message: string; body?: string; retryAfterSeconds?: number | null }) {
    super("etsy", options.message, options.status, options.body ?? "");
    this.name = "EtsyApiError";
    this.kind = options.kind;
    this.operation = options.operation;
    this.retryAfterSeconds = options.retryAfterSeconds ?? null;
  }
}

// ---- Etsy's answer shapes (the fields we read) ------------------------------------------------

export interface EtsyMoney {
  amount: number;
  divisor: number;
  currency_code: string;
}

export interface EtsyListingImage {
  listing_id: number;
  listing_image_id: number;
  rank: number;
  url_75x75: string;
  url_170x135: string;
  url_570xN: string;
  url_fullxfull: string;
  alt_text?: string | null;
}

export interface EtsyListing {
  listing_id: number;
  shop_id: number;
  title: string;
  description: string;
  state: string;
  url: string;
  tags: string[];
  shop_section_id: number | null;
  taxonomy_id: number | null;
  price: EtsyMoney;
  /** With includes=Images. */
  images?: EtsyListingImage[];
}

export interface EtsyShop {
  shop_id: number;
  shop_name: string;
  user_id: number;
  title: string | null;
  url: string;
  currency_code: string;
  listing_active_count: number;
}

export interface EtsyShopSection {
  shop_section_id: number;
  title: string;
  rank: number;
}

export interface EtsyPage<T> {
  count: number;
  results: T[];
}

interface EtsyTokenAnswer {
  access_token: string;
  token_type: string;
  expires_in: number;
  refresh_token: string;
}

/** What a granted connection keeps (sealed in shop_profiles): Etsy's tokens, with the access token's expiry (epoch ms). */
export interface EtsyTokens {
  accessToken: string;
  refreshToken: string;
  expiresAt: number;
  /** The numeric Etsy user the tokens act for (the part before the dot). */
  etsyUserId: string;
}

// ---- PKCE -------------------------------------------------------------------------------------

/** A PKCE pair (RFC 7636, S256): a 43-character verifier and its challenge. */
export async function pkcePair(): Promise<{ verifier: string; challenge: string }> {
  const verifier = toBase64Url(crypto.getRandomValues(new Uint8Array(32)));
  return { verifier, challenge: await pkceChallenge(verifier) };
}

export async function pkceChallenge(verifier: string): Promise<string> {
  return toBase64Url(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))));
}

// ---- rate limits ------------------------------------------------------------------------------

/** What Etsy's last answer said of a token's budget (Etsy counts per OAuth token; per key without one). */
interface Budget {
  remainingThisSecond: number | null;
  remainingToday: number | null;
  seenAt: number;
}

/** Per isolate, by Etsy user: a few hundred entries at most before the oldest go. */
const budgets = new Map<string, Budget>();
const BUDGETS_KEPT = 500;
/** How long "the daily budget is spent" is believed without asking Etsy again. */
const DAILY_BELIEVED_MS = 60_000;
/** How long after a whole second the next second's calls start. */
const SECOND_MARGIN_MS = 25;
/** A Retry-After up to this long is waited out; a longer one is answered to the user. */
const LONGEST_WAIT_MS = 2_000;

function budgetKey(accessToken: string | undefined) {
  return accessToken ? `user:${accessToken.split(".")[0]}` : "app";
}

/** Forgets what Etsy said of a user's budget and shop (their shop was removed). */
export function forgetEtsyShop(etsyUserId: string, shopId: string) {
  budgets.delete(`user:${etsyUserId}`);
  sectionsSeen.delete(shopId);
}

function noteBudget(key: string, headers: Headers) {
  const remainingThisSecond = secondsHeader(headers.get("x-remaining-this-second"));
  const remainingToday = secondsHeader(headers.get("x-remaining-today"));
  if (remainingThisSecond === null && remainingToday === null) return;
  budgets.delete(key);
  budgets.set(key, { remainingThisSecond, remainingToday, seenAt: Date.now() });
  if (budgets.size > BUDGETS_KEPT) budgets.delete(budgets.keys().next().value!);
}

/** A shop's section titles by id, per isolate, for a few minutes: sections change rarely, and each call counts. */
const sectionsSeen = new Map<string, { titles: Map<number, string>; at: number }>();
const SECTIONS_KEPT_MS = 5 * 60_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---- the client -------------------------------------------------------------------------------

interface CallOptions {
  method: "GET" | "POST";
  accessToken?: string;
  query?: Record<string, string | number | undefined>;
  form?: Record<string, string>;
}

export interface EtsyClientOptions {
  /** The fetch to use (default: the global fetch). */
  fetch?: typeof fetch;
}

export class EtsyClient {
  readonly #env: EtsyEnv;
  readonly #timeoutMs: number;
  readonly #fetch: typeof fetch;

  constructor(env: EtsyEnv, options: EtsyClientOptions = {}) {
    if (!env.ETSY_API_URL || !env.ETSY_OAUTH_URL || !env.ETSY_KEYSTRING) {
      throw new Error("Etsy is not configured: ETSY_API_URL, ETSY_OAUTH_URL and ETSY_KEYSTRING are required");
    }
    this.#env = env;
    const timeout = Number(env.ETSY_TIMEOUT_MS);
    this.#timeoutMs = Number.isFinite(timeout) && timeout > 0 ? timeout : 15_000;
    const fetcher = options.fetch;
    this.#fetch = fetcher ? (input, init) => fetcher(input, init) : (input, init) => fetch(input, init);
  }

  /** Etsy's authorization page: response_type=code, space-separated scopes, state and the S256 challenge. */
  buildAuthorizeUrl(options: { state: string; codeChallenge: string; redirectUri: string; scopes?: readonly string[] }): string {
    const url = new URL(this.#env.ETSY_OAUTH_URL);
    const params = new URLSearchParams({
      response_type: "code",
      client_id: this.#env.ETSY_KEYSTRING,
      redirect_uri: options.redirectUri,
      scope: (options.scopes ?? ETSY_SCOPES).join(" "),
      state: options.state,
      code_challenge: options.codeChallenge,
      code_challenge_method: "S256",
    });
    // Etsy asks for the scopes separated by %20.
    url.search = params.toString().replace(/\+/g, "%20");
    return url.toString();
  }

  /** Exchanges the callback's code, with the verifier of the challenge sent to the authorization page. */
  async exchangeCode(code: string, codeVerifier: string, redirectUri: string): Promise<EtsyTokens> {
    const answer = await this.#call<EtsyTokenAnswer>("oauth/token", "/public/oauth/token", {
      method: "POST",
      form: { grant_type: "authorization_code", client_id: this.#env.ETSY_KEYSTRING, redirect_uri: redirectUri, code, code_verifier: codeVerifier },
    });
    return tokensFrom(answer);
  }

  /** A new access token (an hour) and refresh token for a refresh token. */
  async refreshToken(refreshToken: string): Promise<EtsyTokens> {
    const answer = await this.#call<EtsyTokenAnswer>("oauth/token", "/public/oauth/token", {
      method: "POST",
      form: { grant_type: "refresh_token", client_id: this.#env.ETSY_KEYSTRING, refresh_token: refreshToken },
    });
    return tokensFrom(answer);
  }

  /** The shop of an Etsy user (getShopByOwnerUserId); not_found when the user has none. */
  shopOfUser(accessToken: string, etsyUserId: string): Promise<EtsyShop> {
    return this.#call("users/shops", `/application/users/${encodeURIComponent(etsyUserId)}/shops`, { method: "GET", accessToken });
  }

  /** One page of a shop's active listings, newest first, optionally those matching every keyword (findAllActiveListingsByShop). */
  activeListings(accessToken: string, shopId: string, page: { limit: number; offset: number; keywords?: string }): Promise<EtsyPage<EtsyListing>> {
    return this.#page("listings/active", `/application/shops/${encodeURIComponent(shopId)}/listings/active`, {
      method: "GET",
      accessToken,
      query: { limit: page.limit, offset: page.offset, keywords: page.keywords || undefined },
    });
  }

  /** Listings by id with their images (getListingsByListingIds, includes=Images): up to 100 at once. */
  listingsWithImages(accessToken: string, listingIds: number[]): Promise<EtsyPage<EtsyListing>> {
    return this.#page("listings/batch", "/application/listings/batch", {
      method: "GET",
      accessToken,
      query: { listing_ids: listingIds.join(","), includes: "Images" },
    });
  }

  /** The shop's sections (what Etsy sellers file listings under). */
  shopSections(accessToken: string, shopId: string): Promise<EtsyPage<EtsyShopSection>> {
    return this.#page("shops/sections", `/application/shops/${encodeURIComponent(shopId)}/sections`, { method: "GET", accessToken });
  }

  /**
   * A page of a shop's active listings as the app shows them: the active
   * listings (findAllActiveListingsByShop takes the keywords but not
   * includes), then their pictures in one batch call, with the shop's sections
   * (kept a few minutes) as their first category. The calls go one after the
   * other, so a tight per-second budget is waited out rather than overrun.
   */
  async listingsPage(
    accessToken: string,
    shopId: string,
    page: { limit: number; offset: number; keywords?: string },
  ): Promise<{ count: number; listings: ShopListing[] }> {
    const sectionTitles = await this.#sectionTitles(accessToken, shopId);
    const active = await this.activeListings(accessToken, shopId, page);
    const ids = active.results.map((listing) => listing.listing_id);
    const detailed = ids.length > 0 ? await this.listingsWithImages(accessToken, ids) : { count: 0, results: [] };
    const withImages = new Map(detailed.results.map((listing) => [listing.listing_id, listing]));
    return { count: active.count, listings: active.results.map((listing) => toShopListing(withImages.get(listing.listing_id) ?? listing, sectionTitles)) };
  }

  async #sectionTitles(accessToken: string, shopId: string): Promise<Map<number, string>> {
    const known = sectionsSeen.get(shopId);
    if (known && Date.now() - known.at < SECTIONS_KEPT_MS) return known.titles;
    const sections = await this.shopSections(accessToken, shopId);
    const titles = new Map(sections.results.map((section) => [section.shop_section_id, section.title]));
    sectionsSeen.delete(shopId);
    sectionsSeen.set(shopId, { titles, at: Date.now() });
    if (sectionsSeen.size > BUDGETS_KEPT) sectionsSeen.delete(sectionsSeen.keys().next().value!);
    return titles;
  }

  // ---- plumbing ---------------------------------------------------------------------------------

  async #page<T>(operation: string, path: string, options: CallOptions): Promise<EtsyPage<T>> {
    const answer = await this.#call<EtsyPage<T>>(operation, path, options);
    if (!answer || typeof answer.count !== "number" || !Array.isArray(answer.results)) {
      throw new EtsyApiError({ operation, kind: "unexpected", status: 200, message: "Etsy answered a page without count and results" });
    }
    return answer;
  }

  async #call<T>(operation: string, path: string, options: CallOptions): Promise<T> {
    const url = new URL(`${this.#env.ETSY_API_URL.replace(/\/+$/, "")}${path}`);
    for (const [name, value] of Object.entries(options.query ?? {})) if (value !== undefined) url.searchParams.set(name, String(value));
    const headers = new Headers({ accept: "application/json", "x-api-key": `${this.#env.ETSY_KEYSTRING}:${this.#env.ETSY_SHARED_SECRET}` });
    if (options.accessToken !== undefined) headers.set("authorization", `Bearer ${options.accessToken}`);
    let body: string | undefined;
    if (options.form) {
      headers.set("content-type", "application/x-www-form-urlencoded");
      body = new URLSearchParams(options.form).toString();
    }
    const key = budgetKey(options.accessToken);
    for (let attempt = 0; ; attempt += 1) {
      await waitForBudget(operation, key);
      const response = await this.#send(operation, url.toString(), { method: options.method, headers, body });
      noteBudget(key, response.headers);
      const text = await this.#readBody(operation, response);
      if (response.status === 429) {
        const waitMs = retryAfter(response.headers.get("retry-after"));
        if (waitMs !== null && waitMs <= LONGEST_WAIT_MS && attempt < 2) {
          await sleep(Math.max(waitMs, 100));
          continue;
        }
        throw new EtsyApiError({
          operation,
          kind: "rate_limited",
          status: 429,
          message: "Etsy refused the call: rate limit reached",
          body: text.slice(0, 2000),
          retryAfterSeconds: waitMs === null ? null : Math.max(1, Math.ceil(waitMs / 1000)),
        });
      }
      if (!response.ok) throw errorFrom(operation, response.status, text, Boolean(options.form));
      try {
        return JSON.parse(text) as T;
      } catch {
        throw new EtsyApiError({
          operation,
          kind: "unexpected",
          status: response.status,
          message: "Etsy answered something that is not JSON",
          body: text.slice(0, 2000),
        });
      }
    }
  }

  async #send(operation: string, url: string, init: RequestInit): Promise<Response> {
    try {
      return await this.#fetch(url, { ...init, redirect: "manual", signal: AbortSignal.timeout(this.#timeoutMs) });
    } catch (error) {
      throw noAnswer(operation, error, this.#timeoutMs);
    }
  }

  async #readBody(operation: string, response: Response): Promise<string> {
    try {
      return await response.text();
    } catch (error) {
      throw noAnswer(operation, error, this.#timeoutMs);
    }
  }
}

/** Waits out this second when Etsy said its budget is spent; refuses while the daily budget is spent. */
async function waitForBudget(operation: string, key: string) {
  const budget = budgets.get(key);
  if (!budget) return;
  const since = Date.now() - budget.seenAt;
  if (budget.remainingToday === 0 && since < DAILY_BELIEVED_MS) {
    throw new EtsyApiError({ operation, kind: "rate_limited", status: 429, message: "Etsy's daily request budget is spent", retryAfterSeconds: null });
  }
  // Etsy counts by the clock's seconds: the next one starts at the next whole second (a little
  // after, for clocks a few milliseconds apart; a 429 still ends in a short wait and a retry).
  if (budget.remainingThisSecond === 0 && since < 1000) await sleep(Math.ceil((budget.seenAt + 1) / 1000) * 1000 - Date.now() + SECOND_MARGIN_MS);
}

function noAnswer(operation: string, error: unknown, timeoutMs: number) {
  const name = error instanceof Error ? error.name : "";
  if (name === "TimeoutError" || name === "AbortError") {
    return new EtsyApiError({ operation, kind: "timeout", status: null, message: `Etsy did not answer within ${timeoutMs} ms` });
  }
  return new EtsyApiError({
    operation,
    kind: "network",
    status: null,
    message: `Etsy could not be reached: ${error instanceof Error ? error.message : String(error)}`,
  });
}

function errorFrom(operation: string, status: number, text: string, tokenEndpoint: boolean) {
  let code = "";
  let message = `Etsy answered ${status}`;
  try {
    const parsed = JSON.parse(text) as { error?: unknown; error_description?: unknown };
    if (typeof parsed.error === "string") code = parsed.error;
    const described = typeof parsed.error_description === "string" ? parsed.error_description : code;
    if (described) message = `Etsy answered ${status}: ${described}`;
  } catch {
    // not JSON (a proxy's error page): keep the status line
  }
  const kind: EtsyErrorKind =
    tokenEndpoint && (code === "invalid_grant" || status === 401)
      ? "invalid_grant"
      : status === 401
        ? "unauthorized"
        : status === 403
          ? "forbidden"
          : status === 404
            ? "not_found"
            : status >= 500
              ? "server"
              : "bad_request";
  return new EtsyApiError({ operation, kind, status, message, body: text.slice(0, 2000) });
}

function tokensFrom(answer: EtsyTokenAnswer): EtsyTokens {
  const userId = typeof answer?.access_token === "string" ? /^(\d+)\.\S+$/.exec(answer.access_token)?.[1] : undefined;
  if (!userId || typeof answer.refresh_token !== "string" || typeof answer.expires_in !== "number") {
    throw new EtsyApiError({
      operation: "oauth/token",
      kind: "unexpected",
      status: 200,
      message: "Etsy's token answer has no <user_id>.<token> access token, refresh token or expiry",
    });
  }
  return { accessToken: answer.access_token, refreshToken: answer.refresh_token, expiresAt: Date.now() + answer.expires_in * 1000, etsyUserId: userId };
}

// ---- Etsy's listing as ours -------------------------------------------------------------------

/** Etsy's price as a decimal string: {amount: 2450, divisor: 100} is "24.50" (counted exactly for a power-of-ten divisor). */
export function priceText(money: EtsyMoney | null | undefined): string {
  if (!money || !Number.isInteger(money.amount) || !Number.isInteger(money.divisor) || money.divisor <= 0) return "";
  const decimals = Math.round(Math.log10(money.divisor));
  if (10 ** decimals !== money.divisor) return (money.amount / money.divisor).toFixed(2);
  const digits = Math.abs(money.amount)
    .toString()
    .padStart(decimals + 1, "0");
  const whole = decimals > 0 ? `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}` : digits;
  return money.amount < 0 ? `-${whole}` : whole;
}

/**
 * An Etsy listing in the app's shape. Etsy answers titles and descriptions
 * with HTML entities (`&amp;`, `&#39;`); they are decoded here. Pictures come
 * in Etsy's rank order; categories are the listing's shop section, then its tags.
 */
export function toShopListing(listing: EtsyListing, sectionTitles: Map<number, string>): ShopListing {
  const images: ListingImage[] = [...(listing.images ?? [])]
    .sort((a, b) => a.rank - b.rank)
    .map((image) => ({ full: image.url_fullxfull, medium: image.url_570xN, small: image.url_170x135 }));
  const section = listing.shop_section_id !== null && listing.shop_section_id !== undefined ? sectionTitles.get(listing.shop_section_id) : undefined;
  const categories: string[] = [];
  for (const name of [section, ...(listing.tags ?? [])]) {
    const text = name ? decodeHTML(name).trim() : "";
    if (text && !categories.some((known) => known.toLowerCase() === text.toLowerCase())) categories.push(text);
  }
  return {
    id: String(listing.listing_id),
    title: decodeHTML(listing.title ?? ""),
    description: decodeHTML(listing.description ?? ""),
    images,
    categories,
    price: priceText(listing.price),
    currency: listing.price?.currency_code ?? "",
    url: listing.url ?? "",
  };
}
