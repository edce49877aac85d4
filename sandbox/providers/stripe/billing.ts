import type Stripe from "stripe";
import { addMonths } from "../../../workers/domain/plans.ts";
import type { SandboxState } from "../../state.ts";
import {
  couponDiscount,
  nowSeconds,
  StripeApiError,
  stripeId,
  type BalanceTransaction,
  type Charge,
  type CheckoutSession,
  type Customer,
  type Discount,
  type Dispute,
  type Invoice,
  type InvoiceLine,
  type PaymentIntent,
  type Price,
  type Refund,
  type StripeState,
  type Subscription,
  type SubscriptionItem,
  type SdkShape,
  planOf,
} from "./state.ts";
import { emitEvent } from "./webhooks.ts";

/**
 * How the stand-in's objects live: customers and their balance, subscriptions
 * with their periods, trials, discounts, prorations, cancellations and
 * renewals, invoices, payment intents, and the checkout that creates them.
 * Every change raises the events Stripe raises for it.
 */

export interface Context {
  state: SandboxState;
  stripe: StripeState;
  /** The Idempotency-Key of the API request causing the change, for the events' `request`. */
  idempotencyKey?: string | null;
  /** True for changes Stripe makes by itself (renewals): events carry no request. */
  automatic?: boolean;
}

function emit(ctx: Context, type: string, object: Parameters<typeof emitEvent>[3], previous?: Record<string, unknown>) {
  emitEvent(ctx.state, ctx.stripe, type, object, { previous, idempotencyKey: ctx.idempotencyKey, automatic: ctx.automatic });
}

/** The top-level fields that differ, with their old values (an event's previous_attributes). */
function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): Record<string, unknown> {
  const previous: Record<string, unknown> = {};
  for (const key of Object.keys(after)) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) previous[key] = before[key] ?? null;
  }
  return previous;
}

const money = (cents: number) => `$${(cents / 100).toFixed(2)}`;
const day = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);

// ---------------------------------------------------------------------------
// Customers and their balance

export function createCustomer(
  ctx: Context,
  fields: { email?: string | null; name?: string | null; description?: string | null; metadata?: Record<string, string> },
): Customer {
  const id = stripeId("cus", 14);
  const customer: Customer = {
    id,
    object: "customer",
    address: null,
    balance: 0,
    created: nowSeconds(),
    currency: null,
    default_source: null,
    delinquent: false,
    description: fields.description ?? null,
    discount: null,
    email: fields.email ?? null,
    invoice_prefix: id.slice(4, 12).toUpperCase(),
    invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
    livemode: false,
    metadata: fields.metadata ?? {},
    name: fields.name ?? null,
    next_invoice_sequence: 1,
    phone: null,
    preferred_locales: [],
    shipping: null,
    tax_exempt: "none",
    test_clock: null,
  } satisfies Stripe.Customer;
  ctx.stripe.customers.set(id, customer);
  emit(ctx, "customer.created", customer);
  return customer;
}

/** A customer balance transaction: negative amounts are credit toward the next invoices. */
export function addBalanceTransaction(
  ctx: Context,
  customer: Customer,
  fields: { amount: number; currency?: string; description?: string | null; metadata?: Record<string, string>; type?: string; invoice?: string | null },
): BalanceTransaction {
  const before = { balance: customer.balance };
  customer.balance += fields.amount;
  const transaction: BalanceTransaction = {
    id: stripeId("cbtxn"),
    object: "customer_balance_transaction",
    amount: fields.amount,
    checkout_session: null,
    created: nowSeconds(),
    credit_note: null,
    currency: fields.currency ?? "usd",
    customer: customer.id,
    customer_account: null,
    description: fields.description ?? null,
    ending_balance: customer.balance,
    invoice: fields.invoice ?? null,
    livemode: false,
    metadata: fields.metadata ?? {},
    type: fields.type ?? "adjustment",
  } satisfies Stripe.CustomerBalanceTransaction;
  ctx.stripe.balanceTransactions.set(transaction.id, transaction);
  emit(ctx, "customer.updated", customer, before);
  return transaction;
}

// ---------------------------------------------------------------------------
// Periods

/** `start` plus one billing interval of the price (calendar months keep the day, as Stripe does). */
export function periodEnd(start: number, price: Price): number {
  const recurring = price.recurring;
  if (!recurring) throw new Error(`price ${price.id} is not recurring`);
  const count = recurring.interval_count;
  switch (recurring.interval) {
    case "day":
      return start + 86_400 * count;
    case "week":
      return start + 7 * 86_400 * count;
    case "month":
      return Math.floor(addMonths(start * 1000, count) / 1000);
    case "year":
      return Math.floor(addMonths(start * 1000, 12 * count) / 1000);
  }
}

// ---------------------------------------------------------------------------
// Invoices

/**
 * An invoice for `lines`, paid at once (or left open when `fail`). The
 * customer's credit balance pays what it can first; a negative total (a
 * downgrade's proration) becomes credit.
 */
