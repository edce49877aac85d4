import { and, desc, eq, lt, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { d1Statement, database } from "../../db/client.ts";
import { adminAuditLog } from "../../db/schema.ts";
import type { Env } from "../../env.ts";

/** Who acted: the signed-in admin, or (for the admin:grant script) no account but an e-mail. */
export interface AuditActor {
  id: string | null;
  email: string;
}

/** The signed-in admin as the audit log's actor. */
export const actorOf = (user: { id: string; email: string }): AuditActor => ({ id: user.id, email: user.email });

export interface AuditEntryInput {
  action: string;
  targetKind: string;
  targetId: string;
  summary: string;
  before?: unknown;
  after?: unknown;
}

/**
 * The insert that records one admin action, for the caller to put in the SAME `db.batch` as the change
 * itself: the change and its audit row are written together or not at all.
 */
export function auditStatement(env: Pick<Env, "DB">, actor: AuditActor, entry: AuditEntryInput, id: string = crypto.randomUUID()) {
  return database(env.DB)
    .insert(adminAuditLog)
    .values({
      id,
      adminId: actor.id,
      adminEmail: actor.email,
      action: entry.action,
      targetKind: entry.targetKind,
      targetId: entry.targetId,
      summary: entry.summary,
      before: entry.before ?? null,
      after: entry.after ?? null,
    });
}

/**
 * The audit insert of a change made only when `condition` holds, as INSERT ... SELECT ... WHERE: the entry is
 * written exactly when the change is.
 */
function conditionalAudit(env: Pick<Env, "DB">, actor: AuditActor, entry: AuditEntryInput, condition: SQL) {
  const json = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value));
  // INSERT ... SELECT: the table's columns in their order, created_at included.
  return database(env.DB)
    .insert(adminAuditLog)
    .select(
      sql`SELECT ${crypto.randomUUID()}, ${actor.id}, ${actor.email}, ${entry.action}, ${entry.targetKind}, ${entry.targetId}, ${entry.summary}, ${json(entry.before)}, ${json(entry.after)}, unixepoch('subsec') * 1000 WHERE ${condition}`,
    );
}

/**
 * Like auditStatement, for the statement just BEFORE it in the same `db.batch`: the entry is written only
 * when that statement changed a row (SQLite's changes()), so a conditional change that found nothing to
 * change (e.g. a code redeemed a moment before an admin disabled it) records no action.
 */
export function auditStatementIfChanged(env: Pick<Env, "DB">, actor: AuditActor, entry: AuditEntryInput): BatchItem<"sqlite"> {
  return conditionalAudit(env, actor, entry, sql`changes() > 0`);
}

/**
 * The audit insert for a change made only when `condition` holds (a role still the one read, an account
 * not yet blocked), as a D1 statement: put it in the same `env.DB.batch` BEFORE the change, with the same
 * condition, so both see the same rows and the entry exists exactly when the change was made.
 */
export function auditStatementWhen(env: Env, actor: AuditActor, entry: AuditEntryInput, condition: SQL): D1PreparedStatement {
  return d1Statement(env.DB, conditionalAudit(env, actor, entry, condition));
}

/** Records one admin action on its own (when the change is not a D1 write, e.g. an R2 or Durable Object call). */
export async function recordAdminAction(env: Pick<Env, "DB">, actor: AuditActor, entry: AuditEntryInput): Promise<void> {
  await auditStatement(env, actor, entry);
}

export interface AuditQuery {
  targetKind?: string;
  targetId?: string;
  /** Entries older than this time (ms), for paging back. */
  before?: number;
  limit?: number;
}

/** The log, newest first, optionally for one target. */
export async function listAdminAudit(env: Env, query: AuditQuery = {}) {
  const where: SQL[] = [];
  if (query.targetKind) where.push(eq(adminAuditLog.targetKind, query.targetKind));
  if (query.targetId) where.push(eq(adminAuditLog.targetId, query.targetId));
  if (query.before !== undefined) where.push(lt(adminAuditLog.createdAt, query.before));
  const limit = Math.min(Math.max(query.limit ?? 50, 1), 200);
  return database(env.DB)
    .select()
    .from(adminAuditLog)
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(adminAuditLog.createdAt))
    .limit(limit);
}
