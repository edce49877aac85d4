import { FetchRefused, guardedFetch, type GuardedFetchEnv, type GuardedResponse } from "../http/guarded-fetch.ts";
import { cleanText } from "../scrape/text.ts";

/**
 * A WooCommerce store's REST API v3 (docs/decisions/030-woocommerce-connection.md).
 * Each store is its own server: every call takes the store's address (its
 * WordPress home, e.g. https://shop.example or https://example.com/shop).
 * Keys go as HTTP Basic (consumer key and secret), which WooCommerce accepts
 * over https; stores are https in production, and only the local stand-in
 * speaks plain http (it accepts the same header there). Keys never travel in
 * a URL. A store is an address a user typed: every call goes through the
 * guarded fetch (public addresses only), and the keys never follow a redirect
 * to another origin (decision 076).
 */

export interface WooCommerceEnv extends GuardedFetchEnv {
  /** The time limit of one call, in milliseconds. */
  WOOCOMMERCE_TIMEOUT_MS: string;
}

export interface WooCommerceKeys {
  consumerKey: string;
  consumerSecret: string;
}

export type WooCommerceFailure =
  | "unauthorized"
  | "rate_limited"
  | "not_found"
  | "refused"
  | "server"
  | "timeout"
  | "network"
  | "unreadable"
  /** The store's address is, or leads to, a private network: never called. */
  | "private_address"
  /** The store sent a call carrying our keys on to another origin: not followed. */
  | "moved";

