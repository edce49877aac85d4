import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRequire } from "node:module";
import { probe, probeWithFfmpeg } from "../../../containers/video/ffmpeg.ts";
import { startVideoService } from "../../../containers/video/server.ts";
import { ffprobeJson, jobForm, makeVideoFixtures, type VideoFixtures } from "../../support/video-fixtures.ts";

type Service = Awaited<ReturnType<typeof startVideoService>>;

let fixtures: VideoFixtures;
let service: Service;
let tempRoot: string;
const others: Service[] = [];
const roots: string[] = [];

async function startService(overrides: Parameters<typeof startVideoService>[2] = {}) {
  const root = await mkdtemp(join(tmpdir(), "video-service-test-"));
  roots.push(root);
  const started = await startVideoService(0, "127.0.0.1", { tempRoot: root, ...overrides });
  others.push(started);
  return { service: started, root };
}

beforeAll(async () => {
  fixtures = await makeVideoFixtures();
  ({ service, root: tempRoot } = await startService());
}, 120_000);

afterAll(async () => {
  await Promise.all(others.map((s) => s.close()));
  await rm(fixtures.dir, { recursive: true, force: true });
  await Promise.all(roots.map((root) => rm(root, { recursive: true, force: true })));
});

const BOX = { x: 100, y: 260, width: 800, height: 1000 };

async function submit(target: Service, input: { jobId: string; source: string; spec?: unknown; overlay?: string; base?: string | null }) {
  const form = await jobForm({
    jobId: input.jobId,
    spec: input.spec ?? { box: BOX },
    overlay: input.overlay ?? fixtures.overlay,
    base: input.base === undefined ? fixtures.base : input.base,
    source: input.source,
  });
  return fetch(`${target.url}/jobs`, { method: "POST", body: form });
}

async function jobState(target: Service, jobId: string) {
  return (await (await fetch(`${target.url}/jobs/${jobId}`)).json()) as { status: string; progress: number; durationSeconds: number; error?: string };
}

