import type Stripe from "stripe";
import { PLAN_ROWS } from "../../../workers/db/seed-data.ts";
import { SANDBOX_STRIPE_WEBHOOK_SECRET } from "../../provider-vars.ts";
import { providerState, type SandboxState } from "../../state.ts";
import { createOutbox, type Delivered, type Outbox } from "../../webhook-outbox.ts";
import { signedStripeRequest } from "./signing.ts";

/**
 * What the Stripe stand-in keeps: Stripe's objects in Stripe's shapes (API
 * version endive), the events it raised and how their webhook deliveries went.
 * Forgotten by `POST /__sandbox/reset?service=stripe`.
 */

// Stripe's objects are wide; the stand-in writes the fields our code and the SDK read, in Stripe's shapes.
export type StripeObject = { id: string; object: string } & Record<string, unknown>;

/**
 * What a builder's object literal satisfies: the SDK's resource (so a field missing or misnamed fails the
 * typecheck), except the `Loose` fields, whose values are the stand-in's own objects not yet typed as the SDK's.
 */
export type SdkShape<T, Loose extends keyof T = never> = Omit<T, Loose> & { [K in Loose]: unknown };

export interface Price extends StripeObject {
  object: "price";
  product: string;
  unit_amount: number;
  currency: string;
  recurring: { interval: "day" | "week" | "month" | "year"; interval_count: number; meter: null; trial_period_days: null; usage_type: "licensed" } | null;
  type: "recurring" | "one_time";
  metadata: Record<string, string>;
}

/**
 * The legacy plan Stripe still answers beside each subscription item's price (`items.data[].plan`), made from the
 * recurring price it mirrors.
 */
export function planOf(price: Price) {
  const recurring = price.recurring ?? { interval: "month" as const, interval_count: 1, trial_period_days: null, usage_type: "licensed" as const };
  return {
    id: price.id,
    object: "plan",
    active: true,
    amount: price.unit_amount,
    amount_decimal: String(price.unit_amount),
    billing_scheme: "per_unit",
    created: typeof price.created === "number" ? price.created : nowSeconds(),
    currency: price.currency,
    interval: recurring.interval,
    interval_count: recurring.interval_count,
    livemode: false,
    metadata: price.metadata,
    meter: null,
    nickname: typeof price.nickname === "string" ? price.nickname : null,
    product: price.product,
    tiers_mode: null,
    transform_usage: null,
    trial_period_days: recurring.trial_period_days,
    usage_type: recurring.usage_type,
  } satisfies SdkShape<Stripe.Plan, "amount_decimal">;
}

export interface Customer extends StripeObject {
  object: "customer";
  email: string | null;
  name: string | null;
  /** Cents; negative is credit the customer has with us (Stripe's convention). */
  balance: number;
  metadata: Record<string, string>;
}

export interface Coupon extends StripeObject {
  object: "coupon";
  created: number;
  livemode: boolean;
  amount_off: number | null;
  currency: string | null;
  duration: "forever" | "once" | "repeating";
  duration_in_months: number | null;
  max_redemptions: number | null;
  metadata: Record<string, string>;
  name: string | null;
  percent_off: number | null;
  redeem_by: number | null;
  times_redeemed: number;
  valid: boolean;
}

/** A coupon applied to a checkout session or a subscription (`di_...`); `source.coupon` is the coupon as it was applied. */
export interface Discount extends StripeObject {
  object: "discount";
  checkout_session: string | null;
  customer: string | null;
  end: number | null;
  source: { type: "coupon"; coupon: Coupon };
  start: number;
  subscription: string | null;
}

export interface SubscriptionItem extends StripeObject {
  object: "subscription_item";
  price: Price;
  quantity: number;
  subscription: string;
  current_period_start: number;
  current_period_end: number;
}

export interface Subscription extends StripeObject {
  object: "subscription";
  customer: string;
  status: "incomplete" | "incomplete_expired" | "trialing" | "active" | "past_due" | "canceled" | "unpaid" | "paused";
  items: { object: "list"; data: SubscriptionItem[]; has_more: false; total_count: number; url: string };
  metadata: Record<string, string>;
  cancel_at_period_end: boolean;
  cancel_at: number | null;
  canceled_at: number | null;
  ended_at: number | null;
  cancellation_details: { comment: string | null; feedback: string | null; feedback_option?: string | null; reason: string | null } | null;
  billing_cycle_anchor: number;
  start_date: number;
  trial_start: number | null;
  trial_end: number | null;
  latest_invoice: string | null;
  /** Ids of the subscription's discounts (`di_...`), applied to each of its invoices while they last. */
  discounts: string[];
}

