import { and, desc, eq, gte, lt, or } from "drizzle-orm";
import type { PinDetails } from "../../contracts/credits.ts";
import { pinterestPinUrl, PIN_HISTORY_PAGE_SIZE, type PinHistoryItem, type PinHistoryState } from "../../contracts/scheduling-api.ts";
import type { PinHistoryState as QueueState } from "../../durable-objects/profile-scheduler.ts";
import { publicPinPath } from "../../contracts/public-pins.ts";
import { database } from "../db/client.ts";
import { pinHistory } from "../db/schema.ts";
import type { Env } from "../env.ts";
import type { User } from "./accounts.ts";
import { addPinHistory } from "./credits.ts";
import { profilesQuery, schedulingSettingsOf } from "./pinterest-connection.ts";
import { schedulerFor } from "./scheduler-index.ts";

/**
 * The pin history (spec section 2, /pin-history; docs/decisions/024): one
 * entry per pin. A scheduled pin's entry is written when its credit is charged
 * (with the time it was placed at) and completed when its queue posts it;
 * until then its queue, the ProfileScheduler, says where it stands.
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
  pin: { id: string; scheduledFor: number; postedAt: number; pinterestPinId: string | null; details: PinDetails },
): Promise<void> {
  const updated = await env.DB.prepare(`UPDATE pin_history SET posted_at = ?1, pinterest_pin_id = ?2, scheduled_for = ?3, pin_id = ?4 WHERE user_id = ?5 AND reference = ?6`)
    .bind(pin.postedAt, pin.pinterestPinId, pin.scheduledFor, pin.id, userId, `scheduled:${pin.id}`)
    .run();
  if (updated.meta.changes > 0) return;
  await addPinHistory(
    env,
    userId,
    { ...pin.details, action: "pinned" },
    { category: pin.details.mediaType, amount: 0, reason: "Posted to Pinterest", reference: `pinned:${pin.id}` },
    { pin: { id: pin.id, scheduledFor: pin.scheduledFor, postedAt: pin.postedAt } },
  );
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
  const db = database(env.DB);
  // The page and the caller's profiles in one round trip.
  const [rows, profileRows] = await db.batch([
    db
      .select()
      .from(pinHistory)
      .where(and(eq(pinHistory.userId, user.id), cursor))
      .orderBy(desc(pinHistory.createdAt), desc(pinHistory.id))
      .limit(PIN_HISTORY_PAGE_SIZE),
    profilesQuery(env, user.id),
  ]);
  const profiles = new Map(profileRows.map((profile) => [profile.username, profile]));
  const queueStates = await statesInQueues(env, rows, (username) => profiles.get(username)?.id ?? null);
  return rows.map((row) => {
    const profile = row.pinterestProfile ? profiles.get(row.pinterestProfile) : undefined;
    return historyItem(row, queueStates.get(row.id) ?? null, profile !== undefined, profile ? schedulingSettingsOf(profile).timezone.value : null, user.handle);
  });
}

/** Asks each profile's queue, once per page, where its pins not known to be posted stand. */
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

/** One entry as the page shows it: its state from what is recorded, else from its queue. */
function historyItem(row: HistoryRow, queued: QueueState | null, profileConnected: boolean, timeZone: string | null, handle: string): PinHistoryItem {
  let state: PinHistoryState;
  let scheduledFor = row.scheduledFor;
  let postedAt = row.postedAt;
  let pinterestPinId = row.pinterestPinId;
  let error: string | null = null;
  if (row.action === "downloaded") state = "downloaded";
  else if (postedAt !== null || row.action === "pinned") state = "posted";
  else if (queued) {
    state = queued.status;
    if (queued.status !== "deleted") {
      scheduledFor = queued.scheduledTime;
      postedAt = queued.postedAt;
      pinterestPinId = queued.pinterestPinId ?? pinterestPinId;
    }
    if (queued.status === "failed" || queued.status === "paused") error = queued.error;
  } else if (row.pinId && !profileConnected) {
    // Disconnecting a profile clears its queue.
    state = "deleted";
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
