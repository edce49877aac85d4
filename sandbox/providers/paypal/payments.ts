import type { Context, Hono } from "hono";

/**
 * The PayPal stand-in's payments (docs/decisions/077-refunds-and-disputes.md): the sale of each subscription
 * payment, its refunds, and the buyer's disputes, in the shapes of PayPal's Payments API v1 and Disputes API v1.
 *
 * - `GET /v1/payments/sale/:id`: the sale (state completed, partially_refunded, refunded or reversed);
 * - `POST /v1/payments/sale/:id/refund {amount?: {total, currency}}`: refunds all of it, or part;
 *   PAYMENT.SALE.REFUNDED; `GET /v1/payments/refund/:id`;
 * - `GET /v1/customer/disputes/:id`; `POST /v1/customer/disputes/:id/adjudicate {adjudication_outcome:
 *   BUYER_FAVOR|SELLER_FAVOR}` (PayPal's own sandbox-only call): CUSTOMER.DISPUTE.RESOLVED, and in the
 *   buyer's favour the sale is reversed (PAYMENT.SALE.REVERSED).
 *
 * A buyer opens a dispute outside any API (the sandbox control does it): CUSTOMER.DISPUTE.CREATED.
 */

export interface Money {
  currency_code: string;
  value: string;
}

export interface Sale {
  id: string;
  state: "completed" | "partially_refunded" | "refunded" | "reversed";
  amount: { total: string; currency: string; details: { subtotal: string } };
  payment_mode: "INSTANT_TRANSFER";
  protection_eligibility: "ELIGIBLE";
  billing_agreement_id: string;
  reason_code?: "CHARGEBACK";
  create_time: string;
  update_time: string;
}

export interface SaleRefund {
  id: string;
  state: "completed";
  amount: { total: string; currency: string };
  sale_id: string;
  create_time: string;
  update_time: string;
}

export interface Dispute {
  dispute_id: string;
  create_time: string;
  update_time: string;
  disputed_transactions: { seller_transaction_id: string; create_time: string; transaction_status: string; gross_amount: Money }[];
  reason: "UNAUTHORISED" | "MERCHANDISE_OR_SERVICE_NOT_RECEIVED";
  status: "OPEN" | "WAITING_FOR_SELLER_RESPONSE" | "UNDER_REVIEW" | "RESOLVED";
  dispute_amount: Money;
  dispute_outcome?: { outcome_code: "RESOLVED_BUYER_FAVOUR" | "RESOLVED_SELLER_FAVOUR"; amount_refunded?: Money };
  dispute_life_cycle_stage: "CHARGEBACK";
  dispute_channel: "EXTERNAL";
}

export interface PayPalPayments {
  sales: Map<string, Sale>;
  /** Each subscription's latest sale (PAYMENT.SALE.COMPLETED carries it). */
  latestSale: Map<string, string>;
  refunds: Map<string, SaleRefund>;
  disputes: Map<string, Dispute>;
}

export function createPayPalPayments(): PayPalPayments {
  return { sales: new Map(), latestSale: new Map(), refunds: new Map(), disputes: new Map() };
}

/** What the stand-in's index gives this module: its payments, ids and times, and how to raise a webhook event. */
export interface PaymentsContext {
  payments: PayPalPayments;
  randomId: (length: number) => string;
  isoNow: () => string;
  /** Raises an event about the subscription `subject`; `resource` is sent as it is. */
  emit: (event: { type: string; subject: string; resourceType: string; summary: string; resource: Record<string, unknown> }) => void;
}

const cents = (value: string) => Math.round(Number(value) * 100);
const dollars = (amount: number) => (amount / 100).toFixed(2);

/** The sale of a payment of `subscriptionId`, at `time` (the subscription's last_payment.time). */
export function createSale(ctx: PaymentsContext, subscriptionId: string, amount: Money, time: string): Sale {
  const sale: Sale = {
    id: ctx.randomId(17),
    state: "completed",
    amount: { total: amount.value, currency: amount.currency_code, details: { subtotal: amount.value } },
    payment_mode: "INSTANT_TRANSFER",
    protection_eligibility: "ELIGIBLE",
    billing_agreement_id: subscriptionId,
    create_time: time,
    update_time: time,
  };
  ctx.payments.sales.set(sale.id, sale);
  ctx.payments.latestSale.set(subscriptionId, sale.id);
  return sale;
}

function refundedCents(ctx: PaymentsContext, sale: Sale): number {
  return [...ctx.payments.refunds.values()].filter((refund) => refund.sale_id === sale.id).reduce((sum, refund) => sum + cents(refund.amount.total), 0);
}

/** A refund refused: PayPal's v1 error (name and message). */
export class PaymentsError extends Error {
  readonly status: 400 | 404 | 422;
  readonly issue: string;
  constructor(status: 400 | 404 | 422, issue: string, message: string) {
    super(message);
    this.status = status;
    this.issue = issue;
  }
}

