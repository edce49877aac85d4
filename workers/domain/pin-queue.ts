import { tzOffset } from "@date-fns/tz";
import type { PinDetails } from "../../contracts/billing/credits.ts";
import type { PinContent } from "../../contracts/pinterest/scheduling-api.ts";
import type { SchedulingSettings } from "../../contracts/pinterest/scheduling.ts";
import { dailySlotSeconds, localDay, slotsOnDay } from "./scheduling.ts";

/**
 * Rules of a profile's pin queue, as pure functions: the 48-hour duplicate
 * rule, how Queue pins take slots, how long to wait before trying a pin again,
 * what a failed Pinterest call means for the pin, how to recognise a pin that
 * was created although its answer was lost, and keyset paging of the queue.
 * The ProfileScheduler Durable Object applies them (docs/decisions/012).
 */

const HOUR_MS = 3_600_000;

/** The same link is not posted to the same board twice within this window (unless the user insists). */
export const DUPLICATE_WINDOW_MS = 48 * HOUR_MS;

// ------------------------------------------------------------------ the 48-hour rule

/**
 * The form of a link the duplicate rule compares: scheme and host lowercased,
 * no fragment, no utm_* tracking parameters, no trailing slash. Null for no link.
 */
export function linkKey(url: string | null | undefined): string | null {
  const text = url?.trim();
  if (!text) return null;
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    return text.toLowerCase();
  }
  parsed.hash = "";
  for (const name of [...parsed.searchParams.keys()]) if (/^utm_/i.test(name)) parsed.searchParams.delete(name);
  parsed.searchParams.sort();
  const path = parsed.pathname.replace(/\/+$/, "");
  const query = parsed.searchParams.toString();
  return `${parsed.protocol}//${parsed.host.toLowerCase()}${path}${query ? `?${query}` : ""}`;
}

/** A pin as the duplicate rule sees it: where it goes, what it links to, and when (scheduled, or posted). */
export interface DuplicateCandidate {
  id: string;
  boardId: string;
  linkKey: string | null;
  at: number;
}

/** The first of `others` that the pin may not share 48 hours with (same board, same link), or null. */
export function findDuplicate<T extends DuplicateCandidate>(pin: DuplicateCandidate, others: Iterable<T>): T | null {
  if (pin.linkKey === null) return null;
  for (const other of others) {
    if (other.id === pin.id || other.linkKey !== pin.linkKey || other.boardId !== pin.boardId) continue;
    if (Math.abs(other.at - pin.at) < DUPLICATE_WINDOW_MS) return other;
  }
  return null;
}

/** Whether `at` keeps 48 hours from every time in `times`. */
function clearOf(at: number, times: readonly number[] | undefined): boolean {
  return !times || times.every((t) => Math.abs(t - at) >= DUPLICATE_WINDOW_MS);
}

// ------------------------------------------------------------------ Queue slots

const DAY_MS = 24 * HOUR_MS;
/** Days of slots remembered (per isolate): a long queue walks the same days on every schedule call. */
const DAY_CACHE_LIMIT = 20_000;
const daySlots = new Map<string, readonly number[]>();

/**
 * The slot instants of one local day: `slotsOnDay` of the scheduling domain,
 * computed in one step when the zone's offset does not change around the day
 * (almost every day), and remembered.
 */
function slotsOfDay(settings: SchedulingSettings, settingsKey: string, seconds: readonly number[], date: Date): readonly number[] {
  const key = `${settingsKey}|${date.getUTCFullYear()}-${date.getUTCMonth()}-${date.getUTCDate()}`;
  const cached = daySlots.get(key);
  if (cached) return cached;
  const zone = settings.timezone.value;
  const midnight = date.getTime();
  const offset = tzOffset(zone, new Date(midnight - 2 * DAY_MS));
  const steady = offset === tzOffset(zone, new Date(midnight + DAY_MS / 2)) && offset === tzOffset(zone, new Date(midnight + 3 * DAY_MS));
  const slots = steady
    ? seconds.map((second) => midnight + second * 1000 - offset * 60_000)
    : slotsOnDay(settings, { year: date.getUTCFullYear(), monthIndex: date.getUTCMonth(), day: date.getUTCDate() });
  if (daySlots.size >= DAY_CACHE_LIMIT) daySlots.clear();
  daySlots.set(key, slots);
  return slots;
}

