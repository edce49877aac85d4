import type { useSearchParams } from "@remix-run/react";
import { useEffect, useState, type MutableRefObject } from "react";
import { AfterHydration } from "../auth/after-hydration.tsx";
import { PROVIDER_RETURN_PARAMS } from "../../../contracts/billing/billing-paypal-shopify.ts";
import type { ShopProfileView } from "../../../contracts/shops/shops.ts";
import { activatePayPalSubscription, activateShopifySubscription, serverMessage } from "./billing-api.ts";
import type { Notice } from "./notice.tsx";
import { lazyWithTimeout } from "../lazy-part.tsx";

/**
 * Paying for a plan on /pricing with PayPal or Shopify instead of a card
 * (Stripe stays the default): the choice, the start (the browser goes to
 * PayPal's approval page or Shopify's confirmation page) and the activation
 * when the provider sends the user back. See docs/decisions/014-paypal-shopify.md.
 */

export type PaymentMethod = "card" | "paypal" | "shopify";

/** Only for paying with Shopify: loaded when that is chosen (issue 17's JavaScript budget). */
const ShopifyStore = lazyWithTimeout(() => import("./shopify-store.tsx"));

/** Starts a PayPal or Shopify subscription and sends the browser to approve it; answers the notice to show when it could not. Its code loads on the click. */
export async function startProviderPayment(payment: PaymentChoice, planId: string): Promise<Notice | null> {
  const { startProviderPayment: start } = await import("./provider-payments.ts");
  return start(payment, planId);
}

const METHODS: { value: PaymentMethod; label: string }[] = [
  { value: "card", label: "Card" },
  { value: "paypal", label: "PayPal" },
  { value: "shopify", label: "Shopify" },
];

export interface PaymentChoice {
  method: PaymentMethod;
  setMethod: (method: PaymentMethod) => void;
  /** The user's connected Shopify stores (null while loading or signed out) and the one to bill. */
  stores: ShopProfileView[] | null;
  storeId: string;
  setStoreId: (id: string) => void;
  /** The store address typed to connect a store (your-store.myshopify.com). */
  shopDomain: string;
  setShopDomain: (shop: string) => void;
  signedIn: boolean;
}

export function usePaymentMethod(initial: string | null, signedIn: boolean): PaymentChoice {
  const [method, setMethod] = useState<PaymentMethod>(initial === "paypal" || initial === "shopify" ? initial : "card");
  const [stores, setStores] = useState<ShopProfileView[] | null>(null);
  const [storeId, setStoreId] = useState("");
  const [shopDomain, setShopDomain] = useState("");
  useEffect(() => {
    if (method !== "shopify" || !signedIn || stores) return;
    let current = true;
    import("../../lib/shops/shopify-connect.ts")
      .then(({ shopifyStores }) => shopifyStores())
      .then((found) => {
        if (!current) return;
        setStores(found);
        setStoreId((found.find((store) => store.isActive) ?? found[found.length - 1])?.id ?? "");
      })
      .catch(() => current && setStores([]));
    return () => {
      current = false;
    };
  }, [method, signedIn, stores]);
  return { method, setMethod, stores, storeId, setStoreId, shopDomain, setShopDomain, signedIn };
}

type SearchParams = ReturnType<typeof useSearchParams>;

/**
 * Back from PayPal (provider=paypal, planId, paymentMessage, subscription_id) or
 * Shopify (provider=shopify, planId, charge_id): activates the subscription or
 * says the payment was cancelled, then cleans the URL.
 */
export function useProviderReturn(input: {
  user: unknown;
  searchParams: SearchParams[0];
  setSearchParams: SearchParams[1];
  handledReturn: MutableRefObject<boolean>;
  setNotice: (notice: Notice) => void;
  onActivated: () => void;
}) {
  const { user, searchParams, setSearchParams, handledReturn, setNotice, onActivated } = input;
  // biome-ignore lint/correctness/useExhaustiveDependencies: handledReturn is a ref, onActivated and setNotice are stable in what they do; the return is handled once.
  useEffect(() => {
    const provider = searchParams.get("provider");
    if ((provider !== "paypal" && provider !== "shopify") || handledReturn.current || !user) return;
    handledReturn.current = true;
    const clean = () =>
      setSearchParams(
        (params) => {
          for (const name of PROVIDER_RETURN_PARAMS) params.delete(name);
          return params;
        },
        { replace: true, preventScrollReset: true },
      );
    if (searchParams.get("paymentMessage") === "cancel") {
      setNotice({ kind: "info", text: "Payment cancelled" });
      clean();
      return;
    }
    const planId = searchParams.get("planId");
    const subscriptionId = searchParams.get("subscription_id");
    const chargeId = searchParams.get("charge_id");
    const activation =
      provider === "paypal"
        ? subscriptionId && planId
          ? activatePayPalSubscription(subscriptionId, planId).then((answer) => answer.paymentDetails.planName)
          : null
        : chargeId
          ? activateShopifySubscription(chargeId).then((answer) => answer.planName)
          : null;
    if (!activation) {
      setNotice({ kind: "error", text: "There was an error activating your subscription." });
      clean();
      return;
    }
    setNotice({ kind: "info", text: "Activating your subscription…" });
    activation
      .then((planName) => {
        setNotice({ kind: "success", text: `Your subscription is active: welcome to the ${planName} plan!` });
        onActivated();
      })
      .catch((error) => setNotice({ kind: "error", text: "There was an error activating your subscription.", detail: serverMessage(error) }))
      .finally(clean);
  }, [searchParams, setSearchParams, user]);
}

/** "Pay with": Card (Stripe Checkout, the default), PayPal or Shopify (with the store to bill). */
export function PaymentMethodPicker({ payment }: { payment: PaymentChoice }) {
  // The store picker's code loads only in the browser (AfterHydration).
  return (
    <fieldset className="billing-pay-with">
      <legend className="billing-pay-with__legend">Pay with</legend>
      <div className="billing-switch billing-pay-with__options">
        {METHODS.map(({ value, label }) => (
          <label key={value} className={`billing-switch__option${payment.method === value ? " billing-switch__option--on" : ""}`}>
            <input type="radio" name="payWith" value={value} checked={payment.method === value} onChange={() => payment.setMethod(value)} />
            {label}
          </label>
        ))}
      </div>
      {payment.method === "paypal" && (
        <p className="muted billing-pay-with__note">
          You approve the subscription in PayPal and come back here. PayPal bills the price shown, after the free trial when the plan offers you one.
        </p>
      )}
      {payment.method === "shopify" && (
        <AfterHydration fallback={<p className="muted billing-pay-with__note">Loading your Shopify stores…</p>}>
          <ShopifyStore payment={payment} />
        </AfterHydration>
      )}
    </fieldset>
  );
}
