import { and, asc, eq, inArray, isNotNull, like, lt, lte, or } from "drizzle-orm";
import type * as v from "valibot";
import { SUBSCRIPTION_CANCELED_MESSAGE, type ProfileUpdates } from "../../../contracts/billing/billing.ts";
import {
  SHOPIFY_CONNECT_FIRST_MESSAGE,
  SHOPIFY_MESSAGES,
  type ActivateShopifySubscriptionBody,
  type CancelShopifySubscriptionBody,
  type ShopifyActivation,
  type StartShopifySubscriptionBody,
} from "../../../contracts/billing/billing-paypal-shopify.ts";
import { unseal } from "../../auth/sealed.ts";
import { database } from "../../db/client.ts";
import { billingCustomers, plans, subscriptions } from "../../db/schema.ts";
import { addMonths, isRecurringPlan, trialDaysFor } from "../../domain/plans.ts";
import { adjustedPrice, parityOfCharge, pricingParity } from "../../domain/pricing-parity.ts";
import type { Env } from "../../env.ts";
import * as shopify from "../../integrations/shopify.ts";
import type { User } from "../accounts/accounts.ts";
import {
  claimWebhookEvent,
  findPlanRecord,
  offeredParitiesOf,
  releaseWebhookEvent,
  returnPageOf,
  withOfferedParity,
  withoutOfferedParities,
  savePlanRecord,
  type PlanRecordInput,
  type PlanRecordRow,
} from "./billing.ts";
import { planById, type Plan } from "./plan-lookups.ts";
import { recordShopifyIntervalCommission, shopifyBilledInterval } from "../growth/affiliates.ts";
import { applyPaymentReversals } from "./payment-reversals.ts";
import { rewardReferrerOfPayer } from "../growth/referrals.ts";
import { sendReceiptOnce } from "./billing-emails.ts";
import { ServiceError } from "../core/errors.ts";
import { shopifyStoreOf } from "../shops/shopify-shop.ts";
import { listShopProfiles } from "../shops/shops.ts";

/**
 * Shopify app subscriptions (spec section 7; section 8 "Shopify start";
 * docs/decisions/014-paypal-shopify.md). The merchant approves the charge on
 * Shopify's confirmation page; activation re-reads the store's active
 * subscriptions and reports the charge through savePlanRecord, so plan state
 * and credits behave exactly as with Stripe.
 */

const NO_SUCH_CHARGE = "No such Shopify subscription";
/** Billing rows from before stores were connected kept the token sealed in place with this purpose. */
const LEGACY_SEAL_PURPOSE = "shopify-billing-token";
const GID_PREFIX = "gid://shopify/AppSubscription/";

const gidOf = (id: string) => (id.startsWith(GID_PREFIX) ? id : `${GID_PREFIX}${id}`);

/** A Shopify failure as the section 8 message, with a status that does not sign the user out. */
function shopifyFailure(error: unknown, what: string): never {
  if (!(error instanceof shopify.ShopifyError)) throw error;
  const log = {
    kind: error.kind,
    status: error.status,
    details: error.details,
  };
  switch (error.kind) {
    case "graphql":
      console.warn(`Shopify refused ${what}`, log);
      throw new ServiceError(502, `${SHOPIFY_MESSAGES.graphqlPrefix}${error.details}`, undefined, { code: "graphql_error", details: error.details });
    case "timeout":
      console.warn(`Shopify timed out: ${what}`, log);
      throw new ServiceError(503, SHOPIFY_MESSAGES.timeout, undefined, {
        code: "timeout",
      });
    case "network":
      console.warn(`Shopify unreachable: ${what}`, log);
      throw new ServiceError(502, SHOPIFY_MESSAGES.network, undefined, {
        code: "network_error",
      });
    case "http":
    case "throttled":
      break;
  }
  // Our API's 401 and 403 sign the user out (app/lib/api-client.ts): the store's refusals answer 409.
  if (error.status === 401)
    throw new ServiceError(409, SHOPIFY_MESSAGES.expired, undefined, {
      code: "store_connection_expired",
    });
  if (error.status === 403)
    throw new ServiceError(409, SHOPIFY_MESSAGES.forbidden, undefined, {
      code: "permission_denied",
    });
  if (error.status === 422)
    throw new ServiceError(400, `${SHOPIFY_MESSAGES.invalidPrefix}${error.details}`, undefined, { code: "invalid_data", details: error.details });
  console.warn(`Shopify failed ${what}`, log);
  throw new ServiceError(502, error.details ? `Shopify error: ${error.details}` : "Shopify is unavailable, please try again.", undefined, {
    code: "shopify_error",
  });
}

