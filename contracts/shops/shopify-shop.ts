import * as v from "valibot";
import { body } from "../fields.ts";
import { SHOPIFY_PRODUCT_STATUSES, ShopId } from "./shops.ts";

/**
 * Connecting a Shopify store and reading its products (spec sections 3, 7, 8;
 * docs/decisions/029-shopify-store-connection.md).
 */

export const SHOP_DOMAIN_PATTERN = /^[a-z0-9][a-z0-9-]{0,60}\.myshopify\.com$/;

/**
 * A store's myshopify.com address. What people paste is forgiven: the scheme,
 * a path (…/admin) and letter case; a bare store name gets .myshopify.com.
 */
export function normaliseShopDomain(input: string): string {
  const host = input
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\//, "")
    .replace(/[/?#].*$/, "");
  return host.includes(".") ? host : `${host}.myshopify.com`;
}

export const ShopDomain = (field: string) =>
  v.pipe(
    v.string(`${field} is required`),
    v.trim(),
    v.nonEmpty(`${field} is required`),
    v.maxLength(255, `${field} is too long`),
    v.transform(normaliseShopDomain),
    v.regex(SHOP_DOMAIN_PATTERN, `${field} must be your store's myshopify.com address, such as your-store.myshopify.com`),
  );

export { SHOPIFY_CONNECTED_PARAM, SHOPIFY_ERROR_PARAM, SHOPIFY_STATE_CHECK_KEY } from "./shopify-params.ts";

/** POST /api/shopifyAPI/recordShopifyStateCheck {shop, stateCheck, redirectUrl} -> {authorizeUrl} */
export const ShopifyStateCheckBody = body({
  shop: ShopDomain("shop"),
  stateCheck: v.pipe(v.string("stateCheck is required"), v.regex(/^[A-Za-z0-9_-]{16,128}$/, "stateCheck must be 16-128 letters, digits, - or _")),
  /** Where to come back to after Shopify: a path of this site, e.g. /products. */
  redirectUrl: v.pipe(v.string("redirectUrl is required"), v.regex(/^\/(?!\/)[^\s\\]{0,500}$/, "redirectUrl must be a path of this site, such as /products")),
});
export interface ShopifyStateCheckResponse {
  /** Shopify's authorization page on the store, with our client id, scope, state and callback. */
  authorizeUrl: string;
}

const listingOptions = {
  searchInput: v.optional(v.pipe(v.string("searchInput must be text"), v.trim(), v.maxLength(200, "searchInput is too long")), ""),
  /** The nextPageLink or previousPageLink of the page before. */
  paginationLink: v.optional(
    v.pipe(
      v.string("paginationLink must be text"),
      v.trim(),
      v.regex(/^$|^(after|before):[A-Za-z0-9+/=_-]{1,1000}$/, "paginationLink must be the nextPageLink or previousPageLink of a page of listings"),
    ),
    "",
  ),
  productStatus: v.optional(v.picklist(SHOPIFY_PRODUCT_STATUSES, `productStatus must be one of ${SHOPIFY_PRODUCT_STATUSES.join(", ")}`), "all"),
};

/** GET /api/shopifyAPI/getShopifyShopListings?shopID,searchInput,paginationLink,productStatus -> ShopListingsPage */
export const ShopifyListingsQuery = v.object({ shopID: ShopId("shopID"), ...listingOptions });

/**
 * GET /api/shopifyAPI/getShopifyShopListingsFromAccessToken?accessToken,shopName -> ShopListingsPage:
 * a store the caller holds a token for (a custom app's Admin API token), read once with that
 * token and never stored (decision 029).
 */
export const ShopifyListingsFromTokenQuery = v.object({
  accessToken: v.pipe(
    v.string("accessToken is required"),
    v.trim(),
    v.regex(/^[A-Za-z0-9_-]{16,255}$/, "accessToken must be your store's Admin API access token, such as shpat_ followed by letters and digits"),
  ),
  shopName: ShopDomain("shopName"),
  ...listingOptions,
});

/** Spec section 8, Shop listings. */
export const SHOPIFY_RECONNECT_MESSAGE = "Unable to get Shopify shop listings: Please reconnect your store.";
export const shopListingsError = (error: string) => `Unable to get shop listings: ${error}`;

/**
 * The anonymous Shopify entry (spec: authorizedShops' anonymous Shopify entry
 * with authDetails): a store installed from Shopify's side in this browser
 * before sign-up, connected to the account that signs up or logs in here.
 * GET /api/shopifyAPI/anonymousShop -> {anonymousShop: AnonymousShopifyEntry | null}
 */
export interface AnonymousShopifyEntry {
  shopType: "Shopify";
  shopName: string;
  shopUrl: string | null;
  /** What Shopify granted, without the token: the store and when. */
  authDetails: { shop: string; scope: string; installedAt: string };
}
