import { useState } from "react";
import { SHOP_TYPES, type ShopType } from "../../../contracts/shops/shops.ts";
import { needsStoreAddress, startShopConnection } from "../../lib/shops/api.ts";
import { NameDialog } from "../generator/name-dialog.tsx";
import { Spinner } from "../spinner.tsx";

const ADDRESS_PROMPTS: Record<ShopType, { label: string; placeholder: string; hint: string }> = {
  Etsy: { label: "", placeholder: "", hint: "" },
  Shopify: {
    label: "Your Shopify store's address",
    placeholder: "yourstore.myshopify.com",
    hint: "You approve the connection in your Shopify admin and come back here.",
  },
  WooCommerce: {
    label: "Your WordPress site's address",
    placeholder: "https://yourshop.com",
    hint: "The address your WooCommerce shop opens at, which is your WordPress site's (for example https://yourshop.com). You approve the connection in your WordPress admin and come back here.",
  },
};

/**
 * Connect (or reconnect) a shop: Etsy goes straight to Etsy; Shopify and
 * WooCommerce first ask for the store's address. A connection that cannot
 * start says why.
 */
export function useShopConnect() {
  const [asking, setAsking] = useState<{ shopType: ShopType; initial: string } | null>(null);
  const [starting, setStarting] = useState<ShopType | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function start(shopType: ShopType, storeAddress?: string) {
    setError(null);
    setStarting(shopType);
    try {
      await startShopConnection(shopType, storeAddress ? { storeAddress } : {});
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setStarting(null);
    }
  }

  /** Starts connecting a kind of shop (`address`: a reconnected shop's own address, offered in the dialog). */
  function connect(shopType: ShopType, address = "") {
    if (needsStoreAddress(shopType)) setAsking({ shopType, initial: address });
    else void start(shopType);
  }

  const prompt = asking ? ADDRESS_PROMPTS[asking.shopType] : null;
  const dialog = (
    <NameDialog
      open={asking !== null}
      title={asking ? `Connect your ${asking.shopType} store` : ""}
      label={prompt?.label ?? ""}
      placeholder={prompt?.placeholder}
      hint={prompt?.hint}
      initial={asking?.initial ?? ""}
      submitLabel="Connect"
      maxLength={255}
      emptyMessage="Please enter your store's address."
      onCancel={() => setAsking(null)}
      onSubmit={async (address) => {
        const shopType = asking!.shopType;
        setAsking(null);
        await start(shopType, address);
      }}
    />
  );
  return { connect, starting, error, dialog };
}

export type ShopConnect = ReturnType<typeof useShopConnect>;

/** The three connect buttons of 'Add your shop'. */
export function ShopConnectors({ connector }: { connector: ShopConnect }) {
  return (
    <div className="shop-connectors">
      <ul className="shop-connectors__list" aria-label="Connect a shop">
        {SHOP_TYPES.map((shopType) => (
          <li key={shopType}>
            <button
              type="button"
              className={`button button--ghost shop-connect shop-connect--${shopType.toLowerCase()}`}
              disabled={connector.starting !== null}
              onClick={() => connector.connect(shopType)}
            >
              {connector.starting === shopType ? <Spinner label={`Connecting ${shopType}`} /> : <span className="shop-connect__mark" aria-hidden="true" />}
              Connect {shopType}
            </button>
          </li>
        ))}
      </ul>
      {connector.error ? (
        <p className="notice notice--error" role="alert">
          {connector.error}
        </p>
      ) : null}
      {connector.dialog}
    </div>
  );
}
