import { describe, expect, it } from "vitest";
import { PLAN_ROWS } from "../../../workers/db/seed-data.ts";
import {
  addMonths,
  billingMonth,
  creditAnchor,
  creditMonth,
  currentRecord,
  effectivePlanId,
  isSubscriptionActive,
  planButtonLabel,
  changePeriodStart,
  planStateOf,
  trialDaysFor,
  type PlanRecord,
} from "../../../workers/domain/plans.ts";

const NOW = Date.UTC(2026, 10, 15, 12, 0, 0);
const DAY = 86_400_000;
const plan = (id: string) => {
  const row = PLAN_ROWS.find((candidate) => candidate.id === id);
  if (!row) throw new Error(`no plan ${id}`);
  return row;
};

describe("subscription active (spec section 4)", () => {
  it("is active when planStatus is 'Active', whatever the cancel date", () => {
    expect(isSubscriptionActive({ planStatus: "Active", cancelSubscriptionDate: null }, NOW)).toBe(true);
    expect(isSubscriptionActive({ planStatus: "Active", cancelSubscriptionDate: NOW - DAY }, NOW)).toBe(true);
  });

  it("is active while a cancelled subscription's date is in the future, and not after", () => {
    expect(isSubscriptionActive({ planStatus: "Cancelled", cancelSubscriptionDate: NOW + DAY }, NOW)).toBe(true);
    expect(isSubscriptionActive({ planStatus: "Cancelled", cancelSubscriptionDate: new Date(NOW + 60_000).toISOString() }, NOW)).toBe(true);
    expect(isSubscriptionActive({ planStatus: "Cancelled", cancelSubscriptionDate: NOW }, NOW)).toBe(false);
    expect(isSubscriptionActive({ planStatus: "Cancelled", cancelSubscriptionDate: NOW - 1 }, NOW)).toBe(false);
    expect(isSubscriptionActive({ planStatus: "Inactive", cancelSubscriptionDate: null }, NOW)).toBe(false);
    expect(isSubscriptionActive({ planStatus: "Cancelled", cancelSubscriptionDate: "not a date" }, NOW)).toBe(false);
  });

  it("gives the plan's credits only while active, Free credits otherwise", () => {
    expect(effectivePlanId({ planId: "pro-monthly", planStatus: "Active", cancelSubscriptionDate: null }, NOW)).toBe("pro-monthly");
    expect(effectivePlanId({ planId: "pro-monthly", planStatus: "Cancelled", cancelSubscriptionDate: NOW + DAY }, NOW)).toBe("pro-monthly");
    expect(effectivePlanId({ planId: "pro-monthly", planStatus: "Cancelled", cancelSubscriptionDate: NOW - DAY }, NOW)).toBe("free");
    expect(effectivePlanId({ planId: "starter-monthly", planStatus: "Inactive", cancelSubscriptionDate: null }, NOW)).toBe("free");
  });
});

