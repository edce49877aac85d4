import type { AnonymousShopifyEntry } from "../../../contracts/shops/shopify-shop.ts";
import { apiJson } from "../../lib/api-client.ts";
import { useApiQuery } from "../../lib/query.ts";

/**
 * On the sign-up page: a Shopify store installed from Shopify's side in this
 * browser before the account existed (the anonymous entry, decision 029) is
 * connected to the account made here; say so. Nothing is said when it cannot be read.
 */
export function AnonymousShopifyNotice() {
  const query = useApiQuery(["shops", "anonymousShop"], () => apiJson<{ anonymousShop: AnonymousShopifyEntry | null }>("/api/shopifyAPI/anonymousShop"), {
    public: true,
  });
  const entry = query.data?.anonymousShop ?? null;
  if (!entry) return null;
  return (
    <p className="muted" role="status">
      Your Shopify store <strong>{entry.shopName}</strong> is installed. It will be connected to the account you create here.
    </p>
  );
}
