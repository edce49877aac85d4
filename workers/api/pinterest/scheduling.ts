import type { Context } from "hono";
import * as v from "valibot";
import {
  DELETED_ALL_PINS_MESSAGE,
  DeleteAllScheduledPinsBody,
  NewScheduledPin,
  PinHistoryBody,
  PinIdBody,
  RepeatingPinsQuery,
  SaveSchedulingSettingsBody,
  ScheduleBatchBody,
  ScheduledPinsQuery,
  UPDATED_PINS_MESSAGE,
  UpdateRepeatingPinBody,
  UpdateRepeatingPinsBody,
  UpdateScheduledPinBody,
  UpdateScheduledPinsBody,
  UsernameParam,
  type DeleteAllScheduledPinsResponse,
  type DeletedPinResponse,
  type PinHistoryPage,
  type RepeatingPin,
  type RepeatingPinsPage,
  type ResetScheduledTimesResponse,
  type SaveSchedulingSettingsResponse,
  type ScheduleResponse,
  type UpdatedPinResponse,
  type UpdatedPinsResponse,
} from "../../../contracts/pinterest/scheduling-api.ts";
import { requireSameSiteWhenCookie, requireUser, requireUserAndProfile } from "../../auth/middleware.ts";
import {
  deleteAllScheduledPins,
  deleteRepeatingPin,
  deleteScheduledPin,
  listRepeatingPins,
  resetScheduledTimes,
  saveSchedulingSettings,
  scheduledPinsPageText,
  schedulePins,
  startEarlyPageRead,
  type EarlyPageRead,
  updateRepeatingPin,
  updateRepeatingPins,
  updateScheduledPin,
  updateScheduledPins,
} from "../../services/pinterest/scheduling.ts";
import { ARCHIVE_MONTH, type PinHistoryArchives } from "../../../contracts/pinterest/history-archives.ts";
import { historyArchive, historyArchives, pinHistoryPage } from "../../services/pinterest/pin-history.ts";
import { apiError } from "../core/errors.ts";
import { router, type AppBindings } from "../core/hono.ts";
import { idempotencyKey, valid } from "../core/validation.ts";

/** Scheduling calls under /api (spec section 7, Scheduling), each for the signed-in user's own profiles and pins. */
export const schedulingApi = router();
/** When each queue-page request began (before its token check), for its Server-Timing header. */
const pageRequestStarted = new WeakMap<Request, number>();
/** Each queue-page request's Durable Object read, started while D1 checks the caller (decision 062). */
const earlyPageReads = new WeakMap<Request, EarlyPageRead>();

/**
 * A page of a profile's queue. Registered before the `requireUser` of every other scheduling call, which
 * it never reaches: its own check (requireUserAndProfile) signs the caller in and reads the profile in
 * one D1 query, and once a bearer token has checked out it starts the Durable Object read alongside
 * (startEarlyPageRead; its page is used only when the caller owns that profile).
 *
 * Its Server-Timing header says where the time went (bench/schedule.ts prints it): the token check
 * with the profile look-up (one D1 query), the part of the Durable Object call still waited for after
 * it, and writing the JSON, and whether the page came from the read started alongside the check. Times
 * and that only: nothing about the caller's data.
 */
