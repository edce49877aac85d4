import { stableSeed } from "../../../workers/domain/random.ts";
import { PINTEREST_PIN_LIMITS } from "../../../contracts/pinterest/pinterest.ts";
import type { Post } from "../../../contracts/content/post.ts";
import {
  isWebUrl,
  MAX_PINS_PER_SCHEDULE,
  type PinRefusalReason,
  type PinScheduleFailure,
  type ScheduleResponse,
} from "../../../contracts/pinterest/scheduling-api.ts";
import { scheduleFailureMessage, type NewPinBody } from "./scheduling-api.ts";
import { formatInZone, timeZoneLabel } from "./times.ts";

/**
 * Scheduling generated posts (spec section 4, Pin scheduling per post): each
 * post's pin is rendered, then all are sent to schedulePin in calls of at
 * most 200. A post starts with isScheduling true; success sets isScheduled;
 * failure sets an error text and both flags false. The progress bar rises
 * toward 90 percent until the server confirms (spec section 9).
 */

export const BULK_PROGRESS_CAP = 90;
/** Share of the bar the rendering fills; the rest creeps toward the cap while the server works. */
const RENDER_SHARE = 60;

/** One step of the bar: never past the cap, never behind the work done, and creeping while it waits. */
export function creepProgress(current: number, floor: number): number {
  const next = current + (BULK_PROGRESS_CAP - current) * 0.06;
  return Math.min(BULK_PROGRESS_CAP, Math.max(floor, next));
}

/** The floor the bar stands on after `rendered` of `total` pins are drawn. */
export function renderedFloor(rendered: number, total: number): number {
  return total > 0 ? Math.round((RENDER_SHARE * rendered) / total) : 0;
}

export interface ScheduleTarget {
  pinterestProfileUsername: string;
  boardId: string;
  boardName: string;
  sectionId: string | null;
  /** Queue: the next free slots; SpecificDate: this instant (ms). */
  when: { type: "Queue" } | { type: "SpecificDate"; at: number };
  allowDuplicate: boolean;
  /** Also repeat each pin every this many days (2-365); absent: post once. */
  repeatIntervalInDays?: number;
  /** The profile's time zone (IANA): times in messages are shown in it. */
  timeZone: string;
}

