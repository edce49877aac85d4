import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { webhookEvents } from "../../../workers/db/schema.ts";
import { addMonths } from "../../../workers/domain/plans.ts";
import * as paypal from "../../../workers/integrations/paypal.ts";
import { bearer, signUpUser } from "../accounts/accounts-support.ts";
import {
  approvePayPal,
  creditsOf,
  credentialsOf,
  db,
  deliverAllTo,
  deliverTo,
  grantsOf,
  PAYPAL_START as START,
  PAYPAL_WEBHOOK as WEBHOOK,
  paypalDeliveries as deliveries,
  paypalSubscription as sandboxSubscription,
  post,
  startAndApprovePayPal as startAndApprove,
  subscribePayPal as subscribe,
  type DeliveryOverride,
  type OutboxDelivery,
  type SandboxPayPalSubscription,
  spendCredits,
} from "./billing-support.ts";
import { app, read, sandbox, testEnv } from "../support.ts";

// POST /api/paypal/webhook and POST /api/subscriptions/startPayPalSubscription against the PayPal
// stand-in. Every delivery is verified by PayPal (verify-webhook-signature), applied once per event
// id and safe out of order (the subscription is re-read from PayPal); a renewal payment starts the
// month's credits afresh. The test delivers the stand-in's signed requests itself (the worker under
// test has no address the sandbox could call). The sandbox is shared: nothing here resets it.

const deliver = (event: OutboxDelivery, override?: DeliveryOverride) => deliverTo(WEBHOOK, event.request, override);
const deliverAll = (events: OutboxDelivery[]) => deliverAllTo(WEBHOOK, events);

