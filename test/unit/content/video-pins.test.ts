import { describe, expect, it } from "vitest";
import type { Post } from "../../../contracts/content/post.ts";
import type { ScheduleResponse } from "../../../contracts/pinterest/scheduling-api.ts";
import { ApiError } from "../../../app/lib/api-client.ts";
import type { ScheduleTarget } from "../../../app/lib/pinterest/bulk-schedule.ts";
import type { NewPinBody } from "../../../app/lib/pinterest/scheduling-api.ts";
import {
  followVideoJob,
  scheduleVideoPins,
  VIDEO_PIN_FAILED_MESSAGE,
  VIDEO_SCHEDULE_WAIT_MS,
  VideoPinFailed,
  videoPercent,
  type ReadyVideo,
  type VideoJob,
} from "../../../app/lib/video/video-pins.ts";

const post = (id: string): Post => ({ id, title: `Linen ${id}`, description: "Folded", altText: "Napkins", url: "https://linen.example/napkins" }) as Post;
const ready = (id: string): ReadyVideo => ({
  id,
  post: post(id),
  videoURL: `http://app.test/media/users/u/videos/${id}.mp4`,
  videoThumbnail: `http://app.test/media/users/u/videos/${id}.jpg`,
});
const target: ScheduleTarget = {
  pinterestProfileUsername: "linen_shop",
  boardId: "1234567890",
  boardName: "Table",
  sectionId: null,
  when: { type: "SpecificDate", at: Date.UTC(2026, 11, 1, 18) },
  allowDuplicate: false,
  timeZone: "Europe/London",
};
const job = (status: VideoJob["status"], progress = 0): VideoJob => ({
  jobId: "j1",
  status,
  progress,
  videoURL: "v",
  videoFileName: "v.mp4",
  videoThumbnail: "t",
});
const scheduled = (charged: number): ScheduleResponse =>
  ({ scheduledPins: [], repeatingPins: [], failedPins: [], creditsCharged: charged }) as unknown as ScheduleResponse;

describe("scheduling video pins", () => {
  it("uploads then schedules each video pin in a call of its own, waiting 100 ms before each call, and tells a failure on that pin alone", async () => {
    const events: string[] = [];
    const flags = new Map<string, unknown>();
    const bodies: NewPinBody[] = [];
    const result = await scheduleVideoPins([ready("a"), ready("b"), ready("c")], target, {
      upload: async (video) => {
        events.push(`upload ${video.id}`);
        if (video.id === "b") throw new ApiError(422, "Pinterest could not process this video. Please create the video again, or choose another one.");
        return `media-${video.id}`;
      },
      schedule: async (body) => {
        events.push(`schedule ${body.media_id}`);
        bodies.push(body);
        return scheduled(5);
      },
      setFlags: (id, value) => flags.set(id, value),
      sleep: async (ms) => void events.push(`wait ${ms}`),
    });
    expect(VIDEO_SCHEDULE_WAIT_MS).toBe(100);
    expect(events).toEqual(["upload a", "wait 100", "schedule media-a", "upload b", "upload c", "wait 100", "schedule media-c"]);
    expect(result).toMatchObject({
      total: 3,
      scheduled: 2,
      creditsCharged: 10,
      failed: [{ id: "b", error: "Pinterest could not process this video. Please create the video again, or choose another one." }],
    });
    expect(flags.get("a")).toEqual({ isScheduling: false, isScheduled: true, scheduleError: "" });
    expect(flags.get("b")).toMatchObject({ isScheduling: false, isScheduled: false });
    expect(bodies[0]).toMatchObject({
      mediaType: "video",
      media_id: "media-a",
      videoURL: ready("a").videoURL,
      videoThumbnail: ready("a").videoThumbnail,
      type: "SpecificDate",
      scheduledTime: target.when.type === "SpecificDate" ? target.when.at : null,
      title: "Linen a",
    });
    expect(bodies[0].reference).not.toBe(bodies[1].reference);
  });

  it("says in plain words when the server refuses a video pin on its own", async () => {
    const flags = new Map<string, { scheduleError?: string }>();
    const refused = { ...scheduled(0), failedPins: [{ index: 0, reason: "past", field: "scheduledTime", error: "x" }] } as unknown as ScheduleResponse;
    const result = await scheduleVideoPins([ready("a")], target, {
      upload: async () => "m",
      schedule: async () => refused,
      setFlags: (id, value) => flags.set(id, value),
      sleep: async () => {},
    });
    expect(result.scheduled).toBe(0);
    expect(flags.get("a")?.scheduleError).toMatch(/^Not scheduled: the chosen time, .* had passed/);
  });
});

describe("following a video job", () => {
  it("reports queued, rendering and done, and answers the finished job", async () => {
    const answers = [job("queued"), job("rendering", 0.5), job("done", 1)];
    const seen: string[] = [];
    const pauses: number[] = [];
    const done = await followVideoJob("j1", {
      read: async () => answers.shift()!,
      onStatus: (j) => seen.push(j.status),
      sleep: async (ms) => void pauses.push(ms),
      intervalMs: 1_000,
      maxIntervalMs: 2_000,
    });
    expect(done.status).toBe("done");
    expect(seen).toEqual(["queued", "rendering", "done"]);
    expect(pauses).toEqual([1_000, 1_500]);
  });

  it("fails with 'Unable to create video pin' when the job failed, and rides over a lost read", async () => {
    const answers: (VideoJob | Error)[] = [new TypeError("Failed to fetch"), job("rendering", 0.2), { ...job("failed"), message: VIDEO_PIN_FAILED_MESSAGE }];
    const failure = await followVideoJob("j1", {
      read: async () => {
        const next = answers.shift()!;
        if (next instanceof Error) throw next;
        return next;
      },
      onStatus: () => {},
      sleep: async () => {},
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(VideoPinFailed);
    expect((failure as Error).message).toBe(VIDEO_PIN_FAILED_MESSAGE);
  });

  it("shows the bar from queued to done", () => {
    expect([videoPercent(job("queued")), videoPercent(job("rendering", 0)), videoPercent(job("rendering", 0.5)), videoPercent(job("done", 1))]).toEqual([
      0, 5, 52, 100,
    ]);
  });
});
