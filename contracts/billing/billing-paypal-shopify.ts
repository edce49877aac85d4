import * as v from "valibot";
import type { ProfileUpdates } from "./billing.ts";
import { body, PlanId } from "../fields.ts";
import { ShopId } from "../shops/shops.ts";

/**
 * Request bodies and answers of the PayPal and Shopify subscription calls
 * (spec section 7, Subscriptions and payments; messages of section 8).
 * See docs/decisions/014-paypal-shopify.md.
 */

/**
 * Each recurring plan's billing plan in PayPal (P-...). The PayPal stand-in
 * serves plans with these ids; for a live PayPal account, put the ids of its
 * plans here. The client sends the new plan's id as newPlanPayPalID.
 */
export const PAYPAL_PLAN_IDS: Readonly<Record<string, string>> = {
  "starter-monthly": "P-STARTERMONTHLY0000000001",
  "starter-annual": "P-STARTERANNUAL00000000001",
  "pro-monthly": "P-PROMONTHLY000000000000001",
  "pro-annual": "P-PROANNUAL0000000000000001",
  "growth-monthly": "P-GROWTHMONTHLY00000000001",
  "growth-annual": "P-GROWTHANNUAL000000000001",
  "agency-monthly": "P-AGENCYMONTHLY00000000001",
  "agency-annual": "P-AGENCYANNUAL000000000001",
};

/**
 * The same plans with a free trial first: PayPal's plan structure puts a TRIAL
 * billing cycle (sequence 1, one cycle of 7 days at no charge) before the
 * REGULAR one (sequence 2). A subscription is created on one of these when the
 * plan button rule offers a trial (Agency plans have none). Put a live
 * account's P-... ids here too (docs/decisions/014-paypal-shopify.md).
 */
export const PAYPAL_TRIAL_PLAN_IDS: Readonly<Record<string, string>> = {
  "starter-monthly": "P-STARTERMONTHLYTRIAL00001",
  "starter-annual": "P-STARTERANNUALTRIAL000001",
  "pro-monthly": "P-PROMONTHLYTRIAL000000001",
  "pro-annual": "P-PROANNUALTRIAL0000000001",
  "growth-monthly": "P-GROWTHMONTHLYTRIAL000001",
  "growth-annual": "P-GROWTHANNUALTRIAL0000001",
};

/** The sequence of the REGULAR billing cycle in our PayPal plans: 2 after a trial, else 1. */
export function regularCycleSequence(paypalPlanId: string): number {
  return isPayPalTrialPlan(paypalPlanId) ? 2 : 1;
}

export function isPayPalTrialPlan(paypalPlanId: string): boolean {
  return Object.values(PAYPAL_TRIAL_PLAN_IDS).includes(paypalPlanId);
}

/** Our plan id of a PayPal plan id (with or without a trial), or null. */
export function planIdOfPayPalPlan(paypalPlanId: string): string | null {
  return (
    Object.entries(PAYPAL_PLAN_IDS).find(([, id]) => id === paypalPlanId)?.[0] ??
    Object.entries(PAYPAL_TRIAL_PLAN_IDS).find(([, id]) => id === paypalPlanId)?.[0] ??
    null
  );
}

const text = (field: string, max: number) =>
  v.pipe(v.string(`${field} is required`), v.trim(), v.nonEmpty(`${field} is required`), v.maxLength(max, `${field} is too long`));
/** PayPal subscription ids look like I-BW452GLLEP1G. */
const paypalSubscriptionId = v.pipe(text("subscriptionID", 64), v.regex(/^I-[A-Z0-9]+$/, "subscriptionID must be a PayPal subscription id (I-...)"));
const paypalPlanId = (field: string) => v.pipe(text(field, 64), v.regex(/^P-[A-Z0-9]+$/, `${field} must be a PayPal plan id (P-...)`));
const cancelReason = text("cancelReason", 1000);

/**
 * POST /api/subscriptions/startPayPalSubscription -> {approvalLink, subscriptionID}: the server
 * creates the subscription in PayPal; the browser goes to approvalLink and comes back to returnUrl
 * (default /pricing) with provider=paypal, planId, paymentMessage and subscription_id.
 */
export const StartPayPalSubscriptionBody = body({
  planId: PlanId("planId"),
  returnUrl: v.optional(text("returnUrl", 2048)),
});

export interface PayPalStartAnswer {
  approvalLink: string;
  subscriptionID: string;
}

/** The query parameters a PayPal or Shopify return carries, removed once handled (the URL is cleaned). */
export const PROVIDER_RETURN_PARAMS = ["provider", "planId", "paymentMessage", "subscription_id", "ba_token", "token", "charge_id"] as const;

