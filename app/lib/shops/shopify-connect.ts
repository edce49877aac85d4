import type { ShopProfileView } from "../../../contracts/shops/shops.ts";
import { SHOPIFY_CONNECTED_PARAM, SHOPIFY_ERROR_PARAM, SHOPIFY_STATE_CHECK_KEY } from "../../../contracts/shops/shopify-params.ts";
import type { ShopifyStateCheckResponse } from "../../../contracts/shops/shopify-shop.ts";
import { apiJson } from "../api-client.ts";

/**
 * Connecting a Shopify store from our pages (decision 029): a fresh state,
 * kept in local storage as the spec's ShopifyStateCheck and recorded on the
 * server (which binds it to this browser), then Shopify's authorization page
 * on the store. Shopify comes back through our callback to `redirectUrl` with
 * `shopifyConnected` or `shopifyError`.
 */
export async function connectShopifyStore(shop: string, redirectUrl: string): Promise<void> {
  // Loaded when a store is connected, not with every page that can connect one (/pricing, issue 17).
  const { newStateCheck } = await import("../pinterest/connection.ts");
  const stateCheck = newStateCheck();
  try {
    window.localStorage.setItem(SHOPIFY_STATE_CHECK_KEY, stateCheck);
  } catch {
    // storage may be off: the server's record is what counts
  }
  const { authorizeUrl } = await apiJson<ShopifyStateCheckResponse>("/api/shopifyAPI/recordShopifyStateCheck", { json: { shop, stateCheck, redirectUrl } });
  window.location.assign(authorizeUrl);
}

/** What the callback put in the page's query: the connected store's name, or why it was not connected. Forgets the state check. */
export function shopifyOutcome(search: string): { connected: string | null; error: string | null } {
  const params = new URLSearchParams(search);
  const outcome = { connected: params.get(SHOPIFY_CONNECTED_PARAM), error: params.get(SHOPIFY_ERROR_PARAM) };
  if (outcome.connected || outcome.error) {
    try {
      window.localStorage.removeItem(SHOPIFY_STATE_CHECK_KEY);
    } catch {
      // nothing kept
    }
  }
  return outcome;
}

/** The user's connected Shopify stores. */
export async function shopifyStores(): Promise<ShopProfileView[]> {
  const { authorizedShops } = await apiJson<{ authorizedShops: ShopProfileView[] }>("/api/shops");
  return authorizedShops.filter((shop) => shop.shopType === "Shopify");
}
