import { runInDurableObject } from "cloudflare:test";
import * as v from "valibot";
import { beforeAll, describe, expect, it } from "vitest";
import { SchedulingSettings } from "../../../contracts/pinterest/scheduling.ts";
import { DUPLICATE_WINDOW_MS } from "../../../workers/domain/pin-queue.ts";
import { nextFreeSlots } from "../../../workers/domain/scheduling.ts";
import { ledgerOf } from "../../../workers/ledger/client.ts";
import { bearer, json, signUpUser, type TestUser } from "../accounts/accounts-support.ts";
import {
  connectProfile,
  farWindow,
  get,
  grantCredits,
  imagePin,
  pinterestName,
  post,
  remainingCredits,
  runAlarm,
  sandboxPins,
  schedulerOf,
  type ConnectedProfile,
} from "./scheduling-support.ts";
import { app, eventually, read, sandbox, testEnv } from "../support.ts";

let alice: TestUser;
let bob: TestUser;
let aliceProfile: ConnectedProfile;
let bobProfile: ConnectedProfile;

beforeAll(async () => {
  [alice, bob] = await Promise.all([signUpUser({ firstName: "Alice" }), signUpUser({ firstName: "Bob" })]);
  [aliceProfile, bobProfile] = await Promise.all([connectProfile(alice, pinterestName("alice_sched")), connectProfile(bob, pinterestName("bob_sched"))]);
  await Promise.all([grantCredits(alice, 5000), grantCredits(bob, 100)]);
});

const schedule = (user: TestUser, body: unknown) => post(user, "/api/scheduling/schedulePin", body);
const queueOf = async (user: TestUser, profile: ConnectedProfile, query = "") =>
  read(await get(user, `/api/scheduling/getScheduledPins/${profile.username}${query}`));
const soon = (ms = 1_000) => new Date(Date.now() + ms).toISOString();

