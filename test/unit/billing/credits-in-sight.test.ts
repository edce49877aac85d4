import { describe, expect, it } from "vitest";
import { creditCount, creditMeter } from "../../../workers/domain/credit-meter.ts";
import { planCardAction, planDisplayName, planStatusLabel } from "../../../workers/domain/plans.ts";

// Issue 13 section 3: credits and plan in sight.

const NOW = Date.UTC(2026, 10, 20);
const free = { planId: "free", planStatus: "Inactive", cancelSubscriptionDate: null, usedFreeTrial: false };
const starter = { planId: "starter-monthly", planStatus: "Active", cancelSubscriptionDate: null, usedFreeTrial: true };
const plan = (planId: string, tier: string, billingPeriod: string, freeTrialDays = 7) => ({ planId, tier, billingPeriod, freeTrialDays });
const FREE = plan("free", "free", "none", 0);
const STARTER = plan("starter-monthly", "starter", "month");
const PRO_ANNUAL = plan("pro-annual", "pro", "year");
const AGENCY = plan("agency-monthly", "agency", "month", 0);

describe("the credit meter", () => {
  it("reads used of the month's credits, warns in the last fifth and calls it out when a pin can no longer be paid", () => {
    expect(creditMeter({ usedPinCredits: 0, remaining: 10, creditsPerMonth: 10 })).toEqual({ used: 0, total: 10, remaining: 10, standing: "plenty" });
    expect(creditMeter({ usedPinCredits: 7, remaining: 3, creditsPerMonth: 10 }).standing).toBe("plenty");
    expect(creditMeter({ usedPinCredits: 8, remaining: 2, creditsPerMonth: 10 }).standing).toBe("low");
    expect(creditMeter({ usedPinCredits: 9.5, remaining: 0.5, creditsPerMonth: 10 }).standing).toBe("out");
    expect(creditMeter({ usedPinCredits: 10, remaining: 0, creditsPerMonth: 10 }).standing).toBe("out");
    expect(creditMeter({ usedPinCredits: 120, remaining: 30, creditsPerMonth: 150 }).standing).toBe("low");
  });

  it("counts a bigger grant left by a downgrade this month as the month's credits", () => {
    expect(creditMeter({ usedPinCredits: 100, remaining: 300, creditsPerMonth: 150 })).toMatchObject({ used: 100, total: 400, standing: "plenty" });
  });

  it("writes counts as people read them", () => {
    expect(creditCount(1000)).toBe("1,000");
    expect(creditCount(2.5)).toBe("2.5");
    expect(creditCount(3)).toBe("3");
  });
});

describe("plan status as the user reads it", () => {
  it("calls a Free user's plan Free, not Inactive", () => {
    expect(planStatusLabel(free, NOW)).toBe("Free");
    expect(planStatusLabel(starter, NOW)).toBe("Active");
    expect(planStatusLabel({ ...starter, planStatus: "Cancelled", cancelSubscriptionDate: NOW + 86_400_000 }, NOW)).toBe("Cancelled");
    // Cancelled and past its date: back on Free.
    expect(planStatusLabel({ ...starter, planStatus: "Cancelled", cancelSubscriptionDate: NOW - 1 }, NOW)).toBe("Free");
  });

  it("names plans as people read them, not by their ids", () => {
    expect(planDisplayName("free")).toBe("Free");
    expect(planDisplayName("pro-annual")).toBe("Pro (annual)");
    expect(planDisplayName("starter-monthly")).toBe("Starter (monthly)");
    expect(planDisplayName("lifetime")).toBe("Lifetime");
  });
});

describe("what a plan card offers", () => {
  it("offers visitors Free by signing up and the paid plans with the spec's buttons", () => {
    expect(planCardAction(FREE, null, false, NOW)).toEqual({ kind: "signup" });
    expect(planCardAction(STARTER, null, false, NOW)).toEqual({ kind: "start", label: "Start free trial" });
    expect(planCardAction(AGENCY, null, false, NOW)).toEqual({ kind: "start", label: "Start Plan" });
  });

  it("marks the user's own plan and never offers to start it", () => {
    expect(planCardAction(FREE, free, false, NOW)).toEqual({ kind: "current" });
    expect(planCardAction(STARTER, starter, true, NOW)).toEqual({ kind: "current" });
    expect(planCardAction(STARTER, free, false, NOW)).toEqual({ kind: "start", label: "Start free trial" });
  });

  it("offers a subscriber a switch, not a second subscription, and Free as where a paid plan ends", () => {
    expect(planCardAction(PRO_ANNUAL, starter, true, NOW)).toEqual({ kind: "switch" });
    expect(planCardAction(FREE, starter, true, NOW)).toEqual({ kind: "fallback" });
    // A lifetime owner has no subscription to switch: a plan starts as usual.
    expect(planCardAction(PRO_ANNUAL, { ...starter, planId: "lifetime" }, false, NOW)).toEqual({ kind: "start", label: "Start Plan" });
  });
});
