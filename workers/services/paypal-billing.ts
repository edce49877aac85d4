import { and, eq } from "drizzle-orm";
import type * as v from "valibot";
import { SUBSCRIPTION_CANCELED_MESSAGE, SUBSCRIPTION_SWITCHED_MESSAGE, type ProfileUpdates } from "../../contracts/billing.ts";
import {
  PAYPAL_CONFIRM_SWITCH_MESSAGE,
  PAYPAL_PLAN_IDS,
  planIdOfPayPalPlan,
  SUBSCRIPTION_REACTIVATED_MESSAGE,
  SUBSCRIPTION_SUSPENDED_MESSAGE,
  type ActivatePayPalSubscriptionBody,
  type CancelPayPalSubscriptionBody,
  type PayPalActionAnswer,
  type PayPalApprovalAnswer,
  type RevisePayPalSubscriptionBody,
} from "../../contracts/billing-paypal-shopify.ts";
import { database } from "../db/client.ts";
import { subscriptions } from "../db/schema.ts";
import { isRecurringPlan } from "../domain/plans.ts";
import type { Env } from "../env.ts";
import { ProviderError } from "../integrations/http.ts";
import * as paypal from "../integrations/paypal.ts";
import type { User } from "./accounts.ts";
import { findPlanRecord, planById, savePlanRecord, type Plan, type PlanRecordInput, type PlanRecordRow } from "./billing.ts";
import { ServiceError } from "./errors.ts";

/**
 * PayPal subscriptions (spec section 7; docs/decisions/014-paypal-shopify.md).
 * The browser subscribes with PayPal's button; activation re-reads the
 * subscription from PayPal and binds it to the caller. Every action re-reads
 * the subscription afterwards and reports it through savePlanRecord, so plan
 * state and credits behave exactly as with Stripe.
 */

const NO_SUCH_SUBSCRIPTION = "No such subscription";
export const PAYPAL_UNAVAILABLE = "PayPal is unavailable, please try again.";
const DAY = 86_400_000;

/** A PayPal call, its failures turned into what the caller should see. */
async function paypalCall<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    if (error.status === 404) throw new ServiceError(404, NO_SUCH_SUBSCRIPTION);
    if (error.status === 422) throw new ServiceError(409, paypalIssue(error.body) ?? `PayPal refused ${what}.`);
    if (error.retryable) console.warn(`PayPal unavailable: ${what}`, error.message);
    else console.error(`PayPal refused ${what}`, error.message);
    throw new ServiceError(502, PAYPAL_UNAVAILABLE);
  }
}

/** PayPal's description of a refused request ({name, details: [{issue, description}]}). */
function paypalIssue(body: string): string | null {
  try {
    const parsed = JSON.parse(body) as {
      message?: string;
      details?: { issue?: string; description?: string }[];
    };
    return parsed.details?.[0]?.description ?? parsed.message ?? null;
  } catch {
    return null;
  }
}

const ms = (iso: string | undefined) => {
  const value = iso ? Date.parse(iso) : Number.NaN;
  return Number.isFinite(value) ? value : null;
};

/**
 * What a PayPal subscription means as a plan record. A cancelled one stays
 * usable until the time already paid for (the period end we knew), like a
 * Stripe subscription cancelled at period end.
 */
function recordOf(subscription: paypal.PayPalSubscription, plan: Plan, known: PlanRecordRow | null, now: number): PlanRecordInput {
  const startedAt = known?.startedAt ?? ms(subscription.start_time) ?? ms(subscription.create_time) ?? now;
  const periodStart = ms(subscription.billing_info?.last_payment?.time) ?? startedAt;
  const nextBilling = ms(subscription.billing_info?.next_billing_time);
  const periodEnd = nextBilling ?? known?.periodEnd ?? periodStart + (plan.billingPeriod === "year" ? 365 : 30) * DAY;
  const record = {
    provider: "paypal" as const,
    providerRef: subscription.id,
    kind: "subscription" as const,
    planId: plan.id,
    startedAt,
    periodStart,
    trialEnd: null,
  };
  switch (subscription.status) {
    case "ACTIVE":
      return {
        ...record,
        status: "active",
        periodEnd,
        cancelAtPeriodEnd: false,
        endedAt: null,
      };
    case "SUSPENDED":
      return {
        ...record,
        status: "suspended",
        periodEnd,
        cancelAtPeriodEnd: false,
        endedAt: null,
      };
    case "CANCELLED":
    case "EXPIRED": {
      const paidThrough = known?.periodEnd ?? nextBilling;
      if (subscription.status === "CANCELLED" && paidThrough !== null && paidThrough > now) {
        return {
          ...record,
          status: "active",
          periodEnd: paidThrough,
          cancelAtPeriodEnd: true,
          endedAt: null,
        };
      }
      return {
        ...record,
        status: "canceled",
        periodEnd: paidThrough ?? now,
        cancelAtPeriodEnd: false,
        endedAt: ms(subscription.status_update_time) ?? now,
      };
    }
    default:
      return {
        ...record,
        status: "incomplete",
        periodEnd,
        cancelAtPeriodEnd: false,
        endedAt: null,
      };
  }
}

