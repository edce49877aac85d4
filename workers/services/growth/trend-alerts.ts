import { and, desc, eq, isNull } from "drizzle-orm";
import {
  PINTEREST_INTERESTS,
  PINTEREST_TREND_REGIONS,
  type PinterestInterest,
  type PinterestTrendingKeyword,
  type PinterestTrendRegion,
} from "../../../contracts/pinterest/pinterest-trends.ts";
import {
  TREND_ALERT_LIMITS,
  TREND_ALERT_NOT_FOUND,
  TREND_ALERTS_FULL,
  type NewTrendAlertSettings,
  type TrendAlertResult,
  type TrendAlertView,
  type TrendDigestView,
  type TrendFinding,
  type UserTrendAlerts,
} from "../../../contracts/growth/trend-alerts.ts";
import { signToken, verifyToken } from "../../auth/tokens.ts";
import { database } from "../../db/client.ts";
import { trendAlertEmails, trendAlerts, users } from "../../db/schema.ts";
import {
  CHARTS_PER_DIGEST,
  findingInWords,
  newTrendsIn,
  periodOf,
  recentSeries,
  risesIn,
  changeInWords,
  NEW_TRENDS_LOOKED_AT,
  type TrendAlertMemory,
} from "../../domain/trend-alerts.ts";
import type { Env } from "../../env.ts";
import { mediaUrl, putMedia } from "../../media/store.ts";
import { renderTrendChart } from "../../render/trend-chart.ts";
import { workerFontLoader } from "../../render/worker-fonts.ts";
import { tokenSettings, type User } from "../accounts/accounts.ts";
import { trendAlertDigestEmail, type TrendDigestLine } from "../accounts/emails.ts";
import { ServiceError } from "../core/errors.ts";
import { trendsReader } from "./keyword-research.ts";
import { sendToAccountAddress } from "../accounts/typed-address-mail.ts";

/**
 * Trend alerts (issue 19, docs/decisions/047-trend-alerts.md): a user's alerts,
 * and the cron sweep that checks the due ones against Pinterest's trends and
 * e-mails one digest per user and run.
 */

type AlertRow = typeof trendAlerts.$inferSelect;

const UNSUBSCRIBE_TTL_SECONDS = 365 * 24 * 60 * 60;
/** Alerts checked per cron run (every 5 minutes): the rest wait for the next run. */
export const ALERTS_PER_SWEEP = 200;
/** Digests listed on the page. */
export const HISTORY_SHOWN = 20;
export const KEYWORD_TOOL_PATH = "/pinterest-keyword-research-tool";
export const TREND_ALERTS_PATH = "/pinterest-trend-alerts";

function view(row: AlertRow): TrendAlertView {
  return {
    alertId: row.id,
    keywords: row.keywords,
    regions: row.regions as PinterestTrendRegion[],
    interests: row.interests as PinterestInterest[],
    frequency: row.frequency,
    paused: row.pausedAt !== null,
    pausedReason: row.pausedAt !== null ? (row.pausedReason ?? "user") : null,
    createdAt: new Date(row.createdAt).toISOString(),
    lastResult: (row.lastResult as TrendAlertResult | null) ?? null,
  };
}

async function ownAlert(env: Env, user: User, alertId: string): Promise<AlertRow> {
  const row = await database(env.DB)
    .select()
    .from(trendAlerts)
    .where(and(eq(trendAlerts.id, alertId), eq(trendAlerts.userId, user.id)))
    .get();
  if (!row) throw new ServiceError(404, TREND_ALERT_NOT_FOUND);
  return row;
}

export async function listTrendAlerts(env: Env, user: User): Promise<UserTrendAlerts> {
  const rows = await database(env.DB).select().from(trendAlerts).where(eq(trendAlerts.userId, user.id)).orderBy(trendAlerts.createdAt, trendAlerts.id).all();
  return { userTrendAlerts: rows.map(view), limits: TREND_ALERT_LIMITS };
}

