import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { billingEmails, webhookEvents } from "../../../workers/db/schema.ts";
import { sendPendingBillingEmails } from "../../../workers/services/billing/billing-emails.ts";
import { outboxFor, signUpUser, type SentEmail, type TestUser } from "../accounts/accounts-support.ts";
import {
  afterTheSecondOf,
  buyLifetime,
  credentialsOf,
  db,
  deliver,
  deliverTo,
  newShop,
  PAYPAL_WEBHOOK,
  paypalDeliveries,
  post,
  sandboxSubscription,
  SHOPIFY_WEBHOOK,
  shopifyDeliveries,
  signedEvents,
  stripeCustomerOf,
  subscribe,
  subscribePayPal,
  subscribeShopify,
  usedTrial,
  type SandboxEvent,
} from "./billing-support.ts";
import { read, sandbox, testEnv } from "../support.ts";

// Issue 37, defect 6 (decision 082): a receipt e-mail after every payment, exactly one per payment whatever the
// webhook retries; a confirmation e-mail after every cancellation; a cancelled Stripe subscription that has not
// ended can be re-activated. E-mails are read from the sandbox's outbox, as sent to the user's address.

const CANCEL = "/api/stripeSubscriptions/cancelStripeSubscription";
const REACTIVATE = "/api/stripeSubscriptions/reactivateStripeSubscription";

const receipts = async (user: TestUser) => (await outboxFor(user.email)).filter((mail) => mail.subject.startsWith("Receipt: "));
const cancellations = async (user: TestUser) => (await outboxFor(user.email)).filter((mail) => mail.subject.endsWith("subscription has been canceled"));
const day = (ms: number) => new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" }).format(new Date(ms));

/** A Stripe event delivered again as a retry after a failure would be: its claim given back first. */
async function redeliverAfterFailure(event: SandboxEvent) {
  await db.delete(webhookEvents).where(and(eq(webhookEvents.provider, "stripe"), eq(webhookEvents.eventId, event.id)));
  expect((await deliver(event)).status).toBe(200);
}

function expectOne(mails: SentEmail[], subject: string): SentEmail {
  expect(mails.map((mail) => mail.subject)).toEqual([subject]);
  return mails[0];
}

describe("receipts", () => {
  it("e-mails one receipt per Stripe invoice paid, however often its webhook is delivered, and one more for the renewal", async () => {
    const user = await signUpUser();
    await usedTrial(user);
    const { paymentDetails } = await subscribe(user, "starter-monthly");
    const customer = await stripeCustomerOf(user);
    const [paid] = await signedEvents(customer, "invoice.paid");
    expect((await deliver(paid)).status).toBe(200);
    expect(await read(await deliver(paid))).toEqual({ received: true, duplicate: true });
    await redeliverAfterFailure(paid);

    const receipt = expectOne(await receipts(user), "Receipt: $16.99 for the Starter plan");
    const invoice = JSON.parse(paid.request.body).data.object as { id: string; created: number };
    expect(receipt.text).toContain(`Thank you for your payment of $16.99 on ${day(invoice.created * 1000)} for the Starter plan (monthly).`);
    expect(receipt.text).toContain(`It pays for your plan until ${day(Date.parse(paymentDetails.periodEnd!))}: 150 pin credits a month and every feature.`);
    expect(receipt.text).toContain(`Payment reference: ${invoice.id}.`);
    expect(receipt.links.some((link) => link.endsWith("/pricing#manage"))).toBe(true);

    await sandbox(`/stripe/subscriptions/${paymentDetails.subscriptionID}/renew`, { method: "POST", json: {} });
    const renewal = (await signedEvents(customer, "invoice.paid")).at(-1)!;
    expect(renewal.id).not.toBe(paid.id);
    await deliver(renewal);
    await deliver(renewal);
    expect((await receipts(user)).map((mail) => mail.subject)).toEqual(["Receipt: $16.99 for the Starter plan", "Receipt: $16.99 for the Starter plan"]);
  });

  it("e-mails no receipt for a free trial's $0 invoice", async () => {
    const user = await signUpUser();
    await subscribe(user, "starter-monthly");
    const [paid] = await signedEvents(await stripeCustomerOf(user), "invoice.paid");
    expect((await deliver(paid)).status).toBe(200);
    expect(await receipts(user)).toEqual([]);
  });

  it("e-mails one receipt for a Lifetime purchase (checkout.session.completed), not doubled by a retry", async () => {
    const user = await signUpUser();
    const { sessionId } = await buyLifetime(user);
    const [completed] = await signedEvents(await stripeCustomerOf(user), "checkout.session.completed");
    await deliver(completed);
    await redeliverAfterFailure(completed);
    const receipt = expectOne(await receipts(user), "Receipt: $249.00 for the Lifetime plan");
    expect(receipt.text).toContain("for the Lifetime plan (one payment, for good).");
    expect(receipt.text).toContain("It pays for your plan for good: 400 pin credits every month and every feature.");
    expect(receipt.text).toContain(`Payment reference: ${sessionId}.`);
  });

  it("e-mails one receipt per PayPal sale and per Shopify billed interval, whatever the redeliveries", async () => {
    const payer = await signUpUser();
    const subscriptionID = await subscribePayPal(payer, "pro-monthly");
    const [sale] = await paypalDeliveries(subscriptionID, "PAYMENT.SALE.COMPLETED");
    for (let i = 0; i < 2; i++) expect((await deliverTo(PAYPAL_WEBHOOK, sale.request)).status).toBe(200);
    const paypalReceipt = expectOne(await receipts(payer), "Receipt: $29.99 for the Pro plan");
    expect(paypalReceipt.text).toContain("Paid with PayPal.");

    const merchant = await signUpUser();
    const shop = newShop("receipts");
    await subscribeShopify(merchant, "agency-monthly", shop);
    const updates = await shopifyDeliveries(shop);
    expect(updates.length).toBeGreaterThan(0);
    for (const update of [...updates, ...updates])
      expect((await deliverTo(SHOPIFY_WEBHOOK, update.request, { headers: { "x-shopify-webhook-id": crypto.randomUUID() } })).status).toBe(200);
    const shopifyReceipt = expectOne(await receipts(merchant), "Receipt: $69.99 for the Agency plan");
    expect(shopifyReceipt.text).toContain("Paid with your Shopify store.");
  });

  it("sends a receipt the e-mail service refused later, from the cron, still once", async () => {
    const user = await signUpUser();
    await usedTrial(user);
    await subscribe(user, "pro-monthly");
    const [paid] = await signedEvents(await stripeCustomerOf(user), "invoice.paid");
    await sandbox("/faults", { method: "POST", json: { service: "email", method: "POST", path: "/emails", status: 503, times: 1 } });
    expect((await deliver(paid)).status).toBe(200);
    expect(await receipts(user)).toEqual([]);
    const [unsent] = await db.select().from(billingEmails).where(eq(billingEmails.userId, user.userId));
    expect(unsent).toMatchObject({ kind: "receipt", sentAt: null, attempts: 1 });

    const later = unsent.createdAt + 2 * 60_000;
    await sendPendingBillingEmails(testEnv, later);
    await sendPendingBillingEmails(testEnv, later + 60_000);
    expectOne(await receipts(user), "Receipt: $29.99 for the Pro plan");
    expect((await db.select().from(billingEmails).where(eq(billingEmails.userId, user.userId)))[0]).toMatchObject({ sentAt: later, attempts: 2 });
  });
});

