import { Hono, type Context } from "hono";
import { PAYPAL_PLAN_IDS } from "../../../contracts/billing-paypal-shopify.ts";
import { PLAN_ROWS } from "../../../workers/db/seed-data.ts";
import { addMonths } from "../../../workers/domain/plans.ts";
import { escapeHtml, standalonePage } from "../../html.ts";
import { providerState, type SandboxState } from "../../state.ts";

/**
 * Stand-in for PayPal's REST API, mounted at /paypal (docs/decisions/014-paypal-shopify.md):
 *
 * - `POST /v1/oauth2/token`: client-credentials tokens (Basic auth, any non-empty client id and secret);
 * - `GET /v1/billing/plans/:id`: the plans of contracts/billing-paypal-shopify.ts (prices of the seed data);
 * - `/v1/billing/subscriptions`: create (APPROVAL_PENDING with an approve link), GET, and
 *   `:id/cancel`, `:id/suspend`, `:id/activate`, `:id/revise`, with PayPal's statuses, error
 *   objects (RESOURCE_NOT_FOUND, UNPROCESSABLE_ENTITY / SUBSCRIPTION_STATUS_INVALID) and 204s;
 * - `GET|POST /webapps/billing/subscriptions?ba_token=`: the approval page behind an approve link;
 *   approving activates the subscription (or applies a revision) and redirects to return_url with
 *   subscription_id, ba_token and token.
 *
 * A revision to a dearer plan needs the payer's approval (an approve link); a cheaper one applies at
 * once. Inspection: `GET /__sandbox/paypal/subscriptions`.
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

interface Approval {
  token: string;
  subscriptionId: string;
  /** A revision's new plan; absent when approving a new subscription. */
  revisePlanId?: string;
  returnUrl: string;
  cancelUrl: string;
  done: boolean;
}

interface PayPalState {
  tokens: Set<string>;
  subscriptions: Map<string, PayPalSubscriptionObject>;
  approvals: Map<string, Approval>;
}

export function paypalState(state: SandboxState): PayPalState {
  return providerState(state, "paypal", () => ({
    tokens: new Set<string>(),
    subscriptions: new Map(),
    approvals: new Map(),
  }));
}

const CHARS = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789";
function randomId(length: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return Array.from(bytes, (byte) => CHARS[byte % CHARS.length]).join("");
}
const isoNow = () => new Date().toISOString().replace(/\.\d{3}Z$/, "Z");

interface PlanView {
  id: string;
  product_id: string;
  name: string;
  status: "ACTIVE";
  interval: "MONTH" | "YEAR";
  price: Money;
}

function plans(): Map<string, PlanView> {
  const map = new Map<string, PlanView>();
  for (const [planId, paypalId] of Object.entries(PAYPAL_PLAN_IDS)) {
    const row = PLAN_ROWS.find((candidate) => candidate.id === planId);
    if (!row) continue;
    map.set(paypalId, {
      id: paypalId,
      product_id: "PROD-PINBOARDSTUDIO01",
      name: `${row.name} (${row.billingPeriod === "year" ? "annual" : "monthly"})`,
      status: "ACTIVE",
      interval: row.billingPeriod === "year" ? "YEAR" : "MONTH",
      price: { currency_code: "USD", value: row.price.toFixed(2) },
    });
  }
  return map;
}
const PLANS = plans();

