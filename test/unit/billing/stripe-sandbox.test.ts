import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { afterEach, describe, expect, it } from "vitest";
import { SANDBOX_STRIPE_WEBHOOK_SECRET } from "../../../sandbox/provider-vars.ts";
import { stripeClientConfig } from "../../../workers/integrations/stripe.ts";
import { useSandbox } from "../../support/sandbox.ts";

// The official stripe SDK, configured exactly as the worker configures it, against the stand-in.
const sandbox = useSandbox();
const stripe = () => new Stripe("sk_test_unit_tests", stripeClientConfig(`${sandbox.url}/stripe`));

async function control<T = unknown>(path: string, body?: unknown): Promise<T> {
  const response = await fetch(
    `${sandbox.url}/__sandbox/stripe${path}`,
    body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) },
  );
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

/** Opens a checkout session's hosted page and presses one of its buttons; answers the redirect or the page. */
async function payOnHostedPage(url: string, card: "success" | "declined" = "success") {
  const page = await fetch(url);
  expect(page.status).toBe(200);
  const html = await page.text();
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  expect(action).toBeTruthy();
  const email = /name="email" type="email" value="([^"]*)"/.exec(html)?.[1] ?? "";
  return fetch(new URL(action!.replace(/&amp;/g, "&"), url), {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email, card }),
    redirect: "manual",
  });
}

interface Received {
  event: Stripe.Event;
  verified: boolean;
}

/** Our webhook endpoint's stand-in: verifies each delivery like the worker does and can refuse the first ones. */
async function webhookEndpoint(options: { failFirst?: number } = {}) {
  const received: Received[] = [];
  let failuresLeft = options.failFirst ?? 0;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", async () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const signature = String(request.headers["stripe-signature"] ?? "");
      let verified = true;
      try {
        await Stripe.webhooks.constructEventAsync(body, signature, SANDBOX_STRIPE_WEBHOOK_SECRET, undefined, Stripe.createSubtleCryptoProvider());
      } catch {
        verified = false;
      }
      received.push({ event: JSON.parse(body) as Stripe.Event, verified });
      if (failuresLeft > 0) {
        failuresLeft -= 1;
        response.writeHead(500).end("not now");
        return;
      }
      response.writeHead(200, { "content-type": "application/json" }).end('{"received":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/stripe/webhook`, received };
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
});

async function waitFor<T>(check: () => T | undefined, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error("timed out");
}

