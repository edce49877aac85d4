import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { VIDEO_FAILED_MESSAGE } from "../../../contracts/content/video.ts";
import worker from "../../../workers/app.ts";
import { database } from "../../../workers/db/client.ts";
import { videoJobs } from "../../../workers/db/schema.ts";
import { ledgerOf } from "../../../workers/ledger/client.ts";
import { mediaKeyOf } from "../../../workers/media/store.ts";
import { VIDEO_JOBS_DEAD_LETTER_QUEUE, VIDEO_JOBS_QUEUE } from "../../../workers/queues/video-jobs.ts";
import { consumeCredits, creditsSummary } from "../../../workers/services/billing/credits.ts";
import type { VideoJobPayload } from "../../../workers/services/content/video-pins.ts";
import { bearer, json, signUpUser, type TestUser } from "../accounts/accounts-support.ts";
import { app, eventually, read, sandbox, testEnv } from "../support.ts";

const db = database(testEnv.DB);
const photo = `${testEnv.SANDBOX_URL}/blog-demo/images/amalfi-coast-itinerary-1.jpg`;

const videoPost = (fields: Record<string, unknown> = {}) => ({
  id: "post-1",
  templateType: "std-video-panel-02",
  title: "Seven days on the Amalfi coast",
  // As the generator names each pin (spec section 5): the video keeps the name and number, with .mp4.
  fileName: "Seven-days-on-the-Amalfi-coast-357704.jpeg",
  URLText: "linenandlark.com",
  url: "https://linenandlark.com/amalfi",
  allImages: [photo],
  ...fields,
});

function create(user: TestUser, body: unknown, headers: Record<string, string> = {}) {
  return app("/videoApi/video/createFFMPEGVideo", json(body, bearer(user.tokens, headers)));
}

function jobState(user: TestUser, jobId: string) {
  return app(`/videoApi/video/getVideoJob/${jobId}`, { headers: bearer(user.tokens) });
}

async function remaining(user: TestUser) {
  return (await creditsSummary(testEnv, user.userId)).remaining;
}

async function row(id: string) {
  return db.query.videoJobs.findFirst({ where: eq(videoJobs.id, id) });
}

/** A job row whose inputs are in R2, charged to `user` like createFFMPEGVideo charges; not on the queue. */
async function directJob(user: TestUser, id: string, inputs: { base: string; overlay: string; source: string }) {
  const prefix = `users/${user.userId}/video-jobs/${id}/`;
  const payload: VideoJobPayload = {
    box: { x: 0, y: 0, width: 1000, height: 900 },
    inputs: { base: `${prefix}base.jpg`, overlay: `${prefix}overlay.png`, source: `${prefix}source` },
    sourceKind: "image",
    videoKey: `users/${user.userId}/videos/${id.slice(0, 8)}/v.mp4`,
    thumbnailKey: `users/${user.userId}/videos/${id.slice(0, 8)}/v.jpg`,
    videoFileName: "v.mp4",
    chargeReference: `video-test:${id}`,
  };
  await testEnv.MEDIA.put(payload.inputs.base, inputs.base);
  await testEnv.MEDIA.put(payload.inputs.overlay, inputs.overlay);
  await testEnv.MEDIA.put(payload.inputs.source, inputs.source);
  await consumeCredits(testEnv, user.userId, { category: "video", amount: 5, reason: "Video pin", reference: payload.chargeReference });
  await db.insert(videoJobs).values({ id, userId: user.userId, status: "queued", payload, updatedAt: Date.now() });
  return payload;
}

async function deliver(queue: string, id: string, jobId: string, attempts = 1) {
  const batch = createMessageBatch(queue, [{ id, timestamp: new Date(), attempts, body: { jobId } }]);
  const retry = vi.spyOn(batch.messages[0], "retry");
  const ctx = createExecutionContext();
  await worker.queue(batch, testEnv);
  return { result: await getQueueResult(batch, ctx), retry };
}

beforeEach(async () => {
  await sandbox("/reset?service=video", { method: "POST" }); // only our stand-ins: other files run alongside
});

