import type * as v from "valibot";
import {
  SUBSCRIPTION_CANCELED_MESSAGE,
  SUBSCRIPTION_SWITCHED_MESSAGE,
  type ActivateStripeSubscriptionBody,
  type CancelStripeSubscriptionBody,
  type PaymentDetails,
  type ProfileUpdates,
  type ReactivateStripeSubscriptionBody,
  type ReviseStripeSubscriptionBody,
  type StartStripeOnceOffPaymentBody,
  type StartStripeSubscriptionBody,
} from "../../../contracts/billing/billing.ts";
import { boughtCurrentPeriod, isStripeDisputeLost } from "../../domain/payment-reversals.ts";
import { SUBSCRIPTION_REACTIVATED_MESSAGE } from "../../../contracts/billing/billing-paypal-shopify.ts";
import { isLifetimePlan, isRecordLive, isRecurringPlan, trialDaysFor } from "../../domain/plans.ts";
import { parityCouponId, pricingParity } from "../../domain/pricing-parity.ts";
import type { Env } from "../../env.ts";
import { Stripe, stripeClient, verifyStripeEvent } from "../../integrations/stripe.ts";
import type { User } from "../accounts/accounts.ts";
import {
  claimWebhookEvent,
  customerRefOf,
  findPlanRecord,
  planRecordsOf,
  releaseWebhookEvent,
  returnPageOf,
  saveCustomerRef,
  savePlanRecord,
  userOfCustomer,
} from "./billing.ts";
import { planById, planByStripePrice, type Plan } from "./plan-lookups.ts";
import { affiliateCheckout, recordStripeInvoicePaid } from "../growth/affiliates.ts";
import { sendReceiptOnce } from "./billing-emails.ts";
import { ServiceError } from "../core/errors.ts";
import { applyPaymentReversals, type PaymentReversalReport } from "./payment-reversals.ts";
import { creditPendingReferrals, rewardReferrerOfPayer } from "../growth/referrals.ts";

/**
 * Stripe subscriptions and the lifetime purchase (spec section 7,
 * Subscriptions and payments), and the webhook that keeps plan state true
 * when the browser never comes back. Everything Stripe says is re-read from
 * Stripe before it is applied; see docs/decisions/013-billing.md. Checkouts
 * charge the pricing parity of the visitor's country as a Stripe coupon
 * (docs/decisions/015-pricing-parity.md).
 */

export const PAYMENT_UNAVAILABLE = "The payment service is unavailable, please try again.";
const NO_SUCH_SESSION = "No such checkout session";
const NO_SUCH_SUBSCRIPTION = "No such subscription";

/** A Stripe call, its failures turned into what the caller should see. */
async function stripeCall<T>(what: string, call: () => Promise<T>, notFound?: string): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof Stripe.errors.StripeError)) throw error;
    if (notFound && error.statusCode === 404) throw new ServiceError(404, notFound);
    if (
      error instanceof Stripe.errors.StripeConnectionError ||
      error instanceof Stripe.errors.StripeAPIError ||
      error instanceof Stripe.errors.StripeRateLimitError
    ) {
      console.warn(`Stripe unavailable: ${what}`, error.message);
    } else {
      // Our request or our configuration (key, price ids) is at fault: a bug to fix.
      console.error(`Stripe refused ${what}`, { type: error.type, code: error.code, message: error.message, param: error.param });
    }
    throw new ServiceError(502, PAYMENT_UNAVAILABLE);
  }
}

/** A page of this site to come back to; paymentMessage and session_id are added to it. */
function returnBase(env: Env, returnUrl: string | undefined, fallbackPath: string): string {
  return returnPageOf(env, returnUrl, fallbackPath, ["paymentMessage", "session_id", "planId"]).toString();
}

/** Adds query text; `{CHECKOUT_SESSION_ID}` must stay literal for Stripe to fill in. */
function withQuery(base: string, query: string): string {
  return `${base}${base.includes("?") ? "&" : "?"}${query}`;
}

