import { MEDIA_MAX_BYTES } from "../../../contracts/content/library.ts";
import type { PinterestMediaStatus, PinterestMediaUpload } from "../../../contracts/pinterest/pinterest.ts";
import {
  THUMBNAIL_NOT_YOURS_MESSAGE,
  VIDEO_NOT_YOURS_MESSAGE,
  VIDEO_PROCESSING_FAILED_MESSAGE,
  VIDEO_PROCESSING_SLOW_MESSAGE,
  VIDEO_UPLOAD_REFUSED_MESSAGE,
  type UploadVideoToPinterestBody,
} from "../../../contracts/pinterest/pinterest-media.ts";
import type { Env } from "../../env.ts";
import { PinterestApiError } from "../../integrations/pinterest.ts";
import { mediaKeyOf, userMediaPrefix } from "../../media/store.ts";
import type { User } from "../accounts/accounts.ts";
import { ServiceError } from "../core/errors.ts";
import { pinterestClient, profileOfHandle, withPinterest } from "./pinterest-connection.ts";

/**
 * Video pins reach Pinterest in three steps (Pinterest API v5, "creating video
 * pins"): register a media upload, POST the file to the upload URL Pinterest
 * names with the form fields it gives, then read the media's status until
 * Pinterest has processed it. Only the caller's own media leave the server:
 * the video is read from R2 by its key, never fetched from an address.
 */

export interface MediaWaitOptions {
  /** How long to wait for Pinterest's processing before giving up (default 90 s). */
  maxWaitMs?: number;
  /** The first pause between status reads; each next one doubles, up to maxDelayMs (default 500 ms). */
  firstDelayMs?: number;
  maxDelayMs?: number;
  /** Waits (tests may count the pauses). */
  sleep?: (ms: number) => Promise<void>;
}

const DEFAULT_MAX_WAIT_MS = 90_000;

/** One of the caller's media objects, by its address on this site; else a 400 naming `field`. */
async function ownMedia(env: Env, user: User, address: string, field: string, message: string, kind: "video/" | "image/") {
  const key = mediaKeyOf(env.APP_URL, address);
  if (!key?.startsWith(userMediaPrefix(user.id))) throw new ServiceError(400, message, field);
  const object = await env.MEDIA.head(key);
  if (!object || !(object.httpMetadata?.contentType ?? "").startsWith(kind)) throw new ServiceError(400, message, field);
  return { key, size: object.size };
}

/** Waits out Pinterest's processing: registered and processing are read again with a growing pause, within maxWaitMs. */
export async function waitForMedia(readStatus: () => Promise<PinterestMediaStatus | undefined>, options: MediaWaitOptions = {}): Promise<void> {
  const maxWaitMs = options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
  const maxDelayMs = options.maxDelayMs ?? 5_000;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  let delay = options.firstDelayMs ?? 500;
  let waited = 0;
  for (;;) {
    const status = await readStatus();
    if (status === "succeeded") return;
    if (status === "failed") throw new ServiceError(422, VIDEO_PROCESSING_FAILED_MESSAGE, "videoURL");
    if (waited >= maxWaitMs) throw new ServiceError(504, VIDEO_PROCESSING_SLOW_MESSAGE);
    const pause = Math.min(delay, maxWaitMs - waited);
    await sleep(pause);
    waited += pause;
    delay = Math.min(maxDelayMs, delay * 2);
  }
}

/**
 * POST /videoApi/pinterestAPI/uploadVideoToPinterest: uploads one of the
 * caller's videos to the Pinterest profile the access handle names, and
 * answers Pinterest's media id once Pinterest has processed it.
 */
export async function uploadVideoToPinterest(
  env: Env,
  user: User,
  input: UploadVideoToPinterestBody,
  options: MediaWaitOptions = {},
): Promise<{ media_id: string }> {
  const profile = await profileOfHandle(env, user, input.access_token);
  const video = await ownMedia(env, user, input.videoURL, "videoURL", VIDEO_NOT_YOURS_MESSAGE, "video/");
  await ownMedia(env, user, input.videoThumbnail, "videoThumbnail", THUMBNAIL_NOT_YOURS_MESSAGE, "image/");
  if (video.size > MEDIA_MAX_BYTES.video) throw new ServiceError(413, `The video is larger than ${MEDIA_MAX_BYTES.video / 1024 / 1024} MB.`, "videoURL");

  const upload: PinterestMediaUpload = await withPinterest(env, profile, (client, token) => client.registerMedia(token));
  const object = await env.MEDIA.get(video.key);
  if (!object) throw new ServiceError(400, VIDEO_NOT_YOURS_MESSAGE, "videoURL");
  const file = new Blob([await object.arrayBuffer()], { type: object.httpMetadata?.contentType ?? "video/mp4" });
  try {
    await pinterestClient(env).uploadMedia(upload, file, video.key.slice(video.key.lastIndexOf("/") + 1) || "video.mp4");
  } catch (error) {
    if (!(error instanceof PinterestApiError)) throw error;
    console.warn(`Video upload to Pinterest refused for media ${upload.media_id}:`, error.message);
    throw new ServiceError(502, VIDEO_UPLOAD_REFUSED_MESSAGE);
  }
  await waitForMedia(async () => (await withPinterest(env, profile, (client, token) => client.getMedia(token, upload.media_id))).status, options);
  return { media_id: upload.media_id };
}