/** How a call to a store failed, with WooCommerce's own words where it gave some. */
export class WooCommerceError extends Error {
  readonly kind: WooCommerceFailure;
  readonly status: number | null;
  /** WooCommerce's error code (woocommerce_rest_authentication_error ...), "" when none. */
  readonly code: string;
  /** Seconds the store asked us to wait (429 Retry-After). */
  readonly retryAfterSeconds: number | null;
  constructor(kind: WooCommerceFailure, status: number | null, message: string, code = "", retryAfterSeconds: number | null = null) {
    super(message);
    this.name = "WooCommerceError";
    this.kind = kind;
    this.status = status;
    this.code = code;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** A product as WooCommerce's REST API v3 answers it (the fields we read). */
export interface WooProduct {
  id: number;
  name: string;
  permalink: string;
  description: string;
  short_description: string;
  price: string;
  regular_price: string;
  categories?: { id: number; name: string; slug: string }[];
  tags?: { id: number; name: string; slug: string }[];
  images?: { id: number; src: string; name?: string; alt?: string }[];
}

export interface WooProductsPage {
  products: WooProduct[];
  /** X-WP-Total: how many products match. */
  total: number;
  /** X-WP-TotalPages. */
  totalPages: number;
}

const timeoutOf = (env: WooCommerceEnv) => (Number(env.WOOCOMMERCE_TIMEOUT_MS) > 0 ? Number(env.WOOCOMMERCE_TIMEOUT_MS) : 15_000);

/** The store's address with the API path after it. */
export function storeEndpoint(storeUrl: string, path: string): string {
  return `${storeUrl.replace(/\/+$/, "")}${path}`;
}

/** WooCommerce's app authorisation page for this store (class WC_Auth, /wc-auth/v1/authorize). */
export function authorizeUrl(
  storeUrl: string,
  request: { appName: string; userId: string; returnUrl: string; callbackUrl: string; scope: "read" | "write" | "read_write" },
): string {
  const url = new URL(storeEndpoint(storeUrl, "/wc-auth/v1/authorize"));
  url.searchParams.set("app_name", request.appName);
  url.searchParams.set("scope", request.scope);
  url.searchParams.set("user_id", request.userId);
  url.searchParams.set("return_url", request.returnUrl);
  url.searchParams.set("callback_url", request.callbackUrl);
  return url.toString();
}

function basicAuth(keys: WooCommerceKeys): string {
  const bytes = new TextEncoder().encode(`${keys.consumerKey}:${keys.consumerSecret}`);
  return `Basic ${btoa(String.fromCharCode(...bytes))}`;
}

/** Retry-After as seconds (a number of seconds or an HTTP date); null when absent or unreadable. */
function retryAfter(header: string | null): number | null {
  if (!header) return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/** WooCommerce's error body {code, message, data: {status}}; the body's start otherwise. */
function errorOf(text: string): { code: string; message: string } {
  try {
    const parsed = JSON.parse(text) as { code?: unknown; message?: unknown };
    if (typeof parsed.message === "string") return { code: typeof parsed.code === "string" ? parsed.code : "", message: cleanText(parsed.message, 300) };
  } catch {
    // not JSON: a proxy's or host's page
  }
  return { code: "", message: "" };
}

/** A store's answer is JSON of a page of products at most; this is far more. */
const MAX_ANSWER_BYTES = 10 * 1024 * 1024;

/** A refused or failed guarded fetch as a WooCommerceError. */
function fetchFailure(refusal: FetchRefused, timeoutMs: number): WooCommerceError {
  const seconds = Number.isInteger(timeoutMs / 1000) ? String(timeoutMs / 1000) : (timeoutMs / 1000).toFixed(1);
  switch (refusal.kind) {
    case "timeout":
      return new WooCommerceError("timeout", null, `The store did not answer within ${seconds} seconds. Please try again.`);
    case "private":
      return new WooCommerceError("private_address", null, `The store's address ${refusal.host} leads to a private network, which we do not connect to.`);
    case "credentials-redirect":
      return new WooCommerceError(
        "moved",
        null,
        `The store at ${refusal.host} sent us on to ${refusal.target}, and we do not send your store's keys to another address. If your store has moved, connect it again at its new address.`,
      );
    case "too-large":
    case "unreadable":
      return new WooCommerceError("unreadable", null, "The store's answer could not be read completely. Please try again.");
    case "redirect-loop":
    case "too-many-redirects":
    case "bad-redirect":
    case "scheme":
      return new WooCommerceError("network", null, `The store at ${refusal.host} redirects without arriving anywhere.`);
    default:
      return new WooCommerceError("network", null, `We could not reach ${refusal.host}. Check that this address opens your WordPress site, then try again.`);
  }
}

async function call(
  env: WooCommerceEnv,
  url: string,
  keys: WooCommerceKeys | null,
): Promise<{ status: number; headers: Headers; url: string; redirected: boolean; body: unknown }> {
  const timeoutMs = timeoutOf(env);
  let fetched: GuardedResponse;
  let text: string;
  try {
    fetched = await guardedFetch(env, url, {
      timeoutMs,
      maxBytes: MAX_ANSWER_BYTES,
      headers: { accept: "application/json" },
      credentials: keys ? { authorization: basicAuth(keys) } : undefined,
    });
    text = await fetched.text();
  } catch (error) {
    if (error instanceof FetchRefused) throw fetchFailure(error, timeoutMs);
    throw error;
  }
  const answer = { status: fetched.status, headers: fetched.headers, url: fetched.url, redirected: fetched.redirected };
  if (!fetched.ok) {
    const { code, message } = errorOf(text);
    const status = fetched.status;
    if (status === 401 || status === 403) throw new WooCommerceError("unauthorized", status, message || "The store refused our keys.", code);
    if (status === 429)
      throw new WooCommerceError(
        "rate_limited",
        status,
        message || "The store is receiving too many requests.",
        code,
        retryAfter(fetched.headers.get("retry-after")),
      );
    if (status === 404) throw new WooCommerceError("not_found", status, message || "The store's WooCommerce API was not found.", code);
    // A server error's page says nothing a shop owner can act on (a PHP notice, a host's page): our words instead.
    if (status >= 500) throw new WooCommerceError("server", status, `The store had a problem answering (error ${status}). Please try again in a moment.`, code);
    throw new WooCommerceError("refused", status, message || `The store refused the request (error ${status}).`, code);
  }
  try {
    return { ...answer, body: JSON.parse(text) };
  } catch {
    throw new WooCommerceError(
      "unreadable",
      fetched.status,
      "The store answered with something other than WooCommerce's API (is a security plugin or a maintenance page in the way?).",
    );
  }
}

/**
 * The WordPress site index (GET /wp-json/, no key): the site's name, whether
 * WooCommerce's REST API v3 is there, and the store's address after any
 * redirect (shop.example answering from https://www.shop.example).
 */
export async function readStoreIndex(env: WooCommerceEnv, storeUrl: string): Promise<{ name: string; hasWooCommerce: boolean; storeUrl: string }> {
  const answer = await call(env, storeEndpoint(storeUrl, "/wp-json/"), null);
  const index = (answer.body && typeof answer.body === "object" ? answer.body : {}) as { name?: unknown; namespaces?: unknown };
  const landed = answer.redirected ? answer.url.replace(/\/wp-json\/?(\?.*)?$/, "") : storeUrl;
  return {
    name: typeof index.name === "string" ? cleanText(index.name, 200) : "",
    hasWooCommerce: Array.isArray(index.namespaces) && index.namespaces.includes("wc/v3"),
    storeUrl: landed,
  };
}

/** The store's currency (woocommerce_currency of the general settings), an ISO 4217 code. */
export async function readStoreCurrency(env: WooCommerceEnv, storeUrl: string, keys: WooCommerceKeys): Promise<string> {
  const { body } = await call(env, storeEndpoint(storeUrl, "/wp-json/wc/v3/settings/general/woocommerce_currency"), keys);
  const value = (body as { value?: unknown } | null)?.value;
  if (typeof value !== "string" || !/^[A-Z]{3}$/.test(value))
    throw new WooCommerceError("unreadable", 200, "The store did not say which currency it sells in.");
  return value;
}

/** One page of the store's published products (GET /wp-json/wc/v3/products), newest first, with the count. */
export async function listProducts(
  env: WooCommerceEnv,
  storeUrl: string,
  keys: WooCommerceKeys,
  query: { page: number; perPage: number; search?: string },
): Promise<WooProductsPage> {
  const url = new URL(storeEndpoint(storeUrl, "/wp-json/wc/v3/products"));
  url.searchParams.set("page", String(query.page));
  url.searchParams.set("per_page", String(query.perPage));
  url.searchParams.set("status", "publish");
  if (query.search) url.searchParams.set("search", query.search);
  const { status, headers, body } = await call(env, url.toString(), keys);
  if (!Array.isArray(body)) throw new WooCommerceError("unreadable", status, "The store answered something other than a list of products.");
  const count = (name: string) => {
    const value = Number(headers.get(name));
    return Number.isInteger(value) && value >= 0 ? value : null;
  };
  const products = body.filter((item): item is WooProduct => Boolean(item) && typeof item === "object" && typeof (item as WooProduct).id === "number");
  const total = count("x-wp-total") ?? (query.page - 1) * query.perPage + products.length;
  return { products, total, totalPages: count("x-wp-totalpages") ?? Math.ceil(total / query.perPage) };
}
