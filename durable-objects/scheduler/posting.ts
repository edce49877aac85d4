import type { PinterestPin, PinterestPinCreate } from "../../contracts/pinterest/pinterest.ts";
import type { PinContent } from "../../contracts/pinterest/scheduling-api.ts";
import type { SchedulingSettings } from "../../contracts/pinterest/scheduling.ts";
import {
  matchesSentPin,
  MAX_MEDIA_WAITS,
  MEDIA_WAIT_MS,
  pageReachesBefore,
  pinFailureOutcome,
  pinHistoryDetails,
  uncertainFailure,
  type SentPin,
} from "../../workers/domain/pin-queue.ts";
import type { Env } from "../../workers/env.ts";
import { PINTEREST_TIMEOUT_MS, PinterestApiError, type PinterestClient } from "../../workers/integrations/pinterest.ts";
import { ServiceError } from "../../workers/services/core/errors.ts";
import { recordPinPosted } from "../../workers/services/pinterest/pin-history.ts";
import { schedulingSettingsOf, withPinterest, type PinterestProfile } from "../../workers/services/pinterest/pinterest-connection.ts";
import { pauseReason, type PinRow, type QueueStore } from "./queue-store.ts";

/**
 * The posting engine: posts due pins exactly once (docs/decisions/012-scheduling-engine.md).
 *
 * - a pin is marked `posting` with a fresh attempt id before the call to
 *   Pinterest (the output gate holds the call until that write is durable);
 * - success records Pinterest's pin id, then the pin history row in D1;
 * - when the outcome is unknown (no answer, a 5xx, a crash mid-way) the next
 *   attempt first looks for the pin on its board and records it if found, and
 *   it comes only once a create still under way at Pinterest has landed
 *   (`lateCreateMs`, decision 085): a look before that would miss it;
 * - 429 holds the whole profile until Pinterest's reset time; 5xx back off;
 *   401 refreshes the token once (withPinterest); a profile that needs
 *   reconnecting or is blocked pauses its pins with the reason; a pin Pinterest
 *   refuses, or that keeps failing, ends `failed` with the reason.
 */

/** Pins posted in one alarm run at most, and for how long it runs, before it hands over to a fresh run. */
const RUN_MAX_PINS = 100;
const RUN_BUDGET_MS = 30_000;
/** Alarm lateness a Queue pin's pacing forgives (slots are exactly one interval apart). */
const PACING_TOLERANCE_MS = 60_000;
/** Board pages read when looking for a pin whose answer was lost (newest first). */
const BOARD_CHECK_PAGES = 4;
const BOARD_CHECK_PAGE_SIZE = 50;
/** How long after our call ended a create Pinterest received may still land (decision 085), unless configured. */
export const LATE_CREATE_MS = 120_000;

/** PINTEREST_LATE_CREATE_SECONDS, else LATE_CREATE_MS: no look on the board for an uncertain create comes sooner. */
export function lateCreateMs(env: Pick<Env, "PINTEREST_LATE_CREATE_SECONDS">): number {
  const seconds = Number(env.PINTEREST_LATE_CREATE_SECONDS);
  return env.PINTEREST_LATE_CREATE_SECONDS !== undefined && env.PINTEREST_LATE_CREATE_SECONDS !== "" && Number.isFinite(seconds) && seconds >= 0
    ? seconds * 1000
    : LATE_CREATE_MS;
}

export class PostingEngine {
  /** Attempts this instance has under way; a `posting` row not in here was cut short (the object restarted). */
  private readonly inFlight = new Set<string>();
  private readonly env: Env;
  private readonly store: QueueStore;

  constructor(env: Env, store: QueueStore) {
    this.env = env;
    this.store = store;
  }

  /** Whether this instance is posting with this attempt id right now (else a `posting` row with it was cut short). */
  isUnderWay(attemptId: string | null): boolean {
    return Boolean(attemptId) && this.inFlight.has(attemptId as string);
  }

