import { runInDurableObject } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { AnalyticsOverview, AnalyticsPinsPage } from "../../../contracts/pinterest/analytics.ts";
import { type AnalyticsStep, PinAnalytics } from "../../../durable-objects/scheduler/analytics.ts";
import { QueueStore } from "../../../durable-objects/scheduler/queue-store.ts";
import { database } from "../../../workers/db/client.ts";
import { pinterestProfiles, users } from "../../../workers/db/schema.ts";
import { encodePng } from "../../../workers/render/overlay.ts";
import { labelPicture, TEMPLATE_FAMILY_KEYWORD } from "../../../workers/render/picture-label.ts";
import { isoWeek, sendWeeklySummaries } from "../../../workers/services/pinterest/analytics.ts";
import { bearer, json, outboxFor, signUpUser, signUpVerifiedUser, type TestUser } from "../accounts/accounts-support.ts";
import { app, read, sandbox, testEnv } from "../support.ts";
import { connectProfile, get, grantCredits, imagePin, pinterestName, post, schedulerOf, type ConnectedProfile } from "./scheduling-support.ts";

// Insights (issue 41, docs/decisions/093-insights.md): the daily sync of each profile's figures in its
// ProfileScheduler, under the stand-in's faults, the rollups the analytics calls read, retention, scope, the schedule
// request's origin fields and the weekly summary e-mail.

const DAY_MS = 86_400_000;
const utcDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

interface DayFigures {
  date: string;
  ready: boolean;
  IMPRESSION: number;
  SAVE: number;
  PIN_CLICK: number;
  OUTBOUND_CLICK: number;
}

/** A picture with its template family written in, handed to the stand-in for the pin's image address. */
async function handPicture(url: string, family: string | null) {
  const png = encodePng({ width: 2, height: 2, data: new Uint8Array(16).fill(180) });
  const bytes = family ? labelPicture(png, TEMPLATE_FAMILY_KEYWORD, family) : png;
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  await sandbox("/pinterest/pictures", { method: "PUT", json: { url, data: btoa(binary), contentType: "image/png" } });
}

/** Schedules pins with their origin, posts them (due now), and makes them `ageDays` old on both sides. */
async function postPins(user: TestUser, profile: ConnectedProfile, origins: Record<string, unknown>[], ageDays: number) {
  const pins = origins.map((origin, index) => {
    const pin = imagePin(profile, { type: "SpecificDate", scheduledTime: Date.now() + 3_600_000 + index * 60_000, ...origin });
    return pin;
  });
  for (const [index, pin] of pins.entries()) await handPicture(pin.imageURL, (origins[index].templateFamily as string | undefined) ?? null);
  const scheduled = await post(user, "/api/scheduling/schedulePin", { pins });
  expect(scheduled.status).toBe(201);
  const scheduler = schedulerOf(profile);
  await runInDurableObject(scheduler, (_instance, state) => {
    state.storage.sql.exec(`UPDATE pins SET next_attempt_at = 0, scheduled_time = ? WHERE status = 'scheduled'`, Date.now() - 1000);
  });
  for (let i = 0; i < 10; i += 1) {
    await runInDurableObject(scheduler, (instance) => instance.rerunAlarm());
    const counts = await scheduler.counts();
    if (counts.posted === pins.length) break;
  }
  expect((await scheduler.counts()).posted).toBe(pins.length);
  if (ageDays > 0) {
    await sandbox("/pinterest/analytics/age-pins", { method: "POST", json: { username: profile.username, days: ageDays } });
    expect((await read(await post(user, "/api/dev/analytics/backdate", { pinterestProfileUsername: profile.username, days: ageDays }))).pins).toBe(pins.length);
  }
}

async function syncNow(user: TestUser, profile: ConnectedProfile, extra: Record<string, unknown> = {}): Promise<AnalyticsStep[]> {
  const response = await post(user, "/api/dev/analytics/sync", { pinterestProfileUsername: profile.username, ...extra });
  expect(response.status).toBe(200);
  return (await read(response)).steps;
}

async function figures(profile: ConnectedProfile, from: string, to: string) {
  return sandbox<{ id: string; family: string | null; days: DayFigures[] }[]>(
    `/pinterest/analytics/figures?username=${profile.username}&start_date=${from}&end_date=${to}`,
  );
}

async function overview(user: TestUser, profile: ConnectedProfile, days: number): Promise<AnalyticsOverview> {
  const response = await get(user, `/api/analytics/overview?username=${profile.username}&days=${days}`);
  expect(response.status).toBe(200);
  return read(response);
}

