import { and, desc, eq, gte, lt, or } from "drizzle-orm";
import type { PinDetails } from "../../../contracts/billing/credits.ts";
import { archiveFileName, archiveKey, archivePrefix, type PinHistoryArchives } from "../../../contracts/pinterest/history-archives.ts";
import { pinterestPinUrl, PIN_HISTORY_PAGE_SIZE, type PinHistoryItem, type PinHistoryState } from "../../../contracts/pinterest/scheduling-api.ts";
import type { PinHistoryState as QueueState } from "../../../durable-objects/profile-scheduler.ts";
import { publicPinPath } from "../../../contracts/pinterest/public-pins.ts";
import { ledgerOf, type Ledger, type LedgerStatement } from "../../ledger/client.ts";
import { pinHistory } from "../../db/schema.ts";
import type { Env } from "../../env.ts";
import { mediaKeyOf } from "../../media/store.ts";
import type { User } from "../accounts/accounts.ts";
import { addPinHistory } from "../billing/credits.ts";
import { ServiceError } from "../core/errors.ts";
import { isRenderKey } from "../content/pin-renders.ts";
import { profilesQuery, schedulingSettingsOf } from "./pinterest-connection.ts";
import { schedulerFor } from "./scheduler-index.ts";

/**
 * The pin history (spec section 2, /pin-history; docs/decisions/024): one
 * entry per pin. A scheduled pin's entry is written when its credit is charged
 * (with the time it was placed at) and completed when its queue posts it;
 * until then its queue, the ProfileScheduler, writes every change of where it
 * stands into the entry (queueStatesStatement; decision 066), so a page is read
 * from D1 alone. Only entries written before that are asked of their queue.
 */

type HistoryRow = typeof pinHistory.$inferSelect;

/**
 * Records that the queue posted a pin: its entry (written when it was
 * scheduled) gets the posting time and Pinterest's id. A pin without such an
 * entry gets one of its own (no credits). Idempotent.
 */
export async function recordPinPosted(
  env: Env,
  userId: string,
  pin: {
    id: string;
    scheduledFor: number;
    postedAt: number;
    pinterestPinId: string | null;
    /** Pinterest's copy of the image (the history shows it once our render is deleted, decision 084). */
    pinterestImageUrl?: string | null;
    /** A repeating pin's occurrence: its render is posted again later, so it is not deleted 30 days after this posting. */
    repeating?: boolean;
    details: PinDetails;
  },
): Promise<void> {
  const ledger = ledgerOf(env, userId);
  const statements = [
    ledger
      .prepare(
        `UPDATE pin_history SET posted_at = ?1, pinterest_pin_id = ?2, scheduled_for = ?3, pin_id = ?4, pinterest_image_url = coalesce(?7, pinterest_image_url)
         WHERE user_id = ?5 AND reference = ?6`,
      )
      .bind(pin.postedAt, pin.pinterestPinId, pin.scheduledFor, pin.id, userId, `scheduled:${pin.id}`, pin.pinterestImageUrl ?? null),
  ];
  // The render it was posted with is kept 30 days from now (ledger/retention.ts), or as long as a repeating pin uses it.
  const render = mediaKeyOf(env.APP_URL, pin.details.imageUrl);
  if (render && isRenderKey(render)) {
    statements.push(
      ledger
        .prepare(
          `UPDATE pin_renders SET posted_at = CASE WHEN ?3 = 1 OR keep = 1 THEN NULL ELSE max(coalesce(posted_at, 0), ?2) END, keep = max(keep, ?3), pin_id = ?4
           WHERE media_key = ?1`,
        )
        .bind(render, pin.postedAt, pin.repeating ? 1 : 0, pin.id),
    );
  }
  const [updated] = await ledger.batch(statements);
  if (updated.meta.changes > 0) return;
  await addPinHistory(
    env,
    userId,
    { ...pin.details, action: "pinned" },
    { category: pin.details.mediaType, amount: 0, reason: "Posted to Pinterest", reference: `pinned:${pin.id}` },
    { pin: { id: pin.id, scheduledFor: pin.scheduledFor, postedAt: pin.postedAt } },
  );
  if (pin.pinterestImageUrl) {
    await ledger
      .prepare(`UPDATE pin_history SET pinterest_image_url = ?1 WHERE user_id = ?2 AND reference = ?3`)
      .bind(pin.pinterestImageUrl, userId, `pinned:${pin.id}`)
      .run();
  }
}

