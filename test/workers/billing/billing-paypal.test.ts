import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { PAYPAL_CONFIRM_SWITCH_MESSAGE, PAYPAL_PLAN_IDS } from "../../../contracts/billing/billing-paypal-shopify.ts";
import { creditLedger } from "../../../workers/db/schema.ts";
import { ledgerOf } from "../../../workers/ledger/client.ts";
import * as paypal from "../../../workers/integrations/paypal.ts";
import { signUpUser, type TestUser } from "../accounts/accounts-support.ts";
import { approvePayPal, creditsOf, credentialsOf, expectBadInput, post, spendCredits } from "./billing-support.ts";
import { read, testEnv } from "../support.ts";

// The PayPal calls of spec section 7 against the sandbox's PayPal stand-in. The sandbox is shared
// with other test files: nothing here resets it; every test subscribes its own users.

const ACTIVATE = "/api/subscriptions/activateUserSubscription";
const CANCEL = "/api/subscriptions/cancelSubscription";
const SUSPEND = "/api/subscriptions/suspendSubscription";
const REACTIVATE = "/api/subscriptions/reactivateSubscription";
const REVISE = "/api/subscriptions/revise";
const BACK = {
  returnUrl: "http://app.test/pricing?paymentMessage=success",
  cancelUrl: "http://app.test/pricing?paymentMessage=cancel",
};

/** What PayPal's button does in the browser: creates the subscription and has the payer approve it. */
async function approvedSubscription(user: TestUser, planId: string, approved = true): Promise<string> {
  const created = await paypal.createSubscription(testEnv, {
    planId: PAYPAL_PLAN_IDS[planId],
    customId: user.userId,
    ...BACK,
  });
  if (approved) expect((await approvePayPal(paypal.approveLink(created.links)!)).searchParams.get("subscription_id")).toBe(created.id);
  return created.id;
}

async function subscribe(user: TestUser, planId = "starter-monthly") {
  const subscriptionID = await approvedSubscription(user, planId);
  const activated = await post(ACTIVATE, user, { subscriptionID, planId });
  expect(activated.status).toBe(200);
  return { subscriptionID, body: await read(activated) };
}

describe("activateUserSubscription", () => {
  it("binds an approved subscription to the caller: Active with the plan's credits, and again changes nothing", async () => {
    const user = await signUpUser();
    const { subscriptionID, body } = await subscribe(user, "starter-monthly");
    expect(body.profileUpdates).toEqual({
      planId: "starter-monthly",
      planStatus: "Active",
      cancelSubscriptionDate: null,
      usedFreeTrial: true,
    });
    expect(body.paymentDetails).toMatchObject({
      provider: "paypal",
      subscriptionID,
      planId: "starter-monthly",
      planName: "Starter",
      status: "ACTIVE",
    });
    expect(await credentialsOf(user)).toMatchObject({
      planId: "starter-monthly",
      planStatus: "Active",
    });
    expect(await creditsOf(user)).toMatchObject({
      planId: "starter-monthly",
      creditsPerMonth: 150,
      remaining: 150,
    });

    const again = await post(ACTIVATE, user, {
      subscriptionID,
      planId: "starter-monthly",
    });
    expect(again.status).toBe(200);
    expect((await read(again)).profileUpdates).toEqual(body.profileUpdates);
    const grants = await ledgerOf(testEnv, user.userId)
      .db.select()
      .from(creditLedger)
      .where(and(eq(creditLedger.userId, user.userId), eq(creditLedger.category, "grant")));
    expect(grants.filter((grant) => grant.reference.startsWith("grant:starter-monthly:"))).toHaveLength(1);
  });

  it("refuses a subscription that is not approved, not for the plan, unknown, or another user's", async () => {
    const owner = await signUpUser();
    const pending = await approvedSubscription(owner, "pro-monthly", false);
    const notActive = await post(ACTIVATE, owner, {
      subscriptionID: pending,
      planId: "pro-monthly",
    });
    await expectBadInput(notActive, "subscriptionID");

    const { subscriptionID } = await subscribe(owner, "pro-monthly");
    await expectBadInput(await post(ACTIVATE, owner, { subscriptionID, planId: "growth-monthly" }), "planId");
    expect(
      (
        await post(ACTIVATE, owner, {
          subscriptionID: "I-DOESNOTEXIST0",
          planId: "pro-monthly",
        })
      ).status,
    ).toBe(404);

    const other = await signUpUser();
    const stolen = await post(ACTIVATE, other, {
      subscriptionID,
      planId: "pro-monthly",
    });
    expect(stolen.status).toBe(404);
    expect(await credentialsOf(other)).toMatchObject({ planId: "free" });
    expect(await credentialsOf(owner)).toMatchObject({
      planId: "pro-monthly",
      planStatus: "Active",
    });
  });

  it("answers bad input with 400 naming the field", async () => {
    const user = await signUpUser();
    await expectBadInput(await post(ACTIVATE, user, { planId: "starter-monthly" }), "subscriptionID");
    await expectBadInput(
      await post(ACTIVATE, user, {
        subscriptionID: "sub_123",
        planId: "starter-monthly",
      }),
      "subscriptionID",
    );
    await expectBadInput(await post(ACTIVATE, user, { subscriptionID: "I-ABC123" }), "planId");
    await expectBadInput(
      await post(ACTIVATE, user, {
        subscriptionID: "I-ABC123",
        planId: "lifetime",
      }),
      "planId",
    );
    expect(
      (
        await post(ACTIVATE, null, {
          subscriptionID: "I-ABC123",
          planId: "starter-monthly",
        })
      ).status,
    ).toBe(401);
  });
});

