import { and, eq } from "drizzle-orm";
import type * as v from "valibot";
import { SUBSCRIPTION_CANCELED_MESSAGE, SUBSCRIPTION_SWITCHED_MESSAGE, type ProfileUpdates } from "../../../contracts/billing/billing.ts";
import {
  isPayPalTrialPlan,
  PAYPAL_CONFIRM_SWITCH_MESSAGE,
  PAYPAL_PLAN_IDS,
  PAYPAL_TRIAL_PLAN_IDS,
  planIdOfPayPalPlan,
  regularCycleSequence,
  SUBSCRIPTION_REACTIVATED_MESSAGE,
  SUBSCRIPTION_SUSPENDED_MESSAGE,
  type ActivatePayPalSubscriptionBody,
  type CancelPayPalSubscriptionBody,
  type PayPalActionAnswer,
  type PayPalApprovalAnswer,
  type PayPalStartAnswer,
  type RevisePayPalSubscriptionBody,
  type StartPayPalSubscriptionBody,
} from "../../../contracts/billing/billing-paypal-shopify.ts";
import { database } from "../../db/client.ts";
import { billingCustomers, subscriptions, users } from "../../db/schema.ts";
import { boughtCurrentPeriod, isPayPalDisputeLost } from "../../domain/payment-reversals.ts";
import { addMonths, isRecordLive, isRecurringPlan, trialDaysFor } from "../../domain/plans.ts";
import { adjustedPrice, PARITY_PERCENTAGES, parityOfCharge, pricingParity } from "../../domain/pricing-parity.ts";
import type { Env } from "../../env.ts";
import { ProviderError } from "../../integrations/http.ts";
import * as paypal from "../../integrations/paypal.ts";
import type { User } from "../accounts/accounts.ts";
import {
  claimWebhookEvent,
  findPlanRecord,
  offeredParitiesOf,
  planRecordsOf,
  releaseWebhookEvent,
  returnPageOf,
  withOfferedParity,
  savePlanRecord,
  type PlanRecordInput,
  type PlanRecordRow,
} from "./billing.ts";
import { planById, type Plan } from "./plan-lookups.ts";
import { recordPayPalSaleCommission } from "../growth/affiliates.ts";
import { sendReceiptOnce } from "./billing-emails.ts";
import { ServiceError } from "../core/errors.ts";
import { applyPaymentReversals, type PaymentReversalReport } from "./payment-reversals.ts";
import { rewardReferrerOfPayer } from "../growth/referrals.ts";

/**
 * PayPal subscriptions (spec section 7; docs/decisions/014-paypal-shopify.md).
 * The server creates the subscription (startPayPalSubscription); activation re-reads the
 * subscription from PayPal and binds it to the caller. Every action re-reads
 * the subscription afterwards and reports it through savePlanRecord, so plan
 * state and credits behave exactly as with Stripe.
 */

