import { Hono } from "hono";
import type { SandboxState } from "../../state.ts";
import { optionalJson, outboxControl, type EventListing } from "../../webhook-outbox.ts";
import { closeDispute, disputeCharge, refundCharge, renewSubscription } from "./billing.ts";
import { StripeApiError, stripeState, type EventRecord, type StripeObject, type StripeState } from "./state.ts";
import { eventCustomer } from "./webhooks.ts";

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
 *   (these four: sandbox/webhook-outbox.ts's controls)
 * - `POST /subscriptions/:id/renew {payment?: "succeed"|"fail"}`: the period
 *   ends now (a test clock advancing): renewal, or the end of a cancelled one;
 * - `POST /charges/:id/dispute {amount?, reason?}`: the customer disputes the
 *   charge with their bank (charge.dispute.created, funds_withdrawn); `POST
 *   /disputes/:id/resolve {outcome: "won"|"lost"}`: the bank decides
 *   (charge.dispute.closed, and funds_reinstated when won); `POST
 *   /charges/:id/refund {amount?}`: a refund as Stripe's own `POST
 *   /stripe/v1/refunds` makes it (from the dashboard, say) (decision 077);
 * - `GET /customers`, `/subscriptions`, `/checkout_sessions`, `/invoices`,
 *   `/payment_intents`, `/charges`, `/discounts` (each `?customer=`), `/coupons`,
 *   `/refunds` and `/disputes` (each `?charge=`): inspection.
 */
export function stripeControl(state: SandboxState) {
  const control = new Hono();

  outboxControl(control, "stripe", () => stripeState(state).outbox, listing(state), {
    apply: (input) => {
      if (input.secret === undefined) return null;
      if (typeof input.secret !== "string" || input.secret.length < 8) return "secret must be at least 8 characters";
      stripeState(state).webhookSecret = input.secret;
      return null;
    },
    view: () => ({ secret: stripeState(state).webhookSecret }),
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

  control.post("/charges/:id/refund", async (c) => {
    const stripe = stripeState(state);
    const charge = stripe.charges.get(c.req.param("id"));
    if (!charge) return c.json({ error: `No such charge: ${c.req.param("id")}` }, 404);
    const input = await optionalJson(c);
    if (input instanceof Response) return input;
    if (input.amount !== undefined && !Number.isInteger(input.amount)) return c.json({ error: "amount must be whole cents" }, 400);
    try {
      return c.json(refundCharge({ state, stripe, automatic: true }, charge, { amount: input.amount as number | undefined, reason: "requested_by_customer" }));
    } catch (error) {
      if (error instanceof StripeApiError) return c.json({ error: error.message }, 409);
      throw error;
    }
  });

  control.post("/charges/:id/dispute", async (c) => {
    const stripe = stripeState(state);
    const charge = stripe.charges.get(c.req.param("id"));
    if (!charge) return c.json({ error: `No such charge: ${c.req.param("id")}` }, 404);
    const input = await optionalJson(c);
    if (input instanceof Response) return input;
    if (input.amount !== undefined && !Number.isInteger(input.amount)) return c.json({ error: "amount must be whole cents" }, 400);
    if (input.reason !== undefined && typeof input.reason !== "string") return c.json({ error: "reason must be text" }, 400);
    try {
      return c.json(disputeCharge({ state, stripe, automatic: true }, charge, { amount: input.amount as number | undefined, reason: input.reason as string | undefined }));
    } catch (error) {
      if (error instanceof StripeApiError) return c.json({ error: error.message }, 409);
      throw error;
    }
  });

  control.post("/disputes/:id/resolve", async (c) => {
    const stripe = stripeState(state);
    const dispute = stripe.disputes.get(c.req.param("id"));
    if (!dispute) return c.json({ error: `No such dispute: ${c.req.param("id")}` }, 404);
    const input = await optionalJson(c);
    if (input instanceof Response) return input;
    if (input.outcome !== "won" && input.outcome !== "lost") return c.json({ error: 'outcome must be "won" or "lost"' }, 400);
    try {
      return c.json(closeDispute({ state, stripe, automatic: true }, dispute, input.outcome));
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
  inspect("/charges", (stripe) => [...stripe.charges.values()]);
  inspect("/discounts", (stripe) => [...stripe.discounts.values()]);
  control.get("/coupons", (c) => c.json([...stripeState(state).coupons.values()]));
  for (const [path, pick] of [
    ["/refunds", (stripe: StripeState) => [...stripe.refunds.values()]],
    ["/disputes", (stripe: StripeState) => [...stripe.disputes.values()]],
  ] as const) {
    control.get(path, (c) => {
      const charge = c.req.query("charge");
      return c.json(pick(stripeState(state)).filter((object) => !charge || object.charge === charge));
    });
  }

  return control;
}

/** Stripe's events in the controls: filtered by `customer`, shown with the signed request ({url, method, headers, body}). */
function listing(state: SandboxState): EventListing<EventRecord> {
  return {
    id: (record) => record.event.id,
    type: (record) => record.event.type,
    matches: (record, { customer }) => !customer || eventCustomer(stripeState(state), record.event) === customer,
    view: (record, signed) => ({
      id: record.event.id,
      type: record.event.type,
      created: record.event.created,
      customer: eventCustomer(stripeState(state), record.event),
      object_id: record.event.data.object.id,
      delivery: record.delivery,
      attempts: record.attempts,
      ...(signed ? { request: { url: stripeState(state).outbox.url, method: "POST", ...stripeState(state).outbox.request(record) } } : {}),
    }),
  };
}