export function issueInvoice(
  ctx: Context,
  fields: { customer: Customer; subscription: Subscription | null; billingReason: string; lines: InvoiceLine[]; fail?: boolean },
): Invoice {
  const { customer, subscription } = fields;
  const id = stripeId("in");
  const created = nowSeconds();
  const subtotal = fields.lines.reduce((sum, line) => sum + line.amount, 0);
  // The subscription's discounts that still last take their share of every line (credits for unused time too).
  const discounts = subscription ? activeDiscounts(ctx, subscription, created) : [];
  const lineDiscounts = fields.lines.map((line) =>
    discounts
      .map((discount) => ({ amount: Math.sign(line.amount) * couponDiscount(discount.source.coupon, Math.abs(line.amount)), discount: discount.id }))
      .filter((entry) => entry.amount !== 0),
  );
  const totalDiscounts = discounts
    .map((discount) => ({
      amount: lineDiscounts
        .flat()
        .filter((entry) => entry.discount === discount.id)
        .reduce((sum, entry) => sum + entry.amount, 0),
      discount: discount.id,
    }))
    .filter((entry) => entry.amount !== 0);
  const total = subtotal - totalDiscounts.reduce((sum, entry) => sum + entry.amount, 0);
  const startingBalance = customer.balance;
  let amountDue = total;
  let applied = 0;
  if (total > 0 && startingBalance < 0) {
    applied = Math.min(total, -startingBalance);
    amountDue = total - applied;
  } else if (total < 0) {
    applied = total;
    amountDue = 0;
  }
  const paid = !fields.fail || amountDue === 0;
  const periods = fields.lines.map((line) => line.period);
  const invoice: Invoice = {
    id,
    object: "invoice",
    account_country: "US",
    account_name: "Pinboard Studio (sandbox)",
    account_tax_ids: null,
    amount_due: amountDue,
    amount_overpaid: 0,
    amount_paid: paid ? amountDue : 0,
    amount_remaining: paid ? 0 : amountDue,
    amount_shipping: 0,
    application: null,
    attempt_count: 1,
    attempted: true,
    auto_advance: !paid,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null, provider: null, status: null },
    automatically_finalizes_at: null,
    billing_reason: fields.billingReason,
    collection_method: "charge_automatically",
    created,
    currency: "usd",
    custom_fields: null,
    customer: customer.id,
    customer_account: null,
    customer_address: null,
    customer_email: customer.email,
    customer_name: customer.name,
    customer_phone: null,
    customer_shipping: null,
    customer_tax_exempt: "none",
    customer_tax_ids: [],
    default_payment_method: null,
    default_source: null,
    default_tax_rates: [],
    description: null,
    discounts: discounts.map((discount) => discount.id),
    due_date: null,
    effective_at: created,
    ending_balance: startingBalance + applied,
    footer: null,
    from_invoice: null,
    hosted_invoice_url: null,
    invoice_pdf: null,
    issuer: { type: "self" },
    last_finalization_error: null,
    latest_revision: null,
    lines: {
      object: "list",
      data: fields.lines.map(
        (line, index) =>
          ({
            id: stripeId("il"),
            object: "line_item",
            amount: line.amount,
            currency: "usd",
            description: line.description,
            discount_amounts: lineDiscounts[index],
            discountable: true,
            discounts: lineDiscounts[index].map((entry) => entry.discount),
            invoice: id,
            livemode: false,
            metadata: {},
            parent: subscription
              ? {
                  type: "subscription_item_details",
                  invoice_item_details: null,
                  subscription_item_details: {
                    invoice_item: null,
                    proration: line.proration,
                    proration_details: { credited_items: null },
                    subscription: subscription.id,
                    subscription_item: line.subscriptionItem,
                  },
                }
              : null,
            period: line.period,
            pretax_credit_amounts: [],
            pricing: {
              price_details: { price: line.price.id, product: line.price.product },
              type: "price_details",
              unit_amount_decimal: String(line.price.unit_amount),
            },
            quantity: 1,
            quantity_decimal: "1",
            subscription: subscription?.id ?? null,
            subtotal: line.amount,
            taxes: [],
            // Decimals are strings on the wire; the SDK's type is its Decimal class.
          }) satisfies SdkShape<Stripe.InvoiceLineItem, "pricing" | "quantity_decimal">,
      ),
      has_more: false,
      total_count: fields.lines.length,
      url: `/v1/invoices/${id}/lines`,
    },
    livemode: false,
    metadata: {},
    next_payment_attempt: paid ? null : created + 3 * 86_400,
    number: `${String(customer.invoice_prefix)}-${String(customer.next_invoice_sequence).padStart(4, "0")}`,
    on_behalf_of: null,
    parent: subscription
      ? { type: "subscription_details", quote_details: null, subscription_details: { metadata: { ...subscription.metadata }, subscription: subscription.id } }
      : null,
    payment_settings: { default_mandate: null, payment_method_options: null, payment_method_types: null },
    period_end: Math.max(created, ...periods.map((p) => p.start)),
    period_start: Math.min(created, ...periods.map((p) => p.start)),
    post_payment_credit_notes_amount: 0,
    pre_payment_credit_notes_amount: 0,
    receipt_number: null,
    rendering: null,
    shipping_cost: null,
    shipping_details: null,
    starting_balance: startingBalance,
    statement_descriptor: null,
    status: paid ? "paid" : "open",
    status_transitions: { finalized_at: created, marked_uncollectible_at: null, paid_at: paid ? created : null, voided_at: null },
    subtotal,
    subtotal_excluding_tax: subtotal,
    test_clock: null,
    total,
    total_discount_amounts: totalDiscounts,
    total_excluding_tax: total,
    total_pretax_credit_amounts: [],
    total_taxes: [],
    webhooks_delivered_at: null,
  } satisfies SdkShape<Stripe.Invoice, "lines">;
  customer.next_invoice_sequence = Number(customer.next_invoice_sequence) + 1;
  ctx.stripe.invoices.set(id, invoice);
  if (subscription && subtotal > 0) endOnceDiscounts(ctx, subscription, discounts);
  if (applied !== 0) addBalanceTransaction(ctx, customer, { amount: applied, type: "applied_to_invoice", invoice: id });
  emit(ctx, "invoice.created", invoice);
  emit(ctx, "invoice.finalized", invoice);
  // What the card paid: a payment intent and its charge, linked to the invoice by an invoice payment.
  if (paid && amountDue > 0) payInvoice(ctx, invoice, customer);
  if (paid) {
    emit(ctx, "invoice.paid", invoice);
    emit(ctx, "invoice.payment_succeeded", invoice);
  } else {
    emit(ctx, "invoice.payment_failed", invoice);
  }
  return invoice;
}