/** POST /api/subscriptions/activateUserSubscription -> {message, profileUpdates, paymentDetails} */
export const ActivatePayPalSubscriptionBody = body({
  subscriptionID: paypalSubscriptionId,
  planId: PlanId("planId"),
});
/** POST /api/subscriptions/cancelSubscription -> {message, profileUpdates} */
export const CancelPayPalSubscriptionBody = body({
  subscriptionID: paypalSubscriptionId,
  cancelReason,
});
/** POST /api/subscriptions/suspendSubscription and /reactivateSubscription -> {message, profileUpdates} */
export const PayPalSubscriptionBody = body({
  subscriptionID: paypalSubscriptionId,
});
/** POST /api/subscriptions/revise -> 202 {approvalLink, message} or 200 {message, profileUpdates} */
export const RevisePayPalSubscriptionBody = body({
  subscriptionID: paypalSubscriptionId,
  newPlanPayPalID: paypalPlanId("newPlanPayPalID"),
  newPlanName: text("newPlanName", 100),
  newPlanId: PlanId("newPlanId"),
});

export const SUBSCRIPTION_SUSPENDED_MESSAGE = "Your subscription has been suspended";
export const SUBSCRIPTION_REACTIVATED_MESSAGE = "Your subscription has been re-activated";
export const SUBSCRIPTION_CANCEL_ERROR_MESSAGE = "There was an error cancelling your subscription.";
export const SUBSCRIPTION_SWITCH_ERROR_MESSAGE = "There was an error switching your subscription";
export const PAYPAL_CONFIRM_SWITCH_MESSAGE = "Please confirm the subscription switch in PayPal. If you do not do this, you will not be upgraded.";

export interface PayPalActionAnswer {
  message: string;
  profileUpdates: ProfileUpdates;
}

/** A switch PayPal wants the payer to approve (HTTP 202): the change shows about 5 minutes after approval. */
export interface PayPalApprovalAnswer {
  approvalLink: string;
  message: string;
}

/** POST /api/shopifySubscriptions/startSubscription -> {confirmationUrl}: billed to a connected Shopify store (decision 029). */
export const StartShopifySubscriptionBody = body({
  planId: PlanId("planId"),
  /** Which connected Shopify store (our id, as in authorizedShops); default the active one, else the one connected last. */
  shopID: v.optional(ShopId("shopID")),
  /** A page of this site to come back to (default /pricing); gets charge_id added by Shopify. */
  returnUrl: v.optional(text("returnUrl", 2048)),
});

/** A user with no Shopify store connected connects one first (HTTP 409, code connect_store). */
export const SHOPIFY_CONNECT_FIRST_MESSAGE = "Connect your Shopify store first, then pay with Shopify.";

/** Shopify's charge id (the AppSubscription's numeric id, or its gid). */
const shopifySubscriptionId = (field: string) =>
  v.pipe(
    v.union(
      [v.string(`${field} is required`), v.pipe(v.number(`${field} is required`), v.integer(`${field} must be a Shopify charge id`), v.transform(String))],
      `${field} is required`,
    ),
    v.string(`${field} is required`),
    v.trim(),
    v.nonEmpty(`${field} is required`),
    v.regex(/^(gid:\/\/shopify\/AppSubscription\/)?[0-9]{1,20}$/, `${field} must be a Shopify charge id`),
  );

/** POST /api/shopifySubscriptions/activateShopifySubscription -> {planName, amount, profileUpdates} */
export const ActivateShopifySubscriptionBody = body({
  chargeId: shopifySubscriptionId("chargeId"),
});
/** POST /api/shopifySubscriptions/cancelShopifySubscription -> {message, profileUpdates} */
export const CancelShopifySubscriptionBody = body({
  subscriptionID: shopifySubscriptionId("subscriptionID"),
  cancelReason,
});

export interface ShopifyActivation {
  planName: string;
  amount: number;
  currency: string;
  subscriptionID: string;
  profileUpdates: ProfileUpdates;
}

/** What the server answers as {error} when Shopify fails (section 8, Shopify start). */
export const SHOPIFY_MESSAGES = {
  graphqlPrefix: "Error creating annual subscription: ",
  expired: "Your Shopify store connection has expired. Please reconnect your store and try again.",
  forbidden: "Permission denied. Please ensure your app has the required permissions.",
  invalidPrefix: "Invalid data: ",
  network: "Network error. Please check your internet connection and try again.",
  timeout: "Request timed out. Please try again.",
} as const;
