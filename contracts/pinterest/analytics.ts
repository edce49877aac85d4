import * as v from "valibot";
import { TEMPLATE_FAMILIES } from "../content/template.ts";

/**
 * Insights (issue 41): what the analytics calls take and answer. The numbers are Pinterest's, read daily for the
 * pins this product posted (GET /v5/pins/analytics), kept 90 days at daily detail in each profile's
 * ProfileScheduler object, and tied to the template, source, board and posting time that made each pin.
 */

/** The windows the page offers. */
export const ANALYTICS_WINDOWS = [7, 30, 90] as const;
export type AnalyticsWindow = (typeof ANALYTICS_WINDOWS)[number];

/** Where a pin's content came from (the generator's input). "other": typed in, an upload, or not known. */
export const PIN_SOURCES = ["blog", "sitemap", "feed", "shop", "csv", "other"] as const;
export type PinSource = (typeof PIN_SOURCES)[number];
export const PIN_SOURCE_LABELS: Record<PinSource, string> = {
  blog: "Blog post or page",
  sitemap: "Sitemap",
  feed: "RSS feed",
  shop: "Shop product",
  csv: "CSV file",
  other: "Other",
};

/** The template families as people read them (breakdowns, the drawer's note). */
export const TEMPLATE_FAMILY_LABELS: Record<(typeof TEMPLATE_FAMILIES)[number], string> = {
  "full-bleed": "Full picture",
  split: "Split",
  collage: "Collage",
  "text-only": "Text only",
  list: "List",
  product: "Product",
  quote: "Quote",
  "before-after": "Before and after",
  video: "Video",
};

/** What made a pin: sent with each pin scheduled from the generator (all optional; old pins have none). */
export const PinOrigin = v.object({
  templateId: v.optional(v.pipe(v.string("templateId must be text"), v.maxLength(100, "templateId must be at most 100 characters"))),
  templateTitle: v.optional(v.pipe(v.string("templateTitle must be text"), v.maxLength(200, "templateTitle must be at most 200 characters"))),
  templateFamily: v.optional(v.picklist(TEMPLATE_FAMILIES, "templateFamily must be one of the template families")),
  source: v.optional(v.picklist(PIN_SOURCES, `source must be one of ${PIN_SOURCES.join(", ")}`)),
});
export type PinOrigin = v.InferOutput<typeof PinOrigin>;

/** 7, 30 or 90 (a query's text read as a number); 30 when not given. */
const Days = v.optional(
  v.pipe(
    v.unknown(),
    v.transform((value) => (value === null || value === "" ? 30 : Number(value))),
    v.picklist(ANALYTICS_WINDOWS, "days must be 7, 30 or 90"),
  ),
  30,
);
const Username = v.pipe(v.string("username is required"), v.trim(), v.minLength(1, "username is required"), v.maxLength(100, "username is too long"));

export const ANALYTICS_SORTS = ["impressions", "saves", "outboundClicks", "engagementRate", "postedAt"] as const;
export type AnalyticsSort = (typeof ANALYTICS_SORTS)[number];

export const OverviewQuery = v.object({ username: Username, days: Days });
export const PinsQuery = v.object({
  username: Username,
  days: Days,
  sortBy: v.optional(v.picklist(ANALYTICS_SORTS, `sortBy must be one of ${ANALYTICS_SORTS.join(", ")}`), "impressions"),
  limit: v.optional(
    v.pipe(
      v.unknown(),
      v.transform(Number),
      v.number("limit must be a number"),
      v.integer("limit must be a whole number"),
      v.minValue(1, "limit must be at least 1"),
      v.maxValue(200, "limit must be at most 200"),
    ),
    50,
  ),
  cursor: v.optional(v.pipe(v.string(), v.maxLength(200))),
});
export const BestTimesQuery = v.object({ username: Username });

/** Sums over a window or a day. engagementRate = (saves + pin clicks + outbound clicks) / impressions, 0 without impressions. */
export interface Metrics {
  impressions: number;
  saves: number;
  pinClicks: number;
  outboundClicks: number;
  engagementRate: number;
}

export interface DailyMetrics extends Metrics {
  /** YYYY-MM-DD (UTC, as Pinterest reports). */
  date: string;
}

export const BREAKDOWNS = ["board", "template", "templateFamily", "source", "hour"] as const;
export type Breakdown = (typeof BREAKDOWNS)[number];

export interface BreakdownRow extends Metrics {
  /** The board id, template id, family, source or hour ("00" to "23", in the profile's time zone). */
  key: string;
  /** What a person reads: the board's name, the template's title, "Split", "Blog post or page", "9 am". */
  label: string;
  pins: number;
}

