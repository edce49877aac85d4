import { desc, eq } from "drizzle-orm";
import {
  CREDIT_COSTS,
  OUT_OF_CREDITS_MESSAGE,
  UPGRADE_URL,
  type CreditCategory,
  type CreditsSummary,
  type PinDetails,
} from "../../../contracts/billing/credits.ts";
import { database } from "../../db/client.ts";
import { plans, subscriptions, users } from "../../db/schema.ts";
import { creditMonth, currentRecord, effectivePlanId, FREE_PLAN_ID } from "../../domain/plans.ts";
import type { Env } from "../../env.ts";
import { ServiceError } from "../core/errors.ts";
import { ledgerOf, type Ledger, type LedgerStatement } from "../../ledger/client.ts";
import { relockRendersStatement, unlockRendersStatement } from "../content/pin-renders.ts";

/**
 * The pin credit ledger (docs/decisions/009-credit-ledger.md, 013-billing.md):
 * the one place credits are granted and consumed. Every grant and spend is a
 * `credit_ledger` row; a billing month's balance is its grants minus its
 * spends, so nothing rolls over. Grants are written for the month on first
 * use (and on renewal), idempotent by plan and month; a spend is idempotent by
 * its reference and is refused in the same SQL statement that would write it
 * when the balance cannot pay, so concurrent spends never go below zero.
 *
 * The balance is read from the month's row of `credit_month_totals`
 * (docs/decisions/063-credit-month-totals.md), not summed from the ledger:
 * the row is summed from the ledger once, in the batch that first counts the
 * month (monthTotalsStatement), and triggers on credit_ledger keep it equal to
 * those sums in the statement of every ledger write, whatever the path.
 */
export interface CreditSpend {
  category: CreditCategory;
  amount: number;
  /** Why, for the user's history: "AI title rewrite", "Pin download". */
  reason: string;
  /** Idempotency key; the same reference is charged once. */
  reference?: string;
}

/** Out of credits: HTTP 402 with the message and the upgrade link; nothing was done. */
export class OutOfCredits extends ServiceError {
  constructor() {
    super(402, OUT_OF_CREDITS_MESSAGE, undefined, { upgradeUrl: UPGRADE_URL });
    this.name = "OutOfCredits";
  }
}

/** The month credits are counted in now, and what the user's plan grants for it. */
export interface CreditPeriod {
  userId: string;
  planId: string;
  planName: string;
  creditsPerMonth: number;
  /** [start, end) in ms. */
  start: number;
  end: number;
  /** The month begins with a plan change: it counts the spends of the month it interrupted too (decision 081). */
  opensWithChange: boolean;
}

/**
 * What an action of this category costs (spec section 9): decided here, never
 * by the client. A client that says an amount must say this one (400 naming `field`).
 */
export function creditCost(category: CreditCategory, claimed: number | undefined, field: string): number {
  const cost = CREDIT_COSTS[category];
  if (claimed !== undefined && claimed !== cost) throw new ServiceError(400, `${field} must be ${cost}: that is what ${category} costs`, field);
  return cost;
}

function checkSpend(spend: CreditSpend) {
  if (!spend.category) {
    console.error("Credit spend without a category was refused", { reason: spend.reason });
    throw new ServiceError(400, "category is required", "category");
  }
  if (!(spend.amount >= 0)) throw new ServiceError(400, "amount must not be negative", "amount");
}

/** The user's effective plan (spec: active subscription, else Free) and the billing month holding `now`. */
export async function creditPeriod(env: Env, userId: string, now = Date.now()): Promise<CreditPeriod> {
  const db = database(env.DB);
  const [userRows, records, planRows] = await db.batch([
    db
      .select({ planId: users.planId, planStatus: users.planStatus, cancelSubscriptionDate: users.cancelSubscriptionDate, createdAt: users.createdAt })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1),
    db.select().from(subscriptions).where(eq(subscriptions.userId, userId)).orderBy(desc(subscriptions.startedAt)).limit(50),
    db.select({ id: plans.id, name: plans.name, creditsPerMonth: plans.creditsPerMonth }).from(plans),
  ]);
  const user = userRows[0];
  if (!user) throw new ServiceError(404, "No such user");
  let planId = effectivePlanId(user, now);
  let plan = planRows.find((row) => row.id === planId);
  if (!plan) {
    console.error("A user's plan is not in the plans table; counting Free credits", { userId, planId });
    planId = FREE_PLAN_ID;
    plan = planRows.find((row) => row.id === FREE_PLAN_ID);
  }
  if (!plan) throw new Error("The plans table is not seeded (npm run db:seed)");
  const month = creditMonth(
    { effectivePlanId: planId, record: currentRecord(records, now), userCreatedAt: user.createdAt, cancelSubscriptionDate: user.cancelSubscriptionDate },
    now,
  );
  return {
    userId,
    planId,
    planName: plan.name,
    creditsPerMonth: plan.creditsPerMonth,
    start: month.start,
    end: month.end,
    opensWithChange: month.opensWithChange,
  };
}

