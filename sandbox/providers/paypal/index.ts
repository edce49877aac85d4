import { Hono, type Context } from "hono";
import { PAYPAL_PLAN_IDS, PAYPAL_TRIAL_PLAN_IDS } from "../../../contracts/billing/billing-paypal-shopify.ts";
import { PLAN_ROWS } from "../../../workers/db/seed-data.ts";
import { addMonths } from "../../../workers/domain/plans.ts";
import { escapeHtml, standalonePage } from "../../html.ts";
import { SANDBOX_PAYPAL_WEBHOOK_ID } from "../../provider-vars.ts";
import { providerState, type SandboxState } from "../../state.ts";
import { createOutbox, outboxControl, outgoingEvents, raise, type Outbox } from "../../webhook-outbox.ts";
import {
  createPayPalPayments,
  createSale,
  disputeSale,
  paymentsRoutes,
  PaymentsError,
  refundSale,
  resolveDispute,
  type PayPalPayments,
  type PaymentsContext,
} from "./payments.ts";
import { certPem, crc32, CERT_PATH, signTransmission, verifyTransmission } from "./signing.ts";

/**
 * Stand-in for PayPal's REST API, mounted at /paypal (docs/decisions/014-paypal-shopify.md):
 *
 * - `POST /v1/oauth2/token`: client-credentials tokens (Basic auth, any non-empty client id and secret);
 * - `GET /v1/billing/plans/:id`: the plans of contracts/billing/billing-paypal-shopify.ts (prices of the seed data);
 * - `/v1/billing/subscriptions`: create (APPROVAL_PENDING with an approve link), GET, and
 *   `:id/cancel`, `:id/suspend`, `:id/activate`, `:id/revise`, with PayPal's statuses, error
 *   objects (RESOURCE_NOT_FOUND, UNPROCESSABLE_ENTITY / SUBSCRIPTION_STATUS_INVALID) and 204s;
 * - `GET|POST /webapps/billing/subscriptions?ba_token=`: the approval page behind an approve link;
 *   approving activates the subscription (or applies a revision) and redirects to return_url with
 *   subscription_id, ba_token and token.
 *
 * A revision to a dearer plan needs the payer's approval (an approve link); a cheaper one applies at
 * once. Inspection: `GET /__sandbox/paypal/subscriptions`.
 *
 * Plans with a free trial (contracts PAYPAL_TRIAL_PLAN_IDS) have a TRIAL billing cycle (sequence 1,
 * one cycle of the plan's trial days, no charge) before the REGULAR one (sequence 2): approving one
 * charges nothing, and next_billing_time is the trial's end. Create and revise take PayPal's plan
 * override (`plan: {billing_cycles: [{sequence, total_cycles?, pricing_scheme: {fixed_price}}]}`):
 * the subscription answers `plan_overridden: true`, every payment charges the overridden price and
 * `GET ...?fields=plan` shows the plan with it.
 *
 * Webhooks, as PayPal sends them: every change raises an event (BILLING.SUBSCRIPTION.ACTIVATED, RE-ACTIVATED,
 * UPDATED, CANCELLED, SUSPENDED, EXPIRED, PAYMENT.FAILED; PAYMENT.SALE.COMPLETED for each payment)
 * POSTed to PAYPAL_WEBHOOK_URL with PayPal's transmission headers, signed with SHA256withRSA over
 * `{transmission id}|{time}|{webhook id}|{CRC32 of the body}`; `POST
 * /v1/notifications/verify-webhook-signature` checks such a signature honestly (SUCCESS / FAILURE)
 * and `GET /v1/notifications/certs/:id` serves the public key. Controls: see paypalControl.
 */

export interface PayPalSubscriptionObject {
  id: string;
  plan_id: string;
  status: "APPROVAL_PENDING" | "APPROVED" | "ACTIVE" | "SUSPENDED" | "CANCELLED" | "EXPIRED";
  status_update_time: string;
  status_change_note?: string;
  start_time: string;
  create_time: string;
  update_time: string;
  custom_id?: string;
  quantity: string;
  plan_overridden: boolean;
  subscriber?: {
    email_address: string;
    payer_id: string;
    name: { given_name: string; surname: string };
  };
  billing_info?: {
    outstanding_balance: Money;
    cycle_executions: {
      tenure_type: string;
      sequence: number;
      cycles_completed: number;
      cycles_remaining: number;
      total_cycles: number;
    }[];
    last_payment?: { amount: Money; time: string };
    next_billing_time?: string;
    failed_payments_count: number;
  };
}

interface Money {
  currency_code: string;
  value: string;
}

/** A plan override's prices, by billing cycle sequence. */
type CycleOverride = Map<number, { totalCycles: number | null; price: Money }>;

interface Approval {
  token: string;
  subscriptionId: string;
  /** A revision's new plan; absent when approving a new subscription. */
  revisePlanId?: string;
  /** A revision's plan override (null: the new plan's own prices). */
  reviseOverride?: CycleOverride | null;
  returnUrl: string;
  cancelUrl: string;
  done: boolean;
}

interface PayPalState {
  tokens: Set<string>;
  subscriptions: Map<string, PayPalSubscriptionObject>;
  /** Plan overrides of subscriptions whose plan_overridden is true. */
  overrides: Map<string, CycleOverride>;
  approvals: Map<string, Approval>;
  /** Webhook events and their deliveries (to PAYPAL_WEBHOOK_URL). */
  outbox: Outbox;
  /** The id of the webhook the events are sent for (PAYPAL_WEBHOOK_ID); it is part of what is signed. */
  webhookId: string;
  /** Sales of the subscriptions' payments, their refunds and disputes (./payments.ts). */
  payments: PayPalPayments;
}

export function paypalState(state: SandboxState): PayPalState {
  return providerState(state, "paypal", () => ({
    tokens: new Set<string>(),
    subscriptions: new Map(),
    overrides: new Map(),
    approvals: new Map(),
    outbox: createOutbox(process.env.PAYPAL_WEBHOOK_URL || null),
    webhookId: process.env.PAYPAL_WEBHOOK_ID || SANDBOX_PAYPAL_WEBHOOK_ID,
    payments: createPayPalPayments(),
  }));
}