describe("POST /videoApi/video/createFFMPEGVideo through to a finished video", () => {
  it("answers 202 with the URLs, charges 5 credits once, and the queue, the FFmpeg service and R2 make the video", async () => {
    const user = await signUpUser();
    expect(await remaining(user)).toBe(10);
    const response = await create(user, { post: videoPost(), reference: "video-create-0001" });
    expect(response.status).toBe(202);
    const created = await read(response);
    expect(created).toEqual({
      jobId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      status: "queued",
      videoURL: expect.stringMatching(/^http:\/\/app\.test\/media\/users\/.+\/videos\/.+\/Seven-days-on-the-Amalfi-coast-357704\.mp4$/),
      videoFileName: "Seven-days-on-the-Amalfi-coast-357704.mp4",
      videoThumbnail: expect.stringMatching(/^http:\/\/app\.test\/media\/users\/.+\.jpg$/),
    });
    expect(await remaining(user)).toBe(5);
    // A replay of the same request answers the same job and charges nothing more.
    const replay = await read(await create(user, { post: videoPost(), reference: "video-create-0001" }));
    expect(replay.jobId).toBe(created.jobId);
    expect(await remaining(user)).toBe(5);

    const seen = new Set<string>();
    const done = await eventually(
      async () => {
        const state = await read(await jobState(user, created.jobId));
        seen.add(state.status);
        return state.status === "done" || state.status === "failed" ? state : undefined;
      },
      90_000,
      "the video to be made",
    );
    expect(done).toEqual({ ...created, status: "done", progress: 1, durationSeconds: 10 });
    expect([...seen].every((status) => ["queued", "rendering", "done"].includes(status))).toBe(true);

    // The MP4 and its thumbnail are served from R2 at the promised URLs.
    const video = await app(new URL(created.videoURL).pathname);
    expect(video.status).toBe(200);
    expect(video.headers.get("content-type")).toBe("video/mp4");
    const bytes = new Uint8Array(await video.arrayBuffer());
    expect(new TextDecoder().decode(bytes.subarray(4, 8))).toBe("ftyp");
    const head = new TextDecoder("latin1").decode(bytes.subarray(0, Math.min(bytes.length, 64 * 1024)));
    expect(head).toContain("avc1"); // H.264
    expect(head).toContain("mp4a"); // AAC
    expect(bytes.length).toBeLessThan(8 * 1024 * 1024);
    const thumbnail = new Uint8Array(await (await app(new URL(created.videoThumbnail).pathname)).arrayBuffer());
    expect([thumbnail[0], thumbnail[1], thumbnail.at(-2), thumbnail.at(-1)]).toEqual([0xff, 0xd8, 0xff, 0xd9]);

    // The inputs are gone from R2; the service was told to delete its copy.
    expect((await testEnv.MEDIA.list({ prefix: `users/${user.userId}/video-jobs/` })).objects).toEqual([]);
    const calls = await sandbox<{ method: string; path: string }[]>("/requests?service=video");
    expect(calls.filter((c) => c.path === `/jobs/${created.jobId}` && c.method === "DELETE")).toHaveLength(1);
    expect(calls.filter((c) => c.method === "POST" && c.path === "/jobs")).toHaveLength(1);
    expect(await remaining(user)).toBe(5);

    // That MP4, uploaded to the media library, is a clip for the next video: trimmed and fitted into the box.
    const form = new FormData();
    form.set("file", new File([bytes], "holiday.mp4", { type: "video/mp4" }));
    form.set("mediaType", "video");
    const upload = await app("/api/user/media/uploadMedia", { method: "POST", headers: bearer(user.tokens), body: form });
    expect(upload.status).toBe(201);
    const { media } = await read(upload);
    const fromClip = await read(await create(user, { post: videoPost({ video: media.url, templateType: "std-video-phone-03" }) }));
    expect(fromClip.status).toBe("queued");
    expect(await remaining(user)).toBe(0);
    const clipDone = await eventually(
      async () => {
        const state = await read(await jobState(user, fromClip.jobId));
        return state.status === "done" || state.status === "failed" ? state : undefined;
      },
      90_000,
      "the video from the clip",
    );
    expect(clipDone).toMatchObject({ status: "done", durationSeconds: 10 });
    const clipVideo = new Uint8Array(await (await app(new URL(fromClip.videoURL).pathname)).arrayBuffer());
    expect(new TextDecoder("latin1").decode(clipVideo.subarray(0, 64 * 1024))).toContain("mp4a");
    // The library clip stays the user's; only the job's own inputs were deleted.
    expect(await testEnv.MEDIA.head(mediaKeyOf("http://app.test", media.url)!)).not.toBeNull();
    expect((await testEnv.MEDIA.list({ prefix: `users/${user.userId}/video-jobs/` })).objects).toEqual([]);
  }, 180_000);

  it("through the real queue: a job the service keeps refusing is retried, dead-lettered, failed, and its credits come back", async () => {
    const user = await signUpUser();
    await sandbox("/faults", { method: "POST", json: { service: "video", method: "POST", path: "/jobs", status: 503, times: 100 } });
    const created = await read(await create(user, { post: videoPost() }));
    expect(await remaining(user)).toBe(5);
    const failed = await eventually(
      async () => {
        const state = await read(await jobState(user, created.jobId));
        return state.status === "failed" ? state : undefined;
      },
      60_000,
      "the job to be dead-lettered",
    );
    expect(failed).toEqual({ ...created, status: "failed", progress: 0, message: VIDEO_FAILED_MESSAGE });
    expect((await row(created.jobId))?.lastError).toMatch(/^Gave up after repeated failures: video answered 503/);
    // One first delivery plus max_retries (3) retries reached the video service.
    const posts = (await sandbox<{ method: string; path: string }[]>("/requests?service=video")).filter((c) => c.method === "POST" && c.path === "/jobs");
    expect(posts).toHaveLength(4);
    expect(await remaining(user)).toBe(10);
    const ledger = await ledgerOf(testEnv, user.userId)
      .prepare("SELECT amount, reference FROM credit_ledger WHERE user_id = ?1 AND category = 'video' ORDER BY amount")
      .bind(user.userId)
      .all();
    expect(ledger.results).toEqual([
      { amount: -5, reference: expect.stringMatching(/^createFFMPEGVideo:/) },
      { amount: 5, reference: expect.stringMatching(/^reversal:createFFMPEGVideo:/) },
    ]);
    expect((await testEnv.MEDIA.list({ prefix: `users/${user.userId}/video-jobs/` })).objects).toEqual([]);
  }, 90_000);
});

