import { database } from "../../db/client.ts";
import { paymentReversals } from "../../db/schema.ts";
import { isTakenBackInFull, type ReversalKind } from "../../domain/payment-reversals.ts";
import type { Env } from "../../env.ts";
import { settleCommissionTakenBack } from "../growth/affiliates.ts";
import { paymentTakenBack, refreshUserPlan, revokePlanPeriod, takenBackWhy } from "./billing.ts";
import { takeBackPaidGrants } from "./credits.ts";
import { referralRefOfPayment, takeBackReferralCredit } from "../growth/referrals.ts";

/**
 * Refunds, disputes and chargebacks (docs/decisions/077-refunds-and-disputes.md), whatever the provider: the
 * provider's handler re-reads the payment and what was taken back of it (each refund, each lost dispute) and
 * reports it here; this records each reversal once and takes back what the payment bought, once: the
 * affiliate's commission (the same share), and when the payment was taken back in full the referrer's credit
 * it earned and the plan period it bought, with that month's paid credits. Every step is idempotent, so the
 * provider's events may come twice, late, or before the payment's own.
 */

export type PaymentProvider = "stripe" | "paypal" | "shopify";

export interface PaymentReversalReport {
  provider: PaymentProvider;
  /** The payment as commissions key it: Stripe invoice or lifetime checkout session, PayPal sale, Shopify interval. */
  paymentRef: string;
  /** Whose payment it was. */
  userId: string;
  paymentCents: number;
  currency: string;
  /** Everything the provider reports taken back of it now: each refund (succeeded), each lost dispute. */
  reversals: { ref: string; kind: ReversalKind; amountCents: number; at: number }[];
  /**
   * The plan record the payment paid for and the start of the period it bought (a lifetime purchase: its
   * date); null when it paid for none of our plans.
   */
  bought: { providerRef: string; periodStart: number } | null;
  /**
   * Ends the subscription at the provider, so it does not bill again; called when the payment was taken back
   * in full, and only ends it when the payment bought its current period (the handler re-reads the provider).
   */
  endSubscription?: () => Promise<void>;
}

export interface PaymentReversalOutcome {
  takenBackCents: number;
  inFull: boolean;
  commissionTakenBackCents: number;
}

export async function applyPaymentReversals(env: Env, report: PaymentReversalReport, now = Date.now()): Promise<PaymentReversalOutcome> {
  const db = database(env.DB);
  if (report.reversals.length > 0) {
    await db
      .insert(paymentReversals)
      .values(
        report.reversals.map((reversal) => ({
          provider: report.provider,
          reversalRef: reversal.ref,
          paymentRef: report.paymentRef,
          userId: report.userId,
          kind: reversal.kind,
          amountCents: reversal.amountCents,
          paymentCents: report.paymentCents,
          currency: report.currency.toLowerCase(),
          reversedAt: reversal.at,
        })),
      )
      .onConflictDoNothing();
  }
  const lost = await paymentTakenBack(env, report.provider, report.paymentRef);
  const commissionTakenBackCents = await settleCommissionTakenBack(env, report.provider, report.paymentRef, now);
  const inFull = isTakenBackInFull(lost.paymentCents, lost.takenBackCents);
  if (inFull) {
    const reason = lost.disputed ? "disputed" : "refunded";
    await takeBackReferralCredit(env, report.userId, referralRefOfPayment(report.provider, report.paymentRef), now);
    if (report.bought) {
      const record = await revokePlanPeriod(env, { provider: report.provider, ...report.bought, paymentRef: report.paymentRef, reason });
      if (record) {
        await refreshUserPlan(env, record.userId, now);
        await takeBackPaidGrants(env, record.userId, record.planId, takenBackWhy(reason), now);
      }
    }
    await report.endSubscription?.();
  }
  return { takenBackCents: lost.takenBackCents, inFull, commissionTakenBackCents };
}
