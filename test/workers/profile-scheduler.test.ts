import { createExecutionContext, createScheduledController, runInDurableObject, waitOnExecutionContext } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { ProfileScheduler } from "../../durable-objects/profile-scheduler.ts";
import worker from "../../workers/app.ts";
import { database } from "../../workers/db/client.ts";
import { schedulerIndex } from "../../workers/db/schema.ts";
import { recordSchedulerState, STALLED_AFTER_MS } from "../../workers/services/scheduler-index.ts";
import { signUpUser, type TestUser } from "./accounts-support.ts";
import { connectProfile, grantCredits, imagePin, pinterestName, post, sandboxPins, schedulerOf, type ConnectedProfile } from "./scheduling-support.ts";
import { eventually, read, sandbox, testEnv } from "./support.ts";

const alarmOf = (scheduler: DurableObjectStub<ProfileScheduler>) => runInDurableObject(scheduler, (_instance, state) => state.storage.getAlarm());
const indexRow = (profileId: string) => database(testEnv.DB).query.schedulerIndex.findFirst({ where: eq(schedulerIndex.profileKey, profileId) });

let user: TestUser;
beforeAll(async () => {
  user = await signUpUser({ firstName: "Oskar" });
  await grantCredits(user, 100);
});

async function scheduleAt(profile: ConnectedProfile, at: number, fields: Record<string, unknown> = {}) {
  const response = await post(user, "/api/scheduling/schedulePin", imagePin(profile, { type: "SpecificDate", scheduledTime: at, ...fields }));
  expect(response.status).toBe(201);
  return (await read(response)).scheduledPin as { id: string; title: string; url: string; altText: string; description: string; imageURL: string };
}

describe("ProfileScheduler", () => {
  it("holds one alarm, the next due pin, and tells the cron index", async () => {
    const profile = await connectProfile(user, pinterestName("oskar_alarm"));
    const now = Date.now();
    await scheduleAt(profile, now + 7_200_000);
    await scheduleAt(profile, now + 3_600_000);
    const scheduler = schedulerOf(profile);
    expect(await alarmOf(scheduler)).toBe(now + 3_600_000);
    expect(await indexRow(profile.profileId)).toMatchObject({ nextDueAt: now + 3_600_000, pendingCount: 2 });
  });

  it("after a crash mid-call, finds the pin Pinterest created on the board instead of posting it again", async () => {
    const profile = await connectProfile(user, pinterestName("oskar_crash"));
    const pin = await scheduleAt(profile, Date.now() + 3_600_000);
    const scheduler = schedulerOf(profile);

    // The object sent the pin, Pinterest created it, and the object died before it heard back.
    const { access_token } = await sandbox<{ access_token: string }>("/pinterest/tokens", { method: "POST", json: { username: profile.username } });
    const created = await fetch(`${testEnv.PINTEREST_API_URL}/pins`, {
      method: "POST",
      headers: { authorization: `Bearer ${access_token}`, "content-type": "application/json" },
      body: JSON.stringify({
        board_id: profile.boards[0].id,
        title: pin.title,
        description: pin.description,
        link: pin.url,
        alt_text: pin.altText,
        media_source: { source_type: "image_url", url: pin.imageURL },
      }),
    });
    expect(created.status).toBe(201);
    const pinterestPin = (await created.json()) as { id: string };
    const startedAt = Date.now() - 1_000;
    await runInDurableObject(scheduler, (_instance, state) => {
      state.storage.sql.exec(
        `UPDATE pins SET status = 'posting', attempt_id = 'attempt-of-a-dead-instance', attempt_started_at = ?, attempts = 1, scheduled_time = ?, next_attempt_at = ? WHERE id = ?`,
        startedAt,
        startedAt,
        startedAt,
        pin.id,
      );
    });

    await runInDurableObject(scheduler, (instance) => instance.alarm());

    const page = await scheduler.list({ view: "all", sortBy: "scheduledTimeUTCTimestamp-asc" });
    if (!("scheduledPins" in page)) throw new Error(page.message);
    const [view] = page.scheduledPins;
    expect(view).toMatchObject({ status: "posted", pinterestPinId: pinterestPin.id, attempts: 2 });
    expect(await sandboxPins(profile.username)).toHaveLength(1);
  });
});

/** A scheduler whose queue holds an overdue pin but whose alarm was lost (say, in an outage). */
async function schedulerWithLostAlarm(profile: ConnectedProfile, dueAt: number) {
  await scheduleAt(profile, Date.now() + 3_600_000);
  const scheduler = schedulerOf(profile);
  await runInDurableObject(scheduler, async (_instance, state) => {
    state.storage.sql.exec(`UPDATE pins SET scheduled_time = ?, next_attempt_at = ?`, dueAt, dueAt);
    await state.storage.deleteAlarm();
  });
  await recordSchedulerState(testEnv.DB, profile.profileId, dueAt, 1);
  return scheduler;
}

async function runCron() {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: "*/5 * * * *" }), testEnv, ctx);
  await waitOnExecutionContext(ctx);
}

describe("cron sweep", () => {
  it("re-arms a scheduler whose alarm went missing, and the overdue pin is then posted", async () => {
    const profile = await connectProfile(user, pinterestName("oskar_lost"));
    const scheduler = await schedulerWithLostAlarm(profile, Date.now() - STALLED_AFTER_MS - 60_000);
    expect(await alarmOf(scheduler)).toBeNull();

    await runCron();

    await eventually(async () => ((await sandboxPins(profile.username)).length === 1 ? true : undefined), 15_000, "the re-armed alarm to post");
    await eventually(async () => {
      const row = await indexRow(profile.profileId);
      return row?.pendingCount === 0 && row.nextDueAt === null ? row : undefined;
    }, 10_000, "the index to show an empty queue");
  });

  it("leaves schedulers that are not overdue alone", async () => {
    const profile = await connectProfile(user, pinterestName("oskar_fine"));
    const scheduler = await schedulerWithLostAlarm(profile, Date.now() + 60_000);
    await runCron();
    expect(await alarmOf(scheduler)).toBeNull();
    expect(await scheduler.counts()).toMatchObject({ scheduled: 1, posted: 0 });
  });
});
