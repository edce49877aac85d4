import type { useSearchParams } from "@remix-run/react";
import { useEffect, useState, type MutableRefObject } from "react";
import { PROVIDER_RETURN_PARAMS } from "../../../contracts/billing-paypal-shopify.ts";
import { activatePayPalSubscription, activateShopifySubscription, serverMessage, startPayPalSubscription, startShopifySubscription } from "./billing-api.ts";
import type { Notice } from "./notice.tsx";

/**
 * Paying for a plan on /pricing with PayPal or Shopify instead of a card
 * (Stripe stays the default): the choice, the start (the browser goes to
 * PayPal's approval page or Shopify's confirmation page) and the activation
 * when the provider sends the user back. See docs/decisions/014-paypal-shopify.md.
 */

export type PaymentMethod = "card" | "paypal" | "shopify";

const METHODS: { value: PaymentMethod; label: string }[] = [
  { value: "card", label: "Card" },
  { value: "paypal", label: "PayPal" },
  { value: "shopify", label: "Shopify" },
];

export interface PaymentChoice {
  method: PaymentMethod;
  setMethod: (method: PaymentMethod) => void;
  /** The Shopify store billed (your-store.myshopify.com) and its Admin API access token. */
  shop: string;
  setShop: (shop: string) => void;
  accessToken: string;
  setAccessToken: (token: string) => void;
}

export function usePaymentMethod(initial: string | null): PaymentChoice {
  const [method, setMethod] = useState<PaymentMethod>(initial === "paypal" || initial === "shopify" ? initial : "card");
  const [shop, setShop] = useState("");
  const [accessToken, setAccessToken] = useState("");
  return { method, setMethod, shop, setShop, accessToken, setAccessToken };
}

/** Starts a PayPal or Shopify subscription and sends the browser to approve it; answers the notice to show when it could not. */
export async function startProviderPayment(payment: PaymentChoice, planId: string): Promise<Notice | null> {
  if (payment.method === "paypal") {
    try {
      const { approvalLink } = await startPayPalSubscription(planId, "/pricing");
      window.location.assign(approvalLink);
      return null;
    } catch (error) {
      return { kind: "error", text: "Error making payment", detail: serverMessage(error) };
    }
  }
  if (!payment.shop.trim() || !payment.accessToken.trim()) {
    document.getElementById("shopify-shop")?.focus();
    return { kind: "error", text: "Enter your Shopify store domain and its access token to pay with Shopify." };
  }
  try {
    const { confirmationUrl } = await startShopifySubscription({ planId, shop: payment.shop.trim(), accessToken: payment.accessToken.trim(), returnUrl: "/pricing" });
    window.location.assign(confirmationUrl);
    return null;
  } catch (error) {
    // Section 8, Shopify start: the server's text is the message ('Request timed out. Please try again.' ...).
    return { kind: "error", text: serverMessage(error) ?? "Error making payment" };
  }
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
    // onActivated and setNotice are stable in what they do; the return is handled once.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [searchParams, setSearchParams, user]);
}

/** "Pay with": Card (Stripe Checkout, the default), PayPal or Shopify (with the store to bill). */
export function PaymentMethodPicker({ payment }: { payment: PaymentChoice }) {
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
        <div className="billing-pay-with__shop">
          <label htmlFor="shopify-shop">Shopify store domain</label>
          <input
            id="shopify-shop"
            type="text"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            placeholder="your-store.myshopify.com"
            value={payment.shop}
            onChange={(event) => payment.setShop(event.target.value)}
            required
          />
          <label htmlFor="shopify-token">Store access token</label>
          <input
            id="shopify-token"
            type="password"
            autoComplete="off"
            spellCheck={false}
            aria-describedby="shopify-token-help"
            value={payment.accessToken}
            onChange={(event) => payment.setAccessToken(event.target.value)}
            required
          />
          <p id="shopify-token-help" className="muted">
            The Admin API access token of your store (shpat_…). Shopify bills the plan to your store; you approve the charge in Shopify and come back here.
          </p>
        </div>
      )}
    </fieldset>
  );
}