/** GET /api/analytics/overview?username=&days= */
export interface AnalyticsOverview {
  username: string;
  days: AnalyticsWindow;
  /** The window's first and last day (YYYY-MM-DD). */
  from: string;
  to: string;
  /** The profile's time zone (IANA): posting hours are shown in it. */
  timeZone: string;
  /** When the figures were last read from Pinterest (ms), null before the first read. */
  syncedAt: number | null;
  /** Pins posted by this product that the window's figures cover. */
  pins: number;
  totals: Metrics;
  daily: DailyMetrics[];
  breakdowns: Record<Breakdown, BreakdownRow[]>;
  /**
   * The whole Pinterest profile over the same window (every pin on the account, not only those this product posted:
   * Pinterest's user_account/analytics), for a "whole profile" line; null before it was first read.
   */
  profile: { totals: Metrics; daily: DailyMetrics[] } | null;
  /** Whether the caller gets the weekly summary e-mail (POST /api/analytics/weeklySummary changes it). */
  weeklySummary: boolean;
}

export interface AnalyticsPin extends Metrics {
  /** Our scheduled pin's id. */
  pinId: string;
  pinterestPinId: string;
  /** https://www.pinterest.com/pin/{id}/ */
  pinterestUrl: string;
  title: string;
  imageUrl: string;
  boardName: string;
  templateId: string | null;
  templateTitle: string | null;
  templateFamily: string | null;
  source: PinSource;
  postedAt: number;
}

/** GET /api/analytics/pins?username=&days=&sortBy=&limit=&cursor= */
export interface AnalyticsPinsPage {
  username: string;
  days: AnalyticsWindow;
  sortBy: AnalyticsSort;
  pins: AnalyticsPin[];
  /** Pins in the window in all. */
  total: number;
  nextCursor: string | null;
}

/** The least posted pins with figures before posting times are learned from the user's own audience. */
export const BEST_TIMES_MIN_PINS = 30;

/** GET /api/analytics/bestTimes?username= */
export interface BestTimes {
  username: string;
  timeZone: string;
  /** "audience": learned from the profile's own figures; "defaults": not enough yet (see note). */
  basedOn: "audience" | "defaults";
  /** Pins with figures the suggestion is based on, and the least it needs. */
  sample: number;
  minimumSample: number;
  /** One sentence for the user, e.g. why the defaults are shown. */
  note: string;
  /** Engagement per hour of the profile's day (24 entries, 0 to 23), relative: the best hour is 1. */
  hours: { hour: number; score: number }[];
  /** Each weekday's best hour (0 = Sunday ... 6 = Saturday, in the profile's zone). */
  weekdays: { weekday: number; bestHour: number; score: number }[];
  /** The two posting windows to use ([start, end) seconds of the day, as SchedulingSettings has them). */
  windowOneTimes: [number, number];
  windowTwoTimes: [number, number] | null;
}

/** GET /api/analytics/families: the user's template families ranked by engagement over 90 days, all profiles. */
export interface FamilyPerformance {
  /** Enough data to lean on (the generator leans only then). */
  enough: boolean;
  families: { family: string; pins: number; impressions: number; engagementRate: number; weight: number }[];
}

/** Pins with a family (over 90 days, all profiles) before the generator leans on families; and per family before its weight moves from 1. */
export const FAMILIES_MIN_PINS = 20;
export const FAMILY_MIN_PINS = 5;
/** Weights stay within these bounds: the generator leans, it never stops choosing a family. */
export const FAMILY_WEIGHT_BOUNDS = { min: 0.5, max: 2 } as const;

/** GET /api/analytics/export?username=&days=: text/csv, one row per pin, with these columns. */
export const ANALYTICS_EXPORT_COLUMNS = [
  "Posted at",
  "Title",
  "Board",
  "Template",
  "Template family",
  "Source",
  "Posting hour",
  "Impressions",
  "Saves",
  "Pin clicks",
  "Outbound clicks",
  "Engagement rate",
  "Pinterest link",
] as const;
export const ExportQuery = OverviewQuery;

/** POST /api/analytics/weeklySummary {enabled}: answers the new state. GET /api/analytics/weeklySummary answers the current one. */
export const WeeklySummaryBody = v.object({ enabled: v.boolean("enabled must be true or false") }, "enabled is required");
export interface WeeklySummaryState {
  enabled: boolean;
}

/** A posted pin with its daily figures ([date, impressions, saves, pin clicks, outbound clicks]), as the benchmark's dev control (POST /api/dev/analytics/fill) writes it. */
export interface BulkAnalyticsPin {
  pinId: string;
  pinterestPinId: string;
  postedAt: number;
  boardId: string;
  boardName: string;
  templateId: string | null;
  templateTitle: string | null;
  family: string | null;
  source: PinSource;
  title: string;
  imageUrl: string;
  days: [string, number, number, number, number][];
}
