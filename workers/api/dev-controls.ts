import { RerunAlarmBody } from "../../contracts/scheduling-api.ts";
import { requireUser } from "../auth/middleware.ts";
import { schedulerFor } from "../services/scheduler-index.ts";
import { ownProfile } from "../services/scheduling.ts";
import { apiNotFound } from "./errors.ts";
import { router } from "./hono.ts";
import { valid } from "./validation.ts";

/**
 * Controls for local runs and tests, under /api/dev: they answer 404 unless
 * DEV_CONTROLS is exactly "on", before anything else is looked at. Off in
 * wrangler.toml's [vars]; `npm start`, the tests and the benchmarks turn it on
 * (sandbox/provider-vars.ts). A staging deploy or a mistyped APP_ENV does not.
 */
export const devControls = router();

devControls.use("/dev/*", async (c, next) => {
  if (c.env.DEV_CONTROLS !== "on") return apiNotFound(c);
  await next();
});

/**
 * Runs the alarm of one of the caller's profiles again, due or not (a forced
 * re-run, as when an alarm is delivered twice). Answers the queue's counts.
 */
devControls.post("/dev/scheduling/rerunAlarm", requireUser, valid("json", RerunAlarmBody), async (c) => {
  const profile = await ownProfile(c.env, c.var.auth.user, c.req.valid("json").pinterestProfileUsername, "pinterestProfileUsername");
  return c.json({ counts: await schedulerFor(c.env, profile.id).rerunAlarm() });
});
