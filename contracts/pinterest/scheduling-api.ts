import * as v from "valibot";
import { PINTEREST_PIN_LIMITS } from "./pinterest.ts";
import { body, IdempotencyReference, plainText } from "../fields.ts";
import { PinOrigin } from "./analytics.ts";
import { SchedulingSettings } from "./scheduling.ts";

/**
 * Scheduling calls (spec section 7, Scheduling; docs/decisions/012). Every
 * call is the signed-in user's: a profile username that is not one of the
 * caller's connected profiles answers 404, and so does a pin id that is not
 * on one of them.
 */

// ---------------------------------------------------------------- messages the client shows

export const UPDATED_PINS_MESSAGE = "Updated pins successfully";
export const DELETED_ALL_PINS_MESSAGE = "Deleted all scheduled pins successfully";
export const RESET_TIMES_FAILED_MESSAGE = "Failed to reset pins scheduled times";

/** Pins per schedulePin call ({pins: [...]}; each pin succeeds or is refused on its own). */
export const MAX_PINS_PER_SCHEDULE = 1_000;
/** Pins per updateScheduledPins / updateRepeatingPins call. */
export const MAX_PINS_PER_UPDATE = 500;
export const PIN_HISTORY_PAGE_SIZE = 30;
export const REPEAT_INTERVAL_DAYS = { min: 2, max: 365 } as const;

// ---------------------------------------------------------------- fields

const text = (field: string, max: number) =>
  v.pipe(v.string(`${field} must be text`), plainText, v.maxLength(max, `${field} must be at most ${max} characters`));
const codePoints = (field: string, max: number) =>
  v.pipe(
    v.string(`${field} must be text`),
    plainText,
    v.check((value) => [...value].length <= max, `${field} must be at most ${max} characters`),
  );

const WebUrl = (field: string) =>
  v.pipe(
    v.string(`${field} must be text`),
    v.trim(),
    v.maxLength(PINTEREST_PIN_LIMITS.link, `${field} must be at most ${PINTEREST_PIN_LIMITS.link} characters`),
    v.check((value) => value === "" || isWebUrl(value), `${field} must be a web address starting with http:// or https://`),
  );

export function isWebUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && /^https?:\/\//i.test(value);
  } catch {
    return false;
  }
}

/** A date-time as ISO 8601 text or milliseconds since 1970, read as milliseconds. */
const Instant = (field: string) =>
  v.pipe(
    v.union([v.number(), v.string()], `${field} must be an ISO 8601 date-time or milliseconds since 1970`),
    v.transform((value) => (typeof value === "number" ? value : /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value) ? Date.parse(value) : Number.NaN)),
    v.check((ms) => Number.isFinite(ms) && ms > 0 && ms < 8.64e15, `${field} must be an ISO 8601 date-time such as 2026-05-01T18:30:00Z`),
  );

const Username = (field: string) =>
  v.pipe(v.string(`${field} is required`), v.trim(), v.nonEmpty(`${field} is required`), v.maxLength(100, `${field} is too long`));
export const PinId = (field: string) => v.pipe(v.string(`${field} is required`), v.trim(), v.regex(/^[A-Za-z0-9_-]{8,80}$/, `${field} is not a pin id`));
const BoardId = (field: string) => v.pipe(v.string(`${field} is required`), v.trim(), v.regex(/^[0-9A-Za-z_-]{1,64}$/, `${field} is not a board id`));
const MediaId = v.pipe(v.string("media_id must be text"), v.trim(), v.regex(/^[0-9A-Za-z_-]{1,64}$/, "media_id is not a Pinterest media id"));
const PinType = v.picklist(["SpecificDate", "Queue"], "type must be SpecificDate or Queue");
const MediaType = v.picklist(["image", "video"], "mediaType must be image or video");
const RepeatInterval = (field: string) =>
  v.pipe(
    v.number(`${field} must be a number of days`),
    v.integer(`${field} must be whole days`),
    v.minValue(
      REPEAT_INTERVAL_DAYS.min,
      `${field} must be at least ${REPEAT_INTERVAL_DAYS.min} days (the same link is not posted to a board twice within 48 hours)`,
    ),
    v.maxValue(REPEAT_INTERVAL_DAYS.max, `${field} must be at most ${REPEAT_INTERVAL_DAYS.max} days`),
  );

