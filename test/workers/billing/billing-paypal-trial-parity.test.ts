import { describe, expect, it } from "vitest";
import { PAYPAL_PLAN_IDS, PAYPAL_TRIAL_PLAN_IDS } from "../../../contracts/billing/billing-paypal-shopify.ts";
import * as paypal from "../../../workers/integrations/paypal.ts";
import { bearer, json, signUpUser, type TestUser } from "../accounts/accounts-support.ts";
import {
  approvePayPal,
  confirmShopifyCharge,
  creditsOf,
  credentialsOf,
  db,
  newShop,
  post,
  SHOPIFY_ACTIVATE,
  startShopify as startBilledToStore,
  SHOPIFY_TOKEN,
  usedTrial,
  spendCredits,
} from "./billing-support.ts";
import { app, read, sandbox, testEnv } from "../support.ts";

// Free trials and pricing parity with PayPal and Shopify (docs/decisions/014 and 015): PayPal
// subscriptions start on a plan with a 7-day TRIAL cycle when the plan button rule offers a trial,
// and carry PayPal's plan override at the parity price of the edge's country (named by the
// cf-ipcountry header in this test configuration); Shopify charges are created at that price.
// The sandbox is shared with other test files: nothing here resets it or injects faults; every
// test has its own users and stores.

const START = "/api/subscriptions/startPayPalSubscription";
const ACTIVATE = "/api/subscriptions/activateUserSubscription";
const REVISE = "/api/subscriptions/revise";
const DAY = 86_400_000;

/** A POST from the browser of a visitor the edge places in `country`. */
function postFrom(country: string, path: string, user: TestUser, body: unknown) {
  return app(path, json(body, bearer(user.tokens, { "cf-ipcountry": country })));
}

async function startPayPal(user: TestUser, planId: string, country = "US") {
  const started = await postFrom(country, START, user, { planId });
  expect(started.status).toBe(200);
  const { approvalLink, subscriptionID } = (await read(started)) as { approvalLink: string; subscriptionID: string };
  return { approvalLink, subscriptionID };
}

async function subscribePayPal(user: TestUser, planId: string, country = "US") {
  const { approvalLink, subscriptionID } = await startPayPal(user, planId, country);
  await approvePayPal(approvalLink);
  const activated = await post(ACTIVATE, user, { subscriptionID, planId });
  expect(activated.status).toBe(200);
  return { subscriptionID, body: await read(activated) };
}

const regularCycle = (subscription: paypal.PayPalSubscription) => subscription.plan?.billing_cycles?.find((cycle) => cycle.tenure_type === "REGULAR");

async function recordOf(subscriptionID: string) {
  return db.query.subscriptions.findFirst({ where: (table, { eq }) => eq(table.providerRef, subscriptionID) });
}

