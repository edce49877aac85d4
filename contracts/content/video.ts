import * as v from "valibot";
import { body, IdempotencyReference } from "../fields.ts";
import { Post } from "./post.ts";

/**
 * POST /videoApi/video/createFFMPEGVideo {post}: a video pin from the post's
 * template (its `template` copy, else the template `templateType` names),
 * which must have a Video layer. Optional idempotency key `reference` (or the
 * Idempotency-Key header): a replay answers the same job, charged once.
 */
export const CreateVideoBody = body({
  post: Post,
  reference: v.optional(IdempotencyReference),
});
export type CreateVideoBody = v.InferInput<typeof CreateVideoBody>;

export const VIDEO_JOB_STATUSES = ["queued", "rendering", "done", "failed"] as const;
export type VideoJobStatus = (typeof VIDEO_JOB_STATUSES)[number];

/** What a user sees when a video could not be made (spec section 8). */
export const VIDEO_FAILED_MESSAGE = "Unable to create video pin";

/** The 202 answer of createFFMPEGVideo. */
export interface CreatedVideoJob {
  jobId: string;
  status: "queued";
  /** Absolute /media/ URLs, live once the job is done. */
  videoURL: string;
  videoFileName: string;
  videoThumbnail: string;
}

/** GET /videoApi/video/getVideoJob/:jobId */
export interface VideoJobState {
  jobId: string;
  status: VideoJobStatus;
  /** 0..1 */
  progress: number;
  videoURL: string;
  videoFileName: string;
  videoThumbnail: string;
  /** When done. */
  durationSeconds?: number;
  /** When failed: 'Unable to create video pin'. */
  message?: string;
}

export const VideoJobParam = v.object({
  jobId: v.pipe(v.string("jobId is required"), v.regex(/^[A-Za-z0-9-]{8,64}$/, "jobId must be a video job id")),
});