async function stripeCustomer(env: Env, user: User): Promise<string> {
  const known = await customerRefOf(env, user.id, "stripe");
  const customerId =
    known ??
    (await saveCustomerRef(
      env,
      user.id,
      "stripe",
      (
        await stripeCall("creating a customer", () =>
          stripeClient(env).customers.create(
            { email: user.email, name: `${user.firstName} ${user.lastName}`.trim(), metadata: { userId: user.id } },
            { idempotencyKey: `customer-${user.id}` },
          ),
        )
      ).id,
    ));
  // Referral credits earned before the user had a Stripe customer go on it now, before this checkout's invoice.
  // A failure leaves them pending for the next checkout: it never blocks paying.
  await creditPendingReferrals(env, user.id, customerId).catch((error) => console.warn("Pending referral credits not applied yet", String(error)));
  return customerId;
}

async function hasLiveStripeSubscription(env: Env, userId: string): Promise<boolean> {
  const now = Date.now();
  return (await planRecordsOf(env, userId)).some((record) => record.provider === "stripe" && record.kind === "subscription" && isRecordLive(record, now));
}

/**
 * The parity discount for a checkout from `country` (the edge's, never the
 * browser's): none at full price, else the percentage's coupon,
 * `parity-{percent}`, taking that percentage off for good. One coupon per
 * percentage, created the first time a checkout needs it and reused after.
 */
async function parityDiscounts(env: Env, country: string | null): Promise<Stripe.Checkout.SessionCreateParams.Discount[] | undefined> {
  const { percentageAdjustment } = pricingParity(country);
  if (percentageAdjustment <= 0) return undefined;
  const id = parityCouponId(percentageAdjustment);
  const stripe = stripeClient(env);
  const coupon = await stripeCall("finding or creating the pricing parity coupon", async () => {
    try {
      return await stripe.coupons.retrieve(id);
    } catch (error) {
      if (!(error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404)) throw error;
    }
    try {
      return await stripe.coupons.create({ id, percent_off: percentageAdjustment, duration: "forever", name: `Pricing parity (${percentageAdjustment}% off)` });
    } catch (error) {
      // A checkout running alongside created it first: use that one.
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === "resource_already_exists") return stripe.coupons.retrieve(id);
      throw error;
    }
  });
  if (!coupon.valid || coupon.percent_off !== percentageAdjustment || coupon.amount_off !== null || coupon.duration !== "forever") {
    // Someone changed or used up the coupon in Stripe: charging another discount than the page shows would be wrong.
    console.error("The pricing parity coupon in Stripe does not match", {
      id,
      valid: coupon.valid,
      percent_off: coupon.percent_off,
      amount_off: coupon.amount_off,
      duration: coupon.duration,
    });
    throw new ServiceError(502, PAYMENT_UNAVAILABLE);
  }
  return [{ coupon: coupon.id }];
}

/** POST /api/stripeSubscriptions/startStripeSubscription: a Checkout Session for the plan's price, less the parity of `country`. */
export async function startStripeSubscription(
  env: Env,
  user: User,
  input: v.InferOutput<typeof StartStripeSubscriptionBody>,
  country: string | null,
): Promise<{ redirectUrl: string }> {
  const plan = await planById(env, input.planId);
  if (!plan || !isRecurringPlan(plan) || !plan.stripePriceId) throw new ServiceError(400, "planId must be a monthly or annual plan", "planId");
  const base = returnBase(env, input.returnUrl, "/pricing");
  if (await hasLiveStripeSubscription(env, user.id)) {
    throw new ServiceError(409, "You already have an active subscription. Switch plans from Manage subscription instead.");
  }
  const trialDays = trialDaysFor(plan, user);
  return checkoutRedirect(env, user, plan, plan.stripePriceId, base, {
    mode: "subscription",
    discounts: await parityDiscounts(env, country),
    subscription_data: { metadata: { userId: user.id, planId: plan.id }, ...(trialDays > 0 ? { trial_period_days: trialDays } : {}) },
  });
}

