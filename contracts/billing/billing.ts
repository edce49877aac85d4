import * as v from "valibot";
import { body, PlanId } from "../fields.ts";

/** Request bodies and answers of the Stripe calls (spec section 7, Subscriptions and payments). */

const stripeId = (field: string, prefix: string, what: string) =>
  v.pipe(
    v.string(`${field} is required`),
    v.trim(),
    v.nonEmpty(`${field} is required`),
    v.maxLength(255, `${field} is too long`),
    v.regex(new RegExp(`^${prefix}_[A-Za-z0-9_]+$`), `${field} must be ${what} (${prefix}_...)`),
  );
const returnUrl = v.pipe(v.string("returnUrl must be text"), v.trim(), v.nonEmpty("returnUrl is required"), v.maxLength(2048, "returnUrl is too long"));

/** POST /api/stripeSubscriptions/startStripeSubscription -> {redirectUrl} */
export const StartStripeSubscriptionBody = body({
  planId: PlanId("planId"),
  /** A page of this site to come back to (default /pricing); gets paymentMessage and session_id added. */
  returnUrl: v.optional(returnUrl),
});

/** POST /api/stripeSubscriptions/activateStripeSubscription -> {profileUpdates, paymentDetails} */
export const ActivateStripeSubscriptionBody = body({
  session_id: stripeId("session_id", "cs", "a Stripe checkout session id"),
  affiliateID: v.optional(v.nullable(v.pipe(v.string("affiliateID must be text"), v.trim(), v.maxLength(100, "affiliateID is too long")))),
});

/** POST /api/stripeSubscriptions/cancelStripeSubscription -> {message, profileUpdates} */
export const CancelStripeSubscriptionBody = body({
  subscriptionID: stripeId("subscriptionID", "sub", "a Stripe subscription id"),
  cancelReason: v.pipe(v.string("cancelReason is required"), v.trim(), v.nonEmpty("cancelReason is required"), v.maxLength(1000, "cancelReason is too long")),
});

/** POST /api/stripeSubscriptions/reactivateStripeSubscription -> {message, profileUpdates}: undoes a cancellation before the period ends. */
export const ReactivateStripeSubscriptionBody = body({
  subscriptionID: stripeId("subscriptionID", "sub", "a Stripe subscription id"),
});

/** POST /api/stripeSubscriptions/reviseStripeSubscription -> {message, profileUpdates} */
export const ReviseStripeSubscriptionBody = body({
  subscriptionID: stripeId("subscriptionID", "sub", "a Stripe subscription id"),
  newStripePriceID: stripeId("newStripePriceID", "price", "a Stripe price id"),
  newPlanId: PlanId("newPlanId"),
});

/** POST /api/stripeSubscriptions/startStripeOnceOffPayment -> {redirectUrl} */
export const StartStripeOnceOffPaymentBody = body({
  stripePriceID: stripeId("stripePriceID", "price", "a Stripe price id"),
  planId: PlanId("planId"),
  returnUrl,
});

/** The user credential fields a plan change touches, as GET /api/user carries them. */
export interface ProfileUpdates {
  planId: string;
  planStatus: string;
  cancelSubscriptionDate: string | null;
  usedFreeTrial: boolean;
}

/** What was paid for, as the activation answers it (dates ISO). */
export interface PaymentDetails {
  provider: "stripe";
  sessionId: string;
  /** The Stripe subscription (sub_...); null for a once-off payment. */
  subscriptionID: string | null;
  planId: string;
  planName: string;
  /** Paid at checkout, in currency units (0 during a free trial). */
  amount: number;
  currency: string;
  status: string;
  periodStart: string;
  periodEnd: string | null;
  trialEnd: string | null;
}

export const SUBSCRIPTION_CANCELED_MESSAGE = "Your subscription has been canceled.";
export const SUBSCRIPTION_SWITCHED_MESSAGE = "Your subscription has been switched";