function planView(plan: PlanView) {
  return {
    id: plan.id,
    product_id: plan.product_id,
    name: plan.name,
    status: plan.status,
    usage_type: "LICENSED",
    billing_cycles: [
      {
        frequency: { interval_unit: plan.interval, interval_count: 1 },
        tenure_type: "REGULAR",
        sequence: 1,
        total_cycles: 0,
        pricing_scheme: { version: 1, fixed_price: plan.price },
      },
    ],
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

/** A payment now for the plan, and the next billing time one interval on. */
function bill(subscription: PayPalSubscriptionObject) {
  const plan = PLANS.get(subscription.plan_id);
  if (!plan) return;
  const now = Date.now();
  subscription.billing_info = {
    outstanding_balance: { currency_code: "USD", value: "0.00" },
    cycle_executions: [
      {
        tenure_type: "REGULAR",
        sequence: 1,
        cycles_completed: 1,
        cycles_remaining: 0,
        total_cycles: 0,
      },
    ],
    last_payment: {
      amount: plan.price,
      time: new Date(now).toISOString().replace(/\.\d{3}Z$/, "Z"),
    },
    next_billing_time: new Date(addMonths(now, plan.interval === "YEAR" ? 12 : 1)).toISOString().replace(/\.\d{3}Z$/, "Z"),
    failed_payments_count: 0,
  };
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
    const form = await c.req.parseBody().catch(() => ({} as Record<string, unknown>));
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

  app.get("/v1/billing/plans/:id", (c) => {
    const plan = PLANS.get(c.req.param("id"));
    if (!plan)
      return paypalError(c, 404, "RESOURCE_NOT_FOUND", "The specified resource does not exist.", [
        {
          issue: "INVALID_RESOURCE_ID",
          description: "Requested resource ID was not found.",
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
      return paypalError(
        c,
        422,
        "UNPROCESSABLE_ENTITY",
        "The requested action could not be performed, semantically incorrect, or failed business validation.",
        [
          {
            issue: "INVALID_PARAMETER_VALUE",
            field: "/plan_id",
            description: "The value of a field is invalid.",
          },
        ],
      );
    }
    const urls = returnUrlOf(body.application_context as Record<string, unknown> | undefined);
    if (!urls)
      return paypalError(c, 400, "INVALID_REQUEST", "Request is not well-formed, syntactically incorrect, or violates schema.", [
        {
          issue: "MISSING_REQUIRED_PARAMETER",
          field: "/application_context/return_url",
          description: "A required field / parameter is missing.",
        },
      ]);
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
      plan_overridden: false,
      ...(typeof body.custom_id === "string" ? { custom_id: body.custom_id.slice(0, 127) } : {}),
    };
    const paypal = paypalState(state);
    paypal.subscriptions.set(subscription.id, subscription);
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
        plan_overridden: false,
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
        description: "Requested resource ID was not found.",
      },
    ]);
  const reasonOf = async (c: C) => {
    const body = await jsonBody(c);
    return typeof body?.reason === "string" && body.reason.trim() ? body.reason.slice(0, 128) : null;
  };
  const missingReason = (c: C) =>
    paypalError(c, 400, "INVALID_REQUEST", "Request is not well-formed, syntactically incorrect, or violates schema.", [
      {
        issue: "MISSING_REQUIRED_PARAMETER",
        field: "/reason",
        description: "A required field / parameter is missing.",
      },
    ]);

  app.get("/v1/billing/subscriptions/:id", (c) => {
    const subscription = find(c);
    return subscription ? c.json(view(c, subscription)) : notFound(c);
  });

  app.post("/v1/billing/subscriptions/:id/cancel", async (c) => {
    const subscription = find(c);
    if (!subscription) return notFound(c);
    const reason = await reasonOf(c);
    if (!reason) return missingReason(c);
    if (subscription.status !== "ACTIVE" && subscription.status !== "SUSPENDED") return statusInvalid(c, "cancel", "active or suspended");
    setStatus(subscription, "CANCELLED", reason);
    if (subscription.billing_info) delete subscription.billing_info.next_billing_time;
    return c.body(null, 204);
  });

  app.post("/v1/billing/subscriptions/:id/suspend", async (c) => {
    const subscription = find(c);
    if (!subscription) return notFound(c);
    const reason = await reasonOf(c);
    if (!reason) return missingReason(c);
    if (subscription.status !== "ACTIVE") return statusInvalid(c, "suspend", "active");
    setStatus(subscription, "SUSPENDED", reason);
    return c.body(null, 204);
  });

  app.post("/v1/billing/subscriptions/:id/activate", async (c) => {
    const subscription = find(c);
    if (!subscription) return notFound(c);
    if (subscription.status !== "SUSPENDED") return statusInvalid(c, "activate", "suspended");
    setStatus(subscription, "ACTIVE", (await reasonOf(c)) ?? undefined);
    return c.body(null, 204);
  });

  app.post("/v1/billing/subscriptions/:id/revise", async (c) => {
    const subscription = find(c);
    if (!subscription) return notFound(c);
    const body = await jsonBody(c);
    const planId = body?.plan_id;
    if (typeof planId !== "string" || !PLANS.has(planId)) {
      return paypalError(
        c,
        422,
        "UNPROCESSABLE_ENTITY",
        "The requested action could not be performed, semantically incorrect, or failed business validation.",
        [
          {
            issue: "INVALID_PARAMETER_VALUE",
            field: "/plan_id",
            description: "The value of a field is invalid.",
          },
        ],
      );
    }
    if (subscription.status !== "ACTIVE") return statusInvalid(c, "revise", "active");
    const current = PLANS.get(subscription.plan_id);
    const next = PLANS.get(planId)!;
    const needsApproval = planId !== subscription.plan_id && Number(next.price.value) > Number(current?.price.value ?? 0);
    if (!needsApproval) {
      subscription.plan_id = planId;
      subscription.update_time = isoNow();
      return c.json({
        plan_id: planId,
        plan_overridden: false,
        links: links(c, subscription),
      });
    }
    const urls = returnUrlOf(body?.application_context as Record<string, unknown> | undefined);
    if (!urls)
      return paypalError(c, 400, "INVALID_REQUEST", "Request is not well-formed, syntactically incorrect, or violates schema.", [
        {
          issue: "MISSING_REQUIRED_PARAMETER",
          field: "/application_context/return_url",
          description: "A required field / parameter is missing.",
        },
      ]);
    const token = `BA-${randomId(17)}`;
    paypalState(state).approvals.set(token, {
      token,
      subscriptionId: subscription.id,
      revisePlanId: planId,
      ...urls,
      done: false,
    });
    return c.json({
      plan_id: planId,
      plan_overridden: false,
      links: links(c, subscription, token),
    });
  });

  app.get("/webapps/billing/subscriptions", (c) => {
    const approval = paypalState(state).approvals.get(c.req.query("ba_token") ?? "");
    if (!approval) return c.html(approvalPage("This PayPal link is not valid.", null), 404);
    if (approval.done) return c.redirect(backUrl(approval), 303);
    const subscription = paypalState(state).subscriptions.get(approval.subscriptionId);
    const plan = PLANS.get(approval.revisePlanId ?? subscription?.plan_id ?? "");
    const what = plan ? `${plan.name}: $${plan.price.value} per ${plan.interval.toLowerCase()}` : "Subscription";
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
        subscription.plan_id = approval.revisePlanId;
        subscription.update_time = isoNow();
        bill(subscription);
      } else {
        subscription.subscriber = {
          email_address: "payer@example.com",
          payer_id: randomId(13),
          name: { given_name: "Sandbox", surname: "Payer" },
        };
        setStatus(subscription, "ACTIVE");
        subscription.start_time = subscription.status_update_time;
        bill(subscription);
      }
    }
    return c.redirect(backUrl(approval), 303);
  });

  return app;
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

/** Inspection of the PayPal stand-in, mounted at /__sandbox/paypal. */
export function paypalControl(state: SandboxState) {
  const control = new Hono();
  control.get("/subscriptions", (c) => c.json([...paypalState(state).subscriptions.values()]));
  return control;
}
