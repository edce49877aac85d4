import type { PinContent, ScheduledPin } from "../../contracts/pinterest/scheduling-api.ts";
import type { SchedulingSettings } from "../../contracts/pinterest/scheduling.ts";
import { duplicateKeyOf } from "../../workers/domain/pin-queue.ts";
import { moveToNextFreeSlots } from "./placement.ts";
import { toPinView, type PinRow, type QueueStore } from "./queue-store.ts";

/**
 * Post approvals (docs/decisions/052-post-approvals.md). A profile whose owner requires approval queues new
 * pins `awaiting`: the posting engine only ever posts `scheduled` pins, so an awaiting pin is never sent.
 * Approving makes it `scheduled` (or `paused` when the profile cannot post); a pin whose time passed while
 * it waited moves to the next free slot instead of posting late by surprise. Rejecting takes it out of the
 * queue for good; the rejection is remembered (`rejected_pins`) so a retried rejection answers the same
 * and the worker can finish returning its credit, once.
 */

export const NOT_AWAITING_MESSAGE = "This pin is no longer waiting for approval.";

export interface ReviewDecision {
  id: string;
  decision: "approve" | "reject";
}

/** What the worker needs to know of a reviewed pin to record the decision. */
export interface ReviewedPin {
  title: string;
  imageURL: string;
  mediaType: PinContent["mediaType"];
  scheduledTime: number;
}

export type ReviewOutcome =
  | { id: string; ok: true; decision: "approved"; pin: ReviewedPin; scheduledTime: number; moved: boolean }
  | { id: string; ok: true; decision: "rejected"; pin: ReviewedPin; again: boolean }
  | { id: string; ok: false; message: string };

export class ApprovalQueue {
  private readonly store: QueueStore;

  constructor(store: QueueStore) {
    this.store = store;
  }

  migrate() {
    this.store.sql.exec(
      `CREATE TABLE IF NOT EXISTS rejected_pins (id TEXT PRIMARY KEY, data TEXT NOT NULL, scheduled_time INTEGER NOT NULL, rejected_at INTEGER NOT NULL)`,
    );
  }

  /** The pins waiting for a reviewer, soonest first. */
  awaiting(limit = 500): ScheduledPin[] {
    return this.store.sql.exec<PinRow>(`SELECT * FROM pins WHERE status = 'awaiting' ORDER BY scheduled_time, id LIMIT ?`, limit).toArray().map(toPinView);
  }

  /**
   * Applies a reviewer's decisions, each on its own: a pin that is not waiting answers its refusal alone.
   * Approved pins whose time has passed move to the next free slots, in their order.
   */
  review(decisions: ReviewDecision[], settings: SchedulingSettings, pausedReason: string | null, now: number): ReviewOutcome[] {
    return this.store.transaction(() => {
      const late: { id: string; key: string | null }[] = [];
      const outcomes = decisions.map((decision): ReviewOutcome => {
        const row = this.store.sql.exec<PinRow>(`SELECT * FROM pins WHERE id = ?`, decision.id).toArray()[0];
        if (decision.decision === "reject") return this.reject(decision.id, row, now);
        if (row?.status !== "awaiting") return { id: decision.id, ok: false, message: NOT_AWAITING_MESSAGE };
        this.store.sql.exec(
          `UPDATE pins SET status = ?, last_error = ?, updated_at = ? WHERE id = ?`,
          pausedReason !== null ? "paused" : "scheduled",
          pausedReason,
          now,
          row.id,
        );
        if (row.scheduled_time <= now) late.push({ id: row.id, key: row.allow_duplicate === 1 ? null : duplicateKeyOf(row.board_id, row.link_key) });
        return { id: row.id, ok: true, decision: "approved", pin: reviewedPin(row.data, row.scheduled_time), scheduledTime: row.scheduled_time, moved: false };
      });
      const slots = moveToNextFreeSlots(this.store, late, settings, now);
      const movedTo = new Map(late.map(({ id }, i) => [id, slots[i]]));
      return outcomes.map((outcome) => {
        const slot = movedTo.get(outcome.id);
        return slot !== undefined && outcome.ok && outcome.decision === "approved" ? { ...outcome, scheduledTime: slot, moved: true } : outcome;
      });
    });
  }

  /** Approves every waiting pin (the owner turned approval off), with the same rule for late pins. Answers how many. */
  releaseAll(settings: SchedulingSettings, pausedReason: string | null, now: number): number {
    const ids = this.store.sql.exec<{ id: string }>(`SELECT id FROM pins WHERE status = 'awaiting' ORDER BY scheduled_time, id`).toArray();
    return this.review(
      ids.map(({ id }) => ({ id, decision: "approve" })),
      settings,
      pausedReason,
      now,
    ).filter((outcome) => outcome.ok).length;
  }

  private reject(id: string, row: PinRow | undefined, now: number): ReviewOutcome {
    if (row?.status !== "awaiting") {
      const rejected = this.store.sql
        .exec<{ data: string; scheduled_time: number }>(`SELECT data, scheduled_time FROM rejected_pins WHERE id = ?`, id)
        .toArray()[0];
      if (rejected) return { id, ok: true, decision: "rejected", pin: reviewedPin(rejected.data, rejected.scheduled_time), again: true };
      return { id, ok: false, message: NOT_AWAITING_MESSAGE };
    }
    this.store.sql.exec(`INSERT INTO rejected_pins (id, data, scheduled_time, rejected_at) VALUES (?, ?, ?, ?)`, id, row.data, row.scheduled_time, now);
    // Retired like a deleted pin: its id is never placed again.
    this.store.sql.exec(`INSERT OR IGNORE INTO retired_pins (id, retired_at) VALUES (?, ?)`, id, now);
    this.store.sql.exec(`DELETE FROM pins WHERE id = ?`, id);
    if (row.repeating_pin_id) this.store.sql.exec(`DELETE FROM repeating_pins WHERE id = ?`, row.repeating_pin_id);
    return { id, ok: true, decision: "rejected", pin: reviewedPin(row.data, row.scheduled_time), again: false };
  }
}

function reviewedPin(data: string, scheduledTime: number): ReviewedPin {
  const content = JSON.parse(data) as PinContent;
  return { title: content.title, imageURL: content.imageURL || content.mediaURL || content.videoThumbnail || "", mediaType: content.mediaType, scheduledTime };
}
