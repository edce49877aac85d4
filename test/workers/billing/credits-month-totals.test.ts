import { eq } from "drizzle-orm";
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { CreditsSummary } from "../../../contracts/billing/credits.ts";
import { users } from "../../../workers/db/schema.ts";
import { addMonths } from "../../../workers/domain/plans.ts";
import { ledgerOf } from "../../../workers/ledger/client.ts";
import { grantCredits } from "../../../workers/services/admin/admin-users.ts";
import { savePlanRecord } from "../../../workers/services/billing/billing.ts";
import { addPinHistories, consumeCredits, creditsSummary, reverseCredits, type PinHistoryItem } from "../../../workers/services/billing/credits.ts";
import { bearer, signUpUser, type TestUser } from "../accounts/accounts-support.ts";
import { creditsOf, db, post } from "./billing-support.ts";
import { app, read, testEnv } from "../support.ts";

// Credit month totals (migrations 0038 and 0042, decisions 063 and 081): a billing month's balance is read from one
// credit_month_totals row kept by triggers, not summed from the ledger. What a user sees must be exactly
// what summing the ledger gives. The reference below is the rule of credits.ts written out over the
// month's ledger rows, independently of the SQL: every figure is checked against it.

const DAY = 86_400_000;

interface LedgerRow {
  amount: number;
  reference: string;
  created_at: number;
}

/**
 * The month's sums straight from the ledger rows: plan grants dated in [start, end), spends and admin grants dated in
 * [spendsFrom, end) (a month that opens with a plan change counts from the month it interrupted: decision 081).
 */
async function ledgerSums(userId: string, start: number, end: number, spendsFrom = start) {
  const { results: all } = await ledgerOf(testEnv, userId)
    .prepare("SELECT amount, reference, created_at FROM credit_ledger WHERE user_id = ?1 AND created_at >= ?2 AND created_at < ?3")
    .bind(userId, spendsFrom, end)
    .all<LedgerRow>();
  const results = all.map((row) =>
    row.created_at < start && row.amount > 0 && !row.reference.startsWith("reversal:") && !row.reference.startsWith("admin-grant:")
      ? { ...row, amount: 0 }
      : row,
  );
  const reversal = (row: LedgerRow) => row.reference.startsWith("reversal:");
  const admin = (row: LedgerRow) => row.reference.startsWith("admin-grant:");
  const grant = (row: LedgerRow) => row.amount > 0 && !reversal(row) && !admin(row);
  const total = (rows: LedgerRow[]) => rows.reduce((sum, row) => sum + row.amount, 0);
  return {
    grants: total(results.filter(grant)),
    paidGrants: total(results.filter((row) => grant(row) && !row.reference.startsWith("grant:free:"))),
    adminGrants: total(results.filter((row) => row.amount > 0 && admin(row))),
    spends: total(results.filter((row) => row.amount < 0 || reversal(row))),
  };
}

/** Where the month's row counts spends from (its start unless it opens with a plan change). */
async function spendsFromOf(userId: string, start: number, end: number) {
  const row = await ledgerOf(testEnv, userId)
    .prepare("SELECT spends_from AS spendsFrom FROM credit_month_totals WHERE user_id = ?1 AND period_start = ?2 AND period_end = ?3")
    .bind(userId, start, end)
    .first<{ spendsFrom: number }>();
  return row?.spendsFrom ?? start;
}

/** The month's row of credit_month_totals, or null. */
async function totalsRow(userId: string, start: number, end: number) {
  return ledgerOf(testEnv, userId)
    .prepare(
      "SELECT grants, paid_grants AS paidGrants, admin_grants AS adminGrants, spends FROM credit_month_totals WHERE user_id = ?1 AND period_start = ?2 AND period_end = ?3",
    )
    .bind(userId, start, end)
    .first<{ grants: number; paidGrants: number; adminGrants: number; spends: number }>();
}

/**
 * Checks a summary against the ledger: the month's totals row equals the ledger's sums, and what the user
 * sees is what the ledger gives (usable grants: a Free grant never tops a paid month above the plan).
 */
