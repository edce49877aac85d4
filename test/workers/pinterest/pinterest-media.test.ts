import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  THUMBNAIL_NOT_YOURS_MESSAGE,
  VIDEO_NOT_YOURS_MESSAGE,
  VIDEO_PROCESSING_FAILED_MESSAGE,
  VIDEO_PROCESSING_SLOW_MESSAGE,
} from "../../../contracts/pinterest/pinterest-media.ts";
import { database } from "../../../workers/db/client.ts";
import { users, videoJobs } from "../../../workers/db/schema.ts";
import { mediaKeyOf, mediaUrl, putMedia, userMediaPrefix } from "../../../workers/media/store.ts";
import { ServiceError } from "../../../workers/services/core/errors.ts";
import { uploadVideoToPinterest } from "../../../workers/services/pinterest/pinterest-media.ts";
import tinyMp4Url from "../../fixtures/video/tiny.mp4?inline";
import tinyThumbnailUrl from "../../fixtures/video/tiny-thumbnail.jpg?inline";
import { signUpUser, type TestUser } from "../accounts/accounts-support.ts";
import {
  connectProfile,
  grantCredits,
  imagePin,
  pinterestName,
  post,
  remainingCredits,
  runAlarm,
  sandboxPins,
  type ConnectedProfile,
} from "./scheduling-support.ts";
import { eventually, read, sandbox, testEnv } from "../support.ts";

/**
 * POST /videoApi/pinterestAPI/uploadVideoToPinterest against the Pinterest
 * stand-in: register, upload to the upload URL with its form fields, then
 * read the status through registered and processing until succeeded (or
 * failed, or too slow), and only for the caller's own media.
 */

const fromDataUrl = (url: string) => Uint8Array.from(atob(url.slice(url.indexOf(",") + 1)), (c) => c.charCodeAt(0));
const MP4 = fromDataUrl(tinyMp4Url);
const JPEG = fromDataUrl(tinyThumbnailUrl);

interface Setup {
  user: TestUser;
  profile: ConnectedProfile;
  accessToken: string;
  videoURL: string;
  videoThumbnail: string;
}

/** A user with a connected profile, its access handle, and a video with its thumbnail put straight into R2 under the user's media. */
async function setUp(name: string): Promise<Setup> {
  const user = await signUpUser({ firstName: "Ines" });
  const profile = await connectProfile(user, pinterestName(name));
  const handles = await read(await post(user, "/api/pinterestAPI/activatePinterestProfile", { username: profile.username }));
  const folder = `${userMediaPrefix(user.userId)}videos/${crypto.randomUUID().slice(0, 8)}/`;
  await putMedia(testEnv, `${folder}linen-napkins.mp4`, MP4, "video/mp4");
  await putMedia(testEnv, `${folder}linen-napkins.jpg`, JPEG, "image/jpeg");
  return {
    user,
    profile,
    accessToken: handles.authToken,
    videoURL: mediaUrl(testEnv.APP_URL, `${folder}linen-napkins.mp4`),
    videoThumbnail: mediaUrl(testEnv.APP_URL, `${folder}linen-napkins.jpg`),
  };
}

const upload = (s: Setup, fields: Partial<{ videoURL: string; videoThumbnail: string; access_token: string }> = {}) =>
  post(s.user, "/videoApi/pinterestAPI/uploadVideoToPinterest", {
    videoURL: s.videoURL,
    videoThumbnail: s.videoThumbnail,
    access_token: s.accessToken,
    ...fields,
  });

interface SandboxRequest {
  method: string;
  path: string;
}

/** How many times the stand-in was asked for this media's status. */
async function mediaReads(mediaId: string): Promise<number> {
  const requests = await sandbox<SandboxRequest[]>("/requests?service=pinterest");
  return requests.filter((request) => request.method === "GET" && request.path.endsWith(`/media/${mediaId}`)).length;
}

async function sandboxMedia(username: string): Promise<{ media_id: string; status: string; uploaded_bytes: number | null }[]> {
  return sandbox(`/pinterest/media?username=${encodeURIComponent(username)}`);
}

