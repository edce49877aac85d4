import { describe, expect, it } from "vitest";
import { calculatorPlans, DEFAULT_INPUTS, savings, savingsInputsFrom, suggestedPlan } from "../../../workers/domain/savings.ts";
import { PLAN_ROWS } from "../../../workers/db/seed-data.ts";
import { adjustedPrice } from "../../../workers/domain/pricing-parity.ts";

const plans = calculatorPlans(
  PLAN_ROWS.map((plan) => ({
    planId: plan.id,
    planName: plan.name,
    billingPeriod: plan.billingPeriod,
    amount: plan.price,
    creditsPerMonth: plan.creditsPerMonth,
  })),
);

describe("the savings calculator's rules", () => {
  it("prices the recurring paid plans per month: annual prices spread over 12 months; no Free or Lifetime", () => {
    expect(plans.map((plan) => plan.planId)).not.toContain("free");
    expect(plans.map((plan) => plan.planId)).not.toContain("lifetime");
    expect(plans.find((plan) => plan.planId === "starter-monthly")).toEqual({
      planId: "starter-monthly",
      label: "Starter, monthly",
      pricePerMonth: 16.99,
      creditsPerMonth: 150,
    });
    expect(plans.find((plan) => plan.planId === "pro-annual")?.pricePerMonth).toBe(24.92);
  });

  it("prices the plans at what checkout charges a parity country: Stripe's rounding, annual prices then spread over 12 months", () => {
    const rows = PLAN_ROWS.map((plan) => ({
      planId: plan.id,
      planName: plan.name,
      billingPeriod: plan.billingPeriod,
      amount: plan.price,
      creditsPerMonth: plan.creditsPerMonth,
    }));
    const half = calculatorPlans(rows, { percentageAdjustment: 50 });
    // 1699 cents less a rounded 850-cent discount: 8.49, as the parity coupon charges it.
    expect(half.find((plan) => plan.planId === "starter-monthly")?.pricePerMonth).toBe(adjustedPrice(16.99, { percentageAdjustment: 50 }));
    expect(half.find((plan) => plan.planId === "starter-monthly")?.pricePerMonth).toBe(8.49);
    // 299 a year less 50 % is 149.50: 12.46 a month.
    expect(half.find((plan) => plan.planId === "pro-annual")?.pricePerMonth).toBe(12.46);
    expect(calculatorPlans(rows, { percentageAdjustment: 0 })).toEqual(plans);
  });

  it("suggests the cheapest plan whose credits cover the pins", () => {
    expect(suggestedPlan(plans, 30)?.planId).toBe("starter-annual"); // 130 pins a month
    expect(suggestedPlan(plans, 50)?.planId).toBe("pro-annual"); // 217 pins
    expect(suggestedPlan(plans, 5000)?.creditsPerMonth).toBe(3000); // more than any plan: the largest
  });

  it("counts hours and money per month and year", () => {
    const plan = plans.find((candidate) => candidate.planId === "starter-monthly");
    const result = savings({ pinsPerWeek: 30, minutesPerPinByHand: 12, minutesPerPinWithApp: 1, hourlyValue: 30, planId: "starter-monthly" }, plan);
    // 30 pins a week are 130 a month: 26 hours by hand, 2.2 with the app.
    expect(result).toEqual({
      pinsPerMonth: 130,
      hoursByHand: 26,
      hoursWithApp: 2.2,
      hoursSaved: 23.8,
      timeCostByHand: 780,
      timeCostWithApp: 65,
      planPrice: 16.99,
      netSavingPerMonth: 698.01,
      netSavingPerYear: 8376.12,
      hoursSavedPerYear: 286,
      creditsNeeded: 130,
      planCoversPins: true,
    });
    expect(savings({ ...DEFAULT_INPUTS, pinsPerWeek: 100, planId: "starter-monthly" }, plan).planCoversPins).toBe(false);
    // Time worth nothing: the plan is a cost.
    expect(savings({ ...DEFAULT_INPUTS, hourlyValue: 0, planId: "starter-monthly" }, plan).netSavingPerMonth).toBe(-16.99);
  });

  it("reads the form's query, clamping numbers and falling back to defaults and the suggested plan", () => {
    const inputs = savingsInputsFrom(new URLSearchParams("pinsPerWeek=99999&minutesPerPinByHand=abc&hourlyValue=-5&planId=nope"), plans);
    expect(inputs).toEqual({
      pinsPerWeek: 2000,
      minutesPerPinByHand: DEFAULT_INPUTS.minutesPerPinByHand,
      minutesPerPinWithApp: 1,
      hourlyValue: 0,
      planId: "agency-annual",
    });
    expect(savingsInputsFrom(new URLSearchParams("planId=pro-monthly"), plans).planId).toBe("pro-monthly");
    expect(savingsInputsFrom(new URLSearchParams(""), plans)).toEqual({ ...DEFAULT_INPUTS, planId: "starter-annual" });
  });
});
