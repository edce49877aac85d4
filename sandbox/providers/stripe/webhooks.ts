import { createHmac } from "node:crypto";
import type { SandboxState } from "../../state.ts";
import { isCurrent, nowSeconds, stripeId, type EventRecord, type StripeEvent, type StripeObject, type StripeState } from "./state.ts";

/**
 * Events and their webhook deliveries, as Stripe does them: each event is
 * POSTed as JSON to the endpoint with a `Stripe-Signature: t=...,v1=...`
 * header (HMAC-SHA256 of `${t}.${payload}` with the endpoint's secret); a
 * delivery that is not answered with 2xx is retried after the configured
 * delays. A test can hold events and release them in another order, or
 * deliver one again (docs/decisions/013-billing.md).
 */

/** Stripe's signature header for a payload sent at `timestamp` (seconds). */
export function signatureHeader(payload: string, secret: string, timestamp = nowSeconds()): string {
  const signature = createHmac("sha256", secret).update(`${timestamp}.${payload}`, "utf8").digest("hex");
  return `t=${timestamp},v1=${signature}`;
}

/** The request a delivery of this event sends, signed now. */
export function signedDelivery(stripe: StripeState, record: EventRecord) {
  const body = JSON.stringify(record.event, null, 2);
  return {
    url: stripe.webhook.url,
    method: "POST" as const,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
      "stripe-signature": signatureHeader(body, stripe.webhook.secret),
    },
    body,
  };
}

/**
 * Raises an event about `object` (a snapshot of it now) and queues its
 * delivery. `previous` holds the changed fields' old values, as
 * customer.subscription.updated carries them.
 */
export function emitEvent(
  state: SandboxState,
  stripe: StripeState,
  type: string,
  object: StripeObject,
  options: { previous?: Record<string, unknown>; idempotencyKey?: string | null; automatic?: boolean } = {},
): StripeEvent {
  const event: StripeEvent = {
    id: stripeId("evt"),
    object: "event",
    api_version: stripe.apiVersion,
    created: nowSeconds(),
    data: { object: structuredClone(object), ...(options.previous ? { previous_attributes: structuredClone(options.previous) } : {}) },
    livemode: false,
    pending_webhooks: stripe.webhook.url ? 1 : 0,
    request: options.automatic ? { id: null, idempotency_key: null } : { id: stripeId("req", 14), idempotency_key: options.idempotencyKey ?? null },
    type,
  };
  const record: EventRecord = { event, delivery: "pending", attempts: [] };
  stripe.events.push(record);
  if (stripe.webhook.hold) record.delivery = "held";
  else if (stripe.webhook.url) queueDelivery(state, stripe, record);
  return event;
}

/** One delivery attempt now; answers whether our endpoint took it (2xx). */
export async function attemptDelivery(stripe: StripeState, record: EventRecord): Promise<boolean> {
  const request = signedDelivery(stripe, record);
  if (!request.url) return false;
  const at = new Date().toISOString();
  try {
    const response = await fetch(request.url, { method: "POST", headers: request.headers, body: request.body, signal: AbortSignal.timeout(10_000) });
    await response.arrayBuffer().catch(() => undefined);
    record.attempts.push({ at, url: request.url, status: response.status });
    return response.ok;
  } catch (error) {
    record.attempts.push({ at, url: request.url, status: null, error: String(error) });
    return false;
  }
}

/** Delivers in the order events were raised; failures are retried after the configured delays. */
function queueDelivery(state: SandboxState, stripe: StripeState, record: EventRecord) {
  record.delivery = "delivering";
  stripe.deliveryChain = stripe.deliveryChain.then(() => deliverWithRetries(state, stripe, record, 0));
}

async function deliverWithRetries(state: SandboxState, stripe: StripeState, record: EventRecord, retry: number): Promise<void> {
  if (!isCurrent(state, stripe)) return;
  if (await attemptDelivery(stripe, record)) {
    record.delivery = "delivered";
    return;
  }
  const delay = stripe.webhook.retryDelaysMs[retry];
  if (delay === undefined) {
    record.delivery = "failed";
    return;
  }
  const timer = setTimeout(() => void deliverWithRetries(state, stripe, record, retry + 1), delay);
  timer.unref?.();
}

/**
 * Delivers the held events now, in the order asked (`reverse`: newest first),
 * each `times` times, one after another; later events are no longer held.
 * Answers the event ids in delivery order.
 */
export async function releaseHeld(stripe: StripeState, order: "created" | "reverse", times: number): Promise<{ id: string; type: string; statuses: (number | null)[] }[]> {
  stripe.webhook.hold = false;
  const held = stripe.events.filter((record) => record.delivery === "held");
  if (order === "reverse") held.reverse();
  const delivered = [];
  for (const record of held) {
    const statuses: (number | null)[] = [];
    let ok = false;
    for (let i = 0; i < times; i += 1) {
      const took = await attemptDelivery(stripe, record);
      ok ||= took;
      statuses.push(record.attempts.at(-1)?.status ?? null);
    }
    record.delivery = ok ? "delivered" : stripe.webhook.url ? "failed" : "pending";
    delivered.push({ id: record.event.id, type: record.event.type, statuses });
  }
  return delivered;
}

/** Whether an event is about a customer: its object is the customer or belongs to them. */
export function eventCustomer(event: StripeEvent): string | null {
  const object = event.data.object;
  if (object.object === "customer") return object.id;
  return typeof object.customer === "string" ? object.customer : null;
}
