import {
  type AnalyticsPin,
  type AnalyticsSort,
  type AnalyticsWindow,
  ANALYTICS_WINDOWS,
  type Breakdown,
  type BreakdownRow,
  type DailyMetrics,
  type Metrics,
  type BulkAnalyticsPin,
  PIN_SOURCE_LABELS,
  type PinSource,
  TEMPLATE_FAMILY_LABELS,
} from "../../contracts/pinterest/analytics.ts";
import { PINTEREST_ANALYTICS_MAX_DAYS, PINTEREST_ANALYTICS_MAX_PINS } from "../../contracts/pinterest/pinterest-analytics.ts";
import { pinterestPinUrl } from "../../contracts/pinterest/scheduling-api.ts";
import { hourLabel, type AudienceCell } from "../../workers/domain/best-times.ts";
import { stableSeed } from "../../workers/domain/random.ts";
import type { Env } from "../../workers/env.ts";
import { PinterestApiError, type PinterestClient } from "../../workers/integrations/pinterest.ts";
import { ServiceError } from "../../workers/services/core/errors.ts";
import { schedulingSettingsOf, withPinterest, type PinterestProfile } from "../../workers/services/pinterest/pinterest-connection.ts";
import { DAY_MS, type QueueStore } from "./queue-store.ts";

/**
 * Insights (issue 41, docs/decisions/093-insights.md): the figures Pinterest reports for the pins this queue posted,
 * read once a day by the object's alarm and kept 90 days at daily detail, with the rollups the analytics calls read.
 *
 * - `analytics_pins`: each posted pin as the figures are tied to it (Pinterest's id, posting time, hour and weekday in
 *   the profile's zone, board, template, family, source), copied from the queue when it is first seen posted;
 * - `analytics_days`: one row per pin and UTC day, overwritten when a day is read again (so a day read twice counts
 *   once); triggers keep `analytics_daily`, the profile's totals per day, in step with it; `analytics_account_daily`
 *   holds the account's own totals (every pin on it);
 * - `analytics_pin_totals`, `analytics_breakdowns`, `analytics_hours`, `analytics_windows`: the 7-, 30- and 90-day
 *   sums per pin, per board / template / family / source / posting hour, and per weekday and hour, built anew after
 *   each day's pass, a chunk of pins per ring, as a new generation the reads switch to when it is whole. A read is a
 *   few indexed rows, whatever the number of pins.
 *
 * A pass asks Pinterest about 100 pins a request, a few requests per ring (`ANALYTICS_REQUESTS_PER_RING`), from a
 * cursor, so a ring never holds posting up for long. A 429 waits until Pinterest's reset time, a 5xx or no answer backs off; the
 * cursor only moves past pins whose figures were stored, so no day is lost or counted twice. A 401 refreshes the token
 * once (withPinterest); a second marks the profile for reconnecting, and the pass waits for the profile to be ok.
 */

/**
 * Pinterest's figures are read once a day, at night (UTC): between 01:00 and 04:00 of the next day, each profile at
 * its own minute (a hash of its key), so the passes of many profiles spread over three hours and come after Pinterest
 * has finished counting the day before.
 */
export function nightlyPassAt(now: number, profileKey: string): number {
  const nextDay = Math.floor(now / DAY_MS) * DAY_MS + DAY_MS;
  return nextDay + 60 * 60_000 + (stableSeed(profileKey) % 180) * 60_000;
}
/** Requests to Pinterest per ring of the alarm (each up to 100 pins). */
export const ANALYTICS_REQUESTS_PER_RING = 2;
/** Days of daily figures kept (Pinterest reports 90 days back). */
export const ANALYTICS_KEEP_DAYS = 90;
/** Days read again on each pass: Pinterest revises recent days for a while. */
const REREAD_DAYS = 3;
/** How long to wait after a 429 that did not say (Pinterest's windows are a minute). */
const RATE_LIMIT_FALLBACK_MS = 60_000;
/** Back-off after a 5xx or no answer: 5 minutes, doubling, at most 2 hours. */
const RETRY_BASE_MS = 5 * 60_000;
const RETRY_MAX_MS = 2 * 60 * 60_000;
/** Pins summed into the rollups per ring: 34 ms median, 52 at most, at 10,000 pins over 90 days (decision 093). */
const SUM_CHUNK_PINS = 250;
/** Rows of an old generation of the rollups deleted per ring. */
const DROP_CHUNK_ROWS = 5_000;
/** A ring with a pin due this soon leaves the analytics for the next ring. */
const POSTING_SOON_MS = 30_000;

type Window = AnalyticsWindow;

interface AnalyticsPinRow extends Record<string, SqlStorageValue> {
  pin_id: string;
  pinterest_pin_id: string;
  posted_at: number;
  posted_date: string;
  hour: number;
  weekday: number;
  board_id: string;
  board_name: string;
  template_id: string | null;
  template_title: string | null;
  family: string | null;
  source: string;
  title: string;
  image_url: string;
  synced_through: string | null;
  /** 1: Pinterest answered "not found" for a request holding it; it is asked about alone next. 2: not found alone: never asked again. */
  missing: number;
}

interface MetricColumns extends Record<string, SqlStorageValue> {
  impressions: number;
  saves: number;
  pin_clicks: number;
  outbound_clicks: number;
}

const SORT_COLUMNS: Record<AnalyticsSort, string> = {
  impressions: "impressions",
  saves: "saves",
  outboundClicks: "outbound_clicks",
  engagementRate: "engagement_rate",
  postedAt: "posted_at",
};

/** A stored pin with its window's figures, as the analytics calls answer it. */
function analyticsPinOf(row: MetricColumns & AnalyticsPinRow): AnalyticsPin {
  return {
    pinId: row.pin_id,
    pinterestPinId: row.pinterest_pin_id,
    pinterestUrl: pinterestPinUrl(row.pinterest_pin_id) ?? "",
    title: row.title,
    imageUrl: row.image_url,
    boardName: row.board_name,
    templateId: row.template_id,
    templateTitle: row.template_title,
    templateFamily: row.family,
    source: row.source as PinSource,
    postedAt: row.posted_at,
    ...metricsOf(row),
  };
}