/**
 * The next `count` free slots strictly after `afterMs` (the same answer as the
 * domain's `nextFreeSlots`, fast enough to walk a queue of 10,000 pins on every call).
 */
export function freeSlotsAfter(settings: SchedulingSettings, taken: ReadonlySet<number>, afterMs: number, count: number, maxDays = 3660): number[] {
  const found: number[] = [];
  if (count <= 0) return found;
  const seconds = dailySlotSeconds(settings);
  const settingsKey = JSON.stringify([settings.timezone.value, seconds]);
  const start = localDay(afterMs, settings.timezone.value);
  for (let d = 0; d < maxDays && found.length < count; d += 1) {
    const date = new Date(Date.UTC(start.year, start.monthIndex, start.day + d));
    for (const slot of slotsOfDay(settings, settingsKey, seconds, date)) {
      if (slot > afterMs && !taken.has(slot)) {
        found.push(slot);
        if (found.length === count) break;
      }
    }
  }
  return found;
}

export interface QueueSlotRequest {
  /** `${boardId} ${linkKey}` for pins the 48-hour rule applies to; null when it does not (no link, or allowDuplicate). */
  duplicateKey: string | null;
}

/** The key the 48-hour rule groups pins by. */
export function duplicateKeyOf(boardId: string, key: string | null): string | null {
  return key === null ? null : `${boardId} ${key}`;
}

/** The schedule has no free slot left within the search horizon. */
export class NoFreeSlot extends Error {
  constructor(maxDays: number) {
    super(`The queue has no free slot within ${maxDays} days: post fewer pins or allow more pins per day.`);
    this.name = "NoFreeSlot";
  }
}

/**
 * Slots for `pins` (in order) of type Queue: each takes the next free slot of
 * the profile's schedule after `now` that is not `taken` and keeps 48 hours
 * from every pin with the same board and link (`keyTimes`, which the pins
 * placed here join). Throws when no slot is free within `maxDays`.
 */
export function assignQueueSlots(
  settings: SchedulingSettings,
  now: number,
  taken: ReadonlySet<number>,
  pins: readonly QueueSlotRequest[],
  keyTimes: Map<string, number[]> = new Map(),
  maxDays = 3660,
): number[] {
  const used = new Set(taken);
  const pool: number[] = [];
  let searchedUntil = now;
  const horizon = now + maxDays * 24 * HOUR_MS;
  const extend = () => {
    if (searchedUntil >= horizon) return false;
    const more = freeSlotsAfter(settings, used, searchedUntil, Math.max(64, pins.length), maxDays);
    if (more.length === 0 || more[0] > horizon) {
      searchedUntil = horizon;
      return false;
    }
    for (const slot of more) used.add(slot);
    pool.push(...more);
    searchedUntil = more[more.length - 1];
    return true;
  };

  const assigned: number[] = [];
  for (const pin of pins) {
    const times = pin.duplicateKey === null ? undefined : keyTimes.get(pin.duplicateKey);
    let chosen = -1;
    for (let index = 0; chosen < 0; index += 1) {
      if (index >= pool.length && !extend()) break;
      if (clearOf(pool[index], times)) chosen = index;
    }
    if (chosen < 0) throw new NoFreeSlot(maxDays);
    const [slot] = pool.splice(chosen, 1);
    assigned.push(slot);
    if (pin.duplicateKey !== null) {
      const list = keyTimes.get(pin.duplicateKey) ?? [];
      list.push(slot);
      keyTimes.set(pin.duplicateKey, list);
    }
  }
  return assigned;
}

// ------------------------------------------------------------------ retries

/**
 * A pin that failed this many times (5xx, no answer) is given up, in a visible
 * failed state, unless a last look on its board finds that one of those
 * attempts created it.
 */