/** A Checkout Session for one plan's price, for this user's customer; answers where to send the browser. */
async function checkoutRedirect(
  env: Env,
  user: User,
  plan: Plan,
  priceId: string,
  base: string,
  params: Pick<Stripe.Checkout.SessionCreateParams, "mode" | "subscription_data" | "payment_intent_data" | "discounts">,
): Promise<{ redirectUrl: string }> {
  const customer = await stripeCustomer(env, user);
  const session = await stripeCall("creating a checkout session", () =>
    stripeClient(env).checkout.sessions.create({
      ...params,
      customer,
      client_reference_id: user.id,
      line_items: [{ price: priceId, quantity: 1 }],
      metadata: { userId: user.id, planId: plan.id },
      success_url: withQuery(base, `paymentMessage=success&planId=${plan.id}&session_id={CHECKOUT_SESSION_ID}`),
      cancel_url: withQuery(base, "paymentMessage=cancel"),
    }),
  );
  if (!session.url) throw new ServiceError(502, PAYMENT_UNAVAILABLE);
  return { redirectUrl: session.url };
}

/** POST /api/stripeSubscriptions/startStripeOnceOffPayment: a Checkout Session in payment mode (Lifetime), less the parity of `country`. */
export async function startStripeOnceOffPayment(
  env: Env,
  user: User,
  input: v.InferOutput<typeof StartStripeOnceOffPaymentBody>,
  country: string | null,
): Promise<{ redirectUrl: string }> {
  const plan = await planById(env, input.planId);
  if (!plan || !isLifetimePlan(plan) || !plan.stripePriceId) throw new ServiceError(400, "planId must be a lifetime plan", "planId");
  if (input.stripePriceID !== plan.stripePriceId) throw new ServiceError(400, `stripePriceID is not the price of the ${plan.name} plan`, "stripePriceID");
  const base = returnBase(env, input.returnUrl, "/lifetime");
  const now = Date.now();
  const owned = (await planRecordsOf(env, user.id)).some((record) => record.planId === plan.id && isRecordLive(record, now));
  if (owned) throw new ServiceError(409, `You already have the ${plan.name} plan.`);
  return checkoutRedirect(env, user, plan, plan.stripePriceId, base, {
    mode: "payment",
    discounts: await parityDiscounts(env, country),
    payment_intent_data: { metadata: { userId: user.id, planId: plan.id } },
  });
}

function retrieveSession(env: Env, sessionId: string) {
  return stripeCall(
    "reading a checkout session",
    () => stripeClient(env).checkout.sessions.retrieve(sessionId, { expand: ["subscription", "line_items"] }),
    NO_SUCH_SESSION,
  );
}

function isPaid(session: Stripe.Checkout.Session): boolean {
  return session.status === "complete" && (session.payment_status === "paid" || session.payment_status === "no_payment_required");
}

const seconds = (value: number | null | undefined) => (value === null || value === undefined ? null : value * 1000);
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * POST /api/stripeSubscriptions/activateStripeSubscription: the user came back
 * from Checkout. The session is read from Stripe; it must be this user's and
 * paid. Idempotent: activating again changes nothing.
 */
export async function activateStripeSubscription(
  env: Env,
  user: User,
  input: v.InferOutput<typeof ActivateStripeSubscriptionBody>,
  visitorKey: string | null = null,
): Promise<{ profileUpdates: ProfileUpdates; paymentDetails: PaymentDetails }> {
  const session = await retrieveSession(env, input.session_id);
  if (session.client_reference_id !== user.id) throw new ServiceError(404, NO_SUCH_SESSION);
  if (!isPaid(session)) throw new ServiceError(400, "This checkout session has not been paid.", "session_id");
  const affiliateId = input.affiliateID || null;
  const applied = await applyCheckoutSession(env, user.id, session, affiliateId);
  if (!applied) throw new ServiceError(400, "This checkout session is not for a plan.", "session_id");
  // Affiliate programme (issue 16): attributes the customer and records the first charge's commission.
  await affiliateCheckout(env, user.id, { affiliateID: affiliateId, visitorKey }, session);
  return applied;
}