/** The subscription's discounts in force at `at`: a repeating coupon's ends after its months. */
function activeDiscounts(ctx: Context, subscription: Subscription, at: number): Discount[] {
  return subscription.discounts
    .map((id) => ctx.stripe.discounts.get(id))
    .filter((discount): discount is Discount => discount !== undefined && (discount.end === null || discount.end > at));
}

/** A coupon with duration "once" applies to the first invoice that charges something, then leaves the subscription. */
function endOnceDiscounts(ctx: Context, subscription: Subscription, applied: Discount[]) {
  const spent = new Set(applied.filter((discount) => discount.source.coupon.duration === "once").map((discount) => discount.id));
  if (spent.size === 0) return;
  subscription.discounts = subscription.discounts.filter((id) => !spent.has(id));
  for (const id of spent) ctx.stripe.discounts.get(id)!.end = nowSeconds();
}

function fullPeriodLine(price: Price, quantity: number, period: { start: number; end: number }, item: string): InvoiceLine {
  const interval = price.recurring ? ` / ${price.recurring.interval}` : "";
  return {
    amount: price.unit_amount * quantity,
    description: `${quantity} × ${price.nickname ?? price.id} (at ${money(price.unit_amount)}${interval})`,
    period,
    price,
    proration: false,
    subscriptionItem: item,
  };
}

// ---------------------------------------------------------------------------
// Subscriptions

