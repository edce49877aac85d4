import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { randomIndex, seededRandom, shuffled, type Random } from "../../../workers/domain/random.ts";
import { isPayPalTrialPlan, PAYPAL_PLAN_IDS, planIdOfPayPalPlan } from "../../../contracts/billing/billing-paypal-shopify.ts";
import { creditLedger, referrals, subscriptions, users as userRows } from "../../../workers/db/schema.ts";
import { ledgerOf } from "../../../workers/ledger/client.ts";
import { PLAN_ROWS } from "../../../workers/db/seed-data.ts";
import { addMonths } from "../../../workers/domain/plans.ts";
import * as paypal from "../../../workers/integrations/paypal.ts";
import * as shopify from "../../../workers/integrations/shopify.ts";
import { stripeClient } from "../../../workers/integrations/stripe.ts";
import { sweepShopifyAdjustments } from "../../../workers/services/billing/shopify-billing.ts";
import { signUpUser, type TestUser } from "../accounts/accounts-support.ts";
import {
  approvePayPal,
  checkoutAndPay,
  commissionsOf,
  creditsOf,
  currentSubscriptionOf,
  credentialsOf,
  db,
  deliverTo,
  newAffiliate,
  newShop,
  PAYPAL_ACTIVATE,
  PAYPAL_WEBHOOK,
  paypalDeliveries,
  post,
  referralCreditsAt,
  referredCustomer,
  SHOPIFY_TOKEN,
  SHOPIFY_WEBHOOK,
  shopifyDeliveries,
  shopifyHmac,
  signedEvents,
  startAndApprovePayPal,
  startShopifyCharge,
  STRIPE_WEBHOOK,
  stripeCustomerOf,
  stripeReferrer,
  stripeSignature,
  subscribe as subscribeStripe,
  subscribePayPal,
  subscribeShopify,
  usedTrial,
  type DeliveryOverride,
  type SandboxPayPalSubscription,
  type SandboxShopifyCharge,
  type SignedRequest,
} from "./billing-support.ts";
import { read, sandbox, testEnv } from "../support.ts";

/**
 * Issue 12, "Billing webhooks out of order": Stripe, PayPal and Shopify users are driven through real
 * lifecycles on the stand-ins (subscribe with or without the browser coming back, free trials,
 * renewals, failed payments, plan switches through our API and in the provider itself, suspend and
 * re-activate, cancel, expiry, resubscribing, declined charges), one step per user and round. The
 * genuine signed webhook events the stand-ins raised are then delivered to our three endpoints in an
 * order shuffled by a fixed seed: some twice or three times (sometimes both copies at once), some held
 * back to later rounds (after later events), and beside them badly signed copies (body changed after
 * signing, another secret or signature, a stale Stripe timestamp, no signature) that must be refused
 * with 400 and claim nothing.
 *
 * Usually the last event a step raised reaches us before the user's next step and any other may come
 * rounds later; in an outage every delivery of a step comes after the user's next steps (a renewal's
 * webhooks lost for a while, then the subscriber cancels in PayPal...). While our records lag, the
 * user only acts in the provider itself: our pages would not offer what our records do not show.
 *
 * At the end each user's plan state, subscription records and month's credits are what the
 * provider's own records say, and the credit grants (read from the ledger before anything could grant
 * on first use) are exactly one per credit month the provider recorded and our side saw (plus the
 * top-up of an upgrade within a period): none twice from doubled deliveries, none missing, none for a
 * month that passed while everything about it was held back.
 *
 * The sandbox is shared with other test files: every user has their own customer, subscriptions and
 * store, and events are collected by them.
 */

const SEED = 12_012;
const ROUNDS = 12;
const USERS = { stripe: 4, paypal: 6, shopify: 5 } as const;
/** Chances that a good delivery is sent again, a third time, or held back to a later round. */
const P_DOUBLE = 0.4;
const P_TRIPLE = 0.1;
const P_DELAY = 0.2;
/**
 * Chance that all deliveries of a user's step are held back past their next steps, for up to
 * OUTAGE_ROUNDS rounds (our endpoint down, the provider retrying later); a renewal's more often.
 */
const P_OUTAGE = 0.1;
const P_OUTAGE_RENEWAL = 0.35;
const OUTAGE_ROUNDS = 2;
/** Chance that the second copy of a doubled event arrives at the same moment as the first. */
const P_TOGETHER = 0.25;
/** Chance of badly signed copies beside an event (a second one at P_BAD_TWICE). */
const P_BAD = 0.55;
const P_BAD_TWICE = 0.4;

type Provider = keyof typeof USERS;
type BadKind = "tampered" | "wrong secret" | "stale" | "unsigned";

const PATHS: Record<Provider, string> = { stripe: STRIPE_WEBHOOK, paypal: PAYPAL_WEBHOOK, shopify: SHOPIFY_WEBHOOK };
const BAD_KINDS: Record<Provider, BadKind[]> = {
  stripe: ["tampered", "wrong secret", "stale", "unsigned"],
  paypal: ["tampered", "wrong secret", "unsigned"],
  shopify: ["tampered", "wrong secret", "unsigned"],
};
/** What our endpoint answers a badly signed copy (400 each time). */
const REFUSALS: Record<Provider, { invalid: string; unsigned: string }> = {
  stripe: { invalid: "Invalid Stripe signature", unsigned: "Missing Stripe-Signature header" },
  paypal: { invalid: "Invalid PayPal signature", unsigned: "Missing PayPal transmission headers" },
  shopify: { invalid: "Invalid Shopify HMAC", unsigned: "Missing X-Shopify-Hmac-Sha256 header" },
};
/** What the worker logs on refusing a badly signed delivery. */
const EXPECTED_WARNINGS =
  /^(Stripe webhook with a bad signature refused|PayPal webhook that PayPal did not verify refused|Shopify webhook with a bad HMAC refused)/;
const SIGNATURE_HEADERS: Record<Provider, string> = { stripe: "stripe-signature", paypal: "paypal-transmission-sig", shopify: "x-shopify-hmac-sha256" };

const RECURRING = PLAN_ROWS.filter((plan) => plan.billingPeriod === "month" || plan.billingPeriod === "year");
const MONTHLY = RECURRING.filter((plan) => plan.billingPeriod === "month");
const planRow = (planId: string) => {
  const row = PLAN_ROWS.find((plan) => plan.id === planId);
  if (!row) throw new Error(`no plan ${planId}`);
  return row;
};
const planOfStripePrice = (priceId: string) => RECURRING.find((plan) => plan.stripePriceId === priceId)?.id ?? `unknown price ${priceId}`;
const planOfPayPal = (paypalPlanId: string) => planIdOfPayPalPlan(paypalPlanId) ?? `unknown PayPal plan ${paypalPlanId}`;
/** Shopify charges in this campaign are monthly (EVERY_30_DAYS) at full price: the price names the plan. */
const planOfCharge = (charge: SandboxShopifyCharge) =>
  MONTHLY.find((plan) => plan.price === Number(charge.lineItems[0].plan.pricingDetails.price.amount))?.id ?? `unknown charge ${charge.name}`;
const DAY = 86_400_000;
const SHOPIFY_INTERVAL = 30 * DAY;
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

// ---------------------------------------------------------------------------
// What the providers record

interface StripeSubscription {
  id: string;
  status: string;
  created: number;
  cancel_at_period_end: boolean;
  ended_at: number | null;
  latest_invoice: string | null;
  items: { data: { id: string; price: { id: string }; current_period_start: number; current_period_end: number }[] };
}

/**
 * A credit month the provider's records put the user in: a billing period (paid; a free trial's, with
 * the plan's credits, decision 014; or Stripe's past_due, its invoice open while Stripe retries the
 * payment and the plan is kept, workers/domain/plans.ts LIVE_STATUSES), or a Free month (from signup,
 * or from the moment the provider stopped the plan). `plans` are the plans it ran on, in order;
 * `announced` when our side read the provider while that plan was current: a webhook it applied or
 * our own API's call. A month that passed while every delivery about it was held back is never
 * granted, and need not be.
 */