/** Applies a paid checkout session of this user: a subscription or a lifetime purchase. Null when it is neither. */
async function applyCheckoutSession(env: Env, userId: string, session: Stripe.Checkout.Session, affiliateId: string | null) {
  const amount = (session.amount_total ?? 0) / 100;
  const currency = session.currency ?? "usd";
  if (session.mode === "subscription" && session.subscription) {
    const subscription =
      typeof session.subscription === "string"
        ? await stripeCall("reading a subscription", () => stripeClient(env).subscriptions.retrieve(session.subscription as string), NO_SUCH_SUBSCRIPTION)
        : session.subscription;
    const synced = await syncStripeSubscription(env, subscription, { userId, affiliateId });
    if (!synced) return null;
    const { profileUpdates, plan, record } = synced;
    return {
      profileUpdates,
      paymentDetails: {
        provider: "stripe" as const,
        sessionId: session.id,
        subscriptionID: subscription.id,
        planId: plan.id,
        planName: plan.name,
        amount,
        currency,
        status: subscription.status,
        periodStart: new Date(record.periodStart).toISOString(),
        periodEnd: iso(record.periodEnd),
        trialEnd: iso(record.trialEnd),
      },
    };
  }
  if (session.mode === "payment") {
    const plan = await lifetimePlanOf(env, session);
    if (!plan) return null;
    const purchasedAt = session.created * 1000;
    const profileUpdates = await savePlanRecord(env, userId, {
      provider: "stripe",
      providerRef: session.id,
      kind: "lifetime",
      planId: plan.id,
      status: "active",
      startedAt: purchasedAt,
      periodStart: purchasedAt,
      periodEnd: null,
      cancelAtPeriodEnd: false,
      endedAt: null,
      trialEnd: null,
      affiliateId,
    });
    return {
      profileUpdates,
      paymentDetails: {
        provider: "stripe" as const,
        sessionId: session.id,
        subscriptionID: null,
        planId: plan.id,
        planName: plan.name,
        amount,
        currency,
        status: "paid",
        periodStart: new Date(purchasedAt).toISOString(),
        periodEnd: null,
        trialEnd: null,
      },
    };
  }
  return null;
}

/** The lifetime plan a payment-mode session bought: its metadata names it and its line item has the plan's price. */
async function lifetimePlanOf(env: Env, session: Stripe.Checkout.Session): Promise<Plan | null> {
  const plan = session.metadata?.planId ? await planById(env, session.metadata.planId) : null;
  if (!plan || !isLifetimePlan(plan)) return null;
  const paidPrice = session.line_items?.data[0]?.price?.id;
  if (paidPrice !== plan.stripePriceId) {
    console.error("A lifetime checkout session was paid with another price", { session: session.id, paidPrice, plan: plan.id });
    return null;
  }
  return plan;
}

/**
 * Saves what Stripe says about a subscription as the user's plan record.
 * The owner is the user the subscription's customer belongs to (and, when
 * given, must be `expected.userId`). Null when the subscription is not ours
 * or not for one of our prices.
 */
async function syncStripeSubscription(
  env: Env,
  subscription: Stripe.Subscription,
  expected: { userId?: string; affiliateId?: string | null; cancelReason?: string | null } = {},
) {
  const customerId = typeof subscription.customer === "string" ? subscription.customer : subscription.customer.id;
  const owner = await userOfCustomer(env, "stripe", customerId);
  if (!owner || (expected.userId && owner !== expected.userId)) {
    if (expected.userId) throw new ServiceError(404, NO_SUCH_SUBSCRIPTION);
    console.warn("Stripe subscription of an unknown customer ignored", { subscription: subscription.id, customer: customerId });
    return null;
  }
  const item = subscription.items.data[0];
  const plan = item ? await planByStripePrice(env, item.price.id) : null;
  if (!item || !plan) {
    console.error("Stripe subscription with a price that is not one of our plans", { subscription: subscription.id, price: item?.price.id });
    return null;
  }
  const record = {
    provider: "stripe" as const,
    providerRef: subscription.id,
    kind: "subscription" as const,
    planId: plan.id,
    status: subscription.status,
    startedAt: subscription.start_date * 1000,
    periodStart: item.current_period_start * 1000,
    periodEnd: item.current_period_end * 1000,
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
    endedAt: seconds(subscription.ended_at),
    trialEnd: seconds(subscription.trial_end),
    cancelReason: expected.cancelReason ?? null,
    affiliateId: expected.affiliateId ?? null,
    cancelledAt: seconds(subscription.canceled_at),
  };
  const profileUpdates = await savePlanRecord(env, owner, record);
  return { profileUpdates, plan, record };
}

