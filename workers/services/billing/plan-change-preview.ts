import type { PlanChangePreview, PlanInfo } from "../../../contracts/billing/plans-api.ts";
import { listPlans } from "./lifetime.ts";
import {
  addMonths,
  creditMonth,
  currentRecord,
  FREE_PLAN_ID,
  isLifetimePlan,
  isRecordLive,
  isRecurringPlan,
  planStateOf,
  trialDaysFor,
  type PlanRecord,
} from "../../domain/plans.ts";
import type { Env } from "../../env.ts";
import type { RequestMeta, User } from "../accounts/accounts.ts";
import { planRecordsOf, type PlanRecordRow } from "./billing.ts";
import { creditsAfterChange } from "./credits.ts";
import { ServiceError } from "../core/errors.ts";
import { redeemableCode, redeemedRecord } from "./redeem-codes.ts";

/**
 * What taking a plan, or redeeming a code, would do before the user pays (issue 37, decision 082): the same rules
 * that will apply (currentRecord, creditMonth, the credit month's totals) run on the user's plan records with the
 * change added, so the words say what will happen: which plan ends, pauses or keeps billing, the credits a month
 * from then, and that the credits used this month still count (decision 081). Writes nothing.
 */

const DAY = 86_400_000;

type Target = { planId: string; via: "plan" } | { redemptionCode: string; via: "code" };

export async function planChangePreview(
  env: Env,
  user: User,
  target: Target,
  meta: Pick<RequestMeta, "ip">,
  timeZone = "UTC",
  now = Date.now(),
): Promise<PlanChangePreview> {
  const [plans, records] = await Promise.all([listPlans(env), planRecordsOf(env, user.id)]);
  const planOf = (id: string) => plans.find((plan) => plan.planId === id);
  const current = currentRecord(records, now);
  const live = current && isRecordLive(current, now) ? current : null;
  const change = await changeRecord(env, user, target, live, planOf, meta, now);
  const next = planOf(change.record.planId);
  if (!next) throw new ServiceError(404, "No such plan");

  const after = [...records.filter((record) => record !== change.replaces), change.record];
  const afterRecord = currentRecord(after, now);
  const state = planStateOf(afterRecord, now);
  const afterPlan = planOf(state.planId) ?? next;
  const month = creditMonth(
    { effectivePlanId: state.planId, record: afterRecord, userCreatedAt: user.createdAt, cancelSubscriptionDate: state.cancelSubscriptionDate },
    now,
  );
  const credits = await creditsAfterChange(env, user.id, { planId: afterPlan.planId, creditsPerMonth: afterPlan.creditsPerMonth, ...month }, now);

  const nowPlan = planOf(live?.planId ?? FREE_PLAN_ID);
  const date = (ms: number) => new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone }).format(new Date(ms));
  const whatEnds = currentPlanOutcome({
    live,
    change,
    takesOver: afterRecord === change.record,
    nextName: next.planName,
    name: nowPlan?.planName ?? "Free",
    nowCredits: nowPlan?.creditsPerMonth ?? 0,
    date,
  });
  // A switch within the month keeps what the month granted (a downgrade takes nothing back): the new amount applies from the next month.
  const keeps = credits.sameMonth && credits.remaining + credits.usedPinCredits > afterPlan.creditsPerMonth;
  const creditWords = keeps
    ? `you keep the ${count(credits.remaining)} credits left this month (the ${count(credits.usedPinCredits)} you used count), and have ${count(afterPlan.creditsPerMonth)} credits a month from ${date(month.end)}`
    : credits.usedPinCredits > 0
      ? `you will have ${count(afterPlan.creditsPerMonth)} credits a month from then, and the ${count(credits.usedPinCredits)} credits you used this month still count: ${count(credits.remaining)} left this month`
      : `you will have ${count(afterPlan.creditsPerMonth)} credits a month from then`;
  return {
    planId: next.planId,
    planName: next.planName,
    creditsPerMonth: next.creditsPerMonth,
    current: {
      planId: nowPlan?.planId ?? FREE_PLAN_ID,
      planName: nowPlan?.planName ?? "Free",
      creditsPerMonth: nowPlan?.creditsPerMonth ?? 0,
      kind: kindOf(live),
    },
    usedThisMonth: credits.usedPinCredits,
    remainingThisMonth: credits.remaining,
    message: `${whatEnds}; ${creditWords}.`,
    confirm: live !== null || credits.usedPinCredits > 0,
  };
}

interface Change {
  record: PlanRecord;
  /** The record the change alters (a switch of a running subscription), or null when it adds one. */
  replaces: PlanRecordRow | null;
  /** A redeemed code's months (null: for good). */
  months?: number | null;
}