/**
 * Grants the month's credits once: tops the month's grants up to the plan's
 * amount (an upgrade within a month adds the difference; a downgrade takes
 * nothing back). Idempotent by plan and month start. A paid plan tops up
 * what paid plans granted in the month: a Free grant lying in it (made while
 * the plan was suspended, before the webhook of the payment that began the
 * month reached us) is not part of what was paid for, as usableGrants counts
 * it, so it neither shortens the paid grant nor is lost on a later downgrade.
 */
function grantStatement(ledger: Ledger, period: CreditPeriod): LedgerStatement {
  const reason = `${period.planName} plan: ${period.creditsPerMonth} credits for the month from ${new Date(period.start).toISOString().slice(0, 10)}`;
  // All the month's grants for Free; for a paid plan, those of paid plans (paid_grants leaves out the Free grants).
  const counted = period.planId === FREE_PLAN_ID ? "grants" : "paid_grants";
  return ledger
    .prepare(
      `INSERT INTO credit_ledger (id, user_id, amount, category, reason, reference, created_at)
     SELECT ?1, ?2, ?3 - g.granted, 'grant', ?4, ?5, ?6
     FROM (SELECT ${counted} AS granted FROM credit_month_totals WHERE user_id = ?2 AND period_start = ?6 AND period_end = ?7) AS g
     WHERE ?3 - g.granted > 0
     ON CONFLICT (user_id, reference) DO NOTHING`,
    )
    .bind(crypto.randomUUID(), period.userId, period.creditsPerMonth, reason, `grant:${period.planId}:${period.start}`, period.start, period.end);
}

/**
 * The month's usable grants, in SQL over the month's row `t` of
 * credit_month_totals: all its grants, but a Free grant made while a paid plan
 * was suspended never adds to the paid month it falls in once the plan resumes
 * (credits do not roll over). Grants of paid plans always count in full, so a
 * downgrade within a month takes nothing back. `?cap` is the plan's monthly
 * amount. Admin grants come on top.
 */
const usableGrants = (cap: string) => `min(t.grants, max(${cap}, t.paid_grants)) + t.admin_grants`;
/** The month's balance from its row `t`: usable grants minus spends (spends is their negative sum, reversals included). */
const balanceOf = (cap: string) => `${usableGrants(cap)} + t.spends`;

/**
 * A reversal (reverseCredits) is a positive row whose reference is its
 * spend's with "reversal:" in front: it is not a grant, it takes its spend
 * back, so it counts with the spends (as a negative spend) and never in grants.
 */
export const REVERSAL_PREFIX = "reversal:";
/**
 * An admin's grant (decision 051) is a positive row under "admin-grant:<request key>": credits for the
 * billing month it is made in, added on top of the plan's grant (never topping it up, never capped by it).
 */
export const ADMIN_GRANT_PREFIX = "admin-grant:";
const ADMIN_GRANT_ROW = `amount > 0 AND reference LIKE '${ADMIN_GRANT_PREFIX}%'`;
const GRANT_ROW = `amount > 0 AND reference NOT LIKE '${REVERSAL_PREFIX}%' AND reference NOT LIKE '${ADMIN_GRANT_PREFIX}%'`;
const SPEND_ROW = `(amount < 0 OR reference LIKE '${REVERSAL_PREFIX}%')`;

/**
 * The month's row of credit_month_totals, written if the month has none yet:
 * the sums of its ledger rows, split as the balance needs them. Goes first in
 * every batch that counts the month. The ledger is read only when the row is
 * missing (the sums are scalar subqueries of a row that the WHERE lets through
 * only then; one scan, materialised once), so from the month's second request
 * on this costs one index look-up.
 *
 * Plan grants count from the month's start; spends and admin grants from
 * `spends_from`: the month's start, or, for a month that opens with a plan
 * change, where the month it interrupted counted from (that month's row: the
 * newest other month holding `now`), never more than 32 days back
 * (decision 081). So credits used this month still count on the new plan.
 * The triggers of migration 0042 classify rows with the same expressions.
 */