async function ownedSubscription(env: Env, user: User, subscriptionID: string) {
  const record = await findPlanRecord(env, user.id, "stripe", subscriptionID);
  if (record?.kind !== "subscription") throw new ServiceError(404, NO_SUCH_SUBSCRIPTION);
  if (record.status === "canceled") throw new ServiceError(409, "This subscription has already ended.");
  return record;
}

/** POST /api/stripeSubscriptions/cancelStripeSubscription: cancels at the end of the paid period. */
export async function cancelStripeSubscription(
  env: Env,
  user: User,
  input: v.InferOutput<typeof CancelStripeSubscriptionBody>,
): Promise<{ message: string; profileUpdates: ProfileUpdates }> {
  await ownedSubscription(env, user, input.subscriptionID);
  const subscription = await stripeCall(
    "cancelling a subscription",
    () => stripeClient(env).subscriptions.update(input.subscriptionID, { cancel_at_period_end: true, cancellation_details: { comment: input.cancelReason } }),
    NO_SUCH_SUBSCRIPTION,
  );
  const synced = await syncStripeSubscription(env, subscription, { userId: user.id, cancelReason: input.cancelReason });
  if (!synced) throw new ServiceError(502, PAYMENT_UNAVAILABLE);
  return { message: SUBSCRIPTION_CANCELED_MESSAGE, profileUpdates: synced.profileUpdates };
}

/**
 * POST /api/stripeSubscriptions/reactivateStripeSubscription: a subscription cancelled at the end of its period,
 * which has not ended, goes on renewing (Stripe: cancel_at_period_end false). Nothing is charged now.
 */
export async function reactivateStripeSubscription(
  env: Env,
  user: User,
  input: v.InferOutput<typeof ReactivateStripeSubscriptionBody>,
): Promise<{ message: string; profileUpdates: ProfileUpdates }> {
  const record = await ownedSubscription(env, user, input.subscriptionID);
  if (!record.cancelAtPeriodEnd || !isRecordLive(record, Date.now()))
    throw new ServiceError(409, "Only a cancelled subscription that has not ended can be re-activated.");
  const subscription = await stripeCall(
    "re-activating a subscription",
    () => stripeClient(env).subscriptions.update(input.subscriptionID, { cancel_at_period_end: false }),
    NO_SUCH_SUBSCRIPTION,
  );
  const synced = await syncStripeSubscription(env, subscription, { userId: user.id });
  if (!synced) throw new ServiceError(502, PAYMENT_UNAVAILABLE);
  return { message: SUBSCRIPTION_REACTIVATED_MESSAGE, profileUpdates: synced.profileUpdates };
}

/**
 * POST /api/stripeSubscriptions/reviseStripeSubscription: switches the plan
 * now, with the price difference for the rest of the period invoiced at once
 * (a downgrade becomes a credit on the next invoice). Switching also undoes a
 * pending cancellation.
 */
