import { DurableObject } from "cloudflare:workers";
import { eq, inArray, and } from "drizzle-orm";
import { CREDIT_COSTS } from "../contracts/credits.ts";
import type { PinterestPinCreate } from "../contracts/pinterest.ts";
import { BLOCKED_MESSAGE, REAUTHENTICATE_MESSAGE } from "../contracts/pinterest-connection.ts";
import {
  pinterestPinUrl,
  type DuplicateConflict,
  type PinContent,
  type QueueView,
  type RepeatingPin,
  type RepeatingPinsPage,
  type ScheduledPin,
  type ScheduledPinsPage,
  type ScheduledPinStatus,
} from "../contracts/scheduling-api.ts";
import type { SchedulingSettings } from "../contracts/scheduling.ts";
import { database } from "../workers/db/client.ts";
import { pinHistory, pinterestProfiles } from "../workers/db/schema.ts";
import {
  assignQueueSlots,
  DUPLICATE_WINDOW_MS,
  duplicateKeyOf,
  keysetPage,
  linkKey,
  matchesSentPin,
  MAX_MEDIA_WAITS,
  MEDIA_WAIT_MS,
  pageReachesBefore,
  pinFailureOutcome,
  pinHistoryDetails,
  QUEUE_PAGE_SIZE,
  uncertainFailure,
  NoFreeSlot,
  type SentPin,
  type SortOrder,
} from "../workers/domain/pin-queue.ts";
import type { Env } from "../workers/env.ts";
import { PinterestApiError, type PinterestClient } from "../workers/integrations/pinterest.ts";
import { addPinHistory } from "../workers/services/credits.ts";
import { recordPinPosted } from "../workers/services/pin-history.ts";
import { ServiceError } from "../workers/services/errors.ts";
import { schedulingSettingsOf, withPinterest, type PinterestProfile } from "../workers/services/pinterest-connection.ts";
import { recordSchedulerState } from "../workers/services/scheduler-index.ts";

/**
 * One per connected Pinterest profile (named by the pinterest_profiles row id).
 * Its SQLite storage holds the profile's queue: scheduled pins, repeating pins
 * and the posting state; its single alarm is the next moment something is due.
 * The alarm posts due pins exactly once (docs/decisions/012-scheduling-engine.md):
 *
 * - a pin is marked `posting` with a fresh attempt id before the call to
 *   Pinterest (the output gate holds the call until that write is durable);
 * - success records Pinterest's pin id, then the pin history row in D1;
 * - when the outcome is unknown (no answer, a 5xx, a crash mid-way) the next
 *   attempt first looks for the pin on its board and records it if found;
 * - 429 holds the whole profile until Pinterest's reset time; 5xx back off;
 *   401 refreshes the token once (withPinterest); a profile that needs
 *   reconnecting or is blocked pauses its pins with the reason; a pin Pinterest
 *   refuses, or that keeps failing, ends `failed` with the reason.
 *
 * Alarms are delivered at least once and may overlap with a manual run, so a
 * run never starts while one is going, and every step re-reads the storage.
 */

/** held: reserved while its credits are charged, not yet in the queue. */
type PinState = ScheduledPinStatus | "held";

interface PinRow extends Record<string, SqlStorageValue> {
  id: string;
  user_id: string;
  type: string;
  status: string;
  scheduled_time: number;
  next_attempt_at: number;
  board_id: string;
  link_key: string | null;
  allow_duplicate: number;
  media_type: string;
  data: string;
  attempts: number;
  failures: number;
  attempt_id: string | null;
  attempt_started_at: number | null;
  check_since: number | null;
  last_error: string | null;
  pinterest_pin_id: string | null;
  posted_at: number | null;
  history_pending: number;
  repeating_pin_id: string | null;
  created_at: number;
  updated_at: number;
}

interface RepeatingRow extends Record<string, SqlStorageValue> {
  id: string;
  user_id: string;
  held: number;
  board_id: string;
  media_type: string;
  data: string;
  interval_days: number;
  next_pin_date: number;
  occurrences: number;
  created_at: number;
  updated_at: number;
}

/** The content and placement of a pin to add, as the worker resolved it. */
export interface NewPinInput extends Omit<PinContent, "pinterestProfileUsername"> {
  id: string;
  type: "SpecificDate" | "Queue";
  /** For SpecificDate pins (already checked to be in the future). */
  scheduledTime: number | null;
  repeatIntervalInDays?: number;
}

export interface ReserveRequest {
  profileKey: string;
  username: string;
  userId: string;
  settings: SchedulingSettings;
  pins: NewPinInput[];
  /** How fields are named in messages: "" for one pin, "pins.3." in a batch. */
  fieldPrefixes: string[];
}

/** A refusal the worker answers as it is (the class of a thrown error does not cross the RPC boundary). */
export interface Refusal {
  ok: false;
  status: 400 | 404 | 409;
  message: string;
  field?: string;
}

/** A pin the 48-hour rule refuses on its own: the refusal as a single pin's call answers it, and the pin it clashes with. */
export interface DuplicateRefusal {
  status: 409;
  message: string;
  field: string;
  conflict: DuplicateConflict;
}

/**
 * held: placed (at `scheduledTime`) until confirmed; existing: the id is queued already (a retried schedule);
 * gone: it was queued once and deleted since, so it is never placed again; refused: the 48-hour rule (`refusal`).
 */
export type ReservedPin =
  | { id: string; state: "held"; scheduledTime: number }
  | { id: string; state: "existing" | "gone" }
  | { id: string; state: "refused"; refusal: DuplicateRefusal };
export type Reserved = { ok: true; pins: ReservedPin[] };

/** Where a pin of the history stands in its queue (ProfileScheduler.historyStates). */
export interface PinHistoryState {
  status: ScheduledPinStatus | "deleted";
  scheduledTime: number | null;
  postedAt: number | null;
  pinterestPinId: string | null;
  error: string | null;
}

export interface PinChanges {
  id: string;
  title?: string;
  description?: string;
  altText?: string;
  url?: string;
  imageURL?: string;
  mediaURL?: string;
  videoURL?: string;
  videoThumbnail?: string;
  media_id?: string;
  boardId?: string;
  sectionId?: string | null;
  boardName?: string;
  allowDuplicate?: boolean;
  scheduledTime?: number;
  type?: "SpecificDate" | "Queue";
}

export interface RepeatingChanges extends Omit<PinChanges, "scheduledTime" | "type"> {
  nextPinDate?: number;
  intervalInDays?: number;
}

export type ProfileStatus = PinterestProfile["status"];

const DAY_MS = 86_400_000;
/** Pins posted in one alarm run at most, and for how long it runs, before it hands over to a fresh run. */
const RUN_MAX_PINS = 100;
const RUN_BUDGET_MS = 30_000;
/** A held reservation older than this is settled by the alarm (charged: queued; not charged: dropped). */
const HOLD_TTL_MS = 5 * 60_000;
/** How often a paused profile (reconnect needed, blocked) is looked at again. */
const PAUSE_RECHECK_MS = 10 * 60_000;
/** When writing pin history to D1 failed, try again this much later. */
const HISTORY_RETRY_MS = 30_000;
/** Alarm lateness a Queue pin's pacing forgives (slots are exactly one interval apart). */
const PACING_TOLERANCE_MS = 60_000;
/** Posted pins are kept this long (the calendar, the 48-hour rule), then pruned. */
const KEEP_POSTED_MS = 90 * DAY_MS;
/** Retired pin ids are kept longer than any idempotency key lives (30 days), the only way an old id could come back. */
const KEEP_RETIRED_MS = 180 * DAY_MS;
/** Board pages read when looking for a pin whose answer was lost (newest first). */
const BOARD_CHECK_PAGES = 4;
const BOARD_CHECK_PAGE_SIZE = 50;

const PENDING_STATES = "('scheduled', 'posting', 'paused', 'failed')";
const ACTIVE_STATES = "('held', 'scheduled', 'posting', 'paused')";
const VIEW_FILTERS: Record<QueueView, string> = {
  pending: `status IN ${PENDING_STATES}`,
  posted: "status = 'posted'",
  failed: "status = 'failed'",
  all: "status != 'held'",
};
/** The index each view pages through in order (one status: that status's times; several: all times, filtered). */
const VIEW_INDEXES: Record<QueueView, string> = { pending: "pins_by_time", posted: "pins_by_status_time", failed: "pins_by_status_time", all: "pins_by_time" };

