import type { ListingImage, ShopifyProductStatus, ShopListing } from "../../contracts/shops/shops.ts";
import { adminUrl, errorText, graphql, shopifyFetch, ShopifyError, type ShopifyEnv } from "./shopify.ts";

/**
 * A Shopify store connected to our app (decision 029): the authorization code
 * grant that installs the app on a store (authorize URL, the HMAC of Shopify's
 * redirects, the code exchanged for an offline Admin API token), the store's
 * name, its products through the Admin GraphQL API (cursor pages, search and
 * status), and giving the token back when the user removes the store. Calls go
 * through ./shopify.ts, which keeps to Shopify's query cost limits.
 */

export interface ShopifyAppEnv extends ShopifyEnv {
  SHOPIFY_CLIENT_ID: string;
  SHOPIFY_CLIENT_SECRET: string;
}

/** What the app asks a store for: reading its products. */
export const SHOPIFY_SCOPES = "read_products";

/** What a store grants us: an offline Admin API token (it does not expire) and the scopes it covers. */
export interface ShopifyCredentials {
  accessToken: string;
  scope: string;
}

/**
 * Shopify's authorization page on the store. No `grant_options[]=per-user`,
 * so the token is an offline one, which keeps working without the merchant.
 */
export function authorizeUrl(env: ShopifyAppEnv, shop: string, state: string, redirectUri: string): string {
  const url = new URL(`${adminUrl(env, shop)}/oauth/authorize`);
  url.searchParams.set("client_id", env.SHOPIFY_CLIENT_ID);
  url.searchParams.set("scope", SHOPIFY_SCOPES);
  url.searchParams.set("redirect_uri", redirectUri);
  url.searchParams.set("state", state);
  return url.toString();
}

/**
 * The message Shopify signs in its redirects: every query parameter but
 * `hmac` (and the legacy `signature`), sorted by name, `name=value` joined
 * by `&`; a repeated parameter becomes `name=["a", "b"]`.
 */
export function signedMessage(params: URLSearchParams): string {
  const values = new Map<string, string[]>();
  for (const [name, value] of params) {
    if (name === "hmac" || name === "signature") continue;
    values.set(name, [...(values.get(name) ?? []), value]);
  }
  return [...values.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, list]) => `${name}=${list.length === 1 ? list[0] : `[${list.map((value) => `"${value}"`).join(", ")}]`}`)
    .join("&");
}

/**
 * Whether a redirect came from Shopify: `hmac` is the hex HMAC-SHA256 of the
 * signed message with the app's client secret. Compared in constant time
 * (SubtleCrypto's verify).
 */
export async function verifyQueryHmac(clientSecret: string, params: URLSearchParams): Promise<boolean> {
  if (!clientSecret) throw new Error("SHOPIFY_CLIENT_SECRET must be configured to connect Shopify stores");
  const hmac = params.get("hmac") ?? "";
  if (!/^[0-9a-f]{64}$/i.test(hmac)) return false;
  const signature = new Uint8Array(32);
  for (let i = 0; i < 32; i += 1) signature[i] = Number.parseInt(hmac.slice(i * 2, i * 2 + 2), 16);
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(clientSecret), { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);
  return crypto.subtle.verify("HMAC", key, signature, new TextEncoder().encode(signedMessage(params)));
}

/** POST https://{shop}/admin/oauth/access_token {client_id, client_secret, code} -> the store's offline token. */
export async function exchangeCode(env: ShopifyAppEnv, shop: string, code: string): Promise<ShopifyCredentials> {
  const { response, text } = await shopifyFetch(env, `${adminUrl(env, shop)}/oauth/access_token`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ client_id: env.SHOPIFY_CLIENT_ID, client_secret: env.SHOPIFY_CLIENT_SECRET, code }),
  });
  if (!response.ok) throw new ShopifyError("http", response.status, errorText(text));
  let body: { access_token?: unknown; scope?: unknown };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    throw new ShopifyError("http", 502, "Shopify answered something that is not JSON");
  }
  if (typeof body.access_token !== "string" || !body.access_token) throw new ShopifyError("http", 502, "Shopify answered no access token");
  return { accessToken: body.access_token, scope: typeof body.scope === "string" ? body.scope : "" };
}

export interface ShopDetails {
  name: string;
  myshopifyDomain: string;
  /** The storefront's address (its own domain when it has one). */
  url: string;
}

export async function shopDetails(env: ShopifyEnv, shop: string, accessToken: string): Promise<ShopDetails> {
  const data = await graphql<{ shop: { name: string; myshopifyDomain: string; primaryDomain: { url: string } } }>(
    env,
    shop,
    accessToken,
    STORE_DOCUMENTS.shopDetails,
    {},
  );
  return { name: data.shop.name || shop, myshopifyDomain: data.shop.myshopifyDomain || shop, url: data.shop.primaryDomain?.url || `https://${shop}` };
}

/**
 * Gives the token back (the app is uninstalled from the store):
 * DELETE https://{shop}/admin/api_permissions/current.json. A token Shopify
 * no longer knows (401, 404) is already as good as revoked.
 */
export async function revokeAccess(env: ShopifyEnv, shop: string, accessToken: string): Promise<void> {
  const { response, text } = await shopifyFetch(env, `${adminUrl(env, shop)}/api_permissions/current.json`, {
    method: "DELETE",
    headers: { accept: "application/json", "x-shopify-access-token": accessToken },
  });
  if (!response.ok && response.status !== 401 && response.status !== 404) throw new ShopifyError("http", response.status, errorText(text));
}

