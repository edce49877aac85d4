import { eq } from "drizzle-orm";
import * as v from "valibot";
import { VideoJobMessage } from "../../contracts/content/video-jobs.ts";
import { database } from "../db/client.ts";
import { videoJobs } from "../db/schema.ts";
import type { Env } from "../env.ts";
import { ProviderError } from "../integrations/http.ts";
import { deleteVideoServiceJob, fetchVideoResult, getVideoServiceJob, submitVideoJob, type VideoServiceJob } from "../integrations/video.ts";
import { putMedia } from "../media/store.ts";
import { failVideoJob, type VideoJobPayload } from "../services/content/video-pins.ts";

export const VIDEO_JOBS_QUEUE = "video-jobs";
export const VIDEO_JOBS_DEAD_LETTER_QUEUE = "video-jobs-dlq";

/** How often the consumer asks the service how a job is going. */
export const VIDEO_POLL_INTERVAL_MS = 1000;
/** How long one delivery follows a job; past it the message is retried and the next delivery picks the same job up. */
export const VIDEO_FOLLOW_LIMIT_MS = 10 * 60_000;

/** Seconds before a failed delivery is retried: 1, 2, 4 ... capped at 60. */
export function retryDelaySeconds(attempts: number) {
  return Math.min(60, 2 ** Math.max(0, attempts - 1));
}

/** An input the job needs is gone from R2: no retry can help. */
class MissingInput extends Error {}

/** An input's bytes as a stream straight from R2 (a clip may be large). */
async function inputOf(env: Env, key: string): Promise<ReadableStream<Uint8Array>> {
  const object = await env.MEDIA.get(key);
  if (!object) throw new MissingInput(`The job's input ${key.split("/").pop()} is missing from storage`);
  return object.body as ReadableStream<Uint8Array>;
}

/**
 * Has the service make the video (or picks up the job it is already making),
 * follows it to the end, and copies the MP4 and the thumbnail to R2.
 */
async function makeVideo(env: Env, jobId: string, payload: VideoJobPayload, attempts: number) {
  const db = database(env.DB);
  const setState = (values: Partial<typeof videoJobs.$inferInsert>) =>
    db
      .update(videoJobs)
      .set({ ...values, updatedAt: Date.now() })
      .where(eq(videoJobs.id, jobId));
  await setState({ status: "rendering", attempts });
  let state: VideoServiceJob | null = await getVideoServiceJob(env, jobId);
  if (!state || state.status === "failed") {
    const [base, overlay, source] = await Promise.all([
      inputOf(env, payload.inputs.base),
      inputOf(env, payload.inputs.overlay),
      inputOf(env, payload.inputs.source),
    ]);
    state = await submitVideoJob(env, { jobId, spec: { box: payload.box }, base, overlay, source });
  }
  const deadline = Date.now() + VIDEO_FOLLOW_LIMIT_MS;
  let reported = -1;
  while (state.status === "queued" || state.status === "rendering") {
    if (state.progress !== reported) {
      reported = state.progress;
      await setState({ progress: Math.min(0.99, state.progress) });
    }
    if (Date.now() > deadline) throw new Error(`The video service is still making the video after ${VIDEO_FOLLOW_LIMIT_MS / 60_000} minutes`);
    await new Promise((resolve) => setTimeout(resolve, VIDEO_POLL_INTERVAL_MS));
    const next = await getVideoServiceJob(env, jobId);
    if (!next) throw new Error("The video service lost the job (restarted?)");
    state = next;
  }
  if (state.status === "failed") throw new Error(`The video service could not make the video: ${state.error ?? "no reason given"}`);
  const [video, thumbnail] = await Promise.all([fetchVideoResult(env, jobId, "video"), fetchVideoResult(env, jobId, "thumbnail")]);
  await putMedia(env, payload.videoKey, video, "video/mp4");
  await putMedia(env, payload.thumbnailKey, thumbnail, "image/jpeg");
  await setState({ status: "done", progress: 1, durationSeconds: state.durationSeconds, lastError: null });
  // The inputs have served; a video from the library is the user's own and stays.
  await env.MEDIA.delete([payload.inputs.base, payload.inputs.overlay, ...(payload.sourceKind === "image" ? [payload.inputs.source] : [])]);
  await deleteVideoServiceJob(env, jobId).catch((error) => console.error("video-jobs: the service kept a finished job", jobId, String(error)));
}

async function handleVideoMessage(message: Message<unknown>, env: Env) {
  const db = database(env.DB);
  const parsed = v.safeParse(VideoJobMessage, message.body);
  if (!parsed.success) {
    // A malformed message can never succeed: drop it loudly rather than retry it.
    console.error("video-jobs: malformed message dropped", message.id, parsed.issues[0]?.message);
    return message.ack();
  }
  const { jobId } = parsed.output;
  const job = await db.query.videoJobs.findFirst({ where: eq(videoJobs.id, jobId) });
  if (!job) {
    console.error("video-jobs: message for unknown job dropped", jobId);
    return message.ack();
  }
  if (job.status === "done" || job.status === "failed") return message.ack(); // handled by an earlier delivery
  try {
    await makeVideo(env, jobId, job.payload as VideoJobPayload, message.attempts);
    message.ack();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    await db.update(videoJobs).set({ attempts: message.attempts, lastError: reason, updatedAt: Date.now() }).where(eq(videoJobs.id, jobId));
    if (error instanceof MissingInput || (error instanceof ProviderError && !error.retryable)) {
      // The service refused the inputs (400) or they are gone: no retry can help.
      await failVideoJob(env, jobId, reason);
      message.ack();
    } else {
      message.retry({ delaySeconds: retryDelaySeconds(message.attempts) });
    }
  }
}

/**
 * Consumer of video-jobs: each job is handed to the video service and
 * followed to a finished video in R2. Jobs of a batch run side by side (the
 * service queues beyond its own limit). A failed delivery is retried with
 * backoff; after the queue's max_retries it moves to the dead-letter queue.
 */
export async function handleVideoJobs(batch: MessageBatch<unknown>, env: Env) {
  await Promise.all(batch.messages.map((message) => handleVideoMessage(message, env)));
}

/**
 * Consumer of the dead-letter queue: a job that kept failing is marked failed
 * with its last error kept, and its credits are given back (a ledger reversal).
 */
export async function handleDeadVideoJobs(batch: MessageBatch<unknown>, env: Env) {
  const db = database(env.DB);
  for (const message of batch.messages) {
    const parsed = v.safeParse(VideoJobMessage, message.body);
    if (parsed.success) {
      const job = await db.query.videoJobs.findFirst({ where: eq(videoJobs.id, parsed.output.jobId) });
      if (job && (job.status === "queued" || job.status === "rendering")) {
        await failVideoJob(env, job.id, `Gave up after repeated failures: ${job.lastError ?? "unknown error"}`);
      }
    } else {
      console.error("video-jobs-dlq: malformed message dropped", message.id);
    }
    message.ack();
  }
}
