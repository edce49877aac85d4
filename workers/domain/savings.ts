/**
 * The savings calculator (/savings-calculator): time and money spent on pins
 * by hand against generating and scheduling them in bulk with the product.
 * Pure rules: plain numbers in, plain numbers out.
 */
import { adjustedPrice, type PricingParity } from "./pricing-parity.ts";

export const WEEKS_PER_MONTH = 52 / 12;
/** An image pin costs 1 pin credit when scheduled (spec section 9). */
export const CREDITS_PER_IMAGE_PIN = 1;

export interface SavingsInputs {
  pinsPerWeek: number;
  /** Designing, writing and posting one pin by hand. */
  minutesPerPinByHand: number;
  /** Reviewing a generated pin and its text before it is bulk-scheduled. */
  minutesPerPinWithApp: number;
  /** What an hour of the user's time is worth, in USD. */
  hourlyValue: number;
  planId: string;
}

export const INPUT_LIMITS: Record<Exclude<keyof SavingsInputs, "planId">, { min: number; max: number; step: number }> = {
  pinsPerWeek: { min: 1, max: 2000, step: 1 },
  minutesPerPinByHand: { min: 1, max: 120, step: 1 },
  minutesPerPinWithApp: { min: 0, max: 60, step: 0.5 },
  hourlyValue: { min: 0, max: 1000, step: 1 },
};

export const DEFAULT_INPUTS: Omit<SavingsInputs, "planId"> = { pinsPerWeek: 30, minutesPerPinByHand: 12, minutesPerPinWithApp: 1, hourlyValue: 30 };

/** A plan the calculator can price with: a recurring plan, its price per month (an annual price spread over 12 months). */
export interface CalculatorPlan {
  planId: string;
  label: string;
  pricePerMonth: number;
  creditsPerMonth: number;
}

/**
 * The recurring plans of the plans table, as the calculator prices them: at what the visitor
 * would be charged, that is after their pricing parity (`adjustedPrice`, exactly what checkout
 * charges; 0 % is the list price), an annual price spread over 12 months.
 */
export function calculatorPlans(
  plans: { planId: string; planName: string; billingPeriod: string; amount: number; creditsPerMonth: number }[],
  parity: Pick<PricingParity, "percentageAdjustment"> = { percentageAdjustment: 0 },
): CalculatorPlan[] {
  return plans
    .filter((plan) => (plan.billingPeriod === "month" || plan.billingPeriod === "year") && plan.amount > 0)
    .map((plan) => {
      const charged = adjustedPrice(plan.amount, parity);
      return {
        planId: plan.planId,
        label: `${plan.planName}, ${plan.billingPeriod === "month" ? "monthly" : "annual"}`,
        pricePerMonth: plan.billingPeriod === "year" ? round2(charged / 12) : charged,
        creditsPerMonth: plan.creditsPerMonth,
      };
    });
}

/** The cheapest plan whose credits cover the pins, else the cheapest of those with the most credits. */
export function suggestedPlan(plans: CalculatorPlan[], pinsPerWeek: number): CalculatorPlan | undefined {
  const needed = Math.ceil(pinsPerWeek * WEEKS_PER_MONTH) * CREDITS_PER_IMAGE_PIN;
  const covering = plans.filter((plan) => plan.creditsPerMonth >= needed).sort((a, b) => a.pricePerMonth - b.pricePerMonth);
  return covering[0] ?? [...plans].sort((a, b) => b.creditsPerMonth - a.creditsPerMonth || a.pricePerMonth - b.pricePerMonth)[0];
}

const round2 = (value: number) => Math.round(value * 100) / 100;
const round1 = (value: number) => Math.round(value * 10) / 10;

/** Reads one number of the form (a query parameter), clamped to its limits; a missing or unreadable value is the default. */
export function inputNumber(field: keyof typeof INPUT_LIMITS, raw: string | null | undefined): number {
  const value = raw === null || raw === undefined || raw.trim() === "" ? NaN : Number(raw);
  if (!Number.isFinite(value)) return DEFAULT_INPUTS[field];
  const { min, max } = INPUT_LIMITS[field];
  return Math.min(max, Math.max(min, value));
}

/** The calculator's inputs from a query string; the plan defaults to the suggested one. */
export function savingsInputsFrom(params: URLSearchParams, plans: CalculatorPlan[]): SavingsInputs {
  const pinsPerWeek = inputNumber("pinsPerWeek", params.get("pinsPerWeek"));
  const requested = plans.find((plan) => plan.planId === params.get("planId"));
  return {
    pinsPerWeek,
    minutesPerPinByHand: inputNumber("minutesPerPinByHand", params.get("minutesPerPinByHand")),
    minutesPerPinWithApp: inputNumber("minutesPerPinWithApp", params.get("minutesPerPinWithApp")),
    hourlyValue: inputNumber("hourlyValue", params.get("hourlyValue")),
    planId: requested?.planId ?? suggestedPlan(plans, pinsPerWeek)?.planId ?? "",
  };
}

export interface Savings {
  pinsPerMonth: number;
  hoursByHand: number;
  hoursWithApp: number;
  hoursSaved: number;
  /** Value of the user's time spent, per month (USD). */
  timeCostByHand: number;
  timeCostWithApp: number;
  planPrice: number;
  /** Time value saved minus the plan's price, per month; negative when the plan costs more than the time it saves. */
  netSavingPerMonth: number;
  netSavingPerYear: number;
  hoursSavedPerYear: number;
  creditsNeeded: number;
  /** Whether the plan's monthly credits cover the pins. */
  planCoversPins: boolean;
}

/** The figures per month (and year) for the inputs and the chosen plan. */
export function savings(inputs: SavingsInputs, plan: CalculatorPlan | undefined): Savings {
  const pinsPerMonth = inputs.pinsPerWeek * WEEKS_PER_MONTH;
  const hoursByHand = (pinsPerMonth * inputs.minutesPerPinByHand) / 60;
  const hoursWithApp = (pinsPerMonth * inputs.minutesPerPinWithApp) / 60;
  const hoursSaved = Math.max(0, hoursByHand - hoursWithApp);
  const timeCostByHand = hoursByHand * inputs.hourlyValue;
  const timeCostWithApp = hoursWithApp * inputs.hourlyValue;
  const planPrice = plan?.pricePerMonth ?? 0;
  const net = timeCostByHand - timeCostWithApp - planPrice;
  const creditsNeeded = Math.ceil(pinsPerMonth) * CREDITS_PER_IMAGE_PIN;
  return {
    pinsPerMonth: Math.round(pinsPerMonth),
    hoursByHand: round1(hoursByHand),
    hoursWithApp: round1(hoursWithApp),
    hoursSaved: round1(hoursSaved),
    timeCostByHand: round2(timeCostByHand),
    timeCostWithApp: round2(timeCostWithApp),
    planPrice: round2(planPrice),
    netSavingPerMonth: round2(net),
    netSavingPerYear: round2(net * 12),
    hoursSavedPerYear: Math.round(hoursSaved * 12),
    creditsNeeded,
    planCoversPins: plan ? plan.creditsPerMonth >= creditsNeeded : false,
  };
}
