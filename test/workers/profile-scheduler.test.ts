import { createExecutionContext, createScheduledController, runInDurableObject, waitOnExecutionContext } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { ProfileScheduler } from "../../durable-objects/profile-scheduler.ts";
import worker from "../../workers/app.ts";
import { database } from "../../workers/db/client.ts";
import { schedulerIndex } from "../../workers/db/schema.ts";
import { MAX_FAILURES } from "../../workers/domain/pin-queue.ts";
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

/** A pin due now that has failed MAX_FAILURES - 1 times (5xx, no answer): its next attempt is its last. */
async function pinOnItsLastAttempt(profile: ConnectedProfile) {
  const pin = await scheduleAt(profile, Date.now() + 3_600_000);
  const scheduler = schedulerOf(profile);
  await runInDurableObject(scheduler, (_instance, state) => {
    const now = Date.now();
    state.storage.sql.exec(
      `UPDATE pins SET failures = ?, attempts = ?, last_error = 'Pinterest answered 503', scheduled_time = ?, next_attempt_at = ? WHERE id = ?`,
      MAX_FAILURES - 1,
      MAX_FAILURES - 1,
      now,
      now,
      pin.id,
    );
  });
  return scheduler;
}

async function onlyPin(scheduler: DurableObjectStub<ProfileScheduler>) {
  const page = await scheduler.list({ view: "all", sortBy: "scheduledTimeUTCTimestamp-asc" });
  if (!("scheduledPins" in page)) throw new Error(page.message);
  expect(page.scheduledPins).toHaveLength(1);
  return page.scheduledPins[0];
}

describe("giving up on a pin", () => {
  it("when the last allowed attempt loses its answer after Pinterest created the pin, looks on the board: posted, not failed", async () => {
    const profile = await connectProfile(user, pinterestName("oskar_last"));
    const scheduler = await pinOnItsLastAttempt(profile);
    await sandbox("/pinterest/fault-rate", { method: "POST", json: { username: profile.username, rate: 1, kinds: ["lost_answer"] } });
    await runInDurableObject(scheduler, (instance) => instance.alarm());
    await sandbox("/pinterest/fault-rate", { method: "POST", json: { username: profile.username, rate: 0 } });

    const onPinterest = await sandboxPins(profile.username);
    expect(onPinterest).toHaveLength(1);
    // Failed here would tell the user it was not posted, and scheduling it again would post it twice.
    expect(await onlyPin(scheduler)).toMatchObject({ status: "posted", pinterestPinId: onPinterest[0].id, attempts: MAX_FAILURES });
  });

  it("when that last look cannot read the board, fails saying the pin may be on Pinterest", async () => {
    const profile = await connectProfile(user, pinterestName("oskar_blind"));
    const scheduler = await pinOnItsLastAttempt(profile);
    await sandbox("/pinterest/fault-rate", { method: "POST", json: { username: profile.username, rate: 1, kinds: ["lost_answer"] } });
    await sandbox("/faults", { method: "POST", json: { service: "pinterest", method: "GET", path: `/v5/boards/${profile.boards[0].id}/pins`, status: 503, times: 1 } });
    await runInDurableObject(scheduler, (instance) => instance.alarm());
    await sandbox("/pinterest/fault-rate", { method: "POST", json: { username: profile.username, rate: 0 } });

    expect(await sandboxPins(profile.username)).toHaveLength(1);
    const view = await onlyPin(scheduler);
    expect(view.status).toBe("failed");
    expect(view.error).toContain("It may be on Pinterest all the same: look at the board before scheduling it again.");
  });

  it("when the last allowed attempt fails before Pinterest created anything, fails with the reason and sends nothing more", async () => {
    const profile = await connectProfile(user, pinterestName("oskar_gone"));
    const scheduler = await pinOnItsLastAttempt(profile);
    await sandbox("/pinterest/fault-rate", { method: "POST", json: { username: profile.username, rate: 1, kinds: ["server_error"] } });
    await runInDurableObject(scheduler, (instance) => instance.alarm());
    const plans = await sandbox<{ username: string; seen: number }[]>("/pinterest/fault-rate");
    await sandbox("/pinterest/fault-rate", { method: "POST", json: { username: profile.username, rate: 0 } });

    expect(plans.find((plan) => plan.username === profile.username)?.seen).toBe(1);
    expect(await sandboxPins(profile.username)).toHaveLength(0);
    const view = await onlyPin(scheduler);
    expect(view.status).toBe("failed");
    expect(view.error).toMatch(new RegExp(`^Pinterest answered 50[023].*gave up after ${MAX_FAILURES} attempts`));
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