async function shopifyCall<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    return shopifyFailure(error, what);
  }
}

interface ShopConnection {
  shop: string;
  accessToken: string;
  /** The parity percentages this user was offered at a start (0, full price, always). */
  offeredParities: Set<number>;
}

async function shopifyCustomerRef(env: Env, userId: string): Promise<string | null> {
  const row = await database(env.DB).query.billingCustomers.findFirst({
    where: and(eq(billingCustomers.userId, userId), eq(billingCustomers.provider, "shopify")),
  });
  return row?.customerRef ?? null;
}

/**
 * Remembers the store billed for the user: its domain and which connected store (shop profile)
 * holds its token ("{shop} shop:{profile id} parity:40"); the token itself stays in the shop
 * profile, sealed (decision 029). Rows written before stores were connected hold the token
 * sealed in place ("{shop} {sealed}"): they keep working.
 */
async function saveBillingStore(env: Env, userId: string, store: { shop: string; profileId: string; parity: number }): Promise<void> {
  const customerRef = withOfferedParity(`${store.shop} shop:${store.profileId}`, offeredParitiesOf(await shopifyCustomerRef(env, userId)), store.parity);
  await database(env.DB)
    .insert(billingCustomers)
    .values({ userId, provider: "shopify", customerRef })
    .onConflictDoUpdate({
      target: [billingCustomers.userId, billingCustomers.provider],
      set: { customerRef },
    });
}

const EXPIRED = () => new ServiceError(409, SHOPIFY_MESSAGES.expired, undefined, { code: "store_connection_expired" });

async function shopConnectionOf(env: Env, userId: string): Promise<ShopConnection> {
  const customerRef = await shopifyCustomerRef(env, userId);
  const [shop, held] = customerRef ? withoutOfferedParities(customerRef).split(" ") : [];
  if (!shop || !held) throw EXPIRED();
  let accessToken: string | null;
  if (held.startsWith("shop:")) {
    const store = await shopifyStoreOf(env, userId, held.slice("shop:".length)).catch((error: unknown) => {
      if (error instanceof ServiceError) return null;
      throw error;
    });
    accessToken = store && store.profile.shopId === shop ? store.accessToken : null;
  } else accessToken = await unseal(env.AUTH_SECRET, LEGACY_SEAL_PURPOSE, held, `${userId}:${shop}`);
  if (!accessToken) throw EXPIRED();
  return { shop, accessToken, offeredParities: offeredParitiesOf(customerRef) };
}

/** The connected Shopify store to bill: the one asked for, else the active one, else the one connected last. */
async function storeToBill(env: Env, userId: string, shopID: string | undefined) {
  if (shopID) return shopifyStoreOf(env, userId, shopID);
  const stores = (await listShopProfiles(env, userId)).filter((profile) => profile.shopType === "Shopify");
  const chosen = stores.find((profile) => profile.isActive) ?? stores.sort((a, b) => b.updatedAt - a.updatedAt)[0];
  if (!chosen) throw new ServiceError(409, SHOPIFY_CONNECT_FIRST_MESSAGE, undefined, { code: "connect_store" });
  return shopifyStoreOf(env, userId, chosen.id).catch((error: unknown) => {
    throw error instanceof ServiceError && error.status === 409 ? EXPIRED() : error;
  });
}