function monthTotalsStatement(ledger: Ledger, period: CreditPeriod, now: number): LedgerStatement {
  return ledger
    .prepare(
      `WITH f AS MATERIALIZED (
       SELECT CASE WHEN ?4 = 1 THEN coalesce(
         (SELECT min(?2, max(?2 - ${MAX_CARRY_MS}, p.spends_from)) FROM credit_month_totals AS p
          WHERE p.user_id = ?1 AND p.period_start <= ?5 AND p.period_end > ?5 AND p.period_start <> ?2
          ORDER BY p.period_start DESC LIMIT 1), ?2) ELSE ?2 END AS spends_from),
     s AS MATERIALIZED (
       SELECT coalesce(sum(CASE WHEN created_at >= ?2 AND ${GRANT_ROW} THEN amount END), 0) AS grants,
              coalesce(sum(CASE WHEN created_at >= ?2 AND ${GRANT_ROW} AND reference NOT LIKE 'grant:${FREE_PLAN_ID}:%' THEN amount END), 0) AS paid_grants,
              coalesce(sum(CASE WHEN ${ADMIN_GRANT_ROW} THEN amount END), 0) AS admin_grants,
              coalesce(sum(CASE WHEN ${SPEND_ROW} THEN amount END), 0) AS spends
       FROM credit_ledger WHERE user_id = ?1 AND created_at >= (SELECT spends_from FROM f) AND created_at < ?3)
     INSERT INTO credit_month_totals (user_id, period_start, period_end, spends_from, grants, paid_grants, admin_grants, spends)
     SELECT ?1, ?2, ?3, (SELECT spends_from FROM f), (SELECT grants FROM s), (SELECT paid_grants FROM s), (SELECT admin_grants FROM s), (SELECT spends FROM s)
     WHERE NOT EXISTS (SELECT 1 FROM credit_month_totals WHERE user_id = ?1 AND period_start = ?2 AND period_end = ?3)
     ON CONFLICT DO NOTHING`,
    )
    .bind(period.userId, period.start, period.end, period.opensWithChange ? 1 : 0, now);
}

/** How far back a month that opens with a plan change counts spends at most: 32 days (the CHECK of migration 0042). */
const MAX_CARRY_MS = 2_764_800_000;

/** The month's usable grants and spends, from its row. */
function totalsStatement(ledger: Ledger, period: CreditPeriod): LedgerStatement {
  return ledger
    .prepare(
      `SELECT ${usableGrants("?4")} AS granted, 0 - t.spends AS spent
     FROM credit_month_totals AS t WHERE t.user_id = ?1 AND t.period_start = ?2 AND t.period_end = ?3`,
    )
    .bind(period.userId, period.start, period.end, period.creditsPerMonth);
}

/**
 * Writes the spend only if the month's balance (grants minus spends, read in
 * the same statement) can pay it. SQLite runs one statement at a time, so two
 * spends can never both see the same balance.
 */
function spendStatement(ledger: Ledger, period: CreditPeriod, spend: CreditSpend, reference: string, now: number): LedgerStatement {
  return ledger
    .prepare(
      `INSERT INTO credit_ledger (id, user_id, amount, category, reason, reference, created_at)
     SELECT ?1, ?2, -?3, ?4, ?5, ?6, ?7
     FROM (SELECT ${balanceOf("?10")} AS balance FROM credit_month_totals AS t
           WHERE t.user_id = ?2 AND t.period_start = ?8 AND t.period_end = ?9) AS b
     WHERE b.balance >= ?3
     ON CONFLICT (user_id, reference) DO NOTHING
     RETURNING id`,
    )
    .bind(crypto.randomUUID(), period.userId, spend.amount, spend.category, spend.reason, reference, now, period.start, period.end, period.creditsPerMonth);
}

function chargedBeforeStatement(ledger: Ledger, userId: string, reference: string): LedgerStatement {
  return ledger.prepare("SELECT id FROM credit_ledger WHERE user_id = ?1 AND reference = ?2").bind(userId, reference);
}

