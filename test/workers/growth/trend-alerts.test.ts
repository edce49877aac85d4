import { beforeAll, describe, expect, it } from "vitest";
import {
  TREND_ALERT_LIMITS,
  TREND_ALERT_NOT_FOUND,
  TREND_ALERTS_FULL,
  type TrendAlertView,
  type TrendDigestView,
} from "../../../contracts/growth/trend-alerts.ts";
import { sweepTrendAlerts } from "../../../workers/services/growth/trend-alerts.ts";
import { bearer, json, signUpUser, signUpVerifiedUser, verifyEmailOf, type TestUser } from "../accounts/accounts-support.ts";
import { app, read, sandbox, testEnv } from "../support.ts";

// Trend alerts (/api/trendAlerts/*, docs/decisions/047-trend-alerts.md) and their cron sweep
// against the Pinterest stand-in. The stand-in is shared with other test files: every test
// follows keywords of its own (a random tag) and makes them rise with the stand-in's control.

interface Mail {
  to: string[];
  subject: string;
  text: string;
  html: string;
  links: string[];
  headers: Record<string, string>;
}

const TAG =
  crypto
    .randomUUID()
    .replace(/[^a-f]/g, "")
    .slice(0, 6) || "tag";
const DAY = 86_400_000;
/** A Wednesday at noon (UTC) of the current week: the sweeps below move from it by whole days. */
const WEDNESDAY = (() => {
  const now = new Date();
  const day = now.getUTCDay() || 7;
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + (3 - day), 12);
})();

const call = (user: TestUser, path: string, body?: unknown, method = "POST") =>
  app(`/api/trendAlerts/${path}`, body === undefined ? { method, headers: bearer(user.tokens) } : { ...json(body, bearer(user.tokens)), method });

async function createAlert(user: TestUser, settings: Record<string, unknown>): Promise<TrendAlertView> {
  const response = await call(user, "createTrendAlert", {
    newTrendAlertSettings: { keywords: [], regions: ["US"], interests: [], frequency: "daily", ...settings },
  });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await read(response)).trendAlert;
}

async function alertsOf(user: TestUser): Promise<TrendAlertView[]> {
  return (await read(await call(user, "userTrendAlerts", undefined, "GET"))).userTrendAlerts;
}

/** The trend digests sent to a user (sign-up's verification e-mail left out). */
const mailsTo = async (user: TestUser) =>
  (await sandbox<Mail[]>(`/outbox?to=${encodeURIComponent(user.email)}`)).filter((mail) => mail.headers?.["List-Unsubscribe"]);
const rise = (keyword: string, region: string, factor = 3, interest?: string) =>
  sandbox("/pinterest/trends/rise", { method: "POST", json: { keyword, region, factor, weeks: 2, ...(interest ? { interest } : {}) } });

