import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { webhookEvents } from "../../../workers/db/schema.ts";
import { signUpUser } from "../accounts/accounts-support.ts";
import {
  checkoutAndPay,
  creditsOf,
  credentialsOf,
  db,
  deliver,
  deliverAllTo,
  grantsOf,
  post,
  signedEvents,
  STRIPE_WEBHOOK,
  stripeCustomerOf,
  stripeSignature,
  subscribe,
  type SandboxEvent,
  spendCredits,
} from "./billing-support.ts";
import { read, sandbox, testEnv } from "../support.ts";

// POST /api/stripe/webhook: verified, applied once per event id, safe out of order (what an event is
// about is re-read from Stripe), and renewals start the month's credits afresh. The test delivers the
// stand-in's signed requests itself (the worker under test has no address the sandbox could call).

const deliverAll = (events: SandboxEvent[]) => deliverAllTo(STRIPE_WEBHOOK, events);

describe("Stripe webhook", () => {
  it("refuses deliveries whose signature does not verify and applies nothing; a good one activates the plan", async () => {
    const user = await signUpUser();
    await checkoutAndPay(user, "starter-monthly");
    const customer = await stripeCustomerOf(user);
    const [completed] = await signedEvents(customer, "checkout.session.completed");
    expect(completed).toBeTruthy();
    const now = Math.floor(Date.now() / 1000);

    const tampered = await deliver(completed, { body: completed.request.body.replace('"livemode": false', '"livemode": true') });
    expect(tampered.status).toBe(400);
    expect(await read(tampered)).toEqual({ error: "Invalid Stripe signature" });
    const otherSecret = await deliver(completed, { signature: await stripeSignature(completed.request.body, "whsec_someone_elses_secret", now) });
    expect(otherSecret.status).toBe(400);
    const stale = await deliver(completed, { signature: await stripeSignature(completed.request.body, testEnv.STRIPE_WEBHOOK_SECRET, now - 3600) });
    expect(stale.status).toBe(400);
    const unsigned = await deliver(completed, { signature: "" });
    expect(unsigned.status).toBe(400);

    expect(await db.select().from(webhookEvents).where(eq(webhookEvents.eventId, completed.id))).toHaveLength(0);
    expect(await credentialsOf(user)).toMatchObject({ planId: "free", planStatus: "Inactive" });

    // The browser never came back: the webhook alone activates the subscription.
    const good = await deliver(completed);
    expect(good.status).toBe(200);
    expect(await read(good)).toEqual({ received: true });
    expect(await credentialsOf(user)).toMatchObject({ planId: "starter-monthly", planStatus: "Active", usedFreeTrial: true });
    expect(await creditsOf(user)).toMatchObject({ creditsPerMonth: 150, remaining: 150 });
  });

  it("applies each event once: every delivery twice leaves the same state and one month's grant", async () => {
    const user = await signUpUser();
    await checkoutAndPay(user, "pro-monthly");
    const events = await signedEvents(await stripeCustomerOf(user));
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(["customer.subscription.created", "invoice.paid", "checkout.session.completed"]));

    const first = await deliverAll(events);
    expect(first.every((answer) => answer.duplicate === undefined)).toBe(true);
    const state = await credentialsOf(user);
    const credits = await creditsOf(user);
    const second = await deliverAll(events);
    expect(second.every((answer) => answer.duplicate === true)).toBe(true);
    expect(await credentialsOf(user)).toEqual(state);
    expect(await creditsOf(user)).toEqual(credits);
    expect(state).toMatchObject({ planId: "pro-monthly", planStatus: "Active" });
    expect(await grantsOf(user.userId, "pro-monthly")).toHaveLength(1);
  });

  it("ends in Stripe's current state when deliveries come out of order (newest first)", async () => {
    const user = await signUpUser();
    const { paymentDetails } = await subscribe(user, "starter-monthly");
    const subscriptionID = paymentDetails.subscriptionID!;
    const cancelled = await post("/api/stripeSubscriptions/cancelStripeSubscription", user, { subscriptionID, cancelReason: "Taking a break" });
    expect(cancelled.status).toBe(200);
    // The period ends (a test clock advancing): Stripe ends the subscription and says so.
    const ended = await sandbox<{ status: string; ended_at: number }>(`/stripe/subscriptions/${subscriptionID}/renew`, { method: "POST", json: {} });
    expect(ended.status).toBe("canceled");

    const events = await signedEvents(await stripeCustomerOf(user));
    const types = events.map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(["customer.subscription.created", "customer.subscription.updated", "customer.subscription.deleted"]));
    await deliverAll([...events].reverse());

    const credentials = await credentialsOf(user);
    expect(credentials).toMatchObject({ planId: "free", planStatus: "Cancelled" });
    expect(Date.parse(credentials.cancelSubscriptionDate!)).toBe(ended.ended_at * 1000);
    expect(await creditsOf(user)).toMatchObject({ planId: "free", creditsPerMonth: 10 });
  });

  it("starts the month's credits afresh on renewal (invoice.paid for a new period), once per period", async () => {
    const user = await signUpUser();
    const { paymentDetails } = await subscribe(user, "starter-monthly");
    await spendCredits(user, 30);
    expect(await creditsOf(user)).toMatchObject({ usedPinCredits: 30, remaining: 120 });

    // Stripe periods start on whole seconds: let the spend's second pass before the new period begins.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const renewed = await sandbox<{ items: { data: { current_period_start: number; current_period_end: number }[] } }>(
      `/stripe/subscriptions/${paymentDetails.subscriptionID}/renew`,
      { method: "POST", json: {} },
    );
    const newStart = renewed.items.data[0].current_period_start * 1000;
    const invoices = await signedEvents(await stripeCustomerOf(user), "invoice.paid");
    const renewal = invoices.at(-1)!;
    const applied = await deliver(renewal);
    expect(applied.status).toBe(200);

    const credits = await creditsOf(user);
    expect(credits).toMatchObject({ planId: "starter-monthly", creditsPerMonth: 150, usedPinCredits: 0, remaining: 150 });
    expect(Date.parse(credits.periodStart)).toBe(newStart);
    expect(await read(await deliver(renewal))).toEqual({ received: true, duplicate: true });
    // The first invoice.paid arriving late changes nothing either.
    await deliver(invoices[0]);
    expect(await creditsOf(user)).toEqual(credits);
    expect(await grantsOf(user.userId, "starter-monthly")).toHaveLength(2);
  });
});