function sumOf(days: DayFigures[], from: string, to: string) {
  const inWindow = days.filter((day) => day.ready && day.date >= from && day.date <= to);
  const total = (metric: "IMPRESSION" | "SAVE" | "PIN_CLICK" | "OUTBOUND_CLICK") => inWindow.reduce((n, day) => n + day[metric], 0);
  return { impressions: total("IMPRESSION"), saves: total("SAVE"), pinClicks: total("PIN_CLICK"), outboundClicks: total("OUTBOUND_CLICK") };
}

async function expectOverviewMatchesStandIn(user: TestUser, profile: ConnectedProfile, days: number) {
  const view = await overview(user, profile, days);
  const standIn = await figures(profile, view.from, view.to);
  const expected = sumOf(
    standIn.flatMap((pin) => pin.days),
    view.from,
    view.to,
  );
  expect(view.totals).toMatchObject(expected);
  for (const day of view.daily) {
    const onDay = sumOf(
      standIn.flatMap((pin) => pin.days.filter((d) => d.date === day.date)),
      day.date,
      day.date,
    );
    expect({ date: day.date, impressions: day.impressions, saves: day.saves }).toEqual({ date: day.date, impressions: onDay.impressions, saves: onDay.saves });
  }
  return view;
}

let user: TestUser;
beforeAll(async () => {
  user = await signUpUser({ firstName: "Ines" });
  await grantCredits(user, 200);
});