describe("scheduling settings and slots", () => {
  it("saves a profile's settings, and Queue pins take the next free slots they give", async () => {
    const user = await signUpUser({ firstName: "Nadia" });
    const profile = await connectProfile(user, pinterestName("nadia"));
    const newSettings = {
      numberOfPinsPerDay: 3,
      windowOneTimes: [32_400, 43_200],
      windowTwoTimes: null,
      timezone: { label: "New York", value: "America/New_York" },
      timeSlots: 3,
      postingIntervalInSeconds: 1_800,
    };
    const saved = await post(user, "/api/scheduling/saveSchedulingSettings", { newSettings, pinterestProfileUsername: profile.username });
    expect(saved.status).toBe(200);
    expect((await read(saved)).schedulingSettings).toMatchObject(newSettings);
    const activated = await read(await post(user, "/api/pinterestAPI/activatePinterestProfile", { username: profile.username }));
    expect(activated.schedulingSettings).toMatchObject(newSettings);

    const before = Date.now();
    const response = await schedule(user, { pins: [imagePin(profile), imagePin(profile), imagePin(profile), imagePin(profile)] });
    expect(response.status).toBe(201);
    const { scheduledPins, creditsCharged } = await read(response);
    expect(creditsCharged).toBe(4);
    const expected = nextFreeSlots(v.parse(SchedulingSettings, newSettings), new Set(), before, 4);
    expect(scheduledPins.map((p: { scheduledTimeUTCTimestamp: number }) => p.scheduledTimeUTCTimestamp)).toEqual(expected);
    // 09:00, 10:00 and 11:00 in New York, whatever the season.
    const hours = scheduledPins.map((p: { scheduledTime: string }) =>
      new Intl.DateTimeFormat("en-US", { timeZone: "America/New_York", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(
        new Date(p.scheduledTime),
      ),
    );
    for (const hour of hours) expect(["09:00", "10:00", "11:00"]).toContain(hour);

    // The next call continues after them, never reusing a slot.
    const more = await read(await schedule(user, imagePin(profile)));
    expect(more.scheduledPin.scheduledTimeUTCTimestamp).toBe(nextFreeSlots(v.parse(SchedulingSettings, newSettings), new Set(expected), before, 1)[0]);

    const queue = await queueOf(user, profile);
    expect(queue.totalCount).toBe(5);
    expect(queue.lastPinScheduledTime).toBe(more.scheduledPin.scheduledTime);
    expect(queue.scheduledPins.map((p: { status: string }) => p.status)).toEqual(["scheduled", "scheduled", "scheduled", "scheduled", "scheduled"]);
  });

  it("refuses bad settings and a profile that is not the caller's", async () => {
    const bad = await post(alice, "/api/scheduling/saveSchedulingSettings", {
      newSettings: { numberOfPinsPerDay: 0 },
      pinterestProfileUsername: aliceProfile.username,
    });
    expect(bad.status).toBe(400);
    expect(await read(bad)).toMatchObject({ field: "newSettings.numberOfPinsPerDay" });
    const zone = await post(alice, "/api/scheduling/saveSchedulingSettings", { newSettings: { timezone: { label: "x", value: "Mars/Base" } } });
    expect(zone.status).toBe(400);
    expect(await read(zone)).toMatchObject({ field: "newSettings.timezone.value" });
    const theirs = await post(bob, "/api/scheduling/saveSchedulingSettings", { newSettings: {}, pinterestProfileUsername: aliceProfile.username });
    expect(theirs.status).toBe(404);
  });
});

describe("schedulePin", () => {
  it("keeps a SpecificDate pin's time and refuses one in the past, bad input and unknown profiles", async () => {
    const at = Date.now() + 3 * 86_400_000;
    const response = await schedule(alice, imagePin(aliceProfile, { type: "SpecificDate", scheduledTime: new Date(at).toISOString() }));
    expect(response.status).toBe(201);
    expect((await read(response)).scheduledPin).toMatchObject({ type: "SpecificDate", scheduledTimeUTCTimestamp: at, status: "scheduled" });

    const past = await schedule(alice, imagePin(aliceProfile, { type: "SpecificDate", scheduledTime: new Date(Date.now() - 60_000).toISOString() }));
    expect(past.status).toBe(400);
    expect(await read(past)).toMatchObject({ field: "scheduledTime", error: "scheduledTime must be in the future" });

    const cases: [Record<string, unknown>, string][] = [
      [{ boardId: undefined }, "boardId"],
      [{ pinterestProfileUsername: undefined }, "pinterestProfileUsername"],
      [{ title: "x".repeat(101) }, "title"],
      [{ altText: "x".repeat(501) }, "altText"],
      [{ url: "ftp://linen.example/a" }, "url"],
      [{ imageURL: "" }, "imageURL"],
      [{ type: "Tomorrow" }, "type"],
      [{ type: "SpecificDate", scheduledTime: undefined }, "scheduledTime"],
      [{ type: "SpecificDate", scheduledTime: "next tuesday" }, "scheduledTime"],
      [{ mediaType: "video" }, "media_id"],
      [{ repeatIntervalInDays: 1 }, "repeatIntervalInDays"],
    ];
    for (const [fields, field] of cases) {
      const refused = await schedule(alice, imagePin(aliceProfile, fields));
      expect(refused.status, field).toBe(400);
      expect((await read(refused)).field).toBe(field);
    }
    const notJson = await app("/api/scheduling/schedulePin", {
      method: "POST",
      headers: { ...bearer(alice.tokens), "content-type": "application/json" },
      body: "{",
    });
    expect(notJson.status).toBe(400);

    const unknown = await schedule(alice, imagePin(aliceProfile, { pinterestProfileUsername: "nobody_here" }));
    expect(unknown.status).toBe(404);
    expect(await read(unknown)).toMatchObject({ field: "pinterestProfileUsername" });
    // Bob cannot schedule to Alice's profile.
    expect((await schedule(bob, imagePin(aliceProfile))).status).toBe(404);
    // Nobody signed in: no scheduling.
    expect((await app("/api/scheduling/schedulePin", json(imagePin(aliceProfile)))).status).toBe(401);
  });

  it("charges the image credit once per pin, 5 for a video, and not again when the same request is retried", async () => {
    const user = await signUpUser({ firstName: "Carmen" });
    const profile = await connectProfile(user, pinterestName("carmen"));
    await grantCredits(user, 40);
    const start = await remainingCredits(user);
    const pins = [imagePin(profile, { reference: "post-1:board-a" }), imagePin(profile, { reference: "post-2:board-a" })];
    const first = await read(await schedule(user, { pins }));
    expect(first.creditsCharged).toBe(2);
    const retried = await read(await schedule(user, { pins }));
    expect(retried.creditsCharged).toBe(0);
    expect(retried.scheduledPins.map((p: { id: string }) => p.id)).toEqual(first.scheduledPins.map((p: { id: string }) => p.id));
    expect(await remainingCredits(user)).toBe(start - 2);
    expect((await queueOf(user, profile)).totalCount).toBe(2);

    // Video pins come through /videoApi (spec section 7) and cost 5.
    const video = await post(
      user,
      "/videoApi/scheduling/schedulePin",
      imagePin(profile, { mediaType: "video", media_id: "123456789", videoThumbnail: "https://linen.example/cover.jpeg", imageURL: "" }),
    );
    expect(video.status).toBe(201);
    expect((await read(video)).creditsCharged).toBe(5);
    expect(await remainingCredits(user)).toBe(start - 7);

    const history = (await read(await post(user, "/api/user/getPinHistory", {}))).pinHistory;
    expect(
      history
        .filter((h: { action: string }) => h.action === "scheduled")
        .map((h: { credits: number }) => h.credits)
        .sort(),
    ).toEqual([1, 1, 5]);
  });

  it("schedules nothing when the credits do not cover the whole batch", async () => {
    const user = await signUpUser({ firstName: "Dmitri" });
    const profile = await connectProfile(user, pinterestName("dmitri"));
    const remaining = await remainingCredits(user);
    const pins = Array.from({ length: remaining + 1 }, () => imagePin(profile));
    const refused = await schedule(user, { pins });
    expect(refused.status).toBe(402);
    expect((await queueOf(user, profile)).totalCount).toBe(0);
    expect(await remainingCredits(user)).toBe(remaining);
  });

  it("bulk-schedules 1,000 pins in one request, refusing a call with bad input as a whole, and pages through them", async () => {
    const user = await signUpUser({ firstName: "Eun" });
    const profile = await connectProfile(user, pinterestName("eun_bulk"));
    await grantCredits(user, 2000);
    const windowOneTimes = farWindow();
    await post(user, "/api/scheduling/saveSchedulingSettings", {
      newSettings: { numberOfPinsPerDay: 100, postingIntervalInSeconds: 60, windowOneTimes, windowTwoTimes: null },
      pinterestProfileUsername: profile.username,
    });

    // One malformed pin refuses the whole call, naming it.
    const batch = Array.from({ length: 200 }, () => imagePin(profile));
    const bad = await schedule(user, { pins: batch.map((p, i) => (i === 137 ? { ...p, title: "x".repeat(120) } : p)) });
    expect(bad.status).toBe(400);
    expect(await read(bad)).toMatchObject({ field: "pins.137.title" });
    expect((await queueOf(user, profile)).totalCount).toBe(0);
    const before = await remainingCredits(user);

    // 1,000 pins in one request: all scheduled, each charged once.
    const response = await schedule(user, { pins: Array.from({ length: 1000 }, () => imagePin(profile)) });
    expect(response.status).toBe(201);
    const answer = await read(response);
    const ids: string[] = answer.scheduledPins.map((p: { id: string }) => p.id);
    expect(new Set(ids).size).toBe(1000);
    expect(answer.failedPins).toEqual([]);
    expect(answer.creditsCharged).toBe(1000);
    expect(await remainingCredits(user)).toBe(before - 1000);

    const first = await queueOf(user, profile);
    expect(first.totalCount).toBe(1000);
    expect(first.scheduledPins).toHaveLength(50);
    const times = first.scheduledPins.map((p: { scheduledTimeUTCTimestamp: number }) => p.scheduledTimeUTCTimestamp);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    const second = await queueOf(user, profile, `?lastPinId=${first.scheduledPins[49].id}`);
    expect(second.scheduledPins[0].scheduledTimeUTCTimestamp).toBeGreaterThan(times[49]);
    expect(second.scheduledPins.some((p: { id: string }) => first.scheduledPins.some((q: { id: string }) => q.id === p.id))).toBe(false);
    const newest = await queueOf(user, profile, "?sortBy=scheduledTimeUTCTimestamp-desc");
    expect(newest.scheduledPins[0].scheduledTime).toBe(first.lastPinScheduledTime);
    const badSort = await get(user, `/api/scheduling/getScheduledPins/${profile.username}?sortBy=title`);
    expect(badSort.status).toBe(400);
    expect(await read(badSort)).toMatchObject({ field: "sortBy" });
    const badCursor = await get(user, `/api/scheduling/getScheduledPins/${profile.username}?lastPinId=nosuchpin123`);
    expect(badCursor.status).toBe(400);
    expect(await read(badCursor)).toMatchObject({ field: "lastPinId" });

    // Too many in one request: refused whole, naming the field and the limit, nothing scheduled or charged.
    const tooMany = await schedule(user, { pins: Array.from({ length: 1001 }, () => imagePin(profile)) });
    expect(tooMany.status).toBe(400);
    expect(await read(tooMany)).toMatchObject({ field: "pins", error: "pins must hold at most 1,000 pins per request" });
    expect((await queueOf(user, profile)).totalCount).toBe(1000);
    expect(await remainingCredits(user)).toBe(before - 1000);
  });
});

describe("a batch with pins refused on their own", () => {
  it("schedules the others, charges only them, once, and names each refused pin with what it clashes with", async () => {
    const user = await signUpUser({ firstName: "Olu" });
    const profile = await connectProfile(user, pinterestName("olu_batch"));
    await grantCredits(user, 40);
    const board = profile.boards[0];
    const link = `https://linen.example/posts/${crypto.randomUUID()}`;
    const at = Date.UTC(2030, 10, 24, 19, 5);
    const earlier = await schedule(user, imagePin(profile, { url: link, title: "Easy One-Pan Lemon Chicken Dinner", type: "SpecificDate", scheduledTime: at }));
    expect(earlier.status).toBe(201);
    const before = await remainingCredits(user);

    // Five pins at one time: the first shares the earlier pin's link, the others do not.
    const pins = Array.from({ length: 5 }, (_, i) =>
      imagePin(profile, {
        reference: `olu-post-${i}`,
        type: "SpecificDate",
        scheduledTime: at + 3_600_000,
        ...(i === 0 ? { url: link, title: "Lemon chicken, again" } : {}),
      }),
    );
    const response = await schedule(user, { pins });
    expect(response.status).toBe(201);
    const answer = await read(response);
    expect(answer.scheduledPins.map((p: { title: string }) => p.title)).toEqual(pins.slice(1).map((p) => p.title));
    expect(answer.creditsCharged).toBe(4);
    expect(answer.failedPins).toEqual([
      {
        index: 0,
        reference: "olu-post-0",
        status: 409,
        reason: "duplicate",
        error: expect.stringContaining('"Lemon chicken, again"'),
        field: "pins.0.scheduledTime",
        conflict: { title: "Easy One-Pan Lemon Chicken Dinner", state: "scheduled", at: new Date(at).toISOString(), atUTCTimestamp: at, boardName: board.name },
      },
    ]);
    expect(await remainingCredits(user)).toBe(before - 4);
    expect((await queueOf(user, profile)).totalCount).toBe(5);

    // The same request again: the four are answered as first scheduled, nothing is charged, the first is refused again.
    const again = await read(await schedule(user, { pins }));
    expect(again.scheduledPins.map((p: { id: string }) => p.id)).toEqual(answer.scheduledPins.map((p: { id: string }) => p.id));
    expect(again.creditsCharged).toBe(0);
    expect(again.failedPins.map((f: { index: number; reason: string }) => [f.index, f.reason])).toEqual([[0, "duplicate"]]);
    expect(await remainingCredits(user)).toBe(before - 4);

    // "Post it anyway": that one pin again, allowing the duplicate, under its own reference.
    const anyway = await schedule(user, { pins: [{ ...pins[0], allowDuplicate: true }] });
    expect(anyway.status).toBe(201);
    expect(await read(anyway)).toMatchObject({
      scheduledPins: [{ title: "Lemon chicken, again", scheduledTimeUTCTimestamp: at + 3_600_000 }],
      failedPins: [],
      creditsCharged: 1,
    });
    expect(await remainingCredits(user)).toBe(before - 5);
    expect((await queueOf(user, profile)).totalCount).toBe(6);
  });

  it("refuses on its own a pin whose time passed, and answers 200 when every pin was refused", async () => {
    const user = await signUpUser({ firstName: "Pia" });
    const profile = await connectProfile(user, pinterestName("pia_batch"));
    await grantCredits(user, 10);
    const before = await remainingCredits(user);
    const late = imagePin(profile, { type: "SpecificDate", scheduledTime: Date.now() - 60_000 });
    const mixed = await schedule(user, { pins: [imagePin(profile), late] });
    expect(mixed.status).toBe(201);
    expect(await read(mixed)).toMatchObject({
      scheduledPins: [{ type: "Queue" }],
      failedPins: [{ index: 1, status: 400, reason: "past", field: "pins.1.scheduledTime", error: "scheduledTime must be in the future" }],
      creditsCharged: 1,
    });
    const none = await schedule(user, { pins: [late, { ...late, title: "Also late" }] });
    expect(none.status).toBe(200);
    expect(await read(none)).toMatchObject({
      scheduledPins: [],
      creditsCharged: 0,
      failedPins: [
        { index: 0, reason: "past" },
        { index: 1, reason: "past" },
      ],
    });
    expect(await remainingCredits(user)).toBe(before - 1);
    // A single pin's refusal is still the call's error.
    const single = await schedule(user, late);
    expect(single.status).toBe(400);
    expect(await read(single)).toMatchObject({ field: "scheduledTime" });
  });
});

describe("the 48-hour rule", () => {
  it("refuses the same link on the same board within 48 hours, unless the user insists; Queue pins keep 48 hours apart", async () => {
    const url = `https://linen.example/posts/${crypto.randomUUID()}`;
    const at = Date.now() + 5 * 86_400_000;
    const first = await schedule(alice, imagePin(aliceProfile, { url, title: "Table linen guide", type: "SpecificDate", scheduledTime: at }));
    expect(first.status).toBe(201);
    const again = await schedule(
      alice,
      imagePin(aliceProfile, {
        url: `${url}/?utm_source=pinterest#top`,
        title: "Table linen guide, take two",
        type: "SpecificDate",
        scheduledTime: at + 47 * 3_600_000,
      }),
    );
    expect(again.status).toBe(409);
    const refusal = await read(again);
    expect(refusal.field).toBe("scheduledTime");
    expect(refusal.error).toContain('"Table linen guide, take two"');
    expect(refusal.error).toContain("48 hours");

    // Another board, 48 hours later, or insisting: fine.
    expect(
      (await schedule(alice, imagePin(aliceProfile, { url, type: "SpecificDate", scheduledTime: at + 3_600_000, boardId: aliceProfile.boards[1].id }))).status,
    ).toBe(201);
    expect((await schedule(alice, imagePin(aliceProfile, { url, type: "SpecificDate", scheduledTime: at + DUPLICATE_WINDOW_MS }))).status).toBe(201);
    expect((await schedule(alice, imagePin(aliceProfile, { url, type: "SpecificDate", scheduledTime: at + 60_000, allowDuplicate: true }))).status).toBe(201);

    // Queue pins with one link on one board are placed at least 48 hours apart.
    const queued = await read(
      await schedule(alice, {
        pins: [imagePin(aliceProfile, { url: `${url}-q` }), imagePin(aliceProfile, { url: `${url}-q` }), imagePin(aliceProfile, { url: `${url}-q` })],
      }),
    );
    const times = queued.scheduledPins.map((p: { scheduledTimeUTCTimestamp: number }) => p.scheduledTimeUTCTimestamp);
    expect(times[1] - times[0]).toBeGreaterThanOrEqual(DUPLICATE_WINDOW_MS);
    expect(times[2] - times[1]).toBeGreaterThanOrEqual(DUPLICATE_WINDOW_MS);

    // Moving a pin next to its twin is refused too.
    const twin = await read(await schedule(alice, imagePin(aliceProfile, { url, type: "SpecificDate", scheduledTime: at + 4 * 86_400_000 })));
    const moved = await post(alice, "/api/scheduling/updateScheduledPin", { pin: { id: twin.scheduledPin.id, scheduledTime: at + 3_600_000 } });
    expect(moved.status).toBe(409);
    expect(await read(moved)).toMatchObject({ field: "pin.scheduledTime" });
  });
});

describe("posting", () => {
  it("posts a due pin once to its board with its title, link and alt text, and records it in pin history", async () => {
    const user = await signUpUser({ firstName: "Farah" });
    const profile = await connectProfile(user, pinterestName("farah_post"));
    await grantCredits(user, 20);
    const board = profile.boards[0];
    const section = board.sections[0];
    const pin = imagePin(profile, { type: "SpecificDate", scheduledTime: soon(1_000), sectionId: section.id, title: "Overnight oats, 5 ways" });
    const { scheduledPin } = await read(await schedule(user, pin));
    expect(scheduledPin.status).toBe("scheduled");

    // The alarm fires on its own when the pin falls due.
    const posted = await eventually(
      async () => {
        const pins = await sandboxPins(profile.username);
        return pins.length > 0 ? pins : undefined;
      },
      15_000,
      "the pin to be posted",
    );
    expect(posted).toHaveLength(1);
    expect(posted[0]).toMatchObject({
      board_id: board.id,
      board_section_id: section.id,
      title: "Overnight oats, 5 ways",
      description: pin.description,
      link: pin.url,
      alt_text: pin.altText,
      media: { source_type: "image_url", url: pin.imageURL },
    });

    const view = await eventually(
      async () => {
        const page = await queueOf(user, profile, "?status=posted");
        return page.scheduledPins[0]?.status === "posted" ? page.scheduledPins[0] : undefined;
      },
      10_000,
      "the pin to be recorded as posted",
    );
    expect(view).toMatchObject({
      id: scheduledPin.id,
      pinterestPinId: posted[0].id,
      pinterestUrl: `https://www.pinterest.com/pin/${posted[0].id}/`,
      error: null,
      attempts: 1,
    });
    expect((await queueOf(user, profile)).totalCount).toBe(0);

    // Alarms are at least once: running it again posts nothing more.
    await runInDurableObject(schedulerOf(profile), (instance) => instance.alarm());
    await runAlarm(profile);
    expect(await sandboxPins(profile.username)).toHaveLength(1);

    // One history entry for the pin: when it was scheduled for, when it was posted, its credit.
    const history = await eventually(
      async () => {
        const rows = (await read(await post(user, "/api/user/getPinHistory", {}))).pinHistory;
        return rows.some((row: { state: string }) => row.state === "posted") ? rows : undefined;
      },
      10_000,
      "the pin to be posted in the history",
    );
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({
      action: "scheduled",
      state: "posted",
      pinId: scheduledPin.id,
      scheduledFor: scheduledPin.scheduledTime,
      scheduledForUTCTimestamp: scheduledPin.scheduledTimeUTCTimestamp,
      postedAt: view.postedAt,
      title: "Overnight oats, 5 ways",
      imageUrl: pin.imageURL,
      boardName: board.name,
      pinterestProfile: profile.username,
      pinterestPinId: posted[0].id,
      pinterestUrl: `https://www.pinterest.com/pin/${posted[0].id}/`,
      credits: 1,
      category: "image",
      timeZone: "Etc/GMT",
    });
    expect(history[0].postedAtUTCTimestamp).toBeGreaterThanOrEqual(history[0].scheduledForUTCTimestamp);
    // It stays one entry once the queue forgets the pin: the posting was written to the history itself.
    const stored = await ledgerOf(testEnv, user.userId)
      .prepare("SELECT COUNT(*) AS n, MAX(posted_at) AS posted FROM pin_history WHERE user_id = ?1")
      .bind(user.userId)
      .first<{ n: number; posted: number }>();
    expect(stored).toEqual({ n: 1, posted: Date.parse(view.postedAt) });
  });

  it("ends a pin Pinterest refuses in a visible failed state with the reason", async () => {
    const user = await signUpUser({ firstName: "Gil" });
    const profile = await connectProfile(user, pinterestName("gil_fail"));
    const { scheduledPin } = await read(await schedule(user, imagePin(profile, { boardId: "999999999999", type: "SpecificDate", scheduledTime: soon(500) })));
    const failed = await eventually(
      async () => {
        const page = await queueOf(user, profile);
        return page.scheduledPins[0]?.status === "failed" ? page.scheduledPins[0] : undefined;
      },
      15_000,
      "the pin to fail",
    );
    expect(failed.id).toBe(scheduledPin.id);
    expect(failed.error).toContain("Board not found");
    expect(await sandboxPins(profile.username)).toHaveLength(0);
    expect((await queueOf(user, profile, "?status=failed")).totalCount).toBe(1);
    // The history tells the truth: failed, with the reason, not "scheduled".
    const [entry] = (await read(await post(user, "/api/user/getPinHistory", {}))).pinHistory;
    expect(entry).toMatchObject({ pinId: scheduledPin.id, state: "failed", postedAt: null, credits: 1 });
    expect(entry.error).toContain("Board not found");

    // Fixing the board queues it again; it is then posted.
    const fixed = await post(user, "/api/scheduling/updateScheduledPin", {
      pin: { id: scheduledPin.id, boardId: profile.boards[0].id, scheduledTime: soon(500) },
    });
    expect(fixed.status).toBe(200);
    expect((await read(fixed)).pin).toMatchObject({ status: "scheduled", error: null });
    await eventually(async () => ((await sandboxPins(profile.username)).length === 1 ? true : undefined), 15_000, "the fixed pin to post");
  });

  it("pauses a profile that needs reconnecting, with the reason, and resumes once it is reconnected", async () => {
    const user = await signUpUser({ firstName: "Hana" });
    const profile = await connectProfile(user, pinterestName("hana_reauth"));
    await sandbox("/pinterest/revoke", { method: "POST", json: { username: profile.username } });
    await sandbox("/pinterest/expire-token", { method: "POST", json: { username: profile.username } });
    await schedule(user, imagePin(profile, { type: "SpecificDate", scheduledTime: soon(500) }));
    const paused = await eventually(
      async () => {
        const page = await queueOf(user, profile);
        return page.scheduledPins[0]?.status === "paused" ? page.scheduledPins[0] : undefined;
      },
      15_000,
      "the pin to pause",
    );
    expect(paused.error).toContain("User needs to reauthenticate");
    expect(await sandboxPins(profile.username)).toHaveLength(0);

    await connectProfile(user, profile.username);
    expect((await queueOf(user, profile)).scheduledPins[0].status).toBe("scheduled");
    await eventually(async () => ((await sandboxPins(profile.username)).length === 1 ? true : undefined), 15_000, "the resumed pin to post");
  });

  it("posts a repeating pin again on its interval", async () => {
    const user = await signUpUser({ firstName: "Ines" });
    const profile = await connectProfile(user, pinterestName("ines_repeat"));
    await grantCredits(user, 20);
    const { scheduledPin, repeatingPins } = await read(
      await schedule(user, imagePin(profile, { type: "SpecificDate", scheduledTime: soon(3 * 86_400_000), repeatIntervalInDays: 7 })),
    );
    expect(repeatingPins).toHaveLength(1);
    const repeating = repeatingPins[0];
    expect(repeating.intervalInDays).toBe(7);
    expect(repeating.nextPinDateUTCTimestamp).toBe(scheduledPin.scheduledTimeUTCTimestamp + 7 * 86_400_000);
    const listed = await read(await get(user, `/api/scheduling/getRepeatingPins/${profile.username}`));
    expect(listed).toMatchObject({ totalCount: 1, repeatingPins: [{ id: repeating.id }] });

    // Bring its next date close: it becomes a scheduled pin that is posted, and moves on by 7 days.
    const next = Date.now() + 800;
    const updated = await post(user, "/api/scheduling/updateRepeatingPin", { pin: { id: repeating.id, nextPinDate: next, title: "Weekly linen tip" } });
    expect(updated.status).toBe(200);
    expect(await read(updated)).toMatchObject({ message: "Updated pins successfully", pin: { title: "Weekly linen tip" } });
    const posted = await eventually(
      async () => {
        const pins = await sandboxPins(profile.username);
        return pins.length > 0 ? pins : undefined;
      },
      15_000,
      "the repeated pin to post",
    );
    expect(posted[0].title).toBe("Weekly linen tip");
    const after = await read(await get(user, `/api/scheduling/getRepeatingPins/${profile.username}`));
    expect(after.repeatingPins[0].nextPinDateUTCTimestamp).toBe(next + 7 * 86_400_000);
    expect(after.repeatingPins[0].occurrences).toBe(2);

    const many = await post(user, "/api/scheduling/updateRepeatingPins", {
      pinterestUsername: profile.username,
      pinsToUpdate: [{ id: repeating.id, intervalInDays: 14 }],
    });
    expect((await read(many)).pins[0].intervalInDays).toBe(14);
    const badInterval = await post(user, "/api/scheduling/updateRepeatingPins", {
      pinterestUsername: profile.username,
      pinsToUpdate: [{ id: repeating.id, intervalInDays: 0 }],
    });
    expect(badInterval.status).toBe(400);
    expect(await read(badInterval)).toMatchObject({ field: "pinsToUpdate.0.intervalInDays" });

    expect((await post(bob, "/api/scheduling/deleteRepeatingPin", { pinId: repeating.id })).status).toBe(404);
    expect((await post(bob, "/api/scheduling/updateRepeatingPin", { pin: { id: repeating.id, title: "mine now" } })).status).toBe(404);
    expect((await get(bob, `/api/scheduling/getRepeatingPins/${profile.username}`)).status).toBe(404);
    const deleted = await post(user, "/api/scheduling/deleteRepeatingPin", { pinId: repeating.id });
    expect(deleted.status).toBe(200);
    expect((await read(await get(user, `/api/scheduling/getRepeatingPins/${profile.username}`))).totalCount).toBe(0);
  });
});

describe("changing the queue", () => {
  it("updates, reorders, deletes, re-slots and clears pins", async () => {
    const user = await signUpUser({ firstName: "Jonas" });
    const profile = await connectProfile(user, pinterestName("jonas_edit"));
    await grantCredits(user, 50);
    const { scheduledPins } = await read(await schedule(user, { pins: [imagePin(profile), imagePin(profile), imagePin(profile)] }));
    const [a, b, c] = scheduledPins;

    const edited = await post(user, "/api/scheduling/updateScheduledPin", { pin: { id: a.id, title: "Better title", altText: "Better alt text" } });
    expect(edited.status).toBe(200);
    expect(await read(edited)).toMatchObject({
      message: "Updated pins successfully",
      pin: { id: a.id, title: "Better title", altText: "Better alt text", scheduledTime: a.scheduledTime },
    });

    // Reorder: swap the first two times in one call.
    const swapped = await post(user, "/api/scheduling/updateScheduledPins", {
      pinterestUsername: profile.username,
      pinsToUpdate: [
        { id: a.id, scheduledTime: b.scheduledTimeUTCTimestamp },
        { id: b.id, scheduledTime: a.scheduledTimeUTCTimestamp },
      ],
    });
    expect(swapped.status).toBe(200);
    expect((await read(swapped)).message).toBe("Updated pins successfully");
    const order = (await queueOf(user, profile)).scheduledPins.map((p: { id: string }) => p.id);
    expect(order).toEqual([b.id, a.id, c.id]);

    // All or nothing: one pin in the past refuses the whole call.
    const partial = await post(user, "/api/scheduling/updateScheduledPins", {
      pinterestUsername: profile.username,
      pinsToUpdate: [
        { id: c.id, title: "Changed" },
        { id: a.id, scheduledTime: Date.now() - 1000 },
      ],
    });
    expect(partial.status).toBe(400);
    expect(await read(partial)).toMatchObject({ field: "pinsToUpdate.1.scheduledTime" });
    expect((await queueOf(user, profile)).scheduledPins.find((p: { id: string }) => p.id === c.id).title).not.toBe("Changed");
    const unknownPin = await post(user, "/api/scheduling/updateScheduledPins", { pinterestUsername: profile.username, pinsToUpdate: [{ id: "nosuchpin123" }] });
    expect(unknownPin.status).toBe(404);

    // Reset: Queue pins take the first free slots from now again, in queue order.
    await post(user, "/api/scheduling/updateScheduledPin", { pin: { id: c.id, scheduledTime: Date.now() + 30 * 86_400_000 } });
    const reset = await get(user, `/highMemLimitApi/scheduling/resetScheduledTimes/${profile.username}`);
    expect(reset.status).toBe(200);
    expect((await read(reset)).updatedCount).toBe(3);
    const afterReset = (await queueOf(user, profile)).scheduledPins;
    expect(afterReset.map((p: { id: string }) => p.id)).toEqual([b.id, a.id, c.id]);
    expect(afterReset[2].scheduledTimeUTCTimestamp - Date.now()).toBeLessThan(3 * 86_400_000);

    const deleted = await post(user, "/api/scheduling/deleteScheduledPin", { pinId: b.id });
    expect(deleted.status).toBe(200);
    expect((await queueOf(user, profile)).totalCount).toBe(2);
    expect((await post(user, "/api/scheduling/deleteScheduledPin", { pinId: b.id })).status).toBe(404);
    const badId = await post(user, "/api/scheduling/deleteScheduledPin", { pinId: "../x" });
    expect(badId.status).toBe(400);
    expect(await read(badId)).toMatchObject({ field: "pinId" });

    const cleared = await post(user, "/highMemLimitApi/scheduling/deleteAllScheduledPins", { pinterestProfileUsername: profile.username });
    expect(cleared.status).toBe(200);
    expect(await read(cleared)).toMatchObject({ message: "Deleted all scheduled pins successfully", deletedCount: 2 });
    expect((await queueOf(user, profile)).totalCount).toBe(0);
  });

  it("clears a profile's queue when the profile is removed", async () => {
    const user = await signUpUser({ firstName: "Kofi" });
    const profile = await connectProfile(user, pinterestName("kofi_remove"));
    await schedule(user, { pins: [imagePin(profile), imagePin(profile)] });
    expect(await schedulerOf(profile).counts()).toMatchObject({ scheduled: 2 });
    expect((await post(user, "/api/pinterestAPI/removeAuthorizedPinterestProfile", { username: profile.username })).status).toBe(200);
    expect(await schedulerOf(profile).counts()).toMatchObject({ scheduled: 0 });
  });
});

describe("another user's profile and pins", () => {
  it("are untouchable: every call answers 404 and changes nothing", async () => {
    const { scheduledPin } = await read(await schedule(alice, imagePin(aliceProfile, { title: "Alice's own pin" })));
    const attempts: [string, Response][] = [
      ["getScheduledPins", await get(bob, `/api/scheduling/getScheduledPins/${aliceProfile.username}`)],
      ["getRepeatingPins", await get(bob, `/api/scheduling/getRepeatingPins/${aliceProfile.username}`)],
      ["updateScheduledPin", await post(bob, "/api/scheduling/updateScheduledPin", { pin: { id: scheduledPin.id, title: "Bob was here" } })],
      [
        "updateScheduledPins",
        await post(bob, "/api/scheduling/updateScheduledPins", {
          pinterestUsername: aliceProfile.username,
          pinsToUpdate: [{ id: scheduledPin.id, title: "Bob was here" }],
        }),
      ],
      [
        "updateScheduledPins (own profile)",
        await post(bob, "/api/scheduling/updateScheduledPins", {
          pinterestUsername: bobProfile.username,
          pinsToUpdate: [{ id: scheduledPin.id, title: "Bob was here" }],
        }),
      ],
      ["deleteScheduledPin", await post(bob, "/api/scheduling/deleteScheduledPin", { pinId: scheduledPin.id })],
      ["deleteRepeatingPin", await post(bob, "/api/scheduling/deleteRepeatingPin", { pinId: scheduledPin.id })],
      [
        "updateRepeatingPins",
        await post(bob, "/api/scheduling/updateRepeatingPins", { pinterestUsername: aliceProfile.username, pinsToUpdate: [{ id: scheduledPin.id }] }),
      ],
      ["resetScheduledTimes", await get(bob, `/highMemLimitApi/scheduling/resetScheduledTimes/${aliceProfile.username}`)],
      ["deleteAllScheduledPins", await post(bob, "/highMemLimitApi/scheduling/deleteAllScheduledPins", { pinterestProfileUsername: aliceProfile.username })],
    ];
    for (const [call, response] of attempts) expect(response.status, call).toBe(404);
    const mine = (await queueOf(alice, aliceProfile)).scheduledPins.find((p: { id: string }) => p.id === scheduledPin.id);
    expect(mine).toMatchObject({ title: "Alice's own pin", status: "scheduled" });
    const bobsHistory = (await read(await post(bob, "/api/user/getPinHistory", {}))).pinHistory;
    expect(bobsHistory.some((row: { title: string }) => row.title === "Alice's own pin")).toBe(false);
  });
});

describe("pin history", () => {
  it("is one entry per pin, with the time it is scheduled for as its queue has it, and says when it was deleted", async () => {
    const user = await signUpUser({ firstName: "Quinn" });
    const profile = await connectProfile(user, pinterestName("quinn_history"));
    await grantCredits(user, 10);
    await post(user, "/api/scheduling/saveSchedulingSettings", {
      newSettings: { timezone: { label: "New York", value: "America/New_York" }, windowOneTimes: farWindow(), windowTwoTimes: null },
      pinterestProfileUsername: profile.username,
    });
    const clickedAt = Date.now();
    const { scheduledPins } = await read(
      await schedule(user, { pins: [imagePin(profile, { title: "Queued pin" }), imagePin(profile, { title: "Pin to delete" })] }),
    );
    const history = async () =>
      (await read(await post(user, "/api/user/getPinHistory", {}))).pinHistory as {
        title: string;
        state: string;
        scheduledForUTCTimestamp: number;
        timeZone: string;
      }[];
    const entry = async (title: string) => (await history()).find((row) => row.title === title)!;
    expect(await history()).toHaveLength(2);
    const queued = await entry("Queued pin");
    expect(queued).toMatchObject({
      state: "scheduled",
      scheduledForUTCTimestamp: scheduledPins[0].scheduledTimeUTCTimestamp,
      postedAt: null,
      credits: 1,
      timeZone: "America/New_York",
    });
    expect(queued.scheduledForUTCTimestamp, "when it posts, not when it was clicked").toBeGreaterThan(clickedAt + 3_600_000);

    // Moved in the queue: the history follows.
    const moved = Date.now() + 9 * 86_400_000;
    expect((await post(user, "/api/scheduling/updateScheduledPin", { pin: { id: scheduledPins[0].id, scheduledTime: moved } })).status).toBe(200);
    expect(await entry("Queued pin")).toMatchObject({ state: "scheduled", scheduledForUTCTimestamp: moved });
    // Deleted before it posted: it says so, and keeps the credit it cost.
    expect((await post(user, "/api/scheduling/deleteScheduledPin", { pinId: scheduledPins[1].id })).status).toBe(200);
    expect(await entry("Pin to delete")).toMatchObject({ state: "deleted", credits: 1 });
    // A disconnected profile's pins were taken out of its queue.
    expect((await post(user, "/api/pinterestAPI/removeAuthorizedPinterestProfile", { username: profile.username })).status).toBe(200);
    expect(await entry("Queued pin")).toMatchObject({ state: "deleted", timeZone: null });
  });

  it("merges the two entries older versions wrote for a posted pin into one (migration 0011)", async () => {
    const user = await signUpUser({ firstName: "Rosa" });
    const migration = testEnv.TEST_MIGRATIONS.find((m: { name: string }) => m.name.startsWith("0011_"));
    expect(migration, "migration 0011").toBeDefined();
    // What the old code wrote: a "scheduled" entry when charged, a second "pinned" one (0 credits) when posted, and a download.
    const ledger = ledgerOf(testEnv, user.userId);
    const scheduledAt = 1_790_000_000_000;
    const postedAt = scheduledAt + 60_000;
    const legacy = (id: string, action: string, credits: number, reference: string, createdAt: number, pinterestPinId: string | null) =>
      ledger
        .prepare(
          `INSERT INTO pin_history (id, user_id, action, category, credits, title, url, image_url, board_id, board_name, pinterest_profile, pinterest_pin_id, reference, created_at)
         VALUES (?1, ?2, ?3, 'image', ?4, 'Old oats', 'https://linen.example/oats', 'https://linen.example/oats.jpeg', 'b1', 'Breakfast', 'old_profile', ?5, ?6, ?7)`,
        )
        .bind(id, user.userId, action, credits, pinterestPinId, reference, createdAt);
    await ledger.batch([
      legacy(crypto.randomUUID(), "scheduled", 1, "scheduled:oldpin0001", scheduledAt - 86_400_000, null),
      legacy(crypto.randomUUID(), "pinned", 0, "pinned:oldpin0001", postedAt, "98765"),
      legacy(crypto.randomUUID(), "downloaded", 1, "pin-download:abc", scheduledAt - 2 * 86_400_000, null),
    ]);
    // Its data statements, run again over these rows (its columns and index exist already).
    const dataStatements = (migration!.queries as string[])
      .map((query) => query.replace(/^--.*$/gm, "").trim())
      .filter((query) => /^(UPDATE|DELETE)/i.test(query));
    expect(dataStatements.length).toBeGreaterThanOrEqual(4);
    await ledger.batch(dataStatements.map((query) => ledger.prepare(query)));

    const rows = (await read(await post(user, "/api/user/getPinHistory", {}))).pinHistory;
    expect(rows.map((row: { state: string }) => row.state)).toEqual(["posted", "downloaded"]);
    expect(rows[0]).toMatchObject({
      action: "scheduled",
      pinId: "oldpin0001",
      credits: 1,
      postedAtUTCTimestamp: postedAt,
      pinterestPinId: "98765",
      pinterestUrl: "https://www.pinterest.com/pin/98765/",
    });
    expect(rows[1]).toMatchObject({ action: "downloaded", credits: 1, scheduledFor: null, postedAt: null });
  });

  it("answers pages of 30, newest first, older than startAtDate", async () => {
    const user = await signUpUser({ firstName: "Lena" });
    const profile = await connectProfile(user, pinterestName("lena_history"));
    await grantCredits(user, 100);
    await schedule(user, { pins: Array.from({ length: 45 }, (_, i) => imagePin(profile, { title: `History pin ${i}` })) });
    const first = (await read(await post(user, "/api/user/getPinHistory", {}))).pinHistory;
    expect(first).toHaveLength(30);
    const times = first.map((row: { createdAtUTCTimestamp: number }) => row.createdAtUTCTimestamp);
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const last = first[29];
    const second = (await read(await post(user, "/api/user/getPinHistory", { startAtDate: last.createdAt, lastId: last.id }))).pinHistory;
    expect(second).toHaveLength(15);
    const all = new Set([...first, ...second].map((row: { id: string }) => row.id));
    expect(all.size).toBe(45);
    const bad = await post(user, "/api/user/getPinHistory", { startAtDate: "yesterday" });
    expect(bad.status).toBe(400);
    expect(await read(bad)).toMatchObject({ field: "startAtDate" });
  });
});