/** Where a waiting pin stands, as its queue mirrors it into its history entry: state, scheduled time (ms), error. */
export type MirroredQueueState = [state: NonNullable<HistoryRow["queueState"]>, scheduledTime: number | null, error: string | null];

/**
 * Writes the states of a queue's pins into their history entries (ProfileScheduler, history-mirror.ts), one
 * statement for up to a few hundred pins: the states travel as one JSON object keyed by pin id (pin ids are
 * [A-Za-z0-9_-], PinId), and each entry is found by the (user_id, pin_id) index. The ledger is the profile's
 * owner's (the mirror writes nothing for a profile no longer connected: removeProfile marked its entries).
 * A posted entry is left as it is.
 */
export function queueStatesStatement(ledger: Ledger, states: Record<string, MirroredQueueState>): LedgerStatement {
  const part = (index: number) => `json_extract(?2, '$."' || pin_id || '"[${index}]')`;
  return ledger
    .prepare(
      `UPDATE pin_history SET queue_state = ${part(0)}, scheduled_for = COALESCE(${part(1)}, scheduled_for), queue_error = ${part(2)}
       WHERE user_id = ?1 AND pin_id IN (SELECT key FROM json_each(?2)) AND action = 'scheduled' AND posted_at IS NULL`,
    )
    .bind(ledger.userId, JSON.stringify(states));
}

/** A page of the caller's pin history, newest first: older than startAtDate (ties broken by id after lastId). */
export async function pinHistoryPage(env: Env, user: User, options: { startAtDate?: number | null; lastId?: string }): Promise<PinHistoryItem[]> {
  // created_at is stored with sub-millisecond noise (unixepoch('subsec') * 1000): compare whole milliseconds.
  const start = options.startAtDate ?? null;
  const cursor =
    start === null
      ? undefined
      : options.lastId
        ? and(
            // Implied by the OR below, but a bound SQLite can seek to: without it a page deep in a long history walks the index
            // from the newest entry (bench/growth.ts; docs/scale.md).
            lt(pinHistory.createdAt, start + 0.5),
            or(lt(pinHistory.createdAt, start - 0.5), and(gte(pinHistory.createdAt, start - 0.5), lt(pinHistory.id, options.lastId))),
          )
        : lt(pinHistory.createdAt, start - 0.5);
  // The page (from the user's ledger) and the caller's profiles (from D1) at once.
  const [rows, profileRows] = await Promise.all([
    ledgerOf(env, user.id)
      .db.select()
      .from(pinHistory)
      .where(and(eq(pinHistory.userId, user.id), cursor))
      .orderBy(desc(pinHistory.createdAt), desc(pinHistory.id))
      .limit(PIN_HISTORY_PAGE_SIZE),
    profilesQuery(env, user.id),
  ]);
  const profiles = new Map(profileRows.map((profile) => [profile.username, profile]));
  // Only entries written before the queues mirrored their pins are asked of their queue.
  const queueStates = await statesInQueues(
    env,
    rows.filter((row) => row.queueState === null),
    (username) => profiles.get(username)?.id ?? null,
  );
  // Each profile's settings read once a page, not once an entry.
  const zones = new Map<string, string>();
  const zoneOf = (username: string) => {
    let zone = zones.get(username);
    if (zone === undefined) zones.set(username, (zone = schedulingSettingsOf(profiles.get(username)!).timezone.value));
    return zone;
  };
  return rows.map((row) => {
    const connected = row.pinterestProfile !== null && profiles.has(row.pinterestProfile);
    return historyItem(row, queueStates.get(row.id) ?? null, connected, connected ? zoneOf(row.pinterestProfile!) : null, user.handle);
  });
}