const EVENT_SUMMARIES: Record<string, string> = {
  "BILLING.SUBSCRIPTION.ACTIVATED": "Subscription activated",
  "BILLING.SUBSCRIPTION.RE-ACTIVATED": "Subscription re-activated",
  "BILLING.SUBSCRIPTION.UPDATED": "Subscription updated",
  "BILLING.SUBSCRIPTION.CANCELLED": "Subscription cancelled",
  "BILLING.SUBSCRIPTION.SUSPENDED": "Subscription suspended",
  "BILLING.SUBSCRIPTION.EXPIRED": "Subscription expired",
  "BILLING.SUBSCRIPTION.PAYMENT.FAILED": "Subscription payment failed",
  "PAYMENT.SALE.COMPLETED": "Payment completed",
};

/**
 * Raises a webhook event about a subscription (a snapshot of it now; for
 * PAYMENT.SALE.COMPLETED, the sale of its last payment) and queues its delivery.
 */
function emit(state: SandboxState, origin: string, type: string, subscription: PayPalSubscriptionObject) {
  const now = isoNow();
  if (type === "PAYMENT.SALE.COMPLETED") {
    const sale = paypalState(state).payments.sales.get(paypalState(state).payments.latestSale.get(subscription.id) ?? "");
    if (!sale) return;
    raiseEvent(state, origin, {
      type,
      subject: subscription.id,
      resourceType: "sale",
      summary: EVENT_SUMMARIES[type],
      resource: { ...structuredClone(sale), links: [{ href: `${origin}/paypal/v1/payments/sale/${sale.id}`, rel: "self", method: "GET" }] },
    });
    return;
  }
  raiseEvent(state, origin, {
    type,
    subject: subscription.id,
    resourceType: "subscription",
    resourceVersion: "2.0",
    summary: EVENT_SUMMARIES[type] ?? type,
    resource: {
      ...structuredClone(subscription),
      links: [{ href: `${origin}/paypal/v1/billing/subscriptions/${subscription.id}`, rel: "self", method: "GET" }],
    },
    created: now,
  });
}

/** Raises a webhook event (signed as PayPal signs it) about the subscription `subject`, and queues its delivery. */
function raiseEvent(
  state: SandboxState,
  origin: string,
  fields: {
    type: string;
    subject: string;
    resourceType: string;
    resourceVersion?: string;
    summary: string;
    resource: Record<string, unknown>;
    created?: string;
  },
) {
  const paypal = paypalState(state);
  const id = `WH-${randomId(17)}-${randomId(17)}`;
  const now = fields.created ?? isoNow();
  const event = {
    id,
    event_version: "1.0",
    create_time: now,
    resource_type: fields.resourceType,
    resource_version: fields.resourceVersion ?? "1.0",
    event_type: fields.type,
    summary: fields.summary,
    resource: fields.resource,
    links: [
      { href: `${origin}/paypal/v1/notifications/webhooks-events/${id}`, rel: "self", method: "GET" },
      { href: `${origin}/paypal/v1/notifications/webhooks-events/${id}/resend`, rel: "resend", method: "POST" },
    ],
  };
  const body = JSON.stringify(event);
  const transmissionId = crypto.randomUUID();
  const transmissionTime = new Date().toISOString();
  raise(
    paypal.outbox,
    {
      id,
      type: fields.type,
      subject: fields.subject,
      object: fields.subject,
      created: now,
      body,
      headers: {
        "content-type": "application/json",
        "user-agent": "PayPal/AUHD-214.0-58814960",
        "paypal-transmission-id": transmissionId,
        "paypal-transmission-time": transmissionTime,
        "paypal-transmission-sig": signTransmission(transmissionId, transmissionTime, paypal.webhookId, crc32(body)),
        "paypal-cert-url": `${origin}/paypal${CERT_PATH}`,
        "paypal-auth-algo": "SHA256withRSA",
        "paypal-auth-version": "v2",
      },
    },
    () => state.providers.get("paypal") === paypal,
  );
}

/** What ./payments.ts needs of the stand-in: its payments, ids, times and events. */
function paymentsContext(state: SandboxState, origin: string): PaymentsContext {
  return { payments: paypalState(state).payments, randomId, isoNow, emit: (event) => raiseEvent(state, origin, event) };
}

const CHARS = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789";
function randomId(length: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return Array.from(bytes, (byte) => CHARS[byte % CHARS.length]).join("");
}
/** A payer id as PayPal's description has it: 13 of 2-9 and A-Z without I and O. */
function payerId(): string {
  const chars = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";
  return Array.from(crypto.getRandomValues(new Uint8Array(13)), (byte) => chars[byte % chars.length]).join("");
}
const isoNow = () => new Date().toISOString().replace(/\.\d{3}Z$/, "Z");

interface PlanView {
  id: string;
  product_id: string;
  name: string;
  status: "ACTIVE";
  interval: "MONTH" | "YEAR";
  price: Money;
  /** Days of the free TRIAL cycle before the REGULAR one; 0 when the plan has none. */
  trialDays: number;
}

function plans(): Map<string, PlanView> {
  const map = new Map<string, PlanView>();
  const add = (planId: string, paypalId: string, trial: boolean) => {
    const row = PLAN_ROWS.find((candidate) => candidate.id === planId);
    if (!row) return;
    map.set(paypalId, {
      id: paypalId,
      product_id: "PROD-PINBOARDSTUDIO01",
      name: `${row.name} (${row.billingPeriod === "year" ? "annual" : "monthly"})${trial ? ` with a ${row.freeTrialDays}-day free trial` : ""}`,
      status: "ACTIVE",
      interval: row.billingPeriod === "year" ? "YEAR" : "MONTH",
      price: { currency_code: "USD", value: row.price.toFixed(2) },
      trialDays: trial ? Number(row.freeTrialDays) : 0,
    });
  };
  for (const [planId, paypalId] of Object.entries(PAYPAL_PLAN_IDS)) add(planId, paypalId, false);
  for (const [planId, paypalId] of Object.entries(PAYPAL_TRIAL_PLAN_IDS)) add(planId, paypalId, true);
  return map;
}
const PLANS = plans();

