import * as v from "valibot";
import { body } from "../fields.ts";
import { KeywordPhrase } from "./keywords.ts";
import { PINTEREST_INTEREST_KEYS, PINTEREST_TREND_REGION_CODES, type PinterestInterest, type PinterestTrendRegion } from "../pinterest/pinterest-trends.ts";

/**
 * Trend alerts (/pinterest-trend-alerts, issue 19; design in docs/decisions/047-trend-alerts.md):
 * - GET    /api/trendAlerts/userTrendAlerts -> {userTrendAlerts: TrendAlertView[], limits}
 * - POST   /api/trendAlerts/createTrendAlert {newTrendAlertSettings} -> 201 {trendAlert}
 * - POST   /api/trendAlerts/updateTrendAlert {alertId, newTrendAlertSettings} -> {trendAlert}
 * - POST   /api/trendAlerts/pauseTrendAlert {alertId, paused} -> {trendAlert}
 * - DELETE /api/trendAlerts/deleteTrendAlert/{id} -> {deletedId}
 * - GET    /api/trendAlerts/history -> {history: TrendDigestView[]}
 * - POST   /api/trendAlerts/unsubscribe?token (the e-mail's one-click List-Unsubscribe-Post) -> {message}
 */

export const TREND_ALERT_LIMITS = {
  /** Alerts a user may keep. */
  alerts: 10,
  /** Keywords in one alert. */
  keywords: 10,
  /** Regions in one alert (each costs Pinterest calls on every check). */
  regions: 3,
  /** Interests in one alert. */
  interests: 5,
} as const;

export const TREND_ALERT_FREQUENCIES = ["daily", "weekly"] as const;
export type TrendAlertFrequency = (typeof TREND_ALERT_FREQUENCIES)[number];

const unique = <T>(values: T[]) => [...new Set(values)];

/** The keywords of one alert (the page's chips check each addition with it). */
export const TrendAlertKeywords = v.pipe(
  v.array(KeywordPhrase("keywords"), "keywords must be a list of keyword phrases"),
  v.transform(unique),
  v.maxLength(TREND_ALERT_LIMITS.keywords, `Please follow at most ${TREND_ALERT_LIMITS.keywords} keywords in one alert.`),
);

export const NewTrendAlertSettings = v.pipe(
  v.object(
    {
      keywords: TrendAlertKeywords,
      regions: v.pipe(
        v.array(v.picklist(PINTEREST_TREND_REGION_CODES, "regions must be Pinterest's trend regions"), "regions must be a list of Pinterest's trend regions"),
        v.transform(unique),
        v.minLength(1, "Please choose at least one region."),
        v.maxLength(TREND_ALERT_LIMITS.regions, `Please choose at most ${TREND_ALERT_LIMITS.regions} regions for one alert.`),
      ),
      interests: v.pipe(
        v.array(v.picklist(PINTEREST_INTEREST_KEYS, "interests must be Pinterest's interests"), "interests must be a list of Pinterest's interests"),
        v.transform(unique),
        v.maxLength(TREND_ALERT_LIMITS.interests, `Please choose at most ${TREND_ALERT_LIMITS.interests} interests for one alert.`),
      ),
      frequency: v.picklist(TREND_ALERT_FREQUENCIES, "frequency must be daily or weekly"),
    },
    (issue) =>
      issue.expected && /^".*"$/.test(issue.expected)
        ? `newTrendAlertSettings.${issue.expected.slice(1, -1)} is required`
        : "newTrendAlertSettings must be an object",
  ),
  v.forward(
    v.check((settings) => settings.keywords.length + settings.interests.length > 0, "Please add a keyword or choose an interest to follow."),
    ["keywords"],
  ),
);
export type NewTrendAlertSettings = v.InferOutput<typeof NewTrendAlertSettings>;

const AlertId = v.pipe(v.string("alertId is required"), v.trim(), v.nonEmpty("alertId is required"), v.maxLength(64, "alertId is invalid"));

export const CreateTrendAlertBody = body({ newTrendAlertSettings: NewTrendAlertSettings });
export const UpdateTrendAlertBody = body({ alertId: AlertId, newTrendAlertSettings: NewTrendAlertSettings });
export const PauseTrendAlertBody = body({ alertId: AlertId, paused: v.boolean("paused must be true or false") });
export const TrendAlertIdParam = v.object({ id: v.pipe(v.string(), v.trim(), v.nonEmpty("id is required"), v.maxLength(64, "id is invalid")) });
export const TrendAlertUnsubscribeQuery = v.object({
  token: v.pipe(v.string("token is required"), v.nonEmpty("token is required"), v.maxLength(2048, "token is invalid")),
});

/** One thing a check found: a followed keyword that rose, or a keyword newly trending in the alert's interests. */
export interface TrendFinding {
  kind: "rise" | "new";
  keyword: string;
  region: PinterestTrendRegion;
  /** Percent change of searches: last week against the week before; last 4 weeks against the 4 before. */
  weeklyChange: number | null;
  monthlyChange: number | null;
  /** The last day of the latest week Pinterest counted (YYYY-MM-DD). */
  weekEnding: string | null;
  /** The interests of the alert it was found in ("new" only). */
  interests?: PinterestInterest[];
  /** The chart of its recent weekly interest, when one was drawn (an image under /media/). */
  chartUrl?: string;
}

export interface TrendAlertResult {
  /** When the check ran (ISO 8601). */
  checkedAt: string;
  /** "found": something moved (and was e-mailed unless e-mail failed); "nothing": nothing moved; "failed": Pinterest could not be asked. */
  outcome: "found" | "nothing" | "failed";
  findings: TrendFinding[];
  /** Whether the digest with these findings was e-mailed. */
  emailed: boolean;
}

export interface TrendAlertView {
  alertId: string;
  keywords: string[];
  regions: PinterestTrendRegion[];
  interests: PinterestInterest[];
  frequency: TrendAlertFrequency;
  paused: boolean;
  /** Why it is paused: by the user on the page, or by the e-mail's unsubscribe link. */
  pausedReason: "user" | "unsubscribed" | null;
  createdAt: string;
  lastResult: TrendAlertResult | null;
}

export interface UserTrendAlerts {
  userTrendAlerts: TrendAlertView[];
  limits: typeof TREND_ALERT_LIMITS;
}

export interface TrendDigestView {
  digestId: string;
  sentAt: string;
  subject: string;
  findings: TrendFinding[];
}

export const TREND_ALERT_NOT_FOUND = "This trend alert was not found. It may have been deleted.";
export const TREND_ALERTS_FULL = `You can keep up to ${TREND_ALERT_LIMITS.alerts} trend alerts. Please delete one before adding another.`;