interface Month {
  kind: "paid" | "trial" | "past_due" | "free";
  start: number;
  plans: { planId: string; announced: boolean }[];
}

interface CampaignUser {
  provider: Provider;
  label: string;
  user: TestUser;
  signedUpAt: number;
  /** A first subscriber: their first subscription starts with the plan's free trial. */
  trial: boolean;
  /** Stripe: the customer; PayPal: the subscriptions made for the user, oldest first; Shopify: the store. */
  customer: string | null;
  paypalIds: string[];
  shop: string;
  /** The provider's records of the user, as last read. */
  stripe: StripeSubscription[];
  stripeInvoices: Map<string, string>;
  paypal: SandboxPayPalSubscription[];
  shopify: SandboxShopifyCharge[];
  /** PayPal: the last next_billing_time PayPal showed for a subscription (PayPal drops it on cancel). */
  paidThrough: Map<string, number>;
  /** Credit months by key, in the order the provider's records showed them. */
  months: Map<string, Month>;
  /** What the provider's records say now: the credit month, the subscription deciding it, what our records must hold. */
  current: { month: string; subscription: string | null; records: string };
  /** What our records held when they last read the provider (`current.records` then). */
  ours: string;
  /** Ids of the events already collected. */
  seen: Set<string>;
}

/** Reads the provider's records of the user: what they say now, and the credit month it puts them in. */
async function observe(user: CampaignUser): Promise<void> {
  if (user.provider === "stripe") {
    if (user.customer) {
      const [subs, invoices] = await Promise.all([
        sandbox<StripeSubscription[]>(`/stripe/subscriptions?customer=${user.customer}`),
        sandbox<{ id: string; status: string }[]>(`/stripe/invoices?customer=${user.customer}`),
      ]);
      user.stripe = subs.sort((a, b) => a.created - b.created);
      user.stripeInvoices = new Map(invoices.map((invoice) => [invoice.id, invoice.status]));
    }
  } else if (user.provider === "paypal") {
    const all = await sandbox<SandboxPayPalSubscription[]>("/paypal/subscriptions");
    user.paypal = user.paypalIds.map((id) => all.find((sub) => sub.id === id)!).filter(Boolean);
    for (const sub of user.paypal) if (sub.billing_info?.next_billing_time) user.paidThrough.set(sub.id, Date.parse(sub.billing_info.next_billing_time));
  } else {
    user.shopify = (await sandbox<SandboxShopifyCharge[]>(`/shopify/subscriptions?shop=${user.shop}`)).sort(
      (a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt) || a.id.localeCompare(b.id),
    );
  }
  const expectation = expectationOf(user, Date.now());
  const { key, kind, start, planId } = expectation.month;
  const month = user.months.get(key) ?? { kind, start, plans: [] };
  user.months.set(key, month);
  month.kind = kind;
  if (month.plans.at(-1)?.planId !== planId) month.plans.push({ planId, announced: false });
  user.current = { month: key, subscription: expectation.subscription, records: JSON.stringify([...expectation.records]) };
}

/** Our side read the provider's current state (a webhook applied, or our API's call): its month is granted, our records are current. */
function announce(user: CampaignUser) {
  user.months.get(user.current.month)!.plans.at(-1)!.announced = true;
  user.ours = user.current.records;
}

/** Whether our records lag behind the provider's (deliveries about its last changes are held back). */
const stale = (user: CampaignUser) => user.ours !== user.current.records;

/** The interval ending at currentPeriodEnd once it has begun (the one paid for), else the free trial's, from the charge's start. */
const shopifyIntervalStart = (charge: SandboxShopifyCharge) => Date.parse(charge.currentPeriodEnd!) - SHOPIFY_INTERVAL;
function shopifyPeriodStart(charge: SandboxShopifyCharge, now: number): number {
  const intervalStart = shopifyIntervalStart(charge);
  return intervalStart <= now ? Math.max(Date.parse(charge.createdAt), intervalStart) : Date.parse(charge.createdAt);
}
const shopifyInTrial = (charge: SandboxShopifyCharge, now: number) => charge.trialDays > 0 && Date.parse(charge.createdAt) + charge.trialDays * DAY > now;

/**
 * The grant rows the provider's records call for: in each billing period our side saw, its first
 * plan's credits, then each dearer plan topping it up (decision 013); Free's credits for each Free
 * month our side saw.
 */
function expectedGrants(user: CampaignUser): Record<string, number> {
  const rows: Record<string, number> = {};
  for (const month of user.months.values()) {
    let granted = 0;
    for (const { planId, announced } of month.plans) {
      const credits = planRow(planId).creditsPerMonth;
      if (announced && credits > granted) {
        rows[`grant:${planId}:${month.start}`] = credits - granted;
        granted = credits;
      }
    }
  }
  return rows;
}

interface Expectation {
  credentials: { planId: string; planStatus: string; cancelSubscriptionDate: string | null };
  /** The credit month the user is in. */
  month: { key: string; kind: Month["kind"]; start: number; planId: string };
  /** The subscription deciding the plan (null: none yet). */
  subscription: string | null;
  /** Our subscriptions rows, by provider id: what each must hold. */
  records: Map<string, Record<string, unknown>>;
}