interface BillingCycleView {
  frequency: { interval_unit: string; interval_count: number };
  tenure_type: "TRIAL" | "REGULAR";
  sequence: number;
  total_cycles: number;
  pricing_scheme?: { version: number; fixed_price: Money };
}

/** The plan's billing cycles (a free TRIAL first when it has one), with a subscription's override applied. */
function billingCycles(plan: PlanView, override?: CycleOverride): BillingCycleView[] {
  const cycles: BillingCycleView[] = [];
  if (plan.trialDays > 0)
    cycles.push({ frequency: { interval_unit: "DAY", interval_count: plan.trialDays }, tenure_type: "TRIAL", sequence: 1, total_cycles: 1 });
  cycles.push({
    frequency: { interval_unit: plan.interval, interval_count: 1 },
    tenure_type: "REGULAR",
    sequence: cycles.length + 1,
    total_cycles: 0,
    pricing_scheme: { version: 1, fixed_price: plan.price },
  });
  return cycles.map((cycle) => {
    const changed = override?.get(cycle.sequence);
    if (!changed) return cycle;
    return { ...cycle, total_cycles: changed.totalCycles ?? cycle.total_cycles, pricing_scheme: { version: 1, fixed_price: changed.price } };
  });
}

/** What a REGULAR cycle of the subscription charges: the override's price, else the plan's. */
function regularPrice(state: SandboxState, subscription: PayPalSubscriptionObject): Money | null {
  const plan = PLANS.get(subscription.plan_id);
  if (!plan) return null;
  const regular = billingCycles(plan, paypalState(state).overrides.get(subscription.id)).find((cycle) => cycle.tenure_type === "REGULAR");
  return regular?.pricing_scheme?.fixed_price ?? plan.price;
}

/**
 * PayPal's plan override (`plan.billing_cycles`) checked against the plan: each entry names an
 * existing cycle's sequence and a fixed price in the plan's currency. Answers the override, or the
 * error detail to answer with 422.
 */
function parseOverride(plan: PlanView, input: unknown): { override: CycleOverride } | { error: { issue: string; field: string; description: string } } {
  const cycles = (input as { billing_cycles?: unknown } | null)?.billing_cycles;
  const bad = (field: string, description: string) => ({ error: { issue: "INVALID_PARAMETER_VALUE", field: `/plan${field}`, description } });
  if (!Array.isArray(cycles) || cycles.length === 0) return bad("/billing_cycles", "billing_cycles must list the cycles to override.");
  const sequences = new Set(billingCycles(plan).map((cycle) => cycle.sequence));
  const override: CycleOverride = new Map();
  for (const [index, raw] of cycles.entries()) {
    const cycle = raw as { sequence?: unknown; total_cycles?: unknown; pricing_scheme?: { fixed_price?: { value?: unknown; currency_code?: unknown } } } | null;
    const at = `/billing_cycles/${index}`;
    if (!cycle || typeof cycle.sequence !== "number" || !sequences.has(cycle.sequence))
      return bad(`${at}/sequence`, "The sequence is not a billing cycle of the plan.");
    if (
      cycle.total_cycles !== undefined &&
      !(Number.isInteger(cycle.total_cycles) && (cycle.total_cycles as number) >= 0 && (cycle.total_cycles as number) <= 999)
    )
      return bad(`${at}/total_cycles`, "total_cycles must be between 0 and 999.");
    const price = cycle.pricing_scheme?.fixed_price;
    if (!price || typeof price.value !== "string" || !/^\d{1,7}(\.\d{1,2})?$/.test(price.value))
      return bad(`${at}/pricing_scheme/fixed_price/value`, "The value must be a decimal amount such as 9.99.");
    if (price.currency_code !== plan.price.currency_code) return bad(`${at}/pricing_scheme/fixed_price/currency_code`, "The currency must be the plan's.");
    override.set(cycle.sequence, {
      totalCycles: (cycle.total_cycles as number | undefined) ?? null,
      price: { currency_code: plan.price.currency_code, value: Number(price.value).toFixed(2) },
    });
  }
  return { override };
}

function planView(plan: PlanView, override?: CycleOverride) {
  return {
    id: plan.id,
    product_id: plan.product_id,
    name: plan.name,
    status: plan.status,
    quantity_supported: false,
    billing_cycles: billingCycles(plan, override),
    payment_preferences: {
      auto_bill_outstanding: true,
      setup_fee_failure_action: "CONTINUE",
      payment_failure_threshold: 3,
    },
    create_time: "2026-01-01T00:00:00Z",
    update_time: "2026-01-01T00:00:00Z",
  };
}

type C = Context;

function paypalError(
  c: C,
  status: 400 | 401 | 404 | 422,
  name: string,
  message: string,
  details: { issue: string; description: string; field?: string }[] = [],
) {
  return c.json(
    {
      name,
      message,
      debug_id: randomId(13).toLowerCase(),
      details,
      links: [
        {
          href: `https://developer.paypal.com/docs/api/v1/billing/subscriptions#error-${details[0]?.issue ?? name}`,
          rel: "information_link",
          method: "GET",
        },
      ],
    },
    status,
  );
}

/** PayPal's answer to a plan_id that is not one of its plans (its description lists INVALID_PARAMETER_VALUE among the 400s). */
function invalidPlanId(c: Context) {
  return paypalError(c, 400, "INVALID_REQUEST", "Request is not well-formed, syntactically incorrect, or violates schema.", [
    { issue: "INVALID_PARAMETER_VALUE", field: "/plan_id", description: "The value of a field is invalid." },
  ]);
}