describe("plan button (spec section 4)", () => {
  it("offers a free trial on Starter, Pro and Growth to visitors and to users who have not used one", () => {
    for (const id of ["starter-monthly", "starter-annual", "pro-monthly", "pro-annual", "growth-monthly", "growth-annual"]) {
      expect(planButtonLabel(plan(id), null)).toBe("Start free trial");
      expect(planButtonLabel(plan(id), { usedFreeTrial: false })).toBe("Start free trial");
      expect(trialDaysFor(plan(id), { usedFreeTrial: false })).toBe(7);
    }
  });

  it("says 'Start Plan' once the trial was used", () => {
    expect(planButtonLabel(plan("starter-monthly"), { usedFreeTrial: true })).toBe("Start Plan");
    expect(trialDaysFor(plan("starter-monthly"), { usedFreeTrial: true })).toBe(0);
  });

  it("never offers a trial on Agency plans, even with trial days", () => {
    expect(planButtonLabel(plan("agency-monthly"), null)).toBe("Start Plan");
    expect(planButtonLabel({ tier: "agency", freeTrialDays: 7 }, { usedFreeTrial: false })).toBe("Start Plan");
    expect(trialDaysFor({ tier: "agency", freeTrialDays: 7 }, null)).toBe(0);
  });

  it("says 'Start Plan' when the plan's free trial days are '0'", () => {
    expect(planButtonLabel({ tier: "pro", freeTrialDays: "0" }, null)).toBe("Start Plan");
    expect(planButtonLabel({ tier: "pro", freeTrialDays: 0 }, { usedFreeTrial: false })).toBe("Start Plan");
    expect(planButtonLabel({ tier: "pro", freeTrialDays: "14" }, null)).toBe("Start free trial");
    expect(trialDaysFor({ tier: "pro", freeTrialDays: "14" }, null)).toBe(14);
  });

  it("matches the seeded plans: 7-day trials on Starter, Pro and Growth only", () => {
    const trials = Object.fromEntries(PLAN_ROWS.map((row) => [row.id, row.freeTrialDays]));
    expect(trials).toMatchObject({ "starter-monthly": 7, "pro-annual": 7, "growth-monthly": 7, "agency-monthly": 0, "agency-annual": 0, free: 0, lifetime: 0 });
    const credits = Object.fromEntries(PLAN_ROWS.map((row) => [row.id, row.creditsPerMonth]));
    expect(credits).toEqual({
      free: 10,
      "starter-monthly": 150,
      "starter-annual": 150,
      "pro-monthly": 400,
      "pro-annual": 400,
      "growth-monthly": 1000,
      "growth-annual": 1000,
      "agency-monthly": 3000,
      "agency-annual": 3000,
      lifetime: 400,
    });
    expect(PLAN_ROWS.filter((row) => row.id !== "free").every((row) => row.stripePriceId?.startsWith("price_"))).toBe(true);
  });
});

describe("billing months", () => {
  it("steps calendar months from the anchor, keeping its day and time (clamped to short months)", () => {
    const jan31 = Date.UTC(2027, 0, 31, 9, 30);
    expect(new Date(addMonths(jan31, 1)).toISOString()).toBe("2027-02-28T09:30:00.000Z");
    expect(new Date(addMonths(jan31, 2)).toISOString()).toBe("2027-03-31T09:30:00.000Z");
    expect(new Date(addMonths(Date.UTC(2028, 0, 31), 1)).toISOString()).toBe("2028-02-29T00:00:00.000Z");
    expect(new Date(addMonths(jan31, 12)).toISOString()).toBe("2028-01-31T09:30:00.000Z");
    expect(new Date(addMonths(jan31, -2)).toISOString()).toBe("2026-11-30T09:30:00.000Z");
  });

  it("finds the month holding now: start inclusive, end exclusive", () => {
    const anchor = Date.UTC(2026, 0, 10, 8);
    const month = billingMonth(anchor, NOW);
    expect(new Date(month.start).toISOString()).toBe("2026-11-10T08:00:00.000Z");
    expect(new Date(month.end).toISOString()).toBe("2026-12-10T08:00:00.000Z");
    const atBoundary = billingMonth(anchor, Date.UTC(2026, 11, 10, 8));
    expect(new Date(atBoundary.start).toISOString()).toBe("2026-12-10T08:00:00.000Z");
    const justBefore = billingMonth(anchor, Date.UTC(2026, 11, 10, 8) - 1);
    expect(new Date(justBefore.start).toISOString()).toBe("2026-11-10T08:00:00.000Z");
  });

  it("gives an annual subscription monthly credit months inside its year", () => {
    const yearStart = Date.UTC(2026, 2, 1);
    const month = billingMonth(yearStart, Date.UTC(2026, 7, 20));
    expect(new Date(month.start).toISOString()).toBe("2026-08-01T00:00:00.000Z");
    expect(new Date(month.end).toISOString()).toBe("2026-09-01T00:00:00.000Z");
  });

  it("anchors Free on the signup anniversary, restarted when a paid plan ended; a paid plan on its period start", () => {
    const signup = Date.UTC(2026, 0, 5);
    expect(creditAnchor({ effectivePlanId: "free", record: null, userCreatedAt: signup, cancelSubscriptionDate: null }, NOW)).toBe(signup);
    const ended = Date.UTC(2026, 9, 20);
    expect(creditAnchor({ effectivePlanId: "free", record: null, userCreatedAt: signup, cancelSubscriptionDate: ended }, NOW)).toBe(ended);
    const record: PlanRecord = {
      planId: "pro-monthly",
      kind: "subscription",
      status: "active",
      startedAt: signup,
      periodStart: Date.UTC(2026, 10, 2),
      periodEnd: Date.UTC(2026, 11, 2),
      cancelAtPeriodEnd: false,
      endedAt: null,
    };
    expect(creditAnchor({ effectivePlanId: "pro-monthly", record, userCreatedAt: signup, cancelSubscriptionDate: null }, NOW)).toBe(Date.UTC(2026, 10, 2));
  });
});

