import type { plans } from "./schema.ts";

type PlanRow = typeof plans.$inferInsert;

/**
 * The plans of spec section 9, with the monthly credits the billing issue set.
 * Plan ids are stable slugs that clients and tests rely on. stripePriceId is
 * the plan's price in Stripe: the Stripe stand-in creates prices with these
 * ids; for a live Stripe account, put the ids of its prices here.
 */
export const PLAN_ROWS: PlanRow[] = [
  { id: "free", name: "Free", tier: "free", billingPeriod: "none", price: 0, creditsPerMonth: 10, freeTrialDays: 0, planOrder: 0, stripePriceId: null },
  {
    id: "starter-monthly",
    name: "Starter",
    tier: "starter",
    billingPeriod: "month",
    price: 16.99,
    creditsPerMonth: 150,
    freeTrialDays: 7,
    planOrder: 1,
    stripePriceId: "price_starter_monthly",
  },
  {
    id: "starter-annual",
    name: "Starter",
    tier: "starter",
    billingPeriod: "year",
    price: 169,
    creditsPerMonth: 150,
    freeTrialDays: 7,
    planOrder: 1,
    stripePriceId: "price_starter_annual",
  },
  {
    id: "pro-monthly",
    name: "Pro",
    tier: "pro",
    billingPeriod: "month",
    price: 29.99,
    creditsPerMonth: 400,
    freeTrialDays: 7,
    planOrder: 2,
    stripePriceId: "price_pro_monthly",
  },
  {
    id: "pro-annual",
    name: "Pro",
    tier: "pro",
    billingPeriod: "year",
    price: 299,
    creditsPerMonth: 400,
    freeTrialDays: 7,
    planOrder: 2,
    stripePriceId: "price_pro_annual",
  },
  {
    id: "growth-monthly",
    name: "Growth",
    tier: "growth",
    billingPeriod: "month",
    price: 49.99,
    creditsPerMonth: 1000,
    freeTrialDays: 7,
    planOrder: 3,
    stripePriceId: "price_growth_monthly",
  },
  {
    id: "growth-annual",
    name: "Growth",
    tier: "growth",
    billingPeriod: "year",
    price: 499,
    creditsPerMonth: 1000,
    freeTrialDays: 7,
    planOrder: 3,
    stripePriceId: "price_growth_annual",
  },
  {
    id: "agency-monthly",
    name: "Agency",
    tier: "agency",
    billingPeriod: "month",
    price: 69.99,
    creditsPerMonth: 3000,
    freeTrialDays: 0,
    planOrder: 4,
    stripePriceId: "price_agency_monthly",
  },
  {
    id: "agency-annual",
    name: "Agency",
    tier: "agency",
    billingPeriod: "year",
    price: 699,
    creditsPerMonth: 3000,
    freeTrialDays: 0,
    planOrder: 4,
    stripePriceId: "price_agency_annual",
  },
  {
    id: "lifetime",
    name: "Lifetime",
    tier: "lifetime",
    billingPeriod: "once",
    price: 249,
    creditsPerMonth: 400,
    freeTrialDays: 0,
    planOrder: 5,
    stripePriceId: "price_lifetime",
  },
];

/** How a lifetime plan is shown on /lifetime (spec section 3, Lifetime plan): display data, keyed by plan id. */
export interface LifetimePlanDisplay {
  previousPrice: number;
  features: string[];
  planImage: string;
  paymentPeriod: string;
  planDuration: string;
}

export const LIFETIME_PLAN_DISPLAY: Record<string, LifetimePlanDisplay> = {
  lifetime: {
    previousPrice: 499,
    features: ["400 pin credits every month", "Access to all features", "All future updates", "Priority support", "Pay once, no subscription"],
    planImage: "/favicon.svg",
    paymentPeriod: "once",
    planDuration: "lifetime",
  },
};