const statusInvalid = (c: C, action: string, allowed: string) =>
  paypalError(c, 422, "UNPROCESSABLE_ENTITY", "The requested action could not be performed, semantically incorrect, or failed business validation.", [
    {
      issue: "SUBSCRIPTION_STATUS_INVALID",
      description: `Invalid subscription status for ${action} action; subscription status should be ${allowed}.`,
    },
  ]);

function origin(c: C): string {
  return new URL(c.req.url).origin;
}

function links(c: C, subscription: PayPalSubscriptionObject, approvalToken?: string) {
  const self = `${origin(c)}/paypal/v1/billing/subscriptions/${subscription.id}`;
  const list = [
    { href: self, rel: "self", method: "GET" },
    { href: self, rel: "edit", method: "PATCH" },
  ];
  if (approvalToken)
    list.unshift({
      href: `${origin(c)}/paypal/webapps/billing/subscriptions?ba_token=${approvalToken}`,
      rel: "approve",
      method: "GET",
    });
  if (subscription.status === "ACTIVE")
    list.push({ href: `${self}/suspend`, rel: "suspend", method: "POST" }, { href: `${self}/cancel`, rel: "cancel", method: "POST" });
  if (subscription.status === "SUSPENDED")
    list.push({ href: `${self}/activate`, rel: "activate", method: "POST" }, { href: `${self}/cancel`, rel: "cancel", method: "POST" });
  return list;
}

function view(c: C, subscription: PayPalSubscriptionObject) {
  return { ...subscription, links: links(c, subscription) };
}