describe("cancel, suspend and reactivate", () => {
  it("cancels: PayPal stops billing, the plan stays until the period paid for ends", async () => {
    const user = await signUpUser();
    const { subscriptionID, body } = await subscribe(user);
    const cancelled = await post(CANCEL, user, {
      subscriptionID,
      cancelReason: "Too expensive",
    });
    expect(cancelled.status).toBe(200);
    const answer = await read(cancelled);
    expect(answer.message).toBe("Your subscription has been canceled.");
    expect(answer.profileUpdates).toMatchObject({
      planId: "starter-monthly",
      planStatus: "Cancelled",
    });
    expect(answer.profileUpdates.cancelSubscriptionDate).toBe(body.paymentDetails.nextBillingTime.replace("Z", ".000Z"));
    expect((await paypal.getSubscription(testEnv, subscriptionID)).status).toBe("CANCELLED");
    expect((await creditsOf(user)).creditsPerMonth).toBe(150);
    expect((await post(CANCEL, user, { subscriptionID, cancelReason: "again" })).status).toBe(409);
  });

  it("suspends (back to Free credits) and re-activates (the plan again)", async () => {
    const user = await signUpUser();
    const { subscriptionID } = await subscribe(user, "pro-monthly");
    const suspended = await post(SUSPEND, user, { subscriptionID });
    expect(suspended.status).toBe(200);
    expect(await read(suspended)).toMatchObject({
      message: "Your subscription has been suspended",
      profileUpdates: { planId: "free", planStatus: "Inactive" },
    });
    expect((await paypal.getSubscription(testEnv, subscriptionID)).status).toBe("SUSPENDED");
    expect((await creditsOf(user)).creditsPerMonth).toBe(10);
    expect((await post(SUSPEND, user, { subscriptionID })).status).toBe(409);

    const reactivated = await post(REACTIVATE, user, { subscriptionID });
    expect(reactivated.status).toBe(200);
    expect(await read(reactivated)).toMatchObject({
      message: "Your subscription has been re-activated",
      profileUpdates: { planId: "pro-monthly", planStatus: "Active" },
    });
    expect(await creditsOf(user)).toMatchObject({
      planId: "pro-monthly",
      creditsPerMonth: 400,
    });
    expect((await post(REACTIVATE, user, { subscriptionID })).status).toBe(409);
  });

  it("counts the month's spends across a suspension: Free's 10 less what was used, and re-activation continues the paid month (decision 081)", async () => {
    const user = await signUpUser();
    const { subscriptionID } = await subscribe(user, "starter-monthly");
    // Spends of `amount` credits at once, answered as the API would: 200, or 402 when the month cannot pay.
    const spend = (amount: number) =>
      spendCredits(user, amount).then(
        () => ({ status: 200 }),
        (error: { status?: number }) => {
          if (error.status === 402) return { status: 402 };
          throw error;
        },
      );
    expect((await spend(6)).status).toBe(200);
    expect(await creditsOf(user)).toMatchObject({ planId: "starter-monthly", creditsPerMonth: 150, remaining: 144 });
    // PayPal's times are whole seconds: let the spend's second pass before the status changes.
    const nextSecond = () => new Promise((resolve) => setTimeout(resolve, 1_100));

    await nextSecond();
    expect((await post(SUSPEND, user, { subscriptionID })).status).toBe(200);
    const suspendedAt = Date.parse((await paypal.getSubscription(testEnv, subscriptionID)).status_update_time!);
    const free = await creditsOf(user);
    // A Free month from the suspension, in which the 6 used this month still count: 4 of Free's 10 left, and
    // nothing of the paid month's 150 carried over.
    expect(free).toMatchObject({ planId: "free", creditsPerMonth: 10, usedPinCredits: 6, remaining: 4 });
    expect(Date.parse(free.periodStart)).toBe(suspendedAt);
    expect((await spend(3)).status).toBe(200);
    expect(await creditsOf(user)).toMatchObject({ planId: "free", usedPinCredits: 9, remaining: 1 });
    // Free's allowance is all there is.
    expect((await spend(2)).status).toBe(402);
    expect(await creditsOf(user)).toMatchObject({ remaining: 1 });

    await nextSecond();
    expect((await post(REACTIVATE, user, { subscriptionID })).status).toBe(200);
    const paid = await creditsOf(user);
    // The month paid for goes on: not a fresh 150. Its spends stay spent (the Free month's too, which fall in it),
    // and Free's grant does not add to it: never more than the plan's 150 a month.
    expect(paid).toMatchObject({ planId: "starter-monthly", creditsPerMonth: 150, usedPinCredits: 9, remaining: 150 - 9 });
    expect(Date.parse(paid.periodStart)).toBeLessThan(suspendedAt);
    expect((await credentialsOf(user)).usedPinCredits).toBe(9);
    // A second suspension and re-activation buys nothing either.
    await nextSecond();
    expect((await post(SUSPEND, user, { subscriptionID })).status).toBe(200);
    expect(await creditsOf(user)).toMatchObject({ planId: "free", usedPinCredits: 9, remaining: 1 });
    await nextSecond();
    expect((await post(REACTIVATE, user, { subscriptionID })).status).toBe(200);
    expect((await creditsOf(user)).remaining).toBe(150 - 9);
  });

  it("refuses another user's subscription with 404 and leaves it unchanged", async () => {
    const owner = await signUpUser();
    const { subscriptionID } = await subscribe(owner);
    const other = await signUpUser();
    expect((await post(CANCEL, other, { subscriptionID, cancelReason: "mine now" })).status).toBe(404);
    expect((await post(SUSPEND, other, { subscriptionID })).status).toBe(404);
    expect((await post(REACTIVATE, other, { subscriptionID })).status).toBe(404);
    expect(
      (
        await post(REVISE, other, {
          subscriptionID,
          newPlanPayPalID: PAYPAL_PLAN_IDS["pro-monthly"],
          newPlanName: "Pro",
          newPlanId: "pro-monthly",
        })
      ).status,
    ).toBe(404);
    expect((await paypal.getSubscription(testEnv, subscriptionID)).status).toBe("ACTIVE");
    expect(await credentialsOf(owner)).toMatchObject({
      planId: "starter-monthly",
      planStatus: "Active",
    });
  });

  it("answers bad input with 400 naming the field", async () => {
    const user = await signUpUser();
    await expectBadInput(await post(CANCEL, user, { subscriptionID: "I-ABC123" }), "cancelReason");
    await expectBadInput(
      await post(CANCEL, user, {
        subscriptionID: "I-ABC123",
        cancelReason: "  ",
      }),
      "cancelReason",
    );
    await expectBadInput(await post(SUSPEND, user, {}), "subscriptionID");
    await expectBadInput(await post(REACTIVATE, user, { subscriptionID: 42 }), "subscriptionID");
  });
});