/** Refunds all that is left of a sale, or `amount` of it: PAYMENT.SALE.REFUNDED. */
export function refundSale(ctx: PaymentsContext, sale: Sale, amount?: { total?: unknown; currency?: unknown }): SaleRefund {
  if (sale.state === "refunded" || sale.state === "reversed")
    throw new PaymentsError(400, "TRANSACTION_REFUSED", `The sale was ${sale.state}; nothing is left to refund.`);
  const left = cents(sale.amount.total) - refundedCents(ctx, sale);
  let wanted = left;
  if (amount !== undefined) {
    if (typeof amount.total !== "string" || !/^\d{1,7}(\.\d{1,2})?$/.test(amount.total) || amount.currency !== sale.amount.currency) {
      throw new PaymentsError(400, "VALIDATION_ERROR", "Invalid request: amount must be {total, currency} in the sale's currency.");
    }
    wanted = cents(amount.total);
  }
  if (wanted < 1) throw new PaymentsError(400, "VALIDATION_ERROR", "Invalid request: the refund must be more than 0.");
  if (wanted > left) throw new PaymentsError(400, "REFUND_EXCEEDED_TRANSACTION_AMOUNT", "Refund amount exceeded transaction amount.");
  const now = ctx.isoNow();
  const refund: SaleRefund = {
    id: ctx.randomId(17),
    state: "completed",
    amount: { total: dollars(wanted), currency: sale.amount.currency },
    sale_id: sale.id,
    create_time: now,
    update_time: now,
  };
  ctx.payments.refunds.set(refund.id, refund);
  sale.state = wanted === left ? "refunded" : "partially_refunded";
  sale.update_time = now;
  ctx.emit({
    type: "PAYMENT.SALE.REFUNDED",
    subject: sale.billing_agreement_id,
    resourceType: "refund",
    summary: `A ${refund.amount.total} ${refund.amount.currency} sale payment was refunded`,
    resource: { ...refund, parent_payment: `PAYID-${sale.id}` },
  });
  return refund;
}

/** A buyer disputes a sale (sandbox control): CUSTOMER.DISPUTE.CREATED. */
export function disputeSale(ctx: PaymentsContext, sale: Sale, amount?: number): Dispute {
  if (sale.state === "refunded" || sale.state === "reversed")
    throw new PaymentsError(422, "UNPROCESSABLE_ENTITY", `The sale was ${sale.state}; it cannot be disputed.`);
  const left = cents(sale.amount.total) - refundedCents(ctx, sale);
  const disputed = amount ?? left;
  if (!Number.isInteger(disputed) || disputed < 1 || disputed > left)
    throw new PaymentsError(400, "VALIDATION_ERROR", `A dispute can be for 1 to ${left} cents of this sale.`);
  const now = ctx.isoNow();
  const dispute: Dispute = {
    dispute_id: `PP-D-${ctx.randomId(5)}`,
    create_time: now,
    update_time: now,
    disputed_transactions: [
      {
        seller_transaction_id: sale.id,
        create_time: sale.create_time,
        transaction_status: "COMPLETED",
        gross_amount: { currency_code: sale.amount.currency, value: sale.amount.total },
      },
    ],
    reason: "UNAUTHORISED",
    status: "OPEN",
    dispute_amount: { currency_code: sale.amount.currency, value: dollars(disputed) },
    dispute_life_cycle_stage: "CHARGEBACK",
    dispute_channel: "EXTERNAL",
  };
  ctx.payments.disputes.set(dispute.dispute_id, dispute);
  ctx.emit({
    type: "CUSTOMER.DISPUTE.CREATED",
    subject: sale.billing_agreement_id,
    resourceType: "dispute",
    summary: "A new dispute opened",
    resource: { ...dispute },
  });
  return dispute;
}

/** PayPal decides a dispute: CUSTOMER.DISPUTE.RESOLVED; for the buyer, the sale is reversed (PAYMENT.SALE.REVERSED). */
export function resolveDispute(ctx: PaymentsContext, dispute: Dispute, outcome: "BUYER_FAVOR" | "SELLER_FAVOR"): Dispute {
  if (dispute.status === "RESOLVED") throw new PaymentsError(422, "UNPROCESSABLE_ENTITY", "The dispute is already resolved.");
  const sale = ctx.payments.sales.get(dispute.disputed_transactions[0].seller_transaction_id)!;
  const now = ctx.isoNow();
  dispute.status = "RESOLVED";
  dispute.update_time = now;
  dispute.dispute_outcome =
    outcome === "BUYER_FAVOR"
      ? { outcome_code: "RESOLVED_BUYER_FAVOUR", amount_refunded: { ...dispute.dispute_amount } }
      : { outcome_code: "RESOLVED_SELLER_FAVOUR" };
  ctx.emit({
    type: "CUSTOMER.DISPUTE.RESOLVED",
    subject: sale.billing_agreement_id,
    resourceType: "dispute",
    summary: "A dispute was resolved",
    resource: { ...dispute },
  });
  if (outcome === "BUYER_FAVOR") {
    sale.state = "reversed";
    sale.reason_code = "CHARGEBACK";
    sale.update_time = now;
    ctx.emit({
      type: "PAYMENT.SALE.REVERSED",
      subject: sale.billing_agreement_id,
      resourceType: "refund",
      summary: `A ${dispute.dispute_amount.value} ${dispute.dispute_amount.currency_code} sale payment was reversed`,
      resource: {
        id: ctx.randomId(17),
        state: "completed",
        amount: { total: `-${dispute.dispute_amount.value}`, currency: dispute.dispute_amount.currency_code },
        sale_id: sale.id,
        parent_payment: `PAYID-${sale.id}`,
        reason_code: "CHARGEBACK",
        create_time: now,
        update_time: now,
      },
    });
  }
  return dispute;
}