export interface InvoiceLine {
  amount: number;
  description: string;
  period: { start: number; end: number };
  price: Price;
  proration: boolean;
  subscriptionItem: string;
}

export interface Invoice extends StripeObject {
  object: "invoice";
  customer: string;
  status: "draft" | "open" | "paid" | "uncollectible" | "void";
  total: number;
  amount_due: number;
  amount_paid: number;
  billing_reason: string;
  parent: { type: "subscription_details"; quote_details: null; subscription_details: { metadata: Record<string, string>; subscription: string } } | null;
}

export interface PaymentIntent extends StripeObject {
  object: "payment_intent";
  amount: number;
  currency: string;
  customer: string | null;
  status: "requires_payment_method" | "requires_confirmation" | "requires_action" | "processing" | "requires_capture" | "canceled" | "succeeded";
  payment_method: string | null;
  metadata: Record<string, string>;
}

/** A charge: what a succeeded payment intent took from the card (`ch_...`), with what was refunded of it. */
export interface Charge extends StripeObject {
  object: "charge";
  amount: number;
  amount_captured: number;
  amount_refunded: number;
  currency: string;
  customer: string | null;
  disputed: boolean;
  paid: boolean;
  payment_intent: string;
  refunded: boolean;
  status: "succeeded" | "pending" | "failed";
}

/** A refund of (part of) a charge (`re_...`); the stand-in's succeed at once, as card refunds in test mode do. */
export interface Refund extends StripeObject {
  object: "refund";
  amount: number;
  charge: string;
  payment_intent: string;
  currency: string;
  reason: "duplicate" | "fraudulent" | "requested_by_customer" | null;
  status: "pending" | "requires_action" | "succeeded" | "failed" | "canceled";
  metadata: Record<string, string>;
}

/** A dispute (chargeback) of a charge (`du_...`): the funds are withdrawn when it opens, reinstated if it is won. */
export interface Dispute extends StripeObject {
  object: "dispute";
  amount: number;
  charge: string;
  payment_intent: string;
  currency: string;
  reason: string;
  status: "warning_needs_response" | "warning_under_review" | "warning_closed" | "needs_response" | "under_review" | "won" | "lost";
}

/** An invoice's payment (`inpay_...`): which payment intent paid which invoice (Stripe's link since API version basil). */
export interface InvoicePayment extends StripeObject {
  object: "invoice_payment";
  invoice: string;
  payment: { type: "payment_intent"; payment_intent: string };
  status: "paid" | "open" | "canceled";
}

export interface CheckoutSession extends StripeObject {
  object: "checkout.session";
  mode: "payment" | "subscription" | "setup";
  status: "open" | "complete" | "expired";
  payment_status: "paid" | "unpaid" | "no_payment_required";
  customer: string | null;
  customer_email: string | null;
  client_reference_id: string | null;
  success_url: string | null;
  cancel_url: string | null;
  url: string | null;
  subscription: string | null;
  payment_intent: string | null;
  invoice: string | null;
  amount_subtotal: number;
  amount_total: number;
  currency: string;
  discounts: { coupon: string; promotion_code: null }[];
  total_details: { amount_discount: number; amount_shipping: number; amount_tax: number };
  metadata: Record<string, string>;
}

/** What a checkout session was created with that its object does not show (GET .../line_items answers the items). */
export interface SessionDetails {
  lineItems: { id: string; price: Price; quantity: number }[];
  trialPeriodDays: number | null;
  subscriptionMetadata: Record<string, string>;
  paymentIntentMetadata: Record<string, string>;
  /** The session's discount (a coupon from `discounts`), passed on to the subscription it creates. */
  discount: Discount | null;
}

export interface BalanceTransaction extends StripeObject {
  object: "customer_balance_transaction";
  customer: string;
  amount: number;
  ending_balance: number;
}

