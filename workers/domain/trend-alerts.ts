import type { TrendAlertFrequency, TrendFinding } from "../../contracts/growth/trend-alerts.ts";
import type { PinterestInterest, PinterestTrendingKeyword, PinterestTrendRegion } from "../../contracts/pinterest/pinterest-trends.ts";

/**
 * The rules of trend alerts (docs/decisions/047-trend-alerts.md), pure: when an
 * alert is due, what counts as a rise, what is newly trending, and what the alert
 * remembers so the next digest only says what is new.
 */

/** A followed keyword "rises" when searches grew this much (percent) week over week, or month over month. */
export const RISE_THRESHOLDS = { weekly: 25, monthly: 40 } as const;

/** Newly trending keywords: looked for among this many top growing keywords of the alert's interests, at most this many per region in one digest. */
export const NEW_TRENDS_LOOKED_AT = 20;
export const NEW_TRENDS_PER_REGION = 5;

/** Weeks of interest drawn in a digest's chart, and charts per digest. */
export const CHART_WEEKS = 12;
export const CHARTS_PER_DIGEST = 3;

/**
 * The period a check belongs to (UTC): a day ("2026-11-26") for daily alerts, an
 * ISO week ("2026-W48") for weekly ones. An alert is checked at most once per period.
 */
export function periodOf(frequency: TrendAlertFrequency, now: number): string {
  const date = new Date(now);
  if (frequency === "daily") return date.toISOString().slice(0, 10);
  // ISO 8601 week: the week with the year's first Thursday is week 1.
  const day = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
  const weekday = day.getUTCDay() || 7;
  day.setUTCDate(day.getUTCDate() + 4 - weekday);
  const yearStart = Date.UTC(day.getUTCFullYear(), 0, 1);
  const week = Math.ceil(((day.getTime() - yearStart) / 86_400_000 + 1) / 7);
  return `${day.getUTCFullYear()}-W${String(week).padStart(2, "0")}`;
}

export function isRise(trend: Pick<PinterestTrendingKeyword, "pct_growth_wow" | "pct_growth_mom">): boolean {
  return (trend.pct_growth_wow ?? -Infinity) >= RISE_THRESHOLDS.weekly || (trend.pct_growth_mom ?? -Infinity) >= RISE_THRESHOLDS.monthly;
}

/** What an alert remembers between checks. */
export interface TrendAlertMemory {
  /** "region|keyword" -> the week ending (YYYY-MM-DD) its rise was last reported for. */
  reported?: Record<string, string>;
  /** "region|interests" -> the growing keywords seen there last time. */
  trending?: Record<string, string[]>;
}

const latestWeek = (trend: PinterestTrendingKeyword) =>
  Object.keys(trend.time_series ?? {})
    .sort()
    .at(-1) ?? null;
const norm = (keyword: string) => keyword.trim().toLowerCase();

/**
 * The followed keywords that rose in a region, from Pinterest's figures for them
 * (trends asked with include_keywords): each rise is reported once per week of
 * Pinterest's data, so a daily alert does not repeat last week's news all week.
 */
export function risesIn(
  region: PinterestTrendRegion,
  keywords: readonly string[],
  trends: readonly PinterestTrendingKeyword[],
  memory: TrendAlertMemory,
): { findings: TrendFinding[]; reported: Record<string, string> } {
  const reported = { ...memory.reported };
  const findings: TrendFinding[] = [];
  const byKeyword = new Map(trends.map((trend) => [norm(trend.keyword), trend]));
  for (const keyword of keywords) {
    const trend = byKeyword.get(norm(keyword));
    if (!trend || !isRise(trend)) continue;
    const week = latestWeek(trend);
    const key = `${region}|${norm(keyword)}`;
    if (week !== null && reported[key] === week) continue;
    if (week !== null) reported[key] = week;
    findings.push({
      kind: "rise",
      keyword: norm(keyword),
      region,
      weeklyChange: trend.pct_growth_wow ?? null,
      monthlyChange: trend.pct_growth_mom ?? null,
      weekEnding: week,
    });
  }
  return { findings, reported };
}

/**
 * Keywords growing in the alert's interests in a region that were not there at
 * the last check. The first check of a region and interests only remembers what
 * trends (everything would be "new"); keywords the alert follows are left to risesIn.
 */
export function newTrendsIn(
  region: PinterestTrendRegion,
  interests: readonly PinterestInterest[],
  followed: readonly string[],
  growing: readonly PinterestTrendingKeyword[],
  memory: TrendAlertMemory,
): { findings: TrendFinding[]; trending: Record<string, string[]> } {
  const key = `${region}|${[...interests].sort().join(",")}`;
  const seenBefore = memory.trending?.[key];
  const now = growing.slice(0, NEW_TRENDS_LOOKED_AT).map((trend) => ({ trend, keyword: norm(trend.keyword) }));
  const trending = { ...memory.trending, [key]: now.map((entry) => entry.keyword) };
  if (seenBefore === undefined) return { findings: [], trending };
  const seen = new Set(seenBefore);
  const mine = new Set(followed.map(norm));
  const findings = now
    .filter((entry) => !seen.has(entry.keyword) && !mine.has(entry.keyword))
    .slice(0, NEW_TRENDS_PER_REGION)
    .map<TrendFinding>(({ trend, keyword }) => ({
      kind: "new",
      keyword,
      region,
      interests: [...interests],
      weeklyChange: trend.pct_growth_wow ?? null,
      monthlyChange: trend.pct_growth_mom ?? null,
      weekEnding: latestWeek(trend),
    }));
  return { findings, trending };
}

/** The latest `weeks` weekly values of a trend's series, oldest first, with their week endings. */
export function recentSeries(trend: PinterestTrendingKeyword, weeks = CHART_WEEKS): { weeks: string[]; values: number[] } {
  const series = trend.time_series ?? {};
  const ends = Object.keys(series).sort().slice(-weeks);
  return { weeks: ends, values: ends.map((end) => series[end] ?? 0) };
}

/** A change in words: "up 50%", "down 12%", "more than doubled". */
export function changeInWords(change: number | null): string | null {
  if (change === null) return null;
  if (change > 10000) return "up more than 10,000%";
  if (change >= 100) return `up ${change.toLocaleString("en-US")}% (${(1 + change / 100).toFixed(1).replace(/\.0$/, "")} times the searches)`;
  if (change > 0) return `up ${change}%`;
  if (change < 0) return `down ${Math.abs(change)}%`;
  return "unchanged";
}

/** One finding as a sentence for the e-mail and the page. */
export function findingInWords(finding: TrendFinding, regionName: string, interestNames: (interest: PinterestInterest) => string): string {
  const weekly = changeInWords(finding.weeklyChange);
  const monthly = changeInWords(finding.monthlyChange);
  const changes = [weekly && `${weekly} on the week before`, monthly && `${monthly} over the last four weeks`].filter(Boolean).join(", ");
  if (finding.kind === "rise") return `"${finding.keyword}" is rising in ${regionName}: searches ${changes || "are up"}.`;
  const where = finding.interests && finding.interests.length > 0 ? ` in ${finding.interests.map(interestNames).join(", ")}` : "";
  return `"${finding.keyword}" is newly trending${where} in ${regionName}${changes ? `: searches ${changes}` : ""}.`;
}
