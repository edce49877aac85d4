import * as v from "valibot";
import { body } from "../fields.ts";
import { ShopId } from "./shops.ts";

/**
 * WooCommerce connection and listings (spec section 7, Shops; docs/decisions/030).
 * The user names their store; WooCommerce's own authorisation page issues
 * the keys to us: nobody types a key.
 */

/** POST /api/woocommerce/connect: the store's address and the page to come back to. */
export const ConnectWooCommerceBody = body({
  storeUrl: v.pipe(v.string("storeUrl is required"), v.trim(), v.nonEmpty("storeUrl is required"), v.maxLength(500, "storeUrl is too long")),
  /** A path of this site (default /products). */
  redirectUrl: v.optional(
    v.pipe(
      v.string("redirectUrl must be a path of this site, such as /products"),
      v.regex(/^\/(?!\/)[^\s\\]{0,500}$/, "redirectUrl must be a path of this site, such as /products"),
    ),
  ),
});
export interface ConnectWooCommerceResponse {
  /** The store's authorisation page: send the browser there. */
  authorizeUrl: string;
}

/** The keys WooCommerce POSTs to our callback_url (class WC_Auth::create_keys). */
export const WooCommerceKeysBody = body({
  key_id: v.union([v.pipe(v.number(), v.integer(), v.minValue(1)), v.pipe(v.string(), v.regex(/^\d{1,18}$/))], "key_id must be a number"),
  user_id: v.pipe(v.string("user_id is required"), v.nonEmpty("user_id is required"), v.maxLength(2000, "user_id is too long")),
  consumer_key: v.pipe(v.string("consumer_key is required"), v.regex(/^ck_[A-Za-z0-9]{16,128}$/, "consumer_key is not a WooCommerce consumer key")),
  consumer_secret: v.pipe(v.string("consumer_secret is required"), v.regex(/^cs_[A-Za-z0-9]{16,128}$/, "consumer_secret is not a WooCommerce consumer secret")),
  key_permissions: v.picklist(["read", "write", "read_write"], "key_permissions must be read, write or read_write"),
});

/** The browser's return from WooCommerce: return_url?success=1|0&user_id=... */
export const WooCommerceReturnQuery = v.object({
  success: v.optional(v.string()),
  user_id: v.optional(v.pipe(v.string(), v.maxLength(2000, "user_id is too long"))),
});

/** GET /api/woocommerce/products?shopID,pageNumber,searchInput */
export const WooCommerceProductsQuery = v.object({
  shopID: ShopId("shopID"),
  pageNumber: v.optional(
    v.pipe(
      v.string("pageNumber must be a whole number from 1"),
      v.regex(/^\d{1,6}$/, "pageNumber must be a whole number from 1"),
      v.transform(Number),
      v.minValue(1, "pageNumber must be a whole number from 1"),
    ),
    "1",
  ),
  searchInput: v.optional(v.pipe(v.string("searchInput must be text"), v.trim(), v.maxLength(200, "searchInput must be at most 200 characters")), ""),
});
