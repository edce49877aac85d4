import { and, desc, eq, lt, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { database } from "../db/client.ts";
import { adminAuditLog } from "../db/schema.ts";
import type { Env } from "../env.ts";

/** Who acted: the signed-in admin, or (for the admin:grant script) no account but an e-mail. */
export interface AuditActor {
  id: string | null;
  email: string;
}

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
export function auditStatement(env: Env, actor: AuditActor, entry: AuditEntryInput): BatchItem<"sqlite"> {
  return database(env.DB)
    .insert(adminAuditLog)
    .values({
      id: crypto.randomUUID(),
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
 * The audit insert for a change made only when `condition` holds (a role still the one read, an account
 * not yet blocked), as a D1 statement: put it in the same `env.DB.batch` BEFORE the change, with the same
 * condition, so both see the same rows and the entry exists exactly when the change was made.
 */
export function auditStatementWhen(env: Env, actor: AuditActor, entry: AuditEntryInput, condition: SQL): D1PreparedStatement {
  const json = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value));
  const db = database(env.DB);
  const query = db
    .select({
      id: sql`${crypto.randomUUID()}`,
      adminId: sql`${actor.id}`,
      adminEmail: sql`${actor.email}`,
      action: sql`${entry.action}`,
      targetKind: sql`${entry.targetKind}`,
      targetId: sql`${entry.targetId}`,
      summary: sql`${entry.summary}`,
      before: sql`${json(entry.before)}`,
      after: sql`${json(entry.after)}`,
    })
    .from(sql`(SELECT 1)`)
    .where(condition)
    .toSQL();
  return env.DB.prepare(
    `INSERT INTO admin_audit_log (id, admin_id, admin_email, action, target_kind, target_id, summary, before, after) ${query.sql}`,
  ).bind(...query.params);
}

/** Records one admin action on its own (when the change is not a D1 write, e.g. an R2 or Durable Object call). */
export async function recordAdminAction(env: Env, actor: AuditActor, entry: AuditEntryInput): Promise<void> {
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