export interface StripeEvent extends StripeObject {
  object: "event";
  type: string;
  created: number;
  data: { object: StripeObject; previous_attributes?: Record<string, unknown> };
}

/** An event and how its webhook deliveries went. */
export interface EventRecord extends Delivered {
  event: StripeEvent;
}

export interface StripeState {
  customers: Map<string, Customer>;
  products: Map<string, StripeObject>;
  prices: Map<string, Price>;
  coupons: Map<string, Coupon>;
  discounts: Map<string, Discount>;
  sessions: Map<string, CheckoutSession>;
  sessionDetails: Map<string, SessionDetails>;
  subscriptions: Map<string, Subscription>;
  invoices: Map<string, Invoice>;
  /** Prorations (proration_behavior=create_prorations) waiting for a subscription's next invoice. */
  pendingProrations: Map<string, InvoiceLine[]>;
  paymentIntents: Map<string, PaymentIntent>;
  charges: Map<string, Charge>;
  refunds: Map<string, Refund>;
  disputes: Map<string, Dispute>;
  invoicePayments: Map<string, InvoicePayment>;
  balanceTransactions: Map<string, BalanceTransaction>;
  idempotency: Map<string, { fingerprint: string; status: number; body: unknown }>;
  /**
   * The events raised and their webhook deliveries: to `outbox.url` (e.g.
   * http://127.0.0.1:8787/api/stripe/webhook; null: events wait, pending), retried after
   * `retryDelaysMs` (Stripe: hours to days; here milliseconds), each attempt signed anew.
   */
  outbox: Outbox<EventRecord>;
  /** The endpoint's signing secret. */
  webhookSecret: string;
  /** The Stripe-Version the SDK last sent: events are rendered for it. */
  apiVersion: string;
}

export const DEFAULT_RETRY_DELAYS_MS = [1_000, 5_000, 30_000];
const DEFAULT_API_VERSION = "2026-10-28.endive";

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

const ID_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** A Stripe-style id: `cus_` and 24 letters or digits. */
export function stripeId(prefix: string, length = 24): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return `${prefix}_${[...bytes].map((b) => ID_ALPHABET[b % ID_ALPHABET.length]).join("")}`;
}

/** The plan prices of our seed data (workers/db/seed-data.ts), with the ids stored there. */
function seedCatalog(stripe: StripeState) {
  const created = Math.floor(Date.UTC(2026, 0, 1) / 1000);
  for (const plan of PLAN_ROWS) {
    if (!plan.stripePriceId) continue;
    const productId = `prod_${plan.tier}`;
    if (!stripe.products.has(productId)) {
      stripe.products.set(productId, {
        id: productId,
        object: "product",
        active: true,
        created,
        default_price: plan.stripePriceId,
        description: `${plan.name} plan: ${plan.creditsPerMonth} pin credits per month`,
        images: [],
        livemode: false,
        metadata: { tier: plan.tier },
        name: `Pinboard Studio ${plan.name}`,
        type: "service",
        marketing_features: [],
        package_dimensions: null,
        shippable: null,
        tax_details: null,
        updated: created,
        url: null,
      } satisfies Stripe.Product);
    }
    const interval = plan.billingPeriod === "month" || plan.billingPeriod === "year" ? plan.billingPeriod : null;
    stripe.prices.set(plan.stripePriceId, {
      id: plan.stripePriceId,
      object: "price",
      active: true,
      billing_scheme: "per_unit",
      created,
      currency: "usd",
      custom_unit_amount: null,
      livemode: false,
      lookup_key: plan.id,
      metadata: { planId: plan.id },
      nickname: `${plan.name} ${interval ? `${interval}ly` : "once"}`,
      product: productId,
      recurring: interval ? { interval, interval_count: 1, meter: null, trial_period_days: null, usage_type: "licensed" } : null,
      tax_behavior: "unspecified",
      tiers_mode: null,
      transform_quantity: null,
      type: interval ? "recurring" : "one_time",
      unit_amount: Math.round(plan.price * 100),
      unit_amount_decimal: String(Math.round(plan.price * 100)),
    });
  }
}

