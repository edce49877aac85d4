import { ProviderError, providerFetch } from "./http.ts";

/**
 * PayPal's REST API: an OAuth2 client-credentials token (/v1/oauth2/token),
 * the Subscriptions API v1 (/v1/billing/subscriptions), the sales and refunds of
 * the Payments API v1 and the Disputes API v1 (read only). PAYPAL_API_URL is
 * https://api-m.paypal.com live (https://api-m.sandbox.paypal.com for PayPal's
 * own sandbox) and the local stand-in otherwise (http://127.0.0.1:8788/paypal).
 */

/** The bindings it needs (plain, so Node-side tests can pass them too). */
export interface PayPalEnv {
  PAYPAL_API_URL: string;
  PAYPAL_CLIENT_ID: string;
  PAYPAL_CLIENT_SECRET: string;
}

export interface PayPalLink {
  href: string;
  rel: string;
  method?: string;
}

export interface PayPalSubscription {
  id: string;
  plan_id: string;
  /** APPROVAL_PENDING, APPROVED, ACTIVE, SUSPENDED, CANCELLED, EXPIRED. */
  status: string;
  status_update_time?: string;
  start_time?: string;
  create_time?: string;
  custom_id?: string;
  plan_overridden?: boolean;
  billing_info?: {
    next_billing_time?: string;
    last_payment?: {
      amount: { currency_code: string; value: string };
      time: string;
    };
  };
  links?: PayPalLink[];
  /** Present when read with `fields=plan`: the plan as this subscription has it, with any override. */
  plan?: { billing_cycles?: PayPalBillingCycle[] };
}

export interface PayPalBillingCycle {
  tenure_type: "TRIAL" | "REGULAR";
  sequence: number;
  total_cycles?: number;
  frequency?: { interval_unit: string; interval_count: number };
  pricing_scheme?: { fixed_price?: { value: string; currency_code: string } };
}

/**
 * PayPal's plan override on create and revise: the listed cycles (by sequence) are charged these
 * prices instead of the plan's (the subscription then reports plan_overridden: true).
 */
export interface PayPalPlanOverride {
  billing_cycles: { sequence: number; total_cycles: number; pricing_scheme: { fixed_price: { value: string; currency_code: string } } }[];
}

/** What a REGULAR cycle charges, from a subscription read with `fields=plan`; null when PayPal did not say. */
export function regularPrice(subscription: PayPalSubscription): number | null {
  const value = subscription.plan?.billing_cycles?.find((cycle) => cycle.tenure_type === "REGULAR")?.pricing_scheme?.fixed_price?.value;
  const price = value === undefined ? Number.NaN : Number(value);
  return Number.isFinite(price) ? price : null;
}

let cachedToken: { key: string; token: string; expiresAt: number } | null = null;

