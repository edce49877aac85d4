import { runInDurableObject } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { ACCOUNT_BLOCKED_PAUSE } from "../../../durable-objects/scheduler/alarm.ts";
import { database } from "../../../workers/db/client.ts";
import { users } from "../../../workers/db/schema.ts";
import { bearer, json, signUpUser, type TestUser } from "../accounts/accounts-support.ts";
import { connectProfile, grantCredits, imagePin, pinterestName, post, sandboxPins, schedulerOf } from "../pinterest/scheduling-support.ts";
import { app, read, testEnv } from "../support.ts";

/** Decision 051: a blocked account's queues post nothing until an admin unblocks it; then its pins post. */

let admin: TestUser;
beforeAll(async () => {
  admin = await signUpUser({ firstName: "Ada" });
  await database(testEnv.DB).update(users).set({ role: "admin" }).where(eq(users.id, admin.userId));
});

describe("a blocked account's scheduled pins", () => {
  it("are paused, not posted, while the account is blocked, and post once it is unblocked", async () => {
    const owner = await signUpUser({ firstName: "Bodil" });
    await grantCredits(owner, 10);
    const profile = await connectProfile(owner, pinterestName("bodil_blocked"));
    const scheduled = await post(owner, "/api/scheduling/schedulePin", imagePin(profile, { type: "SpecificDate", scheduledTime: Date.now() + 3_600_000 }));
    expect(scheduled.status).toBe(201);
    const pinId = (await read(scheduled)).scheduledPin.id as string;
    const scheduler = schedulerOf(profile);
    const makeDue = () =>
      runInDurableObject(scheduler, (_instance, state) => {
        const now = Date.now() - 1_000;
        state.storage.sql.exec(`UPDATE pins SET scheduled_time = ?, next_attempt_at = ? WHERE id = ?`, now, now, pinId);
      });

    expect((await app(`/api/admin/users/${owner.userId}/block`, json({}, bearer(admin.tokens)))).status).toBe(200);
    await makeDue();
    await runInDurableObject(scheduler, (instance) => instance.alarm());
    const page = await scheduler.list({ view: "all", sortBy: "scheduledTimeUTCTimestamp-asc" });
    if (!("scheduledPins" in page)) throw new Error(page.message);
    expect(page.scheduledPins[0]).toMatchObject({ status: "paused" });
    expect(
      await runInDurableObject(
        scheduler,
        (_instance, state) => state.storage.sql.exec<{ e: string }>(`SELECT last_error AS e FROM pins WHERE id = ?`, pinId).one().e,
      ),
    ).toBe(ACCOUNT_BLOCKED_PAUSE);
    expect(await sandboxPins(profile.username)).toHaveLength(0);

    expect((await app(`/api/admin/users/${owner.userId}/unblock`, json({}, bearer(admin.tokens)))).status).toBe(200);
    await runInDurableObject(scheduler, (instance) => instance.alarm());
    expect(await sandboxPins(profile.username)).toHaveLength(1);
  });
});
