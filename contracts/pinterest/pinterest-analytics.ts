/**
 * Pinterest's analytics vocabulary as the API speaks it (../shared/specs/pinterest-api-v5.openapi.json:
 * `multi_pins/analytics` answering BulkPinAnalyticsResponse, `user_account/analytics` answering AnalyticsResponse).
 * Used by the client (workers/integrations/pinterest.ts), the sync in each profile's ProfileScheduler, and the
 * sandbox's stand-in.
 */

/** The pin metrics we read (Pinterest's own names). */
export const PINTEREST_PIN_METRICS = ["IMPRESSION", "SAVE", "PIN_CLICK", "OUTBOUND_CLICK"] as const;
export type PinterestPinMetric = (typeof PINTEREST_PIN_METRICS)[number];

/** Pins per multi_pins/analytics call (Pinterest's limit). */
export const PINTEREST_ANALYTICS_MAX_PINS = 100;
/** How far back start_date may go, and how long a report may be, in days (Pinterest's limit). */
export const PINTEREST_ANALYTICS_MAX_DAYS = 90;

/** One day of a pin's or an account's metrics. */
export interface PinterestDailyMetrics {
  /** YYYY-MM-DD (UTC). */
  date: string;
  /** READY for final figures; PROCESSING for a day Pinterest is still counting. */
  data_status?: string;
  metrics?: Record<string, number>;
}

export interface PinterestMetricsReport {
  daily_metrics?: PinterestDailyMetrics[];
  summary_metrics?: Record<string, number>;
  lifetime_metrics?: Record<string, number>;
}

/** multi_pins/analytics: by pin id, then by app type ("ALL"). */
export type PinterestBulkPinAnalytics = Record<string, Record<string, PinterestMetricsReport>>;

/** user_account/analytics: by split ("all" without a split). */
export type PinterestAccountAnalytics = Record<string, PinterestMetricsReport>;

/** The metrics user_account/analytics is asked for (Pinterest's names for the account's daily totals). */
export const PINTEREST_ACCOUNT_METRICS = ["IMPRESSION", "SAVE", "PIN_CLICK", "OUTBOUND_CLICK", "ENGAGEMENT"] as const;
