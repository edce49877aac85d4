import { and, eq, isNotNull, isNull, lt, or } from "drizzle-orm";
import {
  ANALYTICS_EXPORT_COLUMNS,
  type AnalyticsOverview,
  type AnalyticsPinsPage,
  type AnalyticsSort,
  type AnalyticsWindow,
  type BestTimes,
  FAMILIES_MIN_PINS,
  FAMILY_MIN_PINS,
  FAMILY_WEIGHT_BOUNDS,
  type FamilyPerformance,
  PIN_SOURCE_LABELS,
  TEMPLATE_FAMILY_LABELS,
} from "../../../contracts/pinterest/analytics.ts";
import { signToken, verifyToken } from "../../auth/tokens.ts";
import { database } from "../../db/client.ts";
import { users } from "../../db/schema.ts";
import { bestTimes as bestTimesOf, hourLabel } from "../../domain/best-times.ts";
import { csvForSpreadsheets } from "../../domain/csv-export.ts";
import type { Env } from "../../env.ts";
import { tokenSettings, type User } from "../accounts/accounts.ts";
import { weeklySummaryEmail } from "../accounts/emails.ts";
import { oneClickUnsubscribeUrl, unsubscribePageUrl } from "../growth/unsubscribe-links.ts";
import { sendToAccountAddress } from "../accounts/typed-address-mail.ts";
import { ServiceError } from "../core/errors.ts";
import { listProfiles, schedulingSettingsOf, type PinterestProfile } from "./pinterest-connection.ts";
import { schedulerFor } from "./scheduler-index.ts";

/**
 * Insights (issue 41, docs/decisions/093-insights.md): the analytics calls read each profile's ProfileScheduler,
 * where the figures Pinterest reports are kept and summed (durable-objects/scheduler/analytics.ts). Every call is
 * the signed-in user's, for their own profiles: another username answers 403.
 */

export const NOT_YOUR_PROFILE = "This Pinterest profile is not connected to your account.";

/** The caller's profile of that username; 403 for any other (another user's, or none: which, is not said). */
/**
 * The caller's profile the call names, as read with the sign-in (requireUserAndProfile: one D1 query for both), or
 * the 403 for a name that is not one of the caller's profiles (without saying whether it exists).
 */
export function analyticsProfile(profile: PinterestProfile | null): PinterestProfile {
  if (!profile) throw new ServiceError(403, NOT_YOUR_PROFILE, "username");
  return profile;
}

export async function analyticsOverview(env: Env, user: User, named: PinterestProfile | null, days: AnalyticsWindow): Promise<AnalyticsOverview> {
  const profile = analyticsProfile(named);
  const overview = await schedulerFor(env, profile.id).analyticsOverview(days);
  return {
    username: profile.username,
    days,
    timeZone: schedulingSettingsOf(profile).timezone.value,
    weeklySummary: user.weeklySummaryAt != null,
    ...overview,
  };
}

export async function analyticsPins(
  env: Env,
  named: PinterestProfile | null,
  query: { days: AnalyticsWindow; sortBy: AnalyticsSort; limit: number; cursor?: string },
): Promise<AnalyticsPinsPage> {
  const profile = analyticsProfile(named);
  const page = await schedulerFor(env, profile.id).analyticsPins(query.days, query.sortBy, query.limit, query.cursor ?? null);
  if ("ok" in page) throw new ServiceError(page.status, page.message, page.field);
  return { username: profile.username, days: query.days, sortBy: query.sortBy, ...page };
}

export async function analyticsBestTimes(env: Env, named: PinterestProfile | null): Promise<BestTimes> {
  const profile = analyticsProfile(named);
  const cells = await schedulerFor(env, profile.id).analyticsAudience();
  return bestTimesOf({ username: profile.username, timeZone: schedulingSettingsOf(profile).timezone.value, cells });
}