describe("Stripe stand-in through the official SDK", () => {
  it("seeds the plan prices with the ids of our plan data", async () => {
    const price = await stripe().prices.retrieve("price_starter_monthly");
    expect(price).toMatchObject({
      object: "price",
      unit_amount: 1699,
      currency: "usd",
      type: "recurring",
      recurring: { interval: "month", interval_count: 1 },
      lookup_key: "starter-monthly",
    });
    const lifetime = await stripe().prices.retrieve("price_lifetime", { expand: ["product"] });
    expect(lifetime).toMatchObject({ unit_amount: 24900, type: "one_time", recurring: null, product: { object: "product", name: "Pinboard Studio Lifetime" } });
    const annual = await stripe().prices.list({ lookup_keys: ["pro-annual", "agency-annual"] });
    expect(annual.data.map((p) => p.unit_amount).sort()).toEqual([29900, 69900]);
  });

  it("runs a subscription checkout: session, hosted page paid with the form, success URL, subscription with its trial", async () => {
    const client = stripe();
    const customer = await client.customers.create({ email: "maya@example.com", name: "Maya Lindqvist", metadata: { userId: "u1" } });
    expect(customer.id).toMatch(/^cus_/);
    const session = await client.checkout.sessions.create({
      mode: "subscription",
      customer: customer.id,
      client_reference_id: "u1",
      line_items: [{ price: "price_starter_monthly", quantity: 1 }],
      subscription_data: { trial_period_days: 7, metadata: { userId: "u1", planId: "starter-monthly" } },
      success_url: "http://app.test/pricing?paymentMessage=success&session_id={CHECKOUT_SESSION_ID}",
      cancel_url: "http://app.test/pricing?paymentMessage=cancel",
    });
    expect(session).toMatchObject({ object: "checkout.session", status: "open", payment_status: "unpaid", mode: "subscription", subscription: null });
    expect(session.url).toBe(`${sandbox.url}/stripe/checkout/pay/${session.id}`);

    const page = await (await fetch(session.url!)).text();
    expect(page).toContain("7 days free");
    expect(page).toContain('href="http://app.test/pricing?paymentMessage=cancel"');

    const paid = await payOnHostedPage(session.url!);
    expect(paid.status).toBe(303);
    expect(paid.headers.get("location")).toBe(`http://app.test/pricing?paymentMessage=success&session_id=${session.id}`);

    const done = await client.checkout.sessions.retrieve(session.id, { expand: ["subscription", "line_items"] });
    expect(done).toMatchObject({ status: "complete", payment_status: "no_payment_required", client_reference_id: "u1" });
    const subscription = done.subscription as Stripe.Subscription;
    expect(subscription).toMatchObject({ object: "subscription", status: "trialing", customer: customer.id, metadata: { planId: "starter-monthly" } });
    const item = subscription.items.data[0];
    expect(item.price.id).toBe("price_starter_monthly");
    expect(item.current_period_end - item.current_period_start).toBe(7 * 86_400);
    expect(subscription.trial_end).toBe(item.current_period_end);
    expect(done.line_items?.data[0]).toMatchObject({ object: "item", quantity: 1, price: { id: "price_starter_monthly" } });

    // Paying again (a double submit) lands on the success page, and nothing more is created.
    const again = await fetch(session.url!, { method: "POST", body: new URLSearchParams({ card: "success" }), redirect: "manual" });
    expect(again.status).toBe(303);
    expect(again.headers.get("location")).toContain(session.id);
    expect((await client.subscriptions.list({ customer: customer.id })).data).toHaveLength(1);
  });

  it("takes a once-off payment in payment mode, and a declined card leaves the session open", async () => {
    const client = stripe();
    const customer = await client.customers.create({ email: "lifetime@example.com" });
    const session = await client.checkout.sessions.create({
      mode: "payment",
      customer: customer.id,
      line_items: [{ price: "price_lifetime", quantity: 1 }],
      payment_intent_data: { metadata: { planId: "lifetime" } },
      metadata: { planId: "lifetime" },
      success_url: "http://app.test/lifetime?paymentMessage=success&session_id={CHECKOUT_SESSION_ID}",
    });
    expect(session.amount_total).toBe(24900);

    const declined = await payOnHostedPage(session.url!, "declined");
    expect(declined.status).toBe(402);
    expect(await declined.text()).toContain("Your card was declined.");
    expect((await client.checkout.sessions.retrieve(session.id)).status).toBe("open");

    expect((await payOnHostedPage(session.url!)).status).toBe(303);
    const done = await client.checkout.sessions.retrieve(session.id, { expand: ["payment_intent"] });
    expect(done).toMatchObject({ status: "complete", payment_status: "paid", subscription: null });
    expect(done.payment_intent).toMatchObject({
      object: "payment_intent",
      status: "succeeded",
      amount: 24900,
      amount_received: 24900,
      metadata: { planId: "lifetime" },
    });
  });

  it("answers Stripe's error objects, which the SDK turns into its typed errors", async () => {
    const client = stripe();
    const missing = await client.customers.retrieve("cus_doesnotexist").catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(missing).toMatchObject({ statusCode: 404, code: "resource_missing", param: "id", message: "No such customer: 'cus_doesnotexist'" });

    const noItems = await client.checkout.sessions.create({ mode: "subscription", success_url: "http://app.test/ok" }).catch((error: unknown) => error);
    expect(noItems).toMatchObject({ statusCode: 400, type: "StripeInvalidRequestError", code: "parameter_missing", param: "line_items" });

    const oneTimeInSubscription = await client.checkout.sessions
      .create({ mode: "subscription", success_url: "http://app.test/ok", line_items: [{ price: "price_lifetime", quantity: 1 }] })
      .catch((error: unknown) => error);
    expect(oneTimeInSubscription).toMatchObject({ statusCode: 400, param: "line_items[0][price]" });

    const unknownPrice = await client.checkout.sessions
      .create({ mode: "payment", success_url: "http://app.test/ok", line_items: [{ price: "price_nope", quantity: 1 }] })
      .catch((error: unknown) => error);
    expect(unknownPrice).toMatchObject({ statusCode: 404, code: "resource_missing", param: "line_items[0][price]" });

    const anonymous = await fetch(`${sandbox.url}/stripe/v1/customers`);
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { error: { type: string } }).error.type).toBe("invalid_request_error");
  });

  it("lists newest first with pagination, and replays a request sent again with the same idempotency key", async () => {
    const client = stripe();
    const email = "paged@example.com";
    const first = await client.customers.create({ email }, { idempotencyKey: "create-paged-1" });
    const again = await client.customers.create({ email }, { idempotencyKey: "create-paged-1" });
    expect(again.id).toBe(first.id);
    const conflicting = await client.customers.create({ email: "other@example.com" }, { idempotencyKey: "create-paged-1" }).catch((error: unknown) => error);
    expect(conflicting).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);

    await client.customers.create({ email });
    await client.customers.create({ email });
    const page1 = await client.customers.list({ email, limit: 2 });
    expect(page1).toMatchObject({ object: "list", has_more: true, url: "/v1/customers" });
    const page2 = await client.customers.list({ email, limit: 2, starting_after: page1.data[1].id });
    expect(page2.has_more).toBe(false);
    expect([...page1.data, ...page2.data].map((c) => c.id)).toContain(first.id);
    expect(new Set([...page1.data, ...page2.data].map((c) => c.id)).size).toBe(3);
  });

  it("switches a subscription's price with an immediate proration invoice, cancels at period end, then cancels", async () => {
    const client = stripe();
    const customer = await client.customers.create({ email: "switch@example.com" });
    const created = await client.subscriptions.create({
      customer: customer.id,
      items: [{ price: "price_starter_monthly" }],
      metadata: { planId: "starter-monthly" },
    });
    expect(created.status).toBe("active");

    const switched = await client.subscriptions.update(created.id, {
      items: [{ id: created.items.data[0].id, price: "price_pro_monthly" }],
      proration_behavior: "always_invoice",
      expand: ["latest_invoice"],
    });
    expect(switched.items.data[0].price.id).toBe("price_pro_monthly");
    expect(switched.items.data[0].current_period_start).toBe(created.items.data[0].current_period_start);
    const invoice = switched.latest_invoice as Stripe.Invoice;
    expect(invoice).toMatchObject({ object: "invoice", status: "paid", billing_reason: "subscription_update" });
    // Nearly a whole month left: about $29.99 - $16.99.
    expect(invoice.total).toBeGreaterThan(1290);
    expect(invoice.total).toBeLessThanOrEqual(1300);
    expect(invoice.lines.data.map((line) => Math.sign(line.amount))).toEqual([-1, 1]);
    expect(invoice.parent?.subscription_details?.subscription).toBe(created.id);

    const cancelling = await client.subscriptions.update(created.id, { cancel_at_period_end: true, cancellation_details: { comment: "Too expensive" } });
    expect(cancelling).toMatchObject({
      status: "active",
      cancel_at_period_end: true,
      cancel_at: created.items.data[0].current_period_end,
      cancellation_details: { comment: "Too expensive" },
    });

    const canceled = await client.subscriptions.cancel(created.id);
    expect(canceled.status).toBe("canceled");
    expect(canceled.ended_at).not.toBeNull();
    const refused = await client.subscriptions
      .update(created.id, { items: [{ id: created.items.data[0].id, price: "price_growth_monthly" }] })
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ statusCode: 400 });
  });

  it("confirms payment intents, declining the declined test card, and applies customer balance credit to invoices", async () => {
    const client = stripe();
    const customer = await client.customers.create({ email: "pay@example.com" });
    const intent = await client.paymentIntents.create({ amount: 24900, currency: "usd", customer: customer.id });
    expect(intent.status).toBe("requires_payment_method");
    expect((await client.paymentIntents.confirm(intent.id, { payment_method: "pm_card_visa" })).status).toBe("succeeded");
    const declined = await client.paymentIntents.create({ amount: 1000, currency: "usd" });
    const failure = await client.paymentIntents.confirm(declined.id, { payment_method: "pm_card_chargeDeclined" }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(failure).toMatchObject({ statusCode: 402, code: "card_declined" });

    const credit = await client.customers.createBalanceTransaction(customer.id, { amount: -1699, currency: "usd", description: "Referral credit" });
    expect(credit).toMatchObject({ object: "customer_balance_transaction", amount: -1699, ending_balance: -1699 });
    expect((await client.customers.retrieve(customer.id)) as Stripe.Customer).toMatchObject({ balance: -1699 });
    const subscription = await client.subscriptions.create({ customer: customer.id, items: [{ price: "price_starter_monthly" }], expand: ["latest_invoice"] });
    expect(subscription.latest_invoice).toMatchObject({ total: 1699, amount_due: 0, starting_balance: -1699, ending_balance: 0 });
    expect(((await client.customers.retrieve(customer.id)) as Stripe.Customer).balance).toBe(0);
    expect((await client.customers.listBalanceTransactions(customer.id)).data.map((t) => t.type)).toEqual(["applied_to_invoice", "adjustment"]);
  });
});