export async function reviseStripeSubscription(
  env: Env,
  user: User,
  input: v.InferOutput<typeof ReviseStripeSubscriptionBody>,
): Promise<{ message: string; profileUpdates: ProfileUpdates }> {
  const plan = await planById(env, input.newPlanId);
  if (!plan || !isRecurringPlan(plan) || !plan.stripePriceId) throw new ServiceError(400, "newPlanId must be a monthly or annual plan", "newPlanId");
  if (input.newStripePriceID !== plan.stripePriceId)
    throw new ServiceError(400, `newStripePriceID is not the price of the ${plan.name} plan`, "newStripePriceID");
  const record = await ownedSubscription(env, user, input.subscriptionID);
  if (record.planId === plan.id) throw new ServiceError(400, "You are already on this plan.", "newPlanId");
  const stripe = stripeClient(env);
  const current = await stripeCall("reading a subscription", () => stripe.subscriptions.retrieve(input.subscriptionID), NO_SUCH_SUBSCRIPTION);
  const item = current.items.data[0];
  if (!item) throw new ServiceError(502, PAYMENT_UNAVAILABLE);
  const updated = await stripeCall(
    "switching a subscription's plan",
    () =>
      stripe.subscriptions.update(input.subscriptionID, {
        items: [{ id: item.id, price: input.newStripePriceID }],
        proration_behavior: "always_invoice",
        cancel_at_period_end: false,
        metadata: { userId: user.id, planId: plan.id },
      }),
    NO_SUCH_SUBSCRIPTION,
  );
  const synced = await syncStripeSubscription(env, updated, { userId: user.id });
  if (!synced) throw new ServiceError(502, PAYMENT_UNAVAILABLE);
  return { message: SUBSCRIPTION_SWITCHED_MESSAGE, profileUpdates: synced.profileUpdates };
}

// ---------------------------------------------------------------------------
// Webhook

export type WebhookOutcome = { received: true; duplicate?: true };

/**
 * POST /api/stripe/webhook. The signature is checked first (400, nothing
 * applied, when it fails); each event id is applied once; what an event is
 * about is re-read from Stripe, so late, repeated or reordered deliveries
 * leave the state Stripe has now. A failure gives the event back (500) so
 * Stripe's retry applies it.
 */
export async function handleStripeWebhook(env: Env, payload: string, signature: string): Promise<WebhookOutcome> {
  let event: Stripe.Event;
  try {
    event = await verifyStripeEvent(env, payload, signature);
  } catch (error) {
    if (error instanceof Stripe.errors.StripeSignatureVerificationError) {
      console.warn("Stripe webhook with a bad signature refused:", error.message.split("\n")[0]);
      throw new ServiceError(400, "Invalid Stripe signature");
    }
    throw error;
  }
  if (!(await claimWebhookEvent(env, "stripe", event.id, event.type))) return { received: true, duplicate: true };
  try {
    await applyStripeEvent(env, event);
  } catch (error) {
    await releaseWebhookEvent(env, "stripe", event.id);
    throw error;
  }
  return { received: true };
}