/** A UTC day as YYYY-MM-DD. */
export function utcDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Metrics with their engagement rate ((saves + pin clicks + outbound clicks) / impressions, 0 without impressions). */
export function metricsOf(row: { impressions: number; saves: number; pin_clicks: number; outbound_clicks: number }): Metrics {
  const impressions = Number(row.impressions ?? 0);
  const saves = Number(row.saves ?? 0);
  const pinClicks = Number(row.pin_clicks ?? 0);
  const outboundClicks = Number(row.outbound_clicks ?? 0);
  const engagementRate = impressions > 0 ? Math.round(((saves + pinClicks + outboundClicks) / impressions) * 10_000) / 10_000 : 0;
  return { impressions, saves, pinClicks, outboundClicks, engagementRate };
}

/** The hour (0-23) and weekday (0 = Sunday) of a moment in a time zone. */
function localHourAndWeekday(ms: number, timeZone: string): { hour: number; weekday: number } {
  const parts = new Intl.DateTimeFormat("en-US", { timeZone, hour: "numeric", hourCycle: "h23", weekday: "short" }).formatToParts(new Date(ms));
  const hour = Number(parts.find((part) => part.type === "hour")?.value ?? 0) % 24;
  const weekday = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"].indexOf(parts.find((part) => part.type === "weekday")?.value ?? "Sun");
  return { hour, weekday: Math.max(0, weekday) };
}

/** What a sync step did (tests and the dev control read it). */
export interface AnalyticsStep {
  requests: number;
  pinsRead: number;
  done: boolean;
  waitingUntil: number | null;
  stopped: "reauth" | "blocked" | null;
}

export class PinAnalytics {
  private readonly env: Env;
  private readonly store: QueueStore;

  constructor(env: Env, store: QueueStore) {
    this.env = env;
    this.store = store;
  }

  private get sql() {
    return this.store.sql;
  }

  migrate() {
    const sql = this.sql;
    sql.exec(`CREATE TABLE IF NOT EXISTS analytics_pins (
        pin_id TEXT PRIMARY KEY,
        pinterest_pin_id TEXT NOT NULL,
        posted_at INTEGER NOT NULL,
        posted_date TEXT NOT NULL,
        hour INTEGER NOT NULL,
        weekday INTEGER NOT NULL,
        board_id TEXT NOT NULL,
        board_name TEXT NOT NULL,
        template_id TEXT,
        template_title TEXT,
        family TEXT,
        source TEXT NOT NULL,
        title TEXT NOT NULL,
        image_url TEXT NOT NULL,
        synced_through TEXT,
        missing INTEGER NOT NULL DEFAULT 0
      )`);
    sql.exec(`CREATE INDEX IF NOT EXISTS analytics_pins_by_posting ON analytics_pins (posted_date)`);
    sql.exec(`CREATE TABLE IF NOT EXISTS analytics_days (
        pin_id TEXT NOT NULL,
        date TEXT NOT NULL,
        impressions INTEGER NOT NULL,
        saves INTEGER NOT NULL,
        pin_clicks INTEGER NOT NULL,
        outbound_clicks INTEGER NOT NULL,
        PRIMARY KEY (pin_id, date)
      ) WITHOUT ROWID`);
    sql.exec(`CREATE INDEX IF NOT EXISTS analytics_days_by_date ON analytics_days (date)`);
    sql.exec(`CREATE TABLE IF NOT EXISTS analytics_daily (
        date TEXT PRIMARY KEY,
        impressions INTEGER NOT NULL DEFAULT 0,
        saves INTEGER NOT NULL DEFAULT 0,
        pin_clicks INTEGER NOT NULL DEFAULT 0,
        outbound_clicks INTEGER NOT NULL DEFAULT 0
      )`);
    // The profile's daily totals follow every write of a pin's day, in the same transaction.
    sql.exec(`CREATE TRIGGER IF NOT EXISTS analytics_daily_insert AFTER INSERT ON analytics_days BEGIN
        INSERT OR IGNORE INTO analytics_daily (date) VALUES (NEW.date);
        UPDATE analytics_daily SET impressions = impressions + NEW.impressions, saves = saves + NEW.saves,
          pin_clicks = pin_clicks + NEW.pin_clicks, outbound_clicks = outbound_clicks + NEW.outbound_clicks WHERE date = NEW.date;
      END`);
    sql.exec(`CREATE TRIGGER IF NOT EXISTS analytics_daily_update AFTER UPDATE ON analytics_days BEGIN
        UPDATE analytics_daily SET impressions = impressions - OLD.impressions + NEW.impressions, saves = saves - OLD.saves + NEW.saves,
          pin_clicks = pin_clicks - OLD.pin_clicks + NEW.pin_clicks, outbound_clicks = outbound_clicks - OLD.outbound_clicks + NEW.outbound_clicks
        WHERE date = NEW.date;
      END`);
    sql.exec(`CREATE TRIGGER IF NOT EXISTS analytics_daily_delete AFTER DELETE ON analytics_days BEGIN
        UPDATE analytics_daily SET impressions = impressions - OLD.impressions, saves = saves - OLD.saves,
          pin_clicks = pin_clicks - OLD.pin_clicks, outbound_clicks = outbound_clicks - OLD.outbound_clicks WHERE date = OLD.date;
      END`);
    // The account's own daily totals (every pin on it), the overview's "whole profile" line.
    sql.exec(`CREATE TABLE IF NOT EXISTS analytics_account_daily (
        date TEXT PRIMARY KEY,
        impressions INTEGER NOT NULL,
        saves INTEGER NOT NULL,
        pin_clicks INTEGER NOT NULL,
        outbound_clicks INTEGER NOT NULL
      ) WITHOUT ROWID`);
    // The rollups are built a chunk of pins per ring into the next generation, which reads switch to when it is
    // whole (meta analytics_gen); the old generation is then deleted a chunk at a time.
    sql.exec(`CREATE TABLE IF NOT EXISTS analytics_windows (
        gen INTEGER NOT NULL,
        days INTEGER NOT NULL,
        from_date TEXT NOT NULL,
        to_date TEXT NOT NULL,
        pins INTEGER NOT NULL,
        PRIMARY KEY (gen, days)
      ) WITHOUT ROWID`);
    sql.exec(`CREATE TABLE IF NOT EXISTS analytics_pin_totals (
        gen INTEGER NOT NULL,
        days INTEGER NOT NULL,
        pin_id TEXT NOT NULL,
        impressions INTEGER NOT NULL,
        saves INTEGER NOT NULL,
        pin_clicks INTEGER NOT NULL,
        outbound_clicks INTEGER NOT NULL,
        engagement_rate REAL NOT NULL,
        posted_at INTEGER NOT NULL,
        PRIMARY KEY (gen, days, pin_id)
      ) WITHOUT ROWID`);
    for (const column of Object.values(SORT_COLUMNS)) {
      sql.exec(`CREATE INDEX IF NOT EXISTS analytics_pin_totals_by_${column} ON analytics_pin_totals (gen, days, ${column}, pin_id)`);
    }
    sql.exec(`CREATE TABLE IF NOT EXISTS analytics_breakdowns (
        gen INTEGER NOT NULL,
        days INTEGER NOT NULL,
        dimension TEXT NOT NULL,
        key TEXT NOT NULL,
        label TEXT NOT NULL,
        pins INTEGER NOT NULL,
        impressions INTEGER NOT NULL,
        saves INTEGER NOT NULL,
        pin_clicks INTEGER NOT NULL,
        outbound_clicks INTEGER NOT NULL,
        PRIMARY KEY (gen, days, dimension, key)
      ) WITHOUT ROWID`);
    sql.exec(`CREATE TABLE IF NOT EXISTS analytics_hours (
        gen INTEGER NOT NULL,
        weekday INTEGER NOT NULL,
        hour INTEGER NOT NULL,
        pins INTEGER NOT NULL,
        impressions INTEGER NOT NULL,
        engagements INTEGER NOT NULL,
        PRIMARY KEY (gen, weekday, hour)
      ) WITHOUT ROWID`);
  }

