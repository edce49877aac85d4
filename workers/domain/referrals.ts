/**
 * Referral programme rules (spec sections 2, 4 and 9; docs/decisions/037 and
 * 038). Pure: plain values in, plain values out, times in milliseconds. Shared
 * by the worker and the browser (the referral modal's rule).
 */

/** The referrer's credit against their next payment, in US cents ($16.99, one month of Starter). */
export const REFERRER_CREDIT_CENTS = 1699;

/** The plan and length of the referred user's free month. */
export const FREE_MONTH_PLAN_ID = "starter-monthly";
export const FREE_MONTH_MONTHS = 1;

/** Earnings shown to a referrer: 16.99 x referredSales, in dollars (counted in cents, so never 33.980000000000004). */
export function referralEarnings(referredSales: number): number {
  return (Math.max(0, Math.floor(referredSales)) * REFERRER_CREDIT_CENTS) / 100;
}

/** The referral modal: when usedPinCredits is 20 or more, and not again for 21 days after it was shown. */
export const REFERRAL_MODAL_MIN_USED_CREDITS = 20;
export const REFERRAL_MODAL_QUIET_DAYS = 21;
const DAY_MS = 24 * 60 * 60 * 1000;

export function shouldShowReferralModal(input: { usedPinCredits: number; lastShownAt: number | null }, now: number): boolean {
  if (!(input.usedPinCredits >= REFERRAL_MODAL_MIN_USED_CREDITS)) return false;
  if (input.lastShownAt === null || !Number.isFinite(input.lastShownAt)) return true;
  // A last showing in the future (a clock set back) counts as just now.
  return now - input.lastShownAt >= REFERRAL_MODAL_QUIET_DAYS * DAY_MS;
}

/** Why a user cannot claim a free month with a code, in plain words; null when they can. */
export type ClaimRefusal = "own-code" | "already-referred" | "already-customer";

export function claimRefusal(input: { isOwnCode: boolean; alreadyReferred: boolean; hasPlanHistory: boolean }): ClaimRefusal | null {
  if (input.isOwnCode) return "own-code";
  if (input.alreadyReferred) return "already-referred";
  if (input.hasPlanHistory) return "already-customer";
  return null;
}

export const CLAIM_REFUSAL_TEXT: Record<ClaimRefusal, string> = {
  "own-code": "This is your own invite link: share it with a friend instead.",
  "already-referred": "You have already claimed a free month from a friend.",
  "already-customer": "The free month is for new customers, and your account already has a plan.",
};