describe("cancelling and re-activating", () => {
  it("confirms a cancellation once by e-mail, re-activates a cancelled Stripe subscription that has not ended, and confirms a second cancellation", async () => {
    const user = await signUpUser();
    const { paymentDetails } = await subscribe(user, "starter-monthly");
    const subscriptionID = paymentDetails.subscriptionID!;
    const cancelled = await post(CANCEL, user, { subscriptionID, cancelReason: "Taking a break" });
    expect(cancelled.status).toBe(200);
    const firstCancellation = Date.now();
    expect((await read(cancelled)).message).toBe("Your subscription has been canceled.");
    // The webhook of the same cancellation, arriving after: no second e-mail.
    for (const event of await signedEvents(await stripeCustomerOf(user), "customer.subscription.updated")) await deliver(event);
    const confirmation = expectOne(await cancellations(user), "Your Starter subscription has been canceled");
    const ends = (await credentialsOf(user)).cancelSubscriptionDate!;
    expect(confirmation.text).toContain("Your subscription has been canceled.");
    expect(confirmation.text).toContain(`You keep the Starter plan until ${day(Date.parse(ends))}; then you move to Free with 10 credits a month.`);
    expect(confirmation.text).toContain(`Reactivate it under Manage subscription before ${day(Date.parse(ends))}`);

    const reactivated = await post(REACTIVATE, user, { subscriptionID });
    expect(reactivated.status).toBe(200);
    expect(await read(reactivated)).toMatchObject({
      message: "Your subscription has been re-activated",
      profileUpdates: { planStatus: "Active", cancelSubscriptionDate: null },
    });
    expect((await sandboxSubscription(subscriptionID)).cancel_at_period_end).toBe(false);
    expect(await credentialsOf(user)).toMatchObject({ planId: "starter-monthly", planStatus: "Active" });
    // Running again: nothing to re-activate.
    expect((await post(REACTIVATE, user, { subscriptionID })).status).toBe(409);

    // Stripe dates a cancellation to the second: a second one in the same second would be the same to it.
    await afterTheSecondOf(firstCancellation);
    expect((await post(CANCEL, user, { subscriptionID, cancelReason: "For good this time" })).status).toBe(200);
    expect((await cancellations(user)).length).toBe(2);
  });

  it("confirms a PayPal cancellation, which PayPal cannot undo", async () => {
    const user = await signUpUser();
    const subscriptionID = await subscribePayPal(user, "starter-monthly");
    expect((await post("/api/subscriptions/cancelSubscription", user, { subscriptionID, cancelReason: "Too busy" })).status).toBe(200);
    for (const event of await paypalDeliveries(subscriptionID, "BILLING.SUBSCRIPTION.CANCELLED")) await deliverTo(PAYPAL_WEBHOOK, event.request);
    const confirmation = expectOne(await cancellations(user), "Your Starter subscription has been canceled");
    expect(confirmation.text).toContain("Changed your mind? Pick a plan again any time under Manage subscription.");
  });

  it("re-activates only the caller's own cancelled subscription, and refuses bad input naming the field", async () => {
    const owner = await signUpUser();
    const stranger = await signUpUser();
    const { paymentDetails } = await subscribe(owner, "starter-monthly");
    const subscriptionID = paymentDetails.subscriptionID!;
    expect((await post(REACTIVATE, owner, { subscriptionID })).status).toBe(409);
    expect((await post(CANCEL, owner, { subscriptionID, cancelReason: "x" })).status).toBe(200);
    expect((await post(REACTIVATE, stranger, { subscriptionID })).status).toBe(404);
    expect((await sandboxSubscription(subscriptionID)).cancel_at_period_end).toBe(true);
    const bad = await post(REACTIVATE, owner, { subscriptionID: "I-NOTSTRIPE" });
    expect(bad.status).toBe(400);
    expect(await read(bad)).toMatchObject({ field: "subscriptionID" });
    expect((await post(REACTIVATE, null, { subscriptionID })).status).toBe(401);
  });
});