export class ProfileScheduler extends DurableObject<Env> {
  private readonly sql: SqlStorage;
  /** Attempts this instance has under way; a `posting` row not in here was cut short (the object restarted). */
  private readonly inFlight = new Set<string>();
  private running: Promise<void> | null = null;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    ctx.blockConcurrencyWhile(async () => {
      this.sql.exec(`DROP TABLE IF EXISTS work_items`);
      this.sql.exec(`CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`);
      this.sql.exec(`CREATE TABLE IF NOT EXISTS pins (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL,
        type TEXT NOT NULL,
        status TEXT NOT NULL,
        scheduled_time INTEGER NOT NULL,
        next_attempt_at INTEGER NOT NULL,
        board_id TEXT NOT NULL,
        link_key TEXT,
        allow_duplicate INTEGER NOT NULL DEFAULT 0,
        media_type TEXT NOT NULL,
        data TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        failures INTEGER NOT NULL DEFAULT 0,
        attempt_id TEXT,
        attempt_started_at INTEGER,
        check_since INTEGER,
        last_error TEXT,
        pinterest_pin_id TEXT,
        posted_at INTEGER,
        history_pending INTEGER NOT NULL DEFAULT 0,
        repeating_pin_id TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      )`);
      this.sql.exec(`CREATE INDEX IF NOT EXISTS pins_by_time ON pins (scheduled_time, id)`);
      this.sql.exec(`CREATE INDEX IF NOT EXISTS pins_due ON pins (status, next_attempt_at)`);
      this.sql.exec(`CREATE INDEX IF NOT EXISTS pins_by_link ON pins (board_id, link_key)`);
      this.sql.exec(`CREATE INDEX IF NOT EXISTS pins_by_status_time ON pins (status, scheduled_time, id)`);
      this.sql.exec(`CREATE TABLE IF NOT EXISTS repeating_pins (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL,
        held INTEGER NOT NULL DEFAULT 0,
        board_id TEXT NOT NULL,
        media_type TEXT NOT NULL,
        data TEXT NOT NULL,
        interval_days INTEGER NOT NULL,
        next_pin_date INTEGER NOT NULL,
        occurrences INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      )`);
      this.sql.exec(`CREATE INDEX IF NOT EXISTS repeating_by_date ON repeating_pins (next_pin_date, id)`);
      // Ids of pins deleted (or posted and forgotten): a pin id is placed at most once, so a
      // retried request can never bring back, unpaid, a pin that was deleted after it was charged.
      this.sql.exec(`CREATE TABLE IF NOT EXISTS retired_pins (id TEXT PRIMARY KEY, retired_at INTEGER NOT NULL)`);
      this.sql.exec(`CREATE INDEX IF NOT EXISTS retired_by_time ON retired_pins (retired_at)`);
    });
  }

  // ================================================================ adding pins

  /**
   * Places new pins (held: not postable until `confirm`): Queue pins take the
   * next free slots that keep the 48-hour rule, SpecificDate pins keep their
   * time and are refused on their own ("refused", with the 409 a single pin's
   * call answers) when they break it; the others are placed all the same. A pin
   * id already here answers "existing" (a retried schedule). A full queue
   * refuses them all.
   */
  reserve(request: ReserveRequest): Reserved | Refusal {
    this.remember(request.profileKey);
    this.setMeta("posting_interval_ms", String(request.settings.postingIntervalInSeconds * 1000));
    const now = Date.now();
    const result: ReservedPin[] = [];
    try {
      this.ctx.storage.transactionSync(() => {
        const fresh: { pin: NewPinInput; index: number }[] = [];
        request.pins.forEach((pin, index) => {
          const existing = this.sql.exec<{ status: string; scheduled_time: number }>(`SELECT status, scheduled_time FROM pins WHERE id = ?`, pin.id).toArray()[0];
          if (existing) result.push(existing.status === "held" ? { id: pin.id, state: "held", scheduledTime: existing.scheduled_time } : { id: pin.id, state: "existing" });
          else if (this.sql.exec(`SELECT 1 FROM retired_pins WHERE id = ?`, pin.id).toArray().length > 0) result.push({ id: pin.id, state: "gone" });
          else {
            result.push({ id: pin.id, state: "held", scheduledTime: 0 });
            fresh.push({ pin, index });
          }
        });
        const queued = fresh.filter(({ pin }) => pin.type === "Queue");
        const keyTimes = new Map<string, number[]>();
        for (const { pin } of queued) {
          const key = pin.allowDuplicate ? null : duplicateKeyOf(pin.boardId, linkKey(pin.url));
          if (key !== null && !keyTimes.has(key)) keyTimes.set(key, this.timesOfLink(pin.boardId, linkKey(pin.url)));
        }
        // SpecificDate pins first: Queue pins then keep 48 hours from them too.
        for (const { pin, index } of fresh) {
          if (pin.type !== "SpecificDate") continue;
          const at = pin.scheduledTime as number;
          const clash = this.duplicateOf(pin.id, pin.boardId, pin.url, pin.boardName, pin.title, at, pin.allowDuplicate, request.fieldPrefixes[index]);
          if (clash) {
            result[index] = { id: pin.id, state: "refused", refusal: clash };
            continue;
          }
          this.insertPin(pin, request, at, "held", now);
          result[index] = { id: pin.id, state: "held", scheduledTime: at };
          const key = pin.allowDuplicate ? null : duplicateKeyOf(pin.boardId, linkKey(pin.url));
          if (key !== null && keyTimes.has(key)) keyTimes.get(key)!.push(at);
        }
        if (queued.length > 0) {
          const slots = assignQueueSlots(
            request.settings,
            now,
            this.takenTimes(now),
            queued.map(({ pin }) => ({ duplicateKey: pin.allowDuplicate ? null : duplicateKeyOf(pin.boardId, linkKey(pin.url)) })),
            keyTimes,
          );
          queued.forEach(({ pin, index }, i) => {
            this.insertPin(pin, request, slots[i], "held", now);
            result[index] = { id: pin.id, state: "held", scheduledTime: slots[i] };
          });
        }
      });
    } catch (error) {
      if (isRefusal(error)) return error;
      if (error instanceof NoFreeSlot) return refusal(409, error.message);
      throw error;
    }
    return { ok: true, pins: result };
  }

  /** Queues held pins (their credits were charged) and arms the alarm. */
  async confirm(ids: string[], profileStatus: ProfileStatus, profileError: string | null): Promise<{ scheduledPins: ScheduledPin[]; repeatingPins: RepeatingPin[] }> {
    const now = Date.now();
    const paused = profileStatus !== "ok";
    this.ctx.storage.transactionSync(() => {
      for (const id of ids) {
        this.sql.exec(
          `UPDATE pins SET status = ?, last_error = ?, updated_at = ? WHERE id = ? AND status = 'held'`,
          paused ? "paused" : "scheduled",
          paused ? pauseReason(profileStatus, profileError) : null,
          now,
          id,
        );
        this.sql.exec(`UPDATE repeating_pins SET held = 0, updated_at = ? WHERE id = ? AND held = 1`, now, repeatingIdOf(id));
      }
    });
    await this.armNextAlarm();
    const scheduledPins = ids.map((id) => this.pinView(id)).filter((pin): pin is ScheduledPin => pin !== null);
    const repeatingPins = ids.map((id) => this.repeatingView(repeatingIdOf(id))).filter((pin): pin is RepeatingPin => pin !== null);
    return { scheduledPins, repeatingPins };
  }

  /** Drops held pins whose credits were refused. */
  async release(ids: string[]): Promise<void> {
    this.ctx.storage.transactionSync(() => {
      for (const id of ids) {
        this.sql.exec(`DELETE FROM pins WHERE id = ? AND status = 'held'`, id);
        this.sql.exec(`DELETE FROM repeating_pins WHERE id = ? AND held = 1`, repeatingIdOf(id));
      }
    });
    await this.armNextAlarm();
  }

  // ================================================================ reading

  async list(options: { view: QueueView; sortBy: SortOrder; lastPinId?: string; limit?: number; profileStatus?: ProfileStatus; profileError?: string | null }): Promise<ScheduledPinsPage | Refusal> {
    if (options.profileStatus && this.noteProfileStatus(options.profileStatus, options.profileError ?? null)) await this.armNextAlarm();
    const filter = VIEW_FILTERS[options.view];
    let cursor: { scheduledTime: number; id: string } | null = null;
    if (options.lastPinId) {
      const row = this.sql.exec<{ scheduled_time: number }>(`SELECT scheduled_time FROM pins WHERE id = ? AND status != 'held'`, options.lastPinId).toArray()[0];
      if (!row) return { ok: false, status: 400, message: "lastPinId is not a pin of this queue", field: "lastPinId" };
      cursor = { scheduledTime: row.scheduled_time, id: options.lastPinId };
    }
    const page = keysetPage(options.sortBy, cursor);
    const limit = Math.min(Math.max(options.limit ?? QUEUE_PAGE_SIZE, 1), 500);
    const rows = this.sql
      // Walk an index in page order: never a sort of the whole queue.
      .exec<PinRow>(`SELECT * FROM pins INDEXED BY ${VIEW_INDEXES[options.view]} WHERE ${filter} AND ${page.where} ORDER BY ${page.orderBy} LIMIT ?`, ...page.params, limit)
      .toArray();
    const total = this.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM pins WHERE ${filter}`).one().n;
    const last =
      this.sql
        .exec<{ t: number }>(`SELECT scheduled_time AS t FROM pins INDEXED BY pins_by_time WHERE status IN ('scheduled', 'posting', 'paused') ORDER BY scheduled_time DESC, id DESC LIMIT 1`)
        .toArray()[0]?.t ?? null;
    return { scheduledPins: rows.map(toPinView), totalCount: total, lastPinScheduledTime: last === null ? null : new Date(last).toISOString() };
  }

  findPin(id: string): ScheduledPin | null {
    return this.pinView(id);
  }

  /**
   * Where each of these pins stands, for the pin history: its status, time,
   * posting and error; "deleted" for a pin taken out of the queue (its id is
   * retired, or unknown here). A pin posted and forgotten long ago is answered
   * "deleted" too: the history knows it was posted.
   */
  historyStates(ids: string[]): Record<string, PinHistoryState> {
    const states: Record<string, PinHistoryState> = {};
    for (const id of ids) {
      const row = this.sql
        .exec<Pick<PinRow, "status" | "scheduled_time" | "posted_at" | "pinterest_pin_id" | "last_error">>(
          `SELECT status, scheduled_time, posted_at, pinterest_pin_id, last_error FROM pins WHERE id = ?`,
          id,
        )
        .toArray()[0];
      states[id] = row
        ? {
            // A held pin is being scheduled right now: its request charged it, or is about to.
            status: row.status === "held" ? "scheduled" : (row.status as ScheduledPinStatus),
            scheduledTime: row.scheduled_time,
            postedAt: row.posted_at,
            pinterestPinId: row.pinterest_pin_id,
            error: row.last_error,
          }
        : { status: "deleted", scheduledTime: null, postedAt: null, pinterestPinId: null, error: null };
    }
    return states;
  }

  findRepeating(id: string): RepeatingPin | null {
    return this.repeatingView(id);
  }

  listRepeating(options: { lastPinId?: string; limit?: number }): RepeatingPinsPage | Refusal {
    let where = "held = 0";
    const params: (string | number)[] = [];
    if (options.lastPinId) {
      const row = this.sql.exec<{ next_pin_date: number }>(`SELECT next_pin_date FROM repeating_pins WHERE id = ? AND held = 0`, options.lastPinId).toArray()[0];
      if (!row) return { ok: false, status: 400, message: "lastPinId is not a repeating pin of this profile", field: "lastPinId" };
      where += " AND (next_pin_date > ? OR (next_pin_date = ? AND id > ?))";
      params.push(row.next_pin_date, row.next_pin_date, options.lastPinId);
    }
    const limit = Math.min(Math.max(options.limit ?? QUEUE_PAGE_SIZE, 1), 500);
    const rows = this.sql.exec<RepeatingRow>(`SELECT * FROM repeating_pins WHERE ${where} ORDER BY next_pin_date, id LIMIT ?`, ...params, limit).toArray();
    const total = this.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM repeating_pins WHERE held = 0`).one().n;
    return { repeatingPins: rows.map(toRepeatingView), totalCount: total };
  }

  /** How many pins are in each state (tests, benchmarks, the cron index). */
  counts(): Record<PinState, number> {
    const counts: Record<PinState, number> = { held: 0, scheduled: 0, posting: 0, paused: 0, posted: 0, failed: 0 };
    for (const row of this.sql.exec<{ status: PinState; n: number }>(`SELECT status, COUNT(*) AS n FROM pins GROUP BY status`)) counts[row.status] = row.n;
    return counts;
  }

  // ================================================================ changing pins

  /**
   * Applies changes to scheduled pins, all or none. A new time must be in the
   * future; `type: 'Queue'` without a time moves the pin to the next free
   * slot; a failed pin that is changed is queued again. Pins being posted or
   * already posted cannot change (409).
   */
  async updatePins(changes: PinChanges[], settings: SchedulingSettings, fieldPrefixes: string[]): Promise<{ ok: true; pins: ScheduledPin[] } | Refusal> {
    const now = Date.now();
    try {
      this.ctx.storage.transactionSync(() => {
        const reslot: { id: string; key: string | null }[] = [];
        const checks: { row: PinRow; prefix: string }[] = [];
        changes.forEach((change, index) => {
          const prefix = fieldPrefixes[index] ?? "";
          const row = this.sql.exec<PinRow>(`SELECT * FROM pins WHERE id = ? AND status != 'held'`, change.id).toArray()[0];
          if (!row) throw refusal(404, `No scheduled pin with id ${change.id}`, `${prefix}id`);
          if (row.status === "posting") throw refusal(409, `"${titleOf(row)}" is being posted right now and can no longer be changed.`, `${prefix}id`);
          if (row.status === "posted") throw refusal(409, `"${titleOf(row)}" was already posted to Pinterest and can no longer be changed.`, `${prefix}id`);
          const content = changedContent(JSON.parse(row.data) as PinContent, change, prefix);
          let type = change.type ?? row.type;
          let time = row.scheduled_time;
          if (change.scheduledTime !== undefined) {
            if (change.scheduledTime <= now) throw refusal(400, "scheduledTime must be in the future", `${prefix}scheduledTime`);
            time = change.scheduledTime;
          } else if (change.type === "Queue") {
            type = "Queue";
            reslot.push({ id: row.id, key: content.allowDuplicate ? null : duplicateKeyOf(content.boardId, linkKey(content.url)) });
          }
          const status = row.status === "failed" ? "scheduled" : row.status;
          this.sql.exec(
            `UPDATE pins SET type = ?, status = ?, scheduled_time = ?, next_attempt_at = ?, board_id = ?, link_key = ?, allow_duplicate = ?, data = ?,
               failures = CASE WHEN ? = 'failed' THEN 0 ELSE failures END, last_error = CASE WHEN ? = 'failed' THEN NULL ELSE last_error END, updated_at = ?
             WHERE id = ?`,
            type,
            status,
            time,
            time === row.scheduled_time && row.status !== "failed" ? row.next_attempt_at : time,
            content.boardId,
            linkKey(content.url),
            content.allowDuplicate ? 1 : 0,
            JSON.stringify(content),
            row.status,
            row.status,
            now,
            row.id,
          );
          const placementChanged =
            time !== row.scheduled_time || content.boardId !== row.board_id || linkKey(content.url) !== row.link_key || (!content.allowDuplicate && row.allow_duplicate === 1);
          if (placementChanged || row.status === "failed") checks.push({ row: { ...row, scheduled_time: time }, prefix });
        });
        if (reslot.length > 0) {
          const ids = new Set(reslot.map((r) => r.id));
          const keyTimes = new Map<string, number[]>();
          for (const { id, key } of reslot) {
            if (key === null || keyTimes.has(key)) continue;
            const row = this.sql.exec<PinRow>(`SELECT board_id, link_key FROM pins WHERE id = ?`, id).one();
            keyTimes.set(key, this.timesOfLink(row.board_id, row.link_key, ids));
          }
          const taken = this.takenTimes(now, ids);
          const slots = assignQueueSlots(settings, now, taken, reslot.map((r) => ({ duplicateKey: r.key })), keyTimes);
          reslot.forEach(({ id }, i) => this.sql.exec(`UPDATE pins SET scheduled_time = ?, next_attempt_at = ? WHERE id = ?`, slots[i], slots[i], id));
        }
        for (const { row, prefix } of checks) {
          const current = this.sql.exec<PinRow>(`SELECT * FROM pins WHERE id = ?`, row.id).one();
          const content = JSON.parse(current.data) as PinContent;
          this.refuseDuplicate(current.id, current.board_id, content.url, content.boardName, content.title, current.scheduled_time, current.allow_duplicate === 1, prefix);
        }
      });
    } catch (error) {
      if (isRefusal(error)) return error;
      if (error instanceof NoFreeSlot) return refusal(409, error.message);
      throw error;
    }
    await this.armNextAlarm();
    return { ok: true, pins: changes.map((c) => this.pinView(c.id)).filter((p): p is ScheduledPin => p !== null) };
  }

  async deletePin(id: string): Promise<{ ok: true; pin: ScheduledPin } | Refusal> {
    const pin = this.pinView(id);
    if (!pin) return { ok: false, status: 404, message: `No scheduled pin with id ${id}`, field: "pinId" };
    if (pin.status === "posting") return { ok: false, status: 409, message: `"${pin.title || pin.id}" is being posted right now and can no longer be deleted.`, field: "pinId" };
    this.ctx.storage.transactionSync(() => {
      this.sql.exec(`INSERT OR IGNORE INTO retired_pins (id, retired_at) VALUES (?, ?)`, id, Date.now());
      this.sql.exec(`DELETE FROM pins WHERE id = ? AND status != 'posting'`, id);
    });
    await this.armNextAlarm();
    return { ok: true, pin };
  }

  /** Deletes every pin not posted yet (a pin being posted right now finishes). */
  async deleteAll(): Promise<{ deletedCount: number }> {
    const deleted = this.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM pins WHERE status IN ('scheduled', 'paused', 'failed')`).one().n;
    this.ctx.storage.transactionSync(() => {
      this.sql.exec(`INSERT OR IGNORE INTO retired_pins (id, retired_at) SELECT id, ? FROM pins WHERE status IN ('scheduled', 'paused', 'failed')`, Date.now());
      this.sql.exec(`DELETE FROM pins WHERE status IN ('scheduled', 'paused', 'failed')`);
    });
    await this.armNextAlarm();
    return { deletedCount: deleted };
  }

  /** Gives every Queue pin not posted yet the next free slots from now under the current settings, in queue order. */
  async resetQueueTimes(settings: SchedulingSettings): Promise<{ updatedCount: number }> {
    const now = Date.now();
    let updated = 0;
    this.ctx.storage.transactionSync(() => {
      const rows = this.sql
        .exec<PinRow>(`SELECT id, board_id, link_key, allow_duplicate FROM pins WHERE type = 'Queue' AND status IN ('scheduled', 'paused') ORDER BY scheduled_time, id`)
        .toArray();
      if (rows.length === 0) return;
      const ids = new Set(rows.map((row) => row.id));
      const keyTimes = new Map<string, number[]>();
      const requests = rows.map((row) => {
        const key = row.allow_duplicate === 1 ? null : duplicateKeyOf(row.board_id, row.link_key);
        if (key !== null && !keyTimes.has(key)) keyTimes.set(key, this.timesOfLink(row.board_id, row.link_key, ids));
        return { duplicateKey: key };
      });
      const slots = assignQueueSlots(settings, now, this.takenTimes(now, ids), requests, keyTimes);
      rows.forEach((row, i) => {
        this.sql.exec(
          `UPDATE pins SET scheduled_time = ?, next_attempt_at = ?, updated_at = ? WHERE id = ?`,
          slots[i],
          slots[i],
          now,
          row.id,
        );
      });
      updated = rows.length;
    });
    await this.armNextAlarm();
    return { updatedCount: updated };
  }

  // ================================================================ repeating pins

  async updateRepeating(changes: RepeatingChanges[], fieldPrefixes: string[]): Promise<{ ok: true; pins: RepeatingPin[] } | Refusal> {
    const now = Date.now();
    try {
      this.ctx.storage.transactionSync(() => {
        changes.forEach((change, index) => {
          const prefix = fieldPrefixes[index] ?? "";
          const row = this.sql.exec<RepeatingRow>(`SELECT * FROM repeating_pins WHERE id = ? AND held = 0`, change.id).toArray()[0];
          if (!row) throw refusal(404, `No repeating pin with id ${change.id}`, `${prefix}id`);
          const content = changedContent(JSON.parse(row.data) as PinContent, change, prefix);
          if (change.nextPinDate !== undefined && change.nextPinDate <= now) throw refusal(400, "nextPinDate must be in the future", `${prefix}nextPinDate`);
          this.sql.exec(
            `UPDATE repeating_pins SET board_id = ?, data = ?, interval_days = ?, next_pin_date = ?, updated_at = ? WHERE id = ?`,
            content.boardId,
            JSON.stringify(content),
            change.intervalInDays ?? row.interval_days,
            change.nextPinDate ?? row.next_pin_date,
            now,
            row.id,
          );
        });
      });
    } catch (error) {
      if (isRefusal(error)) return error;
      if (error instanceof NoFreeSlot) return refusal(409, error.message);
      throw error;
    }
    await this.armNextAlarm();
    return { ok: true, pins: changes.map((c) => this.repeatingView(c.id)).filter((p): p is RepeatingPin => p !== null) };
  }

  async deleteRepeating(id: string): Promise<{ ok: true; pin: RepeatingPin } | Refusal> {
    const pin = this.repeatingView(id);
    if (!pin) return { ok: false, status: 404, message: `No repeating pin with id ${id}`, field: "pinId" };
    this.sql.exec(`DELETE FROM repeating_pins WHERE id = ?`, id);
    await this.armNextAlarm();
    return { ok: true, pin };
  }

  // ================================================================ the profile

  /** Forgets the whole queue (the profile was disconnected). */
  async clear(): Promise<void> {
    const profileKey = this.profileKey();
    this.sql.exec(`DELETE FROM pins`);
    this.sql.exec(`DELETE FROM repeating_pins`);
    this.sql.exec(`DELETE FROM meta WHERE key != 'profile_key'`);
    await this.ctx.storage.deleteAlarm();
    if (profileKey) await recordSchedulerState(this.env.DB, profileKey, null, 0);
  }

  /**
   * Does the alarm's work now, due or not: what a second delivery of an alarm
   * that already ran does (alarms are delivered at least once). A run already
   * going is joined, not doubled. Only the dev control calls it (local runs,
   * tests and `npm run bench:faults`; never in production).
   */
  async rerunAlarm(): Promise<Record<PinState, number>> {
    await this.alarm();
    return this.counts();
  }

  /** Sets the alarm again from storage; the cron sweep calls it when an alarm went missing. */
  async rearm(): Promise<{ nextDueAt: number | null }> {
    return { nextDueAt: await this.armNextAlarm() };
  }

  /** The profile's connection state as the worker just read it: pauses or resumes posting at once. Answers whether anything changed. */
  private noteProfileStatus(status: ProfileStatus, error: string | null): boolean {
    return status === "ok" ? this.resume() : this.pauseAll(pauseReason(status, error));
  }

  // ================================================================ the alarm

  async alarm(): Promise<void> {
    if (this.running) return this.running;
    this.running = this.run().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async run(): Promise<void> {
    const profileKey = this.profileKey();
    if (!profileKey) {
      await this.ctx.storage.deleteAlarm();
      return;
    }
    try {
      this.recoverCutShortAttempts();
      const profile = await database(this.env.DB).query.pinterestProfiles.findFirst({ where: eq(pinterestProfiles.id, profileKey) });
      if (!profile) {
        this.sql.exec(
          `UPDATE pins SET status = 'failed', last_error = ?, updated_at = ? WHERE status IN ('held', 'scheduled', 'paused')`,
          "This Pinterest profile is no longer connected.",
          Date.now(),
        );
        this.sql.exec(`DELETE FROM repeating_pins`);
      } else {
        await this.settleExpiredHolds();
        if (profile.status !== "ok") this.pauseAll(pauseReason(profile.status, profile.lastError));
        else {
          this.resume();
          await this.materializeRepeatingPins();
          await this.drain(profile);
        }
        await this.writePendingHistory(profile.username, 50);
        this.forgetOldPins();
      }
    } catch (error) {
      console.error(`ProfileScheduler ${profileKey}: alarm run failed`, error);
      await this.armNextAlarm(Date.now() + HISTORY_RETRY_MS);
      return;
    }
    await this.armNextAlarm();
  }

  /** Posts due pins one after another until none is due, the profile is held or paused, or the run's budget is spent. */
  private async drain(profile: PinterestProfile) {
    const started = Date.now();
    const settings = schedulingSettingsOf(profile);
    this.setMeta("posting_interval_ms", String(settings.postingIntervalInSeconds * 1000));
    for (let posted = 0; posted < RUN_MAX_PINS && Date.now() - started < RUN_BUDGET_MS; posted += 1) {
      const now = Date.now();
      if (this.holdUntil() > now) return;
      const pin = this.nextDuePin(now, settings);
      if (!pin) return;
      const outcome = await this.attempt(pin, profile);
      if (outcome === "paused") return;
    }
  }

  private nextDuePin(now: number, settings: SchedulingSettings): PinRow | null {
    const queueMayPost = now >= this.queuePaceReadyAt(settings) ? 1 : 0;
    return (
      this.sql
        .exec<PinRow>(
          `SELECT * FROM pins WHERE status = 'scheduled' AND next_attempt_at <= ? AND (type = 'SpecificDate' OR ? = 1)
           ORDER BY next_attempt_at, scheduled_time, id LIMIT 1`,
          now,
          queueMayPost,
        )
        .toArray()[0] ?? null
    );
  }

  /** Queue pins keep the profile's posting interval between them (catching up after an outage does not burst). */
  private queuePaceReadyAt(settings: SchedulingSettings): number {
    const last = Number(this.meta("last_queue_post_at") ?? 0);
    const interval = settings.postingIntervalInSeconds * 1000;
    return last + interval - Math.min(PACING_TOLERANCE_MS, interval / 4);
  }

  /** One try at posting one pin. */
  private async attempt(pin: PinRow, profile: PinterestProfile): Promise<"posted" | "retry" | "failed" | "paused" | "skipped"> {
    const attemptId = crypto.randomUUID();
    const startedAt = Date.now();
    const claimed = this.sql.exec(
      `UPDATE pins SET status = 'posting', attempt_id = ?, attempt_started_at = ?, attempts = attempts + 1, updated_at = ? WHERE id = ? AND status = 'scheduled'`,
      attemptId,
      startedAt,
      startedAt,
      pin.id,
    ).rowsWritten;
    if (claimed === 0) return "skipped";
    this.inFlight.add(attemptId);
    const content = JSON.parse(pin.data) as PinContent;
    const request = pinterestRequestOf(content);
    const sent = sentPinOf(content, request);
    try {
      const pinterestPinId = await withPinterest(this.env, profile, async (client, token) => {
        try {
          if (pin.check_since !== null) {
            const found = await this.findOnBoard(client, token, content.boardId, sent, pin.check_since, pin.id);
            if (found) return found;
          }
          if (content.mediaType === "video") await ensureVideoReady(client, token, content.media_id ?? "");
          return (await client.createPin(token, request)).id;
        } catch (error) {
          // Only 401 and the blocked 403 are withPinterest's to handle; the rest is the engine's.
          if (error instanceof PinterestApiError && error.kind !== "unauthorized" && !error.blocked) throw new PostingFailure(error);
          throw error;
        }
      });
      this.recordPosted(pin, attemptId, pinterestPinId, content);
      await this.writeHistory(pin.id, profile.username);
      return "posted";
    } catch (error) {
      return await this.recordFailure(pin, attemptId, startedAt, error, profile, content, sent);
    } finally {
      this.inFlight.delete(attemptId);
    }
  }

  private recordPosted(pin: PinRow, attemptId: string, pinterestPinId: string, content: PinContent) {
    const now = Date.now();
    const written = this.sql.exec(
      `UPDATE pins SET status = 'posted', pinterest_pin_id = ?, posted_at = ?, last_error = NULL, check_since = NULL, attempt_id = NULL, history_pending = 1, updated_at = ?
       WHERE id = ? AND attempt_id = ?`,
      pinterestPinId,
      now,
      now,
      pin.id,
      attemptId,
    ).rowsWritten;
    if (written === 0) {
      // The queue was cleared while the pin was on its way: it is on Pinterest all the same.
      console.warn(`ProfileScheduler: pin ${pin.id} was posted as ${pinterestPinId} after it left the queue (${content.title})`);
    }
    if (pin.type === "Queue") this.setMeta("last_queue_post_at", String(now));
  }

  private async recordFailure(
    pin: PinRow,
    attemptId: string,
    startedAt: number,
    error: unknown,
    profile: PinterestProfile,
    content: PinContent,
    sent: SentPin,
  ): Promise<"posted" | "retry" | "failed" | "paused"> {
    let now = Date.now();
    if (error instanceof ServiceError && (error.status === 401 || error.status === 423)) {
      // withPinterest marked the profile: nothing was created (401 and 403 come before the pin exists).
      const reason = pauseReason(error.status === 423 ? "blocked" : "reauth", null);
      this.sql.exec(`UPDATE pins SET status = 'paused', attempt_id = NULL, last_error = ?, updated_at = ? WHERE id = ? AND attempt_id = ?`, reason, now, pin.id, attemptId);
      this.pauseAll(reason);
      return "paused";
    }
    let outcome: ReturnType<typeof pinFailureOutcome>;
    if (error instanceof PostingFailure) outcome = pinFailureOutcome(error.cause, pin.failures + 1);
    else if (error instanceof VideoNotReady) {
      outcome =
        pin.failures + 1 >= MAX_MEDIA_WAITS
          ? { action: "fail", reason: `Pinterest is still processing the video (${error.status}); schedule it again later` }
          : { action: "retry", check: false, counts: true, delayMs: MEDIA_WAIT_MS, reason: `Waiting for Pinterest to process the video (${error.status})` };
    } else if (error instanceof VideoFailed) outcome = { action: "fail", reason: "Pinterest could not process the video" };
    else {
      // Our side failed (D1, a token refresh that Pinterest did not answer ...): the pin may or may not exist.
      const message = error instanceof Error ? error.message : String(error);
      console.warn(`ProfileScheduler: posting pin ${pin.id} failed:`, message);
      outcome = uncertainFailure(message, pin.failures + 1);
    }
    if (outcome.action === "fail" && outcome.mayExist) {
      // Giving up after an attempt that may have created the pin: one look on the board first, or the
      // user is told it failed while it is on Pinterest (and scheduling it again would post it twice).
      const look = await this.lastLook(profile, content.boardId, sent, Math.min(pin.check_since ?? startedAt, startedAt), pin.id);
      if (look.found) {
        this.recordPosted(pin, attemptId, look.found, content);
        await this.writeHistory(pin.id, profile.username);
        return "posted";
      }
      if (look.failed) outcome = { ...outcome, reason: `${outcome.reason}. It may be on Pinterest all the same: look at the board before scheduling it again.` };
      now = Date.now();
    }
    if (outcome.action === "fail") {
      this.sql.exec(
        `UPDATE pins SET status = 'failed', attempt_id = NULL, last_error = ?, failures = failures + 1, updated_at = ? WHERE id = ? AND attempt_id = ?`,
        outcome.reason,
        now,
        pin.id,
        attemptId,
      );
      return "failed";
    }
    if (outcome.action === "hold") {
      const until = now + outcome.delayMs;
      this.setMeta("hold_until", String(Math.max(until, this.holdUntil())));
      this.sql.exec(
        `UPDATE pins SET status = 'scheduled', attempt_id = NULL, next_attempt_at = ?, last_error = ?, updated_at = ? WHERE id = ? AND attempt_id = ?`,
        until,
        outcome.reason,
        now,
        pin.id,
        attemptId,
      );
      return "retry";
    }
    this.sql.exec(
      `UPDATE pins SET status = 'scheduled', attempt_id = NULL, next_attempt_at = ?, last_error = ?, failures = failures + ?,
         check_since = CASE WHEN ? = 1 THEN COALESCE(check_since, ?) ELSE check_since END, updated_at = ?
       WHERE id = ? AND attempt_id = ?`,
      now + outcome.delayMs,
      outcome.reason,
      outcome.counts ? 1 : 0,
      outcome.check ? 1 : 0,
      startedAt,
      now,
      pin.id,
      attemptId,
    );
    return "retry";
  }

  /** One look on the board for a pin about to be given up, whose last attempts may have created it. */
  private async lastLook(profile: PinterestProfile, boardId: string, sent: SentPin, sinceMs: number, pinId: string): Promise<{ found: string | null; failed: boolean }> {
    try {
      return { found: await withPinterest(this.env, profile, (client, token) => this.findOnBoard(client, token, boardId, sent, sinceMs, pinId)), failed: false };
    } catch (error) {
      console.warn(`ProfileScheduler: the last look on the board for pin ${pinId} failed:`, error instanceof Error ? error.message : error);
      return { found: null, failed: true };
    }
  }

  /**
   * Looks on the board (newest first, a few pages, back to the uncertain
   * attempt) for the pin an earlier attempt may have created. Answers its id.
   */
  private async findOnBoard(client: PinterestClient, token: string, boardId: string, sent: SentPin, sinceMs: number, pinId: string): Promise<string | null> {
    const claimed = new Set(
      this.sql
        .exec<{ pinterest_pin_id: string }>(`SELECT pinterest_pin_id FROM pins WHERE board_id = ? AND pinterest_pin_id IS NOT NULL AND id != ?`, boardId, pinId)
        .toArray()
        .map((row) => row.pinterest_pin_id),
    );
    let bookmark: string | undefined;
    for (let page = 0; page < BOARD_CHECK_PAGES; page += 1) {
      const answer = await client.listBoardPins(token, boardId, { bookmark, pageSize: BOARD_CHECK_PAGE_SIZE });
      const match = answer.items.find((item) => matchesSentPin(item, sent, sinceMs, claimed));
      if (match) return match.id;
      if (!answer.bookmark || pageReachesBefore(answer.items, sinceMs)) return null;
      bookmark = answer.bookmark;
    }
    return null;
  }

  /** `posting` rows this instance did not start: the object restarted mid-way. Their outcome is unknown. */
  private recoverCutShortAttempts() {
    const rows = this.sql.exec<{ id: string; attempt_id: string | null }>(`SELECT id, attempt_id FROM pins WHERE status = 'posting'`).toArray();
    for (const row of rows) {
      if (row.attempt_id && this.inFlight.has(row.attempt_id)) continue;
      this.sql.exec(
        `UPDATE pins SET status = 'scheduled', attempt_id = NULL, check_since = COALESCE(check_since, attempt_started_at), next_attempt_at = ?, updated_at = ? WHERE id = ? AND status = 'posting'`,
        Date.now(),
        Date.now(),
        row.id,
      );
    }
  }

  /** Pauses every waiting pin with the reason. Answers whether any pin changed. */
  private pauseAll(reason: string): boolean {
    const waiting = this.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM pins WHERE status = 'scheduled'`).one().n;
    if (waiting > 0) this.sql.exec(`UPDATE pins SET status = 'paused', last_error = ?, updated_at = ? WHERE status = 'scheduled'`, reason, Date.now());
    this.setMeta("paused_reason", reason);
    return waiting > 0;
  }

  /** Puts paused pins back in the queue (the profile works again). Answers whether any pin changed. */
  private resume(): boolean {
    if (this.meta("paused_reason") !== null) this.sql.exec(`DELETE FROM meta WHERE key = 'paused_reason'`);
    const paused = this.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM pins WHERE status = 'paused'`).one().n;
    if (paused > 0) this.sql.exec(`UPDATE pins SET status = 'scheduled', last_error = NULL, updated_at = ? WHERE status = 'paused'`, Date.now());
    return paused > 0;
  }

  /** Each repeating pin that is due becomes a scheduled pin (its credit charged once by its id) and moves on by its interval. */
  private async materializeRepeatingPins() {
    const now = Date.now();
    const due = this.sql.exec<RepeatingRow>(`SELECT * FROM repeating_pins WHERE held = 0 AND next_pin_date <= ? ORDER BY next_pin_date LIMIT 20`, now).toArray();
    for (const rep of due) {
      const content = JSON.parse(rep.data) as PinContent;
      const occurrenceId = `${rep.id}-${rep.occurrences + 1}`;
      const mediaType = content.mediaType;
      let refusedReason: string | null = null;
      try {
        await addPinHistory(
          this.env,
          rep.user_id,
          pinHistoryDetails(content, "scheduled", null),
          { category: mediaType, amount: CREDIT_COSTS[mediaType], reason: "Repeating pin scheduled", reference: `scheduled:${occurrenceId}` },
          { pin: { id: occurrenceId, scheduledFor: rep.next_pin_date } },
        );
      } catch (error) {
        if (!(error instanceof ServiceError)) throw error;
        refusedReason = error.message;
      }
      const interval = rep.interval_days * DAY_MS;
      let next = rep.next_pin_date + interval;
      if (next <= now) next += Math.ceil((now - next) / interval) * interval;
      this.ctx.storage.transactionSync(() => {
        this.sql.exec(
          `INSERT INTO pins (id, user_id, type, status, scheduled_time, next_attempt_at, board_id, link_key, allow_duplicate, media_type, data, last_error, repeating_pin_id, created_at, updated_at)
           VALUES (?, ?, 'SpecificDate', ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO NOTHING`,
          occurrenceId,
          rep.user_id,
          refusedReason ? "failed" : "scheduled",
          rep.next_pin_date,
          now,
          rep.board_id,
          linkKey(content.url),
          mediaType,
          rep.data,
          refusedReason,
          rep.id,
          now,
          now,
        );
        this.sql.exec(
          `UPDATE repeating_pins SET next_pin_date = ?, occurrences = occurrences + 1, updated_at = ? WHERE id = ? AND occurrences = ?`,
          next,
          now,
          rep.id,
          rep.occurrences,
        );
      });
    }
  }

  /**
   * Held pins older than HOLD_TTL_MS: the request that held them never
   * confirmed. Those whose credits were charged (their "scheduled" history row
   * exists) join the queue; the others are dropped.
   */
  private async settleExpiredHolds() {
    const rows = this.sql.exec<{ id: string; user_id: string }>(`SELECT id, user_id FROM pins WHERE status = 'held' AND created_at < ? LIMIT 90`, Date.now() - HOLD_TTL_MS).toArray();
    if (rows.length === 0) return;
    const charged = await database(this.env.DB)
      .select({ reference: pinHistory.reference })
      .from(pinHistory)
      .where(and(eq(pinHistory.userId, rows[0].user_id), inArray(pinHistory.reference, rows.map((row) => `scheduled:${row.id}`))));
    const paid = new Set(charged.map((row) => row.reference.slice("scheduled:".length)));
    const now = Date.now();
    this.ctx.storage.transactionSync(() => {
      for (const row of rows) {
        if (paid.has(row.id)) {
          this.sql.exec(`UPDATE pins SET status = 'scheduled', updated_at = ? WHERE id = ? AND status = 'held'`, now, row.id);
          this.sql.exec(`UPDATE repeating_pins SET held = 0 WHERE id = ?`, repeatingIdOf(row.id));
        } else {
          this.sql.exec(`DELETE FROM pins WHERE id = ? AND status = 'held'`, row.id);
          this.sql.exec(`DELETE FROM repeating_pins WHERE id = ? AND held = 1`, repeatingIdOf(row.id));
        }
      }
    });
  }

  /** Forgets pins posted long ago (their ids stay retired a while longer) and retired ids older still. */
  private forgetOldPins() {
    const now = Date.now();
    this.ctx.storage.transactionSync(() => {
      this.sql.exec(`INSERT OR IGNORE INTO retired_pins (id, retired_at) SELECT id, ? FROM pins WHERE status = 'posted' AND posted_at < ?`, now, now - KEEP_POSTED_MS);
      this.sql.exec(`DELETE FROM pins WHERE status = 'posted' AND posted_at < ?`, now - KEEP_POSTED_MS);
      this.sql.exec(`DELETE FROM retired_pins WHERE retired_at < ?`, now - KEEP_RETIRED_MS);
    });
  }

  /** Records the posting of a pin in its pin history entry (idempotent; retried later if D1 fails). */
  private async writeHistory(pinId: string, username: string) {
    const row = this.sql.exec<PinRow>(`SELECT * FROM pins WHERE id = ? AND history_pending = 1`, pinId).toArray()[0];
    if (!row) return;
    const content = JSON.parse(row.data) as PinContent;
    try {
      await recordPinPosted(this.env, row.user_id, {
        id: row.id,
        scheduledFor: row.scheduled_time,
        postedAt: row.posted_at ?? Date.now(),
        pinterestPinId: row.pinterest_pin_id,
        details: pinHistoryDetails({ ...content, pinterestProfileUsername: username }, "pinned", row.pinterest_pin_id),
      });
    } catch (error) {
      if (!(error instanceof ServiceError)) {
        console.warn(`ProfileScheduler: pin history of ${pinId} not written yet:`, error instanceof Error ? error.message : error);
        return;
      }
      console.error(`ProfileScheduler: pin history of ${pinId} refused:`, error.message);
    }
    this.sql.exec(`UPDATE pins SET history_pending = 0 WHERE id = ?`, pinId);
  }

  private async writePendingHistory(username: string, limit: number) {
    const ids = this.sql.exec<{ id: string }>(`SELECT id FROM pins WHERE history_pending = 1 LIMIT ?`, limit).toArray();
    for (const { id } of ids) await this.writeHistory(id, username);
  }

  // ================================================================ the next alarm

  private async armNextAlarm(atMost?: number): Promise<number | null> {
    const now = Date.now();
    const candidates: number[] = [];
    const hold = this.holdUntil();
    const settingsInterval = Number(this.meta("posting_interval_ms") ?? 0);
    const specific = this.sql.exec<{ t: number | null }>(`SELECT MIN(next_attempt_at) AS t FROM pins WHERE status = 'scheduled' AND type = 'SpecificDate'`).one().t;
    if (specific !== null) candidates.push(Math.max(specific, hold));
    const queue = this.sql.exec<{ t: number | null }>(`SELECT MIN(next_attempt_at) AS t FROM pins WHERE status = 'scheduled' AND type = 'Queue'`).one().t;
    if (queue !== null) {
      const last = Number(this.meta("last_queue_post_at") ?? 0);
      const paced = settingsInterval > 0 ? last + settingsInterval - Math.min(PACING_TOLERANCE_MS, settingsInterval / 4) : 0;
      candidates.push(Math.max(queue, hold, paced));
    }
    const paused = this.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM pins WHERE status = 'paused'`).one().n;
    if (paused > 0 || this.meta("paused_reason") !== null) candidates.push(now + PAUSE_RECHECK_MS);
    else {
      const repeating = this.sql.exec<{ t: number | null }>(`SELECT MIN(next_pin_date) AS t FROM repeating_pins WHERE held = 0`).one().t;
      if (repeating !== null) candidates.push(repeating);
    }
    const held = this.sql.exec<{ t: number | null }>(`SELECT MIN(created_at) AS t FROM pins WHERE status = 'held'`).one().t;
    if (held !== null) candidates.push(held + HOLD_TTL_MS);
    const history = this.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM pins WHERE history_pending = 1`).one().n;
    if (history > 0) candidates.push(now + HISTORY_RETRY_MS);
    const cutShort = this.sql.exec<{ attempt_id: string | null }>(`SELECT attempt_id FROM pins WHERE status = 'posting'`).toArray();
    if (cutShort.some((row) => !row.attempt_id || !this.inFlight.has(row.attempt_id))) candidates.push(now);
    if (atMost !== undefined) candidates.push(atMost);

    const next = candidates.length > 0 ? Math.min(...candidates) : null;
    if (next === null) await this.ctx.storage.deleteAlarm();
    else if ((await this.ctx.storage.getAlarm()) !== next) await this.ctx.storage.setAlarm(next);
    const profileKey = this.profileKey();
    if (profileKey) {
      const pending = this.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM pins WHERE status IN ${ACTIVE_STATES}`).one().n;
      try {
        await recordSchedulerState(this.env.DB, profileKey, next, pending);
      } catch (error) {
        // The alarm is what counts; the cron index catches up on the next change.
        console.warn(`ProfileScheduler ${profileKey}: the cron index was not updated:`, error instanceof Error ? error.message : error);
      }
    }
    return next;
  }

  // ================================================================ storage helpers

  private insertPin(pin: NewPinInput, request: ReserveRequest, at: number, status: PinState, now: number) {
    const { id: _id, type: _type, scheduledTime: _time, repeatIntervalInDays: _repeat, ...fields } = pin;
    const content: PinContent = { ...fields, pinterestProfileUsername: request.username };
    const data = JSON.stringify(content);
    this.sql.exec(
      `INSERT INTO pins (id, user_id, type, status, scheduled_time, next_attempt_at, board_id, link_key, allow_duplicate, media_type, data, repeating_pin_id, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      pin.id,
      request.userId,
      pin.type,
      status,
      at,
      at,
      pin.boardId,
      linkKey(pin.url),
      pin.allowDuplicate ? 1 : 0,
      pin.mediaType,
      data,
      pin.repeatIntervalInDays ? repeatingIdOf(pin.id) : null,
      now,
      now,
    );
    if (pin.repeatIntervalInDays) {
      this.sql.exec(
        `INSERT INTO repeating_pins (id, user_id, held, board_id, media_type, data, interval_days, next_pin_date, occurrences, created_at, updated_at)
         VALUES (?, ?, 1, ?, ?, ?, ?, ?, 1, ?, ?) ON CONFLICT(id) DO NOTHING`,
        repeatingIdOf(pin.id),
        request.userId,
        pin.boardId,
        pin.mediaType,
        data,
        pin.repeatIntervalInDays,
        at + pin.repeatIntervalInDays * DAY_MS,
        now,
        now,
      );
    }
  }

  /** Refuses (409) a pin that would share 48 hours with another pin of the same link on the same board. */
  private refuseDuplicate(id: string, boardId: string, url: string, boardName: string, title: string, at: number, allowDuplicate: boolean, prefix: string) {
    const clash = this.duplicateOf(id, boardId, url, boardName, title, at, allowDuplicate, prefix);
    if (clash) throw refusal(clash.status, clash.message, clash.field);
  }

  /** The 48-hour rule's refusal of a pin at `at` (null when it keeps the rule): the message and the pin it would clash with. */
  private duplicateOf(id: string, boardId: string, url: string, boardName: string, title: string, at: number, allowDuplicate: boolean, prefix: string): DuplicateRefusal | null {
    const key = linkKey(url);
    if (allowDuplicate || key === null) return null;
    const other = this.sql
      .exec<{ id: string; at: number; data: string; status: string }>(
        `SELECT id, data, status, CASE WHEN status = 'posted' THEN posted_at ELSE scheduled_time END AS at FROM pins
         WHERE board_id = ? AND link_key = ? AND id != ? AND status IN ('held', 'scheduled', 'posting', 'paused', 'posted')
           AND ABS((CASE WHEN status = 'posted' THEN posted_at ELSE scheduled_time END) - ?) < ? LIMIT 1`,
        boardId,
        key,
        id,
        at,
        DUPLICATE_WINDOW_MS,
      )
      .toArray()[0];
    if (!other) return null;
    const otherContent = JSON.parse(other.data) as PinContent;
    const when = new Date(other.at).toISOString().replace(".000Z", "Z");
    return {
      status: 409,
      message:
        `"${title || url}" links to ${url}, which ${other.status === "posted" ? "was posted" : "is scheduled"} to board ${boardName ? `"${boardName}"` : boardId} at ${when}${otherContent.title ? ` ("${otherContent.title}")` : ""}. ` +
        `The same link is not posted to the same board twice within 48 hours: pick a time at least 48 hours apart, or set allowDuplicate to post it anyway.`,
      field: `${prefix}scheduledTime`,
      conflict: {
        title: otherContent.title,
        state: other.status === "posted" ? "posted" : "scheduled",
        at: new Date(other.at).toISOString(),
        atUTCTimestamp: other.at,
        boardName: otherContent.boardName || boardName,
      },
    };
  }

  /** Times (scheduled, or posted) of pins with this board and link that the 48-hour rule counts. */
  private timesOfLink(boardId: string, key: string | null, except: ReadonlySet<string> = new Set()): number[] {
    if (key === null) return [];
    return this.sql
      .exec<{ id: string; at: number }>(
        `SELECT id, CASE WHEN status = 'posted' THEN posted_at ELSE scheduled_time END AS at FROM pins
         WHERE board_id = ? AND link_key = ? AND status IN ('held', 'scheduled', 'posting', 'paused', 'posted')`,
        boardId,
        key,
      )
      .toArray()
      .filter((row) => !except.has(row.id))
      .map((row) => row.at);
  }

  /** Slot instants already used by pins waiting to post. */
  private takenTimes(now: number, except: ReadonlySet<string> = new Set()): Set<number> {
    const taken = new Set<number>();
    for (const row of this.sql.exec<{ id: string; scheduled_time: number }>(`SELECT id, scheduled_time FROM pins WHERE status IN ${ACTIVE_STATES} AND scheduled_time > ?`, now)) {
      if (!except.has(row.id)) taken.add(row.scheduled_time);
    }
    return taken;
  }

  private pinView(id: string): ScheduledPin | null {
    const row = this.sql.exec<PinRow>(`SELECT * FROM pins WHERE id = ? AND status != 'held'`, id).toArray()[0];
    return row ? toPinView(row) : null;
  }

  private repeatingView(id: string): RepeatingPin | null {
    const row = this.sql.exec<RepeatingRow>(`SELECT * FROM repeating_pins WHERE id = ? AND held = 0`, id).toArray()[0];
    return row ? toRepeatingView(row) : null;
  }

  private holdUntil(): number {
    return Number(this.meta("hold_until") ?? 0);
  }

  private meta(key: string): string | null {
    return this.sql.exec<{ value: string }>(`SELECT value FROM meta WHERE key = ?`, key).toArray()[0]?.value ?? null;
  }

  private setMeta(key: string, value: string) {
    this.sql.exec(`INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`, key, value);
  }

  private remember(profileKey: string) {
    this.sql.exec(`INSERT INTO meta (key, value) VALUES ('profile_key', ?) ON CONFLICT(key) DO NOTHING`, profileKey);
  }

  private profileKey(): string | null {
    return this.meta("profile_key");
  }
}

// ================================================================ helpers

/** A Pinterest failure the engine handles itself (withPinterest passes anything that is not a PinterestApiError through). */
class PostingFailure extends Error {
  override readonly cause: PinterestApiError;
  constructor(cause: PinterestApiError) {
    super(cause.message);
    this.name = "PostingFailure";
    this.cause = cause;
  }
}

class VideoNotReady extends Error {
  readonly status: string;
  constructor(status: string) {
    super(`The video is ${status}`);
    this.status = status;
  }
}

class VideoFailed extends Error {}

async function ensureVideoReady(client: PinterestClient, token: string, mediaId: string) {
  const media = await client.getMedia(token, mediaId);
  if (media.status === "failed") throw new VideoFailed("Pinterest could not process the video");
  if (media.status !== "succeeded") throw new VideoNotReady(media.status ?? "processing");
}

const CHANGEABLE_FIELDS = ["title", "description", "altText", "url", "imageURL", "mediaURL", "videoURL", "videoThumbnail", "media_id", "boardId", "boardName", "sectionId", "allowDuplicate"] as const;

/** A pin's content with the given changes (a new board without a section leaves the old board's section); refuses a pin left without media. */
function changedContent(content: PinContent, change: Omit<PinChanges, "scheduledTime" | "type">, prefix: string): PinContent {
  const next = { ...content } as Record<string, unknown>;
  for (const field of CHANGEABLE_FIELDS) if (change[field] !== undefined) next[field] = change[field];
  const changed = next as unknown as PinContent;
  if (change.boardId !== undefined && change.boardId !== content.boardId && change.sectionId === undefined) changed.sectionId = null;
  if (changed.mediaType === "image" && !changed.imageURL && !changed.mediaURL) throw refusal(400, "imageURL is required for an image pin", `${prefix}imageURL`);
  if (changed.mediaType === "video" && !changed.media_id) throw refusal(400, "media_id is required for a video pin (upload the video first)", `${prefix}media_id`);
  return changed;
}

function refusal(status: Refusal["status"], message: string, field?: string): Refusal {
  return field ? { ok: false, status, message, field } : { ok: false, status, message };
}

function isRefusal(value: unknown): value is Refusal {
  return typeof value === "object" && value !== null && (value as Refusal).ok === false && typeof (value as Refusal).message === "string";
}

function repeatingIdOf(pinId: string) {
  return `${pinId}-repeat`;
}

function pauseReason(status: ProfileStatus, detail: string | null): string {
  if (status === "blocked") return `${BLOCKED_MESSAGE}: posting is paused until Pinterest lets the account post again.`;
  return `${REAUTHENTICATE_MESSAGE}: reconnect this Pinterest profile to resume posting.${detail ? ` (${detail})` : ""}`;
}

function titleOf(row: PinRow) {
  return (JSON.parse(row.data) as PinContent).title || row.id;
}

/** What Pinterest receives for a pin (POST /v5/pins). */
export function pinterestRequestOf(content: PinContent): PinterestPinCreate {
  return {
    board_id: content.boardId,
    board_section_id: content.sectionId ?? undefined,
    title: content.title || undefined,
    description: content.description || undefined,
    link: content.url || undefined,
    alt_text: content.altText || undefined,
    media_source:
      content.mediaType === "video"
        ? {
            source_type: "video_id",
            media_id: content.media_id ?? "",
            ...(content.videoThumbnail ? { cover_image_url: content.videoThumbnail } : { cover_image_key_frame_time: 0 }),
          }
        : { source_type: "image_url", url: content.imageURL || content.mediaURL },
  };
}

function sentPinOf(content: PinContent, request: PinterestPinCreate): SentPin {
  return {
    title: request.title ?? "",
    description: request.description ?? "",
    link: request.link ?? "",
    altText: request.alt_text ?? "",
    mediaType: content.mediaType,
    imageUrl: content.mediaType === "video" ? content.videoThumbnail : content.imageURL || content.mediaURL,
  };
}

function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

function toPinView(row: PinRow): ScheduledPin {
  const content = JSON.parse(row.data) as PinContent;
  const status = row.status as ScheduledPinStatus;
  return {
    ...content,
    id: row.id,
    type: row.type as ScheduledPin["type"],
    scheduledTime: new Date(row.scheduled_time).toISOString(),
    scheduledTimeUTCTimestamp: row.scheduled_time,
    status,
    error: row.last_error,
    attempts: row.attempts,
    nextAttemptAt: status === "scheduled" ? iso(row.next_attempt_at) : null,
    pinterestPinId: row.pinterest_pin_id,
    pinterestUrl: pinterestPinUrl(row.pinterest_pin_id),
    postedAt: iso(row.posted_at),
    repeatingPinId: row.repeating_pin_id,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

function toRepeatingView(row: RepeatingRow): RepeatingPin {
  const content = JSON.parse(row.data) as PinContent;
  return {
    ...content,
    id: row.id,
    nextPinDate: new Date(row.next_pin_date).toISOString(),
    nextPinDateUTCTimestamp: row.next_pin_date,
    intervalInDays: row.interval_days,
    occurrences: row.occurrences,
    createdAt: new Date(row.created_at).toISOString(),
  };
}
