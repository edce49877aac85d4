import { runInDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { signUpUser, type TestUser } from "../accounts/accounts-support.ts";
import { connectProfile, get, grantCredits, imagePin, pinterestName, post, sandboxPins, schedulerOf } from "./scheduling-support.ts";
import { eventually, read, sandbox } from "../support.ts";

// Where the ProfileScheduler's parts meet (durable-objects/scheduler/, issue 20): a refusal thrown
// inside a part's change rolls back the whole transaction the request API runs it in, and the
// alarm asks the posting engine which attempts are under way.

const DAY = 86_400_000;

let user: TestUser;
beforeAll(async () => {
  user = await signUpUser({ firstName: "Tove" });
  await grantCredits(user, 40);
});

describe("the scheduler's parts", () => {
  it("changes repeating pins all or none: one unknown pin in a batch leaves the others as they were", async () => {
    const profile = await connectProfile(user, pinterestName("tove_repeat"));
    const ids: string[] = [];
    for (const days of [3, 4]) {
      const scheduled = await post(
        user,
        "/api/scheduling/schedulePin",
        imagePin(profile, { type: "SpecificDate", scheduledTime: Date.now() + days * DAY, repeatIntervalInDays: 7 }),
      );
      expect(scheduled.status).toBe(201);
      ids.push((await read(scheduled)).repeatingPins[0].id);
    }
    const before = (await read(await get(user, `/api/scheduling/getRepeatingPins/${profile.username}`))).repeatingPins;

    const refused = await post(user, "/api/scheduling/updateRepeatingPins", {
      pinterestUsername: profile.username,
      pinsToUpdate: [
        { id: ids[0], title: "Fortnightly linen tip", intervalInDays: 14 },
        { id: "nosuchpin123", title: "Nobody's pin" },
      ],
    });
    expect(refused.status).toBe(404);
    expect(await read(refused)).toMatchObject({ field: "pinsToUpdate.1.id" });
    expect((await read(await get(user, `/api/scheduling/getRepeatingPins/${profile.username}`))).repeatingPins).toEqual(before);

    const changed = await post(user, "/api/scheduling/updateRepeatingPins", {
      pinterestUsername: profile.username,
      pinsToUpdate: [
        { id: ids[0], title: "Fortnightly linen tip", intervalInDays: 14 },
        { id: ids[1], title: "Weekly linen tip" },
      ],
    });
    expect(changed.status).toBe(200);
    expect((await read(changed)).pins).toMatchObject([
      { id: ids[0], title: "Fortnightly linen tip", intervalInDays: 14 },
      { id: ids[1], title: "Weekly linen tip", intervalInDays: 7 },
    ]);
  });

  it("does not take a pin being posted for one cut short: re-arming mid-post sets no alarm, a second run joins the first, and the pin posts once", async () => {
    const profile = await connectProfile(user, pinterestName("tove_inflight"));
    const scheduled = await post(user, "/api/scheduling/schedulePin", imagePin(profile, { type: "SpecificDate", scheduledTime: Date.now() + 3_600_000 }));
    expect(scheduled.status).toBe(201);
    const pinId = (await read(scheduled)).scheduledPin.id as string;
    const scheduler = schedulerOf(profile);
    await runInDurableObject(scheduler, (_instance, state) => {
      const now = Date.now();
      state.storage.sql.exec(`UPDATE pins SET scheduled_time = ?, next_attempt_at = ? WHERE id = ?`, now, now, pinId);
    });
    // Pinterest takes its time over the pin: the attempt stays under way while the object is asked again.
    await sandbox("/faults", { method: "POST", json: { service: "pinterest", method: "POST", path: "/v5/pins", delayMs: 8_000, times: 1 } });

    const firstRun = runInDurableObject(scheduler, (instance) => instance.alarm());
    await eventually(async () => ((await scheduler.findPin(pinId))?.status === "posting" ? true : undefined), 20_000, "the pin to be under way");
    expect(await scheduler.rearm()).toEqual({ nextDueAt: null });
    const secondRun = scheduler.rerunAlarm();
    await firstRun;
    expect(await secondRun).toMatchObject({ posting: 0, posted: 1 });

    expect(await sandboxPins(profile.username)).toHaveLength(1);
    expect(await scheduler.findPin(pinId)).toMatchObject({ status: "posted", attempts: 1 });
  });

  it("writes a queue page's JSON (spliced from each pin's stored content) exactly as the page itself would be written, in every view and order", async () => {
    const profile = await connectProfile(user, pinterestName("tove_pagejson"));
    const ids: string[] = [];
    for (const fields of [
      { title: 'Quotes "inside", a backslash \\ and a tab\t', description: "Émoji 🧵 and ünïcode" },
      { type: "SpecificDate", scheduledTime: Date.now() + 5 * DAY, repeatIntervalInDays: 7 },
      {},
      {},
    ]) {
      const scheduled = await post(user, "/api/scheduling/schedulePin", imagePin(profile, fields));
      expect(scheduled.status).toBe(201);
      ids.push((await read(scheduled)).scheduledPin.id);
    }
    const scheduler = schedulerOf(profile);
    // One pin failed with a message that needs escaping, one posted, one whose stored content is empty.
    await runInDurableObject(scheduler, (_instance, state) => {
      state.storage.sql.exec(`UPDATE pins SET status = 'failed', last_error = ? WHERE id = ?`, 'Pinterest said "no" \u2028 twice', ids[2]);
      state.storage.sql.exec(`UPDATE pins SET status = 'posted', posted_at = ?, pinterest_pin_id = '987654321' WHERE id = ?`, Date.now(), ids[3]);
      state.storage.sql.exec(`UPDATE pins SET data = '{}' WHERE id = ?`, ids[0]);
    });
    for (const view of ["pending", "posted", "failed", "all"] as const) {
      for (const sortBy of ["scheduledTimeUTCTimestamp-asc", "scheduledTimeUTCTimestamp-desc"] as const) {
        const page = await scheduler.pageText({ view, sortBy });
        const listed = await scheduler.list({ view, sortBy });
        expect("ok" in page && page.ok, `${view} ${sortBy}`).toBe(true);
        expect((page as { json: string }).json, `${view} ${sortBy}`).toBe(JSON.stringify(listed));
      }
    }
    const all = JSON.parse(((await scheduler.pageText({ view: "all", sortBy: "scheduledTimeUTCTimestamp-asc" })) as { json: string }).json);
    expect(all.scheduledPins).toHaveLength(4);
    expect(all.scheduledPins.find((pin: { id: string }) => pin.id === ids[2])).toMatchObject({ status: "failed", error: 'Pinterest said "no" \u2028 twice' });
    expect(all.scheduledPins.find((pin: { id: string }) => pin.id === ids[0])).toEqual(expect.not.objectContaining({ title: expect.anything() }));
  });
});