/** This billing month's credits (GET /api/user/credits); writes the month's grant on first use. */
export async function creditsSummary(env: Env, userId: string, now = Date.now()): Promise<CreditsSummary> {
  const period = await creditPeriod(env, userId, now);
  const ledger = ledgerOf(env, userId);
  const [, , totals] = await ledger.batch<{ granted: number; spent: number }>([
    monthTotalsStatement(ledger, period, now),
    grantStatement(ledger, period),
    totalsStatement(ledger, period),
  ]);
  const row = totals.results[0];
  if (!row) throw new Error(`The credit month totals of user ${userId} were not written`);
  const { granted, spent } = row;
  return {
    planId: period.planId,
    creditsPerMonth: period.creditsPerMonth,
    usedPinCredits: spent,
    remaining: Math.max(0, granted - spent),
    periodStart: new Date(period.start).toISOString(),
    periodEnd: new Date(period.end).toISOString(),
  };
}

/** A plan and month a change would put the user in (plan-change-preview.ts). */
export type NextCreditPeriod = Pick<CreditPeriod, "planId" | "creditsPerMonth" | "start" | "end" | "opensWithChange">;

/**
 * What this month's credits would read after a plan change into `next`, as the rules above would count them:
 * the same month topped up to the new plan's amount (a downgrade takes nothing back); a month that opens with the
 * change at the new plan's amount, the spends (and admin grants) of this month still counted; else a fresh month.
 * Reads this month as creditsSummary does (writing its row and grant if missing); writes nothing of the change.
 */
export async function creditsAfterChange(
  env: Env,
  userId: string,
  next: NextCreditPeriod,
  now = Date.now(),
): Promise<{ usedPinCredits: number; remaining: number; sameMonth: boolean }> {
  const period = await creditPeriod(env, userId, now);
  const ledger = ledgerOf(env, userId);
  const [, , totals] = await ledger.batch<MonthTotals>([
    monthTotalsStatement(ledger, period, now),
    grantStatement(ledger, period),
    ledger
      .prepare("SELECT grants, paid_grants, admin_grants, spends FROM credit_month_totals WHERE user_id = ?1 AND period_start = ?2 AND period_end = ?3")
      .bind(userId, period.start, period.end),
  ]);
  const month = totals.results[0];
  if (!month) throw new Error(`The credit month totals of user ${userId} were not written`);
  const paid = next.planId !== FREE_PLAN_ID;
  const cap = next.creditsPerMonth;
  let after: MonthTotals;
  const sameMonth = next.start === period.start && next.end === period.end;
  if (sameMonth) {
    // grantStatement's top-up: to the plan's amount, counting Free's grants for Free and paid plans' for a paid plan.
    const topUp = Math.max(0, cap - (paid ? month.paid_grants : month.grants));
    after = { ...month, grants: month.grants + topUp, paid_grants: month.paid_grants + (paid ? topUp : 0) };
  } else {
    const carried = next.opensWithChange;
    after = { grants: cap, paid_grants: paid ? cap : 0, admin_grants: carried ? month.admin_grants : 0, spends: carried ? month.spends : 0 };
  }
  // The balance with the one expression every spend is checked against.
  const row = await ledger
    .prepare(`SELECT ${balanceOf("?5")} AS balance FROM (SELECT ?1 AS grants, ?2 AS paid_grants, ?3 AS admin_grants, ?4 AS spends) AS t`)
    .bind(after.grants, after.paid_grants, after.admin_grants, after.spends, cap)
    .first<{ balance: number }>();
  return { usedPinCredits: 0 - after.spends, remaining: Math.max(0, row?.balance ?? 0), sameMonth };
}

interface MonthTotals {
  grants: number;
  paid_grants: number;
  admin_grants: number;
  spends: number;
}

/** Grants the current month's credits now (after a plan change or renewal) rather than on first use. */
export async function grantCurrentMonth(env: Env, userId: string, now = Date.now()): Promise<CreditPeriod> {
  const period = await creditPeriod(env, userId, now);
  const ledger = ledgerOf(env, userId);
  await ledger.batch([monthTotalsStatement(ledger, period, now), grantStatement(ledger, period)]);
  return period;
}

/**
 * A plan's paid grant taken back with the payment that bought it (decision 077): the reference gets this in
 * front and the amount becomes 0, so the row counts in no sum (GRANT_ROW and SPEND_ROW need an amount) and
 * the reason still says what it was.
 */
export const TAKEN_BACK_PREFIX = "taken-back:";