describe("credit months that open with a plan change (decision 081)", () => {
  const signup = Date.UTC(2026, 0, 5);
  const paid = (fields: Partial<PlanRecord>): PlanRecord => ({
    planId: "pro-monthly",
    kind: "subscription",
    status: "active",
    startedAt: NOW - 2 * DAY,
    periodStart: NOW - 2 * DAY,
    periodEnd: addMonths(NOW - 2 * DAY, 1),
    cancelAtPeriodEnd: false,
    endedAt: null,
    ...fields,
  });
  const onPlan = (record: PlanRecord) => ({ effectivePlanId: record.planId, record, userCreatedAt: signup, cancelSubscriptionDate: null });

  it("a plan's first period opens with a change; its renewals and a trial's end do not, however soon a test clock brings them", () => {
    const first = paid({ changePeriodStart: NOW - 2 * DAY });
    expect(creditMonth(onPlan(first), NOW)).toMatchObject({ start: NOW - 2 * DAY, opensWithChange: true });
    // Renewed at once by a provider's test clock: the same plan, a new period.
    const renewedAt = NOW - DAY;
    expect(changePeriodStart(first, { planId: "pro-monthly", periodStart: renewedAt })).toBe(NOW - 2 * DAY);
    expect(creditMonth(onPlan(paid({ periodStart: renewedAt, changePeriodStart: NOW - 2 * DAY })), NOW).opensWithChange).toBe(false);
    // A record we did not know is a plan taken: its first period.
    expect(changePeriodStart(null, { planId: "pro-monthly", periodStart: NOW })).toBe(NOW);
    // A lifetime plan's later months.
    const lifetime = paid({
      planId: "lifetime",
      kind: "lifetime",
      startedAt: NOW - 50 * DAY,
      periodStart: NOW - 50 * DAY,
      periodEnd: null,
      changePeriodStart: NOW - 50 * DAY,
    });
    expect(creditMonth(onPlan(lifetime), NOW)).toMatchObject({ start: addMonths(NOW - 50 * DAY, 1), opensWithChange: false });
    // Records from before decision 081 know no change.
    expect(creditMonth(onPlan(paid({})), NOW).opensWithChange).toBe(false);
  });

  it("a period a switch of plan started (an interval switch) opens with a change; later renewals do not", () => {
    const known = paid({ startedAt: NOW - 40 * DAY, periodStart: NOW - 10 * DAY, periodEnd: NOW + 20 * DAY, changePeriodStart: NOW - 40 * DAY });
    expect(changePeriodStart(known, { planId: "pro-annual", periodStart: NOW - DAY })).toBe(NOW - DAY);
    // A switch within the interval keeps the period: nothing opens.
    expect(changePeriodStart(known, { planId: "growth-monthly", periodStart: NOW - 10 * DAY })).toBe(NOW - 40 * DAY);
    const switched = paid({
      planId: "pro-annual",
      startedAt: NOW - 40 * DAY,
      periodStart: NOW - DAY,
      periodEnd: addMonths(NOW - DAY, 12),
      changePeriodStart: NOW - DAY,
    });
    expect(creditMonth(onPlan(switched), NOW).opensWithChange).toBe(true);
    expect(creditMonth(onPlan(switched), addMonths(NOW - DAY, 1) + DAY).opensWithChange).toBe(false);
  });

  it("Free after a paid plan stopped early (suspended) opens with a change; Free after the period paid for ended does not", () => {
    const suspendedAt = NOW - DAY;
    const suspended = paid({ status: "suspended", startedAt: NOW - 10 * DAY, periodStart: NOW - 10 * DAY, periodEnd: NOW + 20 * DAY, endedAt: suspendedAt });
    expect(creditMonth({ effectivePlanId: "free", record: suspended, userCreatedAt: signup, cancelSubscriptionDate: null }, NOW)).toMatchObject({
      start: suspendedAt,
      opensWithChange: true,
    });
    const ran = paid({ cancelAtPeriodEnd: true, startedAt: NOW - 40 * DAY, periodStart: NOW - 40 * DAY, periodEnd: NOW - 10 * DAY });
    expect(creditMonth({ effectivePlanId: "free", record: ran, userCreatedAt: signup, cancelSubscriptionDate: NOW - 10 * DAY }, NOW)).toMatchObject({
      start: NOW - 10 * DAY,
      opensWithChange: false,
    });
    expect(creditMonth({ effectivePlanId: "free", record: null, userCreatedAt: signup, cancelSubscriptionDate: null }, NOW).opensWithChange).toBe(false);
  });
});