schedulingApi.get(
  "/scheduling/getScheduledPins/:username",
  async (c, next) => {
    pageRequestStarted.set(c.req.raw, performance.now());
    await next();
  },
  requireUserAndProfile("username", (c, userId, username) => {
    const query = v.safeParse(ScheduledPinsQuery, c.req.query());
    if (!query.success || !v.is(UsernameParam, { username })) return;
    const early = startEarlyPageRead(c.env, userId, username, query.output);
    if (early) earlyPageReads.set(c.req.raw, early);
  }),
  valid("param", UsernameParam),
  valid("query", ScheduledPinsQuery),
  async (c) => {
    const handlerStarted = performance.now();
    const timings: { profileMs: number; queueMs: number; earlyUsed?: boolean } = { profileMs: 0, queueMs: 0 };
    const found = { profile: c.var.namedProfile, early: earlyPageReads.get(c.req.raw) };
    // The JSON text of a ScheduledPinsPage, written by the Durable Object: sent on as it is.
    const json = await scheduledPinsPageText(c.env, c.var.auth.user, c.req.valid("param").username, c.req.valid("query"), timings, found);
    const started = pageRequestStarted.get(c.req.raw) ?? handlerStarted;
    const metric = (name: string, ms: number, description: string) => `${name};dur=${ms.toFixed(2)};desc="${description}"`;
    c.header(
      "Server-Timing",
      [
        metric("auth", handlerStarted - started, "Token check and profile look-up (one D1 query)"),
        metric("queue", timings.queueMs, "Queue page from the Durable Object (waited for after the check)"),
        metric("total", performance.now() - started, "Total"),
        // Which way the page was read: its Durable Object read started alongside the check, or after it.
        `read;desc="${timings.earlyUsed ? "alongside the check" : "after the check"}"`,
      ].join(", "),
    );
    c.header("content-type", "application/json");
    return c.body(json);
  },
);

schedulingApi.use("/scheduling/*", requireUser);

schedulingApi.post("/scheduling/saveSchedulingSettings", valid("json", SaveSchedulingSettingsBody), async (c) => {
  const { newSettings, pinterestProfileUsername } = c.req.valid("json");
  return c.json({
    schedulingSettings: await saveSchedulingSettings(c.env, c.var.auth.user, newSettings, pinterestProfileUsername),
  } satisfies SaveSchedulingSettingsResponse);
});

/**
 * One pin (the Scheduled pin fields) or `{pins: [...]}` (bulk scheduling, up
 * to 200). One pin answers 201 with the pin as queued, or its refusal. A batch
 * answers per pin: the pins scheduled and `failedPins`, the ones refused on
 * their own (201 when at least one was scheduled, else 200).
 */
async function schedulePinHandler(c: Context<AppBindings>) {
  let input: unknown;
  try {
    input = await c.req.json();
  } catch {
    return apiError(c, 400, "The request body must be valid JSON.");
  }
  const batch = typeof input === "object" && input !== null && "pins" in input;
  const parsed = batch ? v.safeParse(ScheduleBatchBody, input) : v.safeParse(NewScheduledPin, input);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    return apiError(c, 400, issue.message, v.getDotPath(issue) ?? undefined);
  }
  const pins = batch ? (parsed.output as v.InferOutput<typeof ScheduleBatchBody>).pins : [parsed.output as NewScheduledPin];
  // One pin may name its idempotency key in the Idempotency-Key header too; a batch names one per pin.
  if (batch && c.req.header("idempotency-key") !== undefined)
    return apiError(c, 400, "Send a reference with each pin instead of an Idempotency-Key header.", "Idempotency-Key");
  if (!batch) pins[0] = { ...pins[0], reference: idempotencyKey(c, pins[0].reference) };
  const result = await schedulePins(c.env, c.var.auth.user, pins, { batch, fieldPrefix: batch ? (index) => `pins.${index}.` : () => "" });
  if (batch) return c.json(result satisfies ScheduleResponse, result.scheduledPins.length > 0 ? 201 : 200);
  return c.json({ ...result, scheduledPin: result.scheduledPins[0] } satisfies ScheduleResponse, 201);
}
schedulingApi.post("/scheduling/schedulePin", schedulePinHandler);

schedulingApi.post("/scheduling/updateScheduledPin", valid("json", UpdateScheduledPinBody), async (c) => {
  const pin = await updateScheduledPin(c.env, c.var.auth.user, c.req.valid("json").pin);
  return c.json({ message: UPDATED_PINS_MESSAGE, pin } satisfies UpdatedPinResponse);
});

schedulingApi.post("/scheduling/updateScheduledPins", valid("json", UpdateScheduledPinsBody), async (c) => {
  const { pinterestUsername, pinsToUpdate } = c.req.valid("json");
  return c.json({
    message: UPDATED_PINS_MESSAGE,
    pins: await updateScheduledPins(c.env, c.var.auth.user, pinterestUsername, pinsToUpdate),
  } satisfies UpdatedPinsResponse);
});