/**
 * After a plan was taken back (refunded in full, or lost to a dispute) the user is on what remains in the same
 * billing month: its grants of the plan taken back no longer count (all paid grants when that is Free), what
 * remains grants its own, and what was spent in the month stays spent (a user who spent more than the
 * remaining plan's allowance has 0 left; the summary never shows less). Nothing when another record of the
 * same plan still gives it. Idempotent: a row taken back once is not a paid grant any more. Answers how many
 * grant rows were taken back now.
 */
export async function takeBackPaidGrants(env: Env, userId: string, takenBackPlanId: string, why: string, now = Date.now()): Promise<number> {
  const period = await creditPeriod(env, userId, now);
  const ledger = ledgerOf(env, userId);
  if (period.planId === takenBackPlanId) return 0;
  // On Free every paid grant of the month goes; on another plan, the grants of the plan taken back.
  const ofPlan = period.planId === FREE_PLAN_ID ? null : takenBackPlanId;
  const [, taken] = await ledger.batch<{ id: string }>([
    monthTotalsStatement(ledger, period, now),
    ledger
      .prepare(
        `UPDATE credit_ledger SET amount = 0, reference = '${TAKEN_BACK_PREFIX}' || reference, reason = reason || ?4
       WHERE user_id = ?1 AND created_at >= ?2 AND created_at < ?3 AND ${GRANT_ROW} AND reference LIKE 'grant:%'
         AND reference NOT LIKE 'grant:${FREE_PLAN_ID}:%' AND (?5 IS NULL OR reference LIKE 'grant:' || ?5 || ':%')
       RETURNING id`,
      )
      .bind(userId, period.start, period.end, ` (taken back: ${why})`, ofPlan),
    grantStatement(ledger, period),
  ]);
  return taken.results.length;
}

/**
 * Refuses up front (402) when the balance cannot pay `amount`: for work that
 * costs money before it can be charged (AI calls), charged once it succeeded.
 */
export async function requireCredits(env: Env, userId: string, amount: number, now = Date.now()): Promise<void> {
  if (amount <= 0) return;
  const { remaining } = await creditsSummary(env, userId, now);
  if (remaining < amount) throw new OutOfCredits();
}

/**
 * Records a spend. Answers whether it was charged now (false: this reference
 * was charged before). Throws OutOfCredits (402) when the month's balance
 * cannot pay it; nothing is written then.
 */
export async function consumeCredits(env: Env, userId: string, spend: CreditSpend, now = Date.now()): Promise<{ charged: boolean }> {
  checkSpend(spend);
  if (spend.amount === 0) return { charged: false };
  const period = await creditPeriod(env, userId, now);
  const ledger = ledgerOf(env, userId);
  const reference = spend.reference ?? `spend:${crypto.randomUUID()}`;
  const [, , spent, before] = await ledger.batch([
    monthTotalsStatement(ledger, period, now),
    grantStatement(ledger, period),
    spendStatement(ledger, period, spend, reference, now),
    chargedBeforeStatement(ledger, userId, reference),
  ]);
  if (spent.results.length > 0) return { charged: true };
  if (before.results.length > 0) return { charged: false };
  throw new OutOfCredits();
}

/**
 * Gives a spend back (docs/decisions/032-video-service.md): writes its
 * reversal, a row of the opposite amount under "reversal:<reference>", dated
 * like the spend so it restores the billing month that paid. Once per spend
 * (the reference is unique per user); a spend never made is not reversed.
 * Answers whether credits were given back now.
 */
export async function reverseCredits(env: Env, userId: string, reference: string, reason: string): Promise<{ reversed: boolean; amount: number }> {
  const ledger = ledgerOf(env, userId);
  const row = await ledger
    .prepare(
      `INSERT INTO credit_ledger (id, user_id, amount, category, reason, reference, created_at)
     SELECT ?1, user_id, -amount, category, ?2, '${REVERSAL_PREFIX}' || reference, created_at
     FROM credit_ledger WHERE user_id = ?3 AND reference = ?4 AND amount < 0
     ON CONFLICT (user_id, reference) DO NOTHING
     RETURNING amount`,
    )
    .bind(crypto.randomUUID(), reason, userId, reference)
    .first<{ amount: number }>();
  return { reversed: row !== null, amount: row?.amount ?? 0 };
}

/** The pin of a profile's queue a history row stands for: one row per pin, from scheduling to posting. */
export interface QueuedPinRef {
  id: string;
  /** When it is scheduled to post (ms). */
  scheduledFor: number | null;
  /** When it was posted (ms), for a pin recorded as it is posted. */
  postedAt?: number;
}