/**
 * The user's template families over 90 days, all profiles, best engagement first. `enough` once FAMILIES_MIN_PINS
 * pins with a family have figures; each family with FAMILY_MIN_PINS pins weighs its engagement rate against the
 * user's average (within FAMILY_WEIGHT_BOUNDS), the others 1.
 */
export async function analyticsFamilies(env: Env, user: User): Promise<FamilyPerformance> {
  const profiles = await listProfiles(env, user.id);
  const perProfile = await Promise.all(profiles.map((profile) => schedulerFor(env, profile.id).analyticsFamilies()));
  const sums = new Map<string, { pins: number; impressions: number; engagements: number }>();
  for (const row of perProfile.flat()) {
    const sum = sums.get(row.family) ?? { pins: 0, impressions: 0, engagements: 0 };
    sum.pins += row.pins;
    sum.impressions += row.impressions;
    sum.engagements += row.engagements;
    sums.set(row.family, sum);
  }
  const all = [...sums.values()];
  const pins = all.reduce((n, sum) => n + sum.pins, 0);
  const impressions = all.reduce((n, sum) => n + sum.impressions, 0);
  const average = impressions > 0 ? all.reduce((n, sum) => n + sum.engagements, 0) / impressions : 0;
  const families = [...sums.entries()]
    .map(([family, sum]) => {
      const engagementRate = sum.impressions > 0 ? sum.engagements / sum.impressions : 0;
      const weight =
        sum.pins >= FAMILY_MIN_PINS && average > 0 ? Math.min(FAMILY_WEIGHT_BOUNDS.max, Math.max(FAMILY_WEIGHT_BOUNDS.min, engagementRate / average)) : 1;
      return {
        family,
        pins: sum.pins,
        impressions: sum.impressions,
        engagementRate: Math.round(engagementRate * 10_000) / 10_000,
        weight: Math.round(weight * 100) / 100,
      };
    })
    .sort((a, b) => b.engagementRate - a.engagementRate || a.family.localeCompare(b.family));
  return { enough: pins >= FAMILIES_MIN_PINS, families };
}

/** The window's pins as a CSV file for a spreadsheet (csvForSpreadsheets: no cell runs as a formula). */
export async function analyticsExport(env: Env, named: PinterestProfile | null, days: AnalyticsWindow): Promise<{ fileName: string; csv: string }> {
  const profile = analyticsProfile(named);
  const rows = await schedulerFor(env, profile.id).analyticsExport(days);
  const csv = csvForSpreadsheets(
    ANALYTICS_EXPORT_COLUMNS,
    rows.map((pin) => [
      new Date(pin.postedAt).toISOString(),
      pin.title,
      pin.boardName,
      pin.templateTitle ?? "",
      pin.templateFamily ? (TEMPLATE_FAMILY_LABELS[pin.templateFamily as keyof typeof TEMPLATE_FAMILY_LABELS] ?? pin.templateFamily) : "",
      PIN_SOURCE_LABELS[pin.source] ?? pin.source,
      hourLabel(pin.hour),
      pin.impressions,
      pin.saves,
      pin.pinClicks,
      pin.outboundClicks,
      pin.engagementRate,
      pin.pinterestUrl,
    ]),
  );
  return { fileName: `insights-${profile.username}-${days}-days.csv`, csv };
}

// ---- the weekly summary e-mail ---------------------------------------------------------------

const UNSUBSCRIBE_TTL_SECONDS = 365 * 24 * 60 * 60;
/**
 * Users mailed per cron run: every 5 minutes, 14,400 a day, 100,800 a week, so every user of a 100,000-user base can
 * have it (docs/scale.md). Each is a few reads of their profiles' objects and one e-mail.
 */
export const WEEKLY_SUMMARY_BATCH = 50;

/** The ISO week of a moment, as "2026-W49" (weeks start on Monday, UTC). */
export function isoWeek(ms: number): string {
  const date = new Date(ms);
  const day = (date.getUTCDay() + 6) % 7;
  const thursday = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() - day + 3);
  const year = new Date(thursday).getUTCFullYear();
  const week = 1 + Math.floor((thursday - Date.UTC(year, 0, 4)) / (7 * 86_400_000) + ((new Date(Date.UTC(year, 0, 4)).getUTCDay() + 6) % 7) / 7);
  return `${year}-W${String(week).padStart(2, "0")}`;
}