/** The content of a pin: what Pinterest receives (limits are Pinterest's, in characters). */
const contentFields = {
  title: codePoints("title", PINTEREST_PIN_LIMITS.title),
  description: codePoints("description", PINTEREST_PIN_LIMITS.description),
  altText: codePoints("altText", PINTEREST_PIN_LIMITS.altText),
  /** The link the pin leads to. */
  url: WebUrl("url"),
  imageURL: WebUrl("imageURL"),
  mediaURL: WebUrl("mediaURL"),
  mediaType: MediaType,
  videoURL: WebUrl("videoURL"),
  videoThumbnail: WebUrl("videoThumbnail"),
  /** Pinterest's id of the uploaded video (POST /videoApi/pinterestAPI/uploadVideoToPinterest). */
  media_id: MediaId,
  boardId: BoardId("boardId"),
  sectionId: v.nullable(BoardId("sectionId")),
  boardName: text("boardName", 180),
};

/** A pin to schedule (spec section 3, Scheduled pin: the fields for creation). */
export const NewScheduledPin = v.pipe(
  body({
    /** Optional idempotency key chosen by the client: the same reference schedules (and charges) once per profile. */
    reference: v.optional(IdempotencyReference),
    title: v.optional(contentFields.title, ""),
    description: v.optional(contentFields.description, ""),
    altText: v.optional(contentFields.altText, ""),
    url: v.optional(contentFields.url, ""),
    imageURL: v.optional(contentFields.imageURL, ""),
    mediaURL: v.optional(contentFields.mediaURL, ""),
    mediaType: v.optional(MediaType, "image"),
    videoURL: v.optional(contentFields.videoURL, ""),
    videoThumbnail: v.optional(contentFields.videoThumbnail, ""),
    media_id: v.optional(contentFields.media_id),
    boardId: contentFields.boardId,
    sectionId: v.optional(contentFields.sectionId, null),
    boardName: v.optional(contentFields.boardName, ""),
    pinterestProfileUsername: Username("pinterestProfileUsername"),
    /** Required for SpecificDate (must be in the future); ignored for Queue, which takes the next free slot. */
    scheduledTime: v.optional(v.nullable(Instant("scheduledTime"))),
    type: v.optional(PinType, "Queue"),
    /** Post even if the same link goes to the same board within 48 hours. */
    allowDuplicate: v.optional(v.boolean("allowDuplicate must be true or false"), false),
    /** Also repeat this pin every N days (a repeating pin whose first post is this one). */
    repeatIntervalInDays: v.optional(RepeatInterval("repeatIntervalInDays")),
    /** What made the pin (template, family, source): kept with it so its figures tie back to them (issue 41). */
    ...PinOrigin.entries,
  }),
  v.forward(
    v.partialCheck(
      [["mediaType"], ["imageURL"], ["mediaURL"]],
      (pin) => pin.mediaType === "video" || Boolean(pin.imageURL || pin.mediaURL),
      "imageURL is required for an image pin",
    ),
    ["imageURL"],
  ),
  v.forward(
    v.partialCheck(
      [["mediaType"], ["media_id"]],
      (pin) => pin.mediaType !== "video" || Boolean(pin.media_id),
      "media_id is required for a video pin (upload the video first)",
    ),
    ["media_id"],
  ),
  v.forward(
    v.partialCheck(
      [["type"], ["scheduledTime"]],
      (pin) => pin.type !== "SpecificDate" || typeof pin.scheduledTime === "number",
      "scheduledTime is required for a SpecificDate pin",
    ),
    ["scheduledTime"],
  ),
);
export type NewScheduledPin = v.InferOutput<typeof NewScheduledPin>;

/** POST /api/scheduling/schedulePin (and /videoApi/scheduling/schedulePin): one pin, or {pins: [...]} for bulk scheduling. */
export const ScheduleBatchBody = body({
  pins: v.pipe(
    v.array(NewScheduledPin, "pins must be a list of pins"),
    v.minLength(1, "pins must not be empty"),
    v.maxLength(MAX_PINS_PER_SCHEDULE, `pins must hold at most ${MAX_PINS_PER_SCHEDULE.toLocaleString("en-US")} pins per request`),
  ),
});

/** Fields a scheduled pin's update may change (only those given change). */
const pinChanges = {
  title: v.optional(contentFields.title),
  description: v.optional(contentFields.description),
  altText: v.optional(contentFields.altText),
  url: v.optional(contentFields.url),
  imageURL: v.optional(contentFields.imageURL),
  mediaURL: v.optional(contentFields.mediaURL),
  videoURL: v.optional(contentFields.videoURL),
  videoThumbnail: v.optional(contentFields.videoThumbnail),
  media_id: v.optional(contentFields.media_id),
  boardId: v.optional(contentFields.boardId),
  sectionId: v.optional(contentFields.sectionId),
  boardName: v.optional(contentFields.boardName),
  allowDuplicate: v.optional(v.boolean("allowDuplicate must be true or false")),
};