export function createSubscription(
  ctx: Context,
  fields: {
    customer: Customer;
    items: { price: Price; quantity: number }[];
    trialPeriodDays: number | null;
    metadata: Record<string, string>;
    /** A checkout session's discount: the subscription gets its own discount for the same coupon. */
    discount?: Discount | null;
  },
): { subscription: Subscription; invoice: Invoice } {
  const id = stripeId("sub");
  const start = nowSeconds();
  let discount: Discount | null = null;
  if (fields.discount) {
    const coupon = fields.discount.source.coupon;
    discount = {
      ...structuredClone(fields.discount),
      id: stripeId("di"),
      customer: fields.customer.id,
      start,
      end: coupon.duration === "repeating" && coupon.duration_in_months ? Math.floor(addMonths(start * 1000, coupon.duration_in_months) / 1000) : null,
      subscription: id,
    };
    ctx.stripe.discounts.set(discount.id, discount);
  }
  const trialEnd = fields.trialPeriodDays ? start + fields.trialPeriodDays * 86_400 : null;
  const first = fields.items[0].price;
  const end = trialEnd ?? periodEnd(start, first);
  const items: SubscriptionItem[] = fields.items.map(
    ({ price, quantity }) =>
      ({
        id: stripeId("si", 14),
        object: "subscription_item",
        billing_thresholds: null,
        created: start,
        current_period_end: end,
        current_period_start: start,
        current_trial: null,
        discounts: [],
        metadata: {},
        plan: planOf(price),
        price,
        quantity,
        subscription: id,
        tax_rates: [],
      }) satisfies SdkShape<Stripe.SubscriptionItem, "price" | "plan">,
  );
  const subscription: Subscription = {
    id,
    object: "subscription",
    application: null,
    application_fee_percent: null,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null },
    billing_cycle_anchor: end === trialEnd ? trialEnd : start,
    billing_cycle_anchor_config: null,
    billing_mode: { flexible: null, type: "classic", updated_at: start },
    billing_schedules: [],
    billing_thresholds: null,
    cancel_at: null,
    cancel_at_period_end: false,
    canceled_at: null,
    cancellation_details: { comment: null, feedback: null, feedback_option: null, reason: null },
    collection_method: "charge_automatically",
    created: start,
    currency: "usd",
    customer: fields.customer.id,
    customer_account: null,
    days_until_due: null,
    default_payment_method: null,
    default_source: null,
    default_tax_rates: [],
    description: null,
    discounts: discount ? [discount.id] : [],
    ended_at: null,
    invoice_settings: { account_tax_ids: null, custom_fields: null, description: null, footer: null, issuer: { type: "self" } },
    items: { object: "list" as const, data: items, has_more: false as const, total_count: items.length, url: `/v1/subscription_items?subscription=${id}` },
    latest_invoice: null,
    livemode: false,
    managed_payments: null,
    metadata: fields.metadata,
    next_pending_invoice_item_invoice: null,
    on_behalf_of: null,
    pause_collection: null,
    payment_settings: { payment_method_options: null, payment_method_types: null, save_default_payment_method: "off" },
    pending_invoice_item_interval: null,
    pending_setup_intent: null,
    pending_update: null,
    schedule: null,
    start_date: start,
    status: trialEnd ? "trialing" : "active",
    test_clock: null,
    transfer_data: null,
    trial_end: trialEnd,
    trial_settings: { end_behavior: { billing_cycle_anchor: null, missing_payment_method: "create_invoice" } },
    trial_start: trialEnd ? start : null,
  } satisfies SdkShape<Stripe.Subscription, "items">;
  ctx.stripe.subscriptions.set(id, subscription);
  emit(ctx, "customer.subscription.created", subscription);
  const lines = items.map((item) =>
    trialEnd
      ? {
          amount: 0,
          description: `Trial period for ${item.price.nickname ?? item.price.id}`,
          period: { start, end },
          price: item.price,
          proration: false,
          subscriptionItem: item.id,
        }
      : fullPeriodLine(item.price, item.quantity, { start, end }, item.id),
  );
  const invoice = issueInvoice(ctx, { customer: fields.customer, subscription, billingReason: "subscription_create", lines });
  subscription.latest_invoice = invoice.id;
  return { subscription, invoice };
}

export interface SubscriptionChange {
  items?: { id?: string; price?: Price; quantity?: number }[];
  prorationBehavior?: "create_prorations" | "none" | "always_invoice";
  cancelAtPeriodEnd?: boolean;
  cancellationDetails?: { comment?: string; feedback?: string };
  metadata?: Record<string, string>;
}

/** POST /v1/subscriptions/:id: a price switch with proration, cancel_at_period_end, metadata. */
export function updateSubscription(ctx: Context, subscription: Subscription, change: SubscriptionChange): Subscription {
  if (subscription.status === "canceled" && (change.items || change.cancelAtPeriodEnd !== undefined)) {
    throw new StripeApiError(400, "A canceled subscription can only update its cancellation_details and metadata.");
  }
  const before = structuredClone(subscription);
  const customer = ctx.stripe.customers.get(subscription.customer)!;
  const now = nowSeconds();
  let invoiceLines: InvoiceLine[] | null = null;

  for (const [index, wanted] of (change.items ?? []).entries()) {
    const item = wanted.id ? subscription.items.data.find((candidate) => candidate.id === wanted.id) : undefined;
    if (wanted.id && !item)
      throw new StripeApiError(400, `No such subscription item: '${wanted.id}'`, { code: "resource_missing", param: `items[${index}][id]` });
    if (!item) throw new StripeApiError(400, "This sandbox only changes existing subscription items: pass items[0][id].", { param: `items[${index}][id]` });
    const newPrice = wanted.price ?? item.price;
    const quantity = wanted.quantity ?? item.quantity;
    if (!newPrice.recurring)
      throw new StripeApiError(400, "The price specified is set to `type=one_time` but this field only accepts prices with `type=recurring`.", {
        param: `items[${index}][price]`,
      });
    const oldPrice = item.price;
    if (newPrice.id === oldPrice.id && quantity === item.quantity) continue;
    const lines = prorationLines(subscription, item, newPrice, quantity, now, change.prorationBehavior ?? "create_prorations");
    item.price = newPrice;
    item.quantity = quantity;
    if (lines.resetPeriod) {
      for (const other of subscription.items.data) {
        other.current_period_start = lines.resetPeriod.start;
        other.current_period_end = lines.resetPeriod.end;
      }
      subscription.billing_cycle_anchor = lines.resetPeriod.start;
      invoiceLines = [...(invoiceLines ?? []), ...lines.lines];
    } else if (lines.lines.length > 0) {
      if (change.prorationBehavior === "always_invoice") invoiceLines = [...(invoiceLines ?? []), ...lines.lines];
      else ctx.stripe.pendingProrations.set(subscription.id, [...(ctx.stripe.pendingProrations.get(subscription.id) ?? []), ...lines.lines]);
    }
  }

  if (change.cancelAtPeriodEnd !== undefined) {
    subscription.cancel_at_period_end = change.cancelAtPeriodEnd;
    subscription.cancel_at = change.cancelAtPeriodEnd ? subscription.items.data[0].current_period_end : null;
    subscription.canceled_at = change.cancelAtPeriodEnd ? now : null;
    subscription.cancellation_details = { comment: null, feedback: null, reason: change.cancelAtPeriodEnd ? "cancellation_requested" : null };
  }
  if (change.cancellationDetails) {
    subscription.cancellation_details = {
      comment: change.cancellationDetails.comment ?? subscription.cancellation_details?.comment ?? null,
      feedback: change.cancellationDetails.feedback ?? subscription.cancellation_details?.feedback ?? null,
      reason: subscription.cancellation_details?.reason ?? null,
    };
  }
  if (change.metadata) subscription.metadata = change.metadata;

  if (invoiceLines) {
    const invoice = issueInvoice(ctx, { customer, subscription, billingReason: "subscription_update", lines: invoiceLines });
    subscription.latest_invoice = invoice.id;
  }
  const previous = changedFields(before, subscription);
  if (Object.keys(previous).length > 0) emit(ctx, "customer.subscription.updated", subscription, previous);
  return subscription;
}

