import {
  CreateTrendAlertBody,
  PauseTrendAlertBody,
  TrendAlertIdParam,
  TrendAlertUnsubscribeQuery,
  UpdateTrendAlertBody,
  type TrendAlertView,
  type UserTrendAlerts,
} from "../../../contracts/growth/trend-alerts.ts";
import { requireUser } from "../../auth/middleware.ts";
import { ServiceError } from "../../services/core/errors.ts";
import {
  createTrendAlert,
  deleteTrendAlert,
  listTrendAlerts,
  pauseTrendAlert,
  trendAlertHistory,
  unsubscribeFromTrendAlerts,
  updateTrendAlert,
} from "../../services/growth/trend-alerts.ts";
import { router } from "../core/hono.ts";
import { valid } from "../core/validation.ts";

/** Trend alerts (issue 19, docs/decisions/047-trend-alerts.md): every call but the e-mail's unsubscribe is the signed-in user's own. */
export const trendAlertsApi = router();

/**
 * The digest's List-Unsubscribe-Post target (RFC 8058): a mail app POSTs
 * "List-Unsubscribe=One-Click" here, without cookies; the signed token names the user.
 */
trendAlertsApi.post("/trendAlerts/unsubscribe", valid("query", TrendAlertUnsubscribeQuery), async (c) => {
  const email = await unsubscribeFromTrendAlerts(c.env, c.req.valid("query").token);
  if (email === null) throw new ServiceError(400, "This unsubscribe link is invalid or has expired.", "token");
  return c.json({ message: `${email} will no longer receive trend alert e-mails.` });
});

trendAlertsApi.use("/trendAlerts/*", requireUser);

trendAlertsApi.get("/trendAlerts/userTrendAlerts", async (c) => {
  c.header("cache-control", "private, no-store");
  return c.json((await listTrendAlerts(c.env, c.var.auth.user)) satisfies UserTrendAlerts);
});

trendAlertsApi.post("/trendAlerts/createTrendAlert", valid("json", CreateTrendAlertBody), async (c) => {
  const trendAlert = await createTrendAlert(c.env, c.var.auth.user, c.req.valid("json").newTrendAlertSettings);
  return c.json({ trendAlert: trendAlert satisfies TrendAlertView }, 201);
});

trendAlertsApi.post("/trendAlerts/updateTrendAlert", valid("json", UpdateTrendAlertBody), async (c) => {
  const { alertId, newTrendAlertSettings } = c.req.valid("json");
  return c.json({ trendAlert: await updateTrendAlert(c.env, c.var.auth.user, alertId, newTrendAlertSettings) });
});

trendAlertsApi.post("/trendAlerts/pauseTrendAlert", valid("json", PauseTrendAlertBody), async (c) => {
  const { alertId, paused } = c.req.valid("json");
  return c.json({ trendAlert: await pauseTrendAlert(c.env, c.var.auth.user, alertId, paused) });
});

trendAlertsApi.delete("/trendAlerts/deleteTrendAlert/:id", valid("param", TrendAlertIdParam), async (c) => {
  return c.json(await deleteTrendAlert(c.env, c.var.auth.user, c.req.valid("param").id));
});

trendAlertsApi.get("/trendAlerts/history", async (c) => {
  c.header("cache-control", "private, no-store");
  return c.json(await trendAlertHistory(c.env, c.var.auth.user));
});