/** A page of this site to come back to; Shopify adds charge_id. */
function returnUrlOf(env: Env, returnUrl: string | undefined, plan: Plan): string {
  const url = returnPageOf(env, returnUrl, "/pricing", ["paymentMessage", "charge_id", "planId", "provider"]);
  url.searchParams.set("provider", "shopify");
  url.searchParams.set("planId", plan.id);
  return url.toString();
}

/** The charge's name: it names the plan (which settles a price two plans could share at different parities). */
const chargeName = (plan: Plan) => `Pinboard Studio ${plan.name} (${plan.billingPeriod === "year" ? "annual" : "monthly"})`;

/**
 * POST /api/shopifySubscriptions/startSubscription: a recurring app charge for the plan, at its
 * price less the parity of the edge's `country`; answers where the merchant approves it.
 */
export async function startShopifySubscription(
  env: Env,
  user: User,
  input: v.InferOutput<typeof StartShopifySubscriptionBody>,
  country: string | null,
): Promise<{ confirmationUrl: string }> {
  const plan = await planById(env, input.planId);
  if (!plan || !isRecurringPlan(plan)) throw new ServiceError(400, "planId must be a monthly or annual plan", "planId");
  const returnUrl = returnUrlOf(env, input.returnUrl, plan);
  const parity = pricingParity(country);
  const { profile, accessToken } = await storeToBill(env, user.id, input.shopID);
  const shop = profile.shopId;
  const created = await shopifyCall("creating a subscription", () =>
    shopify.createAppSubscription(env, shop, accessToken, {
      name: chargeName(plan),
      price: adjustedPrice(plan.price, parity),
      interval: plan.billingPeriod === "year" ? "ANNUAL" : "EVERY_30_DAYS",
      returnUrl,
      trialDays: trialDaysFor(plan, user),
      test: env.SHOPIFY_TEST_CHARGES === "true",
    }),
  );
  // Kept only once Shopify accepted the store: a refused one never replaces a working one.
  await saveBillingStore(env, user.id, { shop, profileId: profile.id, parity: parity.percentageAdjustment });
  return { confirmationUrl: created.confirmationUrl };
}

/**
 * The plan a Shopify charge is for, from what Shopify charges: a recurring plan of its interval
 * whose price, less one of the parity percentages the user was offered (full price always), is the
 * charged amount. Two plans can meet at one amount (Growth at 40 % off is Pro's full price): the
 * plan the charge's name gives settles it; a charge matching no plan is not ours.
 */
async function planOfCharge(
  env: Env,
  subscription: shopify.AppSubscription,
  offered: Set<number>,
): Promise<{ plan: Plan; amount: number; currency: string } | null> {
  const pricing = subscription.lineItems[0]?.plan.pricingDetails;
  if (!pricing?.price || !pricing.interval || pricing.price.currencyCode !== "USD") return null;
  const amount = Number(pricing.price.amount);
  if (!Number.isFinite(amount)) return null;
  const period = pricing.interval === "ANNUAL" ? "year" : "month";
  const candidates = await database(env.DB).select().from(plans).where(eq(plans.billingPeriod, period));
  const matching = candidates.filter((candidate) => parityOfCharge(candidate.price, amount, offered) !== null);
  const plan = matching.find((candidate) => subscription.name === chargeName(candidate)) ?? (matching.length === 1 ? matching[0] : undefined);
  return plan ? { plan, amount, currency: pricing.price.currencyCode } : null;
}

const ms = (iso: string | null | undefined) => {
  const value = iso ? Date.parse(iso) : Number.NaN;
  return Number.isFinite(value) ? value : null;
};