  /** Forgets everything (the profile was disconnected). */
  clear() {
    for (const table of [
      "analytics_pins",
      "analytics_days",
      "analytics_daily",
      "analytics_account_daily",
      "analytics_windows",
      "analytics_pin_totals",
      "analytics_breakdowns",
      "analytics_hours",
    ]) {
      this.sql.exec(`DELETE FROM ${table}`);
    }
    for (const key of [
      "analytics_next_at",
      "analytics_cursor",
      "analytics_pass",
      "analytics_failures",
      "analytics_synced_at",
      "analytics_phase",
      "analytics_gen",
      "analytics_to",
      "analytics_account_pass",
    ]) {
      this.sql.exec(`DELETE FROM meta WHERE key = ?`, key);
    }
  }

  /** When the alarm should ring for the figures: a pass under way goes on soon; otherwise the next day's pass. Null without posted pins. */
  nextRingAt(now = Date.now()): number | null {
    const hasPins =
      this.sql.exec(`SELECT 1 FROM pins WHERE status = 'posted' AND pinterest_pin_id IS NOT NULL LIMIT 1`).toArray().length > 0 ||
      this.sql.exec(`SELECT 1 FROM analytics_pins LIMIT 1`).toArray().length > 0;
    return hasPins ? this.dueAt(now) : null;
  }

  /** When the next step is due; the first pass of a profile waits for the next night (a pin posted today has no whole day yet). */
  private dueAt(now: number): number {
    const stored = this.store.meta("analytics_next_at");
    if (stored !== null) return Number(stored);
    const first = nightlyPassAt(now, this.store.profileKey() ?? "");
    this.store.setMeta("analytics_next_at", String(first));
    return first;
  }

  /** When the figures were last read whole (ms), or null. */
  syncedAt(): number | null {
    const at = this.store.meta("analytics_synced_at");
    return at === null ? null : Number(at);
  }

  /**
   * One bounded step of the day's pass, when it is due (or `force`d: the dev control): notes newly posted pins,
   * asks Pinterest about the next pins from the cursor (at most `ANALYTICS_REQUESTS_PER_RING` requests); once every pin
   * was read, prunes, then sums the next generation of the rollups a chunk of pins per step, switches the reads to it
   * and deletes the old one a chunk per step. Posting comes first: a pin due within 30 s defers the step.
   */
  async step(profile: PinterestProfile, options: { force?: boolean; now?: number } = {}): Promise<AnalyticsStep> {
    const now = options.now ?? Date.now();
    const result: AnalyticsStep = { requests: 0, pinsRead: 0, done: false, waitingUntil: null, stopped: null };
    const due = this.dueAt(now);
    if (!options.force && due > now) return { ...result, waitingUntil: due };
    if (!options.force && this.postingSoon(now)) return result;
    if (profile.status !== "ok") return { ...result, stopped: profile.status === "blocked" ? "blocked" : "reauth" };
    const phase = this.store.meta("analytics_phase") ?? "read";
    if (phase === "sum") return { ...result, done: this.sumChunk(now) };
    if (phase === "drop") return { ...result, done: this.dropOldGenerations(now) };
    this.noteNewlyPosted(profile, now);
    const today = utcDate(now);
    if (this.store.meta("analytics_pass") !== today) {
      this.store.setMeta("analytics_pass", today);
      this.store.setMeta("analytics_cursor", "");
    }
    const oldest = utcDate(now - (PINTEREST_ANALYTICS_MAX_DAYS - 1) * DAY_MS);
    while (result.requests < ANALYTICS_REQUESTS_PER_RING) {
      const batch = this.nextBatch(oldest);
      if (batch.length === 0) {
        if (this.store.meta("analytics_account_pass") !== today) {
          result.requests += 1;
          const outcome = await this.readAccount(profile, today, oldest);
          if (outcome === "reauth" || outcome === "blocked") return { ...result, stopped: outcome };
          if (outcome !== "stored") {
            result.waitingUntil = outcome.until;
            this.store.setMeta("analytics_next_at", String(outcome.until));
            return result;
          }
          this.store.setMeta("analytics_failures", "0");
        }
        this.startSums(now);
        return result;
      }
      result.requests += 1;
      const outcome = await this.readBatch(profile, batch, today, oldest);
      if (outcome === "stored") {
        result.pinsRead += batch.length;
        this.store.setMeta("analytics_failures", "0");
        continue;
      }
      if (outcome === "missing") continue;
      if (outcome === "reauth" || outcome === "blocked") return { ...result, stopped: outcome };
      result.waitingUntil = outcome.until;
      this.store.setMeta("analytics_next_at", String(outcome.until));
      return result;
    }
    // More to read: the next ring comes at once (after any posting that is due).
    this.store.setMeta("analytics_next_at", String(now));
    return result;
  }

