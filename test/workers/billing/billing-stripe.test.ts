import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { creditLedger } from "../../../workers/db/schema.ts";
import { ledgerOf } from "../../../workers/ledger/client.ts";
import { signUpUser } from "../accounts/accounts-support.ts";
import {
  checkoutAndPay,
  creditsOf,
  credentialsOf,
  expectBadInput,
  payHostedCheckout,
  post,
  sandboxSubscription,
  stripeCustomerOf,
  subscribe,
  spendCredits,
} from "./billing-support.ts";
import { read, sandbox, testEnv } from "../support.ts";

// The Stripe calls of spec section 7 against the sandbox's Stripe stand-in, through the official SDK.

const START = "/api/stripeSubscriptions/startStripeSubscription";
const ACTIVATE = "/api/stripeSubscriptions/activateStripeSubscription";
const CANCEL = "/api/stripeSubscriptions/cancelStripeSubscription";
const REVISE = "/api/stripeSubscriptions/reviseStripeSubscription";
const ONCE_OFF = "/api/stripeSubscriptions/startStripeOnceOffPayment";

async function sessionsOf(customer: string) {
  return sandbox<{ id: string; mode: string; amount_total: number; success_url: string; cancel_url: string; client_reference_id: string }[]>(
    `/stripe/checkout_sessions?customer=${customer}`,
  );
}

