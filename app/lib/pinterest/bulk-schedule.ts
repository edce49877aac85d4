import { PINTEREST_PIN_LIMITS } from "../../../contracts/pinterest.ts";
import type { Post } from "../../../contracts/post.ts";
import { isWebUrl, MAX_PINS_PER_SCHEDULE, type ScheduleResponse } from "../../../contracts/scheduling-api.ts";
import { scheduleFailureMessage, type NewPinBody } from "./scheduling-api.ts";

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
function hash(text: string): string {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return (h >>> 0).toString(36);
}

/**
 * The schedulePin body of a post whose pin was rendered at `imageURL`. The
 * reference makes a retried call schedule (and charge) the same pin once.
 */
export function pinBodyOf(post: Post, imageURL: string, target: ScheduleTarget): NewPinBody {
  const when = `${target.when.type === "SpecificDate" ? `at${target.when.at}` : "queue"}${target.repeatIntervalInDays ? `|every${target.repeatIntervalInDays}` : ""}`;
  const id = post.id.replace(/[^A-Za-z0-9_.-]/g, "").slice(0, 64);
  return {
    reference: `post:${id}:${hash(`${imageURL}|${target.boardId}|${target.sectionId ?? ""}|${when}`)}`,
    title: fitText(post.title, PINTEREST_PIN_LIMITS.title),
    description: fitText(post.description, PINTEREST_PIN_LIMITS.description),
    altText: fitText(post.altText, PINTEREST_PIN_LIMITS.altText),
    url: isWebUrl(post.url) && post.url.length <= PINTEREST_PIN_LIMITS.link ? post.url : "",
    imageURL,
    mediaType: "image",
    boardId: target.boardId,
    boardName: target.boardName,
    sectionId: target.sectionId,
    pinterestProfileUsername: target.pinterestProfileUsername,
    type: target.when.type,
    scheduledTime: target.when.type === "SpecificDate" ? target.when.at : null,
    allowDuplicate: target.allowDuplicate,
    ...(target.repeatIntervalInDays ? { repeatIntervalInDays: target.repeatIntervalInDays } : {}),
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
  scheduled: number;
  creditsCharged: number;
  failed: { postId: string; error: string }[];
}

/** Schedules the posts to one board; a failed render or call marks its posts and does not stop the others. */
export async function schedulePosts(posts: readonly Post[], target: ScheduleTarget, deps: BulkScheduleDeps): Promise<BulkScheduleResult> {
  const result: BulkScheduleResult = { scheduled: 0, creditsCharged: 0, failed: [] };
  if (posts.length === 0) return result;
  deps.setFlags(new Set(posts.map((post) => post.id)), { isScheduling: true, isScheduled: false, error: "" });
  const fail = (ids: string[], error: string) => {
    deps.setFlags(new Set(ids), { isScheduling: false, isScheduled: false, error });
    for (const postId of ids) result.failed.push({ postId, error });
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
        fail([post.id], `Unable to render the pin: ${error instanceof Error && error.message ? error.message : "please try again."}`);
      }
      rendered += 1;
      deps.onFloor(renderedFloor(rendered, posts.length));
    }
  };
  await Promise.all(Array.from({ length: Math.min(deps.concurrency ?? 2, posts.length) }, worker));
  // Keep the grid's order whatever order the renders finished in.
  const order = new Map(posts.map((post, i) => [post.id, i]));
  ready.sort((a, b) => order.get(a.post.id)! - order.get(b.post.id)!);

  // 2. Schedule them, 200 per call.
  for (let start = 0; start < ready.length; start += MAX_PINS_PER_SCHEDULE) {
    const batch = ready.slice(start, start + MAX_PINS_PER_SCHEDULE);
    const ids = batch.map(({ post }) => post.id);
    try {
      const answer = await deps.schedule(batch.map(({ body }) => body));
      deps.setFlags(new Set(ids), { isScheduling: false, isScheduled: true, error: "" });
      result.scheduled += batch.length;
      result.creditsCharged += answer.creditsCharged;
    } catch (error) {
      fail(ids, scheduleFailureMessage(error));
    }
    deps.onFloor(RENDER_SHARE + Math.round(((BULK_PROGRESS_CAP - RENDER_SHARE) * Math.min(ready.length, start + batch.length)) / ready.length));
  }
  return result;
}