function recordOf(subscription: shopify.AppSubscription, plan: Plan, known: PlanRecordRow | null, now: number): PlanRecordInput {
  const startedAt = known?.startedAt ?? ms(subscription.createdAt) ?? now;
  const periodEnd =
    ms(subscription.currentPeriodEnd) ?? known?.periodEnd ?? (plan.billingPeriod === "year" ? addMonths(startedAt, 12) : startedAt + 30 * 86_400_000);
  const intervalStart = plan.billingPeriod === "year" ? addMonths(periodEnd, -12) : periodEnd - 30 * 86_400_000;
  // From Shopify's facts only, so re-reading the same charge never moves the credit month: the
  // interval ending at currentPeriodEnd once it has begun, else (a trial) the charge's start.
  const periodStart = intervalStart <= now ? Math.max(startedAt, intervalStart) : startedAt;
  const trialEnd = subscription.trialDays > 0 ? startedAt + subscription.trialDays * 86_400_000 : null;
  const base = {
    provider: "shopify" as const,
    providerRef: subscription.id,
    kind: "subscription" as const,
    planId: plan.id,
    startedAt,
    periodStart,
    periodEnd,
    trialEnd,
  };
  const status = subscription.status.toUpperCase();
  if (status === "ACTIVE" || status === "ACCEPTED")
    return {
      ...base,
      // Like Stripe's and PayPal's: "trialing" until the free trial ends and Shopify starts charging.
      status: trialEnd !== null && trialEnd > now ? "trialing" : "active",
      cancelAtPeriodEnd: false,
      endedAt: null,
    };
  if (status === "CANCELLED" && periodEnd > now)
    return {
      ...base,
      status: "active",
      cancelAtPeriodEnd: true,
      endedAt: null,
    };
  if (status === "FROZEN")
    // Not live while frozen: Shopify gives no time, so the first time we saw it frozen is when it stopped.
    return {
      ...base,
      status: "frozen",
      cancelAtPeriodEnd: false,
      endedAt: known?.status === "frozen" && known.endedAt !== null ? known.endedAt : now,
    };
  return {
    ...base,
    status: status === "PENDING" ? "incomplete" : "canceled",
    cancelAtPeriodEnd: false,
    endedAt: status === "PENDING" ? null : now,
  };
}

/**
 * POST /api/shopifySubscriptions/activateShopifySubscription: the merchant
 * approved the charge and Shopify sent them back with charge_id. The charge
 * must be one of the active subscriptions of the user's store. Idempotent.
 */
export async function activateShopifySubscription(
  env: Env,
  user: User,
  input: v.InferOutput<typeof ActivateShopifySubscriptionBody>,
): Promise<ShopifyActivation> {
  const connection = await shopConnectionOf(env, user.id);
  const id = gidOf(input.chargeId);
  const active = await shopifyCall("reading the active subscriptions", () => shopify.activeSubscriptions(env, connection.shop, connection.accessToken));
  const subscription = active.find((candidate) => candidate.id === id);
  if (!subscription) throw new ServiceError(404, NO_SUCH_CHARGE);
  const charged = await planOfCharge(env, subscription, connection.offeredParities);
  if (!charged) {
    console.error("Shopify subscription with a price that is not one of our plans", { id, lineItems: subscription.lineItems });
    throw new ServiceError(400, "This Shopify charge is not for one of our plans.", "chargeId");
  }
  const now = Date.now();
  const known = await findPlanRecord(env, user.id, "shopify", id);
  const profileUpdates = await savePlanRecord(env, user.id, recordOf(subscription, charged.plan, known, now), now);
  // A charge already bound to another user stays theirs.
  if (!(await findPlanRecord(env, user.id, "shopify", id))) throw new ServiceError(404, NO_SUCH_CHARGE);
  return {
    planName: charged.plan.name,
    amount: charged.amount,
    currency: charged.currency,
    subscriptionID: id,
    profileUpdates,
  };
}