describe("startPayPalSubscription", () => {
  it("creates the subscription for the caller and answers PayPal's approve link, coming back to /pricing", async () => {
    const user = await signUpUser();
    const started = await post(START, user, { planId: "pro-monthly" });
    expect(started.status).toBe(200);
    const { approvalLink, subscriptionID } = await read(started);
    expect(subscriptionID).toMatch(/^I-[A-Z0-9]+$/);
    expect(approvalLink).toContain("/paypal/webapps/billing/subscriptions?ba_token=");
    const created = await sandboxSubscription(subscriptionID);
    expect(created).toMatchObject({ status: "APPROVAL_PENDING", custom_id: user.userId });

    const back = await approvePayPal(approvalLink);
    expect(back.origin + back.pathname).toBe("http://app.test/pricing");
    expect(Object.fromEntries(back.searchParams)).toMatchObject({
      provider: "paypal",
      planId: "pro-monthly",
      paymentMessage: "success",
      subscription_id: subscriptionID,
    });
  });

  it("refuses bad input naming the field, a lifetime plan, and a second subscription while one runs", async () => {
    const user = await signUpUser();
    for (const [body, field] of [
      [{}, "planId"],
      [{ planId: "Starter Monthly" }, "planId"],
      [{ planId: "lifetime" }, "planId"],
      [{ planId: "free" }, "planId"],
      [{ planId: "starter-monthly", returnUrl: "https://evil.example/pricing" }, "returnUrl"],
    ] as const) {
      const response = await post(START, user, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(await read(response)).toMatchObject({ field });
    }
    expect((await post(START, null, { planId: "starter-monthly" })).status).toBe(401);

    await subscribe(user, "starter-monthly");
    const again = await post(START, user, { planId: "pro-monthly" });
    expect(again.status).toBe(409);
  });
});

describe("PayPal webhook", () => {
  it("refuses deliveries PayPal does not verify and applies nothing; a verified one activates the plan when the browser never came back", async () => {
    const user = await signUpUser();
    const subscriptionID = await startAndApprove(user, "starter-monthly");
    const [activated] = await deliveries(subscriptionID, "BILLING.SUBSCRIPTION.ACTIVATED");
    expect(activated).toBeTruthy();

    const refused = [
      // The event changed after PayPal signed it.
      await deliver(activated, { body: activated.request.body.replace('"status":"ACTIVE"', '"status":"SUSPENDED"') }),
      await deliver(activated, { body: activated.request.body.replace(subscriptionID, "I-SOMEONEELSE01") }),
      // Another delivery's signature, a certificate that is not PayPal's, another algorithm.
      await deliver(activated, {
        headers: { "paypal-transmission-sig": (await deliveries(subscriptionID, "PAYMENT.SALE.COMPLETED"))[0].request.headers["paypal-transmission-sig"] },
      }),
      await deliver(activated, { headers: { "paypal-cert-url": "https://evil.example/v1/notifications/certs/CERT-1" } }),
      await deliver(activated, { headers: { "paypal-auth-algo": "SHA1withRSA" } }),
    ];
    for (const response of refused) {
      expect(response.status).toBe(400);
      expect(await read(response)).toEqual({ error: "Invalid PayPal signature" });
    }
    const unsigned = await deliver(activated, { headers: { "paypal-transmission-sig": null } });
    expect(unsigned.status).toBe(400);
    expect(await read(unsigned)).toEqual({ error: "Missing PayPal transmission headers" });
    expect((await deliver(activated, { body: "not json" })).status).toBe(400);

    expect(await db.select().from(webhookEvents).where(eq(webhookEvents.eventId, activated.id))).toHaveLength(0);
    expect(await credentialsOf(user)).toMatchObject({ planId: "free", planStatus: "Inactive" });

    const good = await deliver(activated);
    expect(good.status).toBe(200);
    expect(await read(good)).toEqual({ received: true });
    expect(await credentialsOf(user)).toMatchObject({ planId: "starter-monthly", planStatus: "Active", usedFreeTrial: true });
    expect(await creditsOf(user)).toMatchObject({ planId: "starter-monthly", creditsPerMonth: 150, remaining: 150 });
  });

  it("gives the event back when PayPal cannot verify it now (5xx, nothing applied), so PayPal's retry applies it", async () => {
    const user = await signUpUser();
    const subscriptionID = await startAndApprove(user, "growth-monthly");
    const [activated] = await deliveries(subscriptionID, "BILLING.SUBSCRIPTION.ACTIVATED");
    await sandbox("/faults", { method: "POST", json: { service: "paypal", method: "POST", path: "/v1/notifications/verify-webhook-signature", status: 503 } });
    const unavailable = await deliver(activated);
    expect(unavailable.status).toBe(503);
    expect(await credentialsOf(user)).toMatchObject({ planId: "free" });
    expect(await db.select().from(webhookEvents).where(eq(webhookEvents.eventId, activated.id))).toHaveLength(0);

    expect((await deliver(activated)).status).toBe(200);
    expect(await credentialsOf(user)).toMatchObject({ planId: "growth-monthly", planStatus: "Active" });
  });

  it("applies each event once: every delivery twice leaves the same state and one month's grant", async () => {
    const user = await signUpUser();
    const subscriptionID = await startAndApprove(user, "pro-monthly");
    const events = await deliveries(subscriptionID);
    expect(events.map((event) => event.type)).toEqual(["BILLING.SUBSCRIPTION.ACTIVATED", "PAYMENT.SALE.COMPLETED"]);

    const first = await deliverAll(events);
    expect(first).toEqual([{ received: true }, { received: true }]);
    const state = await credentialsOf(user);
    const credits = await creditsOf(user);
    const second = await deliverAll(events);
    expect(second).toEqual([
      { received: true, duplicate: true },
      { received: true, duplicate: true },
    ]);
    expect(await credentialsOf(user)).toEqual(state);
    expect(await creditsOf(user)).toEqual(credits);
    expect(state).toMatchObject({ planId: "pro-monthly", planStatus: "Active" });
    expect(await grantsOf(user.userId, "pro-monthly")).toHaveLength(1);
  });

  it("ends in PayPal's current state when deliveries come out of order: suspended then re-activated stays Active", async () => {
    const user = await signUpUser();
    const subscriptionID = await subscribe(user, "starter-monthly");
    // The subscriber pauses and resumes in PayPal itself; the deliveries arrive newest first.
    await paypal.suspendSubscription(testEnv, subscriptionID, "Paused at PayPal");
    await paypal.activateSubscription(testEnv, subscriptionID, "Resumed at PayPal");
    const latest = (await deliveries(subscriptionID)).slice(-2);
    expect(latest.map((event) => event.type)).toEqual(["BILLING.SUBSCRIPTION.SUSPENDED", "BILLING.SUBSCRIPTION.RE-ACTIVATED"]);
    // Taken in arrival order, the suspension would be last: PayPal's state (ACTIVE) wins.
    await deliverAll([...latest].reverse());
    expect(await credentialsOf(user)).toMatchObject({ planId: "starter-monthly", planStatus: "Active" });
    expect(await creditsOf(user)).toMatchObject({ creditsPerMonth: 150 });
  });

  it("keeps a cancelled subscription until the time paid for, whatever order the events come in, even without the browser", async () => {
    const user = await signUpUser();
    const subscriptionID = await startAndApprove(user, "starter-monthly");
    const paidAt = Date.parse((await sandboxSubscription(subscriptionID)).billing_info!.last_payment!.time);
    await paypal.cancelSubscription(testEnv, subscriptionID, "Cancelled at PayPal");
    const events = await deliveries(subscriptionID);
    expect(events.map((event) => event.type)).toEqual(["BILLING.SUBSCRIPTION.ACTIVATED", "PAYMENT.SALE.COMPLETED", "BILLING.SUBSCRIPTION.CANCELLED"]);
    await deliverAll([...events].reverse());

    const credentials = await credentialsOf(user);
    expect(credentials).toMatchObject({ planId: "starter-monthly", planStatus: "Cancelled" });
    expect(Date.parse(credentials.cancelSubscriptionDate!)).toBe(addMonths(paidAt, 1));
    expect(await creditsOf(user)).toMatchObject({ planId: "starter-monthly", creditsPerMonth: 150 });
  });

  it("cancelled through our API then delivered: the record keeps the period we knew; an expiry ends the plan", async () => {
    const user = await signUpUser();
    const subscriptionID = await subscribe(user, "pro-monthly");
    const nextBilling = Date.parse((await sandboxSubscription(subscriptionID)).billing_info!.next_billing_time!);
    const cancelled = await post("/api/subscriptions/cancelSubscription", user, { subscriptionID, cancelReason: "Too expensive" });
    expect(cancelled.status).toBe(200);
    await deliverAll(await deliveries(subscriptionID));
    const credentials = await credentialsOf(user);
    expect(credentials).toMatchObject({ planId: "pro-monthly", planStatus: "Cancelled" });
    expect(Date.parse(credentials.cancelSubscriptionDate!)).toBe(nextBilling);

    const other = await signUpUser();
    const expiring = await subscribe(other, "growth-monthly");
    await sandbox(`/paypal/subscriptions/${expiring}/expire`, { method: "POST" });
    const [expired] = await deliveries(expiring, "BILLING.SUBSCRIPTION.EXPIRED");
    expect((await deliver(expired)).status).toBe(200);
    expect(await credentialsOf(other)).toMatchObject({ planId: "free", planStatus: "Cancelled" });
    expect(await creditsOf(other)).toMatchObject({ planId: "free", creditsPerMonth: 10 });
  });

  it("starts the month's credits afresh on a renewal payment (PAYMENT.SALE.COMPLETED), once per payment", async () => {
    const user = await signUpUser();
    const subscriptionID = await subscribe(user, "starter-monthly");
    await deliverAll(await deliveries(subscriptionID));
    await spendCredits(user, 30);
    expect(await creditsOf(user)).toMatchObject({ usedPinCredits: 30, remaining: 120 });

    // PayPal times are whole seconds: let the spend's second pass before the new period begins.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const renewed = await sandbox<SandboxPayPalSubscription>(`/paypal/subscriptions/${subscriptionID}/renew`, { method: "POST", json: {} });
    const paidAt = Date.parse(renewed.billing_info!.last_payment!.time);
    const sales = await deliveries(subscriptionID, "PAYMENT.SALE.COMPLETED");
    expect(sales).toHaveLength(2);
    const renewal = sales[1];
    // Before the webhook, nothing changed.
    expect(await creditsOf(user)).toMatchObject({ remaining: 120 });
    expect((await deliver(renewal)).status).toBe(200);

    const credits = await creditsOf(user);
    expect(credits).toMatchObject({ planId: "starter-monthly", creditsPerMonth: 150, usedPinCredits: 0, remaining: 150 });
    expect(Date.parse(credits.periodStart)).toBe(paidAt);
    expect(await read(await deliver(renewal))).toEqual({ received: true, duplicate: true });
    // The first payment's event arriving late changes nothing.
    expect(await read(await deliver(sales[0]))).toEqual({ received: true, duplicate: true });
    const activatedAgain = (await deliveries(subscriptionID, "BILLING.SUBSCRIPTION.ACTIVATED"))[0];
    await deliver(activatedAgain);
    expect(await creditsOf(user)).toEqual(credits);
    expect(await grantsOf(user.userId, "starter-monthly")).toHaveLength(2);
  });

  it("failed payments keep the plan while PayPal retries; the third suspends it, and the user falls back to Free", async () => {
    const user = await signUpUser();
    const subscriptionID = await subscribe(user, "starter-monthly");
    await sandbox(`/paypal/subscriptions/${subscriptionID}/renew`, { method: "POST", json: { payment: "fail" } });
    const [failed] = await deliveries(subscriptionID, "BILLING.SUBSCRIPTION.PAYMENT.FAILED");
    expect((await deliver(failed)).status).toBe(200);
    expect(await credentialsOf(user)).toMatchObject({ planId: "starter-monthly", planStatus: "Active" });

    await sandbox(`/paypal/subscriptions/${subscriptionID}/renew`, { method: "POST", json: { payment: "fail" } });
    await sandbox(`/paypal/subscriptions/${subscriptionID}/renew`, { method: "POST", json: { payment: "fail" } });
    const [suspended] = await deliveries(subscriptionID, "BILLING.SUBSCRIPTION.SUSPENDED");
    expect((await deliver(suspended)).status).toBe(200);
    expect(await credentialsOf(user)).toMatchObject({ planId: "free", planStatus: "Inactive" });
    expect(await creditsOf(user)).toMatchObject({ planId: "free", creditsPerMonth: 10 });
    // Manage subscription still shows it, to re-activate.
    const current = await read(await app("/api/subscriptions/current", { headers: bearer(user.tokens) }));
    expect(current.subscription).toMatchObject({ provider: "paypal", subscriptionID, status: "suspended", planId: "starter-monthly" });
  });

  it("never touches another user's subscription: one user's events change only theirs", async () => {
    const alice = await signUpUser();
    const bob = await signUpUser();
    const aliceSubscription = await subscribe(alice, "starter-monthly");
    const bobSubscription = await subscribe(bob, "agency-monthly");
    const bobBefore = { credentials: await credentialsOf(bob), credits: await creditsOf(bob) };

    await paypal.cancelSubscription(testEnv, aliceSubscription, "Cancelled at PayPal");
    await deliverAll(await deliveries(aliceSubscription));
    expect(await credentialsOf(alice)).toMatchObject({ planId: "starter-monthly", planStatus: "Cancelled" });

    expect(await credentialsOf(bob)).toEqual(bobBefore.credentials);
    expect(await creditsOf(bob)).toEqual(bobBefore.credits);
    const [bobRecord] = await db.query.subscriptions.findMany({ where: (table, { eq }) => eq(table.providerRef, bobSubscription) });
    expect(bobRecord).toMatchObject({ userId: bob.userId, status: "active", cancelAtPeriodEnd: false });
    const [aliceRecord] = await db.query.subscriptions.findMany({ where: (table, { eq }) => eq(table.providerRef, aliceSubscription) });
    expect(aliceRecord.userId).toBe(alice.userId);
  });
});
