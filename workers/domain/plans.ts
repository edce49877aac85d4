/**
 * Plan rules (spec section 4) and the billing month that pin credits are
 * granted for (docs/decisions/013-billing.md). Pure: plain values in, plain
 * values out; times are milliseconds since the epoch.
 */

export const FREE_PLAN_ID = "free";

/** planStatus values: Active; Cancelled (still usable until cancelSubscriptionDate); Inactive. */
export type PlanStatus = "Active" | "Cancelled" | "Inactive";

export interface PlanFacts {
  id: string;
  tier: string;
  billingPeriod: string;
  /** The spec compares it with '0': accept a number or its text. */
  freeTrialDays: number | string;
}

export interface PlanHolder {
  planId: string;
  planStatus: string;
  /** ms, or an ISO date as the credentials carry it; null when not cancelled. */
  cancelSubscriptionDate: number | string | null;
}

function toMs(value: number | string | null): number | null {
  if (value === null) return null;
  const ms = typeof value === "number" ? value : Date.parse(value);
  return Number.isFinite(ms) ? ms : null;
}

/** Spec section 4: a subscription is active when planStatus is 'Active' or the cancel date is in the future. */
export function isSubscriptionActive(user: Omit<PlanHolder, "planId">, now: number): boolean {
  if (user.planStatus === "Active") return true;
  const cancelAt = toMs(user.cancelSubscriptionDate);
  return cancelAt !== null && cancelAt > now;
}

/** The plan whose credits the user gets now: their plan while it is active, otherwise Free. */
export function effectivePlanId(user: PlanHolder, now: number): string {
  return isSubscriptionActive(user, now) ? user.planId : FREE_PLAN_ID;
}

export type PlanButtonLabel = "Start free trial" | "Start Plan";

/**
 * Spec section 4: 'Start free trial' if the plan is not an Agency plan, its free
 * trial days are not '0', and the user is unauthenticated (null) or has not
 * used a free trial; otherwise 'Start Plan'.
 */
export function planButtonLabel(plan: Pick<PlanFacts, "tier" | "freeTrialDays">, user: { usedFreeTrial: boolean } | null): PlanButtonLabel {
  const isAgency = plan.tier === "agency";
  const hasTrial = String(plan.freeTrialDays) !== "0";
  return !isAgency && hasTrial && (user === null || !user.usedFreeTrial) ? "Start free trial" : "Start Plan";
}

/** Free trial days a checkout for this plan gets: the plan's days when the button rule offers a trial, else 0. */
export function trialDaysFor(plan: Pick<PlanFacts, "tier" | "freeTrialDays">, user: { usedFreeTrial: boolean } | null): number {
  if (planButtonLabel(plan, user) !== "Start free trial") return 0;
  const days = Number(plan.freeTrialDays);
  return Number.isInteger(days) && days > 0 ? days : 0;
}

/**
 * How the user's plan status reads (issue 13): a user on Free is on "Free",
 * not "Inactive"; a cancelled plan still running until its date is "Cancelled".
 */
export function planStatusLabel(user: PlanHolder, now: number): "Free" | "Active" | "Cancelled" {
  if (effectivePlanId(user, now) === FREE_PLAN_ID) return "Free";
  return user.planStatus === "Active" ? "Active" : "Cancelled";
}

/** A plan id as people read it: "free" is Free, "pro-annual" is Pro (annual). */
export function planDisplayName(planId: string): string {
  const [tier, period] = planId.split("-");
  const name = tier.charAt(0).toUpperCase() + tier.slice(1);
  return period ? `${name} (${period})` : name;
}

/**
 * What a plan card on /pricing offers (issue 13): never to start the plan the
 * user already has. "current": the user's plan; "signup": Free for a visitor;
 * "fallback": Free for a paying user (theirs again when the paid plan ends);
 * "switch": another plan while a subscription runs, which is switched from
 * Manage subscription (a second subscription is refused); "start": checkout,
 * with the button of spec section 4.
 */
export type PlanCardAction = { kind: "current" } | { kind: "signup" } | { kind: "fallback" } | { kind: "switch" } | { kind: "start"; label: PlanButtonLabel };

export function planCardAction(
  plan: Pick<PlanFacts, "tier" | "billingPeriod" | "freeTrialDays"> & { planId: string },
  user: (PlanHolder & { usedFreeTrial: boolean }) | null,
  hasRunningSubscription: boolean,
  now: number,
): PlanCardAction {
  const isFree = plan.planId === FREE_PLAN_ID;
  if (!user) return isFree ? { kind: "signup" } : { kind: "start", label: planButtonLabel(plan, null) };
  if (effectivePlanId(user, now) === plan.planId) return { kind: "current" };
  if (isFree) return { kind: "fallback" };
  if (hasRunningSubscription && isRecurringPlan(plan)) return { kind: "switch" };
  return { kind: "start", label: planButtonLabel(plan, user) };
}