/** Turns the weekly summary on or off; answers the new state. Turned on, the first comes next week. */
export async function setWeeklySummary(env: Env, user: User, enabled: boolean, now = Date.now()): Promise<{ enabled: boolean }> {
  await database(env.DB)
    .update(users)
    .set(enabled ? { weeklySummaryAt: user.weeklySummaryAt ?? now, weeklySummaryWeek: isoWeek(now) } : { weeklySummaryAt: null })
    .where(eq(users.id, user.id));
  return { enabled };
}

/** The e-mail's unsubscribe link turns it off; answers the address, or null when the token is not one of these. */
export async function unsubscribeFromWeeklySummary(env: Env, token: string): Promise<string | null> {
  const claims = await verifyToken(tokenSettings(env), "unsubscribeWeeklySummary", token, UNSUBSCRIBE_TTL_SECONDS);
  if (!claims) return null;
  const db = database(env.DB);
  const user = await db.select({ email: users.email }).from(users).where(eq(users.id, claims.sub)).get();
  if (!user) return null;
  await db.update(users).set({ weeklySummaryAt: null }).where(eq(users.id, claims.sub));
  return user.email;
}

/**
 * The cron's part (every 5 minutes): up to WEEKLY_SUMMARY_BATCH users who asked for the summary and have not had
 * this week's, each claimed (its week written) before it is sent, so a week is mailed at most once whatever runs
 * overlap. A user whose profiles had no impressions in the last 7 days gets no e-mail that week.
 */
export async function sendWeeklySummaries(env: Env, now = Date.now()): Promise<{ sent: number; skipped: number }> {
  const week = isoWeek(now);
  const db = database(env.DB);
  const due = await db
    .select()
    .from(users)
    .where(and(isNotNull(users.weeklySummaryAt), or(isNull(users.weeklySummaryWeek), lt(users.weeklySummaryWeek, week)), isNull(users.blockedAt)))
    .limit(WEEKLY_SUMMARY_BATCH);
  let sent = 0;
  let skipped = 0;
  for (const user of due) {
    const claimed = await db
      .update(users)
      .set({ weeklySummaryWeek: week })
      .where(and(eq(users.id, user.id), or(isNull(users.weeklySummaryWeek), lt(users.weeklySummaryWeek, week))))
      .returning({ id: users.id });
    if (claimed.length === 0) continue;
    try {
      if (await sendWeeklySummary(env, user as User)) sent += 1;
      else skipped += 1;
    } catch (error) {
      // One user's failure does not stop the others; that week is not tried again (claimed: at most once).
      console.warn(`weekly summary for ${user.id} failed:`, error instanceof Error ? error.message : error);
      skipped += 1;
    }
  }
  return { sent, skipped };
}

async function sendWeeklySummary(env: Env, user: User): Promise<boolean> {
  const profiles = await listProfiles(env, user.id);
  const lines = (
    await Promise.all(
      profiles.map(async (profile) => {
        const overview = await schedulerFor(env, profile.id).analyticsOverview(7);
        return { username: profile.username, totals: overview.totals, pins: overview.pins };
      }),
    )
  ).filter((line) => line.totals.impressions > 0);
  if (lines.length === 0) return false;
  const token = await signToken(tokenSettings(env), "unsubscribeWeeklySummary", {}, user.id, UNSUBSCRIBE_TTL_SECONDS);
  const email = weeklySummaryEmail(user.email, user.firstName, lines, {
    insightsPage: new URL("/analytics", env.APP_URL).toString(),
    unsubscribePage: unsubscribePageUrl(env, token),
    oneClickUnsubscribe: oneClickUnsubscribeUrl(env, token),
  });
  return sendToAccountAddress(env, user, email);
}