/** What the provider's records say the user's plan, credit month and our records must be. */
function expectationOf(user: CampaignUser, now: number): Expectation {
  const records = new Map<string, Record<string, unknown>>();
  let credentials: Expectation["credentials"] = { planId: "free", planStatus: "Inactive", cancelSubscriptionDate: null };
  let subscription: string | null = null;
  const free = (stoppedAt: number | null) => {
    const start = Math.max(user.signedUpAt, stoppedAt ?? 0);
    return { key: `free:${start}`, kind: "free" as const, start, planId: "free" };
  };
  let month: Expectation["month"] = free(null);
  const paid = (id: string, start: number, planId: string, kind: Month["kind"]) => ({ key: `${id}@${start}`, kind, start, planId });
  if (user.provider === "stripe") {
    // The newest subscription decides (an older one has ended).
    for (const sub of user.stripe) {
      const item = sub.items.data[0];
      const planId = planOfStripePrice(item.price.id);
      subscription = sub.id;
      records.set(sub.id, {
        planId,
        status: sub.status,
        periodStart: item.current_period_start * 1000,
        periodEnd: item.current_period_end * 1000,
        cancelAtPeriodEnd: sub.cancel_at_period_end,
        endedAt: sub.ended_at === null ? null : sub.ended_at * 1000,
      });
      if (sub.status === "canceled") {
        credentials = { planId: "free", planStatus: "Cancelled", cancelSubscriptionDate: iso(sub.ended_at! * 1000) };
        month = free(sub.ended_at! * 1000);
      } else {
        credentials = sub.cancel_at_period_end
          ? { planId, planStatus: "Cancelled", cancelSubscriptionDate: iso(item.current_period_end * 1000) }
          : { planId, planStatus: "Active", cancelSubscriptionDate: null };
        const kind = sub.status === "trialing" ? "trial" : user.stripeInvoices.get(sub.latest_invoice ?? "") === "paid" ? "paid" : "past_due";
        month = paid(sub.id, item.current_period_start * 1000, planId, kind);
      }
    }
  } else if (user.provider === "paypal") {
    for (const sub of user.paypal) {
      const planId = planOfPayPal(sub.plan_id);
      const paidAt = sub.billing_info?.last_payment?.time;
      // Each payment starts a period (before the first, the free trial's runs from the start).
      const periodStart = Date.parse(paidAt ?? sub.start_time);
      const nextBilling = sub.billing_info?.next_billing_time ? Date.parse(sub.billing_info.next_billing_time) : null;
      // On a trial plan, before the first payment: in the free trial until next_billing_time.
      const trialing = isPayPalTrialPlan(sub.plan_id) && !paidAt && nextBilling !== null && nextBilling > now;
      const paidThrough = user.paidThrough.get(sub.id) ?? addMonths(periodStart, planRow(planId).billingPeriod === "year" ? 12 : 1);
      const stoppedAt = Date.parse(sub.status_update_time);
      subscription = sub.id;
      switch (sub.status) {
        case "ACTIVE":
          records.set(sub.id, {
            planId,
            status: trialing ? "trialing" : "active",
            periodStart,
            periodEnd: nextBilling,
            cancelAtPeriodEnd: false,
            endedAt: null,
          });
          credentials = { planId, planStatus: "Active", cancelSubscriptionDate: null };
          month = paid(sub.id, periodStart, planId, paidAt ? "paid" : "trial");
          break;
        case "SUSPENDED":
          // Not live while suspended: Free from the moment it stopped, until re-activated (decision 014).
          records.set(sub.id, { planId, status: "suspended", periodStart, periodEnd: nextBilling, cancelAtPeriodEnd: false, endedAt: stoppedAt });
          credentials = { planId: "free", planStatus: "Inactive", cancelSubscriptionDate: null };
          month = free(stoppedAt);
          break;
        case "CANCELLED":
          // Usable until the time paid for, which PayPal showed as next_billing_time before the cancel.
          if (paidThrough <= now) throw new Error(`${user.label}: a cancelled period ended during the campaign`);
          records.set(sub.id, { planId, status: "active", periodStart, periodEnd: paidThrough, cancelAtPeriodEnd: true, endedAt: null });
          credentials = { planId, planStatus: "Cancelled", cancelSubscriptionDate: iso(paidThrough) };
          month = paid(sub.id, periodStart, planId, paidAt ? "paid" : "trial");
          break;
        case "EXPIRED":
          records.set(sub.id, { planId, status: "canceled", periodStart, cancelAtPeriodEnd: false, endedAt: stoppedAt });
          credentials = { planId: "free", planStatus: "Cancelled", cancelSubscriptionDate: iso(stoppedAt) };
          month = free(stoppedAt);
          break;
        default:
          throw new Error(`${user.label}: PayPal subscription ${sub.id} is ${sub.status}`);
      }
    }
  } else {
    for (const charge of user.shopify) {
      const periodEnd = charge.currentPeriodEnd ? Date.parse(charge.currentPeriodEnd) : null;
      const planId = planOfCharge(charge);
      const periodStart = charge.currentPeriodEnd ? shopifyPeriodStart(charge, now) : 0;
      const kind = charge.currentPeriodEnd && shopifyIntervalStart(charge) > now ? "trial" : "paid";
      // A declined charge binds nothing; the newest approved one decides.
      if (charge.status === "ACTIVE") {
        records.set(charge.id, {
          planId,
          status: shopifyInTrial(charge, now) ? "trialing" : "active",
          periodStart,
          periodEnd,
          cancelAtPeriodEnd: false,
          endedAt: null,
        });
        credentials = { planId, planStatus: "Active", cancelSubscriptionDate: null };
      } else if (charge.status === "CANCELLED") {
        if (periodEnd! <= now) throw new Error(`${user.label}: a cancelled Shopify period ended during the campaign`);
        records.set(charge.id, { planId, status: "active", periodStart, periodEnd, cancelAtPeriodEnd: true, endedAt: null });
        credentials = { planId, planStatus: "Cancelled", cancelSubscriptionDate: iso(periodEnd) };
      } else continue;
      subscription = charge.id;
      month = paid(charge.id, periodStart, planId, kind);
    }
  }
  return { credentials, month, subscription, records };
}

// ---------------------------------------------------------------------------
// Lifecycle steps

interface Step {
  name: string;
  /** Runs the step; answers whether our API read the provider's resulting state (so our records are current). */
  run: () => Promise<boolean>;
}

async function ok(response: Response, what: string): Promise<true> {
  if (response.status !== 200) throw new Error(`${what} answered ${response.status}: ${await response.text()}`);
  return true;
}

/** One of the weighted choices; those marked `api` (a call to our API) only while our records are current. */
function pick(user: CampaignUser, random: Random, choices: [number, () => Step, "api"?][]): Step {
  const allowed = stale(user) ? choices.filter(([, , api]) => !api) : choices;
  const total = allowed.reduce((sum, [weight]) => sum + weight, 0);
  let at = random() * total;
  for (const [weight, choice] of allowed) {
    at -= weight;
    if (at < 0) return choice();
  }
  return allowed.at(-1)![1]();
}

const idle = (): Step => ({ name: "idle", run: async () => false });
/** A step whose outcome our API does not read: in the provider itself (its dashboard, its clock), or a charge declined on its page. */
const inProvider = (name: string, call: () => Promise<unknown>) => (): Step => ({
  name,
  run: async () => {
    await call();
    return false;
  },
});
/** A step through our API (the user on our pages): it reads the provider's resulting state. */
const throughUs = (user: CampaignUser, name: string, path: string, body: Record<string, unknown>) => (): Step => ({
  name,
  run: async () => ok(await post(path, user.user, body), `${user.label} ${name}`),
});
const otherPlan = (random: Random, pool: typeof RECURRING, current: string) => {
  const others = pool.filter((plan) => plan.id !== current);
  return others[randomIndex(others.length, random)];
};
/** The user's first subscription gets the plan's free trial when they are a first subscriber: pick among plans with one. */
const firstPlan = (user: CampaignUser, pool: typeof RECURRING, first: boolean, random: Random) => {
  const plans = user.trial && first ? pool.filter((plan) => Number(plan.freeTrialDays) > 0 && plan.tier !== "agency") : pool;
  return plans[randomIndex(plans.length, random)].id;
};

function stripeStep(user: CampaignUser, random: Random): Step {
  const sub = user.stripe.at(-1);
  const stripe = stripeClient(testEnv);
  if (!sub || sub.status === "canceled") {
    const plan = firstPlan(user, RECURRING, !sub, random);
    const browserReturns = random() < 0.5;
    const subscribe = (): Step => ({
      name: sub ? "resubscribe" : "subscribe",
      run: async () => {
        if (browserReturns) await subscribeStripe(user.user, plan);
        else await checkoutAndPay(user.user, plan);
        user.customer ??= await stripeCustomerOf(user.user);
        return browserReturns;
      },
    });
    return pick(user, random, [
      [1, subscribe, "api"],
      [0, idle],
    ]);
  }
  const item = sub.items.data[0];
  const planId = planOfStripePrice(item.price.id);
  const renew = (payment: "succeed" | "fail", name: string) =>
    inProvider(name, () => sandbox(`/stripe/subscriptions/${sub.id}/renew`, { method: "POST", json: { payment } }));
  const switchApi = (): Step => {
    const plan = otherPlan(random, RECURRING, planId);
    return throughUs(user, "switch", "/api/stripeSubscriptions/reviseStripeSubscription", {
      subscriptionID: sub.id,
      newStripePriceID: plan.stripePriceId,
      newPlanId: plan.id,
    })();
  };
  // In Stripe's dashboard: prorations wait for the next invoice (another interval is invoiced at once).
  const switchAtStripe = (): Step => {
    const plan = otherPlan(random, RECURRING, planId);
    return inProvider("switch in provider", () =>
      stripe.subscriptions.update(sub.id, { items: [{ id: item.id, price: plan.stripePriceId! }], proration_behavior: "create_prorations" }),
    )();
  };
  const cancelNow = inProvider("cancel in provider", () => stripe.subscriptions.cancel(sub.id));
  const cancel = throughUs(user, "cancel", "/api/stripeSubscriptions/cancelStripeSubscription", { subscriptionID: sub.id, cancelReason: "Campaign" });
  const resume = inProvider("resume in provider", () => stripe.subscriptions.update(sub.id, { cancel_at_period_end: false }));
  if (sub.status === "past_due")
    return pick(user, random, [
      [3, renew("succeed", "renew")],
      [1, cancelNow],
    ]);
  if (sub.cancel_at_period_end)
    return pick(user, random, [
      [3, renew("succeed", "period ends")],
      [2, resume],
      [2, switchApi, "api"],
      [1, idle],
    ]);
  return pick(user, random, [
    [5, renew("succeed", "renew")],
    [2, renew("fail", "failed payment")],
    [4, switchApi, "api"],
    [3, switchAtStripe],
    [2, cancel, "api"],
    [1, cancelNow],
    [1, idle],
  ]);
}

