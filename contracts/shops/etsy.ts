import * as v from "valibot";
import { body, plainLine } from "../fields.ts";
import { ShopId } from "./shops.ts";

/**
 * The Etsy connection and its listings (spec sections 7 and 8, decision 028).
 * The browser starts a connection and is sent to Etsy; Etsy's tokens never
 * leave the server.
 */

/** What we ask Etsy for: read the user's shop and its listings, nothing more. */
export const ETSY_SCOPES = ["shops_r", "listings_r"] as const;

/** Every failure of getEtsyShopListings starts so (spec section 8). */
export const ETSY_LISTINGS_ERROR = "Unable to get Etsy shop listings: ";

/** Where the browser comes back to after Etsy unless it says otherwise. */
export const ETSY_DEFAULT_RETURN = "/products";

/** POST /api/etsyAPI/connectEtsyShop {redirectUrl?}: the page to come back to, a path of this site. */
export const ConnectEtsyShopBody = body({
  redirectUrl: v.optional(
    v.pipe(
      v.string("redirectUrl must be a path of this site, such as /products"),
      v.regex(/^\/(?!\/)[^\s\\]{0,500}$/, "redirectUrl must be a path of this site, such as /products"),
    ),
    ETSY_DEFAULT_RETURN,
  ),
});
export interface ConnectEtsyShopResponse {
  /** Etsy's authorization page with our keystring, scopes, state and PKCE challenge. */
  authorizeUrl: string;
}

/** The longest search we pass on to Etsy as its keywords. */
const SEARCH_MAX = 200;

/** GET /api/etsyAPI/getEtsyShopListings?shopID,pageNumber,searchInput */
export const EtsyShopListingsQuery = v.object({
  shopID: ShopId("shopID"),
  pageNumber: v.optional(
    v.pipe(v.string("pageNumber must be a whole number from 1"), v.regex(/^[1-9][0-9]{0,5}$/, "pageNumber must be a whole number from 1"), v.transform(Number)),
    "1",
  ),
  searchInput: v.optional(
    v.pipe(v.string("searchInput must be text"), plainLine, v.trim(), v.maxLength(SEARCH_MAX, `searchInput must be at most ${SEARCH_MAX} characters`)),
    "",
  ),
});
