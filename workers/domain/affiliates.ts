import { addMonths } from "./plans.ts";

/**
 * The affiliate programme's rules (spec section 9, Affiliate; decision 035):
 * 25% of every charge, renewals included, for customers who came through the
 * link within 30 days of the click; nothing on lifetime deals; each commission
 * is held a month, then payable; payouts of at least $100, made on or before
 * the 5th of the month. Amounts are whole cents.
 */
export const COMMISSION_RATE = 0.25;
export const ATTRIBUTION_WINDOW_DAYS = 30;
export const HOLD_MONTHS = 1;
export const MINIMUM_PAYOUT_CENTS = 100_00;
export const PAYOUT_DAY_OF_MONTH = 5;

const DAY_MS = 24 * 60 * 60 * 1000;

/** Whether a click at `clickedAt` still attributes a customer at `now`: 30 days of 24 hours (day 29 counts, day 31 does not). */
export function withinAttributionWindow(clickedAt: number, now: number): boolean {
  return now >= clickedAt && now - clickedAt <= ATTRIBUTION_WINDOW_DAYS * DAY_MS;
}

/** What a charge earns: 25% of what was paid, rounded to the cent; nothing on a lifetime deal, a free or a negative charge. */
export function commissionCents(charge: { amountCents: number; lifetime: boolean }): number {
  if (charge.lifetime || !Number.isFinite(charge.amountCents) || charge.amountCents <= 0) return 0;
  return Math.round(charge.amountCents * COMMISSION_RATE);
}

/** When a commission earned at `chargedAt` stops being held: a calendar month later. */
export function payableAt(chargedAt: number): number {
  return addMonths(chargedAt, HOLD_MONTHS);
}

export interface CommissionFacts {
  commissionCents: number;
  payableAt: number;
  paid: boolean;
}

export interface CommissionTotals {
  pendingCents: number;
  payableCents: number;
  paidCents: number;
}

/** Pending (still held), payable (held a month, not yet paid) and paid commission at `now`. */
export function commissionTotals(rows: CommissionFacts[], now: number): CommissionTotals {
  const totals = { pendingCents: 0, payableCents: 0, paidCents: 0 };
  for (const row of rows) {
    if (row.paid) totals.paidCents += row.commissionCents;
    else if (row.payableAt <= now) totals.payableCents += row.commissionCents;
    else totals.pendingCents += row.commissionCents;
  }
  return totals;
}

/** Whether an affiliate is owed a payout now: at least $100 payable. */
export function payoutDue(payableCents: number): boolean {
  return payableCents >= MINIMUM_PAYOUT_CENTS;
}

/** The payout day (the 5th, UTC) on or after `at`. */
export function payoutDayOnOrAfter(at: number): number {
  const date = new Date(at);
  const thisMonth = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), PAYOUT_DAY_OF_MONTH);
  // The whole of the 5th is still on or before the 5th.
  if (at < thisMonth + DAY_MS) return thisMonth;
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, PAYOUT_DAY_OF_MONTH);
}

/**
 * The next payout day for an affiliate's unpaid commissions: the first 5th on
 * or after the moment $100 of them is payable. Null when the unpaid ones,
 * once all out of their hold, still come to less than $100.
 */
export function nextPayoutDay(rows: CommissionFacts[], now: number): number | null {
  const unpaid = rows.filter((row) => !row.paid).sort((a, b) => a.payableAt - b.payableAt);
  let sum = 0;
  for (const row of unpaid) {
    sum += row.commissionCents;
    if (payoutDue(sum)) return payoutDayOnOrAfter(Math.max(now, row.payableAt));
  }
  return null;
}

/** Month keys ("2026-11", UTC) of the last `count` months up to `now`, oldest first. */
export function lastMonths(now: number, count: number): string[] {
  const date = new Date(now);
  return Array.from({ length: count }, (_, i) => {
    const month = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() - (count - 1 - i), 1));
    return `${month.getUTCFullYear()}-${String(month.getUTCMonth() + 1).padStart(2, "0")}`;
  });
}

/** An affiliate id: the pgref of a link. Letters, digits, - and _, 3 to 40 of them, lower case. */
export const AFFILIATE_ID_PATTERN = /^[a-z0-9][a-z0-9_-]{2,39}$/;

/** A visitor's browser by its user agent: crawlers, previews and scripts are not clicks. */
const BOT_AGENT =
  /bot|crawl|spider|slurp|preview|facebookexternalhit|embedly|curl|wget|python|httpclient|okhttp|java\/|go-http|phantomjs|lighthouse|monitor|scan/i;

export function isBotAgent(userAgent: string | null | undefined): boolean {
  return !userAgent || userAgent.trim().length < 10 || BOT_AGENT.test(userAgent);
}