describe("Starter through Stripe Checkout", () => {
  it("pays on the hosted page, comes back Active with 150 credits, and activating again changes nothing", async () => {
    const user = await signUpUser();
    const start = await post(START, user, { planId: "starter-monthly", returnUrl: "/pricing?from=card" });
    expect(start.status).toBe(200);
    const { redirectUrl } = await read(start);
    expect(redirectUrl).toMatch(/\/stripe\/checkout\/pay\/cs_test_/);
    const [session] = await sessionsOf(await stripeCustomerOf(user));
    expect(session).toMatchObject({ mode: "subscription", client_reference_id: user.userId, amount_total: 0 });
    expect(session.success_url).toBe("http://app.test/pricing?from=card&paymentMessage=success&planId=starter-monthly&session_id={CHECKOUT_SESSION_ID}");
    expect(session.cancel_url).toBe("http://app.test/pricing?from=card&paymentMessage=cancel");

    const paid = await payHostedCheckout(redirectUrl);
    expect(paid.status).toBe(303);
    const returned = new URL(paid.location!);
    expect(returned.origin + returned.pathname).toBe("http://app.test/pricing");
    expect(returned.searchParams.get("paymentMessage")).toBe("success");
    const sessionId = returned.searchParams.get("session_id")!;
    expect(sessionId).toBe(session.id);

    const activated = await post(ACTIVATE, user, { session_id: sessionId, affiliateID: "aff_123" });
    expect(activated.status).toBe(200);
    const body = await read(activated);
    expect(body.profileUpdates).toEqual({ planId: "starter-monthly", planStatus: "Active", cancelSubscriptionDate: null, usedFreeTrial: true });
    expect(body.paymentDetails).toMatchObject({ provider: "stripe", sessionId, planId: "starter-monthly", planName: "Starter", status: "trialing", amount: 0 });
    expect(body.paymentDetails.subscriptionID).toMatch(/^sub_/);
    expect(Date.parse(body.paymentDetails.trialEnd) - Date.parse(body.paymentDetails.periodStart)).toBe(7 * 86_400_000);

    expect(await credentialsOf(user)).toMatchObject({ planId: "starter-monthly", planStatus: "Active", usedFreeTrial: true });
    expect(await creditsOf(user)).toMatchObject({
      planId: "starter-monthly",
      creditsPerMonth: 150,
      usedPinCredits: 0,
      remaining: 150,
      periodStart: body.paymentDetails.periodStart,
    });

    const again = await post(ACTIVATE, user, { session_id: sessionId, affiliateID: "aff_123" });
    expect(again.status).toBe(200);
    expect((await read(again)).profileUpdates).toEqual(body.profileUpdates);
    const grants = await ledgerOf(testEnv, user.userId)
      .db.select()
      .from(creditLedger)
      .where(and(eq(creditLedger.userId, user.userId), eq(creditLedger.category, "grant")));
    expect(grants.filter((grant) => grant.reference.startsWith("grant:starter-monthly:"))).toHaveLength(1);
    expect((await creditsOf(user)).remaining).toBe(150);

    // Already subscribed: a second checkout is refused; the switch is the way.
    const second = await post(START, user, { planId: "pro-monthly" });
    expect(second.status).toBe(409);
  });

  it("counts a Free user's credits used this month against the plan's: the plan's allowance less what was used (decision 081)", async () => {
    const user = await signUpUser();
    await spendCredits(user, 7);
    expect((await creditsOf(user)).remaining).toBe(3);
    await subscribe(user, "growth-monthly");
    expect(await creditsOf(user)).toMatchObject({ planId: "growth-monthly", creditsPerMonth: 1000, remaining: 993, usedPinCredits: 7 });
  });

  it("offers no free trial on Agency plans, nor to a user who used one", async () => {
    const user = await signUpUser();
    await post(START, user, { planId: "agency-monthly" });
    const [agency] = await sessionsOf(await stripeCustomerOf(user));
    expect(agency.amount_total).toBe(6999);

    const subscriber = await signUpUser();
    const { paymentDetails } = await subscribe(subscriber, "pro-monthly");
    await post(CANCEL, subscriber, { subscriptionID: paymentDetails.subscriptionID, cancelReason: "Trying things" });
    // Cancelled but still running until the period ends: a new checkout waits for that.
    expect((await post(START, subscriber, { planId: "starter-monthly" })).status).toBe(409);
  });

  it("refuses bad input naming the field, and needs a signed-in user", async () => {
    const user = await signUpUser();
    await expectBadInput(await post(START, user, {}), "planId");
    await expectBadInput(await post(START, user, { planId: "platinum-monthly" }), "planId");
    await expectBadInput(await post(START, user, { planId: "free" }), "planId");
    await expectBadInput(await post(START, user, { planId: "lifetime" }), "planId");
    await expectBadInput(await post(START, user, { planId: "starter-monthly", returnUrl: "https://evil.example/steal" }), "returnUrl");
    await expectBadInput(await post(START, user, { planId: 42 }), "planId");
    expect((await post(START, null, { planId: "starter-monthly" })).status).toBe(401);

    await expectBadInput(await post(ACTIVATE, user, {}), "session_id");
    await expectBadInput(await post(ACTIVATE, user, { session_id: "pi_123" }), "session_id");
    await expectBadInput(await post(ACTIVATE, user, { session_id: "cs_test_abc", affiliateID: 5 }), "affiliateID");
    expect((await post(ACTIVATE, user, { session_id: "cs_test_doesnotexist000000" })).status).toBe(404);

    await expectBadInput(await post(CANCEL, user, { subscriptionID: "sub_abc" }), "cancelReason");
    await expectBadInput(await post(CANCEL, user, { subscriptionID: "sub_abc", cancelReason: "   " }), "cancelReason");
    await expectBadInput(await post(CANCEL, user, { subscriptionID: "123", cancelReason: "Too expensive" }), "subscriptionID");
    expect((await post(CANCEL, user, { subscriptionID: "sub_notmine0000", cancelReason: "Too expensive" })).status).toBe(404);

    await expectBadInput(await post(REVISE, user, { subscriptionID: "sub_abc", newPlanId: "pro-monthly" }), "newStripePriceID");
    await expectBadInput(await post(REVISE, user, { subscriptionID: "sub_abc", newStripePriceID: "price_pro_monthly", newPlanId: "nope" }), "newPlanId");
    await expectBadInput(
      await post(REVISE, user, { subscriptionID: "sub_abc", newStripePriceID: "price_growth_monthly", newPlanId: "pro-monthly" }),
      "newStripePriceID",
    );
    await expectBadInput(await post(REVISE, user, { subscriptionID: "sub_abc", newStripePriceID: "price_lifetime", newPlanId: "lifetime" }), "newPlanId");

    await expectBadInput(await post(ONCE_OFF, user, { stripePriceID: "price_lifetime", planId: "lifetime" }), "returnUrl");
    await expectBadInput(await post(ONCE_OFF, user, { stripePriceID: "price_pro_monthly", planId: "pro-monthly", returnUrl: "/lifetime" }), "planId");
    await expectBadInput(await post(ONCE_OFF, user, { stripePriceID: "price_pro_monthly", planId: "lifetime", returnUrl: "/lifetime" }), "stripePriceID");
    await expectBadInput(await post(ONCE_OFF, user, { planId: "lifetime", returnUrl: "/lifetime" }), "stripePriceID");

    // Nothing of it reached the user's plan.
    expect(await credentialsOf(user)).toMatchObject({ planId: "free", planStatus: "Inactive", usedFreeTrial: false });
  });

  it("refuses a session that is not paid yet, and another user's session, leaving both users unchanged", async () => {
    const owner = await signUpUser();
    const stranger = await signUpUser();
    const { redirectUrl } = await read(await post(START, owner, { planId: "pro-monthly" }));
    const sessionId = redirectUrl.split("/").pop();
    const unpaid = await post(ACTIVATE, owner, { session_id: sessionId });
    await expectBadInput(unpaid, "session_id");

    await payHostedCheckout(redirectUrl);
    const stolen = await post(ACTIVATE, stranger, { session_id: sessionId });
    expect(stolen.status).toBe(404);
    expect(await credentialsOf(stranger)).toMatchObject({ planId: "free", planStatus: "Inactive" });
    expect(await credentialsOf(owner)).toMatchObject({ planId: "free", planStatus: "Inactive" });
    expect((await post(ACTIVATE, owner, { session_id: sessionId })).status).toBe(200);
  });
});

