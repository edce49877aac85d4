import { Hono, type Context as HonoContext } from "hono";
import type { SandboxState } from "../../state.ts";
import { renewSubscription } from "./billing.ts";
import { StripeApiError, stripeState, type EventRecord, type StripeObject, type StripeState } from "./state.ts";
import { attemptDelivery, eventCustomer, releaseHeld, signedDelivery } from "./webhooks.ts";

/**
 * Sandbox-only controls of the Stripe stand-in, mounted at /__sandbox/stripe
 * (docs/decisions/013-billing.md):
 *
 * - `GET  /events?customer=&type=&signed=1`: raised events, oldest first, with
 *   how their deliveries went; `signed=1` adds the signed request a delivery
 *   sends ({url, headers, body}), for tests that deliver it themselves;
 * - `POST /events/:id/deliver {times?}`: delivers an event again, now;
 * - `GET|POST /webhook {url?, secret?, retryDelaysMs?, hold?}`: where events go
 *   (also STRIPE_WEBHOOK_URL / STRIPE_WEBHOOK_SECRET in the sandbox's env);
 * - `POST /webhook/release {order?: "created"|"reverse", times?}`: delivers the
 *   held events in that order, each `times` times (out of order, twice);
 * - `POST /subscriptions/:id/renew {payment?: "succeed"|"fail"}`: the period
 *   ends now (a test clock advancing): renewal, or the end of a cancelled one;
 * - `GET /customers`, `/subscriptions`, `/checkout_sessions`, `/invoices`,
 *   `/payment_intents`, `/discounts` (each `?customer=`) and `/coupons`:
 *   inspection.
 */
export function stripeControl(state: SandboxState) {
  const control = new Hono();

  control.get("/events", (c) => {
    const stripe = stripeState(state);
    const customer = c.req.query("customer");
    const type = c.req.query("type");
    const signed = c.req.query("signed") === "1";
    return c.json(
      stripe.events
        .filter((record) => (!customer || eventCustomer(record.event) === customer) && (!type || record.event.type === type))
        .map((record) => eventView(stripe, record, signed)),
    );
  });

  control.post("/events/:id/deliver", async (c) => {
    const stripe = stripeState(state);
    const record = stripe.events.find((candidate) => candidate.event.id === c.req.param("id"));
    if (!record) return c.json({ error: `No such event: ${c.req.param("id")}` }, 404);
    if (!stripe.webhook.url) return c.json({ error: "No webhook endpoint is configured: POST /__sandbox/stripe/webhook {url} first" }, 409);
    const input = await optionalJson(c);
    if (input instanceof Response) return input;
    const times = input.times ?? 1;
    if (!Number.isInteger(times) || (times as number) < 1 || (times as number) > 10) return c.json({ error: "times must be an integer from 1 to 10" }, 400);
    let ok = false;
    for (let i = 0; i < (times as number); i += 1) ok = (await attemptDelivery(stripe, record)) || ok;
    if (ok) record.delivery = "delivered";
    return c.json(eventView(stripe, record, false));
  });

  control.get("/webhook", (c) => c.json(stripeState(state).webhook));
  control.post("/webhook", async (c) => {
    const input = await optionalJson(c);
    if (input instanceof Response) return input;
    const webhook = stripeState(state).webhook;
    if (input.url !== undefined) {
      if (input.url !== null && (typeof input.url !== "string" || !/^https?:\/\//.test(input.url))) return c.json({ error: "url must be an http(s) URL or null" }, 400);
      webhook.url = input.url as string | null;
    }
    if (input.secret !== undefined) {
      if (typeof input.secret !== "string" || input.secret.length < 8) return c.json({ error: "secret must be at least 8 characters" }, 400);
      webhook.secret = input.secret;
    }
    if (input.retryDelaysMs !== undefined) {
      const delays = input.retryDelaysMs;
      if (!Array.isArray(delays) || delays.length > 10 || delays.some((d) => typeof d !== "number" || d < 0 || d > 600_000)) {
        return c.json({ error: "retryDelaysMs must be a list of at most 10 delays from 0 to 600000" }, 400);
      }
      webhook.retryDelaysMs = delays as number[];
    }
    if (input.hold !== undefined) {
      if (typeof input.hold !== "boolean") return c.json({ error: "hold must be a boolean" }, 400);
      webhook.hold = input.hold;
    }
    return c.json(webhook);
  });

  control.post("/webhook/release", async (c) => {
    const input = await optionalJson(c);
    if (input instanceof Response) return input;
    const order = input.order ?? "created";
    if (order !== "created" && order !== "reverse") return c.json({ error: 'order must be "created" or "reverse"' }, 400);
    const times = input.times ?? 1;
    if (!Number.isInteger(times) || (times as number) < 1 || (times as number) > 10) return c.json({ error: "times must be an integer from 1 to 10" }, 400);
    const stripe = stripeState(state);
    if (!stripe.webhook.url) return c.json({ error: "No webhook endpoint is configured: POST /__sandbox/stripe/webhook {url} first" }, 409);
    return c.json({ delivered: await releaseHeld(stripe, order, times as number) });
  });

  control.post("/subscriptions/:id/renew", async (c) => {
    const stripe = stripeState(state);
    const subscription = stripe.subscriptions.get(c.req.param("id"));
    if (!subscription) return c.json({ error: `No such subscription: ${c.req.param("id")}` }, 404);
    const input = await optionalJson(c);
    if (input instanceof Response) return input;
    if (input.payment !== undefined && input.payment !== "succeed" && input.payment !== "fail") return c.json({ error: 'payment must be "succeed" or "fail"' }, 400);
    try {
      return c.json(renewSubscription({ state, stripe, automatic: true }, subscription, { fail: input.payment === "fail" }));
    } catch (error) {
      if (error instanceof StripeApiError) return c.json({ error: error.message }, 409);
      throw error;
    }
  });

  const inspect = (path: string, pick: (stripe: StripeState) => StripeObject[]) =>
    control.get(path, (c) => {
      const customer = c.req.query("customer");
      return c.json(pick(stripeState(state)).filter((object) => !customer || object.customer === customer || (object.object === "customer" && object.id === customer)));
    });
  inspect("/customers", (stripe) => [...stripe.customers.values()]);
  inspect("/subscriptions", (stripe) => [...stripe.subscriptions.values()]);
  inspect("/checkout_sessions", (stripe) => [...stripe.sessions.values()]);
  inspect("/invoices", (stripe) => [...stripe.invoices.values()]);
  inspect("/payment_intents", (stripe) => [...stripe.paymentIntents.values()]);
  inspect("/discounts", (stripe) => [...stripe.discounts.values()]);
  control.get("/coupons", (c) => c.json([...stripeState(state).coupons.values()]));

  return control;
}

function eventView(stripe: StripeState, record: EventRecord, signed: boolean) {
  return {
    id: record.event.id,
    type: record.event.type,
    created: record.event.created,
    customer: eventCustomer(record.event),
    object_id: record.event.data.object.id,
    delivery: record.delivery,
    attempts: record.attempts,
    ...(signed ? { request: signedDelivery(stripe, record) } : {}),
  };
}

async function optionalJson(c: HonoContext): Promise<Record<string, unknown> | Response> {
  const text = await c.req.text();
  if (!text.trim()) return {};
  try {
    const value = JSON.parse(text);
    if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // answered below
  }
  return c.json({ error: "Body must be a JSON object" }, 400);
}
