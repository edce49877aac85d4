import { and, eq, inArray } from "drizzle-orm";
import { database } from "../../workers/db/client.ts";
import { pinHistory, pinterestProfiles, users } from "../../workers/db/schema.ts";
import { ledgerOf } from "../../workers/ledger/client.ts";
import type { Env } from "../../workers/env.ts";
import { approvalRequired } from "../../workers/services/pinterest/approval-settings.ts";
import { recordSchedulerState } from "../../workers/services/pinterest/scheduler-index.ts";
import type { PinAnalytics } from "./analytics.ts";
import type { HistoryMirror } from "./history-mirror.ts";
import { pacedAfter, type PostingEngine } from "./posting.ts";
import { ACTIVE_STATES, DAY_MS, pauseReason, repeatingIdOf, type QueueStore } from "./queue-store.ts";
import type { RepeatingPins } from "./repeating.ts";

/**
 * The object's single alarm: the next moment something is due. A run settles
 * held pins, pauses or resumes the profile's pins, schedules due repeating
 * pins, posts what is due (PostingEngine), writes pending pin history and
 * forgets old pins; then the changes of waiting pins are written to their
 * history entries (HistoryMirror) and the alarm is set again from storage.
 *
 * Alarms are delivered at least once and may overlap with a manual run, so a
 * run never starts while one is going, and every step re-reads the storage.
 */

/** A held reservation older than this is settled by the alarm (charged: queued; not charged: dropped). */
const HOLD_TTL_MS = 5 * 60_000;
/** How often a paused profile (reconnect needed, blocked) is looked at again. */
const PAUSE_RECHECK_MS = 10 * 60_000;
/** Why a blocked account's pins wait (decision 051): nothing posts until an admin unblocks it. */
export const ACCOUNT_BLOCKED_PAUSE = "Posting is paused: this account is blocked.";
/** When writing pin history to D1 failed, try again this much later. */
const HISTORY_RETRY_MS = 30_000;
/** Posted pins are kept this long (the calendar, the 48-hour rule), then pruned. */
const KEEP_POSTED_MS = 90 * DAY_MS;
/** Retired pin ids are kept longer than any idempotency key lives (30 days), the only way an old id could come back. */
const KEEP_RETIRED_MS = 180 * DAY_MS;

export class QueueAlarm {
  private readonly env: Env;
  private readonly storage: DurableObjectStorage;
  private readonly store: QueueStore;
  private readonly posting: PostingEngine;
  private readonly repeating: RepeatingPins;
  private readonly mirror: HistoryMirror;
  private readonly analytics: PinAnalytics;
  private running: Promise<void> | null = null;

  constructor(
    env: Env,
    storage: DurableObjectStorage,
    store: QueueStore,
    posting: PostingEngine,
    repeating: RepeatingPins,
    mirror: HistoryMirror,
    analytics: PinAnalytics,
  ) {
    this.env = env;
    this.storage = storage;
    this.store = store;
    this.posting = posting;
    this.repeating = repeating;
    this.mirror = mirror;
    this.analytics = analytics;
  }