/**
 * What switching an item to `price` costs: within the same interval, the
 * price difference for the time left in the period (nothing while trialing);
 * to another interval, a new period from now, credited for the unused time.
 */
function prorationLines(subscription: Subscription, item: SubscriptionItem, price: Price, quantity: number, now: number, behavior: string) {
  const oldPrice = item.price;
  const start = item.current_period_start;
  const end = item.current_period_end;
  if (subscription.status === "trialing") return { lines: [] as InvoiceLine[], resetPeriod: null };
  const left = Math.max(0, Math.min(1, (end - now) / Math.max(1, end - start)));
  const unused: InvoiceLine = {
    amount: -Math.round(oldPrice.unit_amount * item.quantity * left),
    description: `Unused time on ${oldPrice.nickname ?? oldPrice.id} after ${day(now)}`,
    period: { start: now, end },
    price: oldPrice,
    proration: true,
    subscriptionItem: item.id,
  };
  if (oldPrice.recurring?.interval !== price.recurring?.interval || oldPrice.recurring?.interval_count !== price.recurring?.interval_count) {
    const resetPeriod = { start: now, end: periodEnd(now, price) };
    const lines = [...(behavior === "none" ? [] : [unused]), fullPeriodLine(price, quantity, resetPeriod, item.id)];
    return { lines, resetPeriod };
  }
  if (behavior === "none") return { lines: [] as InvoiceLine[], resetPeriod: null };
  const remaining: InvoiceLine = {
    amount: Math.round(price.unit_amount * quantity * left),
    description: `Remaining time on ${price.nickname ?? price.id} after ${day(now)}`,
    period: { start: now, end },
    price,
    proration: true,
    subscriptionItem: item.id,
  };
  return { lines: [unused, remaining], resetPeriod: null };
}

/** DELETE /v1/subscriptions/:id: ends it now. */
export function cancelSubscription(ctx: Context, subscription: Subscription, details: { comment?: string; feedback?: string } = {}): Subscription {
  if (subscription.status === "canceled")
    throw new StripeApiError(400, `This subscription has already been canceled: '${subscription.id}'`, { code: "resource_missing" });
  const before = structuredClone(subscription);
  const now = nowSeconds();
  subscription.status = "canceled";
  subscription.ended_at = now;
  subscription.canceled_at ??= now;
  subscription.cancellation_details = {
    comment: details.comment ?? subscription.cancellation_details?.comment ?? null,
    feedback: details.feedback ?? subscription.cancellation_details?.feedback ?? null,
    reason: subscription.cancellation_details?.reason ?? "cancellation_requested",
  };
  ctx.stripe.pendingProrations.delete(subscription.id);
  emit(ctx, "customer.subscription.deleted", subscription, changedFields(before, subscription));
  return subscription;
}

/**
 * The current period ends now (sandbox control, like advancing a test
 * clock): a subscription set to cancel at period end ends; any other starts
 * its next period from now and is invoiced (paid, or failed: past_due).
 */
