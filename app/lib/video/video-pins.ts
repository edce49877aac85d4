import type { Post } from "../../../contracts/content/post.ts";
import type { PinRefusalReason, ScheduleResponse } from "../../../contracts/pinterest/scheduling-api.ts";
import type { UploadVideoToPinterestResponse } from "../../../contracts/pinterest/pinterest-media.ts";
import { VIDEO_FAILED_MESSAGE, type VideoJobState } from "../../../contracts/content/video.ts";
import { ApiError, apiJson } from "../api-client.ts";
import { creditsMayHaveChanged } from "../credit-events.ts";
import { pinCopyAndTarget, pinRefusalText, referenceHash, targetKey, type ScheduleTarget } from "../pinterest/bulk-schedule.ts";
import { scheduleFailureMessage, type NewPinBody } from "../pinterest/scheduling-api.ts";

/**
 * Video pins from the browser (spec sections 7, 8 and 9): create the video
 * (createFFMPEGVideo, 5 credits, answered at once with a job), follow the job
 * (getVideoJob: queued, rendering, done or failed) until its video is ready,
 * upload it to the Pinterest profile (uploadVideoToPinterest: media_id), and
 * schedule it (/videoApi/scheduling/schedulePin), one call per video pin with
 * a 100 ms wait before each.
 */

/** What a user sees when a video could not be made (spec section 8). */
export const VIDEO_PIN_FAILED_MESSAGE = VIDEO_FAILED_MESSAGE;
/** The wait before each video pin scheduling call (spec section 9). */
export const VIDEO_SCHEDULE_WAIT_MS = 100;

/** GET /videoApi/video/getVideoJob/:jobId (and, with status "queued", the 202 of createFFMPEGVideo). */
export type VideoJob = Omit<VideoJobState, "progress"> & { progress?: number };

/** POST /videoApi/video/createFFMPEGVideo {post}: the job, queued (its credits are charged now and returned if it fails). */
export async function createVideo(post: Post, call: typeof apiJson = apiJson): Promise<VideoJob> {
  try {
    return await call<VideoJob>("/videoApi/video/createFFMPEGVideo", { json: { post } });
  } finally {
    creditsMayHaveChanged();
  }
}

export function getVideoJob(jobId: string, call: typeof apiJson = apiJson): Promise<VideoJob> {
  return call<VideoJob>(`/videoApi/video/getVideoJob/${encodeURIComponent(jobId)}`);
}

/** The job failed (its credits were returned by the server). */
export class VideoPinFailed extends Error {
  /** What went wrong, for the console (the user sees VIDEO_PIN_FAILED_MESSAGE). */
  readonly reason?: string;
  constructor(reason?: string) {
    super(VIDEO_PIN_FAILED_MESSAGE);
    this.name = "VideoPinFailed";
    this.reason = reason;
  }
}

export interface FollowOptions {
  /** Told every status read. */
  onStatus(job: VideoJob): void;
  signal?: AbortSignal;
  read?: (jobId: string) => Promise<VideoJob>;
  sleep?: (ms: number) => Promise<void>;
  /** Pause between reads: starts at this, grows by half up to maxIntervalMs. */
  intervalMs?: number;
  maxIntervalMs?: number;
}

const sleepFor = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });

/**
 * Reads the job until it is done (answers it) or failed (throws
 * VideoPinFailed). A read that fails on the way (network, 5xx) is tried
 * again on the next turn; a 404 means the job is not the caller's or gone.
 */
export async function followVideoJob(jobId: string, options: FollowOptions): Promise<VideoJob> {
  const read = options.read ?? ((id: string) => getVideoJob(id));
  const sleep = options.sleep ?? ((ms: number) => sleepFor(ms, options.signal));
  let interval = options.intervalMs ?? 1_000;
  const maxInterval = options.maxIntervalMs ?? 4_000;
  let failedReads = 0;
  for (;;) {
    options.signal?.throwIfAborted();
    let job: VideoJob | null = null;
    try {
      job = await read(jobId);
      failedReads = 0;
    } catch (error) {
      if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 429) throw new VideoPinFailed(error.message);
      failedReads += 1;
      if (failedReads >= 10) throw new VideoPinFailed(error instanceof Error ? error.message : undefined);
    }
    if (job) {
      options.onStatus(job);
      if (job.status === "done") return job;
      if (job.status === "failed") throw new VideoPinFailed(job.message);
    }
    await sleep(interval);
    interval = Math.min(maxInterval, Math.round(interval * 1.5));
  }
}

/** How far the job is, 0..100, for a progress bar: queued 0-5, rendering 5-99 by the service's progress, done 100. */
export function videoPercent(job: Pick<VideoJob, "status" | "progress">): number {
  if (job.status === "done") return 100;
  const progress = Math.max(0, Math.min(1, job.progress ?? 0));
  if (job.status === "queued") return Math.round(progress * 5);
  if (job.status === "rendering") return 5 + Math.round(progress * 94);
  return 0;
}

