import { CREDIT_COSTS } from "../../contracts/billing/credits.ts";

/**
 * How a user's pin credits for the month read in the navbar and on /generate
 * (issue 13): used of the month's credits, a gentle warning near the end and
 * the upgrade link once a pin can no longer be paid for. Pure: the numbers are
 * the server's (GET /api/user/credits).
 */
export type CreditStanding = "plenty" | "low" | "out";

/** Share of the month's credits left at which the warning shows (Free: 2 of 10). */
export const LOW_CREDITS_SHARE = 0.2;

export interface CreditMeter {
  used: number;
  /** The month's credits: the plan's amount, or more when a downgrade left a bigger grant this month (decision 009). */
  total: number;
  remaining: number;
  standing: CreditStanding;
}

export function creditMeter(summary: { usedPinCredits: number; remaining: number; creditsPerMonth: number }): CreditMeter {
  const used = Math.max(0, summary.usedPinCredits);
  const remaining = Math.max(0, summary.remaining);
  // The server refuses any spend the balance cannot pay, so used + remaining is what the month granted.
  const total = Math.max(summary.creditsPerMonth, used + remaining);
  const standing: CreditStanding = remaining < CREDIT_COSTS.image ? "out" : remaining <= total * LOW_CREDITS_SHARE ? "low" : "plenty";
  return { used, total, remaining, standing };
}

/** A number of credits as people read it: 1,000 and 2.5. */
export function creditCount(amount: number): string {
  return amount.toLocaleString("en-US", { maximumFractionDigits: 1 });
}