/** Asks each profile's queue, once per page, where these pins not known to be posted stand (entries it has not mirrored). */
async function statesInQueues(env: Env, rows: HistoryRow[], profileIdOf: (username: string) => string | null): Promise<Map<string, QueueState>> {
  const byProfile = new Map<string, HistoryRow[]>();
  for (const row of rows) {
    if (!row.pinId || row.postedAt !== null || row.action !== "scheduled" || !row.pinterestProfile) continue;
    const profileId = profileIdOf(row.pinterestProfile);
    if (!profileId) continue;
    byProfile.set(profileId, [...(byProfile.get(profileId) ?? []), row]);
  }
  const states = new Map<string, QueueState>();
  await Promise.all(
    [...byProfile].map(async ([profileId, pinned]) => {
      const answer = await schedulerFor(env, profileId).historyStates(pinned.map((row) => row.pinId as string));
      for (const row of pinned) states.set(row.id, answer[row.pinId as string]);
    }),
  );
  return states;
}

/** One entry as the page shows it: its state from what is recorded (its queue's mirror included), else from its queue. */
function historyItem(row: HistoryRow, queued: QueueState | null, profileConnected: boolean, timeZone: string | null, handle: string): PinHistoryItem {
  let state: PinHistoryState;
  let scheduledFor = row.scheduledFor;
  let postedAt = row.postedAt;
  let pinterestPinId = row.pinterestPinId;
  let error: string | null = null;
  if (row.action === "downloaded") state = "downloaded";
  else if (postedAt !== null || row.action === "pinned") state = "posted";
  else if (row.pinId && !profileConnected) {
    // Disconnecting a profile clears its queue.
    state = "deleted";
  } else if (row.queueState !== null) {
    state = row.queueState;
    if (state === "failed" || state === "paused") error = row.queueError;
  } else if (queued) {
    state = queued.status;
    if (queued.status !== "deleted") {
      scheduledFor = queued.scheduledTime;
      postedAt = queued.postedAt;
      pinterestPinId = queued.pinterestPinId ?? pinterestPinId;
    }
    if (queued.status === "failed" || queued.status === "paused") error = queued.error;
  } else state = "scheduled";
  const createdAt = Math.round(row.createdAt);
  return {
    id: row.id,
    action: row.action,
    state,
    pinId: row.pinId,
    scheduledFor: scheduledFor === null ? null : new Date(scheduledFor).toISOString(),
    scheduledForUTCTimestamp: scheduledFor,
    postedAt: postedAt === null ? null : new Date(postedAt).toISOString(),
    postedAtUTCTimestamp: postedAt,
    error,
    timeZone,
    category: row.category,
    credits: row.credits,
    title: row.title,
    description: row.description,
    url: row.url,
    imageUrl: row.imageUrl,
    mediaType: row.mediaType,
    boardId: row.boardId,
    boardName: row.boardName,
    pinterestProfile: row.pinterestProfile,
    pinterestPinId,
    pinterestUrl: pinterestPinUrl(pinterestPinId),
    createdAt: new Date(createdAt).toISOString(),
    createdAtUTCTimestamp: createdAt,
    publicUrl: row.publicAt === null ? null : publicPinPath(handle, row.id),
  };
}

/** The caller's archived months (R2, under their own prefix), newest first. */
export async function historyArchives(env: Env, user: User): Promise<PinHistoryArchives> {
  const archives: PinHistoryArchives["archives"] = [];
  let cursor: string | undefined;
  do {
    const listing = await env.MEDIA.list({ prefix: archivePrefix(user.id), cursor, include: ["customMetadata"] });
    for (const object of listing.objects) {
      const month = object.key.slice(archivePrefix(user.id).length, -".ndjson.gz".length);
      archives.push({ month, entries: Number(object.customMetadata?.entries ?? 0), bytes: object.size });
    }
    cursor = listing.truncated ? listing.cursor : undefined;
  } while (cursor);
  return { archives: archives.sort((a, b) => (a.month < b.month ? 1 : -1)) };
}

export const NO_SUCH_ARCHIVE = "There is no archive of your pin history for that month.";

/** One archived month of the caller's history, as a download. */
export async function historyArchive(env: Env, user: User, month: string): Promise<Response> {
  const object = await env.MEDIA.get(archiveKey(user.id, month));
  if (!object) throw new ServiceError(404, NO_SUCH_ARCHIVE, "month");
  return new Response(object.body, {
    headers: {
      "content-type": "application/gzip",
      "content-disposition": `attachment; filename="${archiveFileName(month)}"`,
      "content-length": String(object.size),
      "cache-control": "private, no-store",
    },
  });
}