/** The plan record the change would be: a redeemed code, a lifetime purchase, a switch of the running subscription, or a new subscription. */
async function changeRecord(
  env: Env,
  user: User,
  target: Target,
  live: PlanRecordRow | null,
  planOf: (id: string) => PlanInfo | undefined,
  meta: Pick<RequestMeta, "ip">,
  now: number,
): Promise<Change> {
  if (target.via === "code") {
    const { code, plan, months } = await redeemableCode(env, user.id, target.redemptionCode, meta, now);
    return { record: { ...redeemedRecord(code, plan, months, now), changePeriodStart: now }, replaces: null, months };
  }
  const plan = planOf(target.planId);
  if (!plan) throw new ServiceError(404, "No such plan");
  if (plan.planId === FREE_PLAN_ID || plan.billingPeriod === "none") throw new ServiceError(400, "planId must be a paid plan", "planId");
  if (live?.planId === plan.planId && live.provider !== "code" && live.provider !== "referral")
    throw new ServiceError(409, `You already have the ${plan.planName} plan.`);
  const base = { planId: plan.planId, status: "active", startedAt: now, periodStart: now, changePeriodStart: now, cancelAtPeriodEnd: false, endedAt: null };
  if (isLifetimePlan(plan)) return { record: { ...base, kind: "lifetime", periodEnd: null, provider: "stripe" }, replaces: null };
  if (!isRecurringPlan(plan)) throw new ServiceError(400, "planId must be a monthly, annual or lifetime plan", "planId");
  const months = plan.billingPeriod === "year" ? 12 : 1;
  const running = live && live.kind === "subscription" && live.provider !== "code" && live.provider !== "referral" ? live : null;
  if (running?.provider === "shopify") {
    throw new ServiceError(409, "Your plan is billed to your Shopify store. To change plan, cancel it and pick the new plan with Shopify.");
  }
  if (running) {
    // A switch of the running subscription (Manage subscription): Stripe bills another interval from now.
    const interval = planOf(running.planId)?.billingPeriod;
    const restarts = running.provider === "stripe" && interval !== plan.billingPeriod;
    const switched: PlanRecord = restarts
      ? { ...running, planId: plan.planId, cancelAtPeriodEnd: false, periodStart: now, periodEnd: addMonths(now, months), changePeriodStart: now }
      : { ...running, planId: plan.planId, cancelAtPeriodEnd: false };
    return { record: switched, replaces: running };
  }
  const trialDays = trialDaysFor(plan, user);
  const periodEnd = trialDays > 0 ? now + trialDays * DAY : addMonths(now, months);
  return { record: { ...base, kind: "subscription", status: trialDays > 0 ? "trialing" : "active", periodEnd, provider: "stripe" }, replaces: null };
}

function kindOf(record: PlanRecord | null): PlanChangePreview["current"]["kind"] {
  if (!record) return "free";
  if (record.provider === "code") return record.kind === "lifetime" ? "lifetime" : "redeemed";
  if (record.provider === "referral") return "gift";
  return record.kind;
}

const count = (credits: number) => credits.toLocaleString("en-US", { maximumFractionDigits: 1 });

/** What becomes of the plan the user has now, in words (the first half of the message). */
function currentPlanOutcome(input: {
  live: PlanRecordRow | null;
  change: Change;
  takesOver: boolean;
  nextName: string;
  /** The plan the user has now: its name and credits a month. */
  name: string;
  nowCredits: number;
  date: (ms: number) => string;
}): string {
  const { live, change, takesOver, nextName, name, nowCredits, date } = input;
  const perMonth = `${count(nowCredits)} credits a month`;
  const redeemed = change.record.provider === "code";
  const incoming = !redeemed ? nextName : `the redeemed ${nextName} ${change.months === null ? "plan" : change.months === 1 ? "month" : "months"}`;
  // "takes" or "take": a few redeemed months are many.
  const s = redeemed && change.months !== null && change.months !== undefined && change.months > 1 ? "" : "s";
  if (!live) return `You move from Free (${perMonth}) to ${incoming}`;
  if (change.replaces === live) {
    return live.provider === "paypal"
      ? `Your ${name} subscription switches to ${nextName} once PayPal has it (a dearer plan needs your approval in PayPal)`
      : `Your ${name} subscription switches to ${nextName} now, and the price difference for the rest of this period is charged (or credited) at once`;
  }
  if (!takesOver) return `Your ${name} plan stays your plan`;
  const kind = kindOf(live);
  if (kind === "redeemed" || kind === "gift") {
    const months = monthsBetween(live.periodStart, live.periodEnd ?? live.periodStart);
    const what = `${kind === "redeemed" ? "redeemed" : "gifted"} ${name} ${months === 1 ? "month" : "months"}`;
    return `Your ${what} (${perMonth}, ${months === 1 ? "ends" : "end"} ${date(live.periodEnd ?? live.periodStart)}) ${months === 1 ? "ends" : "end"} when ${incoming} start${s}`;
  }
  if (kind === "lifetime") {
    const back =
      change.record.periodEnd !== null && change.record.cancelAtPeriodEnd ? `comes back on ${date(change.record.periodEnd)}` : "comes back when it ends";
    return `Your ${name} plan (${perMonth}) pauses while ${incoming} run${s}, and ${back}`;
  }
  if (live.cancelAtPeriodEnd && live.periodEnd !== null)
    return `Your ${name} subscription (${perMonth}, cancelled, ends ${date(live.periodEnd)}) gives way to ${incoming} from today`;
  const until = redeemed && change.record.periodEnd !== null ? `until ${date(change.record.periodEnd)}` : "as your plan from today";
  return `Your ${name} subscription (${perMonth}) is not cancelled by this: it keeps billing you until you cancel it under Manage subscription, and ${incoming} take${s} its place ${until}`;
}

function monthsBetween(start: number, end: number): number {
  let months = 0;
  while (months < 120 && addMonths(start, months + 1) <= end) months += 1;
  return Math.max(1, months);
}
