import * as v from "valibot";
import { TEMPLATE_FAMILIES } from "../../../contracts/content/template.ts";
import { PIN_SOURCES } from "../../../contracts/pinterest/analytics.ts";
import { RerunAlarmBody } from "../../../contracts/pinterest/scheduling-api.ts";
import { requireUser } from "../../auth/middleware.ts";
import { ledgerOf } from "../../ledger/client.ts";
import { ADMIN_GRANT_PREFIX, creditsSummary } from "../../services/billing/credits.ts";
import { schedulerFor } from "../../services/pinterest/scheduler-index.ts";
import { ownProfile } from "../../services/pinterest/scheduling.ts";
import { apiError, apiNotFound } from "./errors.ts";
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

const SqlBody = v.object({ sql: v.pipe(v.string("sql is required"), v.minLength(1, "sql is required"), v.maxLength(10_000, "sql is too long")) });

/**
 * Runs one SQL statement on D1 through the app's own binding: the end-to-end tests' way to states no page makes (an
 * admin, a commission past its hold). Through the running worker, not a second process on the same SQLite files,
 * which met the app's writes as "database is locked" (SQLITE_BUSY). Answers the rows changed. Local only, as every
 * control here (DEV_CONTROLS).
 */
devControls.post("/dev/d1/execute", valid("json", SqlBody), async (c) => {
  try {
    const result = await c.env.DB.prepare(c.req.valid("json").sql).run();
    return c.json({ changes: result.meta.changes });
  } catch (error) {
    // D1's own words go to the log (the caller is a test, which prints it on failure), not into the answer.
    console.warn("dev d1/execute:", error instanceof Error ? error.message : String(error));
    return apiError(c, 400, "The SQL statement could not be run.", "sql");
  }
});

/**
 * Runs the alarm of one of the caller's profiles again, due or not (a forced
 * re-run, as when an alarm is delivered twice). Answers the queue's counts.
 */
devControls.post("/dev/scheduling/rerunAlarm", requireUser, valid("json", RerunAlarmBody), async (c) => {
  const profile = await ownProfile(c.env, c.var.auth.user, c.req.valid("json").pinterestProfileUsername, "pinterestProfileUsername");
  return c.json({ counts: await schedulerFor(c.env, profile.id).rerunAlarm() });
});

/** A whole number field of a dev control's body, from 1 to `max`. */
const wholeNumber = (field: string, max: number) =>
  v.pipe(
    v.number(`${field} must be a number`),
    v.integer(`${field} must be a whole number`),
    v.minValue(1, `${field} must be at least 1`),
    v.maxValue(max, `${field} must be at most ${max.toLocaleString("en-US")}`),
  );

const GrantBody = v.object({ amount: wholeNumber("amount", 1_000_000) });

/**
 * Grants the caller credits for this billing month (the benchmarks' large accounts), as an admin's grant does: a
 * row of their ledger counted on top of their plan's. Answers the balance.
 */
devControls.post("/dev/credits/grant", requireUser, valid("json", GrantBody), async (c) => {
  const user = c.var.auth.user;
  await ledgerOf(c.env, user.id)
    .prepare(
      `INSERT INTO credit_ledger (id, user_id, amount, category, reason, reference, created_at) VALUES (?1, ?2, ?3, 'admin-grant', 'Development grant', ?4, ?5)`,
    )
    .bind(crypto.randomUUID(), user.id, c.req.valid("json").amount, `${ADMIN_GRANT_PREFIX}dev-${crypto.randomUUID()}`, Date.now())
    .run();
  return c.json({ remaining: (await creditsSummary(c.env, user.id)).remaining });
});

const BackdateBody = v.object({ days: wholeNumber("days", 3_650) });

/**
 * Moves the caller's pin history `days` back in time (the tests' way to an account with old history): entries past
 * the 13 months kept online are then archived by their ledger's own retention, as they would be with time. Answers
 * how many entries moved.
 */
devControls.post("/dev/pinHistory/backdate", requireUser, valid("json", BackdateBody), async (c) => {
  const user = c.var.auth.user;
  const shift = c.req.valid("json").days * 86_400_000;
  const { meta } = await ledgerOf(c.env, user.id).prepare(`UPDATE pin_history SET created_at = created_at - ?1 WHERE user_id = ?2`).bind(shift, user.id).run();
  return c.json({ entries: meta.changes });
});

