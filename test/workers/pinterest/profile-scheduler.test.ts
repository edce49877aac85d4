import { createExecutionContext, createScheduledController, runInDurableObject, waitOnExecutionContext } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { ProfileScheduler } from "../../../durable-objects/profile-scheduler.ts";
import worker from "../../../workers/app.ts";
import { database } from "../../../workers/db/client.ts";
import { schedulerIndex } from "../../../workers/db/schema.ts";
import { lateCreateMs } from "../../../durable-objects/scheduler/posting.ts";
import { MAX_FAILURES } from "../../../workers/domain/pin-queue.ts";
import { PINTEREST_TIMEOUT_MS } from "../../../workers/integrations/pinterest.ts";
import { recordSchedulerState, STALLED_AFTER_MS } from "../../../workers/services/pinterest/scheduler-index.ts";
import { signUpUser, type TestUser } from "../accounts/accounts-support.ts";
import { connectProfile, grantCredits, imagePin, pinterestName, post, sandboxPins, schedulerOf, type ConnectedProfile } from "./scheduling-support.ts";
import { eventually, read, sandbox, testEnv } from "../support.ts";

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
    // Long enough ago that a create the dead instance sent would have landed by now.
    const startedAt = Date.now() - PINTEREST_TIMEOUT_MS - lateCreateMs(testEnv) - 1_000;
    await cutShortAt(scheduler, pin.id, startedAt);

    await runInDurableObject(scheduler, (instance) => instance.alarm());

    const page = await scheduler.list({ view: "all", sortBy: "scheduledTimeUTCTimestamp-asc" });
    if (!("scheduledPins" in page)) throw new Error(page.message);
    const [view] = page.scheduledPins;
    expect(view).toMatchObject({ status: "posted", pinterestPinId: pinterestPin.id, attempts: 2 });
    expect(await sandboxPins(profile.username)).toHaveLength(1);
  });

  it("waits for a cut-short attempt's create to land before it looks on the board", async () => {
    const profile = await connectProfile(user, pinterestName("oskar_cutnow"));
    const pin = await scheduleAt(profile, Date.now() + 3_600_000);
    const scheduler = schedulerOf(profile);
    const startedAt = Date.now() - 500;
    await cutShortAt(scheduler, pin.id, startedAt);
    await runInDurableObject(scheduler, (instance) => instance.alarm());
    const row = await pinRow(scheduler);
    expect(row).toMatchObject({ status: "scheduled", check_since: startedAt });
    expect(row.next_attempt_at).toBeGreaterThanOrEqual(startedAt + PINTEREST_TIMEOUT_MS + lateCreateMs(testEnv));
    expect(await sandboxPins(profile.username)).toHaveLength(0);
  });
});

describe("a create still under way at Pinterest when our call ends", () => {
  it("is found on the board once it lands, not posted a second time", async () => {
    const profile = await connectProfile(user, pinterestName("oskar_late"));
    const scheduler = await pinDueNow(profile, 0);
    // Pinterest is still making the pin when the connection breaks; it lands when the test says so.
    await sandbox("/pinterest/drop-after-create", { method: "POST", json: { username: profile.username, times: 1, mode: "late", delayMs: 0 } });
    await runInDurableObject(scheduler, (instance) => instance.alarm());

    // The next attempt (a look on the board first) waits as long as a late create may take, not just the backoff.
    const waiting = await pinRow(scheduler);
    expect(waiting).toMatchObject({ status: "scheduled", failures: 1 });
    expect(waiting.check_since).not.toBeNull();
    expect(waiting.next_attempt_at - waiting.updated_at).toBeGreaterThanOrEqual(lateCreateMs(testEnv));
    expect(await sandboxPins(profile.username)).toHaveLength(0);

    expect(await sandbox<{ landed: number }>("/pinterest/land-late-creates", { method: "POST" })).toEqual({ landed: 1 });
    const [landed] = await sandboxPins(profile.username);
    await forceNextTurn(scheduler);
    expect(await onlyPin(scheduler)).toMatchObject({ status: "posted", pinterestPinId: landed.id, attempts: 2 });
    expect(await sandboxPins(profile.username)).toHaveLength(1);
  });
});