describe("the daily sync and the rollups", () => {
  it("ties each pin's figures to its template, family, source, board and posting hour, and the reads add up to the stand-in's figures", async () => {
    const profile = await connectProfile(user, pinterestName("ines_rollups"));
    await postPins(
      user,
      profile,
      [
        { templateId: "tpl-quote", templateTitle: "Bold quote", templateFamily: "quote", source: "blog" },
        { templateId: "tpl-quote", templateTitle: "Bold quote", templateFamily: "quote", source: "blog" },
        { templateId: "tpl-quote", templateTitle: "Bold quote", templateFamily: "quote", source: "feed" },
        { templateId: "tpl-product", templateTitle: "Price tag", templateFamily: "product", source: "shop" },
        { templateId: "tpl-product", templateTitle: "Price tag", templateFamily: "product", source: "shop" },
        {},
      ],
      20,
    );
    const steps = await syncNow(user, profile);
    expect(steps.at(-1)).toMatchObject({ done: true, stopped: null });
    expect(steps.reduce((n, step) => n + step.pinsRead, 0)).toBe(6);

    const month = await expectOverviewMatchesStandIn(user, profile, 30);
    expect(month).toMatchObject({ username: profile.username, days: 30, pins: 6, timeZone: "Etc/GMT", weeklySummary: false });
    expect(month.daily).toHaveLength(30);
    expect(month.syncedAt).toBeGreaterThan(Date.now() - 60_000);
    expect(month.totals.impressions).toBeGreaterThan(0);
    // The whole profile (Pinterest's account totals: our pins and the account's others) over the same days.
    expect(month.profile?.daily).toHaveLength(30);
    expect(month.profile?.totals.impressions).toBeGreaterThan(month.totals.impressions);
    const families = Object.fromEntries(month.breakdowns.templateFamily.map((row) => [row.key, row]));
    expect(families.quote).toMatchObject({ label: "Quote", pins: 3 });
    expect(families.product).toMatchObject({ label: "Product", pins: 2 });
    expect(families[""]).toMatchObject({ label: "No template family", pins: 1 });
    expect(Object.fromEntries(month.breakdowns.source.map((row) => [row.key, row.pins]))).toEqual({ blog: 2, feed: 1, shop: 2, other: 1 });
    expect(month.breakdowns.template.find((row) => row.key === "tpl-quote")).toMatchObject({ label: "Bold quote", pins: 3 });
    expect(month.breakdowns.board).toEqual([expect.objectContaining({ key: profile.boards[0].id, label: profile.boards[0].name, pins: 6 })]);
    const hour = new Date().getUTCHours();
    expect(month.breakdowns.hour.map((row) => row.key)).toContain(String(hour).padStart(2, "0"));
    // The stand-in read each family from the picture: its figures know them too.
    const standIn = await figures(profile, month.from, month.to);
    expect(standIn.map((pin) => pin.family).sort()).toEqual([null, "product", "product", "quote", "quote", "quote"]);
    await expectOverviewMatchesStandIn(user, profile, 7);

    // The pins page, highest first, in pages that neither skip nor repeat a pin.
    const seen: string[] = [];
    let cursor: string | null = null;
    let previous = Number.POSITIVE_INFINITY;
    do {
      const response = await get(
        user,
        `/api/analytics/pins?username=${profile.username}&days=30&sortBy=impressions&limit=4${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
      );
      expect(response.status).toBe(200);
      const page: AnalyticsPinsPage = await read(response);
      expect(page.total).toBe(6);
      for (const pin of page.pins) {
        expect(pin.impressions).toBeLessThanOrEqual(previous);
        previous = pin.impressions;
        seen.push(pin.pinId);
      }
      cursor = page.nextCursor;
    } while (cursor);
    expect(new Set(seen).size).toBe(6);
    const page: AnalyticsPinsPage = await read(await get(user, `/api/analytics/pins?username=${profile.username}&days=90&sortBy=saves`));
    expect(page.pins[0]).toMatchObject({ boardName: profile.boards[0].name, pinterestUrl: expect.stringContaining(page.pins[0].pinterestPinId) });
    expect(page.pins.filter((pin) => pin.templateFamily === "quote").map((pin) => pin.templateTitle)).toEqual(["Bold quote", "Bold quote", "Bold quote"]);

    // The CSV export: a header and one row per pin.
    const csv = await get(user, `/api/analytics/export?username=${profile.username}&days=30`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    const lines = (await csv.text()).trim().split(/\r?\n/);
    expect(lines[0]).toContain("Impressions");
    expect(lines).toHaveLength(7);

    // Six pins are below the minimum sample: the defaults, with a note saying so.
    const best = await read(await get(user, `/api/analytics/bestTimes?username=${profile.username}`));
    expect(best).toMatchObject({ basedOn: "defaults", sample: 6, minimumSample: 30, windowOneTimes: [72_000, 82_800], windowTwoTimes: [7_200, 14_400] });
    expect(best.note).toContain("6 so far");
    const families90 = await read(await get(user, "/api/analytics/families"));
    expect(families90.enough).toBe(false);
    expect(families90.families.map((family: { family: string }) => family.family).sort()).toEqual(["product", "quote"]);
  });

  it("after a 429 waits until Pinterest's reset, then reads on without a lost or a doubled day", async () => {
    const profile = await connectProfile(user, pinterestName("ines_limited"));
    await postPins(user, profile, [{ templateFamily: "list" }, { templateFamily: "split" }], 10);
    await sandbox("/faults", {
      method: "POST",
      json: {
        service: "pinterest",
        path: "/v5/pins/analytics",
        status: 429,
        times: 1,
        headers: { "x-ratelimit-reset": "40", "retry-after": "40" },
        body: { code: 8, message: "This request exceeded a rate limit." },
      },
    });
    const before = Date.now();
    const limited = await syncNow(user, profile);
    expect(limited).toHaveLength(1);
    expect(limited[0]).toMatchObject({ requests: 1, pinsRead: 0, done: false });
    expect(limited[0].waitingUntil).toBeGreaterThanOrEqual(before + 40_000);
    expect(limited[0].waitingUntil).toBeLessThan(Date.now() + 41_000);
    // The alarm rings at the reset, not before.
    const alarm = await runInDurableObject(schedulerOf(profile), (_instance, state) => state.storage.getAlarm());
    expect(alarm).toBe(limited[0].waitingUntil);

    expect((await syncNow(user, profile)).at(-1)).toMatchObject({ done: true });
    const first = await expectOverviewMatchesStandIn(user, profile, 30);
    // The same days read again (a second pass) overwrite, never add.
    expect((await syncNow(user, profile)).at(-1)).toMatchObject({ done: true });
    const again = await expectOverviewMatchesStandIn(user, profile, 30);
    expect(again.totals).toEqual(first.totals);
  });

  it("after a 5xx backs off and tries again later", async () => {
    const profile = await connectProfile(user, pinterestName("ines_outage"));
    await postPins(user, profile, [{ templateFamily: "collage" }], 5);
    await sandbox("/faults", { method: "POST", json: { service: "pinterest", path: "/v5/pins/analytics", status: 503, times: 1 } });
    const before = Date.now();
    const failed = await syncNow(user, profile);
    expect(failed[0]).toMatchObject({ requests: 1, pinsRead: 0, done: false });
    expect(failed[0].waitingUntil).toBeGreaterThanOrEqual(before + 5 * 60_000);
    const retried = await syncNow(user, profile);
    expect(retried.at(-1)).toMatchObject({ done: true });
    expect(retried.reduce((n, step) => n + step.pinsRead, 0)).toBe(1);
    await expectOverviewMatchesStandIn(user, profile, 7);
  });

  it("refreshes an expired token once and reads on", async () => {
    const profile = await connectProfile(user, pinterestName("ines_expired"));
    await postPins(user, profile, [{ templateFamily: "quote" }], 3);
    await sandbox("/pinterest/expire-token", { method: "POST", json: { username: profile.username } });
    const steps = await syncNow(user, profile);
    expect(steps.at(-1)).toMatchObject({ done: true });
    expect(steps[0]).toMatchObject({ pinsRead: 1 });
    const row = await database(testEnv.DB).query.pinterestProfiles.findFirst({ where: eq(pinterestProfiles.id, profile.profileId) });
    expect(row?.status).toBe("ok");
    await expectOverviewMatchesStandIn(user, profile, 7);
  });

  it("stops on a revoked token and marks the profile for reconnecting, as posting does", async () => {
    const profile = await connectProfile(user, pinterestName("ines_revoked"));
    await postPins(user, profile, [{ templateFamily: "quote" }], 3);
    await sandbox("/pinterest/revoke", { method: "POST", json: { username: profile.username } });
    expect((await syncNow(user, profile)).at(-1)).toMatchObject({ stopped: "reauth", pinsRead: 0 });
    const row = await database(testEnv.DB).query.pinterestProfiles.findFirst({ where: eq(pinterestProfiles.id, profile.profileId) });
    expect(row?.status).toBe("reauth");
    // Nothing more is asked of Pinterest until the profile is reconnected.
    expect(await syncNow(user, profile)).toEqual([{ requests: 0, pinsRead: 0, done: false, waitingUntil: null, stopped: "reauth" }]);
  });

  it("forgets daily figures older than 90 days", async () => {
    const profile = await connectProfile(user, pinterestName("ines_retention"));
    await postPins(user, profile, [{ templateFamily: "list" }], 3);
    const scheduler = schedulerOf(profile);
    const old = utcDate(Date.now() - 95 * DAY_MS);
    await runInDurableObject(scheduler, (_instance, state) => {
      const pin = state.storage.sql.exec<{ id: string }>(`SELECT id FROM pins WHERE status = 'posted'`).one();
      state.storage.sql.exec(
        `INSERT INTO analytics_days (pin_id, date, impressions, saves, pin_clicks, outbound_clicks) VALUES (?, ?, 500, 5, 5, 5)`,
        pin.id,
        old,
      );
    });
    const dailyRow = () =>
      runInDurableObject(scheduler, (_instance, state) => state.storage.sql.exec(`SELECT COUNT(*) AS n FROM analytics_daily WHERE date = ?`, old).one().n);
    expect(await dailyRow()).toBe(1);
    expect((await syncNow(user, profile)).at(-1)).toMatchObject({ done: true });
    const left = await runInDurableObject(scheduler, (_instance, state) => ({
      days: state.storage.sql.exec(`SELECT COUNT(*) AS n FROM analytics_days WHERE date < ?`, utcDate(Date.now() - 89 * DAY_MS)).one().n,
      daily: state.storage.sql.exec(`SELECT COUNT(*) AS n FROM analytics_daily WHERE date = ?`, old).one().n,
    }));
    expect(left).toEqual({ days: 0, daily: 0 });
    await expectOverviewMatchesStandIn(user, profile, 90);
  });
});

describe("the rollups at scale", () => {
  it("are built a chunk of pins per ring, and the reads keep the previous build until the next is whole", async () => {
    const stub = testEnv.PROFILE_SCHEDULER.get(testEnv.PROFILE_SCHEDULER.idFromName(`analytics-chunks-${crypto.randomUUID()}`));
    await runInDurableObject(stub, (_instance, state) => {
      const store = new QueueStore(state.storage);
      const analytics = new PinAnalytics(testEnv, store);
      // biome-ignore lint/suspicious/noExplicitAny: the pass's steps, driven one by one without Pinterest.
      const steps = analytics as any;
      const sql = state.storage.sql;
      const now = Date.now();
      const yesterday = utcDate(now - DAY_MS);
      for (let i = 0; i < 600; i += 1) {
        const id = `pin${String(i).padStart(4, "0")}`;
        sql.exec(
          `INSERT INTO analytics_pins (pin_id, pinterest_pin_id, posted_at, posted_date, hour, weekday, board_id, board_name, source, title, image_url, family)
           VALUES (?, ?, ?, ?, ?, ?, 'b1', 'Table', 'blog', ?, 'https://x.test/p.jpg', ?)`,
          id,
          String(1e15 + i),
          now - 3 * DAY_MS,
          utcDate(now - 3 * DAY_MS),
          i % 24,
          i % 7,
          `Pin ${i}`,
          i % 2 ? "quote" : "list",
        );
        for (const back of [1, 2, 3])
          sql.exec(
            `INSERT INTO analytics_days (pin_id, date, impressions, saves, pin_clicks, outbound_clicks) VALUES (?, ?, 10, 1, 1, 1)`,
            id,
            utcDate(now - back * DAY_MS),
          );
      }
      const build = () => {
        steps.startSums(now);
        let rings = 0;
        while (store.meta("analytics_phase") === "sum") {
          steps.sumChunk(now);
          rings += 1;
          if (rings === 1) expect(analytics.overview(7).pins, "the reads keep the previous build").toBe(first ? 0 : 600);
        }
        return rings;
      };
      let first = true;
      expect(build()).toBe(3);
      const week = analytics.overview(7);
      expect(week).toMatchObject({ to: yesterday, pins: 600, totals: { impressions: 18_000, saves: 1_800, pinClicks: 1_800, outboundClicks: 1_800 } });
      expect(Object.fromEntries(week.breakdowns.templateFamily.map((row) => [row.key, row.pins]))).toEqual({ list: 300, quote: 300 });
      expect(analytics.audience().reduce((n, cell) => n + cell.pins, 0)).toBe(600);
      first = false;
      build();
      // The old build goes a chunk at a time, then the day's pass is over.
      let drops = 0;
      while (store.meta("analytics_phase") === "drop") {
        steps.dropOldGenerations(now);
        drops += 1;
      }
      expect(drops).toBe(1);
      expect(sql.exec(`SELECT COUNT(*) AS n FROM analytics_pin_totals`).one().n).toBe(1_800);
      expect(analytics.overview(30).pins).toBe(600);
    });
  });
});

describe("scope and input", () => {
  it("answers 401 signed out, 403 for another user's profile, and 400 naming the field for bad parameters", async () => {
    const profile = await connectProfile(user, pinterestName("ines_scope"));
    const other = await signUpUser({ firstName: "Tove" });
    for (const path of [
      `/api/analytics/overview?username=${profile.username}&days=30`,
      `/api/analytics/pins?username=${profile.username}`,
      `/api/analytics/bestTimes?username=${profile.username}`,
      `/api/analytics/export?username=${profile.username}&days=7`,
    ]) {
      expect((await app(path)).status).toBe(401);
      const denied = await get(other, path);
      expect(denied.status).toBe(403);
      expect(await read(denied)).toMatchObject({ field: "username" });
      expect((await get(user, path)).status).toBe(200);
    }
    expect((await app("/api/analytics/families")).status).toBe(401);
    for (const [query, field] of [
      [`username=${profile.username}&days=14`, "days"],
      ["days=30", "username"],
    ] as const) {
      const response = await get(user, `/api/analytics/overview?${query}`);
      expect(response.status).toBe(400);
      expect(await read(response)).toMatchObject({ field });
    }
    for (const [query, field] of [
      ["sortBy=clicks", "sortBy"],
      ["limit=0", "limit"],
      ["limit=500", "limit"],
      ["cursor=nope", "cursor"],
    ] as const) {
      const response = await get(user, `/api/analytics/pins?username=${profile.username}&${query}`);
      expect(response.status, query).toBe(400);
      expect(await read(response)).toMatchObject({ field });
    }
  });

  it("takes the pin's origin with the schedule request and names a bad field", async () => {
    const profile = await connectProfile(user, pinterestName("ines_origin"));
    const single = await post(user, "/api/scheduling/schedulePin", imagePin(profile, { templateFamily: "wallpaper" }));
    expect(single.status).toBe(400);
    expect(await read(single)).toMatchObject({ field: "templateFamily" });
    const batch = await post(user, "/api/scheduling/schedulePin", { pins: [imagePin(profile), imagePin(profile, { source: "fax" })] });
    expect(batch.status).toBe(400);
    expect(await read(batch)).toMatchObject({ field: "pins.1.source" });
    const long = await post(user, "/api/scheduling/schedulePin", imagePin(profile, { templateTitle: "t".repeat(201) }));
    expect(await read(long)).toMatchObject({ field: "templateTitle" });
    const good = await post(
      user,
      "/api/scheduling/schedulePin",
      imagePin(profile, { templateId: "tpl-1", templateTitle: "Split", templateFamily: "split", source: "csv" }),
    );
    expect(good.status).toBe(201);
    expect((await read(good)).scheduledPin).toMatchObject({ templateId: "tpl-1", templateTitle: "Split", templateFamily: "split", source: "csv" });
  });
});

describe("the weekly summary e-mail", () => {
  it("goes only to users who asked, once a week, with a plain-text part, and its unsubscribe link and one-click header turn it off", async () => {
    const keen = await signUpVerifiedUser({ firstName: "Keen" });
    const quiet = await signUpVerifiedUser({ firstName: "Quiet" });
    for (const person of [keen, quiet]) {
      await grantCredits(person, 20);
      const profile = await connectProfile(person, pinterestName(`${person === keen ? "keen" : "quiet"}_weekly`));
      await postPins(person, profile, [{ templateFamily: "quote" }], 4);
      expect((await syncNow(person, profile)).at(-1)).toMatchObject({ done: true });
    }
    expect(await read(await get(keen, "/api/analytics/weeklySummary"))).toEqual({ enabled: false });
    const on = await post(keen, "/api/analytics/weeklySummary", { enabled: true });
    expect(await read(on)).toEqual({ enabled: true });
    expect((await post(keen, "/api/analytics/weeklySummary", { enabled: "yes" })).status).toBe(400);

    const mailsTo = async (person: TestUser) => (await outboxFor(person.email)).filter((mail) => mail.subject === "Your week on Pinterest");
    // Turned on this week: the first comes next week.
    await sendWeeklySummaries(testEnv);
    expect(await mailsTo(keen)).toHaveLength(0);
    const nextWeek = Date.now() + 7 * DAY_MS;
    for (let run = 0; run < 20 && (await mailsTo(keen)).length === 0; run += 1) await sendWeeklySummaries(testEnv, nextWeek);
    await sendWeeklySummaries(testEnv, nextWeek);
    const [mail] = await mailsTo(keen);
    expect(await mailsTo(keen)).toHaveLength(1);
    expect(await mailsTo(quiet)).toHaveLength(0);
    expect(mail.text).toContain("impressions");
    expect(mail.text).toContain("Unsubscribe from the weekly summary");
    const row = await database(testEnv.DB).query.users.findFirst({ where: eq(users.id, keen.userId) });
    expect(row?.weeklySummaryWeek).toBe(isoWeek(nextWeek));

    const link = new URL(mail.links.find((address) => new URL(address).pathname === "/unsubscribe")!);
    const unsubscribed = await app("/api/user/unsubscribe", json({ token: link.searchParams.get("token") }));
    expect(await read(unsubscribed)).toMatchObject({ kind: "weeklySummary" });
    expect(await read(await app("/api/analytics/weeklySummary", { headers: bearer(keen.tokens) }))).toEqual({ enabled: false });
    for (let run = 0; run < 5; run += 1) await sendWeeklySummaries(testEnv, nextWeek + 7 * DAY_MS);
    expect(await mailsTo(keen)).toHaveLength(1);

    // The one-click header (RFC 8058, decision 097): a mail app POSTs to it, without cookies.
    expect(mail.headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    const oneClick = /^<(http:\/\/app\.test\/api\/user\/unsubscribe\/oneClick\?token=[^>]+)>$/.exec(mail.headers["List-Unsubscribe"])?.[1];
    expect(oneClick).toBeDefined();
    expect(await read(await post(keen, "/api/analytics/weeklySummary", { enabled: true }))).toEqual({ enabled: true });
    const clicked = await app(new URL(oneClick!).pathname + new URL(oneClick!).search, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(await read(clicked)).toMatchObject({ kind: "weeklySummary" });
    expect(await read(await app("/api/analytics/weeklySummary", { headers: bearer(keen.tokens) }))).toEqual({ enabled: false });
    for (let run = 0; run < 5; run += 1) await sendWeeklySummaries(testEnv, nextWeek + 21 * DAY_MS);
    expect(await mailsTo(keen)).toHaveLength(1);
  });
});