export const ScheduledPinUpdate = v.pipe(
  body({
    id: PinId("id"),
    ...pinChanges,
    /** A new time (must be in the future); the pin keeps its type unless `type` says otherwise. */
    scheduledTime: v.optional(Instant("scheduledTime")),
    /** Queue: move the pin to the next free slot (unless scheduledTime is given). SpecificDate needs scheduledTime. */
    type: v.optional(PinType),
  }),
  v.forward(
    v.partialCheck(
      [["type"], ["scheduledTime"]],
      (pin) => pin.type !== "SpecificDate" || typeof pin.scheduledTime === "number",
      "scheduledTime is required to make a pin SpecificDate",
    ),
    ["scheduledTime"],
  ),
);
export type ScheduledPinUpdate = v.InferOutput<typeof ScheduledPinUpdate>;

/** POST /api/scheduling/updateScheduledPin */
export const UpdateScheduledPinBody = body({ pin: ScheduledPinUpdate });
/** A bulk update's body: the profile and its pins to change (each once), all or nothing. */
function bulkUpdateBody<S extends v.GenericSchema<unknown, { id: string }>>(pin: S) {
  return body({
    pinterestUsername: Username("pinterestUsername"),
    pinsToUpdate: v.pipe(
      v.array(pin, "pinsToUpdate must be a list of pins"),
      v.minLength(1, "pinsToUpdate must not be empty"),
      v.maxLength(MAX_PINS_PER_UPDATE, `pinsToUpdate must hold at most ${MAX_PINS_PER_UPDATE} pins`),
      v.check((pins) => new Set(pins.map((p) => p.id)).size === pins.length, "pinsToUpdate names a pin twice"),
    ),
  });
}

/** POST /api/scheduling/updateScheduledPins: all or nothing (e.g. a reorder swaps times). */
export const UpdateScheduledPinsBody = bulkUpdateBody(ScheduledPinUpdate);

export const RepeatingPinUpdate = body({
  id: PinId("id"),
  ...pinChanges,
  /** The next time it posts (must be in the future). */
  nextPinDate: v.optional(Instant("nextPinDate")),
  intervalInDays: v.optional(RepeatInterval("intervalInDays")),
});
export type RepeatingPinUpdate = v.InferOutput<typeof RepeatingPinUpdate>;

/** POST /api/scheduling/updateRepeatingPin */
export const UpdateRepeatingPinBody = body({ pin: RepeatingPinUpdate });
/** POST /api/scheduling/updateRepeatingPins */
export const UpdateRepeatingPinsBody = bulkUpdateBody(RepeatingPinUpdate);

/** POST /api/scheduling/deleteScheduledPin, /deleteRepeatingPin */
export const PinIdBody = body({ pinId: PinId("pinId") });

/** POST /api/scheduling/saveSchedulingSettings: for the named profile, else the caller's active one. */
export const SaveSchedulingSettingsBody = body({
  newSettings: SchedulingSettings,
  pinterestProfileUsername: v.optional(Username("pinterestProfileUsername")),
});

/** POST /highMemLimitApi/scheduling/deleteAllScheduledPins */
export const DeleteAllScheduledPinsBody = body({ pinterestProfileUsername: Username("pinterestProfileUsername") });

/** POST /api/dev/scheduling/rerunAlarm (local runs and tests only, never in production). */
export const RerunAlarmBody = DeleteAllScheduledPinsBody;

export const UsernameParam = v.object({ username: Username("username") });

export const QUEUE_VIEWS = ["pending", "posted", "failed", "all"] as const;
/** GET /api/scheduling/getScheduledPins/{username}?lastPinId&sortBy&status */
export const ScheduledPinsQuery = v.object({
  lastPinId: v.optional(PinId("lastPinId")),
  sortBy: v.optional(
    v.picklist(
      ["scheduledTimeUTCTimestamp-asc", "scheduledTimeUTCTimestamp-desc"],
      "sortBy must be scheduledTimeUTCTimestamp-asc or scheduledTimeUTCTimestamp-desc",
    ),
    "scheduledTimeUTCTimestamp-asc",
  ),
  /** pending (default): not posted yet, failed pins included; posted; failed; all. */
  status: v.optional(v.picklist(QUEUE_VIEWS, `status must be one of ${QUEUE_VIEWS.join(", ")}`), "pending"),
});
export type QueueView = (typeof QUEUE_VIEWS)[number];