async function planOfPayPalPlan(env: Env, paypalPlanId: string): Promise<Plan | null> {
  const planId = planIdOfPayPalPlan(paypalPlanId);
  return planId ? planById(env, planId) : null;
}

/** Whose PayPal subscription this is, or null when nobody has it yet. */
async function ownerOf(env: Env, subscriptionID: string): Promise<string | null> {
  const row = await database(env.DB).query.subscriptions.findFirst({
    where: and(eq(subscriptions.provider, "paypal"), eq(subscriptions.providerRef, subscriptionID)),
    columns: { userId: true },
  });
  return row?.userId ?? null;
}

/** Re-reads the subscription from PayPal and saves it as the user's record. */
async function sync(env: Env, userId: string, subscriptionID: string, extra: { cancelReason?: string } = {}): Promise<ProfileUpdates> {
  const subscription = await paypalCall("reading a subscription", () => paypal.getSubscription(env, subscriptionID));
  const plan = await planOfPayPalPlan(env, subscription.plan_id);
  if (!plan) {
    console.error("PayPal subscription with a plan that is not one of ours", {
      subscription: subscription.id,
      plan: subscription.plan_id,
    });
    throw new ServiceError(502, PAYPAL_UNAVAILABLE);
  }
  const now = Date.now();
  const known = await findPlanRecord(env, userId, "paypal", subscriptionID);
  return savePlanRecord(
    env,
    userId,
    {
      ...recordOf(subscription, plan, known, now),
      cancelReason: extra.cancelReason ?? null,
    },
    now,
  );
}

async function ownedSubscription(env: Env, user: User, subscriptionID: string): Promise<PlanRecordRow> {
  const record = await findPlanRecord(env, user.id, "paypal", subscriptionID);
  if (!record) throw new ServiceError(404, NO_SUCH_SUBSCRIPTION);
  return record;
}

/**
 * POST /api/subscriptions/activateUserSubscription: the payer approved a
 * subscription with PayPal's button. It is read from PayPal, must be ACTIVE and
 * for the plan, and nobody else's; it becomes the caller's. Idempotent.
 */
export async function activatePayPalSubscription(
  env: Env,
  user: User,
  input: v.InferOutput<typeof ActivatePayPalSubscriptionBody>,
): Promise<{
  message: string;
  profileUpdates: ProfileUpdates;
  paymentDetails: {
    provider: "paypal";
    subscriptionID: string;
    planId: string;
    planName: string;
    status: string;
    nextBillingTime: string | null;
  };
}> {
  const plan = await planById(env, input.planId);
  const paypalPlanId = PAYPAL_PLAN_IDS[input.planId];
  if (!plan || !isRecurringPlan(plan) || !paypalPlanId) throw new ServiceError(400, "planId must be a monthly or annual plan", "planId");
  const owner = await ownerOf(env, input.subscriptionID);
  if (owner && owner !== user.id) throw new ServiceError(404, NO_SUCH_SUBSCRIPTION);
  const subscription = await paypalCall("reading a subscription", () => paypal.getSubscription(env, input.subscriptionID));
  if (subscription.custom_id && subscription.custom_id !== user.id) throw new ServiceError(404, NO_SUCH_SUBSCRIPTION);
  if (subscription.plan_id !== paypalPlanId) throw new ServiceError(400, `This PayPal subscription is not for the ${plan.name} plan.`, "planId");
  if (subscription.status !== "ACTIVE") throw new ServiceError(400, "This PayPal subscription is not active.", "subscriptionID");
  const now = Date.now();
  const known = await findPlanRecord(env, user.id, "paypal", subscription.id);
  const profileUpdates = await savePlanRecord(env, user.id, recordOf(subscription, plan, known, now), now);
  // Two users racing for one subscription: the first record wins, the other is refused.
  if (!(await findPlanRecord(env, user.id, "paypal", subscription.id))) throw new ServiceError(404, NO_SUCH_SUBSCRIPTION);
  return {
    message: "Your subscription is active.",
    profileUpdates,
    paymentDetails: {
      provider: "paypal",
      subscriptionID: subscription.id,
      planId: plan.id,
      planName: plan.name,
      status: subscription.status,
      nextBillingTime: subscription.billing_info?.next_billing_time ?? null,
    },
  };
}