describe("video-jobs consumer, delivery by delivery", () => {
  it("retries with backoff when the video service fails, keeping the reason", async () => {
    const user = await signUpUser();
    await directJob(user, "job-retry-0001", { base: "b", overlay: "o", source: "s" });
    await sandbox("/faults", { method: "POST", json: { service: "video", method: "POST", path: "/jobs", status: 503, times: 1 } });
    const { result, retry } = await deliver(VIDEO_JOBS_QUEUE, "m2", "job-retry-0001", 2);
    expect(result.explicitAcks).toEqual([]);
    expect(result.retryMessages).toEqual([{ msgId: "m2" }]);
    // Second attempt: retried after 2 s (1, 2, 4 ... capped at 60).
    expect(retry).toHaveBeenCalledWith({ delaySeconds: 2 });
    expect(await row("job-retry-0001")).toMatchObject({ status: "rendering", attempts: 2, lastError: expect.stringContaining("503") });
    expect(await remaining(user)).toBe(5);
  });

  it("fails at once, credits returned, when the service refuses the inputs (not pictures)", async () => {
    const user = await signUpUser();
    await directJob(user, "job-refused-0001", { base: "not a picture", overlay: "not a picture", source: "not a picture" });
    const { result, retry } = await deliver(VIDEO_JOBS_QUEUE, "m5", "job-refused-0001");
    expect(result.explicitAcks).toEqual(["m5"]);
    expect(retry).not.toHaveBeenCalled();
    expect(await row("job-refused-0001")).toMatchObject({ status: "failed", lastError: expect.stringContaining("video answered 400") });
    expect(await remaining(user)).toBe(10);
    expect(await read(await jobState(user, "job-refused-0001"))).toMatchObject({ status: "failed", message: VIDEO_FAILED_MESSAGE });
  });

  it("the dead-letter consumer marks the job failed and returns its credits once", async () => {
    const user = await signUpUser();
    await directJob(user, "job-dead-0001", { base: "b", overlay: "o", source: "s" });
    await db.update(videoJobs).set({ status: "rendering", lastError: "video answered 503" }).where(eq(videoJobs.id, "job-dead-0001"));
    expect(await remaining(user)).toBe(5);
    for (const id of ["m4", "m4-again"]) {
      const { result } = await deliver(VIDEO_JOBS_DEAD_LETTER_QUEUE, id, "job-dead-0001");
      expect(result.explicitAcks).toEqual([id]);
    }
    expect(await row("job-dead-0001")).toMatchObject({ status: "failed", lastError: "Gave up after repeated failures: video answered 503" });
    expect(await remaining(user)).toBe(10);
    expect((await creditsSummary(testEnv, user.userId)).usedPinCredits).toBe(0);
    // A message for a job already failed (a late redelivery) changes nothing.
    expect((await deliver(VIDEO_JOBS_QUEUE, "m6", "job-dead-0001")).result.explicitAcks).toEqual(["m6"]);
  });

  it("drops a malformed message instead of retrying it forever", async () => {
    const { result } = await deliver(VIDEO_JOBS_QUEUE, "m3", "");
    expect(result.explicitAcks).toEqual(["m3"]);
  });
});