schedulingApi.post("/scheduling/deleteScheduledPin", valid("json", PinIdBody), async (c) => {
  const pin = await deleteScheduledPin(c.env, c.var.auth.user, c.req.valid("json").pinId);
  return c.json({ deletedPinId: pin.id } satisfies DeletedPinResponse);
});

schedulingApi.post("/scheduling/deleteRepeatingPin", valid("json", PinIdBody), async (c) => {
  const pin = await deleteRepeatingPin(c.env, c.var.auth.user, c.req.valid("json").pinId);
  return c.json({ deletedPinId: pin.id } satisfies DeletedPinResponse);
});

schedulingApi.post("/scheduling/updateRepeatingPin", valid("json", UpdateRepeatingPinBody), async (c) => {
  const pin = await updateRepeatingPin(c.env, c.var.auth.user, c.req.valid("json").pin);
  return c.json({ message: UPDATED_PINS_MESSAGE, pin } satisfies UpdatedPinResponse<RepeatingPin>);
});

schedulingApi.post("/scheduling/updateRepeatingPins", valid("json", UpdateRepeatingPinsBody), async (c) => {
  const { pinterestUsername, pinsToUpdate } = c.req.valid("json");
  return c.json({
    message: UPDATED_PINS_MESSAGE,
    pins: await updateRepeatingPins(c.env, c.var.auth.user, pinterestUsername, pinsToUpdate),
  } satisfies UpdatedPinsResponse<RepeatingPin>);
});

schedulingApi.get("/scheduling/getRepeatingPins/:username", valid("param", UsernameParam), valid("query", RepeatingPinsQuery), async (c) => {
  return c.json((await listRepeatingPins(c.env, c.var.auth.user, c.req.valid("param").username, c.req.valid("query").lastPinId)) satisfies RepeatingPinsPage);
});

schedulingApi.post("/user/getPinHistory", requireUser, valid("json", PinHistoryBody), async (c) => {
  const { startAtDate, lastId } = c.req.valid("json");
  return c.json({ pinHistory: await pinHistoryPage(c.env, c.var.auth.user, { startAtDate, lastId }) } satisfies PinHistoryPage);
});

/** Months of history older than the 13 kept online, newest first (decision 084). */
schedulingApi.get("/user/pinHistory/archives", requireUser, async (c) => c.json((await historyArchives(c.env, c.var.auth.user)) satisfies PinHistoryArchives));

const ArchiveMonthParam = v.object({ month: v.pipe(v.string(), v.regex(ARCHIVE_MONTH, "month must be a month written YYYY-MM")) });

/** One archived month of the caller's history, as the gzip NDJSON file it is kept as. */
schedulingApi.get("/user/pinHistory/archives/:month", requireUser, valid("param", ArchiveMonthParam), async (c) =>
  historyArchive(c.env, c.var.auth.user, c.req.valid("param").month),
);

/** Bulk scheduling calls under /highMemLimitApi. */
export const schedulingHighMem = router();
schedulingHighMem.use("/scheduling/*", requireUser);

schedulingHighMem.get("/scheduling/resetScheduledTimes/:username", requireSameSiteWhenCookie, valid("param", UsernameParam), async (c) => {
  const updatedCount = await resetScheduledTimes(c.env, c.var.auth.user, c.req.valid("param").username);
  return c.json({ message: UPDATED_PINS_MESSAGE, updatedCount } satisfies ResetScheduledTimesResponse);
});

schedulingHighMem.post("/scheduling/deleteAllScheduledPins", valid("json", DeleteAllScheduledPinsBody), async (c) => {
  const deletedCount = await deleteAllScheduledPins(c.env, c.var.auth.user, c.req.valid("json").pinterestProfileUsername);
  return c.json({ message: DELETED_ALL_PINS_MESSAGE, deletedCount } satisfies DeleteAllScheduledPinsResponse);
});

/** /videoApi/scheduling/schedulePin: the same call for video pins (spec section 7). */
export const schedulingVideo = router();
schedulingVideo.post("/scheduling/schedulePin", requireUser, schedulePinHandler);