  private postingSoon(now: number): boolean {
    const next = this.sql.exec<{ t: number | null }>(`SELECT MIN(next_attempt_at) AS t FROM pins WHERE status = 'scheduled'`).one().t;
    return next !== null && next < now + POSTING_SOON_MS && now >= this.store.holdUntil();
  }

  /** Copies the pins posted since the last look into analytics_pins, with their posting hour in the profile's zone. */
  private noteNewlyPosted(profile: PinterestProfile, now: number) {
    const timeZone = schedulingSettingsOf(profile).timezone.value;
    const rows = this.sql
      .exec<{ id: string; pinterest_pin_id: string; posted_at: number; board_id: string; data: string }>(
        `SELECT id, pinterest_pin_id, posted_at, board_id, data FROM pins
         WHERE status = 'posted' AND pinterest_pin_id IS NOT NULL AND posted_at >= ? AND id NOT IN (SELECT pin_id FROM analytics_pins)`,
        now - PINTEREST_ANALYTICS_MAX_DAYS * DAY_MS,
      )
      .toArray();
    this.store.transaction(() => {
      for (const row of rows) {
        const content = JSON.parse(row.data) as Record<string, unknown>;
        const text = (key: string) => (typeof content[key] === "string" && content[key] ? (content[key] as string) : null);
        const { hour, weekday } = localHourAndWeekday(row.posted_at, timeZone);
        const source = text("source") ?? "other";
        this.sql.exec(
          `INSERT OR IGNORE INTO analytics_pins (pin_id, pinterest_pin_id, posted_at, posted_date, hour, weekday, board_id, board_name, template_id, template_title,
             family, source, title, image_url) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          row.id,
          row.pinterest_pin_id,
          row.posted_at,
          utcDate(row.posted_at),
          hour,
          weekday,
          row.board_id,
          text("boardName") ?? "",
          text("templateId"),
          text("templateTitle"),
          text("templateFamily"),
          source in PIN_SOURCE_LABELS ? source : "other",
          text("title") ?? "",
          text("imageURL") ?? text("mediaURL") ?? text("videoThumbnail") ?? "",
        );
      }
    });
  }

  /** The next pins of the pass after the cursor: a pin Pinterest could not find in a batch is asked about alone. */
  private nextBatch(oldest: string): AnalyticsPinRow[] {
    const cursor = this.store.meta("analytics_cursor") ?? "";
    const pins = this.sql
      .exec<AnalyticsPinRow>(
        `SELECT * FROM analytics_pins WHERE pin_id > ? AND posted_date >= ? AND missing < 2 ORDER BY pin_id LIMIT ?`,
        cursor,
        oldest,
        PINTEREST_ANALYTICS_MAX_PINS,
      )
      .toArray();
    const suspect = pins.findIndex((pin) => pin.missing === 1);
    if (suspect === 0) return pins.slice(0, 1);
    return suspect > 0 ? pins.slice(0, suspect) : pins;
  }

  /** Reads one batch and stores its days; answers what became of it. */
  private async readBatch(
    profile: PinterestProfile,
    batch: AnalyticsPinRow[],
    today: string,
    oldest: string,
  ): Promise<"stored" | "missing" | "reauth" | "blocked" | { until: number }> {
    // From the earliest day any of them still needs: a new pin from its posting day, the others the last few days again.
    const starts = batch.map((pin) => {
      const reread = pin.synced_through ? utcDate(Date.parse(pin.synced_through) - (REREAD_DAYS - 1) * DAY_MS) : pin.posted_date;
      return reread < pin.posted_date ? pin.posted_date : reread;
    });
    const start = starts.reduce((a, b) => (a < b ? a : b));
    const startDate = start < oldest ? oldest : start;
    const answer = await this.call(profile, (client, token) =>
      client.pinAnalytics(
        token,
        batch.map((pin) => pin.pinterest_pin_id),
        { startDate, endDate: today },
      ),
    );
    if (!("value" in answer)) {
      if (answer.failure !== "missing") return answer.failure;
      // A pin deleted on Pinterest: each pin of the batch is asked about alone, and one not found alone is left out.
      this.store.transaction(() => {
        for (const pin of batch) this.sql.exec(`UPDATE analytics_pins SET missing = ? WHERE pin_id = ?`, batch.length === 1 ? 2 : 1, pin.pin_id);
      });
      if (batch.length === 1) this.store.setMeta("analytics_cursor", batch[0].pin_id);
      return "missing";
    }
    const figures = answer.value;
    this.store.transaction(() => {
      for (const pin of batch) {
        const days = figures[pin.pinterest_pin_id]?.ALL?.daily_metrics ?? Object.values(figures[pin.pinterest_pin_id] ?? {})[0]?.daily_metrics ?? [];
        let through = pin.synced_through;
        for (const day of days) {
          if (day.data_status !== "READY" || !day.metrics || day.date < pin.posted_date || day.date < oldest) continue;
          const m = day.metrics;
          this.sql.exec(
            `INSERT INTO analytics_days (pin_id, date, impressions, saves, pin_clicks, outbound_clicks) VALUES (?, ?, ?, ?, ?, ?)
             ON CONFLICT (pin_id, date) DO UPDATE SET impressions = excluded.impressions, saves = excluded.saves, pin_clicks = excluded.pin_clicks,
               outbound_clicks = excluded.outbound_clicks
             WHERE impressions != excluded.impressions OR saves != excluded.saves OR pin_clicks != excluded.pin_clicks OR outbound_clicks != excluded.outbound_clicks`,
            pin.pin_id,
            day.date,
            Math.round(m.IMPRESSION ?? 0),
            Math.round(m.SAVE ?? 0),
            Math.round(m.PIN_CLICK ?? 0),
            Math.round(m.OUTBOUND_CLICK ?? 0),
          );
          if (!through || day.date > through) through = day.date;
        }
        this.sql.exec(`UPDATE analytics_pins SET synced_through = ?, missing = 0 WHERE pin_id = ?`, through, pin.pin_id);
      }
      this.store.setMeta("analytics_cursor", batch[batch.length - 1].pin_id);
    });
    return "stored";
  }

  /**
   * One call to Pinterest for the sync, and what became of it: its answer, or how the pass goes on. 401 and the
   * blocked 403 are withPinterest's (refresh once, then mark the profile); a 429 waits for Pinterest's reset; a 5xx
   * or no answer backs off; a 404 is the caller's to handle.
   */
  private async call<T>(
    profile: PinterestProfile,
    request: (client: PinterestClient, token: string) => Promise<T>,
  ): Promise<{ value: T } | { failure: "missing" | "reauth" | "blocked" | { until: number } }> {
    try {
      return {
        value: await withPinterest(this.env, profile, async (client, token) => {
          try {
            return await request(client, token);
          } catch (error) {
            if (error instanceof PinterestApiError && error.kind !== "unauthorized" && !error.blocked) throw new SyncFailure(error);
            throw error;
          }
        }),
      };
    } catch (error) {
      if (error instanceof ServiceError && error.status === 401) return { failure: "reauth" };
      if (error instanceof ServiceError && error.status === 423) return { failure: "blocked" };
      const cause = error instanceof SyncFailure ? error.cause : null;
      if (cause?.kind === "not_found") return { failure: "missing" };
      const now = Date.now();
      if (cause?.kind === "rate_limited") return { failure: { until: now + (cause.retryAfterMs ?? RATE_LIMIT_FALLBACK_MS) } };
      const failures = Number(this.store.meta("analytics_failures") ?? 0) + 1;
      this.store.setMeta("analytics_failures", String(failures));
      const backoff = Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** (failures - 1));
      console.warn(
        `ProfileScheduler: reading analytics failed (${failures}), again in ${Math.round(backoff / 60_000)} min:`,
        error instanceof Error ? error.message : error,
      );
      return { failure: { until: now + Math.max(backoff, cause?.retryAfterMs ?? 0) } };
    }
  }

  /**
   * The account's own daily totals (user_account/analytics: every pin on the account, ours or not), once a pass: the
   * overview's "whole profile" line. From 90 days back the first time, the last 3 days afterwards.
   */
  private async readAccount(profile: PinterestProfile, today: string, oldest: string): Promise<"stored" | "reauth" | "blocked" | { until: number }> {
    const last = this.sql.exec<{ d: string | null }>(`SELECT MAX(date) AS d FROM analytics_account_daily`).one().d;
    const reread = last ? utcDate(Date.parse(last) - (REREAD_DAYS - 1) * DAY_MS) : oldest;
    const answer = await this.call(profile, (client, token) =>
      client.accountAnalytics(token, { startDate: reread < oldest ? oldest : reread, endDate: today }),
    );
    if (!("value" in answer)) return answer.failure === "missing" ? "stored" : answer.failure;
    const days = answer.value.all?.daily_metrics ?? Object.values(answer.value)[0]?.daily_metrics ?? [];
    this.store.transaction(() => {
      for (const day of days) {
        if (day.data_status !== "READY" || !day.metrics || day.date < oldest) continue;
        const m = day.metrics;
        this.sql.exec(
          `INSERT OR REPLACE INTO analytics_account_daily (date, impressions, saves, pin_clicks, outbound_clicks) VALUES (?, ?, ?, ?, ?)`,
          day.date,
          Math.round(m.IMPRESSION ?? 0),
          Math.round(m.SAVE ?? 0),
          Math.round(m.PIN_CLICK ?? 0),
          Math.round(m.OUTBOUND_CLICK ?? 0),
        );
      }
      this.store.setMeta("analytics_account_pass", today);
    });
    return "stored";
  }

  /** Every pin was read: prune what is past keeping, and start the next generation of the rollups, for the windows ending yesterday. */
  private startSums(now: number) {
    this.prune(now);
    const next = this.generation() + 1;
    this.store.transaction(() => {
      // A build cut short before (a restart between rings) left rows of this generation: they are made again.
      for (const table of ["analytics_pin_totals", "analytics_breakdowns", "analytics_hours", "analytics_windows"])
        this.sql.exec(`DELETE FROM ${table} WHERE gen >= ?`, next);
      const to = utcDate(now - DAY_MS);
      for (const days of ANALYTICS_WINDOWS) {
        this.sql.exec(
          `INSERT INTO analytics_windows (gen, days, from_date, to_date, pins) VALUES (?, ?, ?, ?, 0)`,
          next,
          days,
          utcDate(Date.parse(to) - (days - 1) * DAY_MS),
          to,
        );
      }
      this.store.setMeta("analytics_to", to);
      this.store.setMeta("analytics_phase", "sum");
      this.store.setMeta("analytics_cursor", "");
      this.store.setMeta("analytics_next_at", String(now));
    });
  }

  /** The generation the reads use (0 before the first is built). */
  private generation(): number {
    return Number(this.store.meta("analytics_gen") ?? 0);
  }

  /**
   * Sums the next SUM_CHUNK_PINS pins (by id, from the cursor) into the generation being built: their window totals,
   * and what they add to each breakdown, weekday and hour and window count (the chunks hold different pins, so their
   * sums add up). About 35 ms a chunk; 10,000 pins take 41 rings. Answers false: the pass ends with the drop.
   */
  private sumChunk(now: number): boolean {
    const sql = this.sql;
    const next = this.generation() + 1;
    const cursor = this.store.meta("analytics_cursor") ?? "";
    const last = sql
      .exec<{ pin_id: string }>(`SELECT pin_id FROM analytics_pins WHERE pin_id > ? ORDER BY pin_id LIMIT 1 OFFSET ?`, cursor, SUM_CHUNK_PINS - 1)
      .toArray()[0]?.pin_id;
    const upTo = last ?? "\uffff";
    this.store.transaction(() => {
      for (const window of sql
        .exec<{ days: number; from_date: string; to_date: string }>(`SELECT days, from_date, to_date FROM analytics_windows WHERE gen = ?`, next)
        .toArray()) {
        const { days, from_date: from, to_date: to } = window;
        sql.exec(
          `INSERT INTO analytics_pin_totals (gen, days, pin_id, impressions, saves, pin_clicks, outbound_clicks, engagement_rate, posted_at)
           SELECT ?, ?, d.pin_id, SUM(d.impressions), SUM(d.saves), SUM(d.pin_clicks), SUM(d.outbound_clicks),
             CASE WHEN SUM(d.impressions) > 0 THEN ROUND(CAST(SUM(d.saves) + SUM(d.pin_clicks) + SUM(d.outbound_clicks) AS REAL) / SUM(d.impressions), 4) ELSE 0 END,
             p.posted_at
           FROM analytics_pins p JOIN analytics_days d ON d.pin_id = p.pin_id AND d.date >= ? AND d.date <= ?
           WHERE p.pin_id > ? AND p.pin_id <= ? GROUP BY d.pin_id`,
          next,
          days,
          from,
          to,
          cursor,
          upTo,
        );
        // (rowsWritten counts the index entries too.)
        const added = sql
          .exec<{ n: number }>(
            `SELECT COUNT(*) AS n FROM analytics_pin_totals WHERE gen = ? AND days = ? AND pin_id > ? AND pin_id <= ?`,
            next,
            days,
            cursor,
            upTo,
          )
          .one().n;
        sql.exec(`UPDATE analytics_windows SET pins = pins + ? WHERE gen = ? AND days = ?`, added, next, days);
        for (const [dimension, key, label] of [
          ["board", "p.board_id", "MAX(p.board_name)"],
          ["template", "COALESCE(p.template_id, '')", "COALESCE(MAX(p.template_title), '')"],
          ["templateFamily", "COALESCE(p.family, '')", "''"],
          ["source", "p.source", "''"],
          ["hour", "printf('%02d', p.hour)", "''"],
        ] as const) {
          sql.exec(
            `INSERT INTO analytics_breakdowns (gen, days, dimension, key, label, pins, impressions, saves, pin_clicks, outbound_clicks)
             SELECT ?, ?, ?, ${key}, ${label}, COUNT(*), SUM(t.impressions), SUM(t.saves), SUM(t.pin_clicks), SUM(t.outbound_clicks)
             FROM analytics_pin_totals t JOIN analytics_pins p ON p.pin_id = t.pin_id
             WHERE t.gen = ? AND t.days = ? AND t.pin_id > ? AND t.pin_id <= ? GROUP BY ${key}
             ON CONFLICT (gen, days, dimension, key) DO UPDATE SET label = CASE WHEN excluded.label != '' THEN excluded.label ELSE label END,
               pins = pins + excluded.pins, impressions = impressions + excluded.impressions, saves = saves + excluded.saves,
               pin_clicks = pin_clicks + excluded.pin_clicks, outbound_clicks = outbound_clicks + excluded.outbound_clicks`,
            next,
            days,
            dimension,
            next,
            days,
            cursor,
            upTo,
          );
        }
      }
      sql.exec(
        `INSERT INTO analytics_hours (gen, weekday, hour, pins, impressions, engagements)
         SELECT ?, p.weekday, p.hour, COUNT(*), SUM(t.impressions), SUM(t.saves + t.pin_clicks + t.outbound_clicks)
         FROM analytics_pin_totals t JOIN analytics_pins p ON p.pin_id = t.pin_id
         WHERE t.gen = ? AND t.days = 90 AND t.pin_id > ? AND t.pin_id <= ? GROUP BY p.weekday, p.hour
         ON CONFLICT (gen, weekday, hour) DO UPDATE SET pins = pins + excluded.pins, impressions = impressions + excluded.impressions,
           engagements = engagements + excluded.engagements`,
        next,
        next,
        cursor,
        upTo,
      );
      if (last) this.store.setMeta("analytics_cursor", last);
      else {
        // Whole: the reads switch to it; the previous generation is deleted in the next rings.
        this.store.setMeta("analytics_gen", String(next));
        this.store.setMeta("analytics_synced_at", String(now));
        this.store.setMeta("analytics_phase", "drop");
        this.store.setMeta("analytics_cursor", "");
      }
      this.store.setMeta("analytics_next_at", String(now));
    });
    return false;
  }

  /** Deletes up to DROP_CHUNK_ROWS rows of older generations; once none is left the day's pass is over. Answers whether it is. */
  private dropOldGenerations(now: number): boolean {
    const current = this.generation();
    const more = this.store.transaction(() => {
      this.sql.exec(
        `DELETE FROM analytics_pin_totals WHERE (gen, days, pin_id) IN (SELECT gen, days, pin_id FROM analytics_pin_totals WHERE gen < ? LIMIT ?)`,
        current,
        DROP_CHUNK_ROWS,
      );
      const left = this.sql.exec(`SELECT 1 FROM analytics_pin_totals WHERE gen < ? LIMIT 1`, current).toArray().length > 0;
      if (!left)
        for (const table of ["analytics_breakdowns", "analytics_hours", "analytics_windows"]) this.sql.exec(`DELETE FROM ${table} WHERE gen < ?`, current);
      return left;
    });
    if (more) {
      this.store.setMeta("analytics_next_at", String(now));
      return false;
    }
    this.store.setMeta("analytics_phase", "read");
    this.store.setMeta("analytics_next_at", String(nightlyPassAt(now, this.store.profileKey() ?? "")));
    return true;
  }

  /** Daily figures older than 90 days go; a pin goes once its last possible day has gone (90 days after its 90 days). */
  prune(now: number) {
    const cutoff = utcDate(now - (ANALYTICS_KEEP_DAYS - 1) * DAY_MS);
    this.store.transaction(() => {
      this.sql.exec(`DELETE FROM analytics_days WHERE date < ?`, cutoff);
      this.sql.exec(`DELETE FROM analytics_daily WHERE date < ?`, cutoff);
      this.sql.exec(`DELETE FROM analytics_account_daily WHERE date < ?`, cutoff);
      this.sql.exec(`DELETE FROM analytics_pins WHERE posted_date < ?`, utcDate(now - 2 * ANALYTICS_KEEP_DAYS * DAY_MS));
    });
  }

  /**
   * Writes posted pins and their daily figures in bulk, as if tonight's pass had just read them from Pinterest: the
   * dev control `POST /api/dev/analytics/fill` (`npm run bench:analytics`: 10,000 pins over 90 days, which the queue
   * and the stand-in would take about an hour to post and age). Days are stored as a read stores them (the triggers
   * keep the daily totals); the pass is left past its last pin, so the next step reads the account's totals and
   * builds the rollups as every night. Answers the pins and days written.
   */
  fillForBench(profile: PinterestProfile, pins: readonly BulkAnalyticsPin[], now: number): { pins: number; days: number } {
    const timeZone = schedulingSettingsOf(profile).timezone.value;
    const today = utcDate(now);
    let days = 0;
    this.store.transaction(() => {
      for (const pin of pins) {
        const { hour, weekday } = localHourAndWeekday(pin.postedAt, timeZone);
        let through: string | null = null;
        for (const [date, impressions, saves, pinClicks, outboundClicks] of pin.days) {
          this.sql.exec(
            `INSERT INTO analytics_days (pin_id, date, impressions, saves, pin_clicks, outbound_clicks) VALUES (?, ?, ?, ?, ?, ?)
             ON CONFLICT (pin_id, date) DO UPDATE SET impressions = excluded.impressions, saves = excluded.saves, pin_clicks = excluded.pin_clicks,
               outbound_clicks = excluded.outbound_clicks`,
            pin.pinId,
            date,
            impressions,
            saves,
            pinClicks,
            outboundClicks,
          );
          if (!through || date > through) through = date;
          days += 1;
        }
        this.sql.exec(
          `INSERT OR REPLACE INTO analytics_pins (pin_id, pinterest_pin_id, posted_at, posted_date, hour, weekday, board_id, board_name, template_id,
             template_title, family, source, title, image_url, synced_through) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          pin.pinId,
          pin.pinterestPinId,
          pin.postedAt,
          utcDate(pin.postedAt),
          hour,
          weekday,
          pin.boardId,
          pin.boardName,
          pin.templateId,
          pin.templateTitle,
          pin.family,
          pin.source,
          pin.title,
          pin.imageUrl,
          through,
        );
      }
      const last = this.sql.exec<{ id: string | null }>(`SELECT MAX(pin_id) AS id FROM analytics_pins`).one().id ?? "";
      this.store.setMeta("analytics_pass", today);
      this.store.setMeta("analytics_cursor", last);
      this.store.setMeta("analytics_phase", "read");
      this.store.setMeta("analytics_next_at", String(now));
    });
    return { pins: pins.length, days };
  }