/** POST /api/shopifySubscriptions/cancelShopifySubscription: Shopify stops the charge; the plan stays until the period paid for ends. */
export async function cancelShopifySubscription(
  env: Env,
  user: User,
  input: v.InferOutput<typeof CancelShopifySubscriptionBody>,
): Promise<{ message: string; profileUpdates: ProfileUpdates }> {
  const id = gidOf(input.subscriptionID);
  const known = await findPlanRecord(env, user.id, "shopify", id);
  if (!known) throw new ServiceError(404, NO_SUCH_CHARGE);
  if (known.status === "canceled" || known.cancelAtPeriodEnd) throw new ServiceError(409, "This subscription has already been cancelled.");
  const plan = await planById(env, known.planId);
  if (!plan) throw new ServiceError(404, NO_SUCH_CHARGE);
  const connection = await shopConnectionOf(env, user.id);
  const cancelled = await shopifyCall("cancelling a subscription", () => shopify.cancelAppSubscription(env, connection.shop, connection.accessToken, id));
  const now = Date.now();
  const profileUpdates = await savePlanRecord(
    env,
    user.id,
    {
      ...recordOf(cancelled, plan, known, now),
      cancelReason: input.cancelReason,
    },
    now,
  );
  return { message: SUBSCRIPTION_CANCELED_MESSAGE, profileUpdates };
}

// ---------------------------------------------------------------------------
// Webhook

export type ShopifyWebhookOutcome = { received: true; duplicate?: true };

export interface ShopifyDelivery {
  hmac: string;
  topic: string;
  shop: string;
  webhookId: string;
}

const SHOP_DOMAIN = /^[a-z0-9][a-z0-9-]*\.myshopify\.com$/;

/**
 * POST /api/shopify/webhook (topic app_subscriptions/update, APP_SUBSCRIPTIONS_UPDATE).
 * X-Shopify-Hmac-Sha256 is checked first (400, nothing applied,
 * when it fails); each X-Shopify-Webhook-Id is applied once; the charge is
 * re-read from the store (node query) and applied through savePlanRecord, so
 * late, repeated or reordered deliveries leave the state Shopify has now, and a
 * renewal (currentPeriodEnd moved on) starts the month's credits afresh.
 */
export async function handleShopifyWebhook(env: Env, delivery: ShopifyDelivery, payload: string): Promise<ShopifyWebhookOutcome> {
  if (!(await shopify.verifyWebhookHmac(env.SHOPIFY_CLIENT_SECRET, payload, delivery.hmac))) {
    console.warn("Shopify webhook with a bad HMAC refused", { topic: delivery.topic, shop: delivery.shop });
    throw new ServiceError(400, "Invalid Shopify HMAC");
  }
  if (!(await claimWebhookEvent(env, "shopify", delivery.webhookId, delivery.topic))) return { received: true, duplicate: true };
  try {
    await applyShopifyWebhook(env, delivery, payload);
  } catch (error) {
    await releaseWebhookEvent(env, "shopify", delivery.webhookId);
    throw error;
  }
  return { received: true };
}

async function applyShopifyWebhook(env: Env, delivery: ShopifyDelivery, payload: string): Promise<void> {
  if (delivery.topic !== "app_subscriptions/update") return;
  let id: unknown;
  try {
    id = (JSON.parse(payload) as { app_subscription?: { admin_graphql_api_id?: unknown } }).app_subscription?.admin_graphql_api_id;
  } catch {
    id = null;
  }
  const shop = delivery.shop.toLowerCase();
  if (typeof id !== "string" || !/^gid:\/\/shopify\/AppSubscription\/[0-9]{1,20}$/.test(id) || !SHOP_DOMAIN.test(shop)) {
    console.warn("Shopify app_subscriptions/update without a subscription or shop ignored", { shop: delivery.shop });
    return;
  }
  const owner = await webhookOwnerOf(env, id, shop);
  if (!owner) {
    console.warn("Shopify webhook about a charge of nobody we know ignored", { shop, id });
    return;
  }
  const connection = await shopConnectionOf(env, owner).catch(() => null);
  if (!connection || connection.shop !== shop) {
    console.warn("Shopify webhook about a store the user no longer has connected ignored", { shop, id });
    return;
  }
  await refreshShopifyCharge(env, owner, connection, id, Date.now());
}

/**
 * Re-reads one charge from the store and applies what Shopify says now: the plan record (and so the
 * month's credits), the affiliate commission of the interval that has begun, and the referrer's
 * credit on a referred user's first paid interval. Each is idempotent, so a webhook and the cron
 * sweep may both apply the same charge. A store that revoked our access is logged and skipped:
 * retrying would not change that.
 */
