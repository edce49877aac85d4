import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { RedeemBatchDetail, RedeemBatchSummary, RedeemCodeRow } from "../../../contracts/admin/admin-redeem-codes.ts";
import { database } from "../../db/client.ts";
import { csvForSpreadsheets } from "../../domain/csv-export.ts";
import { plans, redeemCodeBatches, redeemCodes, users } from "../../db/schema.ts";
import type { Env } from "../../env.ts";
import type { User } from "../accounts/accounts.ts";
import { actorOf, auditStatementIfChanged } from "./admin-audit.ts";
import { ServiceError } from "../core/errors.ts";
import { planGrantText } from "../billing/redeem-codes.ts";

/**
 * The admin's view of redeem-code batches (issue 20, decision 053): the list
 * with how many codes were used, one batch's codes with who used each and
 * when, its CSV, and disabling a batch or a single code. Creating a batch is
 * createRedeemCodes (redeem-codes.ts). Every change writes its audit entry in
 * the same D1 batch.
 */

/** Batches the list shows, newest first. */
export const BATCH_LIST_LIMIT = 200;

const BATCH_NOT_FOUND = "No such batch of codes";

function summaryQuery(env: Env) {
  return database(env.DB)
    .select({
      batch: redeemCodeBatches,
      planName: plans.name,
      createdBy: users.email,
      used: sql<number>`(SELECT count(*) FROM ${redeemCodes} WHERE ${redeemCodes.batchId} = ${redeemCodeBatches.id} AND ${redeemCodes.redeemedAt} IS NOT NULL)`,
      disabledCodes: sql<number>`(SELECT count(*) FROM ${redeemCodes} WHERE ${redeemCodes.batchId} = ${redeemCodeBatches.id} AND ${redeemCodes.disabledAt} IS NOT NULL)`,
    })
    .from(redeemCodeBatches)
    .innerJoin(plans, eq(plans.id, redeemCodeBatches.planId))
    .leftJoin(users, eq(users.id, redeemCodeBatches.createdBy));
}

type SummaryRow = Awaited<ReturnType<ReturnType<typeof summaryQuery>["execute"]>>[number];

function toSummary(row: SummaryRow): RedeemBatchSummary {
  const { batch } = row;
  return {
    batchId: batch.id,
    planId: batch.planId,
    planName: row.planName,
    months: batch.months,
    note: batch.note,
    count: batch.codeCount,
    used: Number(row.used),
    disabledCodes: Number(row.disabledCodes),
    expiresAt: batch.expiresAt,
    disabledAt: batch.disabledAt,
    createdAt: batch.createdAt,
    createdBy: row.createdBy,
  };
}

/** GET /api/admin/redeemCodeBatches */
export async function listRedeemBatches(env: Env): Promise<RedeemBatchSummary[]> {
  const rows = await summaryQuery(env).orderBy(desc(redeemCodeBatches.createdAt), desc(redeemCodeBatches.id)).limit(BATCH_LIST_LIMIT);
  return rows.map(toSummary);
}

async function batchSummary(env: Env, batchId: string): Promise<RedeemBatchSummary> {
  const [row] = await summaryQuery(env).where(eq(redeemCodeBatches.id, batchId));
  if (!row) throw new ServiceError(404, BATCH_NOT_FOUND);
  return toSummary(row);
}

function codeStatus(code: { redeemedAt: number | null; disabledAt: number | null }, batch: RedeemBatchSummary, now: number): RedeemCodeRow["status"] {
  if (code.redeemedAt !== null) return "used";
  if (code.disabledAt !== null || batch.disabledAt !== null) return "disabled";
  if (batch.expiresAt !== null && batch.expiresAt <= now) return "expired";
  return "unused";
}

/** GET /api/admin/redeemCodeBatches/:batchId: the batch and each code's state, who used it and when. */
export async function redeemBatchDetail(env: Env, batchId: string, now = Date.now()): Promise<RedeemBatchDetail> {
  const batch = await batchSummary(env, batchId);
  const rows = await database(env.DB)
    .select({
      code: redeemCodes.code,
      redeemedAt: redeemCodes.redeemedAt,
      disabledAt: redeemCodes.disabledAt,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
    })
    .from(redeemCodes)
    .leftJoin(users, eq(users.id, redeemCodes.redeemedBy))
    .where(eq(redeemCodes.batchId, batchId))
    .orderBy(sql`${redeemCodes.redeemedAt} IS NULL`, desc(redeemCodes.redeemedAt), redeemCodes.code);
  return {
    ...batch,
    codes: rows.map((row) => ({
      code: row.code,
      status: codeStatus(row, batch, now),
      redeemedAt: row.redeemedAt,
      redeemedBy: row.email ? { email: row.email, name: `${row.firstName ?? ""} ${row.lastName ?? ""}`.trim() } : null,
      disabledAt: row.disabledAt,
    })),
  };
}