// ---------------------------------------------------------------- products

/** Photos a listing carries: enough for collages, few enough to keep a page of 50 cheap in query points. */
const MEDIA_PER_PRODUCT = 4;
/** The sizes asked of Shopify's CDN for the medium and small pictures (the full one is the original). */
const MEDIUM_PX = 600;
const SMALL_PX = 200;

const PRODUCTS_QUERY = `query Products($first: Int, $last: Int, $after: String, $before: String, $query: String) {
  products(first: $first, last: $last, after: $after, before: $before, query: $query) {
    nodes {
      id
      title
      description
      descriptionHtml
      handle
      onlineStoreUrl
      productType
      tags
      status
      priceRangeV2 { minVariantPrice { amount currencyCode } }
      media(first: ${MEDIA_PER_PRODUCT}) {
        nodes {
          ... on MediaImage {
            image {
              full: url
              medium: url(transform: { maxWidth: ${MEDIUM_PX}, maxHeight: ${MEDIUM_PX} })
              small: url(transform: { maxWidth: ${SMALL_PX}, maxHeight: ${SMALL_PX} })
            }
          }
        }
      }
    }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  }
  productsCount(query: $query) { count }
}`;

/**
 * The GraphQL documents this module sends to the Admin API, exactly as sent (test/unit/shops/shopify-conformance.test.ts
 * validates them against Shopify's published Admin schema).
 */
export const STORE_DOCUMENTS = {
  shopDetails: "query ShopDetails { shop { name myshopifyDomain primaryDomain { url } } }",
  products: PRODUCTS_QUERY,
} as const;

export interface ShopifyProduct {
  id: string;
  title: string;
  description: string;
  descriptionHtml: string;
  handle: string;
  onlineStoreUrl: string | null;
  productType: string;
  tags: string[];
  status: "ACTIVE" | "DRAFT" | "ARCHIVED";
  /** Non-null in Shopify's schema (ProductPriceRangeV2!). */
  priceRangeV2: { minVariantPrice: { amount: string; currencyCode: string } };
  /** A Media that is not a MediaImage answers `{}` (the document selects only `... on MediaImage`). */
  media: { nodes: ({ image?: { full: string; medium: string; small: string } | null } | null)[] };
}

export interface PageInfo {
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  startCursor: string | null;
  endCursor: string | null;
}

export interface ProductsPageInput {
  /** Page size. */
  size: number;
  /** Forward from this cursor, or back from `before`. */
  after?: string;
  before?: string;
  /** Shopify search syntax (productSearchQuery). */
  query?: string;
}

export async function productsPage(env: ShopifyEnv, shop: string, accessToken: string, input: ProductsPageInput) {
  const variables = input.before
    ? { last: input.size, before: input.before, query: input.query ?? null }
    : { first: input.size, after: input.after ?? null, query: input.query ?? null };
  const data = await graphql<{ products: { nodes: ShopifyProduct[]; pageInfo: PageInfo }; productsCount: { count: number } | null }>(
    env,
    shop,
    accessToken,
    STORE_DOCUMENTS.products,
    variables,
  );
  return { products: data.products.nodes, pageInfo: data.products.pageInfo, count: data.productsCount?.count ?? data.products.nodes.length };
}

/**
 * The `query` argument for a search and a status: each word of the search
 * quoted (so the words are searched for, never read as Shopify's own filters),
 * then `status:` unless every status is wanted.
 */
export function productSearchQuery(search: string, status: ShopifyProductStatus): string {
  const words = search
    .split(/\s+/)
    .map((word) => word.replace(/["\\]/g, "").trim())
    .filter(Boolean)
    .map((word) => `"${word}"`);
  if (status !== "all") words.push(`status:${status}`);
  return words.join(" ");
}

const plainText = (html: string) =>
  html
    .replace(/<[^>]*>/g, " ")
    .replace(/&nbsp;/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, " ")
    .trim();

/** A price as the currency writes it: "24.00" for USD, "2400" for JPY. */
function priceText(amount: string, currency: string): string {
  const value = Number(amount);
  if (!Number.isFinite(value)) return "";
  let digits = 2;
  try {
    digits = new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    // an unknown currency keeps two decimals
  }
  return value.toFixed(digits);
}

/** A Shopify product as a listing (contracts/shops/shops.ts). */
export function toListing(product: ShopifyProduct, shopUrl: string): ShopListing {
  const images: ListingImage[] = product.media.nodes.flatMap((node) =>
    node?.image?.full ? [{ full: node.image.full, medium: node.image.medium || node.image.full, small: node.image.small || node.image.full }] : [],
  );
  const categories = [...new Set([product.productType, ...product.tags].map((value) => value.trim()).filter(Boolean))];
  const price = product.priceRangeV2?.minVariantPrice;
  return {
    id: product.id.split("/").pop() ?? product.id,
    title: product.title,
    description: product.description || plainText(product.descriptionHtml ?? ""),
    images,
    categories,
    price: price ? priceText(price.amount, price.currencyCode) : "",
    currency: price?.currencyCode ?? "",
    url: product.onlineStoreUrl ?? `${shopUrl.replace(/\/+$/, "")}/products/${encodeURIComponent(product.handle)}`,
  };
}