describe("trend alert calls", () => {
  let user: TestUser;
  let other: TestUser;
  beforeAll(async () => {
    [user, other] = await Promise.all([signUpUser({ firstName: "Tess" }), signUpUser({ firstName: "Otto" })]);
  });

  it("refuses bad settings with 400 naming the field, and writes nothing", async () => {
    const good = { keywords: ["linen napkins"], regions: ["US"], interests: ["home_decor"], frequency: "weekly" };
    const cases: Array<[Record<string, unknown>, string, RegExp?]> = [
      [{ ...good, frequency: "hourly" }, "newTrendAlertSettings.frequency"],
      [{ ...good, regions: ["UK"] }, "newTrendAlertSettings.regions.0"],
      [{ ...good, regions: [] }, "newTrendAlertSettings.regions", /at least one region/],
      [{ ...good, regions: ["US", "CA", "DE", "FR"] }, "newTrendAlertSettings.regions", /at most 3 regions/],
      [{ ...good, interests: ["cooking"] }, "newTrendAlertSettings.interests.0"],
      [{ ...good, interests: ["art", "beauty", "design", "travel", "sport", "wedding"] }, "newTrendAlertSettings.interests", /at most 5 interests/],
      [{ ...good, keywords: Array.from({ length: 11 }, (_, i) => `keyword number ${i}`) }, "newTrendAlertSettings.keywords", /at most 10 keywords/],
      [{ ...good, keywords: ["a,b"] }, "newTrendAlertSettings.keywords.0"],
      [{ ...good, keywords: [], interests: [] }, "newTrendAlertSettings.keywords", /add a keyword or choose an interest/],
      [{ regions: ["US"], interests: [], keywords: ["x y"] }, "newTrendAlertSettings.frequency", /required/],
    ];
    for (const [settings, field, message] of cases) {
      const response = await call(user, "createTrendAlert", { newTrendAlertSettings: settings });
      expect(response.status, JSON.stringify(settings)).toBe(400);
      const answer = await read(response);
      expect(answer.field, JSON.stringify(settings)).toBe(field);
      if (message) expect(answer.error).toMatch(message);
    }
    expect(await alertsOf(user)).toEqual([]);
  });

  it("creates, edits, pauses, resumes and deletes an alert; keywords are trimmed, lowercased and kept once", async () => {
    const created = await createAlert(user, {
      keywords: ["  Linen  Napkins ", "linen napkins", "table runner"],
      regions: ["US", "GB+IE"],
      interests: ["home_decor"],
      frequency: "weekly",
    });
    expect(created).toMatchObject({
      keywords: ["linen napkins", "table runner"],
      regions: ["US", "GB+IE"],
      interests: ["home_decor"],
      frequency: "weekly",
      paused: false,
      pausedReason: null,
      lastResult: null,
    });

    const edited = await read(
      await call(user, "updateTrendAlert", {
        alertId: created.alertId,
        newTrendAlertSettings: { keywords: ["table runner"], regions: ["CA"], interests: [], frequency: "daily" },
      }),
    );
    expect(edited.trendAlert).toMatchObject({ alertId: created.alertId, keywords: ["table runner"], regions: ["CA"], interests: [], frequency: "daily" });

    expect((await read(await call(user, "pauseTrendAlert", { alertId: created.alertId, paused: true }))).trendAlert).toMatchObject({
      paused: true,
      pausedReason: "user",
    });
    expect((await read(await call(user, "pauseTrendAlert", { alertId: created.alertId, paused: false }))).trendAlert).toMatchObject({
      paused: false,
      pausedReason: null,
    });
    expect((await alertsOf(user)).map((alert) => alert.alertId)).toEqual([created.alertId]);

    const deleted = await app(`/api/trendAlerts/deleteTrendAlert/${created.alertId}`, { method: "DELETE", headers: bearer(user.tokens) });
    expect(await read(deleted)).toEqual({ deletedId: created.alertId });
    expect(await alertsOf(user)).toEqual([]);
  });

  it("keeps another user's alert out of reach: not listed, not edited, paused or deleted (404)", async () => {
    const mine = await createAlert(user, { keywords: ["private keyword"] });
    expect(await alertsOf(other)).toEqual([]);
    for (const [path, body, method] of [
      [
        "updateTrendAlert",
        { alertId: mine.alertId, newTrendAlertSettings: { keywords: ["stolen"], regions: ["US"], interests: [], frequency: "daily" } },
        "POST",
      ],
      ["pauseTrendAlert", { alertId: mine.alertId, paused: true }, "POST"],
      [`deleteTrendAlert/${mine.alertId}`, undefined, "DELETE"],
    ] as const) {
      const response = await call(other, path, body, method);
      expect(response.status, path).toBe(404);
      expect((await read(response)).error).toBe(TREND_ALERT_NOT_FOUND);
    }
    expect((await alertsOf(user)).find((alert) => alert.alertId === mine.alertId)).toMatchObject({ keywords: ["private keyword"], paused: false });
    expect((await app("/api/trendAlerts/userTrendAlerts")).status).toBe(401);
  });

  it(`keeps at most ${TREND_ALERT_LIMITS.alerts} alerts per user, with a clear 400`, async () => {
    const crowded = await signUpUser({ firstName: "Cara" });
    for (let i = 0; i < TREND_ALERT_LIMITS.alerts; i += 1) await createAlert(crowded, { keywords: [`crowded keyword ${i}`] });
    const refused = await call(crowded, "createTrendAlert", {
      newTrendAlertSettings: { keywords: ["one too many"], regions: ["US"], interests: [], frequency: "daily" },
    });
    expect(refused.status).toBe(400);
    expect(await read(refused)).toMatchObject({ error: TREND_ALERTS_FULL, field: "newTrendAlertSettings" });
    expect(await alertsOf(crowded)).toHaveLength(TREND_ALERT_LIMITS.alerts);
  });
});