const SyncAnalyticsBody = v.object({
  pinterestProfileUsername: RerunAlarmBody.entries.pinterestProfileUsername,
  /** The object's clock for this sync (ms since 1970): retention tests move it days on. */
  now: v.optional(v.pipe(v.number("now must be a number"), v.integer("now must be whole milliseconds"), v.minValue(0, "now must be 0 or more"))),
});

/**
 * Reads one of the caller's profiles' analytics from Pinterest now, due or not, until the day's pass ends or has to
 * wait (a 429's reset, a back-off, a profile to reconnect): tests, the end-to-end run and `npm run bench:analytics`.
 * Answers each step.
 */
devControls.post("/dev/analytics/sync", requireUser, valid("json", SyncAnalyticsBody), async (c) => {
  const { pinterestProfileUsername, now } = c.req.valid("json");
  const profile = await ownProfile(c.env, c.var.auth.user, pinterestProfileUsername, "pinterestProfileUsername");
  return c.json({ steps: await schedulerFor(c.env, profile.id).syncAnalyticsNow(profile, { now }) });
});

const BackdateAnalyticsBody = v.object({ pinterestProfileUsername: RerunAlarmBody.entries.pinterestProfileUsername, days: wholeNumber("days", 180) });

/**
 * Moves one of the caller's profiles' posted pins `days` back in time, as the stand-in's
 * `POST /__sandbox/pinterest/analytics/age-pins` moves the same pins on Pinterest's side: a test or the benchmark
 * then has weeks of figures at once. Answers how many pins moved.
 */
devControls.post("/dev/analytics/backdate", requireUser, valid("json", BackdateAnalyticsBody), async (c) => {
  const { pinterestProfileUsername, days } = c.req.valid("json");
  const profile = await ownProfile(c.env, c.var.auth.user, pinterestProfileUsername, "pinterestProfileUsername");
  return c.json({ pins: await schedulerFor(c.env, profile.id).backdatePostedPins(days) });
});

const FillDay = v.tuple([v.pipe(v.string(), v.isoDate("a day is YYYY-MM-DD")), v.number(), v.number(), v.number(), v.number()]);
const FillPin = v.object({
  pinId: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,64}$/, "pinId must be letters, digits, - or _")),
  pinterestPinId: v.pipe(v.string(), v.regex(/^\d{1,30}$/, "pinterestPinId must be digits")),
  postedAt: v.pipe(v.number(), v.integer(), v.minValue(0)),
  boardId: v.string(),
  boardName: v.string(),
  templateId: v.nullable(v.string()),
  templateTitle: v.nullable(v.string()),
  family: v.nullable(v.picklist(TEMPLATE_FAMILIES)),
  source: v.picklist(PIN_SOURCES),
  title: v.string(),
  imageUrl: v.string(),
  days: v.pipe(v.array(FillDay), v.maxLength(90)),
});
const FillAnalyticsBody = v.object({
  pinterestProfileUsername: RerunAlarmBody.entries.pinterestProfileUsername,
  pins: v.pipe(v.array(FillPin), v.maxLength(1_000, "at most 1,000 pins a call")),
  now: SyncAnalyticsBody.entries.now,
});

/**
 * Writes posted pins and their daily figures into one of the caller's profiles in bulk, as if tonight's pass had just
 * read them from Pinterest; `POST /api/dev/analytics/sync` then reads the account's totals and builds the rollups as
 * every night. `npm run bench:analytics` fills 10,000 pins over 90 days this way (with the stand-in's own figures)
 * where posting and ageing them through the queue would take about an hour. Answers the pins and days written.
 */
devControls.post("/dev/analytics/fill", requireUser, valid("json", FillAnalyticsBody), async (c) => {
  const { pinterestProfileUsername, pins, now } = c.req.valid("json");
  const profile = await ownProfile(c.env, c.var.auth.user, pinterestProfileUsername, "pinterestProfileUsername");
  return c.json(await schedulerFor(c.env, profile.id).fillAnalyticsForBench(profile, pins, now));
});