  /** Posts due pins one after another until none is due, the profile is held or paused, or the run's budget is spent. */
  async drain(profile: PinterestProfile) {
    const started = Date.now();
    const settings = schedulingSettingsOf(profile);
    this.store.setMeta("posting_interval_ms", String(settings.postingIntervalInSeconds * 1000));
    for (let posted = 0; posted < RUN_MAX_PINS && Date.now() - started < RUN_BUDGET_MS; posted += 1) {
      const now = Date.now();
      if (this.store.holdUntil() > now) return;
      const pin = this.nextDuePin(now, settings);
      if (!pin) return;
      const outcome = await this.attempt(pin, profile);
      if (outcome === "paused") return;
    }
  }

  private nextDuePin(now: number, settings: SchedulingSettings): PinRow | null {
    const queueMayPost = now >= pacedAfter(Number(this.store.meta("last_queue_post_at") ?? 0), settings.postingIntervalInSeconds * 1000) ? 1 : 0;
    return (
      this.store.sql
        .exec<PinRow>(
          `SELECT * FROM pins WHERE status = 'scheduled' AND next_attempt_at <= ? AND (type = 'SpecificDate' OR ? = 1)
           ORDER BY next_attempt_at, scheduled_time, id LIMIT 1`,
          now,
          queueMayPost,
        )
        .toArray()[0] ?? null
    );
  }