async function jsonBody(c: C): Promise<Record<string, unknown> | null> {
  try {
    const body = await c.req.json();
    return body && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function setStatus(subscription: PayPalSubscriptionObject, status: PayPalSubscriptionObject["status"], note?: string) {
  subscription.status = status;
  subscription.status_update_time = isoNow();
  subscription.update_time = subscription.status_update_time;
  if (note) subscription.status_change_note = note;
}

/** The cycle executions of a subscription on `plan`: the trial's (done or not) and the regular one's. */
function cycleExecutions(plan: PlanView, trialDone: boolean, regularCompleted: number) {
  const executions = [];
  if (plan.trialDays > 0)
    executions.push({ tenure_type: "TRIAL", sequence: 1, cycles_completed: trialDone ? 1 : 0, cycles_remaining: trialDone ? 0 : 1, total_cycles: 1 });
  executions.push({ tenure_type: "REGULAR", sequence: executions.length + 1, cycles_completed: regularCompleted, cycles_remaining: 0, total_cycles: 0 });
  return executions;
}

/** A free trial begins: nothing is charged; the first payment is due when the trial ends. */
function startTrial(subscription: PayPalSubscriptionObject, plan: PlanView) {
  subscription.billing_info = {
    outstanding_balance: { currency_code: plan.price.currency_code, value: "0.00" },
    cycle_executions: cycleExecutions(plan, false, 0),
    next_billing_time: new Date(Date.now() + plan.trialDays * 86_400_000).toISOString().replace(/\.\d{3}Z$/, "Z"),
    failed_payments_count: 0,
  };
}

/** A payment now at the subscription's regular price (its override's, else the plan's), and the next billing time one interval on. */
function bill(state: SandboxState, subscription: PayPalSubscriptionObject) {
  const plan = PLANS.get(subscription.plan_id);
  const price = regularPrice(state, subscription);
  if (!plan || !price) return;
  const now = Date.now();
  const regular = subscription.billing_info?.cycle_executions.find((execution) => execution.tenure_type === "REGULAR");
  subscription.billing_info = {
    outstanding_balance: { currency_code: "USD", value: "0.00" },
    cycle_executions: cycleExecutions(plan, true, (regular?.cycles_completed ?? 0) + 1),
    last_payment: {
      amount: price,
      time: new Date(now).toISOString().replace(/\.\d{3}Z$/, "Z"),
    },
    next_billing_time: new Date(addMonths(now, plan.interval === "YEAR" ? 12 : 1)).toISOString().replace(/\.\d{3}Z$/, "Z"),
    failed_payments_count: 0,
  };
  // The payment's sale, at the payment's time (PAYMENT.SALE.COMPLETED carries it).
  createSale(paymentsContext(state, ""), subscription.id, price, subscription.billing_info.last_payment!.time);
}

function returnUrlOf(context: Record<string, unknown> | undefined): { returnUrl: string; cancelUrl: string } | null {
  const returnUrl = context?.return_url;
  const cancelUrl = context?.cancel_url;
  if (typeof returnUrl !== "string" || typeof cancelUrl !== "string" || !/^https?:\/\//.test(returnUrl) || !/^https?:\/\//.test(cancelUrl)) return null;
  return { returnUrl, cancelUrl };
}

export function paypalProvider(state: SandboxState) {
  const app = new Hono();

  app.post("/v1/oauth2/token", async (c) => {
    const auth = c.req.header("authorization") ?? "";
    let credentials = "";
    try {
      credentials = auth.startsWith("Basic ") ? atob(auth.slice(6)) : "";
    } catch {
      credentials = "";
    }
    const [clientId, secret] = credentials.split(":");
    if (!clientId || !secret)
      return c.json(
        {
          error: "invalid_client",
          error_description: "Client Authentication failed",
        },
        401,
      );
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    if (form.grant_type !== "client_credentials")
      return c.json(
        {
          error: "unsupported_grant_type",
          error_description: "Grant Type is NULL",
        },
        400,
      );
    const token = `A21AA${randomId(40)}`;
    paypalState(state).tokens.add(token);
    return c.json({
      scope: "https://uri.paypal.com/services/subscriptions",
      access_token: token,
      token_type: "Bearer",
      app_id: "APP-80W284485P519543T",
      expires_in: 32400,
      nonce: `${isoNow()}${randomId(20)}`,
    });
  });

  const requireToken = async (c: Context, next: () => Promise<void>) => {
    const auth = c.req.header("authorization") ?? "";
    if (!auth.startsWith("Bearer ") || !paypalState(state).tokens.has(auth.slice(7))) {
      return c.json({ error: "invalid_token", error_description: "Token signature verification failed" }, 401);
    }
    await next();
  };
  app.use("/v1/payments/*", requireToken);
  app.use("/v1/customer/*", requireToken);
  paymentsRoutes(app, (c) => paymentsContext(state, origin(c)));

  app.use("/v1/billing/*", async (c, next) => {
    const auth = c.req.header("authorization") ?? "";
    if (!auth.startsWith("Bearer ") || !paypalState(state).tokens.has(auth.slice(7))) {
      return c.json(
        {
          error: "invalid_token",
          error_description: "Token signature verification failed",
        },
        401,
      );
    }
    await next();
  });

  app.get(CERT_PATH, (c) => c.text(certPem(), 200, { "content-type": "application/x-pem-file" }));

  app.post("/v1/notifications/verify-webhook-signature", async (c) => {
    const auth = c.req.header("authorization") ?? "";
    if (!auth.startsWith("Bearer ") || !paypalState(state).tokens.has(auth.slice(7)))
      return c.json({ error: "invalid_token", error_description: "Token signature verification failed" }, 401);
    const body = await jsonBody(c);
    const fields = ["auth_algo", "cert_url", "transmission_id", "transmission_sig", "transmission_time", "webhook_id"] as const;
    const missing = body ? fields.filter((field) => typeof body[field] !== "string" || !(body[field] as string).trim()) : [...fields];
    if (!body?.webhook_event || typeof body.webhook_event !== "object") missing.push("webhook_event" as (typeof fields)[number]);
    if (!body || missing.length > 0)
      return paypalError(
        c,
        400,
        "VALIDATION_ERROR",
        "Invalid request - see details",
        missing.map((field) => ({ field: `/${field}`, issue: "MISSING_REQUIRED_PARAMETER", description: "A required field is missing." })),
      );
    const text = (field: (typeof fields)[number]) => body[field] as string;
    let certPath = "";
    try {
      certPath = new URL(text("cert_url")).pathname;
    } catch {
      certPath = "";
    }
    // The signature covers the webhook id and the event exactly as it was sent.
    const verified =
      text("auth_algo") === "SHA256withRSA" &&
      certPath.endsWith(`/paypal${CERT_PATH}`) &&
      verifyTransmission({
        transmissionId: text("transmission_id"),
        transmissionTime: text("transmission_time"),
        webhookId: text("webhook_id"),
        crc: crc32(JSON.stringify(body.webhook_event)),
        signature: text("transmission_sig"),
      });
    return c.json({ verification_status: verified ? "SUCCESS" : "FAILURE" });
  });

  app.get("/v1/billing/plans/:id", (c) => {
    const plan = PLANS.get(c.req.param("id"));
    if (!plan)
      return paypalError(c, 404, "RESOURCE_NOT_FOUND", "The specified resource does not exist.", [
        {
          issue: "INVALID_RESOURCE_ID",
          description: "Specified resource ID does not exist. Please check the resource ID and try again.",
        },
      ]);
    return c.json(planView(plan));
  });

  app.post("/v1/billing/subscriptions", async (c) => {
    const body = await jsonBody(c);
    if (!body)
      return paypalError(c, 400, "INVALID_REQUEST", "Request is not well-formed, syntactically incorrect, or violates schema.", [
        {
          issue: "MALFORMED_REQUEST_JSON",
          description: "The request JSON is not well formed.",
        },
      ]);
    const planId = body.plan_id;
    if (typeof planId !== "string" || !PLANS.has(planId)) {
      return invalidPlanId(c);
    }
    const urls = returnUrlOf(body.application_context as Record<string, unknown> | undefined);
    if (!urls)
      return paypalError(c, 400, "INVALID_REQUEST", "Request is not well-formed, syntactically incorrect, or violates schema.", [
        {
          issue: "MISSING_REQUIRED_PARAMETER",
          field: "/application_context/return_url",
          description: "A required field is missing.",
        },
      ]);
    let override: CycleOverride | null = null;
    if (body.plan !== undefined) {
      const parsed = parseOverride(PLANS.get(planId)!, body.plan);
      if ("error" in parsed) return unprocessable(c, parsed.error);
      override = parsed.override;
    }
    const now = isoNow();
    const subscription: PayPalSubscriptionObject = {
      id: `I-${randomId(12)}`,
      plan_id: planId,
      status: "APPROVAL_PENDING",
      status_update_time: now,
      start_time: now,
      create_time: now,
      update_time: now,
      quantity: "1",
      plan_overridden: override !== null,
      ...(typeof body.custom_id === "string" ? { custom_id: body.custom_id.slice(0, 127) } : {}),
    };
    const paypal = paypalState(state);
    paypal.subscriptions.set(subscription.id, subscription);
    if (override) paypal.overrides.set(subscription.id, override);
    const token = `BA-${randomId(17)}`;
    paypal.approvals.set(token, {
      token,
      subscriptionId: subscription.id,
      ...urls,
      done: false,
    });
    return c.json(
      {
        id: subscription.id,
        status: subscription.status,
        status_update_time: now,
        plan_id: planId,
        plan_overridden: subscription.plan_overridden,
        create_time: now,
        ...(subscription.custom_id ? { custom_id: subscription.custom_id } : {}),
        links: links(c, subscription, token),
      },
      201,
    );
  });

  const find = (c: C) => paypalState(state).subscriptions.get(c.req.param("id") ?? "");
  const notFound = (c: C) =>
    paypalError(c, 404, "RESOURCE_NOT_FOUND", "The specified resource does not exist.", [
      {
        issue: "INVALID_RESOURCE_ID",
        description: "Specified resource ID does not exist. Please check the resource ID and try again.",
      },
    ]);
  /** The body's reason; null when missing; PayPal's 400 when longer than the 128 characters it takes. */
  const reasonOf = async (c: C): Promise<string | null | Response> => {
    const body = await jsonBody(c);
    if (typeof body?.reason !== "string" || !body.reason.trim()) return null;
    if (body.reason.length > 128)
      return paypalError(c, 400, "INVALID_REQUEST", "Request is not well-formed, syntactically incorrect, or violates schema.", [
        { issue: "INVALID_STRING_MAX_LENGTH", field: "/reason", description: "The value of a field is too long." },
      ]);
    return body.reason;
  };
  const missingReason = (c: C) =>
    paypalError(c, 400, "INVALID_REQUEST", "Request is not well-formed, syntactically incorrect, or violates schema.", [
      {
        issue: "MISSING_REQUIRED_PARAMETER",
        field: "/reason",
        description: "A required field is missing.",
      },
    ]);

  // `fields=plan` adds the plan as this subscription has it (with its override), as PayPal does.
  app.get("/v1/billing/subscriptions/:id", (c) => {
    const subscription = find(c);
    if (!subscription) return notFound(c);
    const fields = (c.req.query("fields") ?? "").split(",").map((field) => field.trim());
    const plan = PLANS.get(subscription.plan_id);
    if (!fields.includes("plan") || !plan) return c.json(view(c, subscription));
    return c.json({ ...view(c, subscription), plan: planView(plan, paypalState(state).overrides.get(subscription.id)) });
  });

  app.post("/v1/billing/subscriptions/:id/cancel", async (c) => {
    const subscription = find(c);
    if (!subscription) return notFound(c);
    const reason = await reasonOf(c);
    if (reason instanceof Response) return reason;
    if (!reason) return missingReason(c);
    if (subscription.status !== "ACTIVE" && subscription.status !== "SUSPENDED") return statusInvalid(c, "cancel", "active or suspended");
    setStatus(subscription, "CANCELLED", reason);
    if (subscription.billing_info) delete subscription.billing_info.next_billing_time;
    emit(state, origin(c), "BILLING.SUBSCRIPTION.CANCELLED", subscription);
    return c.body(null, 204);
  });

  app.post("/v1/billing/subscriptions/:id/suspend", async (c) => {
    const subscription = find(c);
    if (!subscription) return notFound(c);
    const reason = await reasonOf(c);
    if (reason instanceof Response) return reason;
    if (!reason) return missingReason(c);
    if (subscription.status !== "ACTIVE") return statusInvalid(c, "suspend", "active");
    setStatus(subscription, "SUSPENDED", reason);
    emit(state, origin(c), "BILLING.SUBSCRIPTION.SUSPENDED", subscription);
    return c.body(null, 204);
  });

  app.post("/v1/billing/subscriptions/:id/activate", async (c) => {
    const subscription = find(c);
    if (!subscription) return notFound(c);
    if (subscription.status !== "SUSPENDED") return statusInvalid(c, "activate", "suspended");
    const reason = await reasonOf(c);
    if (reason instanceof Response) return reason;
    setStatus(subscription, "ACTIVE", reason ?? undefined);
    // PayPal names a suspended subscription's return RE-ACTIVATED (ACTIVATED is the first approval).
    emit(state, origin(c), "BILLING.SUBSCRIPTION.RE-ACTIVATED", subscription);
    return c.body(null, 204);
  });

  app.post("/v1/billing/subscriptions/:id/revise", async (c) => {
    const subscription = find(c);
    if (!subscription) return notFound(c);
    const body = await jsonBody(c);
    const planId = body?.plan_id;
    if (typeof planId !== "string" || !PLANS.has(planId)) {
      return invalidPlanId(c);
    }
    if (subscription.status !== "ACTIVE") return statusInvalid(c, "revise", "active");
    const next = PLANS.get(planId)!;
    // The revision carries its own override (or none: the new plan's prices), as PayPal's revise does.
    let override: CycleOverride | null = null;
    if (body?.plan !== undefined) {
      const parsed = parseOverride(next, body.plan);
      if ("error" in parsed) return unprocessable(c, parsed.error);
      override = parsed.override;
    }
    const nextPrice = billingCycles(next, override ?? undefined).find((cycle) => cycle.tenure_type === "REGULAR")?.pricing_scheme?.fixed_price ?? next.price;
    const needsApproval = planId !== subscription.plan_id && Number(nextPrice.value) > Number(regularPrice(state, subscription)?.value ?? 0);
    if (!needsApproval) {
      applyRevision(state, subscription, planId, override);
      emit(state, origin(c), "BILLING.SUBSCRIPTION.UPDATED", subscription);
      return c.json({
        plan_id: planId,
        plan_overridden: subscription.plan_overridden,
        links: links(c, subscription),
      });
    }
    const urls = returnUrlOf(body?.application_context as Record<string, unknown> | undefined);
    if (!urls)
      return paypalError(c, 400, "INVALID_REQUEST", "Request is not well-formed, syntactically incorrect, or violates schema.", [
        {
          issue: "MISSING_REQUIRED_PARAMETER",
          field: "/application_context/return_url",
          description: "A required field is missing.",
        },
      ]);
    const token = `BA-${randomId(17)}`;
    paypalState(state).approvals.set(token, {
      token,
      subscriptionId: subscription.id,
      revisePlanId: planId,
      reviseOverride: override,
      ...urls,
      done: false,
    });
    return c.json({
      plan_id: planId,
      plan_overridden: override !== null,
      links: links(c, subscription, token),
    });
  });

  app.get("/webapps/billing/subscriptions", (c) => {
    const approval = paypalState(state).approvals.get(c.req.query("ba_token") ?? "");
    if (!approval) return c.html(approvalPage("This PayPal link is not valid.", null), 404);
    if (approval.done) return c.redirect(backUrl(approval), 303);
    const subscription = paypalState(state).subscriptions.get(approval.subscriptionId);
    const plan = PLANS.get(approval.revisePlanId ?? subscription?.plan_id ?? "");
    const price = !plan
      ? null
      : approval.revisePlanId
        ? (billingCycles(plan, approval.reviseOverride ?? undefined).find((cycle) => cycle.tenure_type === "REGULAR")?.pricing_scheme?.fixed_price ??
          plan.price)
        : subscription && regularPrice(state, subscription);
    const trial = plan && plan.trialDays > 0 && !approval.revisePlanId ? `${plan.trialDays} days free, then ` : "";
    const what = plan && price ? `${plan.name}: ${trial}$${price.value} per ${plan.interval.toLowerCase()}` : "Subscription";
    return c.html(approvalPage(approval.revisePlanId ? `Change your subscription to ${what}` : `Subscribe to ${what}`, approval));
  });

  app.post("/webapps/billing/subscriptions", (c) => {
    const paypal = paypalState(state);
    const approval = paypal.approvals.get(c.req.query("ba_token") ?? "");
    if (!approval) return c.html(approvalPage("This PayPal link is not valid.", null), 404);
    const subscription = paypal.subscriptions.get(approval.subscriptionId);
    if (!subscription) return c.html(approvalPage("This subscription no longer exists.", null), 404);
    if (!approval.done) {
      approval.done = true;
      if (approval.revisePlanId) {
        applyRevision(state, subscription, approval.revisePlanId, approval.reviseOverride ?? null);
        bill(state, subscription);
        emit(state, origin(c), "BILLING.SUBSCRIPTION.UPDATED", subscription);
        emit(state, origin(c), "PAYMENT.SALE.COMPLETED", subscription);
      } else {
        subscription.subscriber = {
          email_address: "payer@example.com",
          payer_id: payerId(),
          name: { given_name: "Sandbox", surname: "Payer" },
        };
        setStatus(subscription, "ACTIVE");
        subscription.start_time = subscription.status_update_time;
        const plan = PLANS.get(subscription.plan_id);
        // A plan with a free trial charges nothing now: its first payment is at the trial's end.
        if (plan && plan.trialDays > 0) startTrial(subscription, plan);
        else bill(state, subscription);
        emit(state, origin(c), "BILLING.SUBSCRIPTION.ACTIVATED", subscription);
        if (subscription.billing_info?.last_payment) emit(state, origin(c), "PAYMENT.SALE.COMPLETED", subscription);
      }
    }
    return c.redirect(backUrl(approval), 303);
  });

  return app;
}

/** A revision applied: the new plan, with the revision's override (none: the new plan's own prices). */
function applyRevision(state: SandboxState, subscription: PayPalSubscriptionObject, planId: string, override: CycleOverride | null) {
  subscription.plan_id = planId;
  subscription.plan_overridden = override !== null;
  subscription.update_time = isoNow();
  if (override) paypalState(state).overrides.set(subscription.id, override);
  else paypalState(state).overrides.delete(subscription.id);
}

function unprocessable(c: C, detail: { issue: string; field: string; description: string }) {
  return paypalError(c, 422, "UNPROCESSABLE_ENTITY", "The requested action could not be performed, semantically incorrect, or failed business validation.", [
    detail,
  ]);
}

function backUrl(approval: Approval): string {
  const url = new URL(approval.returnUrl);
  url.searchParams.set("subscription_id", approval.subscriptionId);
  url.searchParams.set("ba_token", approval.token);
  url.searchParams.set("token", approval.token);
  return url.toString();
}

const CSS = `
  body { font-family: "Helvetica Neue", Arial, sans-serif; background: #f5f7fa; color: #2c2e2f; margin: 0; }
  main { max-width: 420px; margin: 48px auto; background: #fff; border-radius: 12px; padding: 32px; box-shadow: 0 2px 12px rgba(0,0,0,.08); }
  h1 { font-size: 20px; } .badge { font-size: 12px; background: #ffc439; border-radius: 4px; padding: 2px 6px; }
  button { width: 100%; margin-top: 20px; padding: 12px; border: 0; border-radius: 24px; font-size: 16px; background: #0070ba; color: #fff; cursor: pointer; }
  a { display: inline-block; margin-top: 16px; color: #0070ba; }
`;

function approvalPage(title: string, approval: Approval | null): string {
  const actions = approval
    ? `<form method="post" action="?ba_token=${escapeHtml(approval.token)}"><button type="submit">Agree &amp; Subscribe</button></form>
       <a href="${escapeHtml(approval.cancelUrl)}">Cancel and return to the merchant</a>`
    : "";
  return standalonePage("PayPal", CSS, `<span class="badge">PayPal sandbox</span><h1>${escapeHtml(title)}</h1>${actions}`);
}

/** PayPal retries a failed payment and suspends the subscription after this many failures (the plans' payment_failure_threshold). */
const PAYMENT_FAILURE_THRESHOLD = 3;

/**
 * Inspection and controls of the PayPal stand-in, mounted at /__sandbox/paypal:
 *
 * - `GET /subscriptions`: every subscription;
 * - `GET /events?subject={subscription id}&type=&signed=1`, `POST /events/:id/deliver {times?}`,
 *   `GET|POST /webhook {url?, retryDelaysMs?, hold?, webhookId?}`, `POST /webhook/release
 *   {order?, times?}`: webhook events and their delivery (sandbox/webhook-outbox.ts); the URL is
 *   PAYPAL_WEBHOOK_URL of the sandbox's env;
 * - `POST /subscriptions/:id/renew {payment?: "succeed"|"fail"}`: the billing cycle (or the free
 *   trial) comes round now and the regular price (the override's, if any) is charged:
 *   a payment (PAYMENT.SALE.COMPLETED) or a failed one (BILLING.SUBSCRIPTION.PAYMENT.FAILED; the
 *   third in a row suspends it, BILLING.SUBSCRIPTION.SUSPENDED);
 * - `POST /subscriptions/:id/expire`: its last cycle ended (BILLING.SUBSCRIPTION.EXPIRED);
 * - `GET /sales?subscription=`: the sales of the payments; `POST /sales/:id/refund {amount?: "9.99"}`: a
 *   refund, as `POST /paypal/v1/payments/sale/:id/refund` makes it; `POST /sales/:id/dispute {amount?}`: the
 *   buyer opens a dispute (CUSTOMER.DISPUTE.CREATED); `POST /disputes/:id/resolve {outcome: "BUYER_FAVOR" |
 *   "SELLER_FAVOR"}`: PayPal decides it, as the sandbox's adjudicate call does (decision 077).
 */
export function paypalControl(state: SandboxState) {
  const control = new Hono();
  control.get("/subscriptions", (c) => c.json([...paypalState(state).subscriptions.values()]));

  outboxControl(control, "paypal", () => paypalState(state).outbox, outgoingEvents, {
    apply: (input) => {
      if (input.webhookId === undefined) return null;
      if (typeof input.webhookId !== "string" || !/^[A-Z0-9]{8,32}$/.test(input.webhookId)) return "webhookId must be 8 to 32 capital letters and digits";
      paypalState(state).webhookId = input.webhookId;
      return null;
    },
  });

  control.post("/subscriptions/:id/renew", async (c) => {
    const subscription = paypalState(state).subscriptions.get(c.req.param("id"));
    if (!subscription) return c.json({ error: `No such subscription: ${c.req.param("id")}` }, 404);
    const body = (await c.req.text()).trim();
    let payment: unknown = "succeed";
    try {
      payment = body ? ((JSON.parse(body) as { payment?: unknown }).payment ?? "succeed") : "succeed";
    } catch {
      return c.json({ error: "Body must be a JSON object" }, 400);
    }
    if (payment !== "succeed" && payment !== "fail") return c.json({ error: 'payment must be "succeed" or "fail"' }, 400);
    if (subscription.status !== "ACTIVE") return c.json({ error: `Only an ACTIVE subscription renews; this one is ${subscription.status}` }, 409);
    if (payment === "succeed") {
      bill(state, subscription);
      subscription.update_time = isoNow();
      emit(state, origin(c), "PAYMENT.SALE.COMPLETED", subscription);
      return c.json(subscription);
    }
    const info = subscription.billing_info;
    if (info) {
      info.failed_payments_count += 1;
      info.outstanding_balance = regularPrice(state, subscription) ?? info.outstanding_balance;
    }
    subscription.update_time = isoNow();
    emit(state, origin(c), "BILLING.SUBSCRIPTION.PAYMENT.FAILED", subscription);
    if ((info?.failed_payments_count ?? 0) >= PAYMENT_FAILURE_THRESHOLD) {
      setStatus(subscription, "SUSPENDED", "Payment failed too many times");
      emit(state, origin(c), "BILLING.SUBSCRIPTION.SUSPENDED", subscription);
    }
    return c.json(subscription);
  });

  control.get("/sales", (c) => {
    const subscription = c.req.query("subscription");
    return c.json([...paypalState(state).payments.sales.values()].filter((sale) => !subscription || sale.billing_agreement_id === subscription));
  });
  const paymentAction = (path: string, act: (ctx: PaymentsContext, id: string, input: Record<string, unknown>) => unknown) =>
    control.post(path, async (c) => {
      let input: Record<string, unknown> = {};
      const text = (await c.req.text()).trim();
      try {
        input = text ? (JSON.parse(text) as Record<string, unknown>) : {};
      } catch {
        return c.json({ error: "Body must be a JSON object" }, 400);
      }
      try {
        const answer = act(paymentsContext(state, origin(c)), c.req.param("id") ?? "", input ?? {});
        return answer === null ? c.json({ error: `No such ${path.split("/")[1].slice(0, -1)}: ${c.req.param("id")}` }, 404) : c.json(answer);
      } catch (error) {
        if (error instanceof PaymentsError) return c.json({ error: error.message }, error.status === 404 ? 404 : 409);
        throw error;
      }
    });
  paymentAction("/sales/:id/refund", (ctx, id, input) => {
    const sale = ctx.payments.sales.get(id);
    if (!sale) return null;
    if (input.amount !== undefined && typeof input.amount !== "string") throw new PaymentsError(400, "VALIDATION_ERROR", 'amount must be text such as "9.99"');
    return refundSale(ctx, sale, input.amount === undefined ? undefined : { total: input.amount, currency: sale.amount.currency });
  });
  paymentAction("/sales/:id/dispute", (ctx, id, input) => {
    const sale = ctx.payments.sales.get(id);
    if (!sale) return null;
    if (input.amount !== undefined && typeof input.amount !== "string") throw new PaymentsError(400, "VALIDATION_ERROR", 'amount must be text such as "9.99"');
    return disputeSale(ctx, sale, input.amount === undefined ? undefined : Math.round(Number(input.amount) * 100));
  });
  paymentAction("/disputes/:id/resolve", (ctx, id, input) => {
    const dispute = ctx.payments.disputes.get(id);
    if (!dispute) return null;
    if (input.outcome !== "BUYER_FAVOR" && input.outcome !== "SELLER_FAVOR")
      throw new PaymentsError(400, "VALIDATION_ERROR", 'outcome must be "BUYER_FAVOR" or "SELLER_FAVOR"');
    return resolveDispute(ctx, dispute, input.outcome);
  });

  control.post("/subscriptions/:id/expire", (c) => {
    const subscription = paypalState(state).subscriptions.get(c.req.param("id"));
    if (!subscription) return c.json({ error: `No such subscription: ${c.req.param("id")}` }, 404);
    if (subscription.status !== "ACTIVE" && subscription.status !== "SUSPENDED")
      return c.json({ error: `Only an ACTIVE or SUSPENDED subscription expires; this one is ${subscription.status}` }, 409);
    setStatus(subscription, "EXPIRED");
    if (subscription.billing_info) delete subscription.billing_info.next_billing_time;
    emit(state, origin(c), "BILLING.SUBSCRIPTION.EXPIRED", subscription);
    return c.json(subscription);
  });
  return control;
}