export const MAX_FAILURES = 8;
export const RETRY_BASE_MS = 2_000;
export const RETRY_CAP_MS = 10 * 60_000;
/** How long to wait for Pinterest to finish processing an uploaded video, and how often. */
export const MEDIA_WAIT_MS = 30_000;
export const MAX_MEDIA_WAITS = 20;

/**
 * How long to wait before the next try after the `failures`-th failure:
 * exponential from 2 s (2, 4, 8 ... capped at 10 minutes) with ±20% jitter, and
 * never sooner than the provider asked (Retry-After / x-ratelimit-reset).
 */
export function retryDelayMs(failures: number, providerAskedMs: number | null = null, random: () => number = Math.random): number {
  const exponential = Math.min(RETRY_CAP_MS, RETRY_BASE_MS * 2 ** Math.max(0, failures - 1));
  const jittered = Math.round(exponential * (0.8 + 0.4 * random()));
  return Math.max(jittered, providerAskedMs ?? 0);
}

/** How long to hold every pin of a profile after a 429: what Pinterest said, else a backoff; plus up to 250 ms of spread. */
export function rateLimitHoldMs(
  retryAfterMs: number | null,
  rateLimitResetSeconds: number | null,
  failures: number,
  random: () => number = Math.random,
): number {
  const asked = retryAfterMs ?? (rateLimitResetSeconds !== null ? rateLimitResetSeconds * 1000 : null);
  const base = asked ?? retryDelayMs(Math.max(1, failures), null, random);
  return Math.min(RETRY_CAP_MS, base) + Math.round(250 * random());
}

/** What a failed Pinterest call means for the pin being posted. */
export type FailureOutcome =
  /** Try again later; `check`: the pin may exist now, so look on the board first. */
  | { action: "retry"; check: boolean; counts: boolean; delayMs: number; reason: string }
  /** Pinterest is rate limiting the account: hold the whole profile. */
  | { action: "hold"; delayMs: number; reason: string }
  /** It cannot be posted as it is: failed, with the reason; `mayExist`: the last attempts may have created it, look first. */
  | { action: "fail"; reason: string; mayExist?: boolean };

export interface PinterestFailure {
  kind: string;
  status: number | null;
  message: string;
  retryAfterMs: number | null;
  rateLimitReset?: number | null;
}

/**
 * The engine's reading of a Pinterest error on creating a pin (401 and the
 * blocked 403 are handled before: they pause the profile). `failures` counts
 * this failure too.
 */
export function pinFailureOutcome(error: PinterestFailure, failures: number, random: () => number = Math.random): FailureOutcome {
  const said = error.message ? `: ${error.message}` : "";
  switch (error.kind) {
    case "rate_limited":
      return {
        action: "hold",
        delayMs: rateLimitHoldMs(error.retryAfterMs, error.rateLimitReset ?? null, failures, random),
        reason: `Pinterest is rate limiting this profile (429)${said}`,
      };
    case "server":
    case "timeout":
    case "network":
    case "unexpected": {
      // No answer, a 5xx or an unreadable success: Pinterest may have created the pin.
      const what = error.status ? `Pinterest answered ${error.status}${said}` : error.message || "Pinterest did not answer";
      return uncertainFailure(what, failures, error.retryAfterMs, random);
    }
    default:
      return { action: "fail", reason: `Pinterest refused the pin${error.status ? ` (${error.status})` : ""}${said}` };
  }
}

/**
 * A failure after which the pin may or may not exist (no answer, a 5xx, our
 * own failure mid-call): try again, looking on the board first; after
 * MAX_FAILURES, give up, but only once a look on the board did not find it.
 */
export function uncertainFailure(what: string, failures: number, providerAskedMs: number | null = null, random: () => number = Math.random): FailureOutcome {
  if (failures >= MAX_FAILURES) return { action: "fail", reason: `${what} (gave up after ${failures} attempts)`, mayExist: true };
  return { action: "retry", check: true, counts: true, delayMs: retryDelayMs(failures, providerAskedMs, random), reason: what };
}

// ------------------------------------------------------------------ finding a pin whose answer was lost

/** What we sent to Pinterest, as the board check compares it. */
export interface SentPin {
  title: string;
  description: string;
  link: string;
  altText: string;
  mediaType: "image" | "video";
  /** The image URL we gave (image pins) or the cover we gave (video pins). */
  imageUrl: string;
}