function paypalStep(user: CampaignUser, random: Random): Step {
  const sub = user.paypal.at(-1);
  if (!sub || sub.status === "EXPIRED") {
    const plan = firstPlan(user, MONTHLY, !sub, random);
    const browserReturns = random() < 0.5;
    const subscribe = (): Step => ({
      name: sub ? "resubscribe" : "subscribe",
      run: async () => {
        user.paypalIds.push(await (browserReturns ? subscribePayPal : startAndApprovePayPal)(user.user, plan, !user.trial));
        return browserReturns;
      },
    });
    return pick(user, random, [
      [1, subscribe, "api"],
      [0, idle],
    ]);
  }
  if (sub.status === "CANCELLED") return idle();
  const id = sub.id;
  const cancel: [number, () => Step, "api"?][] = [
    [1, inProvider("cancel in provider", () => paypal.cancelSubscription(testEnv, id, "Cancelled at PayPal"))],
    [1, throughUs(user, "cancel", "/api/subscriptions/cancelSubscription", { subscriptionID: id, cancelReason: "Campaign" }), "api"],
  ];
  const expire = inProvider("expire", () => sandbox(`/paypal/subscriptions/${id}/expire`, { method: "POST" }));
  if (sub.status === "SUSPENDED")
    return pick(user, random, [
      [3, inProvider("re-activate in provider", () => paypal.activateSubscription(testEnv, id, "Resumed at PayPal"))],
      [3, throughUs(user, "re-activate", "/api/subscriptions/reactivateSubscription", { subscriptionID: id }), "api"],
      ...cancel,
      [1, expire],
      [1, idle],
    ]);
  const renew = (payment: "succeed" | "fail") =>
    inProvider(payment === "succeed" ? "renew" : "failed payment", () => sandbox(`/paypal/subscriptions/${id}/renew`, { method: "POST", json: { payment } }));
  const revise = (): Step => {
    const plan = otherPlan(random, MONTHLY, planOfPayPal(sub.plan_id));
    const browserReturns = random() < 0.5;
    return {
      name: "switch",
      run: async () => {
        const revised = await post("/api/subscriptions/revise", user.user, {
          subscriptionID: id,
          newPlanPayPalID: PAYPAL_PLAN_IDS[plan.id],
          newPlanName: plan.name,
          newPlanId: plan.id,
        });
        if (revised.status === 200) return true;
        if (revised.status !== 202) throw new Error(`${user.label} switch to ${plan.id} answered ${revised.status}: ${await revised.text()}`);
        // A dearer plan: the payer approves the switch (and pays) in PayPal; the browser may never come back.
        await approvePayPal((await read(revised)).approvalLink);
        return browserReturns && ok(await post(PAYPAL_ACTIVATE, user.user, { subscriptionID: id, planId: plan.id }), `${user.label} activate the switch`);
      },
    };
  };
  return pick(user, random, [
    [5, renew("succeed")],
    [3, renew("fail")],
    [1, inProvider("suspend in provider", () => paypal.suspendSubscription(testEnv, id, "Paused at PayPal"))],
    [1, throughUs(user, "suspend", "/api/subscriptions/suspendSubscription", { subscriptionID: id }), "api"],
    [4, revise, "api"],
    ...cancel,
    [1, expire],
    [1, idle],
  ]);
}

function shopifyStep(user: CampaignUser, random: Random): Step {
  const charge = user.shopify.filter((candidate) => candidate.status === "ACTIVE" || candidate.status === "CANCELLED").at(-1);
  const plan = firstPlan(user, MONTHLY, !charge, random);
  const browserReturns = random() < 0.5;
  const subscribe = (name: string) => (): Step => ({
    name,
    run: async () => {
      if (browserReturns) await subscribeShopify(user.user, plan, user.shop);
      else await startShopifyCharge(user.user, plan, user.shop);
      return browserReturns;
    },
  });
  // A charge the merchant declines on Shopify's page: a webhook that binds nothing.
  const decline = inProvider("declined charge", () => startShopifyCharge(user.user, plan, user.shop, "decline"));
  if (!charge)
    return pick(user, random, [
      [5, subscribe("subscribe"), "api"],
      [user.trial ? 0 : 1, decline],
    ]);
  if (charge.status === "CANCELLED")
    return pick(user, random, [
      [3, subscribe("resubscribe"), "api"],
      [1, decline],
      [2, idle],
    ]);
  return pick(user, random, [
    [6, inProvider("renew", () => sandbox(`/shopify/subscriptions/${charge.id.split("/").pop()}/renew`, { method: "POST" }))],
    [1, inProvider("cancel in provider", () => shopify.cancelAppSubscription(testEnv, user.shop, SHOPIFY_TOKEN, charge.id))],
    [1, throughUs(user, "cancel", "/api/shopifySubscriptions/cancelShopifySubscription", { subscriptionID: charge.id, cancelReason: "Campaign" }), "api"],
    [1, decline],
    [1, idle],
  ]);
}

const STEPS: Record<Provider, (user: CampaignUser, random: Random) => Step> = { stripe: stripeStep, paypal: paypalStep, shopify: shopifyStep };

// ---------------------------------------------------------------------------
// Events and their deliveries

interface CampaignEvent {
  provider: Provider;
  id: string;
  type: string;
  user: CampaignUser;
  /** Raised order within the provider. */
  index: number;
  /** What the event is about (a Stripe object, a PayPal subscription, a Shopify charge): a tampered copy names another's. */
  ref: string;
  /** The subscription our endpoint re-reads for it, when it acts on it (decisions 013, 014); null: it acknowledges it only. */
  subscription: string | null;
  request: SignedRequest;
  /** Whether a good delivery was taken (200, not a duplicate) already. */
  applied: boolean;
}

interface Delivery {
  event: CampaignEvent;
  bad: BadKind | null;
  /** Good copies sent at the same moment. */
  together: number;
}

/** The Stripe subscription our endpoint re-reads for an event: of a subscription, of its invoice paid or failed, of its checkout. */
function stripeSubscriptionOf(type: string, body: string): string | null {
  const object = (
    JSON.parse(body) as {
      data: { object: { id: string; subscription?: string | null; parent?: { subscription_details?: { subscription?: string } | null } | null } };
    }
  ).data.object;
  if (/^customer\.subscription\.(created|updated|deleted|paused|resumed)$/.test(type)) return object.id;
  if (type === "invoice.paid" || type === "invoice.payment_failed") return object.parent?.subscription_details?.subscription ?? null;
  if (type === "checkout.session.completed" || type === "checkout.session.async_payment_succeeded") return object.subscription ?? null;
  return null;
}

/** The user's events not collected yet, oldest first. */
async function newEvents(user: CampaignUser): Promise<Omit<CampaignEvent, "index" | "applied">[]> {
  let events: { id: string; type: string; ref: string; subscription: string | null; request: SignedRequest }[] = [];
  if (user.provider === "stripe") {
    if (user.customer)
      events = (await signedEvents(user.customer)).map((event) => ({
        id: event.id,
        type: event.type,
        ref: event.object_id,
        subscription: stripeSubscriptionOf(event.type, event.request.body),
        request: event.request,
      }));
  } else if (user.provider === "paypal") {
    for (const id of user.paypalIds)
      events.push(
        ...(await paypalDeliveries(id)).map((event) => ({
          id: event.id,
          type: event.type,
          ref: event.subject,
          subscription: event.subject,
          request: event.request,
        })),
      );
  } else {
    // A charge nobody holds (declined) binds nothing: its webhook is acknowledged only.
    events = (await shopifyDeliveries(user.shop)).map((event) => ({
      id: event.id,
      type: event.type,
      ref: event.object,
      subscription: event.object,
      request: event.request,
    }));
  }
  const fresh = events.filter((event) => !user.seen.has(event.id));
  for (const event of fresh) user.seen.add(event.id);
  return fresh.map((event) => ({ ...event, provider: user.provider, user }));
}

