import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { eq } from "drizzle-orm";
import * as v from "valibot";
import { beforeEach, describe, expect, it } from "vitest";
import { Post } from "../../../contracts/content/post.ts";
import worker from "../../../workers/app.ts";
import { database } from "../../../workers/db/client.ts";
import { users, videoJobs } from "../../../workers/db/schema.ts";
import type { Env } from "../../../workers/env.ts";
import { VIDEO_CONTAINER_INSTANCES, videoInstanceName } from "../../../workers/domain/video-instances.ts";
import { getVideoServiceJob, type VideoServiceEnv } from "../../../workers/integrations/video.ts";
import { VIDEO_JOBS_QUEUE } from "../../../workers/queues/video-jobs.ts";
import { createVideoPin, type VideoJobPayload } from "../../../workers/services/content/video-pins.ts";
import { signUpUser } from "../accounts/accounts-support.ts";
import { sandbox, testEnv } from "../support.ts";

// Issue 42 point 1 (decision 095): in production the queue consumer reaches the FFmpeg service through the
// VIDEO_CONTAINER binding. The tests cannot start a container (no Docker), so VIDEO_CONTAINER_STAND_IN, a Durable
// Object that forwards to the local Node service as the Container class forwards to its container
// (video-container-stand-in.js), stands in for it. What this proves: the client takes the binding when no address is
// set, picks the instance from the job id, and every call about a job (upload, status, results, delete) reaches that
// one instance through a Durable Object stub. Not proved here: the image, and @cloudflare/containers' start-up and
// port forwarding.
const db = database(testEnv.DB);
const standIn = (testEnv as unknown as { VIDEO_CONTAINER_STAND_IN: DurableObjectNamespace }).VIDEO_CONTAINER_STAND_IN;
const containerEnv: Env = { ...testEnv, VIDEO_SERVICE_URL: "", VIDEO_CONTAINER: standIn as unknown as Env["VIDEO_CONTAINER"] };

/** What each container instance of the pool served, by instance name. */
async function servedBy(): Promise<Record<string, string[]>> {
  const names = Array.from({ length: VIDEO_CONTAINER_INSTANCES }, (_, i) => `video-${i}`);
  const logs = await Promise.all(names.map(async (name) => (await standIn.getByName(name).fetch("http://stand-in/__served")).json<string[]>()));
  return Object.fromEntries(names.map((name, i) => [name, logs[i] ?? []]));
}

/** The calls each instance served since `before`, for the instances that served any. */
async function servedSince(before: Record<string, string[]>): Promise<Record<string, string[]>> {
  const now = Object.entries(await servedBy()).map(([name, calls]) => [name, calls.slice(before[name]?.length ?? 0)] as const);
  return Object.fromEntries(now.filter(([, calls]) => calls.length > 0));
}

beforeEach(async () => {
  await sandbox("/reset?service=video", { method: "POST" });
});

describe("the video service as a container", () => {
  it("with no address set, the queue consumer makes the video through the container binding, every call on the job's instance", async () => {
    const user = await signUpUser();
    const account = (await db.query.users.findFirst({ where: eq(users.id, user.userId) }))!;
    // The job as createFFMPEGVideo makes it (inputs in R2, 5 credits charged), kept off the real queue: its consumer
    // runs with the tests' own configuration (the address), and this delivery is made below with the binding instead.
    const offQueue = { ...testEnv, VIDEO_JOBS: { send: async () => undefined } as unknown as Queue };
    const post = v.parse(Post, {
      id: "post-1",
      templateType: "std-video-panel-02",
      title: "Seven days on the Amalfi coast",
      allImages: [`${testEnv.SANDBOX_URL}/blog-demo/images/amalfi-coast-itinerary-1.jpg`],
    });
    const { jobId } = await createVideoPin(offQueue, account, post, `video-container-test:${crypto.randomUUID()}`);

    const before = await servedBy();
    const batch = createMessageBatch(VIDEO_JOBS_QUEUE, [{ id: "m-container-1", timestamp: new Date(), attempts: 1, body: { jobId } }]);
    const ctx = createExecutionContext();
    await worker.queue(batch, containerEnv);
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks).toEqual(["m-container-1"]);

    const job = await db.query.videoJobs.findFirst({ where: eq(videoJobs.id, jobId) });
    expect(job).toMatchObject({ status: "done", progress: 1, lastError: null });
    const video = await testEnv.MEDIA.get((job!.payload as VideoJobPayload).videoKey);
    expect(new TextDecoder().decode(new Uint8Array(await video!.arrayBuffer()).subarray(4, 8))).toBe("ftyp");

    // Every call about the job reached the one instance its id picks, and no other; the address was not used.
    const instance = videoInstanceName(jobId);
    const calls = await servedSince(before);
    expect(Object.keys(calls)).toEqual([instance]);
    expect(calls[instance]?.slice(0, 2)).toEqual([`GET /jobs/${jobId}`, "POST /jobs"]); // asked first: a redelivery picks the job up
    expect(calls[instance]?.slice(2, -3).every((call) => call === `GET /jobs/${jobId}`)).toBe(true); // followed to the end
    expect(calls[instance]?.slice(-3, -1).sort()).toEqual([`GET /jobs/${jobId}/thumbnail`, `GET /jobs/${jobId}/video`]);
    expect(calls[instance]?.at(-1)).toBe(`DELETE /jobs/${jobId}`);
    // (Jobs of other files may still be going through the address: only this job's calls count.)
    const throughAddress = await sandbox<{ path: string }[]>("/requests?service=video");
    expect(throughAddress.filter((call) => call.path.includes(jobId))).toEqual([]);
  }, 120_000);

  it("with an address set, the client uses the address, even where the binding is there", async () => {
    const jobId = `url-wins-${crypto.randomUUID()}`;
    const both: VideoServiceEnv = { VIDEO_SERVICE_URL: testEnv.VIDEO_SERVICE_URL, VIDEO_CONTAINER: containerEnv.VIDEO_CONTAINER };
    const before = await servedBy();
    expect(await getVideoServiceJob(both, jobId)).toBeNull();
    const calls = await sandbox<{ method: string; path: string }[]>("/requests?service=video");
    expect(calls).toContainEqual(expect.objectContaining({ method: "GET", path: `/jobs/${jobId}` }));
    expect(await servedSince(before)).toEqual({});
  });

  it("with neither, says what to configure", async () => {
    const none = { VIDEO_SERVICE_URL: "" } as VideoServiceEnv;
    await expect(getVideoServiceJob(none, "job-unconfigured")).rejects.toThrow(/set VIDEO_SERVICE_URL or bind VIDEO_CONTAINER/);
  });
});
