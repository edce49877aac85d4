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
export type ClaimRefusal = "own-code" | "already-referred" | "already-customer" | "email-not-verified" | "mailbox-already-claimed";

/**
 * The claim's rules, in the order they are told (decision 079): facts of the account itself first; then
 * a verified address, since only a verified address says whose mailbox this is; then the mailbox rules,
 * never told to an unverified account (they would tell a stranger whose inbox a code or a claim belongs to).
 */
export function claimRefusal(input: {
  isOwnCode: boolean;
  alreadyReferred: boolean;
  hasPlanHistory: boolean;
  emailVerified: boolean;
  /** The referrer's address is an alias of the caller's (same canonical mailbox). */
  isOwnMailbox: boolean;
  /** The caller's mailbox already had a free month, under any account, ever. */
  mailboxClaimed: boolean;
}): ClaimRefusal | null {
  if (input.isOwnCode) return "own-code";
  if (input.alreadyReferred) return "already-referred";
  if (input.hasPlanHistory) return "already-customer";
  if (!input.emailVerified) return "email-not-verified";
  if (input.isOwnMailbox) return "own-code";
  if (input.mailboxClaimed) return "mailbox-already-claimed";
  return null;
}

export const CLAIM_REFUSAL_TEXT: Record<ClaimRefusal, string> = {
  "own-code": "This is your own invite link: share it with a friend instead.",
  "already-referred": "You have already claimed a free month from a friend.",
  "already-customer": "The free month is for new customers, and your account already has a plan.",
  "email-not-verified": "Please verify your e-mail address first: open the link we e-mailed you, then claim your free month.",
  "mailbox-already-claimed":
    "A free month was already claimed with this e-mail inbox. It is given once per inbox, and addresses that differ only by dots or a +tag are the same inbox.",
};
