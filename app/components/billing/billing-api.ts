import type { CreditsSummary } from "../../../contracts/billing/credits.ts";
import type { CurrentSubscriptionAnswer, LifetimePlan, PlanChangePreview, PlanInfo, RedeemResult } from "../../../contracts/billing/plans-api.ts";
import { apiJson, serverMessage } from "../../lib/api-client.ts";
import type { Toaster, ToastOptions } from "../shell/toast.tsx";

/** The billing calls the pricing, lifetime, redeem-code and Manage subscription pages make. */

export const getPlans = () => apiJson<PlanInfo[]>("/api/subscriptions/getPlans");
export const getLifetimePlans = () => apiJson<LifetimePlan[]>("/api/subscriptions/getLifetimePlans");
export const getCredits = () => apiJson<CreditsSummary>("/api/user/credits");
export const getCurrentSubscriptionAnswer = () => apiJson<CurrentSubscriptionAnswer>("/api/subscriptions/current");
export const getCurrentSubscription = () => getCurrentSubscriptionAnswer().then((body) => body.subscription);

export const startSubscription = (planId: string, returnUrl: string) =>
  apiJson<{ redirectUrl: string }>("/api/stripeSubscriptions/startStripeSubscription", { json: { planId, returnUrl } });
export const activateSubscription = (sessionId: string, affiliateID: string | null) =>
  apiJson<{ paymentDetails: { planName: string } }>("/api/stripeSubscriptions/activateStripeSubscription", { json: { session_id: sessionId, affiliateID } });
export const startLifetimePayment = (plan: LifetimePlan, returnUrl: string) =>
  apiJson<{ redirectUrl: string }>("/api/stripeSubscriptions/startStripeOnceOffPayment", {
    json: { stripePriceID: plan.stripePriceID, planId: plan.planId, returnUrl },
  });
export const activateLifetime = (sessionId: string, planId: string) =>
  apiJson<{ paymentDetails: { planName: string } }>("/api/subscriptions/activateLifetimePurchase", { json: { session_id: sessionId, planId } });
export const cancelSubscription = (subscriptionID: string, cancelReason: string) =>
  apiJson<{ message: string }>("/api/stripeSubscriptions/cancelStripeSubscription", { json: { subscriptionID, cancelReason } });
export const reviseSubscription = (subscriptionID: string, plan: PlanInfo) =>
  apiJson<{ message: string }>("/api/stripeSubscriptions/reviseStripeSubscription", {
    json: { subscriptionID, newStripePriceID: plan.stripePriceID, newPlanId: plan.planId },
  });
export const redeemCode = (redemptionCode: string) => apiJson<RedeemResult>("/api/subscriptions/redeemPurchaseCode", { json: { redemptionCode } });
export const reactivateSubscription = (subscriptionID: string) =>
  apiJson<{ message: string }>("/api/stripeSubscriptions/reactivateStripeSubscription", { json: { subscriptionID } });

/** What taking a plan (or redeeming a code) would do to the user's plan and credits, in words with dates in the browser's time zone. */
export function getPlanChangePreview(target: { planId: string } | { redemptionCode: string }) {
  const query = new URLSearchParams({ ...target, timeZone: browserTimeZone() });
  return apiJson<PlanChangePreview>(`/api/subscriptions/planChangePreview?${query}`);
}

function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

export { serverMessage };

/**
 * Runs one call a person asked for and says how it went: a success toast made from its result, or an error
 * toast titled `failed` with the server's words (else "Please try again."). Answers whether it succeeded;
 * the caller's own clean-up (busy state, confirmations, reloading) follows it either way.
 */
export async function toastedCall<T>(
  toast: Toaster,
  call: () => Promise<T>,
  done: (result: T) => Omit<ToastOptions, "kind">,
  failed: string,
): Promise<boolean> {
  try {
    const result = await call();
    toast({ kind: "success", ...done(result) });
    return true;
  } catch (error) {
    toast({ kind: "error", title: failed, description: serverMessage(error) ?? "Please try again." });
    return false;
  }
}

/** A day as people write it ("2 January 2027"), in the browser's time zone: for parts drawn in the browser only. */
export function longDate(iso: string): string {
  return new Date(iso).toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric" });
}

/** The query parameters a checkout return carries, removed once handled (the URL is cleaned). */
export const PAYMENT_PARAMS = ["paymentMessage", "session_id", "planId"];

export const REFUND_NOTE = "Refunds are not offered. When you cancel, your plan stays active until the end of the period you paid for.";

// PayPal and Shopify (contracts/billing/billing-paypal-shopify.ts).
export const startPayPalSubscription = (planId: string, returnUrl: string) =>
  apiJson<{ approvalLink: string; subscriptionID: string }>("/api/subscriptions/startPayPalSubscription", { json: { planId, returnUrl } });
export const activatePayPalSubscription = (subscriptionID: string, planId: string) =>
  apiJson<{ paymentDetails: { planName: string } }>("/api/subscriptions/activateUserSubscription", { json: { subscriptionID, planId } });
export const cancelPayPalSubscription = (subscriptionID: string, cancelReason: string) =>
  apiJson<{ message: string }>("/api/subscriptions/cancelSubscription", { json: { subscriptionID, cancelReason } });
export const suspendPayPalSubscription = (subscriptionID: string) =>
  apiJson<{ message: string }>("/api/subscriptions/suspendSubscription", { json: { subscriptionID } });
export const reactivatePayPalSubscription = (subscriptionID: string) =>
  apiJson<{ message: string }>("/api/subscriptions/reactivateSubscription", { json: { subscriptionID } });
/** 202 {approvalLink, message}: the payer must approve the switch in PayPal; otherwise {message}: done. */
export const revisePayPalSubscription = (subscriptionID: string, plan: PlanInfo, newPlanPayPalID: string) =>
  apiJson<{ message: string; approvalLink?: string }>("/api/subscriptions/revise", {
    json: { subscriptionID, newPlanPayPalID, newPlanName: plan.planName, newPlanId: plan.planId },
  });
export const startShopifySubscription = (input: { planId: string; shopID: string; returnUrl: string }) =>
  apiJson<{ confirmationUrl: string }>("/api/shopifySubscriptions/startSubscription", { json: input });
export const activateShopifySubscription = (chargeId: string) =>
  apiJson<{ planName: string; amount: number }>("/api/shopifySubscriptions/activateShopifySubscription", { json: { chargeId } });
export const cancelShopifySubscription = (subscriptionID: string, cancelReason: string) =>
  apiJson<{ message: string }>("/api/shopifySubscriptions/cancelShopifySubscription", { json: { subscriptionID, cancelReason } });
