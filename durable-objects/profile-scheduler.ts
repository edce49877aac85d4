import { DurableObject } from "cloudflare:workers";
import type { Env } from "../workers/env.ts";
import { recordSchedulerState } from "../workers/services/scheduler-index.ts";

/** A unit of work the scheduler runs when it falls due. */
export interface WorkItemInput {
  id: string;
  /** When it falls due, in ms since the epoch. */
  dueAt: number;
  kind: string;
  /** The item's data as JSON text (kept as text across the RPC boundary). */
  payload?: string;
}

export interface WorkItem extends Required<WorkItemInput> {
  status: "pending" | "done" | "failed";
  attempts: number;
  firedAt: number | null;
  result: string | null;
}

interface WorkItemRow extends Record<string, SqlStorageValue> {
  id: string;
  due_at: number;
  kind: string;
  payload: string;
  status: string;
  attempts: number;
  fired_at: number | null;
  result: string | null;
}

/**
 * One per connected Pinterest profile (named by `profileKey`). Its SQLite storage
 * holds the profile's queue of work items; its single alarm is the next due item.
 *
 * Alarms are delivered at least once, so `alarm()` is idempotent: it only acts on
 * items still pending and re-derives the next alarm from storage every time.
 */
export class ProfileScheduler extends DurableObject<Env> {
  private readonly sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    ctx.blockConcurrencyWhile(async () => {
      this.sql.exec(`CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`);
      this.sql.exec(`CREATE TABLE IF NOT EXISTS work_items (
        id TEXT PRIMARY KEY,
        due_at INTEGER NOT NULL,
        kind TEXT NOT NULL,
        payload TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'pending',
        attempts INTEGER NOT NULL DEFAULT 0,
        fired_at INTEGER,
        result TEXT
      )`);
      this.sql.exec(`CREATE INDEX IF NOT EXISTS work_items_pending ON work_items (status, due_at)`);
    });
  }

  /** Adds work items in one transaction (existing ids are left as they are) and re-arms the alarm. */
  async enqueue(profileKey: string, items: WorkItemInput[]): Promise<{ added: number }> {
    this.rememberProfileKey(profileKey);
    let added = 0;
    this.ctx.storage.transactionSync(() => {
      for (const item of items) {
        const cursor = this.sql.exec(
          `INSERT INTO work_items (id, due_at, kind, payload) VALUES (?, ?, ?, ?) ON CONFLICT(id) DO NOTHING`,
          item.id,
          item.dueAt,
          item.kind,
          item.payload ?? "null",
        );
        added += cursor.rowsWritten > 0 ? 1 : 0;
      }
    });
    await this.armNextAlarm();
    return { added };
  }

  /** Work items in due order, optionally only those with one status. */
  list(options: { status?: WorkItem["status"]; limit?: number } = {}): WorkItem[] {
    const limit = Math.min(Math.max(options.limit ?? 50, 1), 500);
    const rows = options.status
      ? this.sql.exec<WorkItemRow>(`SELECT * FROM work_items WHERE status = ? ORDER BY due_at, id LIMIT ?`, options.status, limit)
      : this.sql.exec<WorkItemRow>(`SELECT * FROM work_items ORDER BY due_at, id LIMIT ?`, limit);
    return rows.toArray().map(toWorkItem);
  }

  /** Sets the alarm to the next pending item again; the cron sweep calls it when an alarm went missing. */
  async rearm(): Promise<{ nextDueAt: number | null }> {
    return { nextDueAt: await this.armNextAlarm() };
  }

  async alarm(): Promise<void> {
    const now = Date.now();
    const due = this.sql
      .exec<WorkItemRow>(`SELECT * FROM work_items WHERE status = 'pending' AND due_at <= ? ORDER BY due_at, id LIMIT 100`, now)
      .toArray();
    for (const row of due) {
      // The scheduling engine (issue 6) gives each kind its work; until then an item is fired and recorded.
      this.sql.exec(
        `UPDATE work_items SET status = 'done', attempts = attempts + 1, fired_at = ?, result = ? WHERE id = ? AND status = 'pending'`,
        Date.now(),
        JSON.stringify({ fired: true, lateByMs: now - row.due_at }),
        row.id,
      );
    }
    await this.armNextAlarm();
  }

  private async armNextAlarm(): Promise<number | null> {
    const next = this.sql
      .exec<{ due_at: number | null; pending: number }>(
        `SELECT MIN(due_at) AS due_at, COUNT(*) AS pending FROM work_items WHERE status = 'pending'`,
      )
      .one();
    const nextDueAt = next.due_at ?? null;
    if (nextDueAt === null) await this.ctx.storage.deleteAlarm();
    else await this.ctx.storage.setAlarm(nextDueAt);
    const profileKey = this.profileKey();
    if (profileKey) await recordSchedulerState(this.env.DB, profileKey, nextDueAt, next.pending);
    return nextDueAt;
  }

  private rememberProfileKey(profileKey: string) {
    this.sql.exec(`INSERT INTO meta (key, value) VALUES ('profile_key', ?) ON CONFLICT(key) DO NOTHING`, profileKey);
  }

  private profileKey(): string | null {
    const row = this.sql.exec<{ value: string }>(`SELECT value FROM meta WHERE key = 'profile_key'`).toArray()[0];
    return row?.value ?? null;
  }
}

function toWorkItem(row: WorkItemRow): WorkItem {
  return {
    id: row.id,
    dueAt: row.due_at,
    kind: row.kind,
    payload: row.payload,
    status: row.status as WorkItem["status"],
    attempts: row.attempts,
    firedAt: row.fired_at,
    result: row.result,
  };
}
