/**
 * Refunds, disputes and chargebacks (docs/decisions/077-refunds-and-disputes.md): what a payment taken back
 * takes back. Pure: plain values in, plain values out; amounts are whole cents, times ms.
 *
 * - A payment's reversals (each refund, each lost dispute) add up to what it lost, never more than it was.
 * - Lost in full: the commission goes back whole, the referrer's credit goes back when this payment earned
 *   it, and when it bought the plan's current period (a lifetime purchase always has) the plan stops as
 *   from that period's start, its month's paid credits with it.
 * - Lost in part (a partial refund): the same share of the commission goes back; the plan, its credits and
 *   the referral credit stay.
 * - An open dispute takes nothing back; a won one (the funds reinstated) never took anything.
 */

export type ReversalKind = "refund" | "dispute";
/** Why a plan stopped, as the user is told: "refunded" or "disputed". */
export type TakeBackReason = "refunded" | "disputed";

/** What a payment lost: its reversals added up, at most the payment. */
export function takenBackCents(paymentCents: number, reversalCents: readonly number[]): number {
  const sum = reversalCents.reduce((total, cents) => total + Math.max(0, cents), 0);
  return Math.max(0, Math.min(paymentCents, sum));
}

/** Whether the payment was taken back in full. */
export function isTakenBackInFull(paymentCents: number, takenBack: number): boolean {
  return paymentCents > 0 && takenBack >= paymentCents;
}

/** The part of a commission that goes back when `takenBack` of `paymentCents` was taken back: the same share, rounded to the cent. */
export function commissionTakenBack(commissionCents: number, paymentCents: number, takenBack: number): number {
  if (commissionCents <= 0 || paymentCents <= 0 || takenBack <= 0) return 0;
  if (takenBack >= paymentCents) return commissionCents;
  return Math.round((commissionCents * takenBack) / paymentCents);
}

/** A Stripe dispute that takes the payment back: lost (the merchant accepted it, or the bank decided for the customer). */
export function isStripeDisputeLost(status: string): boolean {
  return status === "lost";
}

/** A PayPal dispute that takes the payment back: resolved in the buyer's favour. */
export function isPayPalDisputeLost(dispute: { status?: string; dispute_outcome?: { outcome_code?: string } }): boolean {
  return dispute.status === "RESOLVED" && dispute.dispute_outcome?.outcome_code === "RESOLVED_BUYER_FAVOUR";
}

/**
 * Whether the payment bought the subscription's current period as the provider reports it now: its period
 * starts no earlier than the current one. A payment of an earlier period takes back only its commission and
 * referral credit: the time it bought is over, and a later payment bought the time the plan runs on.
 */
export function boughtCurrentPeriod(paymentPeriodStart: number, currentPeriodStart: number): boolean {
  return paymentPeriodStart >= currentPeriodStart;
}

/** The sentence that tells a user why their plan ended (plain words: their plan's name, the date in their time zone). */
export function planTakenBackNotice(planName: string, reason: TakeBackReason, date: string): string {
  const why = reason === "refunded" ? "its payment was refunded" : "its payment was disputed and returned to you";
  return `Your ${planName} plan ended on ${date} because ${why}. You are on the Free plan now.`;
}