  /** Moves every posted pin (in the queue and here) `days` back; its hour and weekday stay. Answers how many. */
  backdate(days: number): number {
    const shift = days * DAY_MS;
    return this.store.transaction(() => {
      const moved = this.sql.exec(`UPDATE pins SET posted_at = posted_at - ? WHERE status = 'posted'`, shift).rowsWritten;
      for (const row of this.sql.exec<{ pin_id: string; posted_at: number }>(`SELECT pin_id, posted_at FROM analytics_pins`).toArray()) {
        this.sql.exec(
          `UPDATE analytics_pins SET posted_at = ?, posted_date = ? WHERE pin_id = ?`,
          row.posted_at - shift,
          utcDate(row.posted_at - shift),
          row.pin_id,
        );
      }
      return moved;
    });
  }

  // ---------------------------------------------------------------- reads

  /** The window's dates: as the generation the reads use counted them, else ending yesterday. */
  private window(days: Window): { from: string; to: string; pins: number } {
    const row = this.sql
      .exec<{ from_date: string; to_date: string; pins: number }>(
        `SELECT from_date, to_date, pins FROM analytics_windows WHERE gen = ? AND days = ?`,
        this.generation(),
        days,
      )
      .toArray()[0];
    if (row) return { from: row.from_date, to: row.to_date, pins: row.pins };
    const to = utcDate(Date.now() - DAY_MS);
    return { from: utcDate(Date.parse(to) - (days - 1) * DAY_MS), to, pins: 0 };
  }