/** Polls until the job is in one of `states` (each poll waits for ffmpeg's next progress report). */
async function until(target: Service, jobId: string, states: string[]) {
  for (;;) {
    const job = await jobState(target, jobId);
    if (states.includes(job.status)) return job;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function download(target: Service, jobId: string, what: "video" | "thumbnail") {
  const response = await fetch(`${target.url}/jobs/${jobId}/${what}`);
  expect(response.status).toBe(200);
  const bytes = new Uint8Array(await response.arrayBuffer());
  const file = join(fixtures.dir, `${jobId}-${what}`);
  await writeFile(file, bytes);
  return { bytes, file, type: response.headers.get("content-type") };
}

describe("video service", () => {
  it("reports the ffmpeg it will use and its limits in its health check", async () => {
    const response = await fetch(`${service.url}/health`);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.status).toBe("ok");
    expect(body.ffmpeg.version).toMatch(/^ffmpeg version \S+/);
    expect(body.ffmpeg.path).toBeTruthy();
    expect(body.limits).toMatchObject({ concurrency: expect.any(Number), timeoutMs: expect.any(Number), maxClipSeconds: 300 });
  });

  it("refuses an upload that is not a video or an image, whatever its name says", async () => {
    const response = await submit(service, { jobId: "not-video", source: fixtures.notVideo });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "source is not a video or an image", field: "source" });
    expect((await fetch(`${service.url}/jobs/not-video`)).status).toBe(404);
    expect(await readdir(tempRoot)).toEqual([]);
  });

  it("refuses a clip longer than five minutes", async () => {
    const response = await submit(service, { jobId: "too-long", source: fixtures.longClip });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "source is too long: 310 s, at most 300 s", field: "source" });
    expect(await readdir(tempRoot)).toEqual([]);
  });

  it("refuses an overlay that is not a 1000x1500 picture, a missing spec box and a bad job id", async () => {
    const overlay = await submit(service, { jobId: "bad-overlay", source: fixtures.photo, overlay: fixtures.photo });
    expect(overlay.status).toBe(400);
    expect(await overlay.json()).toEqual({ error: "overlay must be 1000x1500, not 1600x1000", field: "overlay" });
    const spec = await submit(service, { jobId: "bad-spec", source: fixtures.photo, spec: { durationSeconds: 5 } });
    expect(await spec.json()).toMatchObject({ field: "spec.box" });
    const length = await submit(service, { jobId: "bad-length", source: fixtures.photo, spec: { box: BOX, durationSeconds: 90 } });
    expect(await length.json()).toEqual({ error: "spec.durationSeconds must be from 4 to 60", field: "spec.durationSeconds" });
    const id = await submit(service, { jobId: "../etc", source: fixtures.photo });
    expect(id.status).toBe(400);
    expect((await id.json()).field).toBe("jobId");
    const json = await fetch(`${service.url}/jobs`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(await json.json()).toEqual({ error: "Body must be multipart/form-data", field: "body" });
    expect(await readdir(tempRoot)).toEqual([]);
  });

  it("puts an uploaded clip under the overlay: H.264 + AAC MP4, 1000x1500, the clip's length, and a JPEG thumbnail", async () => {
    expect((await submit(service, { jobId: "clip-1", source: fixtures.clip })).status).toBe(202);
    // Submitting the same job again answers its state and does not start it twice.
    expect((await submit(service, { jobId: "clip-1", source: fixtures.clip })).status).toBe(200);
    const done = await until(service, "clip-1", ["done", "failed"]);
    expect(done).toMatchObject({ status: "done", progress: 1, durationSeconds: 12 });

    const video = await download(service, "clip-1", "video");
    expect(video.type).toBe("video/mp4");
    const probed = await ffprobeJson(video.file);
    const v = probed.streams.find((s) => s.codec_type === "video");
    const a = probed.streams.find((s) => s.codec_type === "audio");
    expect(v).toMatchObject({ codec_name: "h264", width: 1000, height: 1500, pix_fmt: "yuv420p" });
    expect(a).toMatchObject({ codec_name: "aac" });
    expect(Number(probed.format.duration)).toBeCloseTo(12, 0);
    // +faststart: the index (moov) comes before the media data (mdat).
    const head = Buffer.from(video.bytes.subarray(0, 64 * 1024)).toString("latin1");
    expect(head.indexOf("moov")).toBeGreaterThan(-1);
    expect(head.indexOf("moov")).toBeLessThan(head.indexOf("mdat") === -1 ? Infinity : head.indexOf("mdat"));

    const thumb = await download(service, "clip-1", "thumbnail");
    expect(thumb.type).toBe("image/jpeg");
    expect([...thumb.bytes.subarray(0, 2)]).toEqual([0xff, 0xd8]); // SOI
    expect([...thumb.bytes.subarray(-2)]).toEqual([0xff, 0xd9]); // EOI
    const thumbProbe = await ffprobeJson(thumb.file);
    expect(thumbProbe.streams[0]).toMatchObject({ codec_name: "mjpeg", width: 1000, height: 1500 });

    // Inputs are gone once the video is made; deleting the job deletes the rest.
    expect((await readdir(join(tempRoot, "clip-1"))).sort()).toEqual(["thumbnail.jpg", "video.mp4"]);
    expect((await fetch(`${service.url}/jobs/clip-1`, { method: "DELETE" })).status).toBe(200);
    expect(await readdir(tempRoot)).toEqual([]);
    expect((await fetch(`${service.url}/jobs/clip-1/video`)).status).toBe(404);
  }, 120_000);

  it("pans over a photo for the length asked, with a silent sound track, and loops a short silent clip up to 4 s", async () => {
    expect(
      (
        await submit(service, {
          jobId: "photo-1",
          source: fixtures.photo,
          spec: { box: { x: 0, y: 0, width: 1000, height: 1500 }, durationSeconds: 5 },
          base: null,
        })
      ).status,
    ).toBe(202);
    expect((await submit(service, { jobId: "short-1", source: fixtures.silentClip })).status).toBe(202);
    for (const [jobId, seconds] of [
      ["photo-1", 5],
      ["short-1", 4],
    ] as const) {
      expect(await until(service, jobId, ["done", "failed"])).toMatchObject({ status: "done", durationSeconds: seconds });
      const probed = await ffprobeJson((await download(service, jobId, "video")).file);
      expect(probed.streams.map((s) => s.codec_name).sort()).toEqual(["aac", "h264"]);
      expect(Number(probed.format.duration)).toBeCloseTo(seconds, 0);
      await fetch(`${service.url}/jobs/${jobId}`, { method: "DELETE" });
    }
    expect(await readdir(tempRoot)).toEqual([]);
  }, 120_000);

  it("runs at most `concurrency` jobs at once; the others wait their turn", async () => {
    const { service: one, root } = await startService({ concurrency: 1 });
    const spec = { box: BOX, durationSeconds: 4 };
    expect((await submit(one, { jobId: "first", source: fixtures.photo, spec })).status).toBe(202);
    expect((await submit(one, { jobId: "second", source: fixtures.photo, spec })).status).toBe(202);
    expect(await jobState(one, "first")).toMatchObject({ status: "rendering" });
    expect(await jobState(one, "second")).toMatchObject({ status: "queued", progress: 0 });
    await until(one, "first", ["done"]);
    expect(await until(one, "second", ["done"])).toMatchObject({ status: "done" });
    for (const id of ["first", "second"]) await fetch(`${one.url}/jobs/${id}`, { method: "DELETE" });
    expect(await readdir(root)).toEqual([]);
  }, 120_000);

  it("stops a job that runs past its timeout, fails it and deletes its files", async () => {
    const { service: hasty, root } = await startService({ timeoutMs: 1000 });
    expect((await submit(hasty, { jobId: "slow", source: fixtures.clip, spec: { box: BOX, durationSeconds: 60 } })).status).toBe(202);
    const failed = await until(hasty, "slow", ["done", "failed"]);
    expect(failed).toMatchObject({ status: "failed", error: "The video took longer than 1 s and was stopped" });
    expect(await readdir(root)).toEqual([]);
    expect((await fetch(`${hasty.url}/jobs/slow/video`)).status).toBe(409);
  }, 60_000);

  it("judges files the same way with ffprobe and, where there is none (the npm build of ffmpeg), from ffmpeg's own report", async () => {
    const installer = (createRequire(import.meta.url)("@ffmpeg-installer/ffmpeg") as { path: string }).path;
    const expectations: [string, object | null][] = [
      [fixtures.clip, { kind: "video", width: 1280, height: 720, hasAudio: true, videoCodec: "h264" }],
      [fixtures.silentClip, { kind: "video", width: 640, height: 360, hasAudio: false }],
      [fixtures.photo, { kind: "image", width: 1600, height: 1000 }],
      [fixtures.overlay, { kind: "image", width: 1000, height: 1500 }],
      [fixtures.notVideo, null],
    ];
    const previous = process.env.FFMPEG_PATH;
    try {
      for (const [file, expected] of expectations) {
        const byFfprobe = await probe(file);
        process.env.FFMPEG_PATH = installer;
        const byReport = await probeWithFfmpeg(file);
        if (previous === undefined) delete process.env.FFMPEG_PATH;
        else process.env.FFMPEG_PATH = previous;
        for (const found of [byFfprobe, byReport]) {
          if (expected === null) expect(found, file).toBeNull();
          else expect(found, file).toMatchObject(expected);
        }
        if (byFfprobe?.kind === "video") expect(byReport!.durationSeconds).toBeCloseTo(byFfprobe.durationSeconds, 1);
      }
    } finally {
      if (previous === undefined) delete process.env.FFMPEG_PATH;
      else process.env.FFMPEG_PATH = previous;
    }
  });
});
