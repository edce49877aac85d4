import { SHOPIFY_CONNECT_FIRST_MESSAGE } from "../../../contracts/billing/billing-paypal-shopify.ts";
import { serverMessage, startPayPalSubscription, startShopifySubscription } from "./billing-api.ts";
import type { Notice } from "./notice.tsx";
import type { PaymentChoice } from "./payment-methods.tsx";

/** Paying with PayPal or Shopify (docs/decisions/014-paypal-shopify.md): loaded when a plan is started that way (./payment-methods.tsx). */

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
  if (!payment.storeId) {
    document.getElementById("shopify-shop")?.focus();
    return { kind: "error", text: SHOPIFY_CONNECT_FIRST_MESSAGE };
  }
  try {
    const { confirmationUrl } = await startShopifySubscription({ planId, shopID: payment.storeId, returnUrl: "/pricing" });
    window.location.assign(confirmationUrl);
    return null;
  } catch (error) {
    // Section 8, Shopify start: the server's text is the message ('Request timed out. Please try again.' ...).
    return { kind: "error", text: serverMessage(error) ?? "Error making payment" };
  }
}