  /** Totals, a daily series (every day of the window, zeros included) and the breakdowns of one window. */
  overview(days: Window): {
    from: string;
    to: string;
    pins: number;
    syncedAt: number | null;
    totals: Metrics;
    daily: DailyMetrics[];
    breakdowns: Record<Breakdown, BreakdownRow[]>;
    profile: { totals: Metrics; daily: DailyMetrics[] } | null;
  } {
    const { from, to, pins } = this.window(days);
    const stored = new Map(
      this.sql
        .exec<MetricColumns & { date: string }>(`SELECT * FROM analytics_daily WHERE date >= ? AND date <= ? ORDER BY date`, from, to)
        .toArray()
        .map((row) => [row.date, row]),
    );
    const daily: DailyMetrics[] = [];
    const sum = { impressions: 0, saves: 0, pin_clicks: 0, outbound_clicks: 0 };
    for (let at = Date.parse(from); at <= Date.parse(to); at += DAY_MS) {
      const date = utcDate(at);
      const row = stored.get(date) ?? { impressions: 0, saves: 0, pin_clicks: 0, outbound_clicks: 0 };
      for (const key of ["impressions", "saves", "pin_clicks", "outbound_clicks"] as const) sum[key] += Number(row[key]);
      daily.push({ date, ...metricsOf(row) });
    }
    const breakdowns: Record<Breakdown, BreakdownRow[]> = { board: [], template: [], templateFamily: [], source: [], hour: [] };
    for (const row of this.sql.exec<MetricColumns & { dimension: Breakdown; key: string; label: string; pins: number }>(
      `SELECT * FROM analytics_breakdowns WHERE gen = ? AND days = ? ORDER BY dimension, impressions DESC, key`,
      this.generation(),
      days,
    )) {
      breakdowns[row.dimension]?.push({ key: row.key, label: breakdownLabel(row.dimension, row.key, row.label), pins: row.pins, ...metricsOf(row) });
    }
    breakdowns.hour.sort((a, b) => a.key.localeCompare(b.key));
    return { from, to, pins, syncedAt: this.syncedAt(), totals: metricsOf(sum), daily, breakdowns, profile: this.accountWindow(from, to) };
  }

