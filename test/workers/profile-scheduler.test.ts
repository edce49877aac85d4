import { createExecutionContext, createScheduledController, runInDurableObject, waitOnExecutionContext } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { ProfileScheduler } from "../../durable-objects/profile-scheduler.ts";
import worker from "../../workers/app.ts";
import { database } from "../../workers/db/client.ts";
import { schedulerIndex } from "../../workers/db/schema.ts";
import { recordSchedulerState, schedulerFor, STALLED_AFTER_MS } from "../../workers/services/scheduler-index.ts";
import { eventually, testEnv } from "./support.ts";

const alarmOf = (scheduler: DurableObjectStub<ProfileScheduler>) =>
  runInDurableObject(scheduler, (_instance, state) => state.storage.getAlarm());

async function statusesOf(scheduler: DurableObjectStub<ProfileScheduler>) {
  return (await scheduler.list()).map((item) => [item.id, item.status]);
}

describe("ProfileScheduler", () => {
  it("stores work items, its alarm fires for the due ones and the effect is stored", async () => {
    const key = "user-1:alarm-profile";
    const scheduler = schedulerFor(testEnv, key);
    const now = Date.now();
    expect(
      await scheduler.enqueue(key, [
        { id: "due-1", dueAt: now + 300, kind: "ping", payload: JSON.stringify({ n: 1 }) },
        { id: "due-2", dueAt: now + 400, kind: "ping" },
        { id: "later", dueAt: now + 3_600_000, kind: "ping" },
      ]),
    ).toEqual({ added: 3 });
    expect(await alarmOf(scheduler)).toBe(now + 300);

    // Nobody triggers it: the alarm fires on its own when the first item falls due.
    await eventually(async () => {
      const statuses = await statusesOf(scheduler);
      return statuses[1][1] === "done" ? statuses : undefined;
    }, 10_000, "the alarm to fire");

    const items = await scheduler.list();
    expect(items.map((i) => [i.id, i.status])).toEqual([["due-1", "done"], ["due-2", "done"], ["later", "pending"]]);
    expect(items[0].firedAt).toBeGreaterThanOrEqual(now + 300);
    expect(JSON.parse(items[0].payload)).toEqual({ n: 1 });

    // The next alarm is the remaining item, and the cron index knows it.
    expect(await alarmOf(scheduler)).toBe(now + 3_600_000);
    const row = await database(testEnv.DB).query.schedulerIndex.findFirst({ where: eq(schedulerIndex.profileKey, key) });
    expect(row).toMatchObject({ nextDueAt: now + 3_600_000, pendingCount: 1 });
  });

  it("fires each item once even when the alarm is delivered again", async () => {
    const key = "user-1:idempotent-profile";
    const scheduler = schedulerFor(testEnv, key);
    await scheduler.enqueue(key, [{ id: "once", dueAt: Date.now() + 100, kind: "ping" }]);
    await eventually(async () => ((await scheduler.list())[0].status === "done" ? true : undefined), 10_000, "the alarm");
    // A repeated delivery of the same alarm (alarms are at least once).
    await runInDurableObject(scheduler, (instance) => instance.alarm());
    const [item] = await scheduler.list();
    expect(item).toMatchObject({ id: "once", status: "done", attempts: 1 });
    expect(await alarmOf(scheduler)).toBeNull();
  });

  it("does not add an item twice", async () => {
    const key = "user-1:dedupe-profile";
    const scheduler = schedulerFor(testEnv, key);
    const item = { id: "same", dueAt: Date.now() + 60_000, kind: "ping" };
    expect(await scheduler.enqueue(key, [item])).toEqual({ added: 1 });
    expect(await scheduler.enqueue(key, [item])).toEqual({ added: 0 });
    expect(await scheduler.list()).toHaveLength(1);
  });
});

/** A scheduler whose queue holds an item but whose alarm was lost (say, in an outage). */
async function schedulerWithLostAlarm(key: string, dueAt: number) {
  const scheduler = schedulerFor(testEnv, key);
  await scheduler.enqueue(key, [{ id: "placeholder", dueAt: Date.now() + 3_600_000, kind: "ping" }]);
  await runInDurableObject(scheduler, async (_instance, state) => {
    state.storage.sql.exec("DELETE FROM work_items");
    state.storage.sql.exec("INSERT INTO work_items (id, due_at, kind, payload) VALUES ('stalled', ?, 'ping', 'null')", dueAt);
    await state.storage.deleteAlarm();
  });
  await recordSchedulerState(testEnv.DB, key, dueAt, 1);
  return scheduler;
}

async function runCron() {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: "*/5 * * * *" }), testEnv, ctx);
  await waitOnExecutionContext(ctx);
}

describe("cron sweep", () => {
  it("re-arms a scheduler whose alarm went missing, and the overdue item then runs", async () => {
    const scheduler = await schedulerWithLostAlarm("user-2:lost-alarm", Date.now() - STALLED_AFTER_MS - 60_000);
    expect(await alarmOf(scheduler)).toBeNull();

    await runCron();

    await eventually(async () => ((await statusesOf(scheduler))[0][1] === "done" ? true : undefined), 10_000, "the re-armed alarm");
    const row = await database(testEnv.DB).query.schedulerIndex.findFirst({ where: eq(schedulerIndex.profileKey, "user-2:lost-alarm") });
    expect(row).toMatchObject({ nextDueAt: null, pendingCount: 0 });
  });

  it("leaves schedulers that are not overdue alone", async () => {
    const scheduler = await schedulerWithLostAlarm("user-2:not-yet-stalled", Date.now() + 60_000);
    await runCron();
    expect(await alarmOf(scheduler)).toBeNull();
    expect(await statusesOf(scheduler)).toEqual([["stalled", "pending"]]);
  });
});