describe("trend alert checks (the cron sweep)", () => {
  it("e-mails one digest when a followed keyword rises: what moved, by how much, a PNG chart, the keyword tool's link and a one-click unsubscribe", async () => {
    const user = await signUpVerifiedUser({ firstName: "Rosa" });
    const keyword = `velvet ${TAG} cushion`;
    // An evergreen term of the stand-in: its weekly searches wobble by a few percent.
    const calm = "bedroom ideas";
    await rise(keyword, "CA", 3);
    await createAlert(user, { keywords: [keyword, calm], regions: ["CA"], frequency: "daily" });

    await sweepTrendAlerts(testEnv, WEDNESDAY);
    const mails = await mailsTo(user);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail.subject).toBe(`"${keyword}" is rising on Pinterest`);
    // The stand-in's rise triples the last week and doubles the one before: about +50% on the week before.
    expect(mail.text).toMatch(new RegExp(`"${keyword}" is rising in Canada: searches up (\\d+)% on the week before`));
    expect(mail.text).not.toContain(calm);
    expect(mail.html).not.toMatch(/pct_growth|\d{4}-\d{2}-\d{2}T/);

    const research = new URL(mail.links.find((link) => link.includes("/pinterest-keyword-research-tool"))!);
    expect(research.searchParams.get("keyword")).toBe(keyword);
    expect(research.searchParams.get("region")).toBe("CA");

    const chart = mail.html.match(/<img src="([^"]+)"/)![1].replace(/&amp;/g, "&");
    expect(chart).toMatch(/^http:\/\/app\.test\/media\/trend-charts\/.+\.png$/);
    const image = await app(new URL(chart).pathname);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/png");
    expect(image.headers.get("x-content-type-options")).toBe("nosniff");
    const bytes = new Uint8Array(await image.arrayBuffer());
    expect([...bytes.slice(1, 4)].map((byte) => String.fromCharCode(byte)).join("")).toBe("PNG");
    // Width and height from the IHDR chunk.
    const view = new DataView(bytes.buffer);
    expect([view.getUint32(16), view.getUint32(20)]).toEqual([560, 240]);

    expect(mail.headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    expect(mail.headers["List-Unsubscribe"]).toMatch(/^<http:\/\/app\.test\/api\/trendAlerts\/unsubscribe\?token=.+>$/);

    const [alert] = await alertsOf(user);
    expect(alert.lastResult).toMatchObject({ outcome: "found", emailed: true, findings: [{ kind: "rise", keyword, region: "CA" }] });
    expect(alert.lastResult!.findings[0].weeklyChange).toBeGreaterThanOrEqual(35);
    const history = (await read(await app("/api/trendAlerts/history", { headers: bearer(user.tokens) }))).history as TrendDigestView[];
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ subject: mail.subject, findings: [{ keyword, chartUrl: chart }] });
  });

  it("e-mails only a verified address: an unverified one is an address somebody typed, and its findings wait for the verification (issue 37)", async () => {
    const user = await signUpUser({ firstName: "Vera" });
    const keyword = `waiting ${TAG} basket`;
    await rise(keyword, "BR", 3);
    await createAlert(user, { keywords: [keyword], regions: ["BR"], frequency: "daily" });
    await sweepTrendAlerts(testEnv, WEDNESDAY);
    expect(await mailsTo(user)).toEqual([]);
    expect((await alertsOf(user))[0].lastResult).toMatchObject({ outcome: "found", emailed: false, findings: [{ keyword }] });

    await verifyEmailOf(user);
    await sweepTrendAlerts(testEnv, WEDNESDAY + DAY);
    const mails = await mailsTo(user);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe(`"${keyword}" is rising on Pinterest`);
  });

  it("sends nothing when nothing moved, and says so in the alert's last result", async () => {
    const user = await signUpVerifiedUser({ firstName: "Nina" });
    // An evergreen term of the stand-in: its weekly searches wobble by a few percent.
    await createAlert(user, { keywords: ["living room ideas"], regions: ["US"], frequency: "daily" });
    const result = await sweepTrendAlerts(testEnv, WEDNESDAY);
    expect(result.checked).toBeGreaterThanOrEqual(1);
    expect(await mailsTo(user)).toEqual([]);
    const [alert] = await alertsOf(user);
    expect(alert.lastResult).toMatchObject({ outcome: "nothing", emailed: false, findings: [] });
    expect(Date.parse(alert.lastResult!.checkedAt)).toBe(WEDNESDAY);
  });

  it("mails once when the cron fires twice, even at the same time", async () => {
    const user = await signUpVerifiedUser({ firstName: "Dora" });
    const keyword = `double ${TAG} run`;
    await rise(keyword, "DE", 4);
    await createAlert(user, { keywords: [keyword], regions: ["DE"], frequency: "daily" });
    await Promise.all([sweepTrendAlerts(testEnv, WEDNESDAY + 1000), sweepTrendAlerts(testEnv, WEDNESDAY + 1000)]);
    await sweepTrendAlerts(testEnv, WEDNESDAY + 60_000);
    expect(await mailsTo(user)).toHaveLength(1);
  });

  it("checks a daily alert once a day and a weekly alert once a week; a rise is reported once per week of Pinterest's data", async () => {
    const user = await signUpVerifiedUser({ firstName: "Pia" });
    const keyword = `period ${TAG} lamp`;
    await rise(keyword, "FR", 3);
    const daily = await createAlert(user, { keywords: [keyword], regions: ["FR"], frequency: "daily" });
    const weekly = await createAlert(user, { keywords: ["kitchen ideas"], regions: ["FR"], frequency: "weekly" });
    const checkedAt = async () =>
      Object.fromEntries((await alertsOf(user)).map((alert) => [alert.alertId, alert.lastResult && Date.parse(alert.lastResult.checkedAt)]));

    await sweepTrendAlerts(testEnv, WEDNESDAY);
    expect(await checkedAt()).toEqual({ [daily.alertId]: WEDNESDAY, [weekly.alertId]: WEDNESDAY });
    expect(await mailsTo(user)).toHaveLength(1);

    // Later the same day: nothing is due.
    await sweepTrendAlerts(testEnv, WEDNESDAY + 6 * 3_600_000);
    expect(await checkedAt()).toEqual({ [daily.alertId]: WEDNESDAY, [weekly.alertId]: WEDNESDAY });

    // Thursday: the daily alert is checked again, the weekly one is not; the same week's rise is not mailed again.
    await sweepTrendAlerts(testEnv, WEDNESDAY + DAY);
    expect(await checkedAt()).toEqual({ [daily.alertId]: WEDNESDAY + DAY, [weekly.alertId]: WEDNESDAY });
    expect(await mailsTo(user)).toHaveLength(1);
    expect((await alertsOf(user)).find((alert) => alert.alertId === daily.alertId)!.lastResult).toMatchObject({ outcome: "nothing" });

    // Next Monday: a new week, the weekly alert is due again.
    await sweepTrendAlerts(testEnv, WEDNESDAY + 5 * DAY);
    expect(await checkedAt()).toEqual({ [daily.alertId]: WEDNESDAY + 5 * DAY, [weekly.alertId]: WEDNESDAY + 5 * DAY });
  });

  it("tries again at the next run when Pinterest refuses (429): nothing is sent and the period is not used up", async () => {
    const user = await signUpVerifiedUser({ firstName: "Rhea" });
    const keyword = `retry ${TAG} vase`;
    const region = "MX+AR+CO+CL";
    await rise(keyword, region, 3);
    await createAlert(user, { keywords: [keyword], regions: [region], frequency: "weekly" });
    await sandbox("/faults", {
      method: "POST",
      json: { service: "pinterest", method: "GET", path: `/v5/trends/keywords/${region}/top/monthly`, status: 429, times: 1 },
    });

    const refused = await sweepTrendAlerts(testEnv, WEDNESDAY + 2 * 3_600_000);
    expect(refused.failed).toBe(1);
    expect(await mailsTo(user)).toEqual([]);
    expect((await alertsOf(user))[0].lastResult).toMatchObject({ outcome: "failed", emailed: false });

    await sweepTrendAlerts(testEnv, WEDNESDAY + 2 * 3_600_000 + 5 * 60_000);
    expect(await mailsTo(user)).toHaveLength(1);
    expect((await alertsOf(user))[0].lastResult).toMatchObject({ outcome: "found", emailed: true });
  });

  it("reports keywords newly trending in the alert's interests, after a first check that only looks", async () => {
    const user = await signUpVerifiedUser({ firstName: "Ines" });
    await createAlert(user, { regions: ["AR"], interests: ["vehicles"], frequency: "daily" });
    await sweepTrendAlerts(testEnv, WEDNESDAY);
    expect(await mailsTo(user)).toEqual([]);

    const newcomer = `electric ${TAG} tricycle`;
    await rise(newcomer, "AR", 12, "vehicles");
    await sweepTrendAlerts(testEnv, WEDNESDAY + DAY);
    const mails = await mailsTo(user);
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toContain(`"${newcomer}" is newly trending in Vehicles in Argentina`);
  });

  it("stops trend alert e-mails from the digest's unsubscribe link (the /unsubscribe page's call) and from the one-click header", async () => {
    const user = await signUpVerifiedUser({ firstName: "Uma" });
    const keyword = `unsubscribe ${TAG} rug`;
    await rise(keyword, "IT", 3);
    await createAlert(user, { keywords: [keyword], regions: ["IT"], frequency: "daily" });
    await createAlert(user, { keywords: ["bathroom ideas"], regions: ["IT"], frequency: "weekly" });
    await sweepTrendAlerts(testEnv, WEDNESDAY);
    const [mail] = await mailsTo(user);
    const page = new URL(mail.links.find((link) => link.includes("/unsubscribe?token="))!);
    expect(page.pathname).toBe("/unsubscribe");

    const answer = await app("/api/user/unsubscribe", json({ token: page.searchParams.get("token") }));
    expect(answer.status).toBe(200);
    expect(await read(answer)).toEqual({ message: `${user.email} will no longer receive trend alert e-mails.`, kind: "trendAlerts" });
    expect((await alertsOf(user)).map((alert) => [alert.paused, alert.pausedReason])).toEqual([
      [true, "unsubscribed"],
      [true, "unsubscribed"],
    ]);

    // Another rise next week: paused alerts are not checked, nothing is sent.
    await rise(keyword, "IT", 6);
    await sweepTrendAlerts(testEnv, WEDNESDAY + 7 * DAY);
    expect(await mailsTo(user)).toHaveLength(1);

    // Resumed on the page, then the one-click POST a mail app makes (RFC 8058) stops them again.
    const [first] = await alertsOf(user);
    await call(user, "pauseTrendAlert", { alertId: first.alertId, paused: false });
    const oneClick = mail.headers["List-Unsubscribe"].slice(1, -1);
    const posted = await app(new URL(oneClick).pathname + new URL(oneClick).search, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(posted.status).toBe(200);
    expect((await alertsOf(user)).every((alert) => alert.paused)).toBe(true);

    const forged = await app("/api/trendAlerts/unsubscribe?token=not-a-token", { method: "POST" });
    expect(forged.status).toBe(400);
    expect((await read(forged)).field).toBe("token");
  });
});