export function renewSubscription(ctx: Context, subscription: Subscription, options: { fail?: boolean } = {}): Subscription {
  if (subscription.status === "canceled" || subscription.status === "incomplete_expired") {
    throw new StripeApiError(400, `Subscription ${subscription.id} has ended and cannot renew.`);
  }
  if (subscription.cancel_at_period_end) return cancelSubscription(ctx, subscription);
  const before = structuredClone(subscription);
  const start = nowSeconds();
  const customer = ctx.stripe.customers.get(subscription.customer)!;
  const lines: InvoiceLine[] = [];
  for (const item of subscription.items.data) {
    item.current_period_start = start;
    item.current_period_end = periodEnd(start, item.price);
    lines.push(fullPeriodLine(item.price, item.quantity, { start, end: item.current_period_end }, item.id));
  }
  lines.push(...(ctx.stripe.pendingProrations.get(subscription.id) ?? []));
  ctx.stripe.pendingProrations.delete(subscription.id);
  subscription.billing_cycle_anchor = start;
  if (subscription.trial_end !== null && subscription.trial_end > start) subscription.trial_end = start;
  subscription.status = options.fail ? "past_due" : "active";
  const invoice = issueInvoice(ctx, { customer, subscription, billingReason: "subscription_cycle", lines, fail: options.fail });
  subscription.latest_invoice = invoice.id;
  emit(ctx, "customer.subscription.updated", subscription, changedFields(before, subscription));
  return subscription;
}

// ---------------------------------------------------------------------------
// Payment intents

/** Test payment methods as Stripe names them: pm_card_chargeDeclined declines, any other pm_... pays. */
export function isDeclined(paymentMethod: string): boolean {
  return /declined/i.test(paymentMethod);
}

export function createPaymentIntent(
  ctx: Context,
  fields: {
    amount: number;
    currency: string;
    customer: string | null;
    description?: string | null;
    metadata?: Record<string, string>;
    paymentMethod?: string | null;
  },
): PaymentIntent {
  const id = stripeId("pi");
  const intent: PaymentIntent = {
    id,
    object: "payment_intent",
    amount: fields.amount,
    amount_capturable: 0,
    allowed_payment_method_types: null,
    amount_details: { tip: {} },
    customer_account: null,
    excluded_payment_method_types: null,
    managed_payments: null,
    amount_received: 0,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: null,
    canceled_at: null,
    cancellation_reason: null,
    capture_method: "automatic",
    client_secret: `${id}_secret_${stripeId("x", 20).slice(2)}`,
    confirmation_method: "automatic",
    created: nowSeconds(),
    currency: fields.currency,
    customer: fields.customer,
    description: fields.description ?? null,
    last_payment_error: null,
    latest_charge: null,
    livemode: false,
    metadata: fields.metadata ?? {},
    next_action: null,
    on_behalf_of: null,
    payment_method: fields.paymentMethod ?? null,
    payment_method_options: {},
    payment_method_types: ["card"],
    payment_method_configuration_details: null,
    payment_record: null,
    processing: null,
    receipt_email: null,
    review: null,
    setup_future_usage: null,
    shipping: null,
    source: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: fields.paymentMethod ? "requires_confirmation" : "requires_payment_method",
    transfer_data: null,
    transfer_group: null,
  } satisfies Stripe.PaymentIntent;
  ctx.stripe.paymentIntents.set(id, intent);
  emit(ctx, "payment_intent.created", intent);
  return intent;
}

/** Confirms with a payment method: succeeds, or answers Stripe's card_declined error (402). */
export function confirmPaymentIntent(ctx: Context, intent: PaymentIntent, paymentMethod: string | undefined): PaymentIntent {
  if (intent.status === "succeeded" || intent.status === "canceled") {
    throw new StripeApiError(400, `This PaymentIntent's status is ${intent.status}, so it cannot be confirmed.`, { code: "payment_intent_unexpected_state" });
  }
  const method = paymentMethod ?? intent.payment_method;
  if (!method)
    throw new StripeApiError(400, "You cannot confirm this PaymentIntent because it's missing a payment method.", {
      code: "payment_intent_unexpected_state",
      param: "payment_method",
    });
  intent.payment_method = method;
  if (isDeclined(method)) {
    intent.status = "requires_payment_method";
    intent.last_payment_error = { code: "card_declined", decline_code: "generic_decline", message: "Your card was declined.", type: "card_error" };
    emit(ctx, "payment_intent.payment_failed", intent);
    throw new StripeApiError(402, "Your card was declined.", {
      type: "card_error",
      code: "card_declined",
      extra: { decline_code: "generic_decline", payment_intent: structuredClone(intent) },
    });
  }
  intent.status = "succeeded";
  intent.amount_received = intent.amount;
  intent.last_payment_error = null;
  const charge = createCharge(ctx, intent);
  intent.latest_charge = charge.id;
  emit(ctx, "payment_intent.succeeded", intent);
  emit(ctx, "charge.succeeded", charge);
  return intent;
}

