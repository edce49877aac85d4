import type { Env } from "../../workers/env.ts";
import { ledgerOf, type Ledger } from "../../workers/ledger/client.ts";
import { queueStatesStatement, type MirroredQueueState } from "../../workers/services/pinterest/pin-history.ts";
import type { QueueStore } from "./queue-store.ts";

/**
 * The queue's side of the pin history (docs/decisions/066-pin-history-mirrors-the-queue.md): every change of
 * a waiting pin's state (paused, failed, awaiting approval, moved, back in the queue, deleted) is written to
 * its history entry, in the owner's UserLedger (decision 084), so the /pin-history page reads the ledger alone instead
 * of asking each profile's queue.
 *
 * - Triggers on `pins` note each change in `history_changes` (one row per pin, its latest state), in the same
 *   transaction as the change: no path that changes a pin can forget to, and a change is never lost.
 * - `flush` writes what is noted to the owner's ledger and forgets what it wrote. Every request that changes the queue and
 *   every alarm run flush before they answer (QueueAlarm.arm), so the history a user opens next shows it.
 * - A flush that fails leaves the notes where they are; the alarm tries again (HISTORY_RETRY_MS).
 * - Flushes run one at a time, in order: a later state never lands before an earlier one. A note changed
 *   while its flush was on its way (`version`) is kept for the next one.
 *
 * Not noted: a held pin confirmed as placed (its entry was written as scheduled, at that time), a pin being
 * posted, and posting itself (recordPinPosted writes that). Disconnecting a profile marks its waiting entries
 * deleted (removeProfile), since its queue is cleared with the profile; a flush for a profile no longer connected
 * forgets its notes.
 */

/** Notes written per statement, and statements per batch. */
const NOTES_PER_STATEMENT = 500;
const STATEMENTS_PER_BATCH = 20;

/** The states a history entry mirrors (a pin being posted shows as scheduled until it is posted). */
const MIRRORED = "('scheduled', 'awaiting', 'paused', 'failed')";

interface ChangeRow extends Record<string, SqlStorageValue> {
  pin_id: string;
  state: string;
  scheduled_time: number | null;
  error: string | null;
  version: number;
}

export class HistoryMirror {
  /** The ledger a user's entries are written to (a test swaps it for one that fails). */
  ledgerFor: (userId: string) => Pick<Ledger, "batch" | "prepare" | "userId">;
  private readonly env: Env;
  private readonly store: QueueStore;
  private queue: Promise<unknown> = Promise.resolve();
  /** The profile's owner, once read from D1 (a profile never changes hands). */
  private owner: string | null = null;

  constructor(env: Env, store: QueueStore) {
    this.env = env;
    this.store = store;
    this.ledgerFor = (userId) => ledgerOf(env, userId);
  }

  /**
   * The notes table and its triggers. An object made before them notes every pin it holds once, as they are
   * created, so entries written before the mirror existed catch up the first time their queue wakes.
   */
  migrate() {
    const sql = this.store.sql;
    const exists = sql.exec(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'history_changes'`).toArray().length > 0;
    if (exists) return;
    sql.exec(`CREATE TABLE history_changes (
        pin_id TEXT PRIMARY KEY,
        state TEXT NOT NULL,
        scheduled_time INTEGER,
        error TEXT,
        version INTEGER NOT NULL DEFAULT 1
      )`);
    const note = (pin: "NEW" | "OLD", state: string, error: string) => `INSERT INTO history_changes (pin_id, state, scheduled_time, error)
        VALUES (${pin}.id, ${state}, ${pin}.scheduled_time, ${error})
        ON CONFLICT (pin_id) DO UPDATE SET state = excluded.state, scheduled_time = excluded.scheduled_time, error = excluded.error, version = version + 1`;
    sql.exec(`CREATE TRIGGER history_changes_update AFTER UPDATE OF status, scheduled_time, last_error ON pins
        WHEN NEW.status IN ${MIRRORED}
          AND (NEW.status IS NOT OLD.status OR NEW.scheduled_time IS NOT OLD.scheduled_time OR NEW.last_error IS NOT OLD.last_error)
          AND NOT (OLD.status IN ('held', 'posting') AND NEW.status = 'scheduled' AND NEW.scheduled_time IS OLD.scheduled_time)
        BEGIN ${note("NEW", "NEW.status", "NEW.last_error")}; END`);
    sql.exec(`CREATE TRIGGER history_changes_delete AFTER DELETE ON pins WHEN OLD.status NOT IN ('held', 'posted')
        BEGIN ${note("OLD", "'deleted'", "NULL")}; END`);
    // What entries written before the mirror need: every pin held here not posted, and the ids deleted.
    sql.exec(`INSERT INTO history_changes (pin_id, state, scheduled_time, error)
        SELECT id, CASE WHEN status IN ${MIRRORED} THEN status ELSE 'scheduled' END, scheduled_time, last_error FROM pins WHERE status != 'posted'`);
    sql.exec(`INSERT OR IGNORE INTO history_changes (pin_id, state) SELECT id, 'deleted' FROM retired_pins`);
  }

  /** Whether notes are waiting to be written (the alarm tries again while they are). */
  pending(): boolean {
    return this.store.sql.exec(`SELECT 1 FROM history_changes LIMIT 1`).toArray().length > 0;
  }

  /** Forgets every note (the queue was cleared with its profile, whose entries removeProfile marked deleted). */
  clear() {
    this.store.sql.exec(`DELETE FROM history_changes`);
  }

  /** Writes what is noted to D1, after any flush already going. Answers whether everything noted was written. */
  flush(profileKey: string): Promise<boolean> {
    const run = this.queue.then(() => this.flushNow(profileKey));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async flushNow(profileKey: string): Promise<boolean> {
    const sql = this.store.sql;
    if (this.owner === null) {
      try {
        const row = await this.env.DB.prepare(`SELECT user_id FROM pinterest_profiles WHERE id = ?1`).bind(profileKey).first<{ user_id: string }>();
        if (!row) {
          // No longer connected: removeProfile marked its waiting entries deleted.
          this.clear();
          return true;
        }
        this.owner = row.user_id;
      } catch (error) {
        console.warn(`ProfileScheduler ${profileKey}: pin history not updated yet, will try again:`, error instanceof Error ? error.message : error);
        return false;
      }
    }
    const ledger = this.ledgerFor(this.owner);
    for (;;) {
      const notes = sql
        .exec<ChangeRow>(`SELECT pin_id, state, scheduled_time, error, version FROM history_changes LIMIT ?`, NOTES_PER_STATEMENT * STATEMENTS_PER_BATCH)
        .toArray();
      if (notes.length === 0) return true;
      const statements: ReturnType<typeof queueStatesStatement>[] = [];
      for (let start = 0; start < notes.length; start += NOTES_PER_STATEMENT) {
        const states: Record<string, MirroredQueueState> = {};
        for (const note of notes.slice(start, start + NOTES_PER_STATEMENT))
          states[note.pin_id] = [note.state as MirroredQueueState[0], note.scheduled_time, note.error];
        statements.push(queueStatesStatement(ledger as Ledger, states));
      }
      try {
        await ledger.batch(statements);
      } catch (error) {
        console.warn(`ProfileScheduler ${profileKey}: pin history not updated yet, will try again:`, error instanceof Error ? error.message : error);
        return false;
      }
      this.store.transaction(() => {
        for (const note of notes) sql.exec(`DELETE FROM history_changes WHERE pin_id = ? AND version = ?`, note.pin_id, note.version);
      });
      if (notes.length < NOTES_PER_STATEMENT * STATEMENTS_PER_BATCH) return true;
    }
  }
}