export async function createTrendAlert(env: Env, user: User, settings: NewTrendAlertSettings): Promise<TrendAlertView> {
  const id = crypto.randomUUID();
  const now = Date.now();
  // One statement: the count and the insert cannot interleave with another request's.
  const inserted = await env.DB.prepare(
    `INSERT INTO trend_alerts (id, user_id, keywords, regions, interests, frequency, memory, created_at, updated_at)
     SELECT ?1, ?2, ?3, ?4, ?5, ?6, '{}', ?7, ?7
     WHERE (SELECT count(*) FROM trend_alerts WHERE user_id = ?2) < ?8`,
  )
    .bind(
      id,
      user.id,
      JSON.stringify(settings.keywords),
      JSON.stringify(settings.regions),
      JSON.stringify(settings.interests),
      settings.frequency,
      now,
      TREND_ALERT_LIMITS.alerts,
    )
    .run();
  if (inserted.meta.changes === 0) throw new ServiceError(400, TREND_ALERTS_FULL, "newTrendAlertSettings");
  return view(await ownAlert(env, user, id));
}

/** New settings; what the alert remembered stays, so keywords kept are not reported again for the same week. */
export async function updateTrendAlert(env: Env, user: User, alertId: string, settings: NewTrendAlertSettings): Promise<TrendAlertView> {
  const updated = await database(env.DB)
    .update(trendAlerts)
    .set({ keywords: settings.keywords, regions: settings.regions, interests: settings.interests, frequency: settings.frequency, updatedAt: Date.now() })
    .where(and(eq(trendAlerts.id, alertId), eq(trendAlerts.userId, user.id)))
    .returning();
  if (updated.length === 0) throw new ServiceError(404, TREND_ALERT_NOT_FOUND);
  return view(updated[0]);
}

export async function pauseTrendAlert(env: Env, user: User, alertId: string, paused: boolean): Promise<TrendAlertView> {
  const now = Date.now();
  const updated = await database(env.DB)
    .update(trendAlerts)
    .set(paused ? { pausedAt: now, pausedReason: "user", updatedAt: now } : { pausedAt: null, pausedReason: null, updatedAt: now })
    .where(and(eq(trendAlerts.id, alertId), eq(trendAlerts.userId, user.id)))
    .returning();
  if (updated.length === 0) throw new ServiceError(404, TREND_ALERT_NOT_FOUND);
  return view(updated[0]);
}

export async function deleteTrendAlert(env: Env, user: User, alertId: string): Promise<{ deletedId: string }> {
  const deleted = await database(env.DB)
    .delete(trendAlerts)
    .where(and(eq(trendAlerts.id, alertId), eq(trendAlerts.userId, user.id)))
    .returning({ id: trendAlerts.id });
  if (deleted.length === 0) throw new ServiceError(404, TREND_ALERT_NOT_FOUND);
  return { deletedId: alertId };
}

export async function trendAlertHistory(env: Env, user: User): Promise<{ history: TrendDigestView[] }> {
  const rows = await database(env.DB)
    .select()
    .from(trendAlertEmails)
    .where(eq(trendAlertEmails.userId, user.id))
    .orderBy(desc(trendAlertEmails.sentAt))
    .limit(HISTORY_SHOWN)
    .all();
  return {
    history: rows.map((row) => ({
      digestId: row.id,
      sentAt: new Date(row.sentAt).toISOString(),
      subject: row.subject,
      findings: row.findings as TrendFinding[],
    })),
  };
}

// ---- unsubscribe -------------------------------------------------------------------------------

export function trendAlertsUnsubscribeToken(env: Env, userId: string): Promise<string> {
  return signToken(tokenSettings(env), "unsubscribeTrendAlerts", {}, userId, UNSUBSCRIBE_TTL_SECONDS);
}

/**
 * A digest's unsubscribe link: every active alert of the user is paused (the page
 * says why, and resuming one turns its e-mails back on). Answers the address that
 * was unsubscribed, or null when the token is not a trend alerts token.
 */
export async function unsubscribeFromTrendAlerts(env: Env, token: string): Promise<string | null> {
  const claims = await verifyToken(tokenSettings(env), "unsubscribeTrendAlerts", token, UNSUBSCRIBE_TTL_SECONDS);
  if (!claims) return null;
  const db = database(env.DB);
  const user = await db.select({ email: users.email }).from(users).where(eq(users.id, claims.sub)).get();
  if (!user) return null;
  const now = Date.now();
  await db
    .update(trendAlerts)
    .set({ pausedAt: now, pausedReason: "unsubscribed", updatedAt: now })
    .where(and(eq(trendAlerts.userId, claims.sub), isNull(trendAlerts.pausedAt)));
  return user.email;
}

