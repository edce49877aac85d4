import { describe, expect, it } from "vitest";
import { CODE_ALREADY_YOURS_MESSAGE, type PlanChangePreview } from "../../../contracts/billing/plans-api.ts";
import { bearer, signUpUser, type TestUser } from "../accounts/accounts-support.ts";
import { afterTheSecondOf, buyLifetime, creditsOf, redeem, redeemCodesFor, spendCredits, subscribe, usedTrial } from "./billing-support.ts";
import { app, read } from "../support.ts";

// Issue 37, defect 6 (decision 082): before checkout the server says what a plan change does to the current plan and
// this month's credits, by the rules that will then apply, with dates in the user's time zone.

const PREVIEW = "/api/subscriptions/planChangePreview";

function preview(user: TestUser | null, query: Record<string, string>) {
  return app(`${PREVIEW}?${new URLSearchParams(query)}`, { headers: user ? bearer(user.tokens) : {} });
}

async function previewOf(user: TestUser, query: Record<string, string>): Promise<PlanChangePreview> {
  const response = await preview(user, query);
  expect(response.status).toBe(200);
  return read(response);
}

const dateIn = (iso: string, timeZone: string) =>
  new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone }).format(new Date(iso));

describe("what a plan change does, before checkout", () => {
  it("says a redeemed Growth month ends when Lifetime starts, with the credits a month and the credits used; buying then gives exactly that", async () => {
    const user = await signUpUser();
    await usedTrial(user);
    await subscribe(user, "pro-monthly");
    await spendCredits(user, 36);
    const [code] = await redeemCodesFor("growth-monthly", 1);
    await afterTheSecondOf((await creditsOf(user)).periodStart);
    await redeem(user, code);
    const growth = await creditsOf(user);
    // The redeemed month ends where its credit month does: a month after it was redeemed.
    const ends = growth.periodEnd;

    const paris = await previewOf(user, { planId: "lifetime", timeZone: "Europe/Paris" });
    expect(paris).toMatchObject({
      planId: "lifetime",
      planName: "Lifetime",
      creditsPerMonth: 400,
      current: { planId: "growth-monthly", planName: "Growth", creditsPerMonth: 1000, kind: "redeemed" },
      usedThisMonth: 36,
      remainingThisMonth: 364,
      confirm: true,
    });
    expect(paris.message).toBe(
      `Your redeemed Growth month (1,000 credits a month, ends ${dateIn(ends, "Europe/Paris")}) ends when Lifetime starts; ` +
        "you will have 400 credits a month from then, and the 36 credits you used this month still count: 364 left this month.",
    );
    // The date is the user's: 25 hours apart, Kiritimati and Pago Pago never share a calendar day.
    const east = await previewOf(user, { planId: "lifetime", timeZone: "Pacific/Kiritimati" });
    const west = await previewOf(user, { planId: "lifetime", timeZone: "Pacific/Pago_Pago" });
    expect(east.message).toContain(`ends ${dateIn(ends, "Pacific/Kiritimati")})`);
    expect(west.message).toContain(`ends ${dateIn(ends, "Pacific/Pago_Pago")})`);
    expect(east.message).not.toBe(west.message);

    // A preview changes nothing; the purchase then does what it said.
    expect(await creditsOf(user)).toMatchObject({ planId: "growth-monthly", usedPinCredits: 36, remaining: 964 });
    // Stripe dates the purchase to its whole second; a person pays after the second they redeemed in.
    await afterTheSecondOf(growth.periodStart);
    await buyLifetime(user);
    expect(await creditsOf(user)).toMatchObject({
      planId: "lifetime",
      creditsPerMonth: 400,
      usedPinCredits: paris.usedThisMonth,
      remaining: paris.remainingThisMonth,
    });
  });

  it("tells a Free user that the credits used this month still count, and asks only when something carries over", async () => {
    const fresh = await signUpUser();
    const untouched = await previewOf(fresh, { planId: "starter-monthly" });
    expect(untouched).toMatchObject({ confirm: false, usedThisMonth: 0, remainingThisMonth: 150, current: { planId: "free", kind: "free" } });
    expect(untouched.message).toBe("You move from Free (10 credits a month) to Starter; you will have 150 credits a month from then.");

    const user = await signUpUser();
    await spendCredits(user, 10);
    const starter = await previewOf(user, { planId: "starter-monthly" });
    expect(starter).toMatchObject({ confirm: true, usedThisMonth: 10, remainingThisMonth: 140 });
    expect(starter.message).toBe(
      "You move from Free (10 credits a month) to Starter; you will have 150 credits a month from then, and the 10 credits you used this month still count: 140 left this month.",
    );
    await subscribe(user, "starter-monthly");
    expect(await creditsOf(user)).toMatchObject({ usedPinCredits: 10, remaining: 140 });
  });

  it("says a running subscription keeps billing when Lifetime is bought, and previews a code without using it up", async () => {
    const user = await signUpUser();
    await usedTrial(user);
    await subscribe(user, "pro-monthly");
    const lifetime = await previewOf(user, { planId: "lifetime" });
    expect(lifetime.confirm).toBe(true);
    expect(lifetime.message).toBe(
      "Your Pro subscription (400 credits a month) is not cancelled by this: it keeps billing you until you cancel it under Manage subscription, " +
        "and Lifetime takes its place as your plan from today; you will have 400 credits a month from then.",
    );

    const [code] = await redeemCodesFor("growth-monthly", 3);
    await afterTheSecondOf((await creditsOf(user)).periodStart);
    const byCode = await previewOf(user, { redemptionCode: code.toLowerCase().replaceAll("-", " ") });
    expect(byCode).toMatchObject({ planId: "growth-monthly", creditsPerMonth: 1000, confirm: true });
    expect(byCode.message).toContain("and the redeemed Growth months take its place until ");
    expect((await redeem(user, code)).planId).toBe("growth-monthly");
    const used = await preview(user, { redemptionCode: code });
    expect(used.status).toBe(409);
    expect(await read(used)).toMatchObject({ error: CODE_ALREADY_YOURS_MESSAGE });
  });

  it("refuses bad input naming the field, unknown plans and codes, and needs a signed-in user", async () => {
    const user = await signUpUser();
    expect((await preview(null, { planId: "lifetime" })).status).toBe(401);
    for (const [query, field] of [
      [{}, "planId"],
      [{ planId: "lifetime", redemptionCode: "ABCD-EFGH-JKLM-NPQR" }, "redemptionCode"],
      [{ planId: "Life time!" }, "planId"],
      [{ planId: "lifetime", timeZone: "Mars/Olympus" }, "timeZone"],
      [{ redemptionCode: "nope" }, "redemptionCode"],
      [{ planId: "free" }, "planId"],
    ] as const) {
      const response = await preview(user, query);
      expect(response.status, JSON.stringify(query)).toBe(400);
      expect(await read(response)).toMatchObject({ field });
    }
    expect((await preview(user, { planId: "no-such-plan" })).status).toBe(404);
    expect((await preview(user, { redemptionCode: "ABCD-EFGH-JKLM-NPQR" })).status).toBe(404);
    await buyLifetime(user);
    const owned = await preview(user, { planId: "lifetime" });
    expect(owned.status).toBe(409);
    expect(await read(owned)).toMatchObject({ error: "You already have the Lifetime plan." });
  });
});
