import { describe, expect, it } from "vitest";
import { signUpUser } from "../accounts/accounts-support.ts";
import { checkoutAndPay, creditsOf, credentialsOf, payLifetime, post, subscribe } from "./billing-support.ts";
import { app, read } from "../support.ts";

// GET /api/subscriptions/getPlans, /getPlan/{id}, /getLifetimePlans and POST /activateLifetimePurchase.

const ACTIVATE_LIFETIME = "/api/subscriptions/activateLifetimePurchase";

describe("plans", () => {
  it("lists every plan in plan order without signing in", async () => {
    const response = await app("/api/subscriptions/getPlans");
    expect(response.status).toBe(200);
    const list = await read(response);
    expect(list.map((plan: { planId: string }) => plan.planId)).toEqual([
      "free",
      "starter-monthly",
      "starter-annual",
      "pro-monthly",
      "pro-annual",
      "growth-monthly",
      "growth-annual",
      "agency-monthly",
      "agency-annual",
      "lifetime",
    ]);
    expect(list[1]).toEqual({
      planId: "starter-monthly",
      planName: "Starter",
      tier: "starter",
      billingPeriod: "month",
      amount: 16.99,
      creditsPerMonth: 150,
      freeTrialDays: 7,
      planOrder: 1,
      stripePriceID: "price_starter_monthly",
    });
  });

  it("answers one plan by id, 404 for an unknown one and 400 for a malformed id", async () => {
    const pro = await app("/api/subscriptions/getPlan/pro-annual");
    expect(pro.status).toBe(200);
    expect(await read(pro)).toMatchObject({ planId: "pro-annual", planName: "Pro", amount: 299, creditsPerMonth: 400 });
    const unknown = await app("/api/subscriptions/getPlan/platinum-monthly");
    expect(unknown.status).toBe(404);
    expect(await read(unknown)).toMatchObject({ error: "No such plan" });
    const bad = await app("/api/subscriptions/getPlan/Not%20A%20Plan");
    expect(bad.status).toBe(400);
    expect(await read(bad)).toMatchObject({ field: "id" });
  });

  it("lists the lifetime plans with the spec's fields", async () => {
    const response = await app("/api/subscriptions/getLifetimePlans");
    expect(response.status).toBe(200);
    const [lifetime, ...others] = await read(response);
    expect(others).toEqual([]);
    expect(lifetime).toMatchObject({
      planId: "lifetime",
      planName: "Lifetime",
      amount: 249,
      stripePriceID: "price_lifetime",
      freeTrialDays: 0,
      planOrder: 5,
      paymentPeriod: "once",
      planDuration: "lifetime",
    });
    expect(lifetime.previousPrice).toBeGreaterThan(lifetime.amount);
    expect(lifetime.features).toContain("Access to all features");
    expect(typeof lifetime.planImage).toBe("string");
  });
});

describe("activateLifetimePurchase", () => {
  it("activates a paid lifetime checkout: Active with 400 credits, and again changes nothing", async () => {
    const user = await signUpUser();
    const { sessionId, planId } = await payLifetime(user);
    expect(planId).toBe("lifetime");
    const first = await post(ACTIVATE_LIFETIME, user, { session_id: sessionId, planId });
    expect(first.status).toBe(200);
    const body = await read(first);
    expect(body.profileUpdates).toMatchObject({ planId: "lifetime", planStatus: "Active", cancelSubscriptionDate: null });
    expect(body.paymentDetails).toMatchObject({ planId: "lifetime", subscriptionID: null, amount: 249, status: "paid" });
    expect(await credentialsOf(user)).toMatchObject({ planId: "lifetime", planStatus: "Active" });
    expect(await creditsOf(user)).toMatchObject({ planId: "lifetime", creditsPerMonth: 400, remaining: 400 });

    const again = await post(ACTIVATE_LIFETIME, user, { session_id: sessionId, planId });
    expect(again.status).toBe(200);
    expect((await read(again)).profileUpdates).toEqual(body.profileUpdates);
    expect(await creditsOf(user)).toMatchObject({ remaining: 400 });
  });

  it("refuses bad input, an unknown plan, a plan the session is not for, and another user's session", async () => {
    const owner = await signUpUser();
    const { sessionId } = await payLifetime(owner);
    for (const [body, field] of [
      [{ planId: "lifetime" }, "session_id"],
      [{ session_id: "sub_123", planId: "lifetime" }, "session_id"],
      [{ session_id: sessionId }, "planId"],
      [{ session_id: sessionId, planId: "Lifetime Plan!" }, "planId"],
    ] as const) {
      const response = await post(ACTIVATE_LIFETIME, owner, body);
      expect(response.status).toBe(400);
      expect(await read(response)).toMatchObject({ field });
    }
    expect((await post(ACTIVATE_LIFETIME, owner, { session_id: sessionId, planId: "platinum" })).status).toBe(404);
    const notLifetime = await post(ACTIVATE_LIFETIME, owner, { session_id: sessionId, planId: "pro-monthly" });
    expect(notLifetime.status).toBe(400);
    expect(await read(notLifetime)).toMatchObject({ field: "planId" });

    const stranger = await signUpUser();
    const stolen = await post(ACTIVATE_LIFETIME, stranger, { session_id: sessionId, planId: "lifetime" });
    expect(stolen.status).toBe(404);
    expect(await credentialsOf(stranger)).toMatchObject({ planId: "free" });
    expect((await post(ACTIVATE_LIFETIME, null, { session_id: sessionId, planId: "lifetime" })).status).toBe(401);
  });

  it("refuses a subscription's checkout session", async () => {
    const user = await signUpUser();
    const sessionId = await checkoutAndPay(user, "starter-monthly");
    const response = await post(ACTIVATE_LIFETIME, user, { session_id: sessionId, planId: "lifetime" });
    expect(response.status).toBe(400);
    expect(await read(response)).toMatchObject({ field: "session_id" });
    expect(await credentialsOf(user)).toMatchObject({ planId: "free" });
  });
});

describe("the current subscription", () => {
  it("is null on Free, names the Stripe subscription once subscribed, and needs a sign-in", async () => {
    const user = await signUpUser();
    const current = () => app("/api/subscriptions/current", { headers: { authorization: `Bearer ${user.tokens.idToken}` } });
    expect(await read(await current())).toEqual({ subscription: null, takenBack: null });
    await subscribe(user, "growth-monthly");
    const { subscription } = await read(await current());
    expect(subscription).toMatchObject({
      provider: "stripe",
      kind: "subscription",
      planId: "growth-monthly",
      planName: "Growth",
      status: "trialing",
      cancelAtPeriodEnd: false,
    });
    expect(subscription.subscriptionID).toMatch(/^sub_/);
    expect(Date.parse(subscription.periodEnd)).toBeGreaterThan(Date.now());
    expect((await app("/api/subscriptions/current")).status).toBe(401);
  });
});