describe("Stripe stand-in refunds and disputes (decision 077)", () => {
  /** A paid subscription's charge, found as our worker finds it: invoice payment, then the payment intent's charge. */
  async function paidCharge(client: Stripe, email: string, price = "price_pro_monthly") {
    const customer = await client.customers.create({ email });
    const subscription = await client.subscriptions.create({ customer: customer.id, items: [{ price }] });
    const invoice = subscription.latest_invoice as string;
    const [paid] = (await client.invoicePayments.list({ invoice })).data;
    expect(paid).toMatchObject({ object: "invoice_payment", invoice, status: "paid", payment: { type: "payment_intent" } });
    const intent = paid.payment.payment_intent as string;
    expect((await client.invoicePayments.list({ payment: { type: "payment_intent", payment_intent: intent } })).data.map((row) => row.invoice)).toEqual([
      invoice,
    ]);
    const [charge] = (await client.charges.list({ payment_intent: intent })).data;
    expect(charge).toMatchObject({
      object: "charge",
      amount: 2999,
      amount_refunded: 0,
      refunded: false,
      disputed: false,
      customer: customer.id,
      status: "succeeded",
    });
    return { customer, subscription, invoice, charge };
  }

  it("refunds a charge in part, then the rest, and refuses what is left over, with charge.refunded each time", async () => {
    const client = stripe();
    const { customer, charge } = await paidCharge(client, "refund@example.com");
    const part = await client.refunds.create({ charge: charge.id, amount: 1000, reason: "requested_by_customer" });
    expect(part).toMatchObject({ object: "refund", amount: 1000, charge: charge.id, status: "succeeded", payment_intent: charge.payment_intent });
    expect(await client.charges.retrieve(charge.id)).toMatchObject({ amount_refunded: 1000, refunded: false });
    const tooMuch = await client.refunds.create({ charge: charge.id, amount: 2000 }).catch((error: unknown) => error);
    expect(tooMuch).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(tooMuch).toMatchObject({ statusCode: 400, param: "amount" });
    // The rest, by payment intent.
    expect(await client.refunds.create({ payment_intent: charge.payment_intent as string })).toMatchObject({ amount: 1999 });
    const refunded = await client.charges.retrieve(charge.id, { expand: ["refunds"] });
    expect(refunded).toMatchObject({ amount_refunded: 2999, refunded: true });
    expect(refunded.refunds?.data.map((refund) => refund.amount).sort()).toEqual([1000, 1999]);
    expect(await client.refunds.create({ charge: charge.id }).catch((error: unknown) => error)).toMatchObject({ code: "charge_already_refunded" });
    // The refunds' events are the customer's (through the charge).
    const events = await control<{ type: string }[]>(`/events?customer=${customer.id}`);
    expect(events.filter((event) => event.type === "charge.refunded")).toHaveLength(2);
    expect(events.filter((event) => event.type === "refund.created")).toHaveLength(2);
  });

  it("disputes a charge: the funds are withdrawn; lost when the merchant accepts, reinstated when won; no refund meanwhile", async () => {
    const client = stripe();
    const lost = await paidCharge(client, "lost@example.com");
    const dispute = await control<Stripe.Dispute>(`/charges/${lost.charge.id}/dispute`, { reason: "fraudulent" });
    expect(dispute).toMatchObject({ object: "dispute", charge: lost.charge.id, amount: 2999, status: "needs_response", reason: "fraudulent" });
    expect((await client.charges.retrieve(lost.charge.id)).disputed).toBe(true);
    expect(await client.refunds.create({ charge: lost.charge.id }).catch((error: unknown) => error)).toMatchObject({ code: "charge_disputed" });
    expect((await client.disputes.list({ charge: lost.charge.id })).data.map((row) => row.id)).toEqual([dispute.id]);
    expect(await client.disputes.close(dispute.id)).toMatchObject({ status: "lost" });
    expect(await client.disputes.close(dispute.id).catch((error: unknown) => error)).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    const lostEvents = (await control<{ type: string }[]>(`/events?customer=${lost.customer.id}`))
      .map((event) => event.type)
      .filter((type) => type.startsWith("charge.dispute."));
    expect(lostEvents).toEqual(["charge.dispute.created", "charge.dispute.funds_withdrawn", "charge.dispute.closed"]);

    const won = await paidCharge(client, "won@example.com");
    const second = await control<Stripe.Dispute>(`/charges/${won.charge.id}/dispute`, {});
    expect(await control(`/disputes/${second.id}/resolve`, { outcome: "won" })).toMatchObject({ status: "won" });
    const wonEvents = (await control<{ type: string }[]>(`/events?customer=${won.customer.id}`))
      .map((event) => event.type)
      .filter((type) => type.startsWith("charge.dispute."));
    expect(wonEvents).toEqual(["charge.dispute.created", "charge.dispute.funds_withdrawn", "charge.dispute.closed", "charge.dispute.funds_reinstated"]);
  });
});