/** A badly signed copy of the event: the change to its request, and the error our endpoint must answer. */
async function badCopy(event: CampaignEvent, kind: BadKind, others: CampaignEvent[], random: Random): Promise<{ override: DeliveryOverride; error: string }> {
  const { provider, request } = event;
  const refusal = REFUSALS[provider];
  const now = Math.floor(Date.now() / 1000);
  switch (kind) {
    case "unsigned":
      return { override: { headers: { [SIGNATURE_HEADERS[provider]]: null } }, error: refusal.unsigned };
    case "stale":
      return {
        override: { headers: { "stripe-signature": await stripeSignature(request.body, testEnv.STRIPE_WEBHOOK_SECRET, now - 3600) } },
        error: refusal.invalid,
      };
    case "wrong secret": {
      if (provider === "stripe")
        return {
          override: { headers: { "stripe-signature": await stripeSignature(request.body, "whsec_someone_elses_secret", now) } },
          error: refusal.invalid,
        };
      if (provider === "shopify")
        return { override: { headers: { "x-shopify-hmac-sha256": await shopifyHmac(request.body, "shpss_someone_elses_secret") } }, error: refusal.invalid };
      // PayPal signs with its own key: another delivery's signature, or a certificate that is not PayPal's.
      const donor = others.filter((other) => other.id !== event.id);
      if (donor.length > 0 && random() < 0.6)
        return {
          override: { headers: { "paypal-transmission-sig": donor[randomIndex(donor.length, random)].request.headers["paypal-transmission-sig"] } },
          error: refusal.invalid,
        };
      return { override: { headers: { "paypal-cert-url": "https://evil.example/v1/notifications/certs/CERT-1" } }, error: refusal.invalid };
    }
    case "tampered": {
      // The body changed after signing: it names another user's object, or says something else.
      const victims = others.filter((other) => other.user !== event.user && other.ref !== event.ref);
      let body = request.body;
      if (victims.length > 0 && random() < 0.6) body = body.replaceAll(event.ref, victims[randomIndex(victims.length, random)].ref);
      if (body === request.body) body = request.body.replace(/\}\s*$/, ',"tampered":true}');
      return { override: { body }, error: refusal.invalid };
    }
  }
}

/** Waits until the clock is past the whole second holding `time` (the providers' timestamps are whole seconds). */
async function secondAfter(time: number): Promise<void> {
  while (Math.floor(Date.now() / 1000) <= Math.floor(time / 1000)) await new Promise((resolve) => setTimeout(resolve, 50));
}

// ---------------------------------------------------------------------------