/** The words for where a job stands. */
export function videoStatusText(job: Pick<VideoJob, "status" | "progress">): string {
  switch (job.status) {
    case "queued":
      return "Queued";
    case "rendering":
      return `Rendering (${videoPercent(job)}%)`;
    case "done":
      return "Done";
    default:
      return VIDEO_PIN_FAILED_MESSAGE;
  }
}

/** POST /videoApi/pinterestAPI/uploadVideoToPinterest: the video in the profile's Pinterest media, once processed. */
export async function uploadVideoToPinterest(
  video: { videoURL: string; videoThumbnail: string },
  access_token: string,
  call: typeof apiJson = apiJson,
): Promise<string> {
  const answer = await call<UploadVideoToPinterestResponse>("/videoApi/pinterestAPI/uploadVideoToPinterest", { json: { ...video, access_token } });
  return answer.media_id;
}

/** A made video ready to schedule: the post it shows and its files. */
export interface ReadyVideo {
  /** The video pin's own id (its job's). */
  id: string;
  post: Post;
  videoURL: string;
  videoThumbnail: string;
}

/** The schedulePin body of a video pin: the post's copy, the video, its thumbnail as cover, Pinterest's media id. */
export function videoPinBody(video: ReadyVideo, mediaId: string, target: ScheduleTarget): NewPinBody {
  const { post } = video;
  return {
    reference: `video:${video.id.replace(/[^A-Za-z0-9_.-]/g, "").slice(0, 60)}:${referenceHash(`${video.videoURL}|${targetKey(target)}`)}`,
    ...pinCopyAndTarget(post, target),
    mediaType: "video",
    videoURL: video.videoURL,
    videoThumbnail: video.videoThumbnail,
    media_id: mediaId,
  };
}

/**
 * POST /videoApi/scheduling/schedulePin with one video pin, sent as a list of
 * one so that a refusal of the pin itself (48-hour rule, a time that passed)
 * comes back in failedPins and is told in plain words. A 503 is tried once
 * more (spec section 8).
 */
export async function scheduleVideoPin(body: NewPinBody, call: typeof apiJson = apiJson): Promise<ScheduleResponse> {
  const send = () => call<ScheduleResponse>("/videoApi/scheduling/schedulePin", { json: { pins: [body] } });
  try {
    return await send();
  } catch (error) {
    if (error instanceof ApiError && error.status === 503) return send();
    throw error;
  } finally {
    creditsMayHaveChanged();
  }
}

export type VideoScheduleFlags = { isScheduling?: boolean; isScheduled?: boolean; scheduleError?: string };

export interface VideoScheduleDeps {
  /** Uploads the video to the target's profile: Pinterest's media id. */
  upload(video: ReadyVideo): Promise<string>;
  schedule(body: NewPinBody): Promise<ScheduleResponse>;
  setFlags(id: string, flags: VideoScheduleFlags): void;
  /** Told after each video pin, with how many are finished. */
  onProgress?(done: number, total: number): void;
  sleep?: (ms: number) => Promise<void>;
}

export interface VideoScheduleResult {
  total: number;
  scheduled: number;
  creditsCharged: number;
  failed: { id: string; error: string; reason?: PinRefusalReason }[];
}

/** What a failure of one video pin says on its card. */
function failureText(error: unknown): string {
  if (error instanceof ApiError && error.status !== 503) return error.message;
  return scheduleFailureMessage(error);
}

/**
 * Schedules video pins one at a time: a 100 ms wait before each scheduling
 * call (spec section 9), the upload to Pinterest, then schedulePin. A pin
 * that fails says why on its own card; the others go on.
 */
export async function scheduleVideoPins(videos: readonly ReadyVideo[], target: ScheduleTarget, deps: VideoScheduleDeps): Promise<VideoScheduleResult> {
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const result: VideoScheduleResult = { total: videos.length, scheduled: 0, creditsCharged: 0, failed: [] };
  for (const video of videos) deps.setFlags(video.id, { isScheduling: true, isScheduled: false, scheduleError: "" });
  for (const [index, video] of videos.entries()) {
    try {
      const mediaId = await deps.upload(video);
      await sleep(VIDEO_SCHEDULE_WAIT_MS);
      const answer = await deps.schedule(videoPinBody(video, mediaId, target));
      const refusal = answer.failedPins?.[0];
      if (refusal) {
        const error = pinRefusalText(refusal, target);
        result.failed.push({ id: video.id, error, reason: refusal.reason });
        deps.setFlags(video.id, { isScheduling: false, isScheduled: false, scheduleError: error });
      } else {
        result.scheduled += 1;
        result.creditsCharged += answer.creditsCharged;
        deps.setFlags(video.id, { isScheduling: false, isScheduled: true, scheduleError: "" });
      }
    } catch (error) {
      const text = failureText(error);
      result.failed.push({ id: video.id, error: text });
      deps.setFlags(video.id, { isScheduling: false, isScheduled: false, scheduleError: text });
    }
    deps.onProgress?.(index + 1, videos.length);
  }
  return result;
}
