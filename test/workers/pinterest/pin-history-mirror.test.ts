import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { ProfileScheduler } from "../../../durable-objects/profile-scheduler.ts";
import type { HistoryMirror } from "../../../durable-objects/scheduler/history-mirror.ts";
import { signUpUser, type TestUser } from "../accounts/accounts-support.ts";
import { connectProfile, grantCredits, imagePin, pinterestName, post, runAlarm, schedulerOf, type ConnectedProfile } from "./scheduling-support.ts";
import { read, testEnv } from "../support.ts";
import { ledgerOf } from "../../../workers/ledger/client.ts";

/**
 * Decision 066: a waiting pin's queue writes every change of where it stands into its pin-history entry, so the
 * /pin-history page reads D1 alone; entries written before that are still answered by their queue.
 */

interface Entry {
  pinId: string;
  title: string;
  state: string;
  error: string | null;
  scheduledForUTCTimestamp: number | null;
}

const historyOf = async (user: TestUser) => (await read(await post(user, "/api/user/getPinHistory", {}))).pinHistory as Entry[];
const entryOf = async (user: TestUser, pinId: string) => (await historyOf(user)).find((entry) => entry.pinId === pinId)!;
/** What the ledger holds for a pin's entry (the mirror's columns). */
const stored = (user: TestUser, pinId: string) =>
  ledgerOf(testEnv, user.userId)
    .prepare(`SELECT queue_state, queue_error, scheduled_for FROM pin_history WHERE user_id = ?1 AND pin_id = ?2`)
    .bind(user.userId, pinId)
    .first<{ queue_state: string | null; queue_error: string | null; scheduled_for: number }>();