/** The charge of a payment intent that succeeded. */
function createCharge(ctx: Context, intent: PaymentIntent): Charge {
  const id = stripeId("ch");
  const charge: Charge = {
    id,
    object: "charge",
    amount: intent.amount,
    amount_captured: intent.amount,
    amount_refunded: 0,
    application: null,
    application_fee: null,
    application_fee_amount: null,
    balance_transaction: null,
    billing_details: { address: null, email: null, name: null, phone: null, tax_id: null },
    calculated_statement_descriptor: "PINBOARD STUDIO",
    captured: true,
    created: nowSeconds(),
    currency: intent.currency,
    customer: intent.customer,
    description: typeof intent.description === "string" ? intent.description : null,
    disputed: false,
    failure_balance_transaction: null,
    failure_code: null,
    failure_message: null,
    fraud_details: {},
    livemode: false,
    metadata: { ...intent.metadata },
    on_behalf_of: null,
    outcome: {
      advice_code: null,
      network_advice_code: null,
      network_decline_code: null,
      network_status: "approved_by_network",
      reason: null,
      risk_level: "normal",
      seller_message: "Payment complete.",
      type: "authorized",
    },
    paid: true,
    payment_intent: intent.id,
    payment_method: intent.payment_method,
    payment_method_details: {
      type: "card",
      card: {
        amount_authorized: intent.amount,
        authorization_code: "123456",
        brand: "visa",
        checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: "pass" },
        country: "US",
        electronic_commerce_indicator: null,
        exp_month: 12,
        exp_year: 2034,
        funding: "credit",
        installments: null,
        last4: "4242",
        mandate: null,
        network: "visa",
        network_token: { used: false },
        network_transaction_id: "1234567890123456",
        transaction_link_id: null,
        regulated_status: "unregulated",
        three_d_secure: null,
        wallet: null,
      },
    },
    receipt_email: null,
    receipt_number: null,
    receipt_url: null,
    refunded: false,
    review: null,
    shipping: null,
    source: null,
    source_transfer: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: "succeeded",
    transfer_data: null,
    transfer_group: null,
  } satisfies Stripe.Charge;
  ctx.stripe.charges.set(id, charge);
  return charge;
}

/** An invoice paid by card: its payment intent, the charge, and the invoice payment linking them. */
function payInvoice(ctx: Context, invoice: Invoice, customer: Customer) {
  const intent = createPaymentIntent(ctx, {
    amount: invoice.amount_paid,
    currency: String(invoice.currency),
    customer: customer.id,
    description: invoice.billing_reason === "subscription_create" ? "Subscription creation" : "Subscription update",
    paymentMethod: "pm_card_visa",
  });
  confirmPaymentIntent(ctx, intent, undefined);
  const id = stripeId("inpay");
  ctx.stripe.invoicePayments.set(id, {
    id,
    object: "invoice_payment",
    amount_paid: invoice.amount_paid,
    amount_requested: invoice.amount_paid,
    created: nowSeconds(),
    currency: String(invoice.currency),
    invoice: invoice.id,
    is_default: true,
    livemode: false,
    payment: { type: "payment_intent", payment_intent: intent.id },
    status: "paid" as const,
    status_transitions: { canceled_at: null, paid_at: nowSeconds() },
  } satisfies Stripe.InvoicePayment);
}

// ---------------------------------------------------------------------------
// Refunds and disputes

/**
 * POST /v1/refunds: gives back (part of) a charge, at once. Refused as Stripe refuses: more than is left to
 * refund, a charge refunded already, or one under dispute.
 */
export function refundCharge(ctx: Context, charge: Charge, fields: { amount?: number; reason?: Refund["reason"]; metadata?: Record<string, string> }): Refund {
  if (charge.disputed) throw new StripeApiError(400, `Charge ${charge.id} has been charged back; cannot issue a refund.`, { code: "charge_disputed" });
  if (charge.refunded) throw new StripeApiError(400, `Charge ${charge.id} has already been refunded.`, { code: "charge_already_refunded" });
  const left = charge.amount - charge.amount_refunded;
  const amount = fields.amount ?? left;
  if (amount < 1) throw new StripeApiError(400, "Refund amount must be at least 1 cent.", { code: "parameter_invalid_integer", param: "amount" });
  if (amount > left) {
    throw new StripeApiError(400, `Refund amount (${money(amount)}) is greater than unrefunded amount on charge (${money(left)})`, {
      code: "amount_too_large",
      param: "amount",
    });
  }
  const refund: Refund = {
    id: stripeId("re"),
    object: "refund",
    amount,
    balance_transaction: null,
    charge: charge.id,
    created: nowSeconds(),
    currency: charge.currency,
    customer: charge.customer,
    customer_account: null,
    destination_details: { type: "card", card: { reference_status: "pending", reference_type: "acquirer_reference_number", type: "refund" } },
    metadata: fields.metadata ?? {},
    payment_intent: charge.payment_intent,
    payment_method: typeof charge.payment_method === "string" ? charge.payment_method : null,
    reason: fields.reason ?? null,
    receipt_number: null,
    source_transfer_reversal: null,
    status: "succeeded" as const,
    transfer_reversal: null,
  } satisfies Stripe.Refund;
  ctx.stripe.refunds.set(refund.id, refund);
  const before = { amount_refunded: charge.amount_refunded, refunded: charge.refunded };
  charge.amount_refunded += amount;
  charge.refunded = charge.amount_refunded >= charge.amount;
  emit(ctx, "refund.created", refund);
  emit(ctx, "charge.refunded", charge, before);
  return refund;
}

