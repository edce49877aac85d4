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
import { requireUser, requireUserAndProfile } from "../../auth/middleware.ts";
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

/**
 * The calls on one profile (?username=) sign the caller in and read that profile in one D1 query
 * (requireUserAndProfile), then ask its object: registered before the requireUser of the others.
 */
const withProfile = requireUserAndProfile((c) => (c.req.query("username") ?? "").trim());

/** Totals, a daily series and the breakdowns of the last 7, 30 or 90 days. */
analyticsApi.get("/analytics/overview", withProfile, valid("query", OverviewQuery), async (c) => {
  c.header("cache-control", "private, no-store");
  return c.json((await analyticsOverview(c.env, c.var.auth.user, c.var.namedProfile, c.req.valid("query").days)) satisfies AnalyticsOverview);
});

/** A page of the window's pins with their figures, in the order asked; `cursor` is the last page's `nextCursor`. */
analyticsApi.get("/analytics/pins", withProfile, valid("query", PinsQuery), async (c) => {
  c.header("cache-control", "private, no-store");
  return c.json((await analyticsPins(c.env, c.var.namedProfile, c.req.valid("query"))) satisfies AnalyticsPinsPage);
});

/** Suggested posting times from the profile's own audience (or the defaults, with a note, below the minimum sample). */
analyticsApi.get("/analytics/bestTimes", withProfile, valid("query", BestTimesQuery), async (c) => {
  c.header("cache-control", "private, no-store");
  return c.json((await analyticsBestTimes(c.env, c.var.namedProfile)) satisfies BestTimes);
});

/** The window's pins as a CSV file (one row per pin). */
analyticsApi.get("/analytics/export", withProfile, valid("query", ExportQuery), async (c) => {
  const { fileName, csv } = await analyticsExport(c.env, c.var.namedProfile, c.req.valid("query").days);
  return c.body(csv, 200, {
    "content-type": "text/csv; charset=utf-8",
    "content-disposition": `attachment; filename="${fileName.replace(/[^A-Za-z0-9._-]/g, "_")}"`,
    "cache-control": "private, no-store",
  });
});

analyticsApi.use("/analytics/*", requireUser);

/** The user's template families ranked by engagement over 90 days, all profiles: the generator's weights. */
analyticsApi.get("/analytics/families", async (c) => {
  c.header("cache-control", "private, no-store");
  return c.json((await analyticsFamilies(c.env, c.var.auth.user)) satisfies FamilyPerformance);
});

/** Whether the caller gets the weekly summary e-mail. */
analyticsApi.get("/analytics/weeklySummary", (c) => c.json({ enabled: c.var.auth.user.weeklySummaryAt != null } satisfies WeeklySummaryState));

/** Turns the weekly summary e-mail on or off; answers the new state. */
analyticsApi.post("/analytics/weeklySummary", valid("json", WeeklySummaryBody), async (c) =>
  c.json((await setWeeklySummary(c.env, c.var.auth.user, c.req.valid("json").enabled)) satisfies WeeklySummaryState),
);