describe("plan state from plan records", () => {
  const record = (fields: Partial<PlanRecord>): PlanRecord => ({
    planId: "starter-monthly",
    kind: "subscription",
    status: "active",
    startedAt: NOW - 10 * DAY,
    periodStart: NOW - 10 * DAY,
    periodEnd: NOW + 20 * DAY,
    cancelAtPeriodEnd: false,
    endedAt: null,
    ...fields,
  });

  it("is Active while a subscription runs (trialing and past_due included)", () => {
    expect(planStateOf(record({}), NOW)).toEqual({ planId: "starter-monthly", planStatus: "Active", cancelSubscriptionDate: null });
    expect(planStateOf(record({ status: "trialing" }), NOW).planStatus).toBe("Active");
    expect(planStateOf(record({ status: "past_due" }), NOW).planStatus).toBe("Active");
  });

  it("is Cancelled with the period end while a cancellation waits, then Free", () => {
    const cancelling = record({ cancelAtPeriodEnd: true });
    expect(planStateOf(cancelling, NOW)).toEqual({ planId: "starter-monthly", planStatus: "Cancelled", cancelSubscriptionDate: NOW + 20 * DAY });
    const ended = record({ status: "canceled", cancelAtPeriodEnd: true, endedAt: NOW - DAY });
    expect(planStateOf(ended, NOW)).toEqual({ planId: "free", planStatus: "Cancelled", cancelSubscriptionDate: NOW - DAY });
    expect(planStateOf(null, NOW)).toEqual({ planId: "free", planStatus: "Inactive", cancelSubscriptionDate: null });
    expect(planStateOf(record({ status: "unpaid" }), NOW)).toEqual({ planId: "free", planStatus: "Inactive", cancelSubscriptionDate: null });
  });

  it("takes the newest live record, so a late report about an old subscription changes nothing", () => {
    const old = record({ planId: "starter-monthly", status: "canceled", startedAt: NOW - 60 * DAY, endedAt: NOW - 30 * DAY });
    const current = record({ planId: "pro-monthly", startedAt: NOW - 20 * DAY });
    expect(currentRecord([current, old], NOW)?.planId).toBe("pro-monthly");
    expect(currentRecord([old, current], NOW)?.planId).toBe("pro-monthly");
    const lifetime = record({ planId: "lifetime", kind: "lifetime", periodEnd: null, startedAt: NOW - 90 * DAY });
    expect(currentRecord([old, lifetime], NOW)?.planId).toBe("lifetime");
    expect(currentRecord([], NOW)).toBeNull();
  });

  it("lets a purchase made in the same second as granted months decide the plan", () => {
    // The claim is kept to the millisecond, Stripe's purchase to the second.
    const freeMonth = record({ planId: "starter-monthly", provider: "referral", startedAt: Math.floor(NOW / 1000) * 1000 + 700 });
    const lifetime = record({ planId: "lifetime", kind: "lifetime", periodEnd: null, provider: "stripe", startedAt: Math.floor(NOW / 1000) * 1000 });
    expect(currentRecord([freeMonth, lifetime], NOW)?.planId).toBe("lifetime");
    expect(currentRecord([lifetime, freeMonth], NOW)?.planId).toBe("lifetime");
    const redeemed = record({ planId: "pro-monthly", provider: "code", startedAt: NOW });
    expect(currentRecord([redeemed, record({ provider: "paypal", startedAt: NOW })], NOW)?.planId).toBe("starter-monthly");
  });
});