describe("PayPal free trial", () => {
  it("a first subscriber gets the plan's 7-day TRIAL cycle: nothing charged, Active with the plan's credits; the renewal at the trial's end charges the regular price", async () => {
    const user = await signUpUser();
    const { subscriptionID, body } = await subscribePayPal(user, "starter-monthly");
    expect(body.profileUpdates).toMatchObject({ planId: "starter-monthly", planStatus: "Active", usedFreeTrial: true });

    const subscription = await paypal.getSubscription(testEnv, subscriptionID, { withPlan: true });
    expect(subscription.plan_id).toBe(PAYPAL_TRIAL_PLAN_IDS["starter-monthly"]);
    expect(subscription.plan?.billing_cycles?.map((cycle) => [cycle.tenure_type, cycle.sequence])).toEqual([
      ["TRIAL", 1],
      ["REGULAR", 2],
    ]);
    expect(subscription.billing_info?.last_payment).toBeUndefined();
    const trialEnd = Date.parse(subscription.billing_info!.next_billing_time!);
    expect(Math.abs(trialEnd - (Date.parse(subscription.start_time!) + 7 * DAY))).toBeLessThan(1_000);
    expect((await sandbox<{ type: string }[]>(`/paypal/events?subject=${subscriptionID}`)).map((event) => event.type)).toEqual([
      "BILLING.SUBSCRIPTION.ACTIVATED",
    ]);
    expect(await recordOf(subscriptionID)).toMatchObject({ status: "trialing", trialEnd });
    expect(await creditsOf(user)).toMatchObject({ planId: "starter-monthly", creditsPerMonth: 150, remaining: 150 });

    // The trial ends: PayPal charges the regular price and the plan's credit month starts afresh.
    await spendCredits(user, 20);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const renewed = await sandbox<paypal.PayPalSubscription>(`/paypal/subscriptions/${subscriptionID}/renew`, { method: "POST", json: {} });
    expect(renewed.billing_info?.last_payment?.amount).toEqual({ currency_code: "USD", value: "16.99" });
    expect((await post(ACTIVATE, user, { subscriptionID, planId: "starter-monthly" })).status).toBe(200);
    expect(await recordOf(subscriptionID)).toMatchObject({ status: "active" });
    expect(await creditsOf(user)).toMatchObject({ planId: "starter-monthly", usedPinCredits: 0, remaining: 150 });
  });

  it("no trial on Agency plans, nor for a user who used one: the plan without a TRIAL cycle, charged at once", async () => {
    const agency = await signUpUser();
    const { subscriptionID: agencySubscription } = await subscribePayPal(agency, "agency-monthly");
    const agencyRead = await paypal.getSubscription(testEnv, agencySubscription, { withPlan: true });
    expect(agencyRead.plan_id).toBe(PAYPAL_PLAN_IDS["agency-monthly"]);
    expect(agencyRead.billing_info?.last_payment?.amount.value).toBe("69.99");

    const returning = await signUpUser();
    await usedTrial(returning);
    const again = await startPayPal(returning, "pro-monthly");
    expect((await paypal.getSubscription(testEnv, again.subscriptionID)).plan_id).toBe(PAYPAL_PLAN_IDS["pro-monthly"]);
  });

  it("refuses a trial subscription for a user who already used the free trial", async () => {
    const user = await signUpUser();
    await subscribePayPal(user, "agency-monthly");
    // Made outside our start (PayPal's own button could): a trial plan for someone who used theirs.
    const created = await paypal.createSubscription(testEnv, {
      planId: PAYPAL_TRIAL_PLAN_IDS["growth-monthly"],
      customId: user.userId,
      returnUrl: "http://app.test/pricing",
      cancelUrl: "http://app.test/pricing",
    });
    await approvePayPal(paypal.approveLink(created.links)!);
    const activated = await post(ACTIVATE, user, { subscriptionID: created.id, planId: "growth-monthly" });
    expect(activated.status).toBe(400);
    expect(await read(activated)).toMatchObject({
      field: "subscriptionID",
      error: "This PayPal subscription has a free trial, and you have already used yours.",
    });
    expect(await credentialsOf(user)).toMatchObject({ planId: "agency-monthly" });
  });
});

