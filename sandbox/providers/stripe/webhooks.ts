import type { SandboxState } from "../../state.ts";
import { raise } from "../../webhook-outbox.ts";
import type Stripe from "stripe";
import { isCurrent, nowSeconds, type SdkShape, stripeId, type StripeEvent, type StripeObject, type StripeState } from "./state.ts";

/**
 * Events, as Stripe raises them; their webhook deliveries (sandbox/webhook-outbox.ts) are
 * POSTed as JSON to the endpoint, each attempt signed anew like Stripe's (./signing.ts); a
 * delivery that is not answered with 2xx is retried after the configured delays. A test can
 * hold events and release them in another order, or deliver one again
 * (docs/decisions/013-billing.md).
 */

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
    pending_webhooks: stripe.outbox.url ? 1 : 0,
    request: options.automatic ? { id: null, idempotency_key: null } : { id: stripeId("req", 14), idempotency_key: options.idempotencyKey ?? null },
    type,
    // The envelope is the SDK's; `type` and `data.object` are the stand-in's (the SDK's Event is a union by type).
  } satisfies SdkShape<Stripe.Event, "type" | "data">;
  raise(stripe.outbox, { event }, () => isCurrent(state, stripe));
  return event;
}

/** Whether an event is about a customer: its object is the customer or belongs to them (a refund or dispute: through its charge). */
export function eventCustomer(stripe: StripeState, event: StripeEvent): string | null {
  const object = event.data.object;
  if (object.object === "customer") return object.id;
  if (typeof object.customer === "string") return object.customer;
  return typeof object.charge === "string" ? (stripe.charges.get(object.charge)?.customer ?? null) : null;
}