const STATUS_WORDS: Record<RedeemCodeRow["status"], string> = { unused: "Not used", used: "Used", disabled: "Disabled", expired: "Expired" };

/**
 * GET /api/admin/redeemCodeBatches/:batchId/csv: one row per code, to hand
 * the codes out or check them off. Times are written in `timeZone` (the
 * admin's, sent by the page), as people read them.
 */
export async function redeemBatchCsv(env: Env, batchId: string, timeZone = "UTC", now = Date.now()): Promise<{ fileName: string; csv: string }> {
  const batch = await redeemBatchDetail(env, batchId, now);
  const time = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone });
  const when = (ms: number | null) => (ms === null ? "" : time.format(ms));
  const csv = csvForSpreadsheets(
    ["Code", "Plan", "Gives", "Expires", "Status", "Redeemed by", "Redeemed at"],
    batch.codes.map((code) => [
      code.code,
      batch.planName,
      planGrantText(batch.planName, batch.months),
      batch.expiresAt === null ? "Never" : when(batch.expiresAt),
      STATUS_WORDS[code.status],
      code.redeemedBy ? `${code.redeemedBy.name} <${code.redeemedBy.email}>` : "",
      when(code.redeemedAt),
    ]),
  );
  const day = new Date(batch.createdAt).toISOString().slice(0, 10);
  return { fileName: `redeem-codes-${batch.planId}-${day}-${batch.batchId.slice(0, 8)}.csv`, csv };
}

/** POST /api/admin/redeemCodeBatches/:batchId/disable: no code of the batch can be redeemed any more (used ones stay used). */
export async function disableRedeemBatch(env: Env, admin: User, batchId: string, now = Date.now()): Promise<RedeemBatchSummary> {
  const before = await batchSummary(env, batchId);
  if (before.disabledAt !== null) return before;
  const db = database(env.DB);
  const unused = before.count - before.used;
  await db.batch([
    db
      .update(redeemCodeBatches)
      .set({ disabledAt: now })
      .where(and(eq(redeemCodeBatches.id, batchId), isNull(redeemCodeBatches.disabledAt))),
    // Only if the update above disabled it (another admin may have done so a moment before).
    auditStatementIfChanged(env, actorOf(admin), {
      action: "codes.disable",
      targetKind: "redeem-batch",
      targetId: batchId,
      summary: `Disabled a batch of ${before.count} redeem codes for ${planGrantText(before.planName, before.months)}: ${unused} unused ${unused === 1 ? "code" : "codes"} can no longer be redeemed.`,
      before: { disabled: false, used: before.used, unused },
      after: { disabled: true, used: before.used, unused: 0 },
    }),
    db
      .update(redeemCodes)
      .set({ disabledAt: now })
      .where(and(eq(redeemCodes.batchId, batchId), isNull(redeemCodes.redeemedAt), isNull(redeemCodes.disabledAt))),
  ]);
  return batchSummary(env, batchId);
}

/** POST /api/admin/redeemCodes/:code/disable: this one code cannot be redeemed any more. A used code cannot be disabled. */
export async function disableRedeemCode(env: Env, admin: User, code: string, now = Date.now()): Promise<RedeemCodeRow> {
  const db = database(env.DB);
  const row = await db.query.redeemCodes.findFirst({ where: eq(redeemCodes.code, code) });
  if (!row) throw new ServiceError(404, "No such redeem code");
  if (row.redeemedAt !== null) throw new ServiceError(409, "This code has already been redeemed: it cannot be disabled.");
  if (row.disabledAt === null) {
    await db.batch([
      db
        .update(redeemCodes)
        .set({ disabledAt: now })
        .where(and(eq(redeemCodes.code, code), isNull(redeemCodes.redeemedAt), isNull(redeemCodes.disabledAt))),
      // Only if the update above disabled it (not redeemed, nor disabled by another admin, a moment before).
      auditStatementIfChanged(env, actorOf(admin), {
        action: "code.disable",
        targetKind: "redeem-code",
        targetId: code,
        summary: `Disabled the redeem code ${code} (batch ${row.batchId.slice(0, 8)}).`,
        before: { disabled: false, batchId: row.batchId },
        after: { disabled: true, batchId: row.batchId },
      }),
    ]);
  }
  const detail = await redeemBatchDetail(env, row.batchId, now);
  return detail.codes.find((candidate) => candidate.code === code)!;
}
