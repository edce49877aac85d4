import { Hono } from "hono";
import type { SandboxState } from "../../state.ts";
import { optionalJson, outboxControl, type EventListing } from "../../webhook-outbox.ts";
import { closeDispute, disputeCharge, refundCharge, renewSubscription, type Context } from "./billing.ts";
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
    if (input.payment !== undefined && input.payment !== "succeed" && input.payment !== "fail")
      return c.json({ error: 'payment must be "succeed" or "fail"' }, 400);
    try {
      return c.json(renewSubscription({ state, stripe, automatic: true }, subscription, { fail: input.payment === "fail" }));
    } catch (error) {
      if (error instanceof StripeApiError) return c.json({ error: error.message }, 409);
      throw error;
    }
  });

  /** A control acting on one of Stripe's objects: 404 without it, 400 for bad input (`check` answers why), 409 when Stripe would refuse. */
  const objectAction = <T>(
    path: string,
    kind: string,
    find: (stripe: StripeState, id: string) => T | undefined,
    check: (input: Record<string, unknown>) => string | null,
    run: (ctx: Context, object: T, input: Record<string, unknown>) => unknown,
  ) =>
    control.post(path, async (c) => {
      const stripe = stripeState(state);
      const object = find(stripe, c.req.param("id") ?? "");
      if (!object) return c.json({ error: `No such ${kind}: ${c.req.param("id")}` }, 404);
      const input = await optionalJson(c);
      if (input instanceof Response) return input;
      const bad = check(input);
      if (bad) return c.json({ error: bad }, 400);
      try {
        return c.json(run({ state, stripe, automatic: true }, object, input));
      } catch (error) {
        if (error instanceof StripeApiError) return c.json({ error: error.message }, 409);
        throw error;
      }
    });
  const amountOf = (input: Record<string, unknown>) => (input.amount !== undefined && !Number.isInteger(input.amount) ? "amount must be whole cents" : null);
  const charge = (stripe: StripeState, id: string) => stripe.charges.get(id);
  objectAction("/charges/:id/refund", "charge", charge, amountOf, (ctx, object, input) =>
    refundCharge(ctx, object, { amount: input.amount as number | undefined, reason: "requested_by_customer" }),
  );
  objectAction(
    "/charges/:id/dispute",
    "charge",
    charge,
    (input) => amountOf(input) ?? (input.reason !== undefined && typeof input.reason !== "string" ? "reason must be text" : null),
    (ctx, object, input) => disputeCharge(ctx, object, { amount: input.amount as number | undefined, reason: input.reason as string | undefined }),
  );
  objectAction(
    "/disputes/:id/resolve",
    "dispute",
    (stripe, id) => stripe.disputes.get(id),
    (input) => (input.outcome !== "won" && input.outcome !== "lost" ? 'outcome must be "won" or "lost"' : null),
    (ctx, object, input) => closeDispute(ctx, object, input.outcome as "won" | "lost"),
  );

  const inspect = (path: string, pick: (stripe: StripeState) => StripeObject[]) =>
    control.get(path, (c) => {
      const customer = c.req.query("customer");
      return c.json(
        pick(stripeState(state)).filter((object) => !customer || object.customer === customer || (object.object === "customer" && object.id === customer)),
      );
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