async function refreshShopifyCharge(env: Env, owner: string, connection: ShopConnection, id: string, now: number): Promise<void> {
  let subscription: shopify.AppSubscription | null;
  try {
    subscription = await shopify.appSubscription(env, connection.shop, connection.accessToken, id);
  } catch (error) {
    if (error instanceof shopify.ShopifyError && error.kind === "http" && (error.status === 401 || error.status === 403)) {
      console.warn("Shopify charge could not be re-read: the store connection is no longer valid", { shop: connection.shop, id, status: error.status });
      return;
    }
    throw error;
  }
  if (!subscription) {
    console.warn("Shopify charge the store does not have ignored", { shop: connection.shop, id });
    return;
  }
  const known = await findPlanRecord(env, owner, "shopify", id);
  // Nothing to bind before the merchant approved it.
  if (!known && !["ACTIVE", "ACCEPTED", "CANCELLED", "FROZEN"].includes(subscription.status.toUpperCase())) return;
  const charged = await planOfCharge(env, subscription, connection.offeredParities);
  if (!charged) {
    console.error("Shopify subscription with a price that is not one of our plans ignored", { id, lineItems: subscription.lineItems });
    return;
  }
  const record = recordOf(subscription, charged.plan, known, now);
  await savePlanRecord(env, owner, record, now);
  const charge = { ...subscription, ...charged };
  // Affiliate programme (issue 16): the commission of the billing interval that has begun, once per interval.
  await recordShopifyIntervalCommission(env, owner, charged.plan, charge, now);
  await sendIntervalReceipt(env, owner, charged.plan, charge, record.periodEnd, now);
  // Referral programme: a referred user's first paid interval earns their referrer the credit, once.
  await rewardReferrerOfPayer(
    env,
    owner,
    async () => {
      const billed = shopifyBilledInterval(charged.plan, charge, now);
      return billed ? `shopify:${billed.chargeRef}` : null;
    },
    now,
  );
}

/** How long a charge the sweep re-read is left alone before it is read again. */
const SHOPIFY_RECHECK_MS = 30 * 60_000;
/** Charges re-read per cron run: Shopify's cost bucket and the run's time stay small. */
const SHOPIFY_SWEEP_BATCH = 25;

/**
 * Cron sweep (decision 049): Shopify sends no event when it charges. It sends
 * app_subscriptions/update when a charge changes state, but not when a free trial ends and the first
 * paid interval begins, and not reliably at each renewal. So the charges whose trial has ended or
 * whose interval has run out are re-read from their store (least recently read first, each at most
 * every 30 minutes) and applied as a webhook would: the plan record moves on, the interval earns its
 * commission once, and a referred user's first payment credits their referrer once.
 */
export async function sweepShopifyCharges(env: Env, now = Date.now()): Promise<{ checked: number; failed: number }> {
  const due = await database(env.DB)
    .select({ userId: subscriptions.userId, providerRef: subscriptions.providerRef })
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.provider, "shopify"),
        inArray(subscriptions.status, ["trialing", "active"]),
        or(
          // The trial is over but the record still holds the trial's period (its first paid interval not seen yet).
          and(isNotNull(subscriptions.trialEnd), lte(subscriptions.trialEnd, now), lt(subscriptions.periodStart, subscriptions.trialEnd)),
          lte(subscriptions.periodEnd, now),
        ),
        lte(subscriptions.updatedAt, now - SHOPIFY_RECHECK_MS),
      ),
    )
    .orderBy(asc(subscriptions.updatedAt))
    .limit(SHOPIFY_SWEEP_BATCH);
  let failed = 0;
  for (const { userId, providerRef } of due) {
    try {
      const connection = await shopConnectionOf(env, userId).catch(() => null);
      if (!connection) {
        console.warn("Shopify charge not re-read: the user's billing store is no longer connected", { id: providerRef });
        continue;
      }
      await refreshShopifyCharge(env, userId, connection, providerRef, now);
    } catch (error) {
      failed += 1;
      console.error("Shopify charge sweep failed for one charge", { id: providerRef, error: error instanceof Error ? error.message : String(error) });
    }
  }
  return { checked: due.length, failed };
}