  /** The account's own totals and daily series over the window, or null before they were first read. */
  private accountWindow(from: string, to: string): { totals: Metrics; daily: DailyMetrics[] } | null {
    const rows = this.sql
      .exec<MetricColumns & { date: string }>(`SELECT * FROM analytics_account_daily WHERE date >= ? AND date <= ? ORDER BY date`, from, to)
      .toArray();
    if (rows.length === 0 && this.store.meta("analytics_account_pass") === null) return null;
    const byDate = new Map(rows.map((row) => [row.date, row]));
    const sum = { impressions: 0, saves: 0, pin_clicks: 0, outbound_clicks: 0 };
    const daily: DailyMetrics[] = [];
    for (let at = Date.parse(from); at <= Date.parse(to); at += DAY_MS) {
      const date = utcDate(at);
      const row = byDate.get(date) ?? { impressions: 0, saves: 0, pin_clicks: 0, outbound_clicks: 0 };
      for (const key of ["impressions", "saves", "pin_clicks", "outbound_clicks"] as const) sum[key] += Number(row[key]);
      daily.push({ date, ...metricsOf(row) });
    }
    return { totals: metricsOf(sum), daily };
  }

  /** A page of the window's pins in the order asked (highest first; newest first for postedAt), after the cursor. */
  pins(
    days: Window,
    sortBy: AnalyticsSort,
    limit: number,
    cursor: string | null,
  ): { pins: AnalyticsPin[]; total: number; nextCursor: string | null } | { error: string } {
    const column = SORT_COLUMNS[sortBy];
    let after: [number, string] | null = null;
    if (cursor) {
      const match = /^(-?[0-9.]+):([A-Za-z0-9_-]+)$/.exec(cursor);
      if (!match) return { error: "cursor is not one this list gave" };
      after = [Number(match[1]), match[2]];
    }
    const rows = this.sql
      .exec<MetricColumns & AnalyticsPinRow & { sort_value: number }>(
        `SELECT t.impressions, t.saves, t.pin_clicks, t.outbound_clicks, t.${column} AS sort_value, p.*
         FROM analytics_pin_totals t INDEXED BY analytics_pin_totals_by_${column} JOIN analytics_pins p ON p.pin_id = t.pin_id
         WHERE t.gen = ? AND t.days = ? ${after ? `AND (t.${column}, t.pin_id) < (?, ?)` : ""}
         ORDER BY t.${column} DESC, t.pin_id DESC LIMIT ?`,
        ...(after ? [this.generation(), days, after[0], after[1], limit + 1] : [this.generation(), days, limit + 1]),
      )
      .toArray();
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      pins: page.map(analyticsPinOf),
      total: this.window(days).pins,
      nextCursor: rows.length > limit && last ? `${last.sort_value}:${last.pin_id}` : null,
    };
  }

  /** Pins and engagement by weekday and hour of posting (the profile's zone), over 90 days: best times' input. */
  audience(): AudienceCell[] {
    return this.sql
      .exec<{ weekday: number; hour: number; pins: number; impressions: number; engagements: number }>(
        `SELECT * FROM analytics_hours WHERE gen = ?`,
        this.generation(),
      )
      .toArray()
      .map((row) => ({ weekday: row.weekday, hour: row.hour, pins: row.pins, impressions: row.impressions, engagements: row.engagements }));
  }

  /** Per template family over 90 days (the user's families sum these across profiles). */
  families(): { family: string; pins: number; impressions: number; engagements: number }[] {
    return this.sql
      .exec<MetricColumns & { key: string; pins: number }>(
        `SELECT * FROM analytics_breakdowns WHERE gen = ? AND days = 90 AND dimension = 'templateFamily' AND key != ''`,
        this.generation(),
      )
      .toArray()
      .map((row) => ({ family: row.key, pins: row.pins, impressions: row.impressions, engagements: row.saves + row.pin_clicks + row.outbound_clicks }));
  }

  /** Every pin with its 90-day figures, for the CSV export (at most 10,000 rows a profile: the queue's posted pins). */
  exportRows(days: Window): (AnalyticsPin & { hour: number })[] {
    return this.sql
      .exec<MetricColumns & AnalyticsPinRow>(
        `SELECT t.impressions, t.saves, t.pin_clicks, t.outbound_clicks, p.* FROM analytics_pin_totals t JOIN analytics_pins p ON p.pin_id = t.pin_id
         WHERE t.gen = ? AND t.days = ? ORDER BY p.posted_at DESC, p.pin_id`,
        this.generation(),
        days,
      )
      .toArray()
      .map((row) => ({
        ...analyticsPinOf(row),
        hour: row.hour,
      }));
  }
}

function breakdownLabel(dimension: Breakdown, key: string, label: string): string {
  if (dimension === "board") return label || "Board";
  if (dimension === "template") return key ? label || "Template" : "No template";
  if (dimension === "templateFamily") return key ? (TEMPLATE_FAMILY_LABELS[key as keyof typeof TEMPLATE_FAMILY_LABELS] ?? key) : "No template family";
  if (dimension === "source") return PIN_SOURCE_LABELS[key as PinSource] ?? key;
  return hourLabel(Number(key));
}

/** A Pinterest failure the sync handles itself (withPinterest passes anything that is not a PinterestApiError through). */
class SyncFailure extends Error {
  override readonly cause: PinterestApiError;
  constructor(cause: PinterestApiError) {
    super(cause.message);
    this.name = "SyncFailure";
    this.cause = cause;
  }
}
