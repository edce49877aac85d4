import { describe, expect, it } from "vitest";
import { OUT_OF_CREDITS_MESSAGE, type CreditsSummary } from "../../../contracts/billing/credits.ts";
import { creditsSummary } from "../../../workers/services/billing/credits.ts";
import { signUpUser, type TestUser } from "../accounts/accounts-support.ts";
import { afterTheSecondOf, buyLifetime, creditsOf, post, redeem, redeemCodesFor, sandboxSubscription, subscribe, usedTrial } from "./billing-support.ts";
import { read, testEnv } from "../support.ts";

// Issue 37, defect 5 (decision 081): the credits used this month count across every plan change, code and purchase.
// A plan change gives the new plan's allowance minus what was used since the month began; the next month starts at 0.
// Everything is read as the user sees it (GET /api/user/credits) and spent through the spend route.

const INCREMENT = "/api/user/incrementUsedPinCredits";
/** The costs of spec section 9, dearest first: a spend of N credits made of whole actions. */
const ACTIONS = [
  { category: "aiImage", cost: 12 },
  { category: "video", cost: 5 },
  { category: "aiAltText", cost: 2 },
  { category: "image", cost: 1 },
] as const;

/** Spends `amount` credits through POST /api/user/incrementUsedPinCredits, one action at a time; each must be paid. */
async function spend(user: TestUser, amount: number) {
  let left = amount;
  for (const { category, cost } of ACTIONS) {
    while (left >= cost) {
      const response = await post(INCREMENT, user, { category, creditAmount: cost });
      expect(response.status, `spending ${cost} (${category}) with ${left} of ${amount} to go`).toBe(200);
      left -= cost;
    }
  }
}

const month = (credits: CreditsSummary) => ({ start: Date.parse(credits.periodStart), end: Date.parse(credits.periodEnd) });

describe("credits used this month count across plan changes", () => {
  it("Free at 10 of 10 used, then Starter through Stripe Checkout: 10 of 150 used; the next month starts at 0", async () => {
    const user = await signUpUser();
    await spend(user, 10);
    expect(await creditsOf(user)).toMatchObject({ planId: "free", creditsPerMonth: 10, usedPinCredits: 10, remaining: 0 });

    await subscribe(user, "starter-monthly");
    const starter = await creditsOf(user);
    expect(starter).toMatchObject({ planId: "starter-monthly", creditsPerMonth: 150, usedPinCredits: 10, remaining: 140 });
    await spend(user, 5);
    expect(await creditsOf(user)).toMatchObject({ usedPinCredits: 15, remaining: 135 });

    // The next billing month: Starter's 150, nothing used.
    const next = await creditsSummary(testEnv, user.userId, month(starter).end);
    expect(next).toMatchObject({ planId: "starter-monthly", usedPinCredits: 0, remaining: 150, periodStart: starter.periodEnd });
  });

  it("Pro at 36 used, then a redeemed Growth month: 36 of 1,000 used; then Lifetime bought through Stripe: 36 of 400", async () => {
    const user = await signUpUser();
    await usedTrial(user);
    await subscribe(user, "pro-monthly");
    await spend(user, 36);
    expect(await creditsOf(user)).toMatchObject({ planId: "pro-monthly", creditsPerMonth: 400, usedPinCredits: 36, remaining: 364 });

    const [code] = await redeemCodesFor("growth-monthly", 1);
    // A month redeemed in the second Pro was paid in would lose to the payment (currentRecord): a person redeems later.
    await afterTheSecondOf((await creditsOf(user)).periodStart);
    await redeem(user, code);
    expect(await creditsOf(user)).toMatchObject({ planId: "growth-monthly", creditsPerMonth: 1000, usedPinCredits: 36, remaining: 964 });
    await spend(user, 4);

    // Stripe dates the purchase to its whole second: one paid in the second the code was redeemed would start
    // its month before the redeemed grant. A person pays later.
    await afterTheSecondOf((await creditsOf(user)).periodStart);
    await buyLifetime(user);
    const lifetime = await creditsOf(user);
    expect(lifetime).toMatchObject({ planId: "lifetime", creditsPerMonth: 400, usedPinCredits: 40, remaining: 360 });

    const next = await creditsSummary(testEnv, user.userId, month(lifetime).end);
    expect(next).toMatchObject({ planId: "lifetime", usedPinCredits: 0, remaining: 400 });
  });

  it("a downgrade mid-month: 500 used of a redeemed Growth month, then Lifetime: 500 of 400 used, nothing left until the next month", async () => {
    const user = await signUpUser();
    const [code] = await redeemCodesFor("growth-monthly", 1);
    await redeem(user, code);
    await spend(user, 500);
    expect(await creditsOf(user)).toMatchObject({ planId: "growth-monthly", usedPinCredits: 500, remaining: 500 });

    // A person pays after the second they redeemed in (Stripe dates the purchase to its whole second).
    await afterTheSecondOf((await creditsOf(user)).periodStart);
    await buyLifetime(user);
    const lifetime = await creditsOf(user);
    expect(lifetime).toMatchObject({ planId: "lifetime", creditsPerMonth: 400, usedPinCredits: 500, remaining: 0 });
    const refused = await post(INCREMENT, user, { category: "image", creditAmount: 1 });
    expect(refused.status).toBe(402);
    expect(await read(refused)).toEqual({ error: OUT_OF_CREDITS_MESSAGE, upgradeUrl: "/pricing" });
    expect(await creditsOf(user)).toMatchObject({ usedPinCredits: 500, remaining: 0 });

    const next = await creditsSummary(testEnv, user.userId, month(lifetime).end);
    expect(next).toMatchObject({ planId: "lifetime", usedPinCredits: 0, remaining: 400, periodStart: lifetime.periodEnd });
  });

  it("an interval switch, which Stripe bills from the moment of the switch, keeps the month's spends", async () => {
    const user = await signUpUser();
    await usedTrial(user);
    const { paymentDetails } = await subscribe(user, "starter-monthly");
    await spend(user, 20);
    const monthly = await creditsOf(user);
    const subscriptionID = paymentDetails.subscriptionID!;
    // Stripe's periods start on whole seconds: the switch's new period must start after the first one did.
    await afterTheSecondOf(monthly.periodStart);

    const switched = await post("/api/stripeSubscriptions/reviseStripeSubscription", user, {
      subscriptionID,
      newStripePriceID: "price_starter_annual",
      newPlanId: "starter-annual",
    });
    expect(switched.status).toBe(200);
    expect((await sandboxSubscription(subscriptionID)).items.data[0].price.id).toBe("price_starter_annual");
    const annual = await creditsOf(user);
    // A new period, so a new credit month, but not a fresh 150.
    expect(Date.parse(annual.periodStart)).toBeGreaterThan(Date.parse(monthly.periodStart));
    expect(annual).toMatchObject({ planId: "starter-annual", creditsPerMonth: 150, usedPinCredits: 20, remaining: 130 });
  });
});