/** A customer disputes a charge with their bank (sandbox control): the funds are withdrawn at once. */
export function disputeCharge(ctx: Context, charge: Charge, fields: { amount?: number; reason?: string }): Dispute {
  if (charge.disputed) throw new StripeApiError(400, `Charge ${charge.id} is already disputed.`, { code: "charge_disputed" });
  const amount = fields.amount ?? charge.amount - charge.amount_refunded;
  if (amount < 1 || amount > charge.amount - charge.amount_refunded)
    throw new StripeApiError(400, `A dispute can be for 1 to ${charge.amount - charge.amount_refunded} cents of this charge.`, { param: "amount" });
  const created = nowSeconds();
  const dispute: Dispute = {
    id: stripeId("du"),
    object: "dispute",
    amount,
    balance_transactions: [],
    charge: charge.id,
    created,
    currency: charge.currency,
    enhanced_eligibility_types: [],
    intended_submission_method: null,
    evidence: {
      access_activity_log: null,
      billing_address: null,
      cancellation_policy: null,
      cancellation_policy_disclosure: null,
      cancellation_rebuttal: null,
      customer_communication: null,
      customer_email_address: null,
      customer_name: null,
      customer_purchase_ip: null,
      customer_signature: null,
      duplicate_charge_documentation: null,
      duplicate_charge_explanation: null,
      duplicate_charge_id: null,
      enhanced_evidence: {},
      product_description: null,
      receipt: null,
      refund_policy: null,
      refund_policy_disclosure: null,
      refund_refusal_explanation: null,
      service_date: null,
      service_documentation: null,
      shipping_address: null,
      shipping_carrier: null,
      shipping_date: null,
      shipping_documentation: null,
      shipping_tracking_number: null,
      uncategorized_file: null,
      uncategorized_text: null,
    },
    evidence_details: {
      due_by: created + 7 * 86_400,
      enhanced_eligibility: {},
      has_evidence: false,
      past_due: false,
      submission_count: 0,
      submission_method: "not_submitted",
    },
    is_charge_refundable: false,
    livemode: false,
    metadata: {},
    payment_intent: charge.payment_intent,
    reason: fields.reason ?? "fraudulent",
    status: "needs_response",
  } satisfies Stripe.Dispute;
  ctx.stripe.disputes.set(dispute.id, dispute);
  charge.disputed = true;
  emit(ctx, "charge.dispute.created", dispute);
  emit(ctx, "charge.dispute.funds_withdrawn", dispute);
  return dispute;
}

/**
 * A dispute decided: lost (the bank decided for the customer, or POST /v1/disputes/:id/close, the merchant
 * accepting it) or won (the funds are reinstated). A closed dispute cannot change again.
 */
export function closeDispute(ctx: Context, dispute: Dispute, outcome: "won" | "lost"): Dispute {
  if (dispute.status === "won" || dispute.status === "lost" || dispute.status === "warning_closed") {
    throw new StripeApiError(400, `This dispute is already closed (${dispute.status}).`, { code: "dispute_already_closed" });
  }
  const before = { status: dispute.status };
  dispute.status = outcome;
  emit(ctx, "charge.dispute.closed", dispute, before);
  if (outcome === "won") emit(ctx, "charge.dispute.funds_reinstated", dispute);
  return dispute;
}

// ---------------------------------------------------------------------------
// Checkout

/**
 * The hosted checkout page was paid: a subscription (with its trial) or a
 * payment intent, the session complete, and the events Stripe sends.
 */
export function completeCheckout(ctx: Context, session: CheckoutSession, payer: { email: string | null }): CheckoutSession {
  const details = ctx.stripe.sessionDetails.get(session.id)!;
  let customer = session.customer ? ctx.stripe.customers.get(session.customer) : undefined;
  if (!customer) {
    customer = createCustomer(ctx, { email: payer.email ?? session.customer_email });
    session.customer = customer.id;
  }
  if (details.discount) {
    const coupon = ctx.stripe.coupons.get(details.discount.source.coupon.id);
    if (coupon) coupon.times_redeemed += 1;
    details.discount.customer = customer.id;
  }
  if (session.mode === "subscription") {
    const { subscription, invoice } = createSubscription(ctx, {
      customer,
      items: details.lineItems,
      trialPeriodDays: details.trialPeriodDays,
      metadata: details.subscriptionMetadata,
      discount: details.discount,
    });
    session.subscription = subscription.id;
    session.invoice = invoice.id;
    session.payment_status = invoice.amount_due === 0 && subscription.status === "trialing" ? "no_payment_required" : "paid";
  } else {
    const intent = createPaymentIntent(ctx, {
      amount: session.amount_total,
      currency: session.currency,
      customer: customer.id,
      metadata: details.paymentIntentMetadata,
      paymentMethod: "pm_card_visa",
    });
    confirmPaymentIntent(ctx, intent, undefined);
    session.payment_intent = intent.id;
    session.payment_status = "paid";
  }
  session.status = "complete";
  session.customer_details = { address: null, email: customer.email, name: customer.name, phone: null, tax_exempt: "none", tax_ids: [] };
  emit(ctx, "checkout.session.completed", session);
  return session;
}
