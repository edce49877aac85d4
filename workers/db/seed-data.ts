import type { plans } from "./schema.ts";

type PlanRow = typeof plans.$inferInsert;

/**
 * The plans of spec section 9, with the monthly credits the billing issue set.
 * Plan ids are stable slugs that clients and tests rely on.
 */
export const PLAN_ROWS: PlanRow[] = [
  { id: "free", name: "Free", tier: "free", billingPeriod: "none", price: 0, creditsPerMonth: 10, freeTrialDays: 0, planOrder: 0 },
  { id: "starter-monthly", name: "Starter", tier: "starter", billingPeriod: "month", price: 16.99, creditsPerMonth: 150, freeTrialDays: 7, planOrder: 1 },
  { id: "starter-annual", name: "Starter", tier: "starter", billingPeriod: "year", price: 169, creditsPerMonth: 150, freeTrialDays: 7, planOrder: 1 },
  { id: "pro-monthly", name: "Pro", tier: "pro", billingPeriod: "month", price: 29.99, creditsPerMonth: 400, freeTrialDays: 7, planOrder: 2 },
  { id: "pro-annual", name: "Pro", tier: "pro", billingPeriod: "year", price: 299, creditsPerMonth: 400, freeTrialDays: 7, planOrder: 2 },
  { id: "growth-monthly", name: "Growth", tier: "growth", billingPeriod: "month", price: 49.99, creditsPerMonth: 1000, freeTrialDays: 7, planOrder: 3 },
  { id: "growth-annual", name: "Growth", tier: "growth", billingPeriod: "year", price: 499, creditsPerMonth: 1000, freeTrialDays: 7, planOrder: 3 },
  { id: "agency-monthly", name: "Agency", tier: "agency", billingPeriod: "month", price: 69.99, creditsPerMonth: 3000, freeTrialDays: 0, planOrder: 4 },
  { id: "agency-annual", name: "Agency", tier: "agency", billingPeriod: "year", price: 699, creditsPerMonth: 3000, freeTrialDays: 0, planOrder: 4 },
  { id: "lifetime", name: "Lifetime", tier: "lifetime", billingPeriod: "once", price: 249, creditsPerMonth: 400, freeTrialDays: 0, planOrder: 5 },
];