/** GET /api/scheduling/getRepeatingPins/{username}?lastPinId */
export const RepeatingPinsQuery = v.object({ lastPinId: v.optional(PinId("lastPinId")) });

/** POST /api/user/getPinHistory: the page older than startAtDate (and, for ties, after lastId). */
export const PinHistoryBody = body({
  startAtDate: v.optional(v.nullable(Instant("startAtDate"))),
  lastId: v.optional(v.pipe(v.string("lastId must be text"), v.maxLength(64, "lastId is not a pin history id"))),
});

// ---------------------------------------------------------------- answers

/**
 * scheduled: waiting for its time (or for a retry); posting: being sent now;
 * paused: the profile needs reconnecting or is blocked (see `error`);
 * posted: on Pinterest (`pinterestPinId`); failed: could not be posted (see `error`);
 * awaiting: its profile needs a reviewer's approval first (docs/decisions/052-post-approvals.md).
 */
export type ScheduledPinStatus = "scheduled" | "awaiting" | "posting" | "paused" | "posted" | "failed";

export interface PinContent {
  title: string;
  description: string;
  altText: string;
  url: string;
  imageURL: string;
  mediaURL: string;
  mediaType: "image" | "video";
  videoURL: string;
  videoThumbnail: string;
  media_id: string | null;
  boardId: string;
  sectionId: string | null;
  boardName: string;
  pinterestProfileUsername: string;
  allowDuplicate: boolean;
}

/** A scheduled pin, with what made it when the schedule request said (templateId, templateTitle, templateFamily, source). */
export interface ScheduledPin extends PinContent, PinOrigin {
  id: string;
  type: "SpecificDate" | "Queue";
  /** ISO 8601. */
  scheduledTime: string;
  scheduledTimeUTCTimestamp: number;
  status: ScheduledPinStatus;
  /** Why it failed or is paused, or the last retried error while it waits; null when all is well. */
  error: string | null;
  /** Calls made to Pinterest for it so far. */
  attempts: number;
  /** When the engine next tries it (ISO 8601), for scheduled pins. */
  nextAttemptAt: string | null;
  pinterestPinId: string | null;
  pinterestUrl: string | null;
  postedAt: string | null;
  repeatingPinId: string | null;
  createdAt: string;
}

export interface ScheduledPinsPage {
  scheduledPins: ScheduledPin[];
  /** Pins in this view of the queue. */
  totalCount: number;
  /** When the last pin of the queue (not posted yet) is scheduled; null for an empty queue. ISO 8601. */
  lastPinScheduledTime: string | null;
}

export interface RepeatingPin extends PinContent {
  id: string;
  /** ISO 8601. */
  nextPinDate: string;
  nextPinDateUTCTimestamp: number;
  intervalInDays: number;
  /** Posts scheduled from it so far. */
  occurrences: number;
  createdAt: string;
}

export interface RepeatingPinsPage {
  repeatingPins: RepeatingPin[];
  totalCount: number;
}

/**
 * Why one pin of a batch was not scheduled while the others were:
 * duplicate: the same link goes to the same board within 48 hours (`conflict` says which pin; send it again with
 * `allowDuplicate: true` to post it anyway); past: its SpecificDate time had passed when the request arrived;
 * deleted: its reference names a pin that was deleted since (use a new reference).
 */
export type PinRefusalReason = "duplicate" | "past" | "deleted";

/** The pin a duplicate would share 48 hours with. */
export interface DuplicateConflict {
  title: string;
  /** scheduled: waiting to be posted (another pin of the same request included); posted: already on Pinterest. */
  state: "scheduled" | "posted";
  /** When it is scheduled, or was posted (ISO 8601). */
  at: string;
  atUTCTimestamp: number;
  boardName: string;
}

/** One pin of a batch that was refused on its own (the rest of the batch was scheduled). */
export interface PinScheduleFailure {
  /** The pin's place in the request's `pins`, from 0. */
  index: number;
  reference: string | null;
  status: 400 | 409;
  reason: PinRefusalReason;
  /** The refusal as the single-pin call answers it (for developers: it names fields). */
  error: string;
  field: string;
  conflict?: DuplicateConflict;
}