function createStripeState(): StripeState {
  const stripe: StripeState = {
    customers: new Map(),
    products: new Map(),
    prices: new Map(),
    coupons: new Map(),
    discounts: new Map(),
    sessions: new Map(),
    sessionDetails: new Map(),
    subscriptions: new Map(),
    invoices: new Map(),
    pendingProrations: new Map(),
    paymentIntents: new Map(),
    charges: new Map(),
    refunds: new Map(),
    disputes: new Map(),
    invoicePayments: new Map(),
    balanceTransactions: new Map(),
    idempotency: new Map(),
    outbox: createOutbox<EventRecord>(
      process.env.STRIPE_WEBHOOK_URL || null,
      (record) => signedStripeRequest(record.event, stripe.webhookSecret),
      DEFAULT_RETRY_DELAYS_MS,
    ),
    webhookSecret: process.env.STRIPE_WEBHOOK_SECRET || SANDBOX_STRIPE_WEBHOOK_SECRET,
    apiVersion: DEFAULT_API_VERSION,
  };
  seedCatalog(stripe);
  return stripe;
}

export function stripeState(state: SandboxState): StripeState {
  return providerState(state, "stripe", createStripeState);
}

/** Whether `stripe` is still the live state (a reset replaces it; timers of the old one stop). */
export function isCurrent(state: SandboxState, stripe: StripeState): boolean {
  return state.providers.get("stripe") === stripe;
}

/** Any object by its id, from its prefix. */
export function objectById(stripe: StripeState, id: string): StripeObject | undefined {
  const prefix = id.slice(0, id.indexOf("_"));
  switch (prefix) {
    case "cus":
      return stripe.customers.get(id);
    case "prod":
      return stripe.products.get(id);
    case "price":
      return stripe.prices.get(id);
    case "cs":
      return stripe.sessions.get(id);
    case "sub":
      return stripe.subscriptions.get(id);
    case "in":
      return stripe.invoices.get(id);
    case "pi":
      return stripe.paymentIntents.get(id);
    case "ch":
      return stripe.charges.get(id);
    case "re":
      return stripe.refunds.get(id);
    case "du":
      return stripe.disputes.get(id);
    case "inpay":
      return stripe.invoicePayments.get(id);
    case "cbtxn":
      return stripe.balanceTransactions.get(id);
    case "di":
      return stripe.discounts.get(id);
    case "evt":
      return stripe.outbox.events.find((record) => record.event.id === id)?.event;
    default:
      // Coupon ids are chosen freely (e.g. parity-40): no prefix names them.
      return stripe.coupons.get(id);
  }
}

/**
 * What a coupon takes off `cents`: percent_off of the amount in cents rounded
 * to the nearest cent, or amount_off; never more than the amount.
 */
export function couponDiscount(coupon: Coupon, cents: number): number {
  if (cents <= 0) return 0;
  if (coupon.percent_off !== null) return Math.min(cents, Math.round((cents * coupon.percent_off) / 100));
  return Math.min(cents, coupon.amount_off ?? 0);
}

/** A Stripe API error: rendered as `{error: {type, code, message, param}}` with its HTTP status. */
export class StripeApiError extends Error {
  readonly status: number;
  readonly type: string;
  readonly code: string | undefined;
  readonly param: string | undefined;
  readonly extra: Record<string, unknown>;
  constructor(status: number, message: string, options: { type?: string; code?: string; param?: string; extra?: Record<string, unknown> } = {}) {
    super(message);
    this.status = status;
    this.type = options.type ?? "invalid_request_error";
    this.code = options.code;
    this.param = options.param;
    this.extra = options.extra ?? {};
  }

  body() {
    return {
      error: {
        ...(this.code ? { code: this.code, doc_url: `https://stripe.com/docs/error-codes/${this.code.replace(/_/g, "-")}` } : {}),
        message: this.message,
        ...(this.param ? { param: this.param } : {}),
        request_log_url: null,
        type: this.type,
        ...this.extra,
      },
    };
  }
}

export function missingParam(param: string): StripeApiError {
  return new StripeApiError(400, `Missing required param: ${param}.`, { code: "parameter_missing", param });
}

export function invalidParam(param: string, message: string, code = "parameter_invalid_string"): StripeApiError {
  return new StripeApiError(400, message, { code, param });
}

export function noSuch(kind: string, id: string, param = "id"): StripeApiError {
  return new StripeApiError(404, `No such ${kind}: '${id}'`, { code: "resource_missing", param });
}