async function expectLedgerAgrees(userId: string, summary: CreditsSummary) {
  const start = Date.parse(summary.periodStart);
  const end = Date.parse(summary.periodEnd);
  const sums = await ledgerSums(userId, start, end, await spendsFromOf(userId, start, end));
  expect(await totalsRow(userId, start, end)).toEqual(sums);
  const usable = Math.min(sums.grants, Math.max(summary.creditsPerMonth, sums.paidGrants)) + sums.adminGrants;
  expect(summary.usedPinCredits).toBe(0 - sums.spends);
  expect(summary.remaining).toBe(Math.max(0, usable + sums.spends));
  return sums;
}

async function summaryOf(user: TestUser, now?: number) {
  const summary = now === undefined ? await creditsOf(user) : await creditsSummary(testEnv, user.userId, now);
  await expectLedgerAgrees(user.userId, summary);
  return summary;
}

async function insertLedger(userId: string, amount: number, reference: string, createdAt: number) {
  await ledgerOf(testEnv, userId)
    .prepare("INSERT INTO credit_ledger (id, user_id, amount, category, reason, reference, created_at) VALUES (?1, ?2, ?3, ?4, 'test row', ?5, ?6)")
    .bind(crypto.randomUUID(), userId, amount, amount < 0 ? "image" : "grant", reference, createdAt)
    .run();
}

const pin = (reference: string, amount = 1): PinHistoryItem => ({
  details: {
    action: "downloaded",
    title: "Linen napkins",
    description: "Fold them",
    url: "https://linen.example/napkins",
    imageUrl: "https://app.test/media/x.jpeg",
    mediaType: "image",
  },
  spend: { category: "image", amount, reason: "Pin download", reference },
});

async function signupTime(user: TestUser) {
  return (await db.query.users.findFirst({ where: eq(users.id, user.userId) }))!.createdAt;
}