// ---- the cron sweep ----------------------------------------------------------------------------

export interface TrendSweepResult {
  /** Alerts claimed and checked in this run. */
  checked: number;
  /** Digests e-mailed (one per user at most). */
  emailed: number;
  /** Alerts whose check failed (Pinterest refused or was down): released for the next run. */
  failed: number;
}

/**
 * Checks every due alert (active, not yet checked in its period) and e-mails
 * each user one digest of what moved. Each alert's period is claimed in D1
 * (trend_alert_runs' primary key) before anything is asked or sent, so a doubled
 * or concurrent run checks and mails an alert at most once per period.
 */
export async function sweepTrendAlerts(env: Env, now: number): Promise<TrendSweepResult> {
  const daily = periodOf("daily", now);
  const weekly = periodOf("weekly", now);
  const due = await env.DB.prepare(
    `SELECT id, user_id AS userId, frequency FROM trend_alerts a
     WHERE paused_at IS NULL
       AND NOT EXISTS (SELECT 1 FROM trend_alert_runs r WHERE r.alert_id = a.id AND r.period = CASE a.frequency WHEN 'daily' THEN ?1 ELSE ?2 END)
     ORDER BY user_id, created_at LIMIT ?3`,
  )
    .bind(daily, weekly, ALERTS_PER_SWEEP)
    .all<{ id: string; userId: string; frequency: "daily" | "weekly" }>();
  const byUser = new Map<string, Array<{ id: string; period: string }>>();
  for (const alert of due.results) {
    byUser.set(alert.userId, [...(byUser.get(alert.userId) ?? []), { id: alert.id, period: alert.frequency === "daily" ? daily : weekly }]);
  }
  const result: TrendSweepResult = { checked: 0, emailed: 0, failed: 0 };
  for (const [userId, alerts] of byUser) {
    try {
      const done = await sweepUser(env, userId, alerts, now);
      result.checked += done.checked;
      result.emailed += done.emailed;
      result.failed += done.failed;
    } catch (error) {
      // One user's trouble (say, D1 hiccups) does not stop the others'.
      console.error(`trend alerts: the sweep for user ${userId} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return result;
}

interface Checked {
  row: AlertRow;
  period: string;
  findings: TrendFinding[];
  /** The trends behind the findings, for their charts. */
  trends: Map<TrendFinding, PinterestTrendingKeyword>;
  memory: TrendAlertMemory;
}

async function sweepUser(env: Env, userId: string, alerts: Array<{ id: string; period: string }>, now: number): Promise<TrendSweepResult> {
  // Claim first: only the run whose insert took the (alert, period) row goes on with that alert.
  const claims = await env.DB.batch(
    alerts.map((alert) =>
      env.DB.prepare(`INSERT OR IGNORE INTO trend_alert_runs (alert_id, period, claimed_at) VALUES (?1, ?2, ?3)`).bind(alert.id, alert.period, now),
    ),
  );
  const claimed = alerts.filter((_, index) => claims[index].meta.changes > 0);
  const result: TrendSweepResult = { checked: 0, emailed: 0, failed: 0 };
  if (claimed.length === 0) return result;
  const db = database(env.DB);
  const user = await db.select().from(users).where(eq(users.id, userId)).get();
  if (!user) return result;
  let readTrends: TrendsRead;
  try {
    readTrends = await trendsReader(env, user);
  } catch (error) {
    // No way to ask Pinterest for this user now: nothing was checked, the periods are released.
    await env.DB.batch(claimed.map((alert) => env.DB.prepare(`DELETE FROM trend_alert_runs WHERE alert_id = ?1 AND period = ?2`).bind(alert.id, alert.period)));
    throw error;
  }

  const checked: Checked[] = [];
  for (const { id, period } of claimed) {
    const row = await db
      .select()
      .from(trendAlerts)
      .where(and(eq(trendAlerts.id, id), eq(trendAlerts.userId, userId)))
      .get();
    if (!row || row.pausedAt !== null) continue;
    result.checked += 1;
    try {
      checked.push({ row, period, ...(await checkAlert(row, readTrends)) });
    } catch (error) {
      // Nothing was sent for this alert: its period is released, so the next run tries again.
      console.warn(`trend alerts: checking alert ${id} failed: ${error instanceof Error ? error.message : String(error)}`);
      result.failed += 1;
      const failed: TrendAlertResult = { checkedAt: new Date(now).toISOString(), outcome: "failed", findings: [], emailed: false };
      await env.DB.batch([
        env.DB.prepare(`DELETE FROM trend_alert_runs WHERE alert_id = ?1 AND period = ?2`).bind(id, period),
        env.DB.prepare(`UPDATE trend_alerts SET last_result = ?2 WHERE id = ?1`).bind(id, JSON.stringify(failed)),
      ]);
    }
  }

  // One digest for everything the user's alerts found in this run (a keyword found by two alerts once).
  const seen = new Set<string>();
  const digest: Array<{ finding: TrendFinding; trend: PinterestTrendingKeyword | undefined }> = [];
  for (const alert of checked) {
    for (const finding of alert.findings) {
      const key = `${finding.kind}|${finding.region}|${finding.keyword}`;
      if (seen.has(key)) continue;
      seen.add(key);
      digest.push({ finding, trend: alert.trends.get(finding) });
    }
  }
  let emailed = false;
  // Digests go only to a verified address (decision 080): an unverified one is an address somebody typed.
  // Until it is verified, findings stay unreported and are e-mailed by the first run after.
  if (digest.length > 0 && user.isEmailVerified) {
    try {
      emailed = await sendDigest(env, user, digest, now);
      if (emailed) result.emailed += 1;
    } catch (error) {
      // The period stays claimed (at most one e-mail per period, even when the answer was lost).
      console.error(`trend alerts: the digest to user ${userId} could not be sent: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (checked.length === 0) return result;
  const checkedAt = new Date(now).toISOString();
  await env.DB.batch(
    checked.map((alert) => {
      const found = alert.findings.length > 0;
      const last: TrendAlertResult = { checkedAt, outcome: found ? "found" : "nothing", findings: alert.findings, emailed: found && emailed };
      // A rise that could not be e-mailed is not remembered as reported, so the next period reports it.
      const memory = found && !emailed ? { ...alert.memory, reported: (alert.row.memory as TrendAlertMemory).reported } : alert.memory;
      return env.DB.prepare(`UPDATE trend_alerts SET last_result = ?2, memory = ?3 WHERE id = ?1`).bind(
        alert.row.id,
        JSON.stringify(last),
        JSON.stringify(memory),
      );
    }),
  );
  return result;
}

type TrendsRead = Awaited<ReturnType<typeof trendsReader>>;

/** One alert against Pinterest's trends: its keywords' figures and the growing keywords of its interests, per region. */
async function checkAlert(row: AlertRow, readTrends: TrendsRead): Promise<Omit<Checked, "row" | "period">> {
  let memory = (row.memory ?? {}) as TrendAlertMemory;
  const findings: TrendFinding[] = [];
  const trends = new Map<TrendFinding, PinterestTrendingKeyword>();
  const interests = row.interests as PinterestInterest[];
  for (const region of row.regions as PinterestTrendRegion[]) {
    if (row.keywords.length > 0) {
      const answer = await readTrends(region, "monthly", { includeKeywords: row.keywords, limit: 50 });
      const rises = risesIn(region, row.keywords, answer.trends, memory);
      memory = { ...memory, reported: rises.reported };
      for (const finding of rises.findings) {
        findings.push(finding);
        const trend = answer.trends.find((candidate) => candidate.keyword.trim().toLowerCase() === finding.keyword);
        if (trend) trends.set(finding, trend);
      }
    }
    if (interests.length > 0) {
      const answer = await readTrends(region, "growing", { interests, limit: NEW_TRENDS_LOOKED_AT });
      const fresh = newTrendsIn(region, interests, row.keywords, answer.trends, memory);
      memory = { ...memory, trending: fresh.trending };
      for (const finding of fresh.findings) {
        findings.push(finding);
        const trend = answer.trends.find((candidate) => candidate.keyword.trim().toLowerCase() === finding.keyword);
        if (trend) trends.set(finding, trend);
      }
    }
  }
  return { findings, trends, memory };
}

const regionName = (region: PinterestTrendRegion) => PINTEREST_TREND_REGIONS[region] ?? region;
const interestName = (interest: PinterestInterest) => PINTEREST_INTERESTS[interest] ?? interest;
const weekLabel = (isoDay: string) => new Date(`${isoDay}T00:00:00Z`).toLocaleDateString("en-US", { month: "short", day: "numeric", timeZone: "UTC" });

function digestSubject(findings: TrendFinding[]): string {
  if (findings.length === 1) {
    const [finding] = findings;
    return finding.kind === "rise" ? `"${finding.keyword}" is rising on Pinterest` : `"${finding.keyword}" is newly trending on Pinterest`;
  }
  return `${findings.length} keywords are moving on Pinterest`;
}

/** The chart of a finding's recent weeks, rendered to PNG and stored in R2: its address and alt text. */
async function drawChart(env: Env, finding: TrendFinding, series: { weeks: string[]; values: number[] }): Promise<{ url: string; alt: string }> {
  const weekly = changeInWords(finding.weeklyChange);
  const png = await renderTrendChart(
    {
      title: `${finding.keyword} · ${regionName(finding.region)}`,
      subtitle: `Weekly Pinterest searches, busiest week = 100${weekly ? ` · ${weekly} on the week before` : ""}`,
      weekLabels: series.weeks.map(weekLabel),
      values: series.values,
    },
    workerFontLoader(env),
  );
  const key = `trend-charts/${crypto.randomUUID()}.png`;
  await putMedia(env, key, png, "image/png");
  return {
    url: mediaUrl(env.APP_URL, key),
    alt: `Chart of weekly Pinterest searches for "${finding.keyword}" in ${regionName(finding.region)} over the last ${series.values.length} weeks`,
  };
}

async function sendDigest(
  env: Env,
  user: User,
  digest: Array<{ finding: TrendFinding; trend: PinterestTrendingKeyword | undefined }>,
  now: number,
): Promise<boolean> {
  let charts = 0;
  const lines: TrendDigestLine[] = [];
  for (const { finding, trend } of digest) {
    const sentence = findingInWords(finding, regionName(finding.region), interestName);
    const research = new URL(KEYWORD_TOOL_PATH, env.APP_URL);
    research.searchParams.set("keyword", finding.keyword);
    research.searchParams.set("region", finding.region);
    const line: TrendDigestLine = { sentence, researchLink: research.toString(), researchLabel: `Research "${finding.keyword}" in the keyword tool` };
    const series = trend ? recentSeries(trend) : null;
    if (series && series.values.length >= 2 && charts < CHARTS_PER_DIGEST) {
      charts += 1;
      const chart = await drawChart(env, finding, series).catch((error: unknown) => {
        // A digest without its picture beats no digest.
        console.warn(`trend alerts: no chart for "${finding.keyword}": ${error instanceof Error ? error.message : String(error)}`);
        return null;
      });
      if (chart) {
        finding.chartUrl = chart.url;
        line.chart = chart;
      }
    }
    lines.push(line);
  }
  const findings = digest.map((entry) => entry.finding);
  const subject = digestSubject(findings);
  const token = await trendAlertsUnsubscribeToken(env, user.id);
  const email = trendAlertDigestEmail(user.email, user.firstName, subject, lines, {
    alertsPage: new URL(TREND_ALERTS_PATH, env.APP_URL).toString(),
    unsubscribePage: new URL(`/unsubscribe?token=${encodeURIComponent(token)}`, env.APP_URL).toString(),
    oneClickUnsubscribe: new URL(`/api/trendAlerts/unsubscribe?token=${encodeURIComponent(token)}`, env.APP_URL).toString(),
  });
  if (!(await sendToAccountAddress(env, user, email))) return false;
  await database(env.DB).insert(trendAlertEmails).values({ id: crypto.randomUUID(), userId: user.id, sentAt: now, subject, findings });
  return true;
}