const mirrorOf = (instance: ProfileScheduler) => (instance as unknown as { mirror: HistoryMirror }).mirror;
const notesIn = (profile: ConnectedProfile) =>
  runInDurableObject(schedulerOf(profile), (_instance, state) => state.storage.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM history_changes`).one().n);

async function queuedPins(firstName: string, count: number) {
  const user = await signUpUser({ firstName });
  const profile = await connectProfile(user, pinterestName(`${firstName.toLowerCase()}_mirror`));
  await grantCredits(user, 20);
  const response = await post(user, "/api/scheduling/schedulePin", { pins: Array.from({ length: count }, () => imagePin(profile)) });
  expect(response.status).toBe(201);
  const ids = ((await read(response)).scheduledPins as { id: string }[]).map((pin) => pin.id);
  return { user, profile, ids };
}

describe("the pin history mirrors each queue", () => {
  it("writes each change of a waiting pin into its entry as it happens: paused with the reason, back in the queue, moved, deleted", async () => {
    const { user, profile, ids } = await queuedPins("Maren", 3);
    for (const id of ids) expect(await stored(user, id)).toMatchObject({ queue_state: "scheduled", queue_error: null });

    // The profile needs reconnecting: its queue pauses every pin, and each entry says why.
    await testEnv.DB.prepare(`UPDATE pinterest_profiles SET status = 'reauth', last_error = 'Token revoked' WHERE id = ?1`).bind(profile.profileId).run();
    await runAlarm(profile);
    const paused = await stored(user, ids[0]);
    expect(paused).toMatchObject({ queue_state: "paused" });
    expect(paused!.queue_error).toContain("reconnect this Pinterest profile");
    const pausedEntry = await entryOf(user, ids[0]);
    expect(pausedEntry.state).toBe("paused");
    expect(pausedEntry.error).toContain("reconnect this Pinterest profile");

    // Reconnected: back in the queue, the reason gone.
    await testEnv.DB.prepare(`UPDATE pinterest_profiles SET status = 'ok', last_error = NULL WHERE id = ?1`).bind(profile.profileId).run();
    await runAlarm(profile);
    expect(await stored(user, ids[0])).toMatchObject({ queue_state: "scheduled", queue_error: null });
    expect(await entryOf(user, ids[0])).toMatchObject({ state: "scheduled", error: null });

    // Moved, then deleted: answered at once (the request wrote it before it answered).
    const moved = Date.now() + 12 * 86_400_000;
    expect((await post(user, "/api/scheduling/updateScheduledPin", { pin: { id: ids[1], scheduledTime: moved } })).status).toBe(200);
    expect(await stored(user, ids[1])).toMatchObject({ queue_state: "scheduled", scheduled_for: moved });
    expect((await post(user, "/api/scheduling/deleteScheduledPin", { pinId: ids[2] })).status).toBe(200);
    expect(await stored(user, ids[2])).toMatchObject({ queue_state: "deleted" });
    expect(await entryOf(user, ids[2])).toMatchObject({ state: "deleted" });
    expect(await notesIn(profile), "every note written").toBe(0);

    // Any change made in the queue's storage is noted, whichever path makes it (here: awaiting approval).
    await runInDurableObject(schedulerOf(profile), async (instance, state) => {
      state.storage.sql.exec(`UPDATE pins SET status = 'awaiting' WHERE id = ?`, ids[0]);
      await instance.rearm();
    });
    expect(await entryOf(user, ids[0])).toMatchObject({ state: "awaiting" });

    // The page reads the entry alone: it believes D1 (here changed behind the queue's back), not the queue.
    await ledgerOf(testEnv, user.userId)
      .prepare(`UPDATE pin_history SET queue_state = 'failed', queue_error = 'Board not found' WHERE user_id = ?1 AND pin_id = ?2`)
      .bind(user.userId, ids[1])
      .run();
    expect(await entryOf(user, ids[1])).toMatchObject({ state: "failed", error: "Board not found" });
  });

  it("writes a change of a whole queue at once: 1,200 pins paused, then resumed", async () => {
    const user = await signUpUser({ firstName: "Sigrun" });
    const profile = await connectProfile(user, pinterestName("sigrun_mirror"));
    await grantCredits(user, 1_300);
    for (const count of [1_000, 200]) {
      const response = await post(user, "/api/scheduling/schedulePin", { pins: Array.from({ length: count }, () => imagePin(profile)) });
      expect(response.status).toBe(201);
    }
    const states = async () =>
      (
        await ledgerOf(testEnv, user.userId)
          .prepare(`SELECT queue_state AS state, COUNT(*) AS n FROM pin_history WHERE user_id = ?1 GROUP BY queue_state`)
          .bind(user.userId)
          .all<{ state: string; n: number }>()
      ).results;
    expect(await states()).toEqual([{ state: "scheduled", n: 1_200 }]);
    await testEnv.DB.prepare(`UPDATE pinterest_profiles SET status = 'blocked', last_error = NULL WHERE id = ?1`).bind(profile.profileId).run();
    await runAlarm(profile);
    expect(await states()).toEqual([{ state: "paused", n: 1_200 }]);
    expect(await notesIn(profile)).toBe(0);
    await testEnv.DB.prepare(`UPDATE pinterest_profiles SET status = 'ok' WHERE id = ?1`).bind(profile.profileId).run();
    await runAlarm(profile);
    expect(await states()).toEqual([{ state: "scheduled", n: 1_200 }]);
  });

  it("keeps a change it could not write, and writes it when the alarm tries again", async () => {
    const { user, profile, ids } = await queuedPins("Ottar", 1);
    const scheduler = schedulerOf(profile);
    const failing = (userId: string) => ({
      userId,
      prepare: (query: string) => ledgerOf(testEnv, userId).prepare(query),
      batch: async () => {
        throw new Error("Network connection lost.");
      },
    });
    let working: HistoryMirror["ledgerFor"] | undefined;
    await runInDurableObject(scheduler, (instance) => {
      working = mirrorOf(instance).ledgerFor;
      mirrorOf(instance).ledgerFor = failing;
    });
    try {
      const deleted = await post(user, "/api/scheduling/deleteScheduledPin", { pinId: ids[0] });
      expect(deleted.status, "the delete itself is done").toBe(200);
      expect(await stored(user, ids[0])).toMatchObject({ queue_state: "scheduled" });
      expect(await notesIn(profile)).toBe(1);
      const alarm = await runInDurableObject(scheduler, (_instance, state) => state.storage.getAlarm());
      expect(alarm, "an alarm to try again").not.toBeNull();
      expect(alarm!).toBeLessThanOrEqual(Date.now() + 30_000);
    } finally {
      await runInDurableObject(scheduler, (instance) => {
        mirrorOf(instance).ledgerFor = working!;
      });
    }
    await runAlarm(profile);
    expect(await stored(user, ids[0])).toMatchObject({ queue_state: "deleted" });
    expect(await entryOf(user, ids[0])).toMatchObject({ state: "deleted" });
    expect(await notesIn(profile)).toBe(0);
  });

  it("answers entries written before the mirror from their queue, and the queue catches them up when it wakes", async () => {
    const { user, profile, ids } = await queuedPins("Petra", 2);
    expect((await post(user, "/api/scheduling/deleteScheduledPin", { pinId: ids[1] })).status).toBe(200);
    await runInDurableObject(schedulerOf(profile), (_instance, state) => {
      state.storage.sql.exec(`UPDATE pins SET status = 'paused', last_error = 'Posting is paused: this account is blocked.' WHERE id = ?`, ids[0]);
      // As an object made before the mirror: no notes table, no triggers.
      state.storage.sql.exec(`DROP TRIGGER history_changes_update`);
      state.storage.sql.exec(`DROP TRIGGER history_changes_delete`);
      state.storage.sql.exec(`DROP TABLE history_changes`);
    });
    await ledgerOf(testEnv, user.userId).prepare(`UPDATE pin_history SET queue_state = NULL, queue_error = NULL WHERE user_id = ?1`).bind(user.userId).run();

    // Not mirrored: the page asks the queue.
    expect(await entryOf(user, ids[0])).toMatchObject({ state: "paused", error: "Posting is paused: this account is blocked." });
    expect(await entryOf(user, ids[1])).toMatchObject({ state: "deleted" });

    // The queue wakes with the mirror: it notes every pin it holds and every id it deleted, and writes them.
    await runInDurableObject(schedulerOf(profile), async (instance) => {
      mirrorOf(instance).migrate();
      await instance.rearm();
    });
    expect(await stored(user, ids[0])).toMatchObject({ queue_state: "paused", queue_error: "Posting is paused: this account is blocked." });
    expect(await stored(user, ids[1])).toMatchObject({ queue_state: "deleted" });
  });

  it("marks a disconnected profile's waiting pins deleted, and they stay deleted when it is connected again", async () => {
    const { user, profile, ids } = await queuedPins("Runa", 2);
    expect((await post(user, "/api/pinterestAPI/removeAuthorizedPinterestProfile", { username: profile.username })).status).toBe(200);
    for (const id of ids) expect(await stored(user, id)).toMatchObject({ queue_state: "deleted" });
    const again = await connectProfile(user, profile.username);
    expect(again.profileId).not.toBe(profile.profileId);
    for (const id of ids) expect(await entryOf(user, id)).toMatchObject({ state: "deleted" });
  });
});
