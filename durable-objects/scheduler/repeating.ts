import { CREDIT_COSTS } from "../../contracts/billing/credits.ts";
import type { PinContent, RepeatingPin, RepeatingPinsPage } from "../../contracts/pinterest/scheduling-api.ts";
import { linkKey, pinHistoryDetails, QUEUE_PAGE_SIZE } from "../../workers/domain/pin-queue.ts";
import type { Env } from "../../workers/env.ts";
import { addPinHistory } from "../../workers/services/billing/credits.ts";
import { ServiceError } from "../../workers/services/core/errors.ts";
import { DAY_MS, toRepeatingView, type QueueStore, type RepeatingRow } from "./queue-store.ts";
import { changedContent, refusal, type Refusal, type RepeatingChanges } from "./requests.ts";

/**
 * Repeating pins: a pin scheduled with an interval leaves a repeating pin
 * behind (QueueStore.insertPin), which becomes a scheduled pin each time it is
 * due, its credit charged once per occurrence, and moves on by its interval.
 */
export class RepeatingPins {
  private readonly env: Env;
  private readonly store: QueueStore;

  constructor(env: Env, store: QueueStore) {
    this.env = env;
    this.store = store;
  }

  find(id: string): RepeatingPin | null {
    return this.store.repeatingView(id);
  }

  list(options: { lastPinId?: string; limit?: number }): RepeatingPinsPage | Refusal {
    const sql = this.store.sql;
    let where = "held = 0";
    const params: (string | number)[] = [];
    if (options.lastPinId) {
      const row = sql.exec<{ next_pin_date: number }>(`SELECT next_pin_date FROM repeating_pins WHERE id = ? AND held = 0`, options.lastPinId).toArray()[0];
      if (!row) return { ok: false, status: 400, message: "lastPinId is not a repeating pin of this profile", field: "lastPinId" };
      where += " AND (next_pin_date > ? OR (next_pin_date = ? AND id > ?))";
      params.push(row.next_pin_date, row.next_pin_date, options.lastPinId);
    }
    const limit = Math.min(Math.max(options.limit ?? QUEUE_PAGE_SIZE, 1), 500);
    const rows = sql.exec<RepeatingRow>(`SELECT * FROM repeating_pins WHERE ${where} ORDER BY next_pin_date, id LIMIT ?`, ...params, limit).toArray();
    const total = sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM repeating_pins WHERE held = 0`).one().n;
    return { repeatingPins: rows.map(toRepeatingView), totalCount: total };
  }

  /** Applies changes to repeating pins, all or none (one transaction's body: a refusal it throws rolls them all back). */
  change(changes: RepeatingChanges[], fieldPrefixes: string[], now: number) {
    changes.forEach((change, index) => {
      const prefix = fieldPrefixes[index] ?? "";
      const row = this.store.sql.exec<RepeatingRow>(`SELECT * FROM repeating_pins WHERE id = ? AND held = 0`, change.id).toArray()[0];
      if (!row) throw refusal(404, `No repeating pin with id ${change.id}`, `${prefix}id`);
      const content = changedContent(JSON.parse(row.data) as PinContent, change, prefix);
      if (change.nextPinDate !== undefined && change.nextPinDate <= now) throw refusal(400, "nextPinDate must be in the future", `${prefix}nextPinDate`);
      this.store.sql.exec(
        `UPDATE repeating_pins SET board_id = ?, data = ?, interval_days = ?, next_pin_date = ?, updated_at = ? WHERE id = ?`,
        content.boardId,
        JSON.stringify(content),
        change.intervalInDays ?? row.interval_days,
        change.nextPinDate ?? row.next_pin_date,
        now,
        row.id,
      );
    });
  }

  /** Deletes a repeating pin (the pins it already scheduled stay). Answers it as it was, or null when there is none. */
  delete(id: string): RepeatingPin | null {
    const pin = this.store.repeatingView(id);
    if (pin) this.store.sql.exec(`DELETE FROM repeating_pins WHERE id = ?`, id);
    return pin;
  }

  /** Each repeating pin that is due becomes a scheduled pin (its credit charged once by its id) and moves on by its interval. */
  async materialize() {
    const now = Date.now();
    const due = this.store.sql
      .exec<RepeatingRow>(`SELECT * FROM repeating_pins WHERE held = 0 AND next_pin_date <= ? ORDER BY next_pin_date LIMIT 20`, now)
      .toArray();
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
      this.store.transaction(() => {
        this.store.sql.exec(
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
        this.store.sql.exec(
          `UPDATE repeating_pins SET next_pin_date = ?, occurrences = occurrences + 1, updated_at = ? WHERE id = ? AND occurrences = ?`,
          next,
          now,
          rep.id,
          rep.occurrences,
        );
      });
    }
  }
}