export interface PinHistoryItem {
  details: PinDetails;
  spend: CreditSpend;
  pin?: QueuedPinRef;
  /** A render for scheduling this spend pays for: served under /media once the spend is written (pin-renders.ts). */
  unlocksRender?: string;
  /**
   * What the history shows the pin cost, when that is not this spend: a video's first pin was paid for when the
   * video was made (decision 032), so its entry spends 0 now but shows the video's price (issue 40 point 5).
   */
  shownCredits?: number;
}

/** How many pins one call may record (one D1 batch: a few set-based statements per chunk of pins, not two per pin). */
export const MAX_PIN_HISTORY_BATCH = 1_000;

/**
 * Pins per statement: each chunk travels as one JSON parameter (json_each), kept well under D1's 2 MB
 * for a value whatever the pins' texts (a pin's details are at most a few kB).
 */
const CHUNK_CHARS = 400_000;

/** Of these references, those already in a table for the user (one query: the references travel as one JSON parameter). */
async function existingReferences(ledger: Ledger, table: "credit_ledger" | "pin_history", userId: string, references: string[]): Promise<Map<string, string>> {
  const rows = await ledger
    .prepare(`SELECT id, reference FROM ${table} WHERE user_id = ?1 AND reference IN (SELECT value FROM json_each(?2))`)
    .bind(userId, JSON.stringify(references))
    .all<{ id: string; reference: string }>();
  return new Map(rows.results.map((row) => [row.reference, row.id]));
}

/** One item as the set-based statements read it (json_each over a list of these). */
interface HistoryRow {
  historyId: string;
  spendId: string;
  reference: string;
  amount: number;
  /** The pin_history entry's credits: the amount, or what the pin cost before (PinHistoryItem.shownCredits). */
  shownCredits: number;
  category: string;
  reason: string;
  action: string;
  title: string;
  description: string;
  url: string;
  imageUrl: string;
  mediaType: string;
  boardId: string | null;
  boardName: string | null;
  pinterestProfile: string | null;
  pinterestPinId: string | null;
  pinId: string | null;
  scheduledFor: number | null;
  postedAt: number | null;
}

/**
 * The spends of a chunk, written all or none in ONE statement: only when the
 * month's balance (read in the same statement, before its rows are written)
 * pays every spend of the chunk not charged before. A reference charged
 * before is left as it is (idempotent). Answers the references charged now.
 * The balance and the need are materialised once, before the first row is
 * written: the rows' triggers move the month's totals as they are inserted.
 */
function spendsStatement(ledger: Ledger, period: CreditPeriod, rows: string, now: number): LedgerStatement {
  return ledger
    .prepare(
      `WITH b AS MATERIALIZED (
       SELECT ${balanceOf("?6")} AS balance FROM credit_month_totals AS t
       WHERE t.user_id = ?1 AND t.period_start = ?4 AND t.period_end = ?5),
     d AS MATERIALIZED (
       SELECT coalesce(sum(json_extract(n.value, '$.amount')), 0) AS need FROM json_each(?3) AS n
       WHERE json_extract(n.value, '$.amount') > 0
         AND NOT EXISTS (SELECT 1 FROM credit_ledger AS l WHERE l.user_id = ?1 AND l.reference = json_extract(n.value, '$.reference')))
     INSERT INTO credit_ledger (id, user_id, amount, category, reason, reference, created_at)
     SELECT json_extract(j.value, '$.spendId'), ?1, -json_extract(j.value, '$.amount'), json_extract(j.value, '$.category'),
            json_extract(j.value, '$.reason'), json_extract(j.value, '$.reference'), ?2
     FROM json_each(?3) AS j, b, d
     WHERE json_extract(j.value, '$.amount') > 0 AND b.balance >= d.need
     ON CONFLICT (user_id, reference) DO NOTHING
     RETURNING reference AS id`,
    )
    .bind(period.userId, now, rows, period.start, period.end, period.creditsPerMonth);
}