describe("PayPal pricing parity", () => {
  it("creates the subscription with PayPal's plan override at the edge country's price: charged after the trial, kept by a plan switch", async () => {
    const user = await signUpUser();
    // India: 50 % off; Stripe's rounding, 2999 cents less 1500 = 14.99.
    const { subscriptionID } = await subscribePayPal(user, "pro-monthly", "IN");
    const created = await paypal.getSubscription(testEnv, subscriptionID, { withPlan: true });
    expect(created).toMatchObject({ plan_overridden: true, plan_id: PAYPAL_TRIAL_PLAN_IDS["pro-monthly"] });
    expect(regularCycle(created)).toMatchObject({ sequence: 2, pricing_scheme: { fixed_price: { value: "14.99", currency_code: "USD" } } });
    // Without fields=plan, PayPal's answer has no plan.
    expect((await paypal.getSubscription(testEnv, subscriptionID)).plan).toBeUndefined();

    const renewed = await sandbox<paypal.PayPalSubscription>(`/paypal/subscriptions/${subscriptionID}/renew`, { method: "POST", json: {} });
    expect(renewed.billing_info?.last_payment?.amount.value).toBe("14.99");

    // A switch to Growth keeps 50 % off: 4999 less 2500 = 24.99, charged once the payer approves.
    const revised = await post(REVISE, user, {
      subscriptionID,
      newPlanPayPalID: PAYPAL_PLAN_IDS["growth-monthly"],
      newPlanName: "Growth",
      newPlanId: "growth-monthly",
    });
    expect(revised.status).toBe(202);
    const { approvalLink } = await read(revised);
    expect(await (await fetch(approvalLink)).text()).toContain("Growth (monthly): $24.99 per month");
    await approvePayPal(approvalLink);
    const switched = await paypal.getSubscription(testEnv, subscriptionID, { withPlan: true });
    expect(switched).toMatchObject({ plan_id: PAYPAL_PLAN_IDS["growth-monthly"], plan_overridden: true });
    expect(regularCycle(switched)?.pricing_scheme?.fixed_price?.value).toBe("24.99");
    expect(switched.billing_info?.last_payment?.amount.value).toBe("24.99");
    expect((await post(ACTIVATE, user, { subscriptionID, planId: "growth-monthly" })).status).toBe(200);
    expect(await credentialsOf(user)).toMatchObject({ planId: "growth-monthly", planStatus: "Active" });
  });

  it("charges full price, with no override, where there is no parity", async () => {
    const user = await signUpUser();
    const { subscriptionID } = await subscribePayPal(user, "agency-monthly", "US");
    const created = await paypal.getSubscription(testEnv, subscriptionID, { withPlan: true });
    expect(created.plan_overridden).toBe(false);
    expect(regularCycle(created)?.pricing_scheme?.fixed_price?.value).toBe("69.99");
  });

  it("refuses a subscription at a price we did not offer that user, and one whose override PayPal would not take", async () => {
    const user = await signUpUser();
    const forged = async (value: string) => {
      const created = await paypal.createSubscription(testEnv, {
        planId: PAYPAL_PLAN_IDS["agency-monthly"],
        customId: user.userId,
        returnUrl: "http://app.test/pricing",
        cancelUrl: "http://app.test/pricing",
        plan: { billing_cycles: [{ sequence: 1, total_cycles: 0, pricing_scheme: { fixed_price: { value, currency_code: "USD" } } }] },
      });
      await approvePayPal(paypal.approveLink(created.links)!);
      return post(ACTIVATE, user, { subscriptionID: created.id, planId: "agency-monthly" });
    };
    for (const value of ["1.00", "34.99"]) {
      const refused = await forged(value);
      expect(refused.status, value).toBe(400);
      expect(await read(refused)).toMatchObject({ error: "This PayPal subscription is not at a price we offered you." });
    }
    expect(await credentialsOf(user)).toMatchObject({ planId: "free" });

    // PayPal's own checks of an override: a sequence the plan does not have, a bad amount.
    for (const cycle of [
      { sequence: 2, value: "10.00" },
      { sequence: 1, value: "ten" },
    ]) {
      await expect(
        paypal.createSubscription(testEnv, {
          planId: PAYPAL_PLAN_IDS["agency-monthly"],
          customId: user.userId,
          returnUrl: "http://app.test/pricing",
          cancelUrl: "http://app.test/pricing",
          plan: {
            billing_cycles: [{ sequence: cycle.sequence, total_cycles: 0, pricing_scheme: { fixed_price: { value: cycle.value, currency_code: "USD" } } }],
          },
        }),
      ).rejects.toMatchObject({ status: 422 });
    }
  });
});

