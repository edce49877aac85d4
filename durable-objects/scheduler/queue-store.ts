import { BLOCKED_MESSAGE, REAUTHENTICATE_MESSAGE } from "../../contracts/pinterest/pinterest-connection.ts";
import {
  pinterestPinUrl,
  type PinContent,
  type QueueView,
  type RepeatingPin,
  type ScheduledPin,
  type ScheduledPinsPage,
  type ScheduledPinStatus,
} from "../../contracts/pinterest/scheduling-api.ts";
import { keysetPage, linkKey, QUEUE_PAGE_SIZE, type SortOrder } from "../../workers/domain/pin-queue.ts";
import type { NewPinInput, PinHistoryState, ProfileStatus, Refusal, ReserveRequest } from "./requests.ts";

/**
 * The queue's storage: the SQLite schema of a ProfileScheduler, its rows and
 * the views callers see of them, and the reads and writes every part of the
 * object shares (adding a pin, finding, listing, counting, pausing, the meta
 * keys). Existing objects keep their data: tables, columns and meta keys are
 * never renamed; the schema only grows with IF NOT EXISTS.
 */

/** Which page of the queue: a view, an order, after which pin, how many. */
export interface PageOptions {
  view: QueueView;
  sortBy: SortOrder;
  lastPinId?: string;
  limit?: number;
}

/** held: reserved while its credits are charged, not yet in the queue. */
export type PinState = ScheduledPinStatus | "held";

export interface PinRow extends Record<string, SqlStorageValue> {
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
  /** Pinterest's own copy of the pin's image, from its answer to the create (decision 084: shown once our render is gone). */
  pinterest_image_url: string | null;
  posted_at: number | null;
  /** 1: the pin was given up after attempts that may have created it; its next turn only looks on the board (decision 085). */
  final_look: number;
  history_pending: number;
  repeating_pin_id: string | null;
  created_at: number;
  updated_at: number;
}

export interface RepeatingRow extends Record<string, SqlStorageValue> {
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

export const DAY_MS = 86_400_000;

const PENDING_STATES = "('scheduled', 'awaiting', 'posting', 'paused', 'failed')";
export const ACTIVE_STATES = "('held', 'scheduled', 'awaiting', 'posting', 'paused')";
/** States the 48-hour rule counts: pins placed, waiting, on their way or posted. */
export const LINK_STATES = "('held', 'scheduled', 'awaiting', 'posting', 'paused', 'posted')";
const PIN_STATES: readonly PinState[] = ["held", "scheduled", "awaiting", "posting", "paused", "posted", "failed"];
/** The states each view shows (its total is their counts' sum). */
const VIEW_STATES: Record<QueueView, readonly PinState[]> = {
  pending: ["scheduled", "awaiting", "posting", "paused", "failed"],
  posted: ["posted"],
  failed: ["failed"],
  all: PIN_STATES.filter((state) => state !== "held"),
};
const VIEW_FILTERS: Record<QueueView, string> = {
  pending: `status IN ${PENDING_STATES}`,
  posted: "status = 'posted'",
  failed: "status = 'failed'",
  all: "status != 'held'",
};
/** The index each view pages through in order (one status: that status's times; several: all times, filtered). */
const VIEW_INDEXES: Record<QueueView, string> = { pending: "pins_by_time", posted: "pins_by_status_time", failed: "pins_by_status_time", all: "pins_by_time" };

export class QueueStore {
  readonly sql: SqlStorage;
  private readonly storage: DurableObjectStorage;

  constructor(storage: DurableObjectStorage) {
    this.storage = storage;
    this.sql = storage.sql;
  }