/** The history rows of a chunk (one statement): each written only if its spend was, or had been (or it is free). Answers the references written now. */
function historiesStatement(ledger: Ledger, userId: string, rows: string, now: number): LedgerStatement {
  const field = (name: keyof HistoryRow) => `json_extract(j.value, '$.${name}')`;
  return ledger
    .prepare(
      `INSERT INTO pin_history (id, user_id, action, category, credits, title, description, url, image_url, media_type,
                              board_id, board_name, pinterest_profile, pinterest_pin_id, reference, created_at, pin_id, scheduled_for, posted_at, queue_state)
     SELECT ${field("historyId")}, ?1, ${field("action")}, ${field("category")}, ${field("shownCredits")}, ${field("title")}, ${field("description")},
            ${field("url")}, ${field("imageUrl")}, ${field("mediaType")}, ${field("boardId")}, ${field("boardName")}, ${field("pinterestProfile")},
            ${field("pinterestPinId")}, ${field("reference")}, ?2, ${field("pinId")}, ${field("scheduledFor")}, ${field("postedAt")},
            -- A pin placed in its queue starts as scheduled there; its queue writes every change from then on (history-mirror.ts).
            CASE WHEN ${field("action")} = 'scheduled' AND ${field("pinId")} IS NOT NULL AND ${field("postedAt")} IS NULL THEN 'scheduled' END
     FROM json_each(?3) AS j
     WHERE ${field("amount")} = 0 OR EXISTS (SELECT 1 FROM credit_ledger AS l WHERE l.user_id = ?1 AND l.reference = ${field("reference")})
     ON CONFLICT (user_id, reference) DO NOTHING
     RETURNING reference AS id`,
    )
    .bind(userId, now, rows);
}

/** Splits the rows into JSON lists of at most CHUNK_CHARS characters each. */
function jsonChunks(rows: HistoryRow[]): string[] {
  const chunks: string[] = [];
  let current: string[] = [];
  let size = 2;
  for (const row of rows) {
    const json = JSON.stringify(row);
    if (current.length > 0 && size + json.length + 1 > CHUNK_CHARS) {
      chunks.push(`[${current.join(",")}]`);
      current = [];
      size = 2;
    }
    current.push(json);
    size += json.length + 1;
  }
  if (current.length > 0) chunks.push(`[${current.join(",")}]`);
  return chunks;
}

/**
 * Records pins in the history and charges their credits, in one D1 batch
 * (one billing-month look-up, one grant, then per chunk of pins one statement
 * for the spends and one for the history rows, whatever the number of pins):
 * each history row is written only if its spend was, or had been. Idempotent
 * per reference. All or nothing: when the balance cannot pay every new spend,
 * the rows this call wrote are taken back and OutOfCredits (402) is thrown.
 */