describe("Shopify pricing parity and trial", () => {
  async function startShopify(user: TestUser, planId: string, country: string, shop = newShop("parity")) {
    const started = await startBilledToStore(user, { planId, shop }, { "cf-ipcountry": country });
    expect(started.status).toBe(200);
    const { confirmationUrl } = await read(started);
    const [charge] = await sandbox<{ trialDays: number; lineItems: { plan: { pricingDetails: { price: { amount: string } } } }[] }[]>(
      `/shopify/subscriptions?shop=${shop}`,
    );
    return { shop, confirmationUrl: confirmationUrl as string, charge };
  }

  it("charges the edge country's price, with the plan's trial, and activates the plan that price is for", async () => {
    const user = await signUpUser();
    // Brazil: 40 % off; 1699 cents less 680 = 10.19.
    const { confirmationUrl, charge } = await startShopify(user, "starter-monthly", "BR");
    expect(charge.trialDays).toBe(7);
    expect(charge.lineItems[0].plan.pricingDetails.price.amount).toBe("10.19");
    const back = await confirmShopifyCharge(confirmationUrl);
    const activated = await post(SHOPIFY_ACTIVATE, user, { chargeId: back.searchParams.get("charge_id") });
    expect(activated.status).toBe(200);
    expect(await read(activated)).toMatchObject({
      planName: "Starter",
      amount: 10.19,
      profileUpdates: { planId: "starter-monthly", planStatus: "Active", usedFreeTrial: true },
    });
    expect(await creditsOf(user)).toMatchObject({ planId: "starter-monthly", remaining: 150 });
    // Trialing until the 7 days are over, as with Stripe and PayPal.
    const record = await db.query.subscriptions.findFirst({ where: (table, { and, eq }) => and(eq(table.userId, user.userId), eq(table.provider, "shopify")) });
    expect(record?.status).toBe("trialing");
    expect(record!.trialEnd! - record!.startedAt).toBe(7 * 86_400_000);
  });

  it("tells apart two plans that meet at one price (Growth at 40 % off is Pro's full price), and gives no second trial", async () => {
    const user = await signUpUser();
    await usedTrial(user);
    const { confirmationUrl, charge } = await startShopify(user, "growth-monthly", "BR");
    expect(charge.trialDays).toBe(0);
    expect(charge.lineItems[0].plan.pricingDetails.price.amount).toBe("29.99");
    const back = await confirmShopifyCharge(confirmationUrl);
    const activated = await post(SHOPIFY_ACTIVATE, user, { chargeId: back.searchParams.get("charge_id") });
    expect(activated.status).toBe(200);
    expect(await read(activated)).toMatchObject({ planName: "Growth", amount: 29.99, profileUpdates: { planId: "growth-monthly" } });
    const record = await db.query.subscriptions.findFirst({ where: (table, { and, eq }) => and(eq(table.userId, user.userId), eq(table.provider, "shopify")) });
    expect(record).toMatchObject({ status: "active", trialEnd: null });
  });

  it("refuses a charge at a discount the user was never offered", async () => {
    const user = await signUpUser();
    const shop = newShop("parity");
    // The user starts from the US (full price), then a 50 %-off charge appears on their store.
    await startShopify(user, "starter-monthly", "US", shop);
    const forged = await fetch(`${testEnv.SHOPIFY_ADMIN_URL.replace("{shop}", shop)}/${testEnv.SHOPIFY_API_VERSION}/graphql.json`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-shopify-access-token": SHOPIFY_TOKEN },
      body: JSON.stringify({
        query:
          "mutation appSubscriptionCreate($name: String!, $returnUrl: URL!, $lineItems: [AppSubscriptionLineItemInput!]!) { appSubscriptionCreate(name: $name, returnUrl: $returnUrl, lineItems: $lineItems) { confirmationUrl } }",
        variables: {
          name: "Pinboard Studio Starter (monthly)",
          returnUrl: "http://app.test/pricing",
          lineItems: [{ plan: { appRecurringPricingDetails: { price: { amount: "8.49", currencyCode: "USD" }, interval: "EVERY_30_DAYS" } } }],
        },
      }),
    });
    const { data } = (await forged.json()) as { data: { appSubscriptionCreate: { confirmationUrl: string } } };
    const back = await confirmShopifyCharge(data.appSubscriptionCreate.confirmationUrl);
    const activated = await post(SHOPIFY_ACTIVATE, user, { chargeId: back.searchParams.get("charge_id") });
    expect(activated.status).toBe(400);
    expect(await read(activated)).toMatchObject({ field: "chargeId" });
    expect(await credentialsOf(user)).toMatchObject({ planId: "free" });
  });
});
