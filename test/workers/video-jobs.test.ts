import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it, vi } from "vitest";
import worker from "../../workers/app.ts";
import { database } from "../../workers/db/client.ts";
import { videoJobs } from "../../workers/db/schema.ts";
import { enqueueVideoJob, VIDEO_JOBS_DEAD_LETTER_QUEUE, VIDEO_JOBS_QUEUE } from "../../workers/queues/video-jobs.ts";
import { eventually, sandbox, testEnv } from "./support.ts";

const db = database(testEnv.DB);

async function createJob(id: string) {
  await db.insert(videoJobs).values({ id, userId: "user-1", status: "queued", payload: { template: "t1" }, updatedAt: Date.now() });
}

async function job(id: string) {
  return db.query.videoJobs.findFirst({ where: eq(videoJobs.id, id) });
}

beforeEach(async () => {
  await sandbox("/reset?service=video", { method: "POST" }); // only our stand-ins: other files run alongside
});

describe("video-jobs queue consumer", () => {
  it("hands a job to the video service and acknowledges the message", async () => {
    await createJob("job-ok");
    const batch = createMessageBatch(VIDEO_JOBS_QUEUE, [{ id: "m1", timestamp: new Date(), attempts: 1, body: { jobId: "job-ok" } }]);
    const ctx = createExecutionContext();
    await worker.queue(batch, testEnv);
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks).toEqual(["m1"]);
    expect(result.retryMessages).toEqual([]);
    expect(await job("job-ok")).toMatchObject({ status: "dispatched", lastError: null });
    // The video service received it (the sandbox forwards /video and records the call).
    const calls = await sandbox<{ method: string; path: string; body: { jobId: string } }[]>("/requests?service=video");
    expect(calls).toEqual([expect.objectContaining({ method: "POST", path: "/jobs", body: expect.objectContaining({ jobId: "job-ok" }) })]);
  });

  it("retries with backoff when the video service fails, keeping the reason", async () => {
    await createJob("job-retry");
    await sandbox("/faults", { method: "POST", json: { service: "video", method: "POST", path: "/jobs", status: 503, times: 1 } });
    const batch = createMessageBatch(VIDEO_JOBS_QUEUE, [{ id: "m2", timestamp: new Date(), attempts: 2, body: { jobId: "job-retry" } }]);
    const retry = vi.spyOn(batch.messages[0], "retry");
    const ctx = createExecutionContext();
    await worker.queue(batch, testEnv);
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks).toEqual([]);
    expect(result.retryMessages).toEqual([{ msgId: "m2" }]);
    // Second attempt: retried after 2 s (1, 2, 4 ... capped at 60).
    expect(retry).toHaveBeenCalledWith({ delaySeconds: 2 });
    expect(await job("job-retry")).toMatchObject({ status: "queued", attempts: 2, lastError: expect.stringContaining("503") });
  });

  it("drops a malformed message instead of retrying it forever", async () => {
    const batch = createMessageBatch(VIDEO_JOBS_QUEUE, [{ id: "m3", timestamp: new Date(), attempts: 1, body: { nope: true } }]);
    const ctx = createExecutionContext();
    await worker.queue(batch, testEnv);
    expect((await getQueueResult(batch, ctx)).explicitAcks).toEqual(["m3"]);
  });

  it("marks a job failed when its message reaches the dead-letter queue", async () => {
    await createJob("job-dead");
    await db.update(videoJobs).set({ lastError: "video answered 503" }).where(eq(videoJobs.id, "job-dead"));
    const batch = createMessageBatch(VIDEO_JOBS_DEAD_LETTER_QUEUE, [{ id: "m4", timestamp: new Date(), attempts: 1, body: { jobId: "job-dead" } }]);
    const ctx = createExecutionContext();
    await worker.queue(batch, testEnv);
    expect((await getQueueResult(batch, ctx)).explicitAcks).toEqual(["m4"]);
    expect(await job("job-dead")).toMatchObject({ status: "failed", lastError: "Gave up after repeated failures: video answered 503" });
  });

  it("through the real queue: a job that keeps failing ends in the dead-letter queue and is marked failed", async () => {
    await sandbox("/faults", { method: "POST", json: { service: "video", method: "POST", path: "/jobs", status: 503, times: 100 } });
    await enqueueVideoJob(testEnv, { id: "job-through-queue", userId: "user-1", payload: { template: "t2" } });
    const failed = await eventually(async () => {
      const row = await job("job-through-queue");
      return row?.status === "failed" ? row : undefined;
    }, 45_000, "the job to be dead-lettered");
    expect(failed.lastError).toMatch(/^Gave up after repeated failures: video answered 503/);
    // One first delivery plus max_retries (3) retries reached the video service.
    const calls = await sandbox<unknown[]>("/requests?service=video");
    expect(calls).toHaveLength(4);
  }, 60_000);

  it("through the real queue: a job is consumed and dispatched", async () => {
    await enqueueVideoJob(testEnv, { id: "job-through-queue-ok", userId: "user-1", payload: { template: "t3" } });
    await eventually(async () => ((await job("job-through-queue-ok"))?.status === "dispatched" ? true : undefined), 20_000, "dispatch");
  });
});