describe("billing webhook campaign", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("Stripe, PayPal and Shopify deliveries doubled, reordered, delayed and badly signed end in the providers' plan state and one grant per billing period", async () => {
    // The worker logs every refused delivery; those refusals are counted here instead. Any other warning is shown.
    const warn = console.warn.bind(console);
    vi.spyOn(console, "warn").mockImplementation((...args: unknown[]) => {
      if (typeof args[0] !== "string" || !EXPECTED_WARNINGS.test(args[0])) warn(...args);
    });
    const random = seededRandom(SEED);
    const providers = Object.keys(USERS) as Provider[];
    const users: CampaignUser[] = [];
    for (const provider of providers) {
      for (let n = 1; n <= USERS[provider]; n += 1) {
        const user = await signUpUser({ firstName: `${provider}${n}` });
        // The first user of each provider starts with the plan's free trial (if it has one); the
        // others are returning subscribers, whose first cycle is paid at once.
        if (n > 1) await usedTrial(user);
        const signedUpAt = (await db.query.users.findFirst({ where: eq(userRows.id, user.userId), columns: { createdAt: true } }))!.createdAt;
        users.push({
          provider,
          label: `${provider}#${n}`,
          user,
          signedUpAt,
          trial: n === 1,
          customer: null,
          paypalIds: [],
          shop: newShop(`campaign-${n}`),
          stripe: [],
          stripeInvoices: new Map(),
          paypal: [],
          shopify: [],
          paidThrough: new Map(),
          // Signing up read the user's plan: their first Free month is granted.
          months: new Map([[`free:${signedUpAt}`, { kind: "free", start: signedUpAt, plans: [{ planId: "free", announced: true }] }]]),
          current: { month: `free:${signedUpAt}`, subscription: null, records: "[]" },
          ours: "[]",
          seen: new Set(),
        });
      }
    }

    // Nobody pays in the second they signed up: a paid period never starts in the second the Free month did.
    await secondAfter(Date.now());

    const events: Record<Provider, CampaignEvent[]> = { stripe: [], paypal: [], shopify: [] };
    const queues: Delivery[][] = Array.from({ length: ROUNDS + OUTAGE_ROUNDS + 1 }, () => []);
    const stats = {
      steps: new Map<string, number>(),
      deliveries: { stripe: 0, paypal: 0, shopify: 0 } as Record<Provider, number>,
      doubled: 0,
      together: 0,
      reordered: 0,
      delayed: 0,
      outages: 0,
      lagging: 0,
      bad: new Map<BadKind, number>(),
    };
    const newestDelivered: Record<Provider, number> = { stripe: -1, paypal: -1, shopify: -1 };
    const problems: string[] = [];

    /** One POST of the event (as signed, or changed), answered with its status and body. */
    async function postEvent(event: CampaignEvent, override: DeliveryOverride) {
      let response = await deliverTo(PATHS[event.provider], event.request, override);
      // PayPal could not verify just now (another file's injected outage): PayPal retries, and so do we.
      for (let retry = 0; response.status === 503 && event.provider === "paypal" && retry < 5; retry += 1) {
        await response.body?.cancel();
        response = await deliverTo(PATHS[event.provider], event.request, override);
      }
      stats.deliveries[event.provider] += 1;
      return { status: response.status, body: (await response.json().catch(() => null)) as { error?: string; received?: boolean; duplicate?: boolean } | null };
    }

    async function send(delivery: Delivery) {
      const { event, bad } = delivery;
      const what = `${event.user.label} ${event.type} ${event.id}${bad ? ` (${bad})` : ""}`;
      if (bad) {
        const copy = await badCopy(event, bad, events[event.provider], random);
        const answer = await postEvent(event, copy.override);
        stats.bad.set(bad, (stats.bad.get(bad) ?? 0) + 1);
        if (answer.status !== 400 || answer.body?.error !== copy.error)
          problems.push(`${what}: answered ${answer.status} ${JSON.stringify(answer.body)}, not 400 "${copy.error}"`);
        return;
      }
      if (!event.applied && event.index < newestDelivered[event.provider]) stats.reordered += 1;
      newestDelivered[event.provider] = Math.max(newestDelivered[event.provider], event.index);
      // Copies arriving at the same moment race for the event: one applies it, the others are duplicates.
      const answers = await Promise.all(Array.from({ length: delivery.together }, () => postEvent(event, {})));
      const taken = answers.filter((answer) => answer.status === 200 && JSON.stringify(answer.body) === JSON.stringify({ received: true })).length;
      const duplicates = answers.filter(
        (answer) => answer.status === 200 && JSON.stringify(answer.body) === JSON.stringify({ received: true, duplicate: true }),
      ).length;
      // Refused copies claimed nothing: the first good delivery is applied, every later one is a duplicate.
      const wanted = event.applied ? 0 : 1;
      if (taken !== wanted || duplicates !== answers.length - wanted)
        problems.push(`${what}: answered ${JSON.stringify(answers)}, not ${wanted} applied and ${answers.length - wanted} duplicates`);
      // Applying it re-read the subscription from the provider: if it is the one deciding the user's plan, our side saw its state now.
      if (wanted === 1 && event.subscription !== null && event.subscription === event.user.current.subscription) announce(event.user);
      event.applied = true;
    }

    async function deliverRound(round: number) {
      for (const delivery of shuffled(queues[round], random)) await send(delivery);
    }

    for (let round = 0; round < ROUNDS; round += 1) {
      // Each user's step, chosen from what the provider shows (in a fixed order), then run together.
      const steps = users.map((user) => STEPS[user.provider](user, random));
      stats.lagging += users.filter((user, n) => stale(user) && steps[n].name !== "idle").length;
      const synced = await Promise.all(steps.map((step) => step.run()));
      const stepsEnded = Date.now();
      for (const step of steps) stats.steps.set(step.name, (stats.steps.get(step.name) ?? 0) + 1);
      await Promise.all(users.map(observe));
      users.forEach((user, n) => {
        if (synced[n]) announce(user);
      });

      // The events the steps raised, scheduled: shuffled, doubled, held back, with badly signed copies.
      for (const [u, user] of users.entries()) {
        const fresh = await newEvents(user);
        // Our endpoint is down for this user's deliveries for a while: all of them come after the user's next steps.
        const outage = fresh.length > 0 && random() < (steps[u].name === "renew" ? P_OUTAGE_RENEWAL : P_OUTAGE) ? 1 + randomIndex(OUTAGE_ROUNDS, random) : 0;
        if (outage > 0) stats.outages += 1;
        for (const [n, raised] of fresh.entries()) {
          const event: CampaignEvent = { ...raised, index: events[user.provider].length, applied: false };
          events[user.provider].push(event);
          const last = n === fresh.length - 1;
          const copies = 1 + (random() < P_DOUBLE ? 1 : 0) + (random() < P_TRIPLE ? 1 : 0);
          stats.doubled += copies - 1;
          // A second copy may arrive at the same moment as the first.
          const together = copies > 1 && random() < P_TOGETHER ? 2 : 1;
          stats.together += together - 1;
          for (let copy = 0; copy < copies; copy += together === 2 && copy === 0 ? 2 : 1) {
            // Outside an outage the step's last event reaches us before the user's next step; any other may come later.
            const hold = Math.max(outage, copy === 0 && last ? 0 : random() < P_DELAY ? 1 + randomIndex(2, random) : 0);
            if (hold > 0) stats.delayed += copy === 0 ? together : 1;
            queues[round + hold].push({ event, bad: null, together: copy === 0 ? together : 1 });
          }
          const bad = random() < P_BAD ? (random() < P_BAD_TWICE ? 2 : 1) : 0;
          for (let copy = 0; copy < bad; copy += 1) {
            const kinds = BAD_KINDS[user.provider];
            const hold = Math.max(outage, random() < P_DELAY ? 1 + randomIndex(2, random) : 0);
            queues[round + hold].push({ event, bad: kinds[randomIndex(kinds.length, random)], together: 1 });
          }
        }
      }
      await deliverRound(round);
      expect(problems).toEqual([]);

      // Providers stamp periods in whole seconds: the next round's steps begin in a later second.
      await secondAfter(stepsEnded);
    }
    // The deliveries still held back arrive last.
    for (let round = ROUNDS; round < queues.length; round += 1) await deliverRound(round);
    expect(problems).toEqual([]);
    for (const provider of providers)
      expect(
        events[provider].every((event) => event.applied),
        `${provider}: every event applied`,
      ).toBe(true);
    for (const user of users) if (stale(user)) problems.push(`${user.label}: no delivery brought our records to the provider's last state`);

    // The ledger first: reading the plan through the API may grant the month on first use.
    const now = Date.now();
    const months = new Map<string, number>();
    for (const user of users) {
      const rows = await ledgerOf(testEnv, user.user.userId)
        .db.select()
        .from(creditLedger)
        .where(and(eq(creditLedger.userId, user.user.userId), eq(creditLedger.category, "grant")));
      const grants = Object.fromEntries(rows.map((row) => [row.reference, row.amount]));
      const expected = expectedGrants(user);
      if (JSON.stringify(Object.entries(grants).sort()) !== JSON.stringify(Object.entries(expected).sort()))
        problems.push(
          `${user.label}: grants ${JSON.stringify(grants)}, the provider's records call for ${JSON.stringify(expected)} (months ${JSON.stringify([...user.months])})`,
        );
      for (const month of user.months.values()) {
        const kind = month.plans.some((plan) => plan.announced) ? month.kind : "passed unseen";
        months.set(kind, (months.get(kind) ?? 0) + 1);
      }
    }

    for (const user of users) {
      const expectation = expectationOf(user, now);
      const credentials = await credentialsOf(user.user);
      const state = { planId: credentials.planId, planStatus: credentials.planStatus, cancelSubscriptionDate: credentials.cancelSubscriptionDate };
      if (JSON.stringify(state) !== JSON.stringify(expectation.credentials) || credentials.usedFreeTrial !== (!user.trial || expectation.records.size > 0))
        problems.push(
          `${user.label}: plan ${JSON.stringify({ ...state, usedFreeTrial: credentials.usedFreeTrial })}, the provider says ${JSON.stringify(expectation.credentials)}`,
        );

      const rows = await db.select().from(subscriptions).where(eq(subscriptions.userId, user.user.userId));
      if (rows.length !== expectation.records.size)
        problems.push(`${user.label}: ${rows.length} subscription records, the provider has ${expectation.records.size} bound`);
      for (const [id, fields] of expectation.records) {
        const row = rows.find((candidate) => candidate.providerRef === id) as Record<string, unknown> | undefined;
        const actual = row && Object.fromEntries(Object.keys(fields).map((key) => [key, row[key]]));
        if (JSON.stringify(actual) !== JSON.stringify(fields))
          problems.push(`${user.label}: record ${id} ${JSON.stringify(actual)}, the provider says ${JSON.stringify(fields)}`);
      }

      // The month's credits: all of them (nothing was spent), the dearest plan's our side saw in it.
      const credits = await creditsOf(user.user);
      const month = user.months.get(expectation.month.key)!;
      const want = {
        planId: expectation.month.planId,
        creditsPerMonth: planRow(expectation.month.planId).creditsPerMonth,
        periodStart: iso(month.start),
        remaining: Math.max(...month.plans.filter((plan) => plan.announced).map((plan) => planRow(plan.planId).creditsPerMonth)),
      };
      const got = Object.fromEntries(Object.keys(want).map((key) => [key, credits[key as keyof typeof credits]]));
      if (JSON.stringify(got) !== JSON.stringify(want)) problems.push(`${user.label}: credits ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
    }

    const total = Object.values(stats.deliveries).reduce((sum, count) => sum + count, 0);
    const badTotal = [...stats.bad.values()].reduce((sum, count) => sum + count, 0);
    const list = (counts: Map<string, number>) =>
      [...counts]
        .sort()
        .map(([name, count]) => `${name} ${count}`)
        .join(", ");
    console.log(
      `billing webhook campaign (seed ${SEED}): ${users.length} users, ${ROUNDS} rounds, ${total} deliveries of ${providers.map((p) => events[p].length).reduce((a, b) => a + b)} events` +
        ` (${providers.map((p) => `${p} ${stats.deliveries[p]} of ${events[p].length}`).join(", ")});` +
        ` doubled ${stats.doubled} (${stats.together} at the same moment), reordered ${stats.reordered}, delayed ${stats.delayed} (${stats.outages} outages past later steps, ${stats.lagging} steps taken while our records lagged),` +
        ` badly signed ${badTotal} (${list(stats.bad)}); credit months: ${list(months)}; steps: ${list(stats.steps)}`,
    );
    expect(problems).toEqual([]);
    expect(total).toBeGreaterThanOrEqual(500);
  }, 180_000);
});

// ---------------------------------------------------------------------------
// Refunds and disputes (issue 37, decision 077): a payment taken back takes back what it bought, once, whatever
// order its events arrive in.

/**
 * Each case is a customer an affiliate sent and a friend referred, who pays (the browser never comes back, so
 * the webhooks alone tell us) and then has the payment refunded or disputed at the provider. All of a case's
 * events (its payment's, then the refund's or dispute's, then those our side causes by ending the
 * subscription) are delivered shuffled by a fixed seed, some twice or three times (sometimes two copies at
 * once), some held back past other cases' deliveries; the cases marked `reverse` arrive newest first (the
 * refund before the payment's own events, a dispute's close before its opening). Shopify tells of a refund only
 * in its Partner API, read by the cron's sweep, run at random moments among the deliveries.
 */
const REFUND_SEED = 37_004;
type TakeBack = "refund" | "partial then rest" | "partial" | "dispute lost" | "dispute won";
const REFUND_CASES: { provider: Provider; takeBack: TakeBack; planId: string; reverse?: boolean }[] = [
  { provider: "stripe", takeBack: "refund", planId: "pro-monthly", reverse: true },
  { provider: "stripe", takeBack: "refund", planId: "starter-annual" },
  { provider: "stripe", takeBack: "partial then rest", planId: "growth-monthly" },
  { provider: "stripe", takeBack: "partial", planId: "pro-monthly" },
  { provider: "stripe", takeBack: "dispute lost", planId: "pro-monthly", reverse: true },
  { provider: "stripe", takeBack: "dispute won", planId: "starter-monthly" },
  { provider: "paypal", takeBack: "refund", planId: "pro-monthly", reverse: true },
  { provider: "paypal", takeBack: "partial", planId: "growth-monthly" },
  { provider: "paypal", takeBack: "dispute lost", planId: "starter-monthly", reverse: true },
  { provider: "paypal", takeBack: "dispute won", planId: "pro-monthly" },
  { provider: "shopify", takeBack: "refund", planId: "pro-monthly" },
  { provider: "shopify", takeBack: "partial", planId: "starter-monthly" },
];
/** A partial refund: $10 of the payment. */
const PARTIAL_CENTS = 1000;
const PAYMENTS = /^(invoice\.paid|checkout\.session\.completed|PAYMENT\.SALE\.COMPLETED|app_subscriptions\/update)$/;
const TAKE_BACKS = /^(charge\.refunded|charge\.dispute\..*|PAYMENT\.SALE\.(REFUNDED|REVERSED)|CUSTOMER\.DISPUTE\..*)$/;
const OPENED = /^(charge\.dispute\.created|CUSTOMER\.DISPUTE\.CREATED)$/;
const CLOSED = /^(charge\.dispute\.closed|CUSTOMER\.DISPUTE\.RESOLVED)$/;

interface RefundCase {
  label: string;
  spec: (typeof REFUND_CASES)[number];
  user: TestUser;
  /** Stripe customer, PayPal subscription, Shopify store: whose events are collected. */
  source: string;
  /** Shopify: the charge's number. */
  chargeId: string | null;
  seen: Set<string>;
  /** The events applied (a first good delivery), in the order they were, with the order they were raised in. */
  applied: { index: number; type: string; id: string }[];
}

async function raisedEvents(c: RefundCase): Promise<{ id: string; type: string; request: SignedRequest }[]> {
  const events =
    c.spec.provider === "stripe"
      ? await signedEvents(c.source)
      : c.spec.provider === "paypal"
        ? await paypalDeliveries(c.source)
        : await shopifyDeliveries(c.source);
  const fresh = events.filter((event) => !c.seen.has(event.id));
  for (const event of fresh) c.seen.add(event.id);
  return fresh;
}

/** The customer pays at the provider, then the payment is taken back there, as the case says. */
async function payAndTakeBack(c: RefundCase): Promise<void> {
  const { provider, takeBack, planId } = c.spec;
  const partial = takeBack === "partial" || takeBack === "partial then rest";
  if (provider === "stripe") {
    await checkoutAndPay(c.user, planId);
    c.source = await stripeCustomerOf(c.user);
    const [charge] = await sandbox<{ id: string }[]>(`/stripe/charges?customer=${c.source}`);
    if (takeBack.startsWith("dispute")) {
      const dispute = await sandbox<{ id: string }>(`/stripe/charges/${charge.id}/dispute`, { method: "POST", json: {} });
      await sandbox(`/stripe/disputes/${dispute.id}/resolve`, { method: "POST", json: { outcome: takeBack === "dispute lost" ? "lost" : "won" } });
    } else {
      await stripeClient(testEnv).refunds.create({ charge: charge.id, ...(partial ? { amount: PARTIAL_CENTS } : {}) });
      if (takeBack === "partial then rest") await stripeClient(testEnv).refunds.create({ charge: charge.id });
    }
  } else if (provider === "paypal") {
    c.source = await startAndApprovePayPal(c.user, planId);
    const [sale] = await sandbox<{ id: string }[]>(`/paypal/sales?subscription=${c.source}`);
    if (takeBack.startsWith("dispute")) {
      const dispute = await sandbox<{ dispute_id: string }>(`/paypal/sales/${sale.id}/dispute`, { method: "POST", json: {} });
      await sandbox(`/paypal/disputes/${dispute.dispute_id}/resolve`, {
        method: "POST",
        json: { outcome: takeBack === "dispute lost" ? "BUYER_FAVOR" : "SELLER_FAVOR" },
      });
    } else await sandbox(`/paypal/sales/${sale.id}/refund`, { method: "POST", json: partial ? { amount: (PARTIAL_CENTS / 100).toFixed(2) } : {} });
  } else {
    const charge = await startShopifyCharge(c.user, planId, newShop("refund-campaign"));
    c.source = charge.shop;
    c.chargeId = charge.chargeId;
    await sandbox(`/shopify/subscriptions/${charge.chargeId}/refund`, { method: "POST", json: partial ? { amount: (PARTIAL_CENTS / 100).toFixed(2) } : {} });
  }
}

describe("refund and dispute campaign", () => {
  it("refunds and disputes delivered doubled, reordered and delayed take back the commission, the referral credit, the plan and its credits once", async () => {
    const random = seededRandom(REFUND_SEED);
    const affiliate = await newAffiliate();
    const { customer: referrerCustomer, code } = await stripeReferrer();
    const cases: RefundCase[] = [];
    for (const [n, spec] of REFUND_CASES.entries()) {
      const c: RefundCase = {
        label: `${spec.provider}#${n} ${spec.takeBack}`,
        spec,
        user: await referredCustomer(code, affiliate.affiliateID),
        source: "",
        chargeId: null,
        seen: new Set(),
        applied: [],
      };
      await payAndTakeBack(c);
      cases.push(c);
    }

    const stats = { deliveries: 0, events: 0, doubled: 0, together: 0, delayed: 0, reordered: 0, sweeps: 0, takenBackBeforePayment: 0, closedBeforeOpened: 0 };
    const problems: string[] = [];
    type Delivery = { c: RefundCase; event: { id: string; type: string; request: SignedRequest }; together: number; index: number } | { sweep: true };

    async function send(delivery: Delivery) {
      if ("sweep" in delivery) {
        stats.sweeps += 1;
        const { failed } = await sweepShopifyAdjustments(testEnv);
        if (failed > 0) problems.push(`a sweep failed to apply ${failed} adjustment(s)`);
        return;
      }
      const { c, event } = delivery;
      const answers = await Promise.all(
        Array.from({ length: delivery.together }, async () => {
          let response = await deliverTo(PATHS[c.spec.provider], event.request);
          for (let retry = 0; response.status === 503 && c.spec.provider === "paypal" && retry < 5; retry += 1) {
            await response.body?.cancel();
            response = await deliverTo(PATHS[c.spec.provider], event.request);
          }
          stats.deliveries += 1;
          return { status: response.status, body: (await response.json().catch(() => null)) as { received?: boolean; duplicate?: boolean } | null };
        }),
      );
      if (answers.some((answer) => answer.status !== 200)) problems.push(`${c.label} ${event.type}: answered ${JSON.stringify(answers)}`);
      const taken = answers.filter((answer) => answer.status === 200 && !answer.body?.duplicate).length;
      if (taken > 1 || (taken === 1 && c.applied.some((applied) => applied.id === event.id))) problems.push(`${c.label} ${event.type} applied more than once`);
      if (taken === 1) {
        if (c.applied.some((applied) => applied.index > delivery.index)) stats.reordered += 1;
        c.applied.push({ index: delivery.index, type: event.type, id: event.id });
      }
    }

    /** The events raised since the last look, each a first copy and maybe more; reversed for the cases that say so. */
    async function schedule(rounds: Delivery[][], firstPass: boolean) {
      for (const c of cases) {
        const fresh = await raisedEvents(c);
        stats.events += fresh.length;
        const base = c.seen.size - fresh.length;
        const order = c.spec.reverse && firstPass ? [...fresh].reverse() : shuffled(fresh, random);
        for (const event of order) {
          const index = base + fresh.indexOf(event);
          const copies = 1 + (random() < P_DOUBLE ? 1 : 0) + (random() < P_TRIPLE ? 1 : 0);
          stats.doubled += copies - 1;
          const together = copies > 1 && random() < P_TOGETHER ? 2 : 1;
          stats.together += together - 1;
          for (let copy = 0; copy < copies; copy += together === 2 && copy === 0 ? 2 : 1) {
            // A reversed case keeps its order: its first copies all come in the first round.
            const hold = c.spec.reverse && firstPass && copy === 0 ? 0 : random() < P_DELAY ? 1 + randomIndex(rounds.length - 1, random) : 0;
            if (hold > 0) stats.delayed += 1;
            rounds[hold].push({ c, event, together: copy === 0 ? together : 1, index });
          }
        }
      }
    }

    /** Each round's deliveries: every case's in its own order, the cases interleaved at random, sweeps among them. */
    async function deliverRounds(rounds: Delivery[][]) {
      for (const round of rounds) {
        const queues = cases.map((c) => round.filter((delivery) => !("sweep" in delivery) && delivery.c === c));
        const merged: Delivery[] = [];
        while (queues.some((queue) => queue.length > 0)) {
          const open = queues.filter((queue) => queue.length > 0);
          merged.push(open[randomIndex(open.length, random)].shift()!);
          if (random() < 0.05) merged.push({ sweep: true });
        }
        for (const delivery of merged) await send(delivery);
      }
    }

    // The cases' events, then what our side's answers raised (subscriptions ended at the provider), until nothing more comes.
    for (let pass = 0; pass < 4; pass += 1) {
      const rounds: Delivery[][] = [[], [], []];
      await schedule(rounds, pass === 0);
      if (rounds.every((round) => round.length === 0) && pass > 0) break;
      await deliverRounds(rounds);
      await sweepShopifyAdjustments(testEnv);
      stats.sweeps += 1;
    }
    expect(problems).toEqual([]);

    for (const c of cases) {
      const types = c.applied.map((applied) => applied.type);
      const payment = types.findIndex((type) => PAYMENTS.test(type));
      const takenBack = types.findIndex((type) => TAKE_BACKS.test(type));
      if (takenBack >= 0 && payment >= 0 && takenBack < payment) stats.takenBackBeforePayment += 1;
      const opened = types.findIndex((type) => OPENED.test(type));
      const closed = types.findIndex((type) => CLOSED.test(type));
      if (opened >= 0 && closed >= 0 && closed < opened) stats.closedBeforeOpened += 1;

      const inFull = c.spec.takeBack === "refund" || c.spec.takeBack === "partial then rest" || c.spec.takeBack === "dispute lost";
      const plan = PLAN_ROWS.find((row) => row.id === c.spec.planId)!;
      const paymentCents = Math.round(plan.price * 100);
      const commission = Math.round(paymentCents * 0.25);
      const share = inFull ? commission : c.spec.takeBack === "partial" ? Math.round((commission * PARTIAL_CENTS) / paymentCents) : 0;
      const rows = await commissionsOf(c.user.userId);
      const sales = rows.filter((row) => row.reversesChargeRef === null);
      const reversals = rows.filter((row) => row.reversesChargeRef !== null);
      if (sales.length !== 1 || sales[0].commissionCents !== commission)
        problems.push(`${c.label}: sales ${JSON.stringify(sales.map((row) => row.commissionCents))}, not one of ${commission}`);
      const takenCommission = -reversals.reduce((sum, row) => sum + row.commissionCents, 0);
      if (takenCommission !== share || reversals.some((row) => row.reversesChargeRef !== sales[0]?.chargeRef))
        problems.push(`${c.label}: ${takenCommission} of the commission taken back, not ${share}`);

      const credits = (await referralCreditsAt(referrerCustomer, c.user.userId)).amounts;
      const [referral] = await db.select().from(referrals).where(eq(referrals.referredUserId, c.user.userId));
      const wantCredits = inFull ? (credits.length === 0 ? [] : [-1699, 1699]) : [-1699];
      if (JSON.stringify(credits) !== JSON.stringify(wantCredits) || (referral.firstPaidAt !== null) === inFull)
        problems.push(`${c.label}: referral credits ${JSON.stringify(credits)}, referred sale ${referral.firstPaidAt !== null}`);

      const [credentials, month, current] = await Promise.all([credentialsOf(c.user), creditsOf(c.user), currentSubscriptionOf(c.user)]);
      const wantPlan = inFull ? "free" : c.spec.planId;
      const wantNotice = inFull ? { planName: plan.name, reason: c.spec.takeBack === "dispute lost" ? "disputed" : "refunded" } : null;
      const notice = current.takenBack && { planName: current.takenBack.planName, reason: current.takenBack.reason };
      // Nothing was spent: all of the remaining plan's credits (Free's 10 once taken back), none of the paid plan's.
      const wantRemaining = inFull ? 10 : plan.creditsPerMonth;
      if (
        credentials.planId !== wantPlan ||
        month.planId !== wantPlan ||
        month.remaining !== wantRemaining ||
        JSON.stringify(notice) !== JSON.stringify(wantNotice)
      )
        problems.push(`${c.label}: plan ${credentials.planId}, credits ${JSON.stringify(month)}, notice ${JSON.stringify(notice)}; want ${wantPlan}`);
      const paidGrants = (
        await ledgerOf(testEnv, c.user.userId)
          .db.select()
          .from(creditLedger)
          .where(and(eq(creditLedger.userId, c.user.userId), eq(creditLedger.category, "grant")))
      ).filter(
        (row) =>
          row.amount > 0 &&
          !row.reference.startsWith("grant:free:") &&
          row.createdAt >= Date.parse(month.periodStart) &&
          row.createdAt < Date.parse(month.periodEnd),
      );
      if (inFull && paidGrants.length > 0) problems.push(`${c.label}: paid grants still count: ${JSON.stringify(paidGrants.map((row) => row.reference))}`);
    }
    console.log(
      `refund and dispute campaign (seed ${REFUND_SEED}): ${cases.length} payments taken back (${REFUND_CASES.map((spec) => `${spec.provider} ${spec.takeBack}`).join(", ")}); ` +
        `${stats.deliveries} deliveries of ${stats.events} events, doubled ${stats.doubled} (${stats.together} at the same moment), reordered ${stats.reordered}, delayed ${stats.delayed}, ` +
        `${stats.takenBackBeforePayment} refunds or disputes applied before their payment, ${stats.closedBeforeOpened} disputes closed before opened, ${stats.sweeps} Shopify sweeps`,
    );
    expect(problems).toEqual([]);
    expect(stats.takenBackBeforePayment).toBeGreaterThanOrEqual(3);
    expect(stats.closedBeforeOpened).toBeGreaterThanOrEqual(2);
  }, 180_000);
});
