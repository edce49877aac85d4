import type { QueryKey } from "@tanstack/react-query";
import type {
  AnalyticsOverview,
  AnalyticsPinsPage,
  AnalyticsSort,
  AnalyticsWindow,
  BestTimes,
  FamilyPerformance,
} from "../../../contracts/pinterest/analytics.ts";
import type { SchedulingSettings } from "../../../contracts/pinterest/scheduling.ts";
import { saveFile } from "../generator/download.ts";
import { ApiError, apiFetch, apiJson } from "../api-client.ts";
import { clockOf } from "./times.ts";

/** The analytics calls of the browser (issue 41; contracts/pinterest/analytics.ts) and how their figures read. */

const query = (params: Record<string, string | number | undefined>) =>
  new URLSearchParams(Object.entries(params).flatMap(([key, value]) => (value === undefined ? [] : [[key, String(value)]]))).toString();

export const getOverview = (username: string, days: AnalyticsWindow, signal?: AbortSignal) =>
  apiJson<AnalyticsOverview>(`/api/analytics/overview?${query({ username, days })}`, { signal });

export const getAnalyticsPins = (
  options: { username: string; days: AnalyticsWindow; sortBy: AnalyticsSort; limit?: number; cursor?: string | null },
  signal?: AbortSignal,
) =>
  apiJson<AnalyticsPinsPage>(`/api/analytics/pins?${query({ ...options, cursor: options.cursor ?? undefined })}`, {
    signal,
  });

export const getBestTimes = (username: string, signal?: AbortSignal) => apiJson<BestTimes>(`/api/analytics/bestTimes?${query({ username })}`, { signal });

export const getFamilyPerformance = (signal?: AbortSignal) => apiJson<FamilyPerformance>("/api/analytics/families", { signal });

/** Whether the weekly summary e-mail is on (opt-in), and turning it on or off. */
export const getWeeklySummary = (signal?: AbortSignal) => apiJson<{ enabled: boolean }>("/api/analytics/weeklySummary", { signal });
export const setWeeklySummary = (enabled: boolean) => apiJson<{ enabled: boolean }>("/api/analytics/weeklySummary", { json: { enabled } });

/** Downloads the window's figures as a CSV file (the bearer header goes with the call, as every API call's does). */
export async function downloadAnalyticsCsv(username: string, days: AnalyticsWindow): Promise<string> {
  const response = await apiFetch(`/api/analytics/export?${query({ username, days })}`);
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { error?: string } | null;
    throw new ApiError(response.status, body?.error ?? `The download failed (${response.status}). Please try again.`);
  }
  const fileName = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] ?? `pin-analytics-${username}-${days}-days.csv`;
  saveFile(new Uint8Array(await response.arrayBuffer()), fileName, "text/csv");
  return fileName;
}

/** The cache keys of the analytics reads (app/lib/query.ts). */
export const analyticsKeys = {
  all: (): QueryKey => ["analytics"],
  overview: (username: string, days: AnalyticsWindow): QueryKey => ["analytics", "overview", username, days],
  pins: (username: string, days: AnalyticsWindow, sortBy: AnalyticsSort): QueryKey => ["analytics", "pins", username, days, sortBy],
  bestTimes: (username: string): QueryKey => ["analytics", "best-times", username],
  families: (): QueryKey => ["analytics", "families"],
  weeklySummary: (): QueryKey => ["analytics", "weekly-summary"],
};

const WHOLE = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const RATE = new Intl.NumberFormat("en-US", { style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** 12345 -> "12,345". */
export const formatCount = (value: number) => WHOLE.format(value);
/** 0.0321 -> "3.2%". */
export const formatRate = (value: number) => RATE.format(value);

/** "2026-11-24" -> "24 Nov" (the day as Pinterest reports it, UTC). */
export function dayLabel(date: string, options: Intl.DateTimeFormatOptions = { day: "numeric", month: "short" }): string {
  const ms = Date.parse(`${date}T00:00:00Z`);
  return Number.isNaN(ms) ? date : new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", ...options }).format(ms);
}

export const SORT_LABELS: Record<AnalyticsSort, string> = {
  impressions: "Impressions",
  saves: "Saves",
  outboundClicks: "Outbound clicks",
  engagementRate: "Engagement rate",
  postedAt: "Newest first",
};

/** A profile's posting windows, as /scheduling's suggestion compares and words them. */
export type Windows = Pick<SchedulingSettings, "windowOneTimes" | "windowTwoTimes">;

/** "09:00 to 11:00 and 19:00 to 21:00". */
export function windowsText({ windowOneTimes, windowTwoTimes }: Windows): string {
  const one = `${clockOf(windowOneTimes[0] % 86_400)} to ${clockOf(windowOneTimes[1] % 86_400)}`;
  return windowTwoTimes ? `${one} and ${clockOf(windowTwoTimes[0] % 86_400)} to ${clockOf(windowTwoTimes[1] % 86_400)}` : one;
}

export const sameWindows = (a: Windows, b: Windows) =>
  a.windowOneTimes[0] === b.windowOneTimes[0] &&
  a.windowOneTimes[1] === b.windowOneTimes[1] &&
  (a.windowTwoTimes?.[0] ?? null) === (b.windowTwoTimes?.[0] ?? null) &&
  (a.windowTwoTimes?.[1] ?? null) === (b.windowTwoTimes?.[1] ?? null);