/** A pin as Pinterest lists it on a board (the fields we compare). */
export interface ListedPin {
  id: string;
  title?: string | null;
  description?: string | null;
  link?: string | null;
  alt_text?: string | null;
  created_at?: string;
  media?: { media_type?: string; images?: Record<string, { url?: string } | undefined>; cover_image_url?: string | null } | null;
}

/** Clock difference we allow between us and Pinterest when reading created_at. */
export const CLOCK_SKEW_MS = 5 * 60_000;

/**
 * Whether a pin on the board is the one we tried to create: created after the
 * uncertain attempt began, not already claimed by another of our pins, with
 * the same link, title and kind of media, and the same image (when Pinterest
 * shows our URL) or else the same description and alt text.
 */
export function matchesSentPin(listed: ListedPin, sent: SentPin, sinceMs: number, claimed: ReadonlySet<string>): boolean {
  if (claimed.has(listed.id)) return false;
  const created = listed.created_at ? Date.parse(listed.created_at) : Number.NaN;
  if (!Number.isNaN(created) && created < sinceMs - CLOCK_SKEW_MS) return false;
  if ((listed.title ?? "") !== sent.title || (listed.link ?? "") !== sent.link) return false;
  const listedType = listed.media?.media_type === "video" ? "video" : "image";
  if (listedType !== sent.mediaType) return false;
  const urls = [listed.media?.cover_image_url, ...Object.values(listed.media?.images ?? {}).map((image) => image?.url)].filter(Boolean);
  if (sent.imageUrl && urls.includes(sent.imageUrl)) return true;
  return (listed.description ?? "") === sent.description && (listed.alt_text ?? "") === sent.altText;
}

/** Whether a board page (newest first) reaches pins older than the uncertain attempt: no need to read further. */
export function pageReachesBefore(items: readonly ListedPin[], sinceMs: number): boolean {
  const last = items[items.length - 1];
  if (!last?.created_at) return false;
  const created = Date.parse(last.created_at);
  return !Number.isNaN(created) && created < sinceMs - CLOCK_SKEW_MS;
}

// ------------------------------------------------------------------ pin history

/** A pin's pin history row: its thumbnail is the image (or the video's cover). */
export function pinHistoryDetails(
  pin: Omit<PinContent, "altText" | "sectionId" | "media_id" | "allowDuplicate">,
  action: "scheduled" | "pinned",
  pinterestPinId: string | null,
): PinDetails {
  return {
    action,
    title: pin.title,
    description: pin.description,
    url: pin.url,
    imageUrl: pin.mediaType === "video" ? pin.videoThumbnail || pin.videoURL : pin.imageURL || pin.mediaURL,
    mediaType: pin.mediaType,
    boardId: pin.boardId,
    boardName: pin.boardName || undefined,
    pinterestProfile: pin.pinterestProfileUsername,
    pinterestPinId: pinterestPinId ?? undefined,
  };
}

// ------------------------------------------------------------------ paging the queue

export const SORT_ORDERS = ["scheduledTimeUTCTimestamp-asc", "scheduledTimeUTCTimestamp-desc"] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];
export const QUEUE_PAGE_SIZE = 50;

/**
 * Keyset paging over (scheduled_time, id): the SQL condition for the rows
 * after the cursor in the given order, and the ORDER BY to read them in.
 */
export function keysetPage(
  order: SortOrder,
  cursor: { scheduledTime: number; id: string } | null,
): { where: string; params: (string | number)[]; orderBy: string } {
  const descending = order === "scheduledTimeUTCTimestamp-desc";
  const orderBy = descending ? "scheduled_time DESC, id DESC" : "scheduled_time ASC, id ASC";
  if (!cursor) return { where: "1 = 1", params: [], orderBy };
  const op = descending ? "<" : ">";
  return {
    where: `(scheduled_time ${op} ? OR (scheduled_time = ? AND id ${op} ?))`,
    params: [cursor.scheduledTime, cursor.scheduledTime, cursor.id],
    orderBy,
  };
}