describe("uploading a video to Pinterest", () => {
  it("registers, uploads the file with the form fields, waits through registered and processing, and answers the media id once succeeded", async () => {
    const s = await setUp("vid_ok");
    // Pinterest hears of the upload late (one read still "registered"), then processes for two reads.
    await sandbox("/pinterest/media-processing", { method: "POST", json: { username: s.profile.username, registeredReads: 1, processingReads: 2 } });
    const response = await upload(s);
    expect(response.status).toBe(200);
    const { media_id } = await read(response);
    expect(media_id).toMatch(/^\d+$/);
    const [media] = await sandboxMedia(s.profile.username);
    expect(media).toMatchObject({ media_id, status: "succeeded", uploaded_bytes: MP4.length });
    // registered, processing, processing, succeeded: four reads, and no more after success.
    expect(await mediaReads(media_id)).toBe(4);

    // The video pin goes out with that media id (spec section 7: /videoApi/scheduling/schedulePin), its thumbnail as cover.
    await grantCredits(s.user, 10);
    const scheduled = await post(
      s.user,
      "/videoApi/scheduling/schedulePin",
      imagePin(s.profile, {
        mediaType: "video",
        imageURL: "",
        videoURL: s.videoURL,
        videoThumbnail: s.videoThumbnail,
        media_id,
        type: "SpecificDate",
        scheduledTime: Date.now() + 1_000,
      }),
    );
    expect(scheduled.status).toBe(201);
    const pins = await eventually(
      async () => {
        await runAlarm(s.profile);
        const found = await sandboxPins(s.profile.username);
        return found.length > 0 ? found : undefined;
      },
      15_000,
      "the video pin to be posted",
    );
    expect(pins).toHaveLength(1);
    expect(pins[0].media).toMatchObject({ source_type: "video_id", media_id, cover_image_url: s.videoThumbnail });
  });

  it("charges a video made here once: its first pin was paid when it was made, a second pin of it costs 5", async () => {
    const s = await setUp("vid_paid");
    // The video was made by a finished job of this user, which charged its 5 credits then.
    await database(testEnv.DB)
      .insert(videoJobs)
      .values({
        id: crypto.randomUUID(),
        userId: s.user.userId,
        status: "done",
        progress: 1,
        payload: { videoKey: mediaKeyOf(testEnv.APP_URL, s.videoURL) },
        updatedAt: Date.now(),
      });
    const { media_id } = await read(await upload(s));
    const before = await remainingCredits(s.user);
    const videoPin = (reference: string) =>
      imagePin(s.profile, { mediaType: "video", imageURL: "", videoURL: s.videoURL, videoThumbnail: s.videoThumbnail, media_id, reference });

    const first = videoPin("video-first-pin");
    expect((await post(s.user, "/videoApi/scheduling/schedulePin", first)).status).toBe(201);
    expect(await remainingCredits(s.user)).toBe(before);
    // The same request again (a retry) is still that first pin.
    expect((await post(s.user, "/videoApi/scheduling/schedulePin", first)).status).toBe(201);
    expect(await remainingCredits(s.user)).toBe(before);
    // Another pin of the same video is a new video pin.
    expect((await post(s.user, "/videoApi/scheduling/schedulePin", videoPin("video-second-pin"))).status).toBe(201);
    expect(await remainingCredits(s.user)).toBe(before - 5);
    // The history says what each pin cost: the first was paid (5) when the video was made, not "0 credits" (issue 40 point 5).
    const { pinHistory } = await read(await post(s.user, "/api/user/getPinHistory", { startAtDate: null }));
    const videoEntries = pinHistory.filter((entry: { mediaType: string }) => entry.mediaType === "video");
    expect(videoEntries.map((entry: { credits: number }) => entry.credits)).toEqual([5, 5]);
    // A video that no job of ours made (another user's job does not count) is charged from its first pin.
    const other = await setUp("vid_other");
    await database(testEnv.DB)
      .insert(videoJobs)
      .values({
        id: crypto.randomUUID(),
        userId: s.user.userId,
        status: "done",
        progress: 1,
        payload: { videoKey: mediaKeyOf(testEnv.APP_URL, other.videoURL) },
        updatedAt: Date.now(),
      });
    await grantCredits(other.user, 10);
    const otherBefore = await remainingCredits(other.user);
    const { media_id: otherMedia } = await read(await upload(other));
    const scheduled = await post(
      other.user,
      "/videoApi/scheduling/schedulePin",
      imagePin(other.profile, { mediaType: "video", imageURL: "", videoURL: other.videoURL, videoThumbnail: other.videoThumbnail, media_id: otherMedia }),
    );
    expect(scheduled.status).toBe(201);
    expect(await remainingCredits(other.user)).toBe(otherBefore - 5);
  });

  it("says so in plain words when Pinterest fails to process the video", async () => {
    const s = await setUp("vid_failed");
    await sandbox("/pinterest/media-processing", { method: "POST", json: { username: s.profile.username, processingReads: 1, outcome: "failed" } });
    const response = await upload(s);
    expect(response.status).toBe(422);
    expect(await read(response)).toMatchObject({ error: VIDEO_PROCESSING_FAILED_MESSAGE });
    expect((await sandboxMedia(s.profile.username))[0].status).toBe("failed");
  });

  it("stops waiting after the bounded wait, with backoff between reads, when processing takes too long", async () => {
    const s = await setUp("vid_slow");
    await sandbox("/pinterest/media-processing", { method: "POST", json: { username: s.profile.username, processingReads: 100_000 } });
    const user = (await database(testEnv.DB).query.users.findFirst({ where: eq(users.id, s.user.userId) }))!;
    const pauses: number[] = [];
    const failure = await uploadVideoToPinterest(
      testEnv,
      user,
      { videoURL: s.videoURL, videoThumbnail: s.videoThumbnail, access_token: s.accessToken },
      { maxWaitMs: 3_000, firstDelayMs: 200, maxDelayMs: 1_000, sleep: async (ms) => void pauses.push(ms) },
    ).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ServiceError);
    expect(failure).toMatchObject({ status: 504, message: VIDEO_PROCESSING_SLOW_MESSAGE });
    // 200, 400, 800, then 1000 each: growing pauses, never past the bound.
    expect(pauses.slice(0, 4)).toEqual([200, 400, 800, 1_000]);
    expect(pauses.reduce((sum, ms) => sum + ms, 0)).toBe(3_000);
    const [media] = await sandboxMedia(s.profile.username);
    expect(media.status).toBe("processing");
    expect(await mediaReads(media.media_id)).toBe(pauses.length + 1);
  });

  it("uploads only the caller's own media, never fetching an address it is given", async () => {
    const s = await setUp("vid_mine");
    const other = await setUp("vid_theirs");
    const cases: [Record<string, string>, string, string][] = [
      [{ videoURL: other.videoURL }, "videoURL", VIDEO_NOT_YOURS_MESSAGE],
      [{ videoURL: "https://videos.example/linen.mp4" }, "videoURL", VIDEO_NOT_YOURS_MESSAGE],
      [{ videoURL: `${s.videoURL.replace(/[^/]+$/, "")}missing.mp4` }, "videoURL", VIDEO_NOT_YOURS_MESSAGE],
      // A picture is not a video.
      [{ videoURL: s.videoThumbnail }, "videoURL", VIDEO_NOT_YOURS_MESSAGE],
      [{ videoThumbnail: other.videoThumbnail }, "videoThumbnail", THUMBNAIL_NOT_YOURS_MESSAGE],
      [{ videoURL: "not an address" }, "videoURL", "videoURL must be a web address starting with http:// or https://"],
    ];
    for (const [fields, field, message] of cases) {
      const response = await upload(s, fields);
      expect(response.status, JSON.stringify(fields)).toBe(400);
      expect(await read(response)).toMatchObject({ field, error: message });
    }
    // Another user's handle names their profile: refused as an expired handle of this user.
    const theirs = await upload(s, { access_token: other.accessToken });
    expect(theirs.status).toBe(401);
    expect(await read(theirs)).toMatchObject({ field: "access_token" });
    // Nothing was registered with Pinterest for any of them.
    expect(await sandboxMedia(s.profile.username)).toEqual([]);
  });
});
