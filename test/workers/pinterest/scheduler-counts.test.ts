import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { QueueView } from "../../../contracts/pinterest/scheduling-api.ts";
import { QueueStore } from "../../../durable-objects/scheduler/queue-store.ts";
import { signUpUser } from "../accounts/accounts-support.ts";
import { connectProfile, grantCredits, imagePin, pinterestName, post, schedulerOf, type ConnectedProfile } from "./scheduling-support.ts";
import { read } from "../support.ts";

/**
 * A queue page's total is read from counts kept by triggers (decision 059),
 * not by counting the queue: these tests hold the totals the user sees to the
 * pins really there, through every way a pin enters, changes state or leaves.
 */
describe("queue totals", () => {
  const totals = async (profile: ConnectedProfile) => {
    const scheduler = schedulerOf(profile);
    const of = async (view: QueueView) => {
      const page = await scheduler.list({ view, sortBy: "scheduledTimeUTCTimestamp-asc" });
      if (!("totalCount" in page)) throw new Error(page.message);
      return page.totalCount;
    };
    return { pending: await of("pending"), posted: await of("posted"), failed: await of("failed"), all: await of("all") };
  };
  /** The same figures counted row by row. */
  const counted = async (profile: ConnectedProfile) => {
    const c = await schedulerOf(profile).counts();
    return {
      pending: c.scheduled + c.awaiting + c.posting + c.paused + c.failed,
      posted: c.posted,
      failed: c.failed,
      all: c.scheduled + c.awaiting + c.posting + c.paused + c.failed + c.posted,
    };
  };

  it("match the pins in the queue as pins are scheduled, refused, posted, failed, deleted and cleared", async () => {
    const user = await signUpUser({ firstName: "Ingrid" });
    await grantCredits(user, 50);
    const profile = await connectProfile(user, pinterestName("ingrid_counts"));
    const at = Date.now() + 86_400_000;
    const pins = Array.from({ length: 6 }, (_, i) => imagePin(profile, { type: "SpecificDate", scheduledTime: at + i * 3_600_000 }));
    // The last one breaks the 48-hour rule with the first: refused on its own, never counted.
    pins.push(imagePin(profile, { type: "SpecificDate", scheduledTime: at + 60_000, url: pins[0].url }));
    const answer = await read(await post(user, "/api/scheduling/schedulePin", { pins }));
    expect(answer.scheduledPins).toHaveLength(6);
    expect(answer.failedPins).toHaveLength(1);
    expect(await totals(profile)).toEqual({ pending: 6, posted: 0, failed: 0, all: 6 });

    const ids: string[] = answer.scheduledPins.map((p: { id: string }) => p.id);
    expect((await post(user, "/api/scheduling/deleteScheduledPin", { pinId: ids[0] })).status).toBe(200);
    await runInDurableObject(schedulerOf(profile), (_instance, state) => {
      state.storage.sql.exec(`UPDATE pins SET status = 'posted', posted_at = ? WHERE id = ?`, Date.now(), ids[1]);
      state.storage.sql.exec(`UPDATE pins SET status = 'failed', last_error = 'Pinterest refused the image' WHERE id = ?`, ids[2]);
    });
    expect(await totals(profile)).toEqual({ pending: 4, posted: 1, failed: 1, all: 5 });
    expect(await totals(profile)).toEqual(await counted(profile));

    const cleared = await read(await post(user, "/highMemLimitApi/scheduling/deleteAllScheduledPins", { pinterestProfileUsername: profile.username }));
    expect(cleared.deletedCount).toBe(4);
    expect(await totals(profile)).toEqual({ pending: 0, posted: 1, failed: 0, all: 1 });
    expect(await totals(profile)).toEqual(await counted(profile));

    await schedulerOf(profile).clear();
    expect(await totals(profile)).toEqual({ pending: 0, posted: 0, failed: 0, all: 0 });
  });

  it("a queue made before the counts existed counts its pins once when it starts", async () => {
    const user = await signUpUser({ firstName: "Joaquim" });
    await grantCredits(user, 50);
    const profile = await connectProfile(user, pinterestName("joaquim_counts"));
    const pins = Array.from({ length: 5 }, () => imagePin(profile, { type: "SpecificDate", scheduledTime: Date.now() + 86_400_000 * 3 }));
    pins.forEach((pin, i) => {
      pin.url = `https://linen.example/posts/old-queue-${i}`;
    });
    expect((await post(user, "/api/scheduling/schedulePin", { pins })).status).toBe(201);
    await runInDurableObject(schedulerOf(profile), (_instance, state) => {
      // The object as it was before: no counts table, no triggers; then it starts again.
      for (const trigger of ["pin_counts_insert", "pin_counts_delete", "pin_counts_status"]) state.storage.sql.exec(`DROP TRIGGER ${trigger}`);
      state.storage.sql.exec(`DROP TABLE pin_counts`);
      state.storage.sql.exec(`UPDATE pins SET status = 'posted' WHERE id = (SELECT id FROM pins ORDER BY scheduled_time LIMIT 1)`);
      new QueueStore(state.storage).migrate();
    });
    expect(await totals(profile)).toEqual({ pending: 4, posted: 1, failed: 0, all: 5 });
    const more = await post(user, "/api/scheduling/schedulePin", imagePin(profile, { type: "SpecificDate", scheduledTime: Date.now() + 86_400_000 * 5 }));
    expect(more.status).toBe(201);
    expect(await totals(profile)).toEqual({ pending: 5, posted: 1, failed: 0, all: 6 });
    expect(await totals(profile)).toEqual(await counted(profile));
  });
});
