import * as v from "valibot";
import { body } from "../fields.ts";

/**
 * Shops (spec sections 3, 5, 7, 8, 9): connected Etsy, Shopify and WooCommerce
 * shops, their listings, and CSV rows, which all become products to make pins
 * from. One shape for a listing, whatever it came from.
 */

export const SHOP_TYPES = ["Etsy", "Shopify", "WooCommerce"] as const;
export type ShopType = (typeof SHOP_TYPES)[number];

/** Listings on a page (spec section 9). */
export const PRODUCTS_PER_PAGE = 50;
/** Pins made from one product unless the user says otherwise (spec section 9: CSV row numberOfPinsToGenerate 5). */
export const DEFAULT_PINS_PER_PRODUCT = 5;
/** Shopify's status filter (spec: default 'all'). */
export const SHOPIFY_PRODUCT_STATUSES = ["all", "active", "draft", "archived"] as const;
export type ShopifyProductStatus = (typeof SHOPIFY_PRODUCT_STATUSES)[number];

/**
 * A connected shop as the browser sees it (spec: authorizedShops, Shop
 * profile). `id` is ours; tokens never leave the server.
 */
export interface ShopProfileView {
  id: string;
  shopType: ShopType;
  shopName: string;
  /** The shop's own address (its storefront), when the provider gives one. */
  shopUrl: string | null;
  isActive: boolean;
  /** ok; reauth: the provider no longer accepts our token and the user must reconnect. */
  status: "ok" | "reauth";
}

/** One picture of a listing in the sizes the provider offers (the same URL where it offers one size). */
export interface ListingImage {
  full: string;
  medium: string;
  small: string;
}

/** A product of a shop or a CSV row (spec: Shop listing). `isChecked` lives in the browser only. */
export interface ShopListing {
  /** The provider's id of the product (a CSV row's number for CSV rows). */
  id: string;
  title: string;
  description: string;
  images: ListingImage[];
  categories: string[];
  /** The price as a decimal string in `currency` ("24.00"), "" when the provider has none. */
  price: string;
  /** ISO 4217 code ("USD"), "" when unknown. */
  currency: string;
  /** The product's page on the shop. */
  url: string;
}

/** A page of listings and how many there are in all (spec section 7: a page has 50 and a count). */
export interface ShopListingsPage {
  listings: ShopListing[];
  count: number;
  /** Shopify pages by cursor: the link to the next page, or null on the last. */
  nextPageLink?: string | null;
  /** And to the page before, or null on the first. */
  previousPageLink?: string | null;
}

const ShopId = (field: string) =>
  v.pipe(
    v.string(`${field} is required`),
    v.trim(),
    v.nonEmpty(`${field} is required`),
    v.maxLength(100, `${field} is too long`),
    v.regex(/^[A-Za-z0-9_-]+$/, `${field} is not a shop id`),
  );

/** POST /api/etsyAPI/activateShopProfile {shopID}: the shop the products page opens on (one active at a time). */
export const ActivateShopProfileBody = body({ shopID: ShopId("shopID") });
/** DELETE /api/etsyAPI/removeShopProfile/{shop} */
export const RemoveShopProfileParam = v.object({ shop: ShopId("shop") });
export { ShopId };