/** Text cut to at most `max` characters (code points, as Pinterest counts), at a word break when one is near. */
export function fitText(text: string, max: number): string {
  const points = [...text.trim()];
  if (points.length <= max) return points.join("");
  const cut = points.slice(0, max).join("");
  const space = cut.lastIndexOf(" ");
  return (space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd();
}

/** A short stable hash (FNV-1a) for references. */
export function referenceHash(text: string): string {
  return stableSeed(text).toString(36);
}

/** Where and when a pin goes, for its reference: posting a refused duplicate anyway is a request of its own. */
export function targetKey(target: ScheduleTarget): string {
  const when = `${target.when.type === "SpecificDate" ? `at${target.when.at}` : "queue"}${target.repeatIntervalInDays ? `|every${target.repeatIntervalInDays}` : ""}${target.allowDuplicate ? "|dup" : ""}`;
  return `${target.boardId}|${target.sectionId ?? ""}|${when}`;
}

/** What every pin body of a post says, whatever its media: the post's copy, and where and when it goes. */
export function pinCopyAndTarget(post: Post, target: ScheduleTarget) {
  return {
    title: fitText(post.title, PINTEREST_PIN_LIMITS.title),
    description: fitText(post.description, PINTEREST_PIN_LIMITS.description),
    altText: fitText(post.altText, PINTEREST_PIN_LIMITS.altText),
    url: isWebUrl(post.url) && post.url.length <= PINTEREST_PIN_LIMITS.link ? post.url : "",
    boardId: target.boardId,
    boardName: target.boardName,
    sectionId: target.sectionId,
    pinterestProfileUsername: target.pinterestProfileUsername,
    type: target.when.type,
    scheduledTime: target.when.type === "SpecificDate" ? target.when.at : null,
    allowDuplicate: target.allowDuplicate,
    ...(target.repeatIntervalInDays ? { repeatIntervalInDays: target.repeatIntervalInDays } : {}),
    // What made the pin (templateId, templateTitle, templateFamily, source), for its analytics (issue 41).
    ...post.origin,
  };
}

/**
 * The schedulePin body of a post whose pin was rendered at `imageURL`. The
 * reference makes a retried call schedule (and charge) the same pin once.
 */
export function pinBodyOf(post: Post, imageURL: string, target: ScheduleTarget): NewPinBody {
  const id = post.id.replace(/[^A-Za-z0-9_.-]/g, "").slice(0, 64);
  return {
    reference: `post:${id}:${referenceHash(`${imageURL}|${targetKey(target)}`)}`,
    ...pinCopyAndTarget(post, target),
    imageURL,
    mediaType: "image",
  };
}

export type ScheduleFlags = Partial<Pick<Post, "isScheduling" | "isScheduled" | "error">>;

export interface BulkScheduleDeps {
  /** Renders the post's pin; answers its image URL. */
  render(post: Post): Promise<string>;
  schedule(pins: NewPinBody[]): Promise<ScheduleResponse>;
  setFlags(ids: ReadonlySet<string>, flags: ScheduleFlags): void;
  /** The floor of the progress bar (0-90) as work completes. */
  onFloor(floor: number): void;
  /** How many renders run at once. */
  concurrency?: number;
}

export interface BulkScheduleResult {
  /** Posts asked for. */
  total: number;
  scheduled: number;
  creditsCharged: number;
  /**
   * cause: "pin" when it is this pin's own problem (its render failed, or the server refused it on its own:
   * `reason`); "call" when a whole schedulePin call failed (the same error for each of its pins).
   */
  failed: { postId: string; error: string; cause: "pin" | "call"; reason?: PinRefusalReason }[];
  /** When each scheduled pin posts (its first time for a repeating one), and its link: what the summary and cards say. */
  times: { postId: string; at: number; url: string }[];
}

/** "Tue, 24 Nov 2026, 19:05 GMT": an instant as the profile's schedule reads it. */
function zonedTime(ms: number, zone: string): string {
  return `${formatInZone(ms, zone)} ${timeZoneLabel(zone)}`;
}

/**
 * What a post's card says when the server refused its pin on its own: plain
 * words, times in the profile's time zone, no field names.
 */
export function pinRefusalText(
  failure: Pick<PinScheduleFailure, "reason" | "conflict">,
  target: Pick<ScheduleTarget, "when" | "boardName" | "timeZone">,
): string {
  if (failure.reason === "duplicate") {
    const conflict = failure.conflict;
    const board = conflict?.boardName || target.boardName || "this board";
    if (!conflict)
      return `Not scheduled: the same link already goes to ${board} within 48 hours of this time. A link is posted to a board at most once in 48 hours.`;
    const other = conflict.title ? ` ("${conflict.title}")` : "";
    const clash =
      conflict.state === "posted"
        ? `the same link was posted to ${board} on ${zonedTime(conflict.atUTCTimestamp, target.timeZone)}${other}`
        : `the same link is already scheduled to ${board} for ${zonedTime(conflict.atUTCTimestamp, target.timeZone)}${other}`;
    return `Not scheduled: ${clash}. A link is posted to a board at most once in 48 hours.`;
  }
  if (failure.reason === "past") {
    const at = target.when.type === "SpecificDate" ? `, ${zonedTime(target.when.at, target.timeZone)},` : "";
    return `Not scheduled: the chosen time${at} had passed by the time the pin was sent. Schedule it again for a later time.`;
  }
  return "Not scheduled: this pin was scheduled before and deleted since. Change the pin or its time to schedule it again.";
}

/** Schedules the posts to one board; a failed render or call marks its posts and does not stop the others. */
export async function schedulePosts(posts: readonly Post[], target: ScheduleTarget, deps: BulkScheduleDeps): Promise<BulkScheduleResult> {
  const result: BulkScheduleResult = { total: posts.length, scheduled: 0, creditsCharged: 0, failed: [], times: [] };
  if (posts.length === 0) return result;
  deps.setFlags(new Set(posts.map((post) => post.id)), { isScheduling: true, isScheduled: false, error: "" });
  const fail = (ids: string[], error: string, cause: "pin" | "call", reason?: PinRefusalReason) => {
    deps.setFlags(new Set(ids), { isScheduling: false, isScheduled: false, error });
    for (const postId of ids) result.failed.push(reason ? { postId, error, cause, reason } : { postId, error, cause });
  };

  // 1. Render every pin (a few at a time).
  const ready: { post: Post; body: NewPinBody }[] = [];
  let next = 0;
  let rendered = 0;
  const worker = async () => {
    while (next < posts.length) {
      const post = posts[next++];
      try {
        ready.push({ post, body: pinBodyOf(post, await deps.render(post), target) });
      } catch (error) {
        fail([post.id], `Unable to render the pin: ${error instanceof Error && error.message ? error.message : "please try again."}`, "pin");
      }
      rendered += 1;
      deps.onFloor(renderedFloor(rendered, posts.length));
    }
  };
  await Promise.all(Array.from({ length: Math.min(deps.concurrency ?? 2, posts.length) }, worker));
  // Keep the grid's order whatever order the renders finished in.
  const order = new Map(posts.map((post, i) => [post.id, i]));
  ready.sort((a, b) => order.get(a.post.id)! - order.get(b.post.id)!);

  // 2. Schedule them, MAX_PINS_PER_SCHEDULE (1,000) per call.
  for (let start = 0; start < ready.length; start += MAX_PINS_PER_SCHEDULE) {
    const batch = ready.slice(start, start + MAX_PINS_PER_SCHEDULE);
    const ids = batch.map(({ post }) => post.id);
    try {
      const answer = await deps.schedule(batch.map(({ body }) => body));
      // Each pin refused on its own says why on its card; the others are scheduled.
      const refused = new Map((answer.failedPins ?? []).filter((failure) => failure.index in ids).map((failure) => [failure.index, failure]));
      for (const [index, failure] of refused) fail([ids[index]], pinRefusalText(failure, target), "pin", failure.reason);
      const scheduled = ids.filter((_, index) => !refused.has(index));
      deps.setFlags(new Set(scheduled), { isScheduling: false, isScheduled: true, error: "" });
      // The answer lists the pins it scheduled in the order given, the refused ones left out.
      (answer.scheduledPins ?? []).forEach((pin, index) => {
        if (index < scheduled.length) result.times.push({ postId: scheduled[index], at: pin.scheduledTimeUTCTimestamp, url: pin.url });
      });
      result.scheduled += scheduled.length;
      result.creditsCharged += answer.creditsCharged;
    } catch (error) {
      fail(ids, scheduleFailureMessage(error), "call");
    }
    deps.onFloor(RENDER_SHARE + Math.round(((BULK_PROGRESS_CAP - RENDER_SHARE) * Math.min(ready.length, start + batch.length)) / ready.length));
  }
  return result;
}

const pinsText = (n: number) => `${n} ${n === 1 ? "pin" : "pins"}`;

/** "Thu 10 Dec at 09:00" in the profile's zone. */
export function dayAndTime(ms: number, zone: string): string {
  const day = formatInZone(ms, zone, { weekday: "short", day: "numeric", month: "short" }).replace(",", "");
  return `${day} at ${formatInZone(ms, zone, { hour: "2-digit", minute: "2-digit" })}`;
}

const dayOf = (ms: number, zone: string) => formatInZone(ms, zone, { year: "numeric", month: "2-digit", day: "2-digit" });

/**
 * When the scheduled pins post, in the profile's time zone (issue 40 point 1): how many today and when the last
 * one goes out, and why they spread when pins of one link wait 48 hours on one board. Null when the times are
 * not known.
 */
export function whenTheyPost(times: BulkScheduleResult["times"], target: Pick<ScheduleTarget, "timeZone" | "allowDuplicate">, now = Date.now()): string | null {
  if (times.length === 0) return null;
  const zone = target.timeZone;
  const sorted = [...times].sort((a, b) => a.at - b.at);
  const first = sorted[0].at;
  const last = sorted[sorted.length - 1].at;
  const today = dayOf(now, zone);
  const todayCount = sorted.filter((time) => dayOf(time.at, zone) === today).length;
  const zoneNote = ` (${timeZoneLabel(zone)} time)`;
  if (sorted.length === 1) {
    return `It posts ${dayOf(first, zone) === today ? `today at ${formatInZone(first, zone, { hour: "2-digit", minute: "2-digit" })}` : `on ${dayAndTime(first, zone)}`}${zoneNote}.`;
  }
  let when: string;
  if (todayCount === sorted.length) when = `All post today, the last at ${formatInZone(last, zone, { hour: "2-digit", minute: "2-digit" })}`;
  else if (todayCount > 0) when = `${todayCount} today, the last on ${dayAndTime(last, zone)}`;
  else when = `The first on ${dayAndTime(first, zone)}, the last on ${dayAndTime(last, zone)}`;
  // Pins of one link go to one board at most once in 48 hours: say so when that is what spread them.
  const byLink = new Map<string, number>();
  for (const time of sorted) if (time.url) byLink.set(time.url, (byLink.get(time.url) ?? 0) + 1);
  const shared = [...byLink.values()].some((count) => count > 1);
  const because = shared && !target.allowDuplicate && last - first > 48 * 3600_000 ? ", because pins of one post wait 48 hours per board" : "";
  return `${when}${zoneNote}${because}.`;
}

/**
 * The one toast that sums a bulk schedule up: how many of the pins were
 * scheduled. A pin refused on its own is explained on its card only; a failure
 * of the whole call (the same for every pin) is told here once.
 */
export function scheduleSummary(
  result: BulkScheduleResult,
  target: ScheduleTarget,
  now = Date.now(),
): { title: string; description: string; kind: "success" | "error" } {
  const board = target.boardName || "the board";
  const failed = result.failed.length;
  const whereTimes =
    whenTheyPost(result.times, target, now) ??
    (target.when.type === "Queue" ? `They take the next free times of ${target.pinterestProfileUsername}'s queue.` : "They post at the chosen time.");
  if (failed === 0) return { title: `${pinsText(result.scheduled)} scheduled to ${board}`, description: whereTimes, kind: "success" };
  const callFailure = result.failed.find((failure) => failure.cause === "call");
  const why = callFailure ? callFailure.error : failed === 1 ? "Its card says why." : "Each card says why.";
  if (result.scheduled === 0) {
    return {
      title: result.total === 1 ? "The pin could not be scheduled" : `None of the ${pinsText(result.total)} could be scheduled`,
      description: why,
      kind: "error",
    };
  }
  return {
    title: `${result.scheduled} of ${pinsText(result.total)} scheduled to ${board}`,
    description: `${pinsText(failed)} could not be scheduled. ${why}`,
    kind: "error",
  };
}

/**
 * The most pins of one link among `urls` (pins of one post share its link): on one board they post 48 hours
 * apart, so a batch with several of them takes (count - 1) x 2 days to post; spread over `boards` boards it takes
 * ceil(count / boards) - 1 such steps (issue 40 point 1).
 */
export function sameLinkSpread(urls: readonly string[], boards = 1): { pins: number; days: number } {
  const counts = new Map<string, number>();
  for (const url of urls) if (url) counts.set(url, (counts.get(url) ?? 0) + 1);
  const pins = Math.max(0, ...counts.values());
  return { pins, days: pins > 1 ? (Math.ceil(pins / Math.max(1, boards)) - 1) * 2 : 0 };
}

/**
 * Pins spread over boards so that pins of one link go to different boards first: the n-th pin of a link goes to
 * board n mod boards. Answers the posts of each board, in the grid's order.
 */
export function spreadOverBoards<T extends { url: string }>(posts: readonly T[], boards: number): T[][] {
  const out: T[][] = Array.from({ length: Math.max(1, boards) }, () => []);
  const seen = new Map<string, number>();
  for (const post of posts) {
    const nth = seen.get(post.url) ?? 0;
    seen.set(post.url, nth + 1);
    out[nth % out.length].push(post);
  }
  return out;
}