/** POST /api/subscriptions/cancelSubscription: PayPal stops billing; the plan stays until the time paid for. */
export async function cancelPayPalSubscription(env: Env, user: User, input: v.InferOutput<typeof CancelPayPalSubscriptionBody>): Promise<PayPalActionAnswer> {
  const record = await ownedSubscription(env, user, input.subscriptionID);
  if (record.status === "canceled" || record.cancelAtPeriodEnd) throw new ServiceError(409, "This subscription has already been cancelled.");
  await paypalCall("cancelling a subscription", () => paypal.cancelSubscription(env, input.subscriptionID, input.cancelReason));
  return {
    message: SUBSCRIPTION_CANCELED_MESSAGE,
    profileUpdates: await sync(env, user.id, input.subscriptionID, {
      cancelReason: input.cancelReason,
    }),
  };
}

/** POST /api/subscriptions/suspendSubscription: PayPal pauses billing; the plan is off until reactivated. */
export async function suspendPayPalSubscription(env: Env, user: User, subscriptionID: string): Promise<PayPalActionAnswer> {
  const record = await ownedSubscription(env, user, subscriptionID);
  if (record.status !== "active" || record.cancelAtPeriodEnd) throw new ServiceError(409, "Only an active subscription can be suspended.");
  await paypalCall("suspending a subscription", () => paypal.suspendSubscription(env, subscriptionID, "Suspended by the subscriber"));
  return {
    message: SUBSCRIPTION_SUSPENDED_MESSAGE,
    profileUpdates: await sync(env, user.id, subscriptionID),
  };
}

/** POST /api/subscriptions/reactivateSubscription: PayPal resumes a suspended subscription. */
export async function reactivatePayPalSubscription(env: Env, user: User, subscriptionID: string): Promise<PayPalActionAnswer> {
  const record = await ownedSubscription(env, user, subscriptionID);
  if (record.status !== "suspended") throw new ServiceError(409, "Only a suspended subscription can be re-activated.");
  await paypalCall("re-activating a subscription", () => paypal.activateSubscription(env, subscriptionID, "Re-activated by the subscriber"));
  return {
    message: SUBSCRIPTION_REACTIVATED_MESSAGE,
    profileUpdates: await sync(env, user.id, subscriptionID),
  };
}

/**
 * POST /api/subscriptions/revise: switches the subscription's PayPal plan.
 * When PayPal answers an approve link the payer must approve the switch there
 * (answered as {approvalLink}, HTTP 202); coming back, the client activates the
 * subscription for the new plan. Any other success means the switch is done.
 */
export async function revisePayPalSubscription(
  env: Env,
  user: User,
  input: v.InferOutput<typeof RevisePayPalSubscriptionBody>,
): Promise<{ status: 200; body: PayPalActionAnswer } | { status: 202; body: PayPalApprovalAnswer }> {
  const plan = await planById(env, input.newPlanId);
  if (!plan || !isRecurringPlan(plan) || !PAYPAL_PLAN_IDS[plan.id]) throw new ServiceError(400, "newPlanId must be a monthly or annual plan", "newPlanId");
  if (PAYPAL_PLAN_IDS[plan.id] !== input.newPlanPayPalID)
    throw new ServiceError(400, `newPlanPayPalID is not the PayPal plan of the ${plan.name} plan`, "newPlanPayPalID");
  const record = await ownedSubscription(env, user, input.subscriptionID);
  if (record.status !== "active" || record.cancelAtPeriodEnd) throw new ServiceError(409, "Only an active subscription can be switched.");
  if (record.planId === plan.id) throw new ServiceError(400, "You are already on this plan.", "newPlanId");
  const back = new URL("/pricing", env.APP_URL);
  back.searchParams.set("provider", "paypal");
  back.searchParams.set("planId", plan.id);
  const returnUrl = new URL(back);
  returnUrl.searchParams.set("paymentMessage", "success");
  const cancelUrl = new URL(back);
  cancelUrl.searchParams.set("paymentMessage", "cancel");
  const revised = await paypalCall("switching a subscription's plan", () =>
    paypal.reviseSubscription(env, input.subscriptionID, {
      planId: input.newPlanPayPalID,
      returnUrl: returnUrl.toString(),
      cancelUrl: cancelUrl.toString(),
    }),
  );
  const approvalLink = paypal.approveLink(revised.links);
  if (approvalLink)
    return {
      status: 202,
      body: { approvalLink, message: PAYPAL_CONFIRM_SWITCH_MESSAGE },
    };
  return {
    status: 200,
    body: {
      message: SUBSCRIPTION_SWITCHED_MESSAGE,
      profileUpdates: await sync(env, user.id, input.subscriptionID),
    },
  };
}
