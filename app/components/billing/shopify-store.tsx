import { useState, type FormEvent } from "react";
import { connectShopifyStore } from "../../lib/shops/shopify-connect.ts";
import { serverMessage } from "./billing-api.ts";
import type { PaymentChoice } from "./payment-methods.tsx";

/**
 * The Shopify store billed: one of the user's connected stores, or (none yet)
 * its address and "Connect store", which installs our app on it through
 * Shopify and comes back here (decision 029).
 */
export default function ShopifyStore({ payment }: { payment: PaymentChoice }) {
  const [connecting, setConnecting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!payment.signedIn) return <p className="muted billing-pay-with__note">Log in and connect your Shopify store: Shopify bills the plan to your store.</p>;
  if (payment.stores === null) return <p className="muted billing-pay-with__note">Loading your Shopify stores…</p>;
  if (payment.stores.length > 0)
    return (
      <div className="billing-pay-with__shop">
        <label htmlFor="shopify-shop">Shopify store</label>
        <select id="shopify-shop" value={payment.storeId} onChange={(event) => payment.setStoreId(event.target.value)} aria-describedby="shopify-store-help">
          {payment.stores.map((store) => (
            <option key={store.id} value={store.id}>
              {store.status === "reauth" ? `${store.shopName} (needs reconnecting)` : store.shopName}
            </option>
          ))}
        </select>
        <p id="shopify-store-help" className="muted">
          Shopify bills the plan to this store; you approve the charge in Shopify and come back here.
        </p>
      </div>
    );
  async function connect(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setConnecting(true);
    try {
      await connectShopifyStore(payment.shopDomain, "/pricing?payWith=shopify");
    } catch (caught) {
      setError(serverMessage(caught) ?? "We were unable to connect your Shopify store. Please try again.");
      setConnecting(false);
    }
  }
  return (
    <form className="billing-pay-with__shop" onSubmit={connect} aria-describedby="shopify-connect-help">
      <label htmlFor="shopify-shop">Your Shopify store address</label>
      <input
        id="shopify-shop"
        type="text"
        inputMode="url"
        autoComplete="off"
        spellCheck={false}
        placeholder="your-store.myshopify.com"
        value={payment.shopDomain}
        onChange={(event) => payment.setShopDomain(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-errormessage={error ? "shopify-connect-error" : undefined}
        required
      />
      <button type="submit" className="button button--ghost" disabled={connecting}>
        {connecting ? "Connecting…" : "Connect store"}
      </button>
      {error && (
        <p id="shopify-connect-error" className="billing-notice billing-notice--error" role="alert">
          {error}
        </p>
      )}
      <p id="shopify-connect-help" className="muted">
        Connect your store first: Shopify asks you to install our app on it, then bills the plan to your store.
      </p>
    </form>
  );
}
