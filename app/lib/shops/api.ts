import type { ShopifyProductStatus, ShopListingsPage, ShopProfileView, ShopType } from "../../../contracts/shops/shops.ts";
import type { ConnectEtsyShopResponse } from "../../../contracts/shops/etsy.ts";
import type { ConnectWooCommerceResponse } from "../../../contracts/shops/woocommerce.ts";
import { apiJson } from "../api-client.ts";
import { connectShopifyStore } from "./shopify-connect.ts";

/**
 * The products page's calls (spec section 7, Shops and catalogs), one place
 * for every kind of shop: the shop profiles, each provider's listing call
 * keyed by shopType, and each provider's connect start.
 */

type ShopsAnswer = { authorizedShops: ShopProfileView[] };

export async function fetchShops(): Promise<ShopProfileView[]> {
  return (await apiJson<ShopsAnswer>("/api/shops")).authorizedShops;
}

/** The shop /products opens on (one active at a time). */
export async function activateShop(shopID: string): Promise<ShopProfileView[]> {
  return (await apiJson<ShopsAnswer>("/api/etsyAPI/activateShopProfile", { json: { shopID } })).authorizedShops;
}

/** Removes the shop (and revokes what its provider allows); `message` says what the user must still do at the provider, if anything. */
export async function removeShop(shopID: string): Promise<{ authorizedShops: ShopProfileView[]; message?: string }> {
  return apiJson<ShopsAnswer & { message?: string }>(`/api/etsyAPI/removeShopProfile/${encodeURIComponent(shopID)}`, { method: "DELETE" });
}

/** What page of a shop's listings to show. */
export interface ListingRequest {
  search: string;
  /** 1-based page number (Etsy, WooCommerce). */
  page: number;
  /** Shopify's status filter (the others ignore it). */
  status: ShopifyProductStatus;
  /** Shopify's cursor link to the page wanted; null for the first page. */
  paginationLink: string | null;
}

const query = (values: Record<string, string>) => new URLSearchParams(values).toString();

/** Each provider's listing call (spec section 7, exact paths and query names). */
const LISTING_PATHS: Record<ShopType, (shop: ShopProfileView, request: ListingRequest) => string> = {
  Etsy: (shop, request) => `/api/etsyAPI/getEtsyShopListings?${query({ shopID: shop.id, pageNumber: String(request.page), searchInput: request.search })}`,
  Shopify: (shop, request) =>
    `/api/shopifyAPI/getShopifyShopListings?${query({ shopID: shop.id, searchInput: request.search, paginationLink: request.paginationLink ?? "", productStatus: request.status })}`,
  WooCommerce: (shop, request) => `/api/woocommerce/products?${query({ shopID: shop.id, pageNumber: String(request.page), searchInput: request.search })}`,
};

/** One page of a shop's listings (50), whatever kind of shop it is. A failure carries the server's message as it is. */
export function fetchShopListings(shop: ShopProfileView, request: ListingRequest): Promise<ShopListingsPage> {
  return apiJson<ShopListingsPage>(LISTING_PATHS[shop.shopType](shop, request));
}

/** How a kind of shop pages: by number (Etsy, WooCommerce) or by next and previous links (Shopify). */
export function pagesByLink(shopType: ShopType): boolean {
  return shopType === "Shopify";
}

// ------------------------------------------------------------------ connecting a shop

/** What the user tells us before a connection starts: Shopify needs the store's address, WooCommerce the site's. */
export interface ConnectRequest {
  /** The store's address ("yourstore.myshopify.com", "https://yourshop.com"), for Shopify and WooCommerce. */
  storeAddress?: string;
}

/** Etsy: OAuth 2.0 with PKCE; Etsy sends the browser back to /products with `etsyConnected` or `etsyError` (decision 028). */
export async function startEtsyConnection(_request: ConnectRequest): Promise<void> {
  const { authorizeUrl } = await apiJson<ConnectEtsyShopResponse>("/api/etsyAPI/connectEtsyShop", { json: { redirectUrl: "/products" } });
  window.location.assign(authorizeUrl);
}

/** Shopify: the app install flow for the store at `storeAddress` (decision 029); back to /products with `shopifyConnected` or `shopifyError`. */
export async function startShopifyConnection(request: ConnectRequest): Promise<void> {
  await connectShopifyStore(request.storeAddress ?? "", "/products");
}

/**
 * WooCommerce: the store's own app authorisation (/wc-auth/v1/authorize) at
 * `storeAddress`; the store sends the browser back to /products with
 * `shopConnected` or `shopError` (decision 030).
 */
export async function startWooCommerceConnection(request: ConnectRequest): Promise<void> {
  const { authorizeUrl } = await apiJson<ConnectWooCommerceResponse>("/api/woocommerce/connect", {
    json: { storeUrl: request.storeAddress ?? "", redirectUrl: "/products" },
  });
  window.location.assign(authorizeUrl);
}

const CONNECT_STARTS: Record<ShopType, (request: ConnectRequest) => Promise<void>> = {
  Etsy: startEtsyConnection,
  Shopify: startShopifyConnection,
  WooCommerce: startWooCommerceConnection,
};

/** Whether connecting this kind of shop needs the store's address first. */
export function needsStoreAddress(shopType: ShopType): boolean {
  return shopType !== "Etsy";
}

/** Starts connecting (or reconnecting) a shop: usually leaves the page for the provider. */
export function startShopConnection(shopType: ShopType, request: ConnectRequest = {}): Promise<void> {
  return CONNECT_STARTS[shopType](request);
}
