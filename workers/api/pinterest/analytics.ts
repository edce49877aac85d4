import {
  BestTimesQuery,
  ExportQuery,
  OverviewQuery,
  PinsQuery,
  WeeklySummaryBody,
  type AnalyticsOverview,
  type AnalyticsPinsPage,
  type BestTimes,
  type FamilyPerformance,
  type WeeklySummaryState,
} from "../../../contracts/pinterest/analytics.ts";
import { requireUser } from "../../auth/middleware.ts";
import {
  analyticsBestTimes,
  analyticsExport,
  analyticsFamilies,
  analyticsOverview,
  analyticsPins,
  setWeeklySummary,
} from "../../services/pinterest/analytics.ts";
import { router } from "../core/hono.ts";
import { valid } from "../core/validation.ts";

/**
 * Insights (issue 41, docs/decisions/093-insights.md): the analytics page's calls, each for the signed-in user's own
 * profiles (another username answers 403). The figures come from each profile's ProfileScheduler.
 */
export const analyticsApi = router();

analyticsApi.use("/analytics/*", requireUser);

/** Totals, a daily series and the breakdowns of the last 7, 30 or 90 days. */
analyticsApi.get("/analytics/overview", valid("query", OverviewQuery), async (c) => {
  const { username, days } = c.req.valid("query");
  c.header("cache-control", "private, no-store");
  return c.json((await analyticsOverview(c.env, c.var.auth.user, username, days)) satisfies AnalyticsOverview);
});

/** A page of the window's pins with their figures, in the order asked; `cursor` is the last page's `nextCursor`. */
analyticsApi.get("/analytics/pins", valid("query", PinsQuery), async (c) => {
  c.header("cache-control", "private, no-store");
  return c.json((await analyticsPins(c.env, c.var.auth.user, c.req.valid("query"))) satisfies AnalyticsPinsPage);
});

/** Suggested posting times from the profile's own audience (or the defaults, with a note, below the minimum sample). */
analyticsApi.get("/analytics/bestTimes", valid("query", BestTimesQuery), async (c) => {
  c.header("cache-control", "private, no-store");
  return c.json((await analyticsBestTimes(c.env, c.var.auth.user, c.req.valid("query").username)) satisfies BestTimes);
});

/** The user's template families ranked by engagement over 90 days, all profiles: the generator's weights. */
analyticsApi.get("/analytics/families", async (c) => {
  c.header("cache-control", "private, no-store");
  return c.json((await analyticsFamilies(c.env, c.var.auth.user)) satisfies FamilyPerformance);
});

/** The window's pins as a CSV file (one row per pin). */
analyticsApi.get("/analytics/export", valid("query", ExportQuery), async (c) => {
  const { username, days } = c.req.valid("query");
  const { fileName, csv } = await analyticsExport(c.env, c.var.auth.user, username, days);
  return c.body(csv, 200, {
    "content-type": "text/csv; charset=utf-8",
    "content-disposition": `attachment; filename="${fileName.replace(/[^A-Za-z0-9._-]/g, "_")}"`,
    "cache-control": "private, no-store",
  });
});

/** Whether the caller gets the weekly summary e-mail. */
analyticsApi.get("/analytics/weeklySummary", (c) => c.json({ enabled: c.var.auth.user.weeklySummaryAt != null } satisfies WeeklySummaryState));

/** Turns the weekly summary e-mail on or off; answers the new state. */
analyticsApi.post("/analytics/weeklySummary", valid("json", WeeklySummaryBody), async (c) =>
  c.json((await setWeeklySummary(c.env, c.var.auth.user, c.req.valid("json").enabled)) satisfies WeeklySummaryState),
);