describe("credit month totals", () => {
  it("sums a month's ledger into its totals the first time the month is counted, rows outside the month left out", async () => {
    const user = await signUpUser();
    const signup = await signupTime(user);
    const start = signup;
    const end = addMonths(signup, 1);
    // A ledger written before the month had a totals row (as before migration 0038): every kind of row,
    // and rows exactly on and just outside the month's edges.
    const ledger = ledgerOf(testEnv, user.userId);
    await ledger.batch([
      ledger.prepare("DELETE FROM credit_ledger WHERE user_id = ?1").bind(user.userId),
      ledger.prepare("DELETE FROM credit_month_totals WHERE user_id = ?1").bind(user.userId),
    ]);
    await insertLedger(user.userId, 10, `grant:free:${start}`, start);
    await insertLedger(user.userId, -1, "pin:a", start);
    await insertLedger(user.userId, -5, "video:b", start + DAY);
    await insertLedger(user.userId, 5, "reversal:video:b", start + DAY);
    await insertLedger(user.userId, -0.5, "ai:c", start + 2 * DAY);
    await insertLedger(user.userId, 4, "admin-grant:bonus-1", start + 3 * DAY);
    await insertLedger(user.userId, -2, "pin:before", start - 1);
    await insertLedger(user.userId, -3, "pin:at-end", end);
    await insertLedger(user.userId, 7, "admin-grant:next-month", end + DAY);
    expect(await totalsRow(user.userId, start, end)).toBeNull();

    const summary = await summaryOf(user);
    expect(summary).toMatchObject({ planId: "free", usedPinCredits: 1.5, remaining: 12.5 });
    expect(await totalsRow(user.userId, start, end)).toEqual({ grants: 10, paidGrants: 0, adminGrants: 4, spends: -1.5 });
    // Counting the month again reads the row; nothing is summed twice.
    expect(await summaryOf(user)).toEqual(summary);
  });

  it("moves the totals with every write: a spend, a reversal, a grant, a bonus, a redeemed plan, a top-up on upgrade", async () => {
    const user = await signUpUser();

    // The month's Free grant, then a download and a video.
    expect(await summaryOf(user)).toMatchObject({ planId: "free", usedPinCredits: 0, remaining: 10 });
    await consumeCredits(testEnv, user.userId, { category: "image", amount: 1, reason: "Pin download", reference: "totals:download" });
    await consumeCredits(testEnv, user.userId, { category: "video", amount: 5, reason: "Video pin", reference: "totals:video" });
    expect(await summaryOf(user)).toMatchObject({ usedPinCredits: 6, remaining: 4 });
    // A reversal gives the video back; a second one changes nothing.
    expect(await reverseCredits(testEnv, user.userId, "totals:video", "Video failed")).toEqual({ reversed: true, amount: 5 });
    expect(await reverseCredits(testEnv, user.userId, "totals:video", "Video failed")).toMatchObject({ reversed: false });
    expect(await summaryOf(user)).toMatchObject({ usedPinCredits: 1, remaining: 9 });
    // An admin's bonus comes on top of the plan's grant.
    const actor = { id: user.userId, email: user.email };
    expect(await grantCredits(testEnv, actor, user.userId, { amount: 20, reason: "Sorry for the outage", reference: "totals-bonus" })).toMatchObject({
      granted: true,
    });
    const afterBonus = await summaryOf(user);
    expect(afterBonus.remaining).toBe(29);

    // A paid plan from just after the last ledger row: its month starts then, with the plan's 150, and as it opens
    // with a plan change it counts the Free month's spend and the admin's bonus too (decision 081); the Free month's
    // row stays as its ledger is. (Times from here on are given, so that no write shares a millisecond.)
    const last = await ledgerOf(testEnv, user.userId)
      .prepare("SELECT max(created_at) AS at FROM credit_ledger WHERE user_id = ?1")
      .bind(user.userId)
      .first<{ at: number }>();
    const paidFrom = Math.max(last!.at, Date.now()) + 1;
    const freeMonth = { start: Date.parse(afterBonus.periodStart), end: Date.parse(afterBonus.periodEnd) };
    const record = {
      provider: "stripe" as const,
      providerRef: `sub_totals_${user.userId}`,
      kind: "subscription" as const,
      planId: "starter-monthly",
      status: "active",
      startedAt: paidFrom,
      periodStart: paidFrom,
      periodEnd: addMonths(paidFrom, 1),
      cancelAtPeriodEnd: false,
      endedAt: null,
      trialEnd: null,
    };
    await savePlanRecord(testEnv, user.userId, record, paidFrom);
    const starter = await summaryOf(user, paidFrom);
    expect(starter).toMatchObject({
      planId: "starter-monthly",
      creditsPerMonth: 150,
      usedPinCredits: 1,
      remaining: 169,
      periodStart: new Date(paidFrom).toISOString(),
    });
    expect(await spendsFromOf(user.userId, paidFrom, addMonths(paidFrom, 1))).toBe(freeMonth.start);
    await consumeCredits(testEnv, user.userId, { category: "image", amount: 30, reason: "Pin downloads", reference: "totals:starter-spend" }, paidFrom + 10);
    expect(await summaryOf(user, paidFrom + 10)).toMatchObject({ usedPinCredits: 31, remaining: 139 });
    // The spend falls in both months that hold its date: each row still equals its own ledger.
    const freeSums = await ledgerSums(user.userId, freeMonth.start, freeMonth.end);
    expect(await totalsRow(user.userId, freeMonth.start, freeMonth.end)).toEqual(freeSums);

    // Upgraded within the month: Pro tops the month's grants up to 400 (250 more), the spends still counted.
    await savePlanRecord(testEnv, user.userId, { ...record, planId: "pro-monthly" }, paidFrom + 1000);
    const pro = await summaryOf(user, paidFrom + 1000);
    expect(pro).toMatchObject({ planId: "pro-monthly", creditsPerMonth: 400, usedPinCredits: 31, remaining: 389 });
    expect(await totalsRow(user.userId, paidFrom, addMonths(paidFrom, 1))).toMatchObject({ grants: 400, paidGrants: 400, adminGrants: 20, spends: -31 });

    // A Free grant lying in the paid month (written while the plan was suspended) does not raise it above the plan.
    await insertLedger(user.userId, 10, `grant:free:${paidFrom + 500}`, paidFrom + 500);
    expect(await summaryOf(user, paidFrom + 1000)).toMatchObject({ remaining: 389 });
    expect(await totalsRow(user.userId, paidFrom, addMonths(paidFrom, 1))).toMatchObject({ grants: 410, paidGrants: 400 });
  });

  it("moves the totals when a redeem code grants a plan", async () => {
    const admin = await signUpUser();
    await db.update(users).set({ role: "admin" }).where(eq(users.id, admin.userId));
    const created = await post("/api/admin/redeemCodes", admin, { planId: "starter-monthly", count: 1, months: 1 });
    expect(created.status).toBe(201);
    const [code] = (await read(created)).codes as string[];

    const user = await signUpUser();
    await consumeCredits(testEnv, user.userId, { category: "image", amount: 3, reason: "Pin download", reference: "redeem:before" });
    expect(await summaryOf(user)).toMatchObject({ planId: "free", remaining: 7 });
    expect((await post("/api/subscriptions/redeemPurchaseCode", user, { redemptionCode: code })).status).toBe(200);
    const redeemed = await summaryOf(user);
    expect(redeemed).toMatchObject({ planId: "starter-monthly", creditsPerMonth: 150 });
    await consumeCredits(testEnv, user.userId, { category: "image", amount: 1, reason: "Pin download", reference: "redeem:after" });
    expect((await summaryOf(user)).remaining).toBe(redeemed.remaining - 1);
  });

  it("keeps each billing month to itself: a new month starts from the plan, a late reversal restores the month that paid", async () => {
    const user = await signUpUser();
    const signup = await signupTime(user);
    const month2Start = addMonths(signup, 1);
    const inMonth1 = signup + 3 * DAY;
    const inMonth2 = month2Start + DAY;

    await consumeCredits(testEnv, user.userId, { category: "video", amount: 5, reason: "Video pin", reference: "boundary:video" }, inMonth1);
    await consumeCredits(testEnv, user.userId, { category: "image", amount: 1, reason: "Pin download", reference: "boundary:last" }, month2Start - 1);
    expect(await summaryOf(user, inMonth1)).toMatchObject({ usedPinCredits: 6, remaining: 4 });

    // Month 2: the plan's 10, nothing carried; a spend at the first millisecond of month 2 is month 2's.
    expect(await summaryOf(user, inMonth2)).toMatchObject({ usedPinCredits: 0, remaining: 10, periodStart: new Date(month2Start).toISOString() });
    await consumeCredits(testEnv, user.userId, { category: "image", amount: 2, reason: "Pin download", reference: "boundary:first" }, month2Start);
    expect(await summaryOf(user, inMonth2)).toMatchObject({ usedPinCredits: 2, remaining: 8 });
    expect(await summaryOf(user, inMonth1)).toMatchObject({ usedPinCredits: 6, remaining: 4 });

    // The month-1 video is reversed during month 2: dated like its spend, it gives month 1 its 5 back, not month 2.
    await reverseCredits(testEnv, user.userId, "boundary:video", "Video failed");
    expect(await summaryOf(user, inMonth1)).toMatchObject({ usedPinCredits: 1, remaining: 9 });
    expect(await summaryOf(user, inMonth2)).toMatchObject({ usedPinCredits: 2, remaining: 8 });
    // Taken out of the ledger (an unpaid batch taken back), a spend leaves its month's totals too.
    await ledgerOf(testEnv, user.userId).prepare("DELETE FROM credit_ledger WHERE user_id = ?1 AND reference = 'boundary:first'").bind(user.userId).run();
    expect(await summaryOf(user, inMonth2)).toMatchObject({ usedPinCredits: 0, remaining: 10 });
    // Moved from one month to the other, it leaves one and joins the other.
    await ledgerOf(testEnv, user.userId)
      .prepare("UPDATE credit_ledger SET created_at = ?2 WHERE user_id = ?1 AND reference = 'boundary:last'")
      .bind(user.userId, month2Start)
      .run();
    expect(await summaryOf(user, inMonth1)).toMatchObject({ usedPinCredits: 0, remaining: 10 });
    expect(await summaryOf(user, inMonth2)).toMatchObject({ usedPinCredits: 1, remaining: 9 });
  });

  it("charges a batch that the balance pays exactly, and refuses one a credit short with nothing written", async () => {
    const user = await signUpUser();
    await consumeCredits(testEnv, user.userId, { category: "image", amount: 2, reason: "Pin download", reference: "exact:first" });
    const eight = Array.from({ length: 8 }, (_, i) => pin(`exact:pin-${i}`));
    const charged = await addPinHistories(testEnv, user.userId, eight);
    expect(charged.every((item) => item.charged)).toBe(true);
    expect(await summaryOf(user)).toMatchObject({ usedPinCredits: 10, remaining: 0 });

    const other = await signUpUser();
    const eleven = Array.from({ length: 11 }, (_, i) => pin(`short:pin-${i}`));
    await expect(addPinHistories(testEnv, other.userId, eleven)).rejects.toMatchObject({ status: 402 });
    expect(await summaryOf(other)).toMatchObject({ usedPinCredits: 0, remaining: 10 });
  });

  it("goes with the account: deleting a user deletes their month totals with their ledger", async () => {
    const user = await signUpUser();
    await consumeCredits(testEnv, user.userId, { category: "image", amount: 1, reason: "Pin download", reference: "gone:download" });
    await summaryOf(user);
    // Read in the user's ledger object's own storage: once deleted, it answers no request any more.
    const count = () =>
      runInDurableObject(testEnv.USER_LEDGER.get(testEnv.USER_LEDGER.idFromName(user.userId)), (_instance, state) => {
        const sql = state.storage.sql;
        if (sql.exec(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'credit_month_totals'`).toArray().length === 0) return 0;
        return sql.exec<{ n: number }>(`SELECT count(*) AS n FROM credit_month_totals WHERE user_id = ?`, user.userId).one().n;
      });
    expect(await count()).toBeGreaterThan(0);
    expect((await app("/api/user/deleteUserAccount", { method: "DELETE", headers: bearer(user.tokens) })).status).toBe(200);
    expect(await count()).toBe(0);
  });

  it("never overdraws under concurrency: simultaneous single spends and batches charge at most the balance", async () => {
    const user = await signUpUser();
    const singles = Array.from({ length: 12 }, (_, i) =>
      consumeCredits(testEnv, user.userId, { category: "image", amount: 1, reason: "Pin download", reference: `race:single-${i}` }),
    );
    const batches = Array.from({ length: 6 }, (_, b) =>
      addPinHistories(testEnv, user.userId, [pin(`race:batch-${b}-a`), pin(`race:batch-${b}-b`), pin(`race:batch-${b}-c`)]),
    );
    const results = await Promise.allSettled([...singles, ...batches]);
    const refused = results.filter((result) => result.status === "rejected");
    for (const result of refused) expect((result as PromiseRejectedResult).reason).toMatchObject({ status: 402 });
    const paidSingles = results.slice(0, 12).filter((result) => result.status === "fulfilled").length;
    const paidBatches = results.slice(12).filter((result) => result.status === "fulfilled").length;
    expect(paidSingles + 3 * paidBatches).toBeLessThanOrEqual(10);
    // Something was refused (30 credits asked of 10), and what was paid is what the ledger and totals hold.
    expect(refused.length).toBeGreaterThan(0);
    const summary = await summaryOf(user);
    expect(summary.usedPinCredits).toBe(paidSingles + 3 * paidBatches);
    expect(summary.remaining).toBe(10 - summary.usedPinCredits);
    // A batch is all or nothing: no pin of a refused batch is in the ledger.
    const { results: spends } = await ledgerOf(testEnv, user.userId)
      .prepare("SELECT reference FROM credit_ledger WHERE user_id = ?1 AND reference LIKE 'race:batch-%'")
      .bind(user.userId)
      .all<{ reference: string }>();
    expect(spends).toHaveLength(3 * paidBatches);
  });
});