/**
 * schedulePin's answer: 201 for a single pin (with `scheduledPin`; its refusal is the call's error). A batch
 * (`{pins}`) answers per pin: 201 when at least one pin was scheduled, 200 when every pin was refused on its own
 * (`failedPins` says why each). A refusal of the whole request (bad input, an unknown profile, credits that do
 * not pay for the pins, a full queue) is still the call's error, and nothing is scheduled.
 */
export interface ScheduleResponse {
  /** The pins scheduled, in the order given (an already scheduled reference answers its existing pin). */
  scheduledPins: ScheduledPin[];
  scheduledPin?: ScheduledPin;
  repeatingPins: RepeatingPin[];
  /** The pins of a batch refused on their own, in the order given ([] when none, and for a single pin). */
  failedPins: PinScheduleFailure[];
  /** Credits charged by this call: only for the pins it scheduled. */
  creditsCharged: number;
}

/** updateScheduledPin / updateRepeatingPin answer the pin as changed; the bulk calls answer `pins`. */
export interface UpdatedPinResponse<P = ScheduledPin> {
  message: typeof UPDATED_PINS_MESSAGE;
  pin: P;
}
export interface UpdatedPinsResponse<P = ScheduledPin> {
  message: typeof UPDATED_PINS_MESSAGE;
  pins: P[];
}
/** deleteScheduledPin / deleteRepeatingPin */
export interface DeletedPinResponse {
  deletedPinId: string;
}
/** POST /highMemLimitApi/scheduling/deleteAllScheduledPins (pins not posted yet; one being posted right now finishes). */
export interface DeleteAllScheduledPinsResponse {
  message: typeof DELETED_ALL_PINS_MESSAGE;
  deletedCount: number;
}
/** GET /highMemLimitApi/scheduling/resetScheduledTimes/{username}; a failure answers 500 {error: RESET_TIMES_FAILED_MESSAGE}. */
export interface ResetScheduledTimesResponse {
  message: typeof UPDATED_PINS_MESSAGE;
  updatedCount: number;
}
/** POST /api/scheduling/saveSchedulingSettings */
export interface SaveSchedulingSettingsResponse {
  schedulingSettings: SchedulingSettings;
}

/**
 * Where a pin of the history stands: downloaded; scheduled (waiting for its time), posting (being sent now),
 * awaiting (a reviewer's approval), paused (the profile needs reconnecting or is blocked), posted, failed (see `error`), deleted (taken out of
 * the queue, or its profile disconnected, before it was posted).
 */
export type PinHistoryState = "downloaded" | "scheduled" | "awaiting" | "posting" | "paused" | "posted" | "failed" | "deleted";

/** One pin of the history: a scheduled pin is one entry from the moment it was scheduled until it is posted. */
export interface PinHistoryItem {
  id: string;
  /** What was paid for: downloading it, scheduling it, or pinning it at once. */
  action: "downloaded" | "scheduled" | "pinned";
  state: PinHistoryState;
  /** The scheduled pin's id in its profile's queue (null for downloads). */
  pinId: string | null;
  /** When it is (or was) scheduled to post: ISO 8601, null when not scheduled. */
  scheduledFor: string | null;
  scheduledForUTCTimestamp: number | null;
  /** When it was posted to Pinterest: ISO 8601, null until then. */
  postedAt: string | null;
  postedAtUTCTimestamp: number | null;
  /** Why it failed or is paused; null otherwise. */
  error: string | null;
  /** The time zone of its profile's schedule (IANA), in which its times are shown; null when it has no profile. */
  timeZone: string | null;
  category: string;
  credits: number;
  title: string;
  description: string;
  url: string;
  /** The pin's image (the thumbnail to show). */
  imageUrl: string;
  mediaType: "image" | "video";
  boardId: string | null;
  boardName: string | null;
  pinterestProfile: string | null;
  pinterestPinId: string | null;
  pinterestUrl: string | null;
  /** When it was downloaded, scheduled or pinned (the history's order, newest first). ISO 8601. */
  createdAt: string;
  createdAtUTCTimestamp: number;
  /** Its public page (/users/{handle}/{id}) when its owner made it public; null while private (decision 055). */
  publicUrl: string | null;
}

export interface PinHistoryPage {
  pinHistory: PinHistoryItem[];
}

/** Where a pin lives on Pinterest. */
export function pinterestPinUrl(pinId: string | null): string | null {
  return pinId ? `https://www.pinterest.com/pin/${encodeURIComponent(pinId)}/` : null;
}