async function applyStripeEvent(env: Env, event: Stripe.Event): Promise<void> {
  const stripe = stripeClient(env);
  switch (event.type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded": {
      const session = await retrieveSession(env, event.data.object.id);
      const userId = session.client_reference_id;
      const customerId = typeof session.customer === "string" ? session.customer : session.customer?.id;
      if (!userId || !customerId || (await userOfCustomer(env, "stripe", customerId)) !== userId) {
        console.warn("Stripe checkout session of an unknown customer ignored", { session: session.id });
        return;
      }
      if (!isPaid(session)) return;
      await applyCheckoutSession(env, userId, session, null);
      // A lifetime purchase is a payment; a subscription's payments arrive as invoice.paid.
      if (session.mode === "payment") await rewardReferrerOfPayer(env, userId, async () => ((session.amount_total ?? 0) > 0 ? session.id : null));
      if (session.mode === "payment") await sendPurchaseReceipt(env, userId, session);
      return;
    }
    case "customer.subscription.created":
    case "customer.subscription.updated":
    case "customer.subscription.deleted":
    case "customer.subscription.paused":
    case "customer.subscription.resumed": {
      const subscription = await stripeCall("reading a subscription", () => stripe.subscriptions.retrieve(event.data.object.id));
      await syncStripeSubscription(env, subscription);
      return;
    }
    case "invoice.paid":
    case "invoice.payment_failed": {
      // A renewal (invoice.paid for a new period) starts the month's credits afresh: the sync grants them.
      const parent = event.data.object.parent;
      const ref = parent?.subscription_details?.subscription;
      const subscriptionId = typeof ref === "string" ? ref : ref?.id;
      if (!subscriptionId) return;
      const subscription = await stripeCall("reading a subscription", () => stripe.subscriptions.retrieve(subscriptionId));
      const synced = await syncStripeSubscription(env, subscription);
      // Affiliate programme (issue 16): the commission of a paid invoice, once per invoice id.
      if (event.type === "invoice.paid") await recordStripeInvoicePaid(env, event.data.object);
      const invoiceId = event.data.object.id;
      if (event.type !== "invoice.paid" || !synced || !invoiceId) return;
      const owner = await userOfCustomer(env, "stripe", typeof subscription.customer === "string" ? subscription.customer : subscription.customer.id);
      // Money taken (not a $0 trial invoice): a referred user's first payment earns their referrer's credit.
      if (owner) {
        await rewardReferrerOfPayer(env, owner, async () => {
          const invoice = await stripeCall("reading an invoice", () => stripe.invoices.retrieve(invoiceId));
          return invoice.status === "paid" && invoice.amount_paid > 0 ? invoiceId : null;
        });
        await sendInvoiceReceipt(env, owner, invoiceId, synced);
      }
      return;
    }
    case "charge.refunded":
    case "charge.refund.updated":
    case "charge.dispute.created":
    case "charge.dispute.updated":
    case "charge.dispute.closed":
    case "charge.dispute.funds_withdrawn":
    case "charge.dispute.funds_reinstated": {
      // Refunds and disputes (decision 077): the charge, its refunds and disputes are re-read, whichever event came.
      const object = event.data.object as { object: string; id: string; charge?: string | { id: string } | null };
      const charge = object.object === "charge" ? object.id : typeof object.charge === "string" ? object.charge : object.charge?.id;
      if (charge) await applyStripeChargeReversals(env, charge);
      return;
    }
    default:
      return;
  }
}

/**
 * What was taken back of a charge, re-read from Stripe (decision 077): its refunds that succeeded and its
 * disputes that were lost, applied to the payment the charge paid: a subscription's invoice (the period its
 * subscription line bought) or a lifetime purchase's checkout session. Charges of nobody we know, or of
 * nothing we sold, are ignored.
 */
async function applyStripeChargeReversals(env: Env, chargeId: string): Promise<void> {
  const stripe = stripeClient(env);
  const charge = await stripeCall("reading a charge", () => stripe.charges.retrieve(chargeId, { expand: ["refunds"] }));
  const customerId = typeof charge.customer === "string" ? charge.customer : charge.customer?.id;
  const owner = customerId ? await userOfCustomer(env, "stripe", customerId) : null;
  const intent = typeof charge.payment_intent === "string" ? charge.payment_intent : charge.payment_intent?.id;
  if (!owner || !intent) {
    console.warn("Stripe charge of an unknown customer or without a payment ignored", { charge: chargeId });
    return;
  }
  const payment = await stripePaymentOf(env, intent);
  if (!payment) {
    console.warn("Stripe charge that paid for none of our plans ignored", { charge: chargeId });
    return;
  }
  const disputes = await stripeCall("listing a charge's disputes", () => stripe.disputes.list({ charge: chargeId, limit: 100 }));
  const reversals: PaymentReversalReport["reversals"] = [
    ...(charge.refunds?.data ?? [])
      .filter((refund) => refund.status === "succeeded")
      .map((refund) => ({ ref: refund.id, kind: "refund" as const, amountCents: refund.amount, at: refund.created * 1000 })),
    ...disputes.data
      .filter((dispute) => isStripeDisputeLost(dispute.status))
      .map((dispute) => ({ ref: dispute.id, kind: "dispute" as const, amountCents: dispute.amount, at: dispute.created * 1000 })),
  ];
  await applyPaymentReversals(env, {
    provider: "stripe",
    paymentRef: payment.paymentRef,
    userId: owner,
    paymentCents: charge.amount,
    currency: charge.currency,
    reversals,
    bought: payment.bought,
    endSubscription: payment.subscription
      ? async () => {
          const subscription = await stripeCall("reading a subscription", () => stripe.subscriptions.retrieve(payment.subscription!));
          const current = subscription.items.data[0]?.current_period_start;
          if (subscription.status === "canceled" || current === undefined || !boughtCurrentPeriod(payment.bought!.periodStart, current * 1000)) return;
          await stripeCall("ending a subscription whose payment was taken back", () =>
            stripe.subscriptions.cancel(subscription.id, { cancellation_details: { comment: "The payment of its current period was refunded or disputed." } }),
          );
        }
      : undefined,
  });
}