  /** Does the alarm's work; a run already going is joined, not doubled. */
  ring(): Promise<void> {
    if (this.running) return this.running;
    this.running = this.run().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async run(): Promise<void> {
    const profileKey = this.store.profileKey();
    if (!profileKey) {
      await this.storage.deleteAlarm();
      return;
    }
    try {
      this.posting.recoverCutShortAttempts();
      const found = await database(this.env.DB)
        .select({ profile: pinterestProfiles, ownerBlockedAt: users.blockedAt })
        .from(pinterestProfiles)
        .innerJoin(users, eq(users.id, pinterestProfiles.userId))
        .where(eq(pinterestProfiles.id, profileKey))
        .get();
      const profile = found?.profile;
      if (!profile) {
        this.store.sql.exec(
          `UPDATE pins SET status = 'failed', last_error = ?, updated_at = ? WHERE status IN ('held', 'scheduled', 'awaiting', 'paused')`,
          "This Pinterest profile is no longer connected.",
          Date.now(),
        );
        this.store.sql.exec(`DELETE FROM repeating_pins`);
      } else {
        await this.settleExpiredHolds(profileKey);
        if (found?.ownerBlockedAt != null) this.store.pauseAll(ACCOUNT_BLOCKED_PAUSE);
        else if (profile.status !== "ok") this.store.pauseAll(pauseReason(profile.status, profile.lastError));
        else {
          this.store.resume();
          await this.repeating.materialize();
          await this.posting.drain(profile);
        }
        await this.posting.writePendingHistory(profile.username, 50);
        this.forgetOldPins();
        // After posting, and bounded (a few requests): the day's figures from Pinterest (issue 41).
        if (found?.ownerBlockedAt == null) await this.analytics.step(profile);
      }
    } catch (error) {
      console.error(`ProfileScheduler ${profileKey}: alarm run failed`, error);
      await this.arm(Date.now() + HISTORY_RETRY_MS);
      return;
    }
    await this.arm();
  }

  /**
   * Held pins older than HOLD_TTL_MS: the request that held them never
   * confirmed. Those whose credits were charged (their "scheduled" history row
   * exists) join the queue (awaiting approval when the profile requires it); the others are dropped.
   */
  private async settleExpiredHolds(profileKey: string) {
    const sql = this.store.sql;
    const rows = sql
      .exec<{ id: string; user_id: string }>(`SELECT id, user_id FROM pins WHERE status = 'held' AND created_at < ? LIMIT 90`, Date.now() - HOLD_TTL_MS)
      .toArray();
    if (rows.length === 0) return;
    const awaitingApproval = await approvalRequired(this.env, profileKey);
    const charged = await ledgerOf(this.env, rows[0].user_id)
      .db.select({ reference: pinHistory.reference })
      .from(pinHistory)
      .where(
        and(
          eq(pinHistory.userId, rows[0].user_id),
          inArray(
            pinHistory.reference,
            rows.map((row) => `scheduled:${row.id}`),
          ),
        ),
      );
    const paid = new Set(charged.map((row) => row.reference.slice("scheduled:".length)));
    const now = Date.now();
    this.store.transaction(() => {
      for (const row of rows) {
        if (paid.has(row.id)) {
          sql.exec(`UPDATE pins SET status = ?, updated_at = ? WHERE id = ? AND status = 'held'`, awaitingApproval ? "awaiting" : "scheduled", now, row.id);
          sql.exec(`UPDATE repeating_pins SET held = 0 WHERE id = ?`, repeatingIdOf(row.id));
        } else this.store.dropHeld(row.id);
      }
    });
  }

  /** Forgets pins posted long ago (their ids stay retired a while longer) and retired ids older still. */
  private forgetOldPins() {
    const now = Date.now();
    this.store.transaction(() => {
      this.store.sql.exec(
        `INSERT OR IGNORE INTO retired_pins (id, retired_at) SELECT id, ? FROM pins WHERE status = 'posted' AND posted_at < ?`,
        now,
        now - KEEP_POSTED_MS,
      );
      this.store.sql.exec(`DELETE FROM pins WHERE status = 'posted' AND posted_at < ?`, now - KEEP_POSTED_MS);
      this.store.sql.exec(`DELETE FROM retired_pins WHERE retired_at < ?`, now - KEEP_RETIRED_MS);
      this.store.sql.exec(`DELETE FROM rejected_pins WHERE rejected_at < ?`, now - KEEP_RETIRED_MS);
    });
  }

  /**
   * Writes the waiting pins' changes to their history entries (HistoryMirror: every request that changes the
   * queue, and every run, ends here), then sets the alarm from storage (at `atMost` at the latest): the earliest
   * of the next due pin (held by a 429 and Queue pins by their pacing), a paused profile's next look, the next
   * repeating pin, the end of a held reservation, a history retry, and now for an attempt cut short. Records it
   * in the cron index.
   */
  async arm(atMost?: number): Promise<number | null> {
    const sql = this.store.sql;
    const profileKey = this.store.profileKey();
    if (profileKey && this.mirror.pending()) await this.mirror.flush(profileKey);
    const now = Date.now();
    const candidates: number[] = [];
    const hold = this.store.holdUntil();
    const settingsInterval = Number(this.store.meta("posting_interval_ms") ?? 0);
    const specific = sql.exec<{ t: number | null }>(`SELECT MIN(next_attempt_at) AS t FROM pins WHERE status = 'scheduled' AND type = 'SpecificDate'`).one().t;
    if (specific !== null) candidates.push(Math.max(specific, hold));
    const queue = sql.exec<{ t: number | null }>(`SELECT MIN(next_attempt_at) AS t FROM pins WHERE status = 'scheduled' AND type = 'Queue'`).one().t;
    if (queue !== null) {
      const last = Number(this.store.meta("last_queue_post_at") ?? 0);
      const paced = settingsInterval > 0 ? pacedAfter(last, settingsInterval) : 0;
      candidates.push(Math.max(queue, hold, paced));
    }
    const paused = sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM pins WHERE status = 'paused'`).one().n;
    if (paused > 0 || this.store.meta("paused_reason") !== null) candidates.push(now + PAUSE_RECHECK_MS);
    else {
      const repeating = sql.exec<{ t: number | null }>(`SELECT MIN(next_pin_date) AS t FROM repeating_pins WHERE held = 0`).one().t;
      if (repeating !== null) candidates.push(repeating);
    }
    const held = sql.exec<{ t: number | null }>(`SELECT MIN(created_at) AS t FROM pins WHERE status = 'held'`).one().t;
    if (held !== null) candidates.push(held + HOLD_TTL_MS);
    const history = sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM pins WHERE history_pending = 1`).one().n;
    if (history > 0 || this.mirror.pending()) candidates.push(now + HISTORY_RETRY_MS);
    const cutShort = sql.exec<{ attempt_id: string | null }>(`SELECT attempt_id FROM pins WHERE status = 'posting'`).toArray();
    if (cutShort.some((row) => !this.posting.isUnderWay(row.attempt_id))) candidates.push(now);
    if (atMost !== undefined) candidates.push(atMost);

    const queueNext = candidates.length > 0 ? Math.min(...candidates) : null;
    // The day's analytics pass (issue 41) rings the same alarm; the cron index keeps the queue's own time (a queue
    // with nothing to post is not "stalled" because its figures are read tonight).
    const analytics = this.store.meta("paused_reason") === null ? this.analytics.nextRingAt(now) : null;
    const next = analytics === null ? queueNext : Math.min(queueNext ?? Number.POSITIVE_INFINITY, Math.max(analytics, now));
    if (next === null) await this.storage.deleteAlarm();
    else if ((await this.storage.getAlarm()) !== next) await this.storage.setAlarm(next);
    if (profileKey) {
      const pending = sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM pins WHERE status IN ${ACTIVE_STATES}`).one().n;
      try {
        await recordSchedulerState(this.env.DB, profileKey, queueNext, pending);
      } catch (error) {
        // The alarm is what counts; the cron index catches up on the next change.
        console.warn(`ProfileScheduler ${profileKey}: the cron index was not updated:`, error instanceof Error ? error.message : error);
      }
    }
    return queueNext;
  }
}
