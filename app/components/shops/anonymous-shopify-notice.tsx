import { useEffect, useState } from "react";
import type { AnonymousShopifyEntry } from "../../../contracts/shops/shopify-shop.ts";
import { apiJson } from "../../lib/api-client.ts";

/**
 * On the sign-up page: a Shopify store installed from Shopify's side in this
 * browser before the account existed (the anonymous entry, decision 029) is
 * connected to the account made here; say so.
 */
export function AnonymousShopifyNotice() {
  const [entry, setEntry] = useState<AnonymousShopifyEntry | null>(null);
  useEffect(() => {
    let current = true;
    apiJson<{ anonymousShop: AnonymousShopifyEntry | null }>("/api/shopifyAPI/anonymousShop")
      .then((answer) => current && setEntry(answer.anonymousShop))
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, []);
  if (!entry) return null;
  return (
    <p className="muted" role="status">
      Your Shopify store <strong>{entry.shopName}</strong> is installed. It will be connected to the account you create here.
    </p>
  );
}