/**
 * What a payment intent paid for: a subscription invoice (its id, the subscription and the start of the period
 * its subscription line bought; a proration-only invoice bought no period) or a lifetime purchase (its
 * checkout session, bought at the session's creation); null for anything else.
 */
async function stripePaymentOf(
  env: Env,
  intent: string,
): Promise<{ paymentRef: string; bought: PaymentReversalReport["bought"]; subscription: string | null } | null> {
  const stripe = stripeClient(env);
  const [paid] = (
    await stripeCall("finding an invoice's payment", () =>
      stripe.invoicePayments.list({ payment: { type: "payment_intent", payment_intent: intent }, limit: 1 }),
    )
  ).data;
  const invoiceId = typeof paid?.invoice === "string" ? paid.invoice : paid?.invoice?.id;
  if (invoiceId) {
    const invoice = await stripeCall("reading an invoice", () => stripe.invoices.retrieve(invoiceId));
    const ref = invoice.parent?.subscription_details?.subscription;
    const subscription = typeof ref === "string" ? ref : (ref?.id ?? null);
    const line = invoice.lines.data.find((candidate) => candidate.parent?.subscription_item_details && !candidate.parent.subscription_item_details.proration);
    return { paymentRef: invoiceId, subscription, bought: subscription && line ? { providerRef: subscription, periodStart: line.period.start * 1000 } : null };
  }
  const [session] = (await stripeCall("finding a payment's checkout session", () => stripe.checkout.sessions.list({ payment_intent: intent, limit: 1 }))).data;
  if (session?.mode !== "payment" || !session.id) return null;
  const plan = session.metadata?.planId ? await planById(env, session.metadata.planId) : null;
  if (!plan || !isLifetimePlan(plan)) return null;
  return { paymentRef: session.id, subscription: null, bought: { providerRef: session.id, periodStart: session.created * 1000 } };
}

// ---------------------------------------------------------------------------
// Receipts (decision 082): one per payment, keyed by Stripe's id of it.

/** The receipt of a subscription's paid invoice, read back from Stripe (an unpaid or $0 invoice gets none). */
async function sendInvoiceReceipt(env: Env, userId: string, invoiceId: string, synced: { plan: Plan; record: { periodEnd: number | null } }): Promise<void> {
  const invoice = await stripeCall("reading an invoice", () => stripeClient(env).invoices.retrieve(invoiceId));
  if (invoice.status !== "paid") return;
  await sendReceiptOnce(env, userId, {
    provider: "stripe",
    planId: synced.plan.id,
    amount: invoice.amount_paid / 100,
    currency: invoice.currency,
    paidAt: (invoice.status_transitions.paid_at ?? invoice.created) * 1000,
    paidUntil: synced.record.periodEnd,
    paymentReference: invoice.id ?? invoiceId,
  });
}

/** The receipt of a once-off purchase (Lifetime): the checkout session, read back from Stripe, is the payment. */
async function sendPurchaseReceipt(env: Env, userId: string, session: Stripe.Checkout.Session): Promise<void> {
  const plan = await lifetimePlanOf(env, session);
  if (!plan || !isPaid(session)) return;
  await sendReceiptOnce(env, userId, {
    provider: "stripe",
    planId: plan.id,
    amount: (session.amount_total ?? 0) / 100,
    currency: session.currency ?? "usd",
    paidAt: session.created * 1000,
    paidUntil: null,
    paymentReference: session.id,
  });
}
