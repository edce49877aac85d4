import { eq } from "drizzle-orm";
import * as v from "valibot";
import { VideoJobMessage } from "../../contracts/video-jobs.ts";
import { database } from "../db/client.ts";
import { videoJobs } from "../db/schema.ts";
import type { Env } from "../env.ts";
import { ProviderError } from "../integrations/http.ts";
import { submitVideoJob } from "../integrations/video.ts";

export const VIDEO_JOBS_QUEUE = "video-jobs";
export const VIDEO_JOBS_DEAD_LETTER_QUEUE = "video-jobs-dlq";

/** Seconds before a failed delivery is retried: 1, 2, 4 ... capped at 60. */
export function retryDelaySeconds(attempts: number) {
  return Math.min(60, 2 ** Math.max(0, attempts - 1));
}

/** Creates a video job row and puts it on the queue. */
export async function enqueueVideoJob(env: Pick<Env, "DB" | "VIDEO_JOBS">, job: { id: string; userId: string | null; payload: unknown }) {
  await database(env.DB)
    .insert(videoJobs)
    .values({ id: job.id, userId: job.userId, status: "queued", payload: job.payload, updatedAt: Date.now() });
  await env.VIDEO_JOBS.send({ jobId: job.id } satisfies VideoJobMessage);
}

/**
 * Consumer of video-jobs: hands each job to the video service. A job the
 * service cannot take now is retried with backoff; after the queue's
 * max_retries it moves to the dead-letter queue (see handleDeadVideoJobs).
 */
export async function handleVideoJobs(batch: MessageBatch<unknown>, env: Env) {
  const db = database(env.DB);
  for (const message of batch.messages) {
    const parsed = v.safeParse(VideoJobMessage, message.body);
    if (!parsed.success) {
      // A malformed message can never succeed: drop it loudly rather than retry it.
      console.error("video-jobs: malformed message dropped", message.id, parsed.issues[0]?.message);
      message.ack();
      continue;
    }
    const { jobId } = parsed.output;
    const job = await db.query.videoJobs.findFirst({ where: eq(videoJobs.id, jobId) });
    if (!job) {
      console.error("video-jobs: message for unknown job dropped", jobId);
      message.ack();
      continue;
    }
    if (job.status !== "queued") {
      message.ack(); // already handled by an earlier delivery
      continue;
    }
    try {
      await submitVideoJob(env, { jobId, payload: job.payload });
      await db
        .update(videoJobs)
        .set({ status: "dispatched", attempts: message.attempts, lastError: null, updatedAt: Date.now() })
        .where(eq(videoJobs.id, jobId));
      message.ack();
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      await db
        .update(videoJobs)
        .set({ attempts: message.attempts, lastError: reason, updatedAt: Date.now() })
        .where(eq(videoJobs.id, jobId));
      if (error instanceof ProviderError && !error.retryable) {
        await db.update(videoJobs).set({ status: "failed", updatedAt: Date.now() }).where(eq(videoJobs.id, jobId));
        message.ack();
      } else {
        message.retry({ delaySeconds: retryDelaySeconds(message.attempts) });
      }
    }
  }
}

/** Consumer of the dead-letter queue: a job that kept failing is marked failed, with its last error kept. */
export async function handleDeadVideoJobs(batch: MessageBatch<unknown>, env: Env) {
  const db = database(env.DB);
  for (const message of batch.messages) {
    const parsed = v.safeParse(VideoJobMessage, message.body);
    if (parsed.success) {
      const job = await db.query.videoJobs.findFirst({ where: eq(videoJobs.id, parsed.output.jobId) });
      if (job && job.status === "queued") {
        await db
          .update(videoJobs)
          .set({
            status: "failed",
            lastError: `Gave up after repeated failures: ${job.lastError ?? "unknown error"}`,
            updatedAt: Date.now(),
          })
          .where(eq(videoJobs.id, job.id));
      }
    } else {
      console.error("video-jobs-dlq: malformed message dropped", message.id);
    }
    message.ack();
  }
}