async function accessToken(env: PayPalEnv): Promise<string> {
  if (!env.PAYPAL_CLIENT_ID || !env.PAYPAL_CLIENT_SECRET) throw new Error("PAYPAL_CLIENT_ID and PAYPAL_CLIENT_SECRET must be configured");
  const key = `${env.PAYPAL_API_URL}\n${env.PAYPAL_CLIENT_ID}\n${env.PAYPAL_CLIENT_SECRET}`;
  if (cachedToken?.key === key && cachedToken.expiresAt > Date.now() + 60_000) return cachedToken.token;
  const response = await providerFetch("PayPal", `${base(env)}/v1/oauth2/token`, {
    method: "POST",
    headers: {
      authorization: `Basic ${btoa(`${env.PAYPAL_CLIENT_ID}:${env.PAYPAL_CLIENT_SECRET}`)}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: "grant_type=client_credentials",
  });
  const body = (await response.json()) as {
    access_token?: string;
    expires_in?: number;
  };
  if (!body.access_token) throw new ProviderError("PayPal", "PayPal answered a token response without access_token", response.status);
  cachedToken = {
    key,
    token: body.access_token,
    expiresAt: Date.now() + (body.expires_in ?? 300) * 1000,
  };
  return body.access_token;
}

function base(env: PayPalEnv): string {
  return env.PAYPAL_API_URL.replace(/\/+$/, "");
}

async function call(env: PayPalEnv, method: "GET" | "POST", path: string, body?: unknown): Promise<Response> {
  try {
    return await send(env, method, path, body, await accessToken(env));
  } catch (error) {
    // A token PayPal no longer accepts (expired early, revoked): fetch a new one, once.
    if (!(error instanceof ProviderError) || error.status !== 401) throw error;
    cachedToken = null;
    return send(env, method, path, body, await accessToken(env));
  }
}

function send(env: PayPalEnv, method: "GET" | "POST", path: string, body: unknown, token: string): Promise<Response> {
  return providerFetch("PayPal", `${base(env)}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      accept: "application/json",
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

const subscriptionPath = (id: string) => `/v1/billing/subscriptions/${encodeURIComponent(id)}`;

/** GET a subscription; `withPlan` adds `fields=plan` (the plan's billing cycles with the subscription's override). */
export async function getSubscription(env: PayPalEnv, id: string, options: { withPlan?: boolean } = {}): Promise<PayPalSubscription> {
  return (await (await call(env, "GET", `${subscriptionPath(id)}${options.withPlan ? "?fields=plan" : ""}`)).json()) as PayPalSubscription;
}

/** A reason as PayPal takes it on cancel, suspend and activate: 1 to 128 characters. */
const reasonField = (reason: string) => ({ reason: reason.slice(0, 128) || "-" });

/** POST :id/cancel {reason}: 204. */
export async function cancelSubscription(env: PayPalEnv, id: string, reason: string): Promise<void> {
  await call(env, "POST", `${subscriptionPath(id)}/cancel`, reasonField(reason));
}

/** POST :id/suspend {reason}: 204. */
export async function suspendSubscription(env: PayPalEnv, id: string, reason: string): Promise<void> {
  await call(env, "POST", `${subscriptionPath(id)}/suspend`, reasonField(reason));
}

/** POST :id/activate {reason}: 204. */
export async function activateSubscription(env: PayPalEnv, id: string, reason: string): Promise<void> {
  await call(env, "POST", `${subscriptionPath(id)}/activate`, reasonField(reason));
}

/** POST :id/revise {plan_id}: answers the plan and links; a rel "approve" link means the payer must approve. */
export async function reviseSubscription(
  env: PayPalEnv,
  id: string,
  input: { planId: string; returnUrl: string; cancelUrl: string; plan?: PayPalPlanOverride },
): Promise<{ plan_id: string; links?: PayPalLink[] }> {
  const response = await call(env, "POST", `${subscriptionPath(id)}/revise`, {
    plan_id: input.planId,
    ...(input.plan ? { plan: input.plan } : {}),
    application_context: {
      return_url: input.returnUrl,
      cancel_url: input.cancelUrl,
      user_action: "SUBSCRIBE_NOW",
    },
  });
  return (await response.json()) as { plan_id: string; links?: PayPalLink[] };
}

/** POST /v1/billing/subscriptions: answers the subscription (APPROVAL_PENDING) with its approve link. */
export async function createSubscription(
  env: PayPalEnv,
  input: {
    planId: string;
    customId: string;
    returnUrl: string;
    cancelUrl: string;
    /** Prices other than the plan's (pricing parity): PayPal's plan override. */
    plan?: PayPalPlanOverride;
  },
): Promise<PayPalSubscription> {
  const response = await call(env, "POST", "/v1/billing/subscriptions", {
    plan_id: input.planId,
    ...(input.plan ? { plan: input.plan } : {}),
    custom_id: input.customId,
    application_context: {
      return_url: input.returnUrl,
      cancel_url: input.cancelUrl,
      user_action: "SUBSCRIBE_NOW",
      shipping_preference: "NO_SHIPPING",
    },
  });
  return (await response.json()) as PayPalSubscription;
}

/** A sale of the Payments API v1: one payment of a subscription (billing_agreement_id names it). */
export interface PayPalSale {
  id: string;
  /** completed, partially_refunded, refunded, reversed (a chargeback decided for the buyer), pending, denied. */
  state: string;
  amount: { total: string; currency: string };
  billing_agreement_id?: string;
  create_time: string;
  update_time?: string;
}

/** A refund of a sale (Payments API v1). */
export interface PayPalRefund {
  id: string;
  state: string;
  amount: { total: string; currency: string };
  sale_id?: string;
  create_time: string;
}

/** A buyer's dispute (Disputes API v1). */
export interface PayPalDispute {
  dispute_id: string;
  create_time: string;
  status: string;
  disputed_transactions?: { seller_transaction_id?: string }[];
  dispute_amount?: { currency_code: string; value: string };
  dispute_outcome?: { outcome_code?: string };
}

/** GET /v1/payments/sale/:id */
export async function getSale(env: PayPalEnv, id: string): Promise<PayPalSale> {
  return (await (await call(env, "GET", `/v1/payments/sale/${encodeURIComponent(id)}`)).json()) as PayPalSale;
}

/** GET /v1/payments/refund/:id */
export async function getRefund(env: PayPalEnv, id: string): Promise<PayPalRefund> {
  return (await (await call(env, "GET", `/v1/payments/refund/${encodeURIComponent(id)}`)).json()) as PayPalRefund;
}

/** GET /v1/customer/disputes/:id */
export async function getDispute(env: PayPalEnv, id: string): Promise<PayPalDispute> {
  return (await (await call(env, "GET", `/v1/customer/disputes/${encodeURIComponent(id)}`)).json()) as PayPalDispute;
}

export function approveLink(links: PayPalLink[] | undefined): string | null {
  return links?.find((link) => link.rel === "approve")?.href ?? null;
}

/** The transmission headers PayPal sends with each webhook delivery. */
/** A completed sale as a PAYMENT.SALE.COMPLETED event's resource gives it: its id, amount and time; null when it lacks them. */
export function saleOf(resource: Record<string, unknown>): { id: string; total: number; currency: string; createdAt: number | null } | null {
  const amount = resource.amount as { total?: unknown; currency?: unknown } | undefined;
  const total = Number(amount?.total);
  if (typeof resource.id !== "string" || !resource.id || !Number.isFinite(total)) return null;
  const created = typeof resource.create_time === "string" ? Date.parse(resource.create_time) : Number.NaN;
  return {
    id: resource.id,
    total,
    currency: typeof amount?.currency === "string" ? amount.currency : "USD",
    createdAt: Number.isFinite(created) ? created : null,
  };
}

export interface PayPalTransmission {
  transmissionId: string;
  transmissionTime: string;
  transmissionSig: string;
  certUrl: string;
  authAlgo: string;
}

/**
 * POST /v1/notifications/verify-webhook-signature: PayPal checks that it sent
 * this event, unchanged, for our webhook (`webhookId`). The event goes back
 * exactly as it was received: `rawEvent` is spliced in as it came, since
 * re-serialising it could change what was signed. Answers whether PayPal said
 * SUCCESS; throws ProviderError when PayPal could not be asked.
 */
export async function verifyWebhookSignature(env: PayPalEnv, webhookId: string, transmission: PayPalTransmission, rawEvent: string): Promise<boolean> {
  const fields = JSON.stringify({
    auth_algo: transmission.authAlgo,
    cert_url: transmission.certUrl,
    transmission_id: transmission.transmissionId,
    transmission_sig: transmission.transmissionSig,
    transmission_time: transmission.transmissionTime,
    webhook_id: webhookId,
  });
  const body = `${fields.slice(0, -1)},"webhook_event":${rawEvent}}`;
  const response = await callRaw(env, "/v1/notifications/verify-webhook-signature", body);
  const answer = (await response.json()) as { verification_status?: string };
  return answer.verification_status === "SUCCESS";
}

/** A POST whose JSON body is already text. */
async function callRaw(env: PayPalEnv, path: string, body: string): Promise<Response> {
  const post = (token: string) =>
    providerFetch("PayPal", `${base(env)}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, accept: "application/json", "content-type": "application/json" },
      body,
    });
  try {
    return await post(await accessToken(env));
  } catch (error) {
    if (!(error instanceof ProviderError) || error.status !== 401) throw error;
    cachedToken = null;
    return post(await accessToken(env));
  }
}