// ---------------------------------------------------------------------------
// Refunds (decision 077)

/** How far back each run reads the Partner API's adjustments: every adjustment is applied once (claimed), so the window only bounds the read. */
const SHOPIFY_ADJUSTMENT_LOOKBACK_MS = 60 * 86_400_000;
/** Pages of 100 read per run. */
const SHOPIFY_ADJUSTMENT_PAGES = 5;

const isoSeconds = (at: number) => new Date(at).toISOString().replace(/\.\d{3}Z$/, "Z");

/**
 * The billing interval of a charge that an adjustment at `at` refunds: the one running at that moment, found
 * from the charge's current interval (ending at `currentPeriodEnd`) stepping back an interval at a time.
 * Answers its reference as commissions and referrals key it ("{gid}@{period end}", the current one with
 * Shopify's own text of currentPeriodEnd) and when it began.
 */
export function shopifyIntervalAt(
  plan: Pick<Plan, "billingPeriod">,
  charge: { id: string; currentPeriodEnd: string | null },
  at: number,
): { chargeRef: string; intervalStart: number; current: boolean } | null {
  const currentEnd = ms(charge.currentPeriodEnd);
  if (currentEnd === null) return null;
  const back = (end: number, intervals: number) => (plan.billingPeriod === "year" ? addMonths(end, -12 * intervals) : end - intervals * 30 * 86_400_000);
  for (let k = 0; k < 120; k += 1) {
    const end = back(currentEnd, k);
    const start = back(currentEnd, k + 1);
    if (start <= at) return { chargeRef: `${charge.id}@${k === 0 ? charge.currentPeriodEnd : isoSeconds(end)}`, intervalStart: start, current: k === 0 };
  }
  return null;
}

/**
 * Cron sweep (decision 077): Shopify sends an app no event when it refunds the app's charge (Shopify support
 * refunds merchants; an app cannot), but each refund, downgrade or adjustment of a charge is an
 * AppSaleAdjustment transaction of the Partner organization. Each one of our app's, of the last 60 days, is
 * applied once (claimed like a webhook event, given back when applying fails or its charge is nobody's we
 * know yet): the interval it refunds loses what the merchant got back.
 */
export async function sweepShopifyAdjustments(env: Env, now = Date.now()): Promise<{ applied: number; failed: number }> {
  if (!shopify.hasPartnerApi(env)) return { applied: 0, failed: 0 };
  const createdAtMin = new Date(now - SHOPIFY_ADJUSTMENT_LOOKBACK_MS).toISOString();
  let applied = 0;
  let failed = 0;
  let after: string | null = null;
  for (let page = 0; page < SHOPIFY_ADJUSTMENT_PAGES; page += 1) {
    const { adjustments, hasNextPage } = await shopify.appSaleAdjustments(env, { createdAtMin, after });
    for (const adjustment of adjustments) {
      if (!adjustment.chargeId?.startsWith(GID_PREFIX)) continue;
      if (!(await claimWebhookEvent(env, "shopify-partner", adjustment.id, "AppSaleAdjustment"))) continue;
      try {
        const outcome = await applyShopifyAdjustment(env, adjustment, now);
        if (outcome === "applied") applied += 1;
        // A charge not bound yet (its webhook still on its way): the next run reads it again.
        if (outcome === "not bound yet") await releaseWebhookEvent(env, "shopify-partner", adjustment.id);
      } catch (error) {
        await releaseWebhookEvent(env, "shopify-partner", adjustment.id);
        failed += 1;
        console.error("A Shopify adjustment could not be applied", { id: adjustment.id, error: error instanceof Error ? error.message : String(error) });
      }
    }
    if (!hasNextPage || adjustments.length === 0) break;
    after = adjustments.at(-1)!.cursor;
  }
  return { applied, failed };
}

