/**
 * The names a page and the browser share when connecting a Shopify store (decision 029), kept apart
 * from the request schemas of ./shopify-shop.ts (which re-exports them) so that pages needing only
 * these names do not ship the validation library (issue 17's JavaScript budget).
 */

/** The state the browser keeps in local storage (spec: ShopifyStateCheck) and sends when it starts connecting. */
export const SHOPIFY_STATE_CHECK_KEY = "ShopifyStateCheck";

/** Query parameters that come back to the page after connecting. */
export const SHOPIFY_CONNECTED_PARAM = "shopifyConnected";
export const SHOPIFY_ERROR_PARAM = "shopifyError";