export async function addPinHistories(env: Env, userId: string, items: PinHistoryItem[], now = Date.now()): Promise<{ charged: boolean; historyId: string }[]> {
  if (items.length === 0) return [];
  if (items.length > MAX_PIN_HISTORY_BATCH) throw new Error(`addPinHistories takes at most ${MAX_PIN_HISTORY_BATCH} pins per call`);
  items.forEach(({ spend }) => {
    checkSpend(spend);
  });
  const prepared = items.map((item) => ({
    item,
    spend: item.spend,
    reference: item.spend.reference ?? `pin:${crypto.randomUUID()}`,
    historyId: crypto.randomUUID(),
  }));
  const seen = new Set<string>();
  for (const { reference } of prepared) {
    if (seen.has(reference)) throw new Error(`addPinHistories was given the reference ${reference} twice`);
    seen.add(reference);
  }
  const period = prepared.some(({ spend }) => spend.amount > 0) ? await creditPeriod(env, userId, now) : null;
  const ledger = ledgerOf(env, userId);
  const rows: HistoryRow[] = prepared.map(({ item, spend, reference, historyId }) => ({
    historyId,
    spendId: crypto.randomUUID(),
    reference,
    amount: spend.amount,
    shownCredits: item.shownCredits ?? spend.amount,
    category: spend.category,
    reason: spend.reason,
    action: item.details.action,
    title: item.details.title,
    description: item.details.description,
    url: item.details.url,
    imageUrl: item.details.imageUrl,
    mediaType: item.details.mediaType,
    boardId: item.details.boardId ?? null,
    boardName: item.details.boardName ?? null,
    pinterestProfile: item.details.pinterestProfile ?? null,
    pinterestPinId: item.details.pinterestPinId ?? null,
    pinId: item.pin?.id ?? null,
    scheduledFor: item.pin?.scheduledFor ?? null,
    // A pin pinned at once is posted when it is recorded; a scheduled one when its queue posts it.
    postedAt: item.details.action === "pinned" ? (item.pin?.postedAt ?? now) : null,
  }));
  const chunks = jsonChunks(rows);
  const statements: LedgerStatement[] = period ? [monthTotalsStatement(ledger, period, now), grantStatement(ledger, period)] : [];
  for (const chunk of chunks) {
    // Without a paid item there is nothing to spend: a statement that returns nothing keeps two statements per chunk.
    statements.push(
      period ? spendsStatement(ledger, period, chunk, now) : ledger.prepare("SELECT NULL AS id WHERE 0"),
      historiesStatement(ledger, userId, chunk, now),
    );
  }
  // Renders paid for by these spends are unlocked in the same transaction, only where the spend's row exists.
  const unlocks = prepared.flatMap((item, i) => (items[i].unlocksRender ? [{ key: items[i].unlocksRender as string, reference: item.reference }] : []));
  if (unlocks.length > 0) statements.push(unlockRendersStatement(ledger, userId, unlocks, now));
  const results = await ledger.batch<{ id: string; media_key: string }>(statements);
  const unlocked = unlocks.length > 0 ? results[results.length - 1].results.map((row) => row.media_key) : [];
  const offset = period ? 2 : 0;
  const chargedNow = new Set<string>();
  const recordedNow = new Set<string>();
  chunks.forEach((_, c) => {
    for (const row of results[offset + c * 2].results) chargedNow.add(row.id);
    for (const row of results[offset + c * 2 + 1].results) recordedNow.add(row.id);
  });
  const outcomes = prepared.map((item, i) => ({
    item,
    charged: chargedNow.has(item.reference),
    insertedHistory: recordedNow.has(item.reference) ? rows[i].historyId : null,
  }));
  // Items neither charged nor recorded now: charged before (a retry), or unpaid.
  const notCharged = outcomes.filter((o) => o.item.spend.amount > 0 && !o.charged).map((o) => o.item.reference);
  const chargedBefore = notCharged.length > 0 ? await existingReferences(ledger, "credit_ledger", userId, notCharged) : new Map<string, string>();
  if (notCharged.some((reference) => !chargedBefore.has(reference))) {
    // Take back what this call wrote (two statements whatever the number of pins), then refuse the whole batch.
    const charged = outcomes.filter((o) => o.charged).map((o) => o.item.reference);
    const inserted = outcomes.flatMap((o) => (o.insertedHistory ? [o.insertedHistory] : []));
    const undo: LedgerStatement[] = [];
    if (charged.length > 0) {
      undo.push(
        ledger.prepare("DELETE FROM credit_ledger WHERE user_id = ?1 AND reference IN (SELECT value FROM json_each(?2))").bind(userId, JSON.stringify(charged)),
      );
    }
    if (inserted.length > 0)
      undo.push(
        ledger.prepare("DELETE FROM pin_history WHERE user_id = ?1 AND id IN (SELECT value FROM json_each(?2))").bind(userId, JSON.stringify(inserted)),
      );
    if (unlocked.length > 0) undo.push(relockRendersStatement(ledger, userId, unlocked));
    if (undo.length > 0) await ledger.batch(undo);
    throw new OutOfCredits();
  }
  const notInserted = outcomes.filter((o) => !o.insertedHistory).map((o) => o.item.reference);
  const histories = notInserted.length > 0 ? await existingReferences(ledger, "pin_history", userId, notInserted) : new Map<string, string>();
  return outcomes.map((o) => ({ charged: o.charged, historyId: o.insertedHistory ?? histories.get(o.item.reference) ?? o.item.historyId }));
}

/**
 * Records a pin in the history and charges its credits together (one D1
 * batch: the history row is written only if the spend was, or had been).
 * Idempotent by reference; OutOfCredits (402) with nothing written when the
 * balance cannot pay.
 */
export async function addPinHistory(
  env: Env,
  userId: string,
  details: PinDetails,
  spend: CreditSpend,
  options: { now?: number; pin?: QueuedPinRef } = {},
): Promise<{ charged: boolean; historyId: string }> {
  const [result] = await addPinHistories(env, userId, [{ details, spend, pin: options.pin }], options.now ?? Date.now());
  return result;
}

/** Credits spent this billing month, from the ledger (usedPinCredits in the user credentials). */
export async function usedCreditsThisMonth(env: Env, userId: string, now = new Date()): Promise<number> {
  return (await creditsSummary(env, userId, now.getTime())).usedPinCredits;
}