  /** One try at posting one pin. */
  private async attempt(pin: PinRow, profile: PinterestProfile): Promise<"posted" | "retry" | "failed" | "paused" | "skipped"> {
    const attemptId = crypto.randomUUID();
    const startedAt = Date.now();
    const claimed = this.store.sql.exec(
      // The final look sends nothing: it is no attempt.
      `UPDATE pins SET status = 'posting', attempt_id = ?, attempt_started_at = ?, attempts = attempts + 1 - final_look, updated_at = ? WHERE id = ? AND status = 'scheduled'`,
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
    if (pin.final_look === 1) {
      try {
        return await this.finalLook(pin, attemptId, profile, content, sent);
      } finally {
        this.inFlight.delete(attemptId);
      }
    }
    try {
      let pinterestImage: string | null = null;
      const pinterestPinId = await withPinterest(this.env, profile, async (client, token) => {
        try {
          if (pin.check_since !== null) {
            const found = await this.findOnBoard(client, token, content.boardId, sent, pin.check_since, pin.id);
            if (found) return found;
          }
          if (content.mediaType === "video") await ensureVideoReady(client, token, content.media_id ?? "");
          const created = await client.createPin(token, request);
          pinterestImage = pinterestImageOf(created);
          return created.id;
        } catch (error) {
          // Only 401 and the blocked 403 are withPinterest's to handle; the rest is the engine's.
          if (error instanceof PinterestApiError && error.kind !== "unauthorized" && !error.blocked) throw new PostingFailure(error);
          throw error;
        }
      });
      this.recordPosted(pin, attemptId, pinterestPinId, content, pinterestImage);
      await this.writeHistory(pin.id, profile.username);
      return "posted";
    } catch (error) {
      return await this.recordFailure(pin, attemptId, startedAt, error);
    } finally {
      this.inFlight.delete(attemptId);
    }
  }

  private recordPosted(pin: PinRow, attemptId: string, pinterestPinId: string, content: PinContent, pinterestImage: string | null) {
    const now = Date.now();
    const written = this.store.sql.exec(
      `UPDATE pins SET status = 'posted', pinterest_pin_id = ?, pinterest_image_url = ?, posted_at = ?, last_error = NULL, check_since = NULL, attempt_id = NULL,
              history_pending = 1, updated_at = ?
       WHERE id = ? AND attempt_id = ?`,
      pinterestPinId,
      pinterestImage,
      now,
      now,
      pin.id,
      attemptId,
    ).rowsWritten;
    if (written === 0) {
      // The queue was cleared while the pin was on its way: it is on Pinterest all the same.
      console.warn(`ProfileScheduler: pin ${pin.id} was posted as ${pinterestPinId} after it left the queue (${content.title})`);
    }
    if (pin.type === "Queue") this.store.setMeta("last_queue_post_at", String(now));
  }

  private async recordFailure(pin: PinRow, attemptId: string, startedAt: number, error: unknown): Promise<"posted" | "retry" | "failed" | "paused"> {
    const sql = this.store.sql;
    const now = Date.now();
    if (error instanceof ServiceError && (error.status === 401 || error.status === 423)) {
      // withPinterest marked the profile: nothing was created (401 and 403 come before the pin exists).
      const reason = pauseReason(error.status === 423 ? "blocked" : "reauth", null);
      sql.exec(
        `UPDATE pins SET status = 'paused', attempt_id = NULL, last_error = ?, updated_at = ? WHERE id = ? AND attempt_id = ?`,
        reason,
        now,
        pin.id,
        attemptId,
      );
      this.store.pauseAll(reason);
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
      // The look waits until that attempt, if Pinterest is still making it, has landed.
      sql.exec(
        `UPDATE pins SET status = 'scheduled', attempt_id = NULL, final_look = 1, next_attempt_at = ?, last_error = ?, failures = failures + 1,
           check_since = MIN(COALESCE(check_since, ?), ?), updated_at = ?
         WHERE id = ? AND attempt_id = ?`,
        now + lateCreateMs(this.env),
        outcome.reason,
        startedAt,
        startedAt,
        now,
        pin.id,
        attemptId,
      );
      return "retry";
    }
    if (outcome.action === "fail") {
      sql.exec(
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
      this.store.setMeta("hold_until", String(Math.max(until, this.store.holdUntil())));
      sql.exec(
        `UPDATE pins SET status = 'scheduled', attempt_id = NULL, next_attempt_at = ?, last_error = ?, updated_at = ? WHERE id = ? AND attempt_id = ?`,
        until,
        outcome.reason,
        now,
        pin.id,
        attemptId,
      );
      return "retry";
    }
    sql.exec(
      `UPDATE pins SET status = 'scheduled', attempt_id = NULL, next_attempt_at = ?, last_error = ?, failures = failures + ?,
         check_since = CASE WHEN ? = 1 THEN COALESCE(check_since, ?) ELSE check_since END, updated_at = ?
       WHERE id = ? AND attempt_id = ?`,
      // A create that may still be under way at Pinterest gets time to land before the look that would find it.
      now + (outcome.check ? Math.max(outcome.delayMs, lateCreateMs(this.env)) : outcome.delayMs),
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

  /**
   * The turn of a pin given up after attempts that may have created it: one look on its board. Found: posted.
   * Not found: failed with the reason it was given up for (and a warning when the board could not be read).
   */
  private async finalLook(pin: PinRow, attemptId: string, profile: PinterestProfile, content: PinContent, sent: SentPin): Promise<"posted" | "failed"> {
    const look = await this.lastLook(profile, content.boardId, sent, pin.check_since ?? pin.attempt_started_at ?? pin.created_at, pin.id);
    if (look.found) {
      this.recordPosted(pin, attemptId, look.found, content, null);
      await this.writeHistory(pin.id, profile.username);
      return "posted";
    }
    let reason = pin.last_error ?? `Pinterest did not confirm the pin (gave up after ${pin.failures} attempts)`;
    if (look.failed) reason = `${reason}. It may be on Pinterest all the same: look at the board before scheduling it again.`;
    this.store.sql.exec(
      `UPDATE pins SET status = 'failed', attempt_id = NULL, final_look = 0, last_error = ?, updated_at = ? WHERE id = ? AND attempt_id = ?`,
      reason,
      Date.now(),
      pin.id,
      attemptId,
    );
    return "failed";
  }

  /** One look on the board for a pin about to be given up, whose last attempts may have created it. */
  private async lastLook(
    profile: PinterestProfile,
    boardId: string,
    sent: SentPin,
    sinceMs: number,
    pinId: string,
  ): Promise<{ found: string | null; failed: boolean }> {
    try {
      return {
        found: await withPinterest(this.env, profile, (client, token) => this.findOnBoard(client, token, boardId, sent, sinceMs, pinId)),
        failed: false,
      };
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
      this.store.sql
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

  /**
   * `posting` rows this instance did not start: the object restarted mid-way. Their outcome is unknown: the next
   * attempt looks on the board, once a create sent by the cut-short attempt (at most its time limit long) has landed.
   */
  recoverCutShortAttempts() {
    const rows = this.store.sql
      .exec<{ id: string; attempt_id: string | null; attempt_started_at: number | null }>(
        `SELECT id, attempt_id, attempt_started_at FROM pins WHERE status = 'posting'`,
      )
      .toArray();
    for (const row of rows) {
      if (this.isUnderWay(row.attempt_id)) continue;
      const now = Date.now();
      const landed = (row.attempt_started_at ?? now) + PINTEREST_TIMEOUT_MS + lateCreateMs(this.env);
      this.store.sql.exec(
        `UPDATE pins SET status = 'scheduled', attempt_id = NULL, check_since = COALESCE(check_since, attempt_started_at), next_attempt_at = ?, updated_at = ? WHERE id = ? AND status = 'posting'`,
        Math.max(now, landed),
        now,
        row.id,
      );
    }
  }

  /** Records the posting of a pin in its pin history entry (idempotent; retried later if D1 fails). */
  private async writeHistory(pinId: string, username: string) {
    const row = this.store.sql.exec<PinRow>(`SELECT * FROM pins WHERE id = ? AND history_pending = 1`, pinId).toArray()[0];
    if (!row) return;
    const content = JSON.parse(row.data) as PinContent;
    try {
      await recordPinPosted(this.env, row.user_id, {
        id: row.id,
        scheduledFor: row.scheduled_time,
        postedAt: row.posted_at ?? Date.now(),
        pinterestPinId: row.pinterest_pin_id,
        pinterestImageUrl: row.pinterest_image_url,
        repeating: row.repeating_pin_id !== null,
        details: pinHistoryDetails({ ...content, pinterestProfileUsername: username }, "pinned", row.pinterest_pin_id),
      });
    } catch (error) {
      if (!(error instanceof ServiceError)) {
        console.warn(`ProfileScheduler: pin history of ${pinId} not written yet:`, error instanceof Error ? error.message : error);
        return;
      }
      console.error(`ProfileScheduler: pin history of ${pinId} refused:`, error.message);
    }
    this.store.sql.exec(`UPDATE pins SET history_pending = 0 WHERE id = ?`, pinId);
  }

  /** Writes the pin history of pins posted whose history D1 did not take yet. */
  async writePendingHistory(username: string, limit: number) {
    const ids = this.store.sql.exec<{ id: string }>(`SELECT id FROM pins WHERE history_pending = 1 LIMIT ?`, limit).toArray();
    for (const { id } of ids) await this.writeHistory(id, username);
  }
}

/** When a Queue pin may post after the last one: Queue pins keep the profile's posting interval between them (catching up after an outage does not burst). */
export function pacedAfter(lastQueuePostAt: number, intervalMs: number): number {
  return lastQueuePostAt + intervalMs - Math.min(PACING_TOLERANCE_MS, intervalMs / 4);
}

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

/** What Pinterest receives for a pin (POST /v5/pins). */
/** Pinterest's own copy of a created pin's image (its largest), shown in the history once our render is deleted. */
export function pinterestImageOf(pin: PinterestPin): string | null {
  const images = pin.media?.images;
  return images?.["1200x"]?.url ?? images?.["600x"]?.url ?? images?.["400x300"]?.url ?? images?.["150x150"]?.url ?? null;
}

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