/** One adjustment applied to the interval it refunds. */
async function applyShopifyAdjustment(env: Env, adjustment: shopify.AppSaleAdjustment, now: number): Promise<"applied" | "not bound yet" | "not ours"> {
  const gid = adjustment.chargeId!;
  const record = await database(env.DB).query.subscriptions.findFirst({
    where: and(eq(subscriptions.provider, "shopify"), eq(subscriptions.providerRef, gid)),
  });
  if (!record) return "not bound yet";
  // The charge as Shopify has it now; a store that uninstalled the app (Shopify then ends its charges) leaves
  // what our record knows: its plan at full price, its current interval.
  const connection = await shopConnectionOf(env, record.userId).catch(() => null);
  const charge = connection
    ? await shopify.appSubscription(env, connection.shop, connection.accessToken, gid).catch((error: unknown) => {
        if (error instanceof shopify.ShopifyError && error.kind === "http" && (error.status === 401 || error.status === 403)) return null;
        throw error;
      })
    : null;
  const known = await planById(env, record.planId);
  const charged =
    charge && connection ? await planOfCharge(env, charge, connection.offeredParities) : known && { plan: known, amount: known.price, currency: "USD" };
  const at = ms(adjustment.createdAt) ?? now;
  const interval =
    charged && shopifyIntervalAt(charged.plan, charge ?? { id: gid, currentPeriodEnd: record.periodEnd === null ? null : isoSeconds(record.periodEnd) }, at);
  if (!charged || !interval) {
    console.warn("Shopify adjustment of a charge that is not one of our plans ignored", { id: adjustment.id, charge: gid });
    return "not ours";
  }
  const refunded = Math.round(Math.abs(Number(adjustment.grossAmount?.amount ?? adjustment.netAmount.amount)) * 100);
  await applyPaymentReversals(
    env,
    {
      provider: "shopify",
      paymentRef: interval.chargeRef,
      userId: record.userId,
      paymentCents: Math.round(charged.amount * 100),
      currency: charged.currency,
      // Shopify does not say whether a merchant's chargeback or a refund caused it: an adjustment is a refund.
      reversals: [{ ref: adjustment.id, kind: "refund", amountCents: Number.isFinite(refunded) ? refunded : 0, at }],
      bought: { providerRef: gid, periodStart: interval.intervalStart },
      // Only a refund of the interval running now ends the charge (Shopify would bill the next one).
      endSubscription: async () => {
        if (connection && charge && interval.current && charge.status.toUpperCase() === "ACTIVE")
          await shopify.cancelAppSubscription(env, connection.shop, connection.accessToken, gid);
      },
    },
    now,
  );
  return "applied";
}

/**
 * Whose charge a webhook is about: the user it is bound to, else (the merchant
 * approved it but never came back) the one user whose billing store it is.
 */
async function webhookOwnerOf(env: Env, id: string, shop: string): Promise<string | null> {
  const db = database(env.DB);
  const bound = await db.query.subscriptions.findFirst({
    where: and(eq(subscriptions.provider, "shopify"), eq(subscriptions.providerRef, id)),
    columns: { userId: true },
  });
  if (bound) return bound.userId;
  const connected = await db
    .select({ userId: billingCustomers.userId })
    .from(billingCustomers)
    .where(and(eq(billingCustomers.provider, "shopify"), like(billingCustomers.customerRef, `${shop} %`)))
    .limit(2);
  return connected.length === 1 ? connected[0].userId : null;
}

/** The receipt of a billing interval Shopify has charged for (decision 082), once per charge and interval. */
async function sendIntervalReceipt(
  env: Env,
  userId: string,
  plan: Plan,
  charge: { id: string; status: string; currentPeriodEnd: string | null; amount: number; currency: string },
  paidUntil: number | null,
  now: number,
): Promise<void> {
  const billed = shopifyBilledInterval(plan, charge, now);
  if (!billed) return;
  await sendReceiptOnce(env, userId, {
    provider: "shopify",
    planId: plan.id,
    amount: charge.amount,
    currency: charge.currency,
    paidAt: billed.intervalStart,
    paidUntil,
    paymentReference: billed.chargeRef,
  });
}