/** Plans sold as a recurring subscription (monthly or annual). */
export function isRecurringPlan(plan: Pick<PlanFacts, "billingPeriod">): boolean {
  return plan.billingPeriod === "month" || plan.billingPeriod === "year";
}

/** Plans bought once (Lifetime). */
export function isLifetimePlan(plan: Pick<PlanFacts, "billingPeriod">): boolean {
  return plan.billingPeriod === "once";
}

// ---------------------------------------------------------------------------
// Billing months

/**
 * `anchor` moved by `months` calendar months in UTC, keeping the anchor's day
 * of month (clamped to the month's last day) and time of day, the way Stripe
 * steps a monthly billing cycle: Jan 31 -> Feb 28 -> Mar 31.
 */
export function addMonths(anchor: number, months: number): number {
  const a = new Date(anchor);
  const total = a.getUTCMonth() + months;
  const year = a.getUTCFullYear() + Math.floor(total / 12);
  const month = ((total % 12) + 12) % 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return Date.UTC(year, month, Math.min(a.getUTCDate(), lastDay), a.getUTCHours(), a.getUTCMinutes(), a.getUTCSeconds(), a.getUTCMilliseconds());
}

export interface BillingMonth {
  start: number;
  end: number;
}

/** The billing month holding `now`: [anchor + k months, anchor + k+1 months). */
export function billingMonth(anchor: number, now: number): BillingMonth {
  const a = new Date(anchor);
  const n = new Date(now);
  let k = (n.getUTCFullYear() - a.getUTCFullYear()) * 12 + (n.getUTCMonth() - a.getUTCMonth());
  while (addMonths(anchor, k) > now) k -= 1;
  while (addMonths(anchor, k + 1) <= now) k += 1;
  return { start: addMonths(anchor, k), end: addMonths(anchor, k + 1) };
}

// ---------------------------------------------------------------------------
// Plan records (one per subscription or purchase) and the user's plan state

export interface PlanRecord {
  planId: string;
  kind: "subscription" | "lifetime";
  /** The provider's status, e.g. Stripe's active, trialing, past_due, canceled. */
  status: string;
  startedAt: number;
  periodStart: number;
  periodEnd: number | null;
  cancelAtPeriodEnd: boolean;
  endedAt: number | null;
  /** Who keeps the record: a payment provider, or "code" / "referral" for granted months. */
  provider?: string;
  /**
   * A period taken back (decision 077: its payment refunded in full or lost to a dispute): the record gives
   * no plan while its current period starts at or before this one. A later paid period gives it again.
   */
  revokedPeriodStart?: number | null;
  /** The start of the period that opened with a plan change: the record's first, or one a switch of its plan started. */
  changePeriodStart?: number | null;
}

/** Months given (a redeem code, a friend's referral) rather than paid for. */
const GRANTED_PROVIDERS = new Set(["code", "referral"]);

/** Provider statuses that still give access (Stripe keeps retrying a past_due payment). */
const LIVE_STATUSES = new Set(["active", "trialing", "past_due"]);

/** Whether the record's current period was taken back (its payment refunded in full or lost to a dispute). */
export function isRecordRevoked(record: Pick<PlanRecord, "periodStart" | "revokedPeriodStart">): boolean {
  return record.revokedPeriodStart !== undefined && record.revokedPeriodStart !== null && record.revokedPeriodStart >= record.periodStart;
}

/** Whether a record still gives its plan at `now`. */
export function isRecordLive(record: PlanRecord, now: number): boolean {
  if (isRecordRevoked(record)) return false;
  if (!LIVE_STATUSES.has(record.status)) return false;
  if (record.cancelAtPeriodEnd && record.periodEnd !== null && record.periodEnd <= now) return false;
  return true;
}

/**
 * The records newest first, to the second: providers such as Stripe keep whole seconds, so a
 * purchase made in the same second as granted months counts as the newer.
 */
export function newestFirst<T extends PlanRecord>(records: T[]): T[] {
  const granted = (record: PlanRecord) => (record.provider !== undefined && GRANTED_PROVIDERS.has(record.provider) ? 1 : 0);
  const second = (record: PlanRecord) => Math.floor(record.startedAt / 1000);
  return [...records].sort((a, b) => second(b) - second(a) || granted(a) - granted(b) || b.startedAt - a.startedAt);
}

/** The record that decides the user's plan: the newest live one, else the newest. */
export function currentRecord<T extends PlanRecord>(records: T[], now: number): T | null {
  const ordered = newestFirst(records);
  return ordered.find((record) => isRecordLive(record, now)) ?? ordered[0] ?? null;
}

export interface PlanState {
  planId: string;
  planStatus: PlanStatus;
  cancelSubscriptionDate: number | null;
}

/**
 * The user's plan fields from their current record: Active while it runs;
 * Cancelled with the date it ends (or ended) once cancelled; Free and Inactive
 * without any record, or when a payment left it unusable.
 */