  /** Creates the tables and indexes a new object lacks (run once as the object starts). */
  migrate() {
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
        updated_at INTEGER NOT NULL,
        pinterest_image_url TEXT,
        final_look INTEGER NOT NULL DEFAULT 0
      )`);
    // Objects made before the columns (decisions 084 and 085).
    for (const [column, type] of [
      ["pinterest_image_url", "TEXT"],
      ["final_look", "INTEGER NOT NULL DEFAULT 0"],
    ]) {
      try {
        this.sql.exec(`SELECT ${column} FROM pins LIMIT 0`);
      } catch {
        this.sql.exec(`ALTER TABLE pins ADD COLUMN ${column} ${type}`);
      }
    }
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
    this.migrateCounts();
  }

  /**
   * How many pins are in each state, kept by triggers on every insert, delete and change of status
   * (docs/decisions/059-bulk-scheduling-and-queue-pages.md): a page of the queue reads its total here
   * instead of counting the whole queue, so its cost does not grow with the queue. An object made
   * before the counts existed counts its pins once, as the triggers are created.
   */
  private migrateCounts() {
    const exists = this.sql.exec(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'pin_counts'`).toArray().length > 0;
    if (exists) return;
    this.sql.exec(`CREATE TABLE pin_counts (status TEXT PRIMARY KEY, n INTEGER NOT NULL)`);
    for (const status of PIN_STATES) this.sql.exec(`INSERT INTO pin_counts (status, n) VALUES (?, 0)`, status);
    this.sql.exec(`UPDATE pin_counts SET n = (SELECT COUNT(*) FROM pins WHERE pins.status = pin_counts.status)`);
    this.sql.exec(`CREATE TRIGGER IF NOT EXISTS pin_counts_insert AFTER INSERT ON pins BEGIN
        INSERT OR IGNORE INTO pin_counts (status, n) VALUES (NEW.status, 0);
        UPDATE pin_counts SET n = n + 1 WHERE status = NEW.status;
      END`);
    this.sql.exec(`CREATE TRIGGER IF NOT EXISTS pin_counts_delete AFTER DELETE ON pins BEGIN
        UPDATE pin_counts SET n = n - 1 WHERE status = OLD.status;
      END`);
    this.sql.exec(`CREATE TRIGGER IF NOT EXISTS pin_counts_status AFTER UPDATE OF status ON pins WHEN OLD.status IS NOT NEW.status BEGIN
        UPDATE pin_counts SET n = n - 1 WHERE status = OLD.status;
        INSERT OR IGNORE INTO pin_counts (status, n) VALUES (NEW.status, 0);
        UPDATE pin_counts SET n = n + 1 WHERE status = NEW.status;
      END`);
  }

  /** How many pins are in these states (read from the counts the triggers keep). */
  countIn(states: readonly string[]): number {
    let n = 0;
    for (const row of this.sql.exec<{ status: string; n: number }>(`SELECT status, n FROM pin_counts`)) if (states.includes(row.status)) n += row.n;
    return n;
  }

  /** Runs `body` as one transaction: all of its writes, or (when it throws) none. */
  transaction<T>(body: () => T): T {
    return this.storage.transactionSync(body);
  }

  /** Adds a pin (and, for a repeating pin, its repeating row, held until the pin is confirmed). */
  insertPin(pin: NewPinInput, request: ReserveRequest, at: number, status: PinState, now: number) {
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

  pinView(id: string): ScheduledPin | null {
    const row = this.sql.exec<PinRow>(`SELECT * FROM pins WHERE id = ? AND status != 'held'`, id).toArray()[0];
    return row ? toPinView(row) : null;
  }

  repeatingView(id: string): RepeatingPin | null {
    const row = this.sql.exec<RepeatingRow>(`SELECT * FROM repeating_pins WHERE id = ? AND held = 0`, id).toArray()[0];
    return row ? toRepeatingView(row) : null;
  }

  /** A page of one view of the queue, in time order from after `lastPinId`. */
  listPins(options: PageOptions): ScheduledPinsPage | Refusal {
    const page = this.pageRows(options);
    if ("ok" in page) return page;
    return { scheduledPins: page.rows.map(toPinView), totalCount: page.totalCount, lastPinScheduledTime: page.lastPinScheduledTime };
  }

  /**
   * The same page as listPins, as the JSON text of that ScheduledPinsPage, written without parsing each
   * pin's stored content and writing it out again (pinViewJson): most of a page's cost in this object.
   */
  listPinsJson(options: PageOptions): string | Refusal {
    const page = this.pageRows(options);
    if ("ok" in page) return page;
    return `{"scheduledPins":[${page.rows.map(pinViewJson).join(",")}],"totalCount":${page.totalCount},"lastPinScheduledTime":${JSON.stringify(page.lastPinScheduledTime)}}`;
  }

  private pageRows(options: PageOptions): { rows: PinViewRow[]; totalCount: number; lastPinScheduledTime: string | null } | Refusal {
    const filter = VIEW_FILTERS[options.view];
    let cursor: { scheduledTime: number; id: string } | null = null;
    if (options.lastPinId) {
      const row = this.sql
        .exec<{ scheduled_time: number }>(`SELECT scheduled_time FROM pins WHERE id = ? AND status != 'held'`, options.lastPinId)
        .toArray()[0];
      if (!row) return { ok: false, status: 400, message: "lastPinId is not a pin of this queue", field: "lastPinId" };
      cursor = { scheduledTime: row.scheduled_time, id: options.lastPinId };
    }
    const page = keysetPage(options.sortBy, cursor);
    const limit = Math.min(Math.max(options.limit ?? QUEUE_PAGE_SIZE, 1), 500);
    const rows = this.sql
      // Walk an index in page order: never a sort of the whole queue.
      .exec<PinViewRow>(
        `SELECT ${VIEW_COLUMNS} FROM pins INDEXED BY ${VIEW_INDEXES[options.view]} WHERE ${filter} AND ${page.where} ORDER BY ${page.orderBy} LIMIT ?`,
        ...page.params,
        limit,
      )
      .toArray();
    const totalCount = this.countIn(VIEW_STATES[options.view]);
    const last =
      this.sql
        .exec<{ t: number }>(
          `SELECT scheduled_time AS t FROM pins INDEXED BY pins_by_time WHERE status IN ('scheduled', 'awaiting', 'posting', 'paused') ORDER BY scheduled_time DESC, id DESC LIMIT 1`,
        )
        .toArray()[0]?.t ?? null;
    return { rows, totalCount, lastPinScheduledTime: last === null ? null : new Date(last).toISOString() };
  }

  /** Where each of these pins stands (ProfileScheduler.historyStates). */
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

  /**
   * Queues held pins (their credits were charged), in two statements whatever their number: `awaiting` when
   * their profile needs a reviewer's approval, else `paused` with the reason when it cannot post; and their
   * repeating pins.
   */
  confirmAllHeld(ids: string[], pausedReason: string | null, now: number, awaitingApproval = false) {
    if (ids.length === 0) return;
    this.sql.exec(
      `UPDATE pins SET status = ?, last_error = ?, updated_at = ? WHERE status = 'held' AND id IN (SELECT value FROM json_each(?))`,
      awaitingApproval ? "awaiting" : pausedReason !== null ? "paused" : "scheduled",
      awaitingApproval ? null : pausedReason,
      now,
      JSON.stringify(ids),
    );
    this.sql.exec(
      `UPDATE repeating_pins SET held = 0, updated_at = ? WHERE held = 1 AND id IN (SELECT value FROM json_each(?))`,
      now,
      JSON.stringify(ids.map(repeatingIdOf)),
    );
  }

  /** The views of these pins (not held), by id, in one query. */
  pinViews(ids: string[]): Map<string, ScheduledPin> {
    const rows = this.sql.exec<PinRow>(`SELECT * FROM pins WHERE id IN (SELECT value FROM json_each(?)) AND status != 'held'`, JSON.stringify(ids)).toArray();
    return new Map(rows.map((row) => [row.id, toPinView(row)]));
  }

  /** The views of these repeating pins (not held), by id, in one query. */
  repeatingViews(ids: string[]): Map<string, RepeatingPin> {
    const rows = this.sql
      .exec<RepeatingRow>(`SELECT * FROM repeating_pins WHERE id IN (SELECT value FROM json_each(?)) AND held = 0`, JSON.stringify(ids))
      .toArray();
    return new Map(rows.map((row) => [row.id, toRepeatingView(row)]));
  }

  /** Drops a held pin and its held repeating pin (its credits were refused, or never charged). */
  dropHeld(id: string) {
    this.sql.exec(`DELETE FROM pins WHERE id = ? AND status = 'held'`, id);
    this.sql.exec(`DELETE FROM repeating_pins WHERE id = ? AND held = 1`, repeatingIdOf(id));
  }

  /** Takes a pin out of the queue (unless it is being posted) and retires its id, so it is never placed again. */
  retirePin(id: string) {
    this.transaction(() => {
      this.sql.exec(`INSERT OR IGNORE INTO retired_pins (id, retired_at) VALUES (?, ?)`, id, Date.now());
      this.sql.exec(`DELETE FROM pins WHERE id = ? AND status != 'posting'`, id);
    });
  }

  /** Takes every pin not posted yet out of the queue (a pin being posted right now finishes) and retires their ids. Answers how many. */
  retireWaiting(): number {
    const waiting = "('scheduled', 'awaiting', 'paused', 'failed')";
    const deleted = this.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM pins WHERE status IN ${waiting}`).one().n;
    this.transaction(() => {
      this.sql.exec(`INSERT OR IGNORE INTO retired_pins (id, retired_at) SELECT id, ? FROM pins WHERE status IN ${waiting}`, Date.now());
      this.sql.exec(`DELETE FROM pins WHERE status IN ${waiting}`);
    });
    return deleted;
  }

  /** Forgets the whole queue and its state, but not which profile it is. */
  clear() {
    this.sql.exec(`DELETE FROM pins`);
    this.sql.exec(`DELETE FROM repeating_pins`);
    this.sql.exec(`DELETE FROM meta WHERE key != 'profile_key'`);
  }

  /** How many pins are in each state, counted row by row (the truth the kept counts must match; tests and the cron index). */
  counts(): Record<PinState, number> {
    const counts: Record<PinState, number> = { held: 0, scheduled: 0, awaiting: 0, posting: 0, paused: 0, posted: 0, failed: 0 };
    for (const row of this.sql.exec<{ status: PinState; n: number }>(`SELECT status, COUNT(*) AS n FROM pins GROUP BY status`)) counts[row.status] = row.n;
    return counts;
  }

  /** Pauses every waiting pin with the reason. Answers whether any pin changed. */
  pauseAll(reason: string): boolean {
    const waiting = this.countIn(["scheduled"]);
    if (waiting > 0) this.sql.exec(`UPDATE pins SET status = 'paused', last_error = ?, updated_at = ? WHERE status = 'scheduled'`, reason, Date.now());
    this.setMeta("paused_reason", reason);
    return waiting > 0;
  }

  /** Puts paused pins back in the queue (the profile works again). Answers whether any pin changed. */
  resume(): boolean {
    if (this.meta("paused_reason") !== null) this.sql.exec(`DELETE FROM meta WHERE key = 'paused_reason'`);
    const paused = this.countIn(["paused"]);
    if (paused > 0) this.sql.exec(`UPDATE pins SET status = 'scheduled', last_error = NULL, updated_at = ? WHERE status = 'paused'`, Date.now());
    return paused > 0;
  }

  /** The profile status this queue was last told, as far as a page shows it (statusNoteChanges reads it). */
  notedStatus(): NotedStatus {
    return { pausedReason: this.meta("paused_reason"), scheduled: this.countIn(["scheduled"]), paused: this.countIn(["paused"]) };
  }

  holdUntil(): number {
    return Number(this.meta("hold_until") ?? 0);
  }

  meta(key: string): string | null {
    return this.sql.exec<{ value: string }>(`SELECT value FROM meta WHERE key = ?`, key).toArray()[0]?.value ?? null;
  }

  setMeta(key: string, value: string) {
    this.sql.exec(`INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`, key, value);
  }

  remember(profileKey: string) {
    this.sql.exec(`INSERT INTO meta (key, value) VALUES ('profile_key', ?) ON CONFLICT(key) DO NOTHING`, profileKey);
  }

  profileKey(): string | null {
    return this.meta("profile_key");
  }
}

/** The id of the repeating pin a repeating pin's first occurrence creates. */
export function repeatingIdOf(pinId: string) {
  return `${pinId}-repeat`;
}

/** Why a profile's pins are paused, as the user reads it on each pin. */
/** What a queue holds of the profile's status: the pause reason it was told, and how many pins wait or are paused. */
export interface NotedStatus {
  pausedReason: string | null;
  scheduled: number;
  paused: number;
}

/**
 * Whether telling a queue in `noted` the profile's status (pauseAll or resume) would change it. When it
 * would not, a page read without telling it is the page a read that told it answers.
 */
export function statusNoteChanges(noted: NotedStatus, status: ProfileStatus, detail: string | null): boolean {
  if (status === "ok") return noted.pausedReason !== null || noted.paused > 0;
  return noted.pausedReason !== pauseReason(status, detail) || noted.scheduled > 0;
}

export function pauseReason(status: ProfileStatus, detail: string | null): string {
  if (status === "blocked") return `${BLOCKED_MESSAGE}: posting is paused until Pinterest lets the account post again.`;
  return `${REAUTHENTICATE_MESSAGE}: reconnect this Pinterest profile to resume posting.${detail ? ` (${detail})` : ""}`;
}

function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

/** The columns a pin's view is made of (a page reads only these: each value read costs). */
type PinViewRow = Pick<
  PinRow,
  | "id"
  | "type"
  | "status"
  | "scheduled_time"
  | "next_attempt_at"
  | "data"
  | "attempts"
  | "last_error"
  | "pinterest_pin_id"
  | "posted_at"
  | "repeating_pin_id"
  | "created_at"
>;
const VIEW_COLUMNS = "id, type, status, scheduled_time, next_attempt_at, data, attempts, last_error, pinterest_pin_id, posted_at, repeating_pin_id, created_at";

/** What a pin's view adds to its stored content (the content's own fields come first). */
function pinViewFields(row: PinViewRow) {
  const status = row.status as ScheduledPinStatus;
  return {
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

export function toPinView(row: PinViewRow): ScheduledPin {
  return { ...(JSON.parse(row.data) as PinContent), ...pinViewFields(row) };
}

/**
 * JSON.stringify(toPinView(row)) without parsing the stored content: its JSON text (written by
 * JSON.stringify when the pin was added) with the view's fields spliced in after its own. The content
 * never holds a view field (insertPin takes them out), so the text is the same, byte for byte.
 */
export function pinViewJson(row: PinViewRow): string {
  const fields = JSON.stringify(pinViewFields(row));
  return row.data === "{}" ? fields : `${row.data.slice(0, -1)},${fields.slice(1)}`;
}

export function toRepeatingView(row: RepeatingRow): RepeatingPin {
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