/** Registers the payments and disputes routes on the stand-in's app (their token check is the app's). */
export function paymentsRoutes(app: Hono, contextOf: (c: Context) => PaymentsContext) {
  const origin = (c: Context) => new URL(c.req.url).origin;
  const notFound = (c: Context) =>
    c.json(
      {
        name: "RESOURCE_NOT_FOUND",
        message: "The requested resource was not found.",
        information_link: "https://developer.paypal.com/docs/api/payments/v1/#error-RESOURCE_NOT_FOUND",
        debug_id: contextOf(c).randomId(13).toLowerCase(),
      },
      404,
    );
  const refused = (c: Context, error: PaymentsError) =>
    c.json(
      {
        name: error.issue,
        message: error.message,
        information_link: `https://developer.paypal.com/docs/api/payments/v1/#error-${error.issue}`,
        debug_id: contextOf(c).randomId(13).toLowerCase(),
      },
      error.status,
    );
  const saleView = (c: Context, sale: Sale) => ({
    ...sale,
    links: [
      { href: `${origin(c)}/paypal/v1/payments/sale/${sale.id}`, rel: "self", method: "GET" },
      { href: `${origin(c)}/paypal/v1/payments/sale/${sale.id}/refund`, rel: "refund", method: "POST" },
    ],
  });

  app.get("/v1/payments/sale/:id", (c) => {
    const sale = contextOf(c).payments.sales.get(c.req.param("id"));
    return sale ? c.json(saleView(c, sale)) : notFound(c);
  });
  app.post("/v1/payments/sale/:id/refund", async (c) => {
    const ctx = contextOf(c);
    const sale = ctx.payments.sales.get(c.req.param("id"));
    if (!sale) return notFound(c);
    const body = (await c.req.json().catch(() => ({}))) as { amount?: { total?: unknown; currency?: unknown } } | null;
    try {
      const refund = refundSale(ctx, sale, body?.amount);
      return c.json(
        { ...refund, parent_payment: `PAYID-${sale.id}`, links: [{ href: `${origin(c)}/paypal/v1/payments/refund/${refund.id}`, rel: "self", method: "GET" }] },
        201,
      );
    } catch (error) {
      if (error instanceof PaymentsError) return refused(c, error);
      throw error;
    }
  });
  app.get("/v1/payments/refund/:id", (c) => {
    const refund = contextOf(c).payments.refunds.get(c.req.param("id"));
    return refund
      ? c.json({ ...refund, links: [{ href: `${origin(c)}/paypal/v1/payments/sale/${refund.sale_id}`, rel: "sale", method: "GET" }] })
      : notFound(c);
  });
  app.get("/v1/customer/disputes/:id", (c) => {
    const dispute = contextOf(c).payments.disputes.get(c.req.param("id"));
    return dispute
      ? c.json({ ...dispute, links: [{ href: `${origin(c)}/paypal/v1/customer/disputes/${dispute.dispute_id}`, rel: "self", method: "GET" }] })
      : notFound(c);
  });
  app.post("/v1/customer/disputes/:id/adjudicate", async (c) => {
    const ctx = contextOf(c);
    const dispute = ctx.payments.disputes.get(c.req.param("id"));
    if (!dispute) return notFound(c);
    const body = (await c.req.json().catch(() => ({}))) as { adjudication_outcome?: unknown } | null;
    const outcome = body?.adjudication_outcome;
    if (outcome !== "BUYER_FAVOR" && outcome !== "SELLER_FAVOR")
      return refused(c, new PaymentsError(400, "INVALID_REQUEST", "adjudication_outcome must be BUYER_FAVOR or SELLER_FAVOR."));
    try {
      resolveDispute(ctx, dispute, outcome);
      return c.json({ links: [{ href: `${origin(c)}/paypal/v1/customer/disputes/${dispute.dispute_id}`, rel: "self", method: "GET" }] });
    } catch (error) {
      if (error instanceof PaymentsError) return refused(c, error);
      throw error;
    }
  });
}
