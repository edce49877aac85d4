import { describe, expect, it } from "vitest";
import {
  boughtCurrentPeriod,
  commissionTakenBack,
  isPayPalDisputeLost,
  isStripeDisputeLost,
  isTakenBackInFull,
  planTakenBackNotice,
  takenBackCents,
} from "../../../workers/domain/payment-reversals.ts";
import { billingMonth, creditAnchor, currentRecord, isRecordLive, planStateOf, stoppedAt, type PlanRecord } from "../../../workers/domain/plans.ts";

// What a refund or a lost dispute takes back (decision 077).

describe("what a payment lost", () => {
  it("adds its refunds and lost disputes up, never past the payment", () => {
    expect(takenBackCents(2999, [])).toBe(0);
    expect(takenBackCents(2999, [1000, 500])).toBe(1500);
    // A lost dispute after a partial refund (PayPal reports both the refund and the reversed sale): capped.
    expect(takenBackCents(2999, [1000, 2999])).toBe(2999);
    expect(isTakenBackInFull(2999, 2999)).toBe(true);
    expect(isTakenBackInFull(2999, 2998)).toBe(false);
    expect(isTakenBackInFull(0, 0)).toBe(false);
  });

  it("takes back the same share of the commission, all of it when the payment is gone", () => {
    expect(commissionTakenBack(750, 2999, 2999)).toBe(750);
    expect(commissionTakenBack(750, 2999, 1500)).toBe(375);
    expect(commissionTakenBack(425, 1699, 1)).toBe(0);
    expect(commissionTakenBack(0, 24900, 24900)).toBe(0);
  });

  it("counts a dispute only once it is lost", () => {
    for (const status of ["warning_needs_response", "needs_response", "under_review", "won", "warning_closed"]) expect(isStripeDisputeLost(status)).toBe(false);
    expect(isStripeDisputeLost("lost")).toBe(true);
    expect(isPayPalDisputeLost({ status: "OPEN" })).toBe(false);
    expect(isPayPalDisputeLost({ status: "RESOLVED", dispute_outcome: { outcome_code: "RESOLVED_SELLER_FAVOUR" } })).toBe(false);
    expect(isPayPalDisputeLost({ status: "RESOLVED", dispute_outcome: { outcome_code: "RESOLVED_BUYER_FAVOUR" } })).toBe(true);
  });

  it("ends a subscription only for the payment of its current period", () => {
    expect(boughtCurrentPeriod(1_000, 1_000)).toBe(true);
    expect(boughtCurrentPeriod(900, 1_000)).toBe(false);
  });

  it("tells the user in plain words", () => {
    expect(planTakenBackNotice("Pro", "refunded", "5 December 2026")).toBe(
      "Your Pro plan ended on 5 December 2026 because its payment was refunded. You are on the Free plan now.",
    );
    expect(planTakenBackNotice("Lifetime", "disputed", "5 December 2026")).toContain("because its payment was disputed and returned to you");
  });
});

describe("a plan record whose period was taken back", () => {
  const now = Date.UTC(2026, 11, 10);
  const periodStart = Date.UTC(2026, 11, 1);
  const record: PlanRecord = {
    planId: "pro-monthly",
    kind: "subscription",
    status: "active",
    startedAt: Date.UTC(2026, 10, 1),
    periodStart,
    periodEnd: Date.UTC(2027, 0, 1),
    cancelAtPeriodEnd: false,
    endedAt: null,
    provider: "stripe",
  };

  it("gives no plan, and its Free month is the paid month it replaces", () => {
    const revoked = { ...record, revokedPeriodStart: periodStart };
    expect(isRecordLive(revoked, now)).toBe(false);
    expect(planStateOf(revoked, now)).toEqual({ planId: "free", planStatus: "Inactive", cancelSubscriptionDate: null });
    expect(stoppedAt(revoked, now)).toBe(periodStart);
    const anchor = creditAnchor({ effectivePlanId: "free", record: revoked, userCreatedAt: Date.UTC(2026, 0, 1), cancelSubscriptionDate: null }, now);
    expect(billingMonth(anchor, now)).toEqual(billingMonth(periodStart, now));
  });

  it("gives its plan again for a later period paid for, and an earlier period's refund takes nothing", () => {
    expect(isRecordLive({ ...record, revokedPeriodStart: Date.UTC(2026, 10, 1) }, now)).toBe(true);
    expect(currentRecord([{ ...record, revokedPeriodStart: null }], now)?.planId).toBe("pro-monthly");
  });
});