describe("revise", () => {
  it("an upgrade needs the payer's approval: 202 with the approval link; approved and activated, the new plan applies", async () => {
    const user = await signUpUser();
    const { subscriptionID } = await subscribe(user, "starter-monthly");
    const revised = await post(REVISE, user, {
      subscriptionID,
      newPlanPayPalID: PAYPAL_PLAN_IDS["pro-monthly"],
      newPlanName: "Pro",
      newPlanId: "pro-monthly",
    });
    expect(revised.status).toBe(202);
    const { approvalLink, message } = await read(revised);
    expect(message).toBe(PAYPAL_CONFIRM_SWITCH_MESSAGE);
    expect(approvalLink).toMatch(/\/paypal\/webapps\/billing\/subscriptions\?ba_token=BA-/);
    // Not approved yet: still Starter.
    expect(await credentialsOf(user)).toMatchObject({
      planId: "starter-monthly",
    });

    const back = await approvePayPal(approvalLink);
    expect(back.searchParams.get("planId")).toBe("pro-monthly");
    expect(back.searchParams.get("subscription_id")).toBe(subscriptionID);
    const activated = await post(ACTIVATE, user, {
      subscriptionID,
      planId: back.searchParams.get("planId"),
    });
    expect(activated.status).toBe(200);
    expect(await creditsOf(user)).toMatchObject({
      planId: "pro-monthly",
      creditsPerMonth: 400,
      remaining: 400,
    });
  });

  it("a switch PayPal applies at once is done: 200 with the switched message", async () => {
    const user = await signUpUser();
    const { subscriptionID } = await subscribe(user, "growth-monthly");
    const revised = await post(REVISE, user, {
      subscriptionID,
      newPlanPayPalID: PAYPAL_PLAN_IDS["starter-monthly"],
      newPlanName: "Starter",
      newPlanId: "starter-monthly",
    });
    expect(revised.status).toBe(200);
    expect(await read(revised)).toMatchObject({
      message: "Your subscription has been switched",
      profileUpdates: { planId: "starter-monthly", planStatus: "Active" },
    });
    expect((await paypal.getSubscription(testEnv, subscriptionID)).plan_id).toBe(PAYPAL_PLAN_IDS["starter-monthly"]);
  });

  it("answers bad input with 400 naming the field", async () => {
    const user = await signUpUser();
    const { subscriptionID } = await subscribe(user);
    const base = {
      subscriptionID,
      newPlanPayPalID: PAYPAL_PLAN_IDS["pro-monthly"],
      newPlanName: "Pro",
      newPlanId: "pro-monthly",
    };
    await expectBadInput(
      await post(REVISE, user, {
        ...base,
        newPlanPayPalID: "price_pro_monthly",
      }),
      "newPlanPayPalID",
    );
    await expectBadInput(
      await post(REVISE, user, {
        ...base,
        newPlanPayPalID: PAYPAL_PLAN_IDS["growth-monthly"],
      }),
      "newPlanPayPalID",
    );
    await expectBadInput(await post(REVISE, user, { ...base, newPlanName: "" }), "newPlanName");
    await expectBadInput(await post(REVISE, user, { ...base, newPlanId: "lifetime" }), "newPlanId");
    await expectBadInput(
      await post(REVISE, user, {
        ...base,
        newPlanId: "starter-monthly",
        newPlanPayPalID: PAYPAL_PLAN_IDS["starter-monthly"],
      }),
      "newPlanId",
    );
  });
});