describe("video API: who may see a job, and bad requests", () => {
  it("getVideoJob answers only the caller's own jobs", async () => {
    const owner = await signUpUser();
    const other = await signUpUser();
    await directJob(owner, "job-owned-0001", { base: "b", overlay: "o", source: "s" });
    expect((await jobState(owner, "job-owned-0001")).status).toBe(200);
    const foreign = await jobState(other, "job-owned-0001");
    expect(foreign.status).toBe(404);
    expect(await read(foreign)).toMatchObject({ error: "Video job not found" });
    expect((await jobState(owner, "00000000-0000-4000-8000-000000000000")).status).toBe(404);
    expect((await app("/videoApi/video/getVideoJob/job-owned-0001")).status).toBe(401);
    const bad = await jobState(owner, "bad!id");
    expect(bad.status).toBe(400);
    expect(await read(bad)).toMatchObject({ field: "jobId" });
  });

  it("refuses with 400 naming the field, and charges nothing", async () => {
    const user = await signUpUser();
    const cases: [unknown, string][] = [
      [{}, "post"],
      [{ post: { ...videoPost(), id: undefined } }, "post.id"],
      [{ post: videoPost({ templateType: "" }) }, "post.templateType"],
      [{ post: videoPost({ templateType: "std-before-after-stacked-01" }) }, "post.templateType"],
      [{ post: videoPost({ templateType: "no-such-template" }) }, "post.templateType"],
      [{ post: videoPost({ template: { title: "Plain", background: "#ffffff", layers: [] } }) }, "post.templateType"],
      [{ post: videoPost({ video: "https://elsewhere.example/clip.mp4" }) }, "post.video"],
      [{ post: videoPost({ video: `http://app.test/media/users/someone-else/library/clip.mp4` }) }, "post.video"],
      [{ post: videoPost({ allImages: [] }) }, "post.video"],
    ];
    for (const [body, field] of cases) {
      const response = await create(user, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((await read(response)).field, JSON.stringify(body)).toBe(field);
    }
    expect(await remaining(user)).toBe(10);
  });

  it("answers 402 with the out-of-credits message when 5 credits are not left", async () => {
    const user = await signUpUser();
    await consumeCredits(testEnv, user.userId, { category: "image", amount: 6, reason: "test", reference: "spend-6-credits" });
    const response = await create(user, { post: videoPost() });
    expect(response.status).toBe(402);
    expect(await read(response)).toMatchObject({ upgradeUrl: expect.any(String) });
    expect(await remaining(user)).toBe(4);
    expect(await db.query.videoJobs.findFirst({ where: eq(videoJobs.userId, user.userId) })).toBeUndefined();
  });

  it("draws with the caller's own template or a standard one, never another user's", async () => {
    const owner = await signUpUser();
    const layers = [{ type: "Video", id: "video", name: "Video", x: 0, y: 0, width: 1000, height: 1500 }];
    const added = await app(
      "/api/templates/addNewTemplate",
      json({ template: { title: "My video", background: "#000000", layers, categories: [] } }, bearer(owner.tokens)),
    );
    expect(added.status).toBe(201);
    const { templateId } = (await read(added)).template;
    const other = await signUpUser();
    const refused = await create(other, { post: videoPost({ templateType: templateId }) });
    expect(refused.status).toBe(400);
    expect(await read(refused)).toMatchObject({ field: "post.templateType" });
    expect(await remaining(other)).toBe(10);
    expect((await create(owner, { post: videoPost({ templateType: templateId }) })).status).toBe(202);
    expect(await remaining(owner)).toBe(5);
  });

  it("takes a video from the caller's media library only", async () => {
    const owner = await signUpUser();
    const key = `users/${owner.userId}/media/clip.mp4`;
    await testEnv.MEDIA.put(key, "not really a video", { httpMetadata: { contentType: "video/mp4" } });
    const url = `http://app.test/media/${key}`;
    expect(mediaKeyOf("http://app.test", url)).toBe(key);
    const other = await signUpUser();
    expect((await read(await create(other, { post: videoPost({ video: url }) }))).field).toBe("post.video");
    expect(await remaining(other)).toBe(10);
  });
});