/** Leaves the pin as an instance that died mid-call would: `posting`, with an attempt that began at `startedAt`. */
async function cutShortAt(scheduler: DurableObjectStub<ProfileScheduler>, pinId: string, startedAt: number) {
  await runInDurableObject(scheduler, (_instance, state) => {
    state.storage.sql.exec(
      `UPDATE pins SET status = 'posting', attempt_id = 'attempt-of-a-dead-instance', attempt_started_at = ?, attempts = 1, scheduled_time = ?, next_attempt_at = ? WHERE id = ?`,
      startedAt,
      startedAt,
      startedAt,
      pinId,
    );
  });
}

/** The pin's row in its scheduler (the test's profile has one pin). */
async function pinRow(scheduler: DurableObjectStub<ProfileScheduler>) {
  return runInDurableObject(scheduler, (_instance, state) => {
    const rows = state.storage.sql
      .exec<{ status: string; failures: number; check_since: number | null; next_attempt_at: number; updated_at: number; final_look: number }>(
        `SELECT status, failures, check_since, next_attempt_at, updated_at, final_look FROM pins`,
      )
      .toArray();
    expect(rows).toHaveLength(1);
    return rows[0];
  });
}

/** Makes the pin's next turn due now and waits until the scheduler has taken it (its own alarm may take it first). */
async function forceNextTurn(scheduler: DurableObjectStub<ProfileScheduler>) {
  await runInDurableObject(scheduler, (_instance, state) => {
    state.storage.sql.exec(`UPDATE pins SET next_attempt_at = ? WHERE status = 'scheduled'`, Date.now());
  });
  await runInDurableObject(scheduler, (instance) => instance.alarm());
  await eventually(async () => ((await pinRow(scheduler)).status.match(/^(posted|failed)$/) ? true : undefined), 15_000, "the pin's turn to end");
}

/** A pin due now that has failed `failures` times (5xx, no answer). */
async function pinDueNow(profile: ConnectedProfile, failures: number) {
  const pin = await scheduleAt(profile, Date.now() + 3_600_000);
  const scheduler = schedulerOf(profile);
  await runInDurableObject(scheduler, (_instance, state) => {
    const now = Date.now();
    state.storage.sql.exec(
      `UPDATE pins SET failures = ?, attempts = ?, last_error = CASE WHEN ? > 0 THEN 'Pinterest answered 503' END, scheduled_time = ?, next_attempt_at = ? WHERE id = ?`,
      failures,
      failures,
      failures,
      now,
      now,
      pin.id,
    );
  });
  return scheduler;
}

/** A pin due now that has failed MAX_FAILURES - 1 times (5xx, no answer): its next attempt is its last. */
function pinOnItsLastAttempt(profile: ConnectedProfile) {
  return pinDueNow(profile, MAX_FAILURES - 1);
}

/** Runs the pin's last attempt; it then waits for its one look on the board, which the test brings forward. */
async function lastAttemptThenLook(scheduler: DurableObjectStub<ProfileScheduler>, betweenThem: () => Promise<unknown> = async () => {}) {
  await runInDurableObject(scheduler, (instance) => instance.alarm());
  const waiting = await pinRow(scheduler);
  expect(waiting).toMatchObject({ status: "scheduled", final_look: 1, failures: MAX_FAILURES });
  expect(waiting.next_attempt_at - waiting.updated_at).toBeGreaterThanOrEqual(lateCreateMs(testEnv));
  await betweenThem();
  await forceNextTurn(scheduler);
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
    await lastAttemptThenLook(scheduler);
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
    await sandbox("/faults", {
      method: "POST",
      json: { service: "pinterest", method: "GET", path: `/v5/boards/${profile.boards[0].id}/pins`, status: 503, times: 1 },
    });
    await lastAttemptThenLook(scheduler);
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
    await lastAttemptThenLook(scheduler);
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
    await eventually(
      async () => {
        const row = await indexRow(profile.profileId);
        return row?.pendingCount === 0 && row.nextDueAt === null ? row : undefined;
      },
      10_000,
      "the index to show an empty queue",
    );
  });

  it("leaves schedulers that are not overdue alone", async () => {
    const profile = await connectProfile(user, pinterestName("oskar_fine"));
    const scheduler = await schedulerWithLostAlarm(profile, Date.now() + 60_000);
    await runCron();
    expect(await alarmOf(scheduler)).toBeNull();
    expect(await scheduler.counts()).toMatchObject({ scheduled: 1, posted: 0 });
  });
});