describe("managing a Stripe subscription", () => {
  it("cancels at the end of the period: Cancelled, still active until then; another user cannot cancel it", async () => {
    const owner = await signUpUser();
    const stranger = await signUpUser();
    const { paymentDetails } = await subscribe(owner, "starter-monthly");
    const subscriptionID = paymentDetails.subscriptionID!;

    const refused = await post(CANCEL, stranger, { subscriptionID, cancelReason: "Not mine" });
    expect(refused.status).toBe(404);
    expect((await sandboxSubscription(subscriptionID)).cancel_at_period_end).toBe(false);
    expect((await credentialsOf(owner)).planStatus).toBe("Active");

    const cancelled = await post(CANCEL, owner, { subscriptionID, cancelReason: "Too expensive" });
    expect(cancelled.status).toBe(200);
    const body = await read(cancelled);
    expect(body.message).toBe("Your subscription has been canceled.");
    expect(body.profileUpdates).toMatchObject({ planId: "starter-monthly", planStatus: "Cancelled", cancelSubscriptionDate: paymentDetails.periodEnd });
    expect((await sandboxSubscription(subscriptionID)).cancel_at_period_end).toBe(true);
    // Spec: active while the cancel date is in the future, so the plan's credits stay.
    expect(await creditsOf(owner)).toMatchObject({ planId: "starter-monthly", remaining: 150 });
  });

  it("switches Starter to Pro with proration: Pro's credits from now, the month's spends still counted", async () => {
    const owner = await signUpUser();
    const stranger = await signUpUser();
    const { paymentDetails } = await subscribe(owner, "starter-monthly");
    const subscriptionID = paymentDetails.subscriptionID!;
    await spendCredits(owner, 20);

    const refused = await post(REVISE, stranger, { subscriptionID, newStripePriceID: "price_pro_monthly", newPlanId: "pro-monthly" });
    expect(refused.status).toBe(404);
    expect((await sandboxSubscription(subscriptionID)).items.data[0].price.id).toBe("price_starter_monthly");

    const same = await post(REVISE, owner, { subscriptionID, newStripePriceID: "price_starter_monthly", newPlanId: "starter-monthly" });
    await expectBadInput(same, "newPlanId");

    const switched = await post(REVISE, owner, { subscriptionID, newStripePriceID: "price_pro_monthly", newPlanId: "pro-monthly" });
    expect(switched.status).toBe(200);
    const body = await read(switched);
    expect(body.message).toBe("Your subscription has been switched");
    expect(body.profileUpdates).toMatchObject({ planId: "pro-monthly", planStatus: "Active" });
    expect((await sandboxSubscription(subscriptionID)).items.data[0].price.id).toBe("price_pro_monthly");
    expect(await creditsOf(owner)).toMatchObject({ planId: "pro-monthly", creditsPerMonth: 400, usedPinCredits: 20, remaining: 380 });
  });
});

describe("Lifetime through a once-off Stripe payment", () => {
  it("pays once in payment mode and activates Lifetime with 400 credits a month", async () => {
    const user = await signUpUser();
    const start = await post(ONCE_OFF, user, { stripePriceID: "price_lifetime", planId: "lifetime", returnUrl: "/lifetime" });
    expect(start.status).toBe(200);
    const { redirectUrl } = await read(start);
    const [session] = await sessionsOf(await stripeCustomerOf(user));
    expect(session).toMatchObject({ mode: "payment", amount_total: 24900 });

    const paid = await payHostedCheckout(redirectUrl);
    const returned = new URL(paid.location!);
    expect(returned.pathname).toBe("/lifetime");
    expect(returned.searchParams.get("planId")).toBe("lifetime");
    const activated = await post(ACTIVATE, user, { session_id: returned.searchParams.get("session_id") });
    expect(activated.status).toBe(200);
    const body = await read(activated);
    expect(body.profileUpdates).toMatchObject({ planId: "lifetime", planStatus: "Active", cancelSubscriptionDate: null });
    expect(body.paymentDetails).toMatchObject({ planId: "lifetime", subscriptionID: null, amount: 249, status: "paid", periodEnd: null });
    expect(await creditsOf(user)).toMatchObject({ planId: "lifetime", creditsPerMonth: 400, remaining: 400 });

    const twice = await post(ONCE_OFF, user, { stripePriceID: "price_lifetime", planId: "lifetime", returnUrl: "/lifetime" });
    expect(twice.status).toBe(409);
  });

  it("does not activate a checkout that was never paid, whatever its redirect says", async () => {
    const user = await signUpUser();
    const sessionId = await checkoutAndPay(user, "starter-monthly");
    const other = await signUpUser();
    const { redirectUrl } = await read(await post(ONCE_OFF, other, { stripePriceID: "price_lifetime", planId: "lifetime", returnUrl: "/lifetime" }));
    const declined = await payHostedCheckout(redirectUrl, "declined");
    expect(declined.status).toBe(402);
    await expectBadInput(await post(ACTIVATE, other, { session_id: redirectUrl.split("/").pop() }), "session_id");
    expect((await credentialsOf(other)).planId).toBe("free");
    expect((await post(ACTIVATE, user, { session_id: sessionId })).status).toBe(200);
  });
});