const NO_SUCH_SUBSCRIPTION = "No such subscription";
export const PAYPAL_UNAVAILABLE = "PayPal is unavailable, please try again.";
const DAY = 86_400_000;
/** Record statuses of a PayPal subscription that PayPal has ACTIVE (in its free trial or paying). */
const RUNNING = new Set(["active", "trialing"]);

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
 * Stripe subscription cancelled at period end. On a plan with a free trial
 * it is "trialing" (like Stripe's) until its first payment.
 */
function recordOf(subscription: paypal.PayPalSubscription, plan: Plan, known: PlanRecordRow | null, now: number): PlanRecordInput {
  const startedAt = known?.startedAt ?? ms(subscription.start_time) ?? ms(subscription.create_time) ?? now;
  const lastPayment = ms(subscription.billing_info?.last_payment?.time);
  const statusChanged = ms(subscription.status_update_time);
  // The credit month runs from the last payment (or the start). A re-activation continues the month
  // already paid for, with what was spent in it: suspending and re-activating never buys a fresh
  // month of credits (decision 014).
  const periodStart = lastPayment ?? startedAt;
  const nextBilling = ms(subscription.billing_info?.next_billing_time);
  const periodEnd = nextBilling ?? known?.periodEnd ?? periodStart + (plan.billingPeriod === "year" ? 365 : 30) * DAY;
  const trialDays = Number(plan.freeTrialDays);
  const trialEnd =
    isPayPalTrialPlan(subscription.plan_id) && trialDays > 0
      ? nextBilling !== null && lastPayment === null
        ? nextBilling
        : startedAt + trialDays * DAY
      : null;
  const record = {
    provider: "paypal" as const,
    providerRef: subscription.id,
    kind: "subscription" as const,
    planId: plan.id,
    startedAt,
    periodStart,
    trialEnd,
  };
  switch (subscription.status) {
    case "ACTIVE":
      return {
        ...record,
        status: trialEnd !== null && lastPayment === null && trialEnd > now ? "trialing" : "active",
        periodEnd,
        cancelAtPeriodEnd: false,
        endedAt: null,
      };
    case "SUSPENDED":
      // Not live while suspended: the moment it stopped is where the Free credit month starts.
      return {
        ...record,
        status: "suspended",
        periodEnd,
        cancelAtPeriodEnd: false,
        endedAt: statusChanged ?? (known?.status === "suspended" ? known.endedAt : null) ?? now,
      };
    case "CANCELLED":
    case "EXPIRED": {
      // PayPal drops next_billing_time on cancel: the period paid for ends at the latest of the one we
      // knew and a cycle from the last payment PayPal reports. A renewal whose webhook has not reached
      // us yet (late, or our endpoint down) moved the last payment on: the period we knew is then a
      // cycle behind, and alone would end (or shorten) a period PayPal was just paid for.
      const lastPayment = ms(subscription.billing_info?.last_payment?.time);
      const cycleEnd = lastPayment === null ? null : addMonths(lastPayment, plan.billingPeriod === "year" ? 12 : 1);
      const candidates = [known?.periodEnd ?? null, nextBilling, cycleEnd].filter((end): end is number => end !== null);
      const paidThrough = candidates.length > 0 ? Math.max(...candidates) : null;
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
  const subscription = await paypalCall("reading a subscription", () => paypal.getSubscription(env, input.subscriptionID, { withPlan: true }));
  if (subscription.custom_id && subscription.custom_id !== user.id) throw new ServiceError(404, NO_SUCH_SUBSCRIPTION);
  if (subscription.plan_id !== paypalPlanId && subscription.plan_id !== PAYPAL_TRIAL_PLAN_IDS[input.planId])
    throw new ServiceError(400, `This PayPal subscription is not for the ${plan.name} plan.`, "planId");
  if (subscription.status !== "ACTIVE") throw new ServiceError(400, "This PayPal subscription is not active.", "subscriptionID");
  const now = Date.now();
  const known = await findPlanRecord(env, user.id, "paypal", subscription.id);
  if (!known) {
    const refused = await notOffered(env, user.id, subscription, plan);
    if (refused) throw new ServiceError(400, refused, "subscriptionID");
  }
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
  if (!RUNNING.has(record.status) || record.cancelAtPeriodEnd) throw new ServiceError(409, "Only an active subscription can be suspended.");
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
  if (!RUNNING.has(record.status) || record.cancelAtPeriodEnd) throw new ServiceError(409, "Only an active subscription can be switched.");
  if (record.planId === plan.id) throw new ServiceError(400, "You are already on this plan.", "newPlanId");
  const { returnUrl, cancelUrl } = paypalReturnUrls(env, undefined, plan);
  // The switch keeps the subscription's pricing parity: the new plan, less the same percentage.
  const current = await paypalCall("reading a subscription", () => paypal.getSubscription(env, input.subscriptionID, { withPlan: true }));
  const currentPlan = await planOfPayPalPlan(env, current.plan_id);
  const charged = paypal.regularPrice(current);
  const percent = currentPlan && charged !== null ? (parityOfCharge(currentPlan.price, charged, PARITY_PERCENTAGES) ?? 0) : 0;
  const revised = await paypalCall("switching a subscription's plan", () =>
    paypal.reviseSubscription(env, input.subscriptionID, {
      planId: input.newPlanPayPalID,
      returnUrl,
      cancelUrl,
      plan: parityOverride(plan, input.newPlanPayPalID, percent),
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

/** A page of this site to come back to from PayPal: provider=paypal, planId and paymentMessage are added. */
function paypalReturnUrls(env: Env, returnUrl: string | undefined, plan: Plan): { returnUrl: string; cancelUrl: string } {
  const url = returnPageOf(env, returnUrl, "/pricing", [
    "provider",
    "planId",
    "paymentMessage",
    "subscription_id",
    "ba_token",
    "token",
    "session_id",
    "charge_id",
  ]);
  url.searchParams.set("provider", "paypal");
  url.searchParams.set("planId", plan.id);
  const success = new URL(url);
  success.searchParams.set("paymentMessage", "success");
  const cancel = new URL(url);
  cancel.searchParams.set("paymentMessage", "cancel");
  return { returnUrl: success.toString(), cancelUrl: cancel.toString() };
}

/**
 * POST /api/subscriptions/startPayPalSubscription: creates the subscription in
 * PayPal (custom_id = the caller) and answers the link where the payer approves
 * it. PayPal sends them back with subscription_id; activateUserSubscription (or
 * the webhook, if they never come back) makes it theirs.
 */
export async function startPayPalSubscription(
  env: Env,
  user: User,
  input: v.InferOutput<typeof StartPayPalSubscriptionBody>,
  country: string | null,
): Promise<PayPalStartAnswer> {
  const plan = await planById(env, input.planId);
  if (!plan || !isRecurringPlan(plan) || !PAYPAL_PLAN_IDS[input.planId]) throw new ServiceError(400, "planId must be a monthly or annual plan", "planId");
  const urls = paypalReturnUrls(env, input.returnUrl, plan);
  const now = Date.now();
  // Months granted by a redeem code or a friend's referral do not renew: paying for a plan takes over from them (as with Stripe).
  const granted = new Set(["code", "referral"]);
  if ((await planRecordsOf(env, user.id)).some((record) => record.kind === "subscription" && !granted.has(record.provider) && isRecordLive(record, now)))
    throw new ServiceError(409, "You already have an active subscription. Switch plans from Manage subscription instead.");
  // The plan button rule's free trial: the plan's PayPal twin with a TRIAL cycle first.
  const trialPlanId = trialDaysFor(plan, user) > 0 ? PAYPAL_TRIAL_PLAN_IDS[plan.id] : undefined;
  const paypalPlanId = trialPlanId ?? PAYPAL_PLAN_IDS[plan.id];
  // Pricing parity of the edge's country, charged through PayPal's plan override.
  const { percentageAdjustment } = pricingParity(country);
  if (percentageAdjustment > 0) await rememberOfferedParity(env, user.id, percentageAdjustment);
  const created = await paypalCall("creating a subscription", () =>
    paypal.createSubscription(env, { planId: paypalPlanId, customId: user.id, ...urls, plan: parityOverride(plan, paypalPlanId, percentageAdjustment) }),
  );
  const approvalLink = paypal.approveLink(created.links);
  if (!approvalLink) {
    console.error("PayPal created a subscription without an approve link", { subscription: created.id });
    throw new ServiceError(502, PAYPAL_UNAVAILABLE);
  }
  return { approvalLink, subscriptionID: created.id };
}

/** PayPal's plan override charging the plan's price less `percent` on every REGULAR cycle; none at full price. */
function parityOverride(plan: Plan, paypalPlanId: string, percent: number): paypal.PayPalPlanOverride | undefined {
  if (percent <= 0) return undefined;
  const value = adjustedPrice(plan.price, { percentageAdjustment: percent }).toFixed(2);
  return {
    billing_cycles: [{ sequence: regularCycleSequence(paypalPlanId), total_cycles: 0, pricing_scheme: { fixed_price: { value, currency_code: "USD" } } }],
  };
}

/** Records that the user was offered `percent` off at a PayPal start (billing_customers, provider paypal). */
async function rememberOfferedParity(env: Env, userId: string, percent: number): Promise<void> {
  const db = database(env.DB);
  const row = await db.query.billingCustomers.findFirst({ where: and(eq(billingCustomers.userId, userId), eq(billingCustomers.provider, "paypal")) });
  const customerRef = withOfferedParity(userId, offeredParitiesOf(row?.customerRef), percent);
  await db
    .insert(billingCustomers)
    .values({ userId, provider: "paypal", customerRef })
    .onConflictDoUpdate({ target: [billingCustomers.userId, billingCustomers.provider], set: { customerRef } });
}

/**
 * Why a subscription nobody holds yet cannot become this user's, or null when it can: its price
 * must be the plan's less a parity we offered them (full price always is), and a free trial is
 * only for a user who has not used one.
 */
async function notOffered(env: Env, userId: string, subscription: paypal.PayPalSubscription, plan: Plan): Promise<string | null> {
  const db = database(env.DB);
  const [row, user] = await Promise.all([
    db.query.billingCustomers.findFirst({ where: and(eq(billingCustomers.userId, userId), eq(billingCustomers.provider, "paypal")) }),
    db.query.users.findFirst({ where: eq(users.id, userId), columns: { usedFreeTrial: true } }),
  ]);
  const charged = paypal.regularPrice(subscription) ?? (subscription.plan_overridden ? null : plan.price);
  if (charged === null || parityOfCharge(plan.price, charged, offeredParitiesOf(row?.customerRef)) === null) {
    console.warn("PayPal subscription at a price we did not offer refused", { subscription: subscription.id, plan: plan.id, charged });
    return "This PayPal subscription is not at a price we offered you.";
  }
  if (isPayPalTrialPlan(subscription.plan_id) && user?.usedFreeTrial) return "This PayPal subscription has a free trial, and you have already used yours.";
  return null;
}

// ---------------------------------------------------------------------------
// Webhook

/** The PayPal events applied; any other verified event is acknowledged and ignored. */
const SUBSCRIPTION_EVENTS = new Set([
  "BILLING.SUBSCRIPTION.ACTIVATED",
  "BILLING.SUBSCRIPTION.RE-ACTIVATED",
  "BILLING.SUBSCRIPTION.UPDATED",
  "BILLING.SUBSCRIPTION.CANCELLED",
  "BILLING.SUBSCRIPTION.SUSPENDED",
  "BILLING.SUBSCRIPTION.EXPIRED",
  "BILLING.SUBSCRIPTION.PAYMENT.FAILED",
  "PAYMENT.SALE.COMPLETED",
]);

export type PayPalWebhookOutcome = { received: true; duplicate?: true };

interface PayPalEvent {
  id: string;
  event_type: string;
  resource_type?: string;
  resource: Record<string, unknown>;
}

function parseEvent(payload: string): PayPalEvent | null {
  try {
    const event = JSON.parse(payload) as Partial<PayPalEvent>;
    if (typeof event.id !== "string" || !event.id || typeof event.event_type !== "string" || !event.resource || typeof event.resource !== "object") return null;
    return event as PayPalEvent;
  } catch {
    return null;
  }
}

/**
 * POST /api/paypal/webhook. Each delivery is checked by PayPal itself
 * (verify-webhook-signature with our PAYPAL_WEBHOOK_ID): 400 and nothing applied
 * unless PayPal answers SUCCESS. Each event id is applied once; what an event
 * is about is re-read from PayPal, so late, repeated or reordered deliveries
 * leave the state PayPal has now. A failure gives the event back (5xx) so
 * PayPal's retry applies it.
 */
export async function handlePayPalWebhook(env: Env, transmission: paypal.PayPalTransmission, payload: string): Promise<PayPalWebhookOutcome> {
  const event = parseEvent(payload);
  if (!event) throw new ServiceError(400, "Invalid PayPal event");
  if (!env.PAYPAL_WEBHOOK_ID) throw new Error("PAYPAL_WEBHOOK_ID must be configured to accept PayPal webhooks");
  let verified: boolean;
  try {
    verified = await paypal.verifyWebhookSignature(env, env.PAYPAL_WEBHOOK_ID, transmission, payload);
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    if (error.status === 400 || error.status === 422) {
      console.warn("PayPal refused to verify a webhook delivery", error.message);
      verified = false;
    } else {
      console.warn("PayPal could not verify a webhook delivery now", error.message);
      throw new ServiceError(503, PAYPAL_UNAVAILABLE);
    }
  }
  if (!verified) {
    console.warn("PayPal webhook that PayPal did not verify refused", { event: event.id, type: event.event_type });
    throw new ServiceError(400, "Invalid PayPal signature");
  }
  if (!(await claimWebhookEvent(env, "paypal", event.id, event.event_type))) return { received: true, duplicate: true };
  try {
    await applyPayPalEvent(env, event);
  } catch (error) {
    await releaseWebhookEvent(env, "paypal", event.id);
    throw error;
  }
  return { received: true };
}

/** Refunds, reversals (chargebacks) and disputes of a subscription's sales (decision 077). */
const REVERSAL_EVENTS = new Set([
  "PAYMENT.SALE.REFUNDED",
  "PAYMENT.SALE.REVERSED",
  "CUSTOMER.DISPUTE.CREATED",
  "CUSTOMER.DISPUTE.UPDATED",
  "CUSTOMER.DISPUTE.RESOLVED",
]);
const PAYPAL_ID = /^[A-Za-z0-9-]{1,64}$/;

async function applyPayPalEvent(env: Env, event: PayPalEvent): Promise<void> {
  if (REVERSAL_EVENTS.has(event.event_type)) return applyPayPalReversalEvent(env, event);
  if (!SUBSCRIPTION_EVENTS.has(event.event_type)) return;
  const ref = event.event_type === "PAYMENT.SALE.COMPLETED" ? event.resource.billing_agreement_id : event.resource.id;
  // A sale without a billing agreement is a one-off payment, not a subscription's.
  if (typeof ref !== "string" || !/^I-[A-Z0-9]+$/.test(ref)) return;
  let subscription: paypal.PayPalSubscription;
  try {
    subscription = await paypal.getSubscription(env, ref, { withPlan: true });
  } catch (error) {
    if (error instanceof ProviderError && error.status === 404) {
      console.warn("PayPal webhook about a subscription PayPal does not know ignored", { event: event.id, subscription: ref });
      return;
    }
    throw error;
  }
  const plan = await planOfPayPalPlan(env, subscription.plan_id);
  if (!plan) {
    console.error("PayPal subscription with a plan that is not one of ours ignored", { subscription: subscription.id, plan: subscription.plan_id });
    return;
  }
  const owner = await webhookOwnerOf(env, subscription);
  if (!owner) {
    console.warn("PayPal webhook about a subscription of nobody we know ignored", { event: event.id, subscription: subscription.id });
    return;
  }
  const now = Date.now();
  const known = await findPlanRecord(env, owner, "paypal", subscription.id);
  if (!known) {
    const refused = await notOffered(env, owner, subscription, plan);
    if (refused) {
      console.warn("PayPal webhook about a subscription we did not offer ignored", { event: event.id, subscription: subscription.id, refused });
      return;
    }
  }
  const record = recordOf(subscription, plan, known, now);
  await savePlanRecord(env, owner, record, now);
  // Affiliate programme (issue 16): the commission of a subscription's sale, once per sale id.
  if (event.event_type === "PAYMENT.SALE.COMPLETED") await recordPayPalSaleCommission(env, owner, plan, event.resource);
  if (event.event_type === "PAYMENT.SALE.COMPLETED") await sendSaleReceipt(env, owner, plan, event.resource, record.periodEnd);
  // A completed sale of the subscription is money taken: a referred user's first payment earns their referrer's credit.
  const sale = event.resource as { id?: unknown; amount?: { total?: unknown } };
  if (event.event_type === "PAYMENT.SALE.COMPLETED" && typeof sale.id === "string") {
    await rewardReferrerOfPayer(env, owner, async () => (Number(sale.amount?.total) > 0 ? `paypal:${sale.id}` : null), now);
  }
}

/** A PayPal read that answers null for what PayPal does not have (404). */
async function unlessMissing<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof ProviderError && error.status === 404) return null;
    throw error;
  }
}

/**
 * A refund, reversal or dispute event (decision 077): what it is about is re-read from PayPal (the refund,
 * the dispute, the sale), then the sale's losses are applied: each refund that completed, a sale PayPal
 * refunded in full or reversed (a chargeback decided for the buyer), a dispute resolved in the buyer's
 * favour. An open dispute, or one resolved for us, takes nothing.
 */
async function applyPayPalReversalEvent(env: Env, event: PayPalEvent): Promise<void> {
  const reversals: PaymentReversalReport["reversals"] = [];
  let saleIds: string[] = [];
  if (event.event_type.startsWith("CUSTOMER.DISPUTE.")) {
    const disputeId = event.resource.dispute_id;
    if (typeof disputeId !== "string" || !PAYPAL_ID.test(disputeId)) return;
    const dispute = await unlessMissing(() => paypal.getDispute(env, disputeId));
    if (!dispute) return;
    saleIds = (dispute.disputed_transactions ?? [])
      .map((transaction) => transaction.seller_transaction_id)
      .filter((id): id is string => typeof id === "string" && PAYPAL_ID.test(id));
    if (isPayPalDisputeLost(dispute)) {
      const amount = Math.round(Number(dispute.dispute_amount?.value) * 100);
      reversals.push({
        ref: dispute.dispute_id,
        kind: "dispute",
        amountCents: Number.isFinite(amount) ? amount : 0,
        at: ms(dispute.create_time) ?? Date.now(),
      });
    }
  } else {
    const refundId = event.resource.id;
    const saleId = event.resource.sale_id;
    if (typeof saleId !== "string" || !PAYPAL_ID.test(saleId)) return;
    saleIds = [saleId];
    if (event.event_type === "PAYMENT.SALE.REFUNDED" && typeof refundId === "string" && PAYPAL_ID.test(refundId)) {
      const refund = await unlessMissing(() => paypal.getRefund(env, refundId));
      if (refund && refund.state === "completed" && refund.sale_id === saleId) {
        reversals.push({
          ref: refund.id,
          kind: "refund",
          amountCents: Math.round(Number(refund.amount.total) * 100),
          at: ms(refund.create_time) ?? Date.now(),
        });
      }
    }
  }
  for (const saleId of saleIds) await applyPayPalSaleReversals(env, saleId, reversals);
}

/** A sale re-read and what was taken back of it applied to the subscription payment it was. */
async function applyPayPalSaleReversals(env: Env, saleId: string, known: PaymentReversalReport["reversals"]): Promise<void> {
  const sale = await unlessMissing(() => paypal.getSale(env, saleId));
  const agreement = sale?.billing_agreement_id;
  if (!sale || typeof agreement !== "string" || !/^I-[A-Z0-9]+$/.test(agreement)) {
    console.warn("PayPal refund or dispute of a sale that is not a subscription's ignored", { sale: saleId });
    return;
  }
  const subscription = await unlessMissing(() => paypal.getSubscription(env, agreement));
  const owner = subscription ? await webhookOwnerOf(env, subscription) : null;
  if (!subscription || !owner) {
    console.warn("PayPal refund or dispute of a subscription of nobody we know ignored", { sale: saleId, subscription: agreement });
    return;
  }
  const paymentCents = Math.round(Number(sale.amount.total) * 100);
  const at = ms(sale.update_time) ?? ms(sale.create_time) ?? Date.now();
  const reversals = [...known];
  // PayPal says the whole sale is gone: refunded in full, or reversed for a chargeback.
  if (sale.state === "refunded") reversals.push({ ref: `${sale.id}:refunded`, kind: "refund", amountCents: paymentCents, at });
  if (sale.state === "reversed") reversals.push({ ref: `${sale.id}:reversed`, kind: "dispute", amountCents: paymentCents, at });
  const paidAt = ms(sale.create_time);
  await applyPaymentReversals(env, {
    provider: "paypal",
    paymentRef: sale.id,
    userId: owner,
    paymentCents,
    currency: sale.amount.currency,
    reversals,
    bought: paidAt === null ? null : { providerRef: subscription.id, periodStart: paidAt },
    endSubscription: async () => {
      const lastPayment = ms(subscription.billing_info?.last_payment?.time);
      if (paidAt === null || lastPayment === null || !boughtCurrentPeriod(paidAt, lastPayment)) return;
      if (subscription.status !== "ACTIVE" && subscription.status !== "SUSPENDED") return;
      await paypal.cancelSubscription(env, subscription.id, "The payment of its current period was refunded or disputed.");
    },
  });
}

/**
 * Whose subscription a webhook is about: the user it is bound to, else (the
 * payer approved it but never came back) the user we created it for, named by
 * custom_id, once PayPal has activated it.
 */
async function webhookOwnerOf(env: Env, subscription: paypal.PayPalSubscription): Promise<string | null> {
  const bound = await ownerOf(env, subscription.id);
  if (bound) return bound;
  if (!subscription.custom_id || subscription.status === "APPROVAL_PENDING" || subscription.status === "APPROVED") return null;
  const user = await database(env.DB).query.users.findFirst({ where: eq(users.id, subscription.custom_id), columns: { id: true } });
  return user?.id ?? null;
}

/** The receipt of a subscription's completed sale (decision 082), once per sale id. */
async function sendSaleReceipt(env: Env, userId: string, plan: Plan, resource: Record<string, unknown>, paidUntil: number | null): Promise<void> {
  const sale = paypal.saleOf(resource);
  if (!sale) return;
  await sendReceiptOnce(env, userId, {
    provider: "paypal",
    planId: plan.id,
    amount: sale.total,
    currency: sale.currency,
    paidAt: sale.createdAt ?? Date.now(),
    paidUntil,
    paymentReference: sale.id,
  });
}