describe("Stripe stand-in webhooks", () => {
  it("delivers each event signed like Stripe, and retries a delivery our endpoint refused", async () => {
    const endpoint = await webhookEndpoint({ failFirst: 1 });
    await control("/webhook", { url: endpoint.url, retryDelaysMs: [50, 50] });
    const customer = await stripe().customers.create({ email: "hooks@example.com" });

    const created = await waitFor(() => {
      const deliveries = endpoint.received.filter((r) => r.event.type === "customer.created");
      return deliveries.length >= 2 ? deliveries : undefined;
    });
    expect(created.every((r) => r.verified)).toBe(true);
    expect(created[0].event.data.object).toMatchObject({ id: customer.id, email: "hooks@example.com" });
    const events = await control<{ id: string; delivery: string; attempts: { status: number }[] }[]>(`/events?customer=${customer.id}`);
    expect(events[0]).toMatchObject({ delivery: "delivered" });
    expect(events[0].attempts.map((a) => a.status)).toEqual([500, 200]);

    // A delivery signed with another secret does not verify.
    await control("/webhook", { secret: "whsec_not_the_endpoint_secret" });
    await stripe().customers.update(customer.id, { name: "Renamed" });
    const forged = await waitFor(() => endpoint.received.find((r) => r.event.type === "customer.updated"));
    expect(forged.verified).toBe(false);
  });

  it("holds events and releases them out of order and twice, on request", async () => {
    const endpoint = await webhookEndpoint();
    await control("/webhook", { url: endpoint.url, hold: true });
    const client = stripe();
    const customer = await client.customers.create({ email: "order@example.com" });
    const subscription = await client.subscriptions.create({ customer: customer.id, items: [{ price: "price_pro_monthly" }] });
    await client.subscriptions.cancel(subscription.id);
    expect(endpoint.received).toHaveLength(0);

    const { delivered } = await control<{ delivered: { type: string; statuses: number[] }[] }>("/webhook/release", { order: "reverse", times: 2 });
    const types = delivered.map((d) => d.type);
    expect(types.indexOf("customer.subscription.deleted")).toBeLessThan(types.indexOf("customer.subscription.created"));
    expect(delivered.every((d) => d.statuses.join() === "200,200")).toBe(true);
    const received = endpoint.received.map((r) => r.event.type);
    expect(received.filter((type) => type === "customer.subscription.created")).toHaveLength(2);
    expect(received[0]).toBe("customer.subscription.deleted");
    expect(endpoint.received.every((r) => r.verified)).toBe(true);
  });

  it("renews a subscription now: a new period, a paid cycle invoice; one set to cancel ends instead", async () => {
    const client = stripe();
    const customer = await client.customers.create({ email: "renew@example.com" });
    const subscription = await client.subscriptions.create({ customer: customer.id, items: [{ price: "price_growth_annual" }] });
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const renewed = await control<Stripe.Subscription>(`/subscriptions/${subscription.id}/renew`, {});
    const item = renewed.items.data[0];
    expect(item.current_period_start).toBeGreaterThan(subscription.items.data[0].current_period_start);
    expect(new Date(item.current_period_end * 1000).getUTCFullYear() - new Date(item.current_period_start * 1000).getUTCFullYear()).toBe(1);
    const paid = await control<{ type: string; object_id: string }[]>(`/events?customer=${customer.id}&type=invoice.paid`);
    expect(paid).toHaveLength(2);
    const invoice = await client.invoices.retrieve(paid[1].object_id);
    expect(invoice).toMatchObject({ billing_reason: "subscription_cycle", status: "paid", total: 49900 });

    await client.subscriptions.update(subscription.id, { cancel_at_period_end: true });
    const ended = await control<Stripe.Subscription>(`/subscriptions/${subscription.id}/renew`, {});
    expect(ended.status).toBe("canceled");
    expect(await control(`/events?customer=${customer.id}&type=customer.subscription.deleted`)).toHaveLength(1);
  });

  it("offers each event's signed delivery for a test to send itself", async () => {
    const customer = await stripe().customers.create({ email: "relay@example.com" });
    const [event] = await control<{ delivery: string; request: { body: string; headers: Record<string, string> } }[]>(
      `/events?customer=${customer.id}&signed=1`,
    );
    expect(event.delivery).toBe("pending");
    const verified = await Stripe.webhooks.constructEventAsync(
      event.request.body,
      event.request.headers["stripe-signature"],
      SANDBOX_STRIPE_WEBHOOK_SECRET,
      undefined,
      Stripe.createSubtleCryptoProvider(),
    );
    expect(verified.type).toBe("customer.created");
  });
});
