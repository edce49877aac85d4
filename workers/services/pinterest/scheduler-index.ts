import { and, isNotNull, lte, sql } from "drizzle-orm";
import { database } from "../../db/client.ts";
import { schedulerIndex } from "../../db/schema.ts";
import type { Env } from "../../env.ts";

/** An alarm this late (or missing) is considered stalled and gets re-armed by the cron sweep. */
export const STALLED_AFTER_MS = 2 * 60 * 1000;

/** Records, for the cron sweep, when a profile's scheduler is next due and how much is pending. */
export async function recordSchedulerState(d1: D1Database, profileKey: string, nextDueAt: number | null, pendingCount: number) {
  const now = Date.now();
  await database(d1)
    .insert(schedulerIndex)
    .values({ profileKey, nextDueAt, pendingCount, updatedAt: now })
    .onConflictDoUpdate({
      target: schedulerIndex.profileKey,
      set: { nextDueAt, pendingCount, updatedAt: now },
    });
}

/** The scheduler of one profile. */
export function schedulerFor(env: Pick<Env, "PROFILE_SCHEDULER">, profileKey: string) {
  return env.PROFILE_SCHEDULER.get(env.PROFILE_SCHEDULER.idFromName(profileKey));
}

/**
 * The cron sweep: every scheduler whose next item is overdue by more than
 * STALLED_AFTER_MS is asked to re-arm its alarm (alarms can be lost when a
 * deploy or an outage interrupts them). Answers the profile keys it re-armed.
 */
export async function sweepStalledSchedulers(env: Pick<Env, "DB" | "PROFILE_SCHEDULER">, now = Date.now()) {
  const stalled = await database(env.DB)
    .select({ profileKey: schedulerIndex.profileKey })
    .from(schedulerIndex)
    .where(and(isNotNull(schedulerIndex.nextDueAt), lte(schedulerIndex.nextDueAt, now - STALLED_AFTER_MS)))
    .orderBy(sql`${schedulerIndex.nextDueAt}`)
    .limit(500);
  const rearmed: string[] = [];
  for (const { profileKey } of stalled) {
    await schedulerFor(env, profileKey).rearm();
    rearmed.push(profileKey);
  }
  return rearmed;
}