export function planStateOf(record: PlanRecord | null, now: number): PlanState {
  if (!record) return { planId: FREE_PLAN_ID, planStatus: "Inactive", cancelSubscriptionDate: null };
  // Taken back: no plan, as if the period had never been bought (the Free month starts at its start, stoppedAt).
  if (isRecordRevoked(record)) return { planId: FREE_PLAN_ID, planStatus: "Inactive", cancelSubscriptionDate: null };
  if (isRecordLive(record, now)) {
    if (record.cancelAtPeriodEnd && record.periodEnd !== null)
      return { planId: record.planId, planStatus: "Cancelled", cancelSubscriptionDate: record.periodEnd };
    return { planId: record.planId, planStatus: "Active", cancelSubscriptionDate: null };
  }
  const endedAt = record.endedAt ?? record.periodEnd;
  if (record.status === "canceled" || record.cancelAtPeriodEnd) return { planId: FREE_PLAN_ID, planStatus: "Cancelled", cancelSubscriptionDate: endedAt };
  return { planId: FREE_PLAN_ID, planStatus: "Inactive", cancelSubscriptionDate: null };
}

/**
 * When a record stopped giving its plan, or null while it gives it (or when
 * it never did): the end of a cancelled period, or the moment the provider
 * stopped it (ended, suspended, frozen: `endedAt`). A period taken back
 * stopped at its start: what its payment bought is gone, the month included.
 */
export function stoppedAt(record: PlanRecord, now: number): number | null {
  if (isRecordRevoked(record)) return record.periodStart;
  if (isRecordLive(record, now)) return null;
  if (record.endedAt !== null) return record.endedAt;
  return record.cancelAtPeriodEnd ? record.periodEnd : null;
}

/**
 * Where the user's billing months are counted from: the current period start
 * of a running subscription (Stripe's), the purchase of a lifetime plan, and
 * for Free the signup anniversary, restarted at the moment a paid plan
 * stopped (ended, or suspended): from then the Free month holds only Free's
 * grant and what was spent since, nothing of the paid month.
 */
export function creditAnchor(
  input: { effectivePlanId: string; record: PlanRecord | null; userCreatedAt: number; cancelSubscriptionDate: number | null },
  now: number,
): number {
  const { record } = input;
  if (input.effectivePlanId !== FREE_PLAN_ID && record && record.planId === input.effectivePlanId) return record.periodStart;
  if (input.effectivePlanId === FREE_PLAN_ID) {
    const stops = [input.cancelSubscriptionDate, record ? stoppedAt(record, now) : null].filter((at): at is number => at !== null && at <= now);
    return Math.max(input.userCreatedAt, ...stops);
  }
  return input.userCreatedAt;
}

export interface CreditMonth extends BillingMonth {
  /**
   * The month begins with a plan change, not a renewal: a plan taken (a subscription's first period, a lifetime
   * purchase, a redeemed or gifted month), a period a switch of plan started (an interval switch), or Free after a
   * paid plan stopped before its period ran out (suspended, frozen, ended early). Such a month counts the spends of
   * the month it interrupted from that month's start (decision 081).
   */
  opensWithChange: boolean;
}

export interface CreditMonthInput {
  effectivePlanId: string;
  record: PlanRecord | null;
  userCreatedAt: number;
  cancelSubscriptionDate: number | null;
}

/** The billing month holding `now` (creditAnchor, billingMonth), and whether it opens with a plan change. */
export function creditMonth(input: CreditMonthInput, now: number): CreditMonth {
  const anchor = creditAnchor(input, now);
  const month = billingMonth(anchor, now);
  return { ...month, opensWithChange: month.start === anchor && opensWithChange(input, anchor, now) };
}

function opensWithChange({ effectivePlanId: planId, record, userCreatedAt }: CreditMonthInput, anchor: number, now: number): boolean {
  if (!record) return false;
  if (planId !== FREE_PLAN_ID) return record.planId === planId && anchor === record.periodStart && anchor === record.changePeriodStart;
  // Free again: a change when the paid plan stopped before the period paid for ran out (suspended, frozen, ended at
  // once); not when a cancellation took effect at the period's end, nor after that period ended.
  const stop = stoppedAt(record, now);
  return stop !== null && stop === anchor && anchor > userCreatedAt && !record.cancelAtPeriodEnd && (record.periodEnd === null || stop < record.periodEnd);
}

/**
 * Where a plan record's period that opened with a plan change starts, from what we knew of it and the provider's new
 * report: a record we did not know is a plan taken, its first period; a period that moved with the plan (an interval
 * switch, which Stripe bills from the moment of the switch) opened with that switch. A renewal (the same plan, a new
 * period) and a trial's end keep what we knew. Decided by what changed, never by how long it took: the providers'
 * test clocks renew at any moment.
 */
export function changePeriodStart(
  known: Pick<PlanRecord, "planId" | "periodStart" | "changePeriodStart"> | null,
  next: Pick<PlanRecord, "planId" | "periodStart">,
): number | null {
  if (!known) return next.periodStart;
  if (next.periodStart !== known.periodStart && next.planId !== known.planId) return next.periodStart;
  return known.changePeriodStart ?? null;
}
