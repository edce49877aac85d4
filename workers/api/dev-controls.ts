import { RerunAlarmBody } from "../../contracts/scheduling-api.ts";
import { requireUser } from "../auth/middleware.ts";
import { schedulerFor } from "../services/scheduler-index.ts";
import { ownProfile } from "../services/scheduling.ts";
import { apiNotFound } from "./errors.ts";
import { router } from "./hono.ts";
import { valid } from "./validation.ts";

/**
 * Controls for local runs and tests, under /api/dev: they answer 404 when
 * APP_ENV is "production" (wrangler.toml's [vars]), before anything else is
 * looked at. `npm start`, the tests and the benchmarks run with another APP_ENV.
 */
export const devControls = router();

devControls.use("/dev/*", async (c, next) => {
  if (c.env.APP_ENV === "production") return apiNotFound(c);
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
