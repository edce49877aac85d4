import * as v from "valibot";
import { body } from "../fields.ts";
import { isWebUrl } from "./scheduling-api.ts";

/**
 * POST /videoApi/pinterestAPI/uploadVideoToPinterest (spec section 7): a video
 * of the caller's media (its address under /media/ on this site) goes to
 * Pinterest's media upload; the answer is Pinterest's media id once Pinterest
 * has processed it, for scheduling the video pin (`media_id`).
 */
const MediaAddress = (field: string) =>
  v.pipe(
    v.string(`${field} is required`),
    v.trim(),
    v.nonEmpty(`${field} is required`),
    v.maxLength(2048, `${field} must be at most 2048 characters`),
    v.check(isWebUrl, `${field} must be a web address starting with http:// or https://`),
  );

export const UploadVideoToPinterestBody = body({
  videoURL: MediaAddress("videoURL"),
  videoThumbnail: MediaAddress("videoThumbnail"),
  /** The connected profile's access handle, as the browser holds it. */
  access_token: v.pipe(v.string("access_token is required"), v.nonEmpty("access_token is required"), v.maxLength(2000, "access_token is too long")),
});
export type UploadVideoToPinterestBody = v.InferOutput<typeof UploadVideoToPinterestBody>;

export interface UploadVideoToPinterestResponse {
  /** Pinterest's id of the processed video (status "succeeded"). */
  media_id: string;
}

/** Messages a user may see. */
export const VIDEO_NOT_YOURS_MESSAGE = "This video is not one of your videos. Choose a video from your media library or create one.";
export const THUMBNAIL_NOT_YOURS_MESSAGE = "This cover image is not one of your pictures. Create the video again to get its cover image.";
export const VIDEO_PROCESSING_FAILED_MESSAGE = "Pinterest could not process this video. Please create the video again, or choose another one.";
export const VIDEO_PROCESSING_SLOW_MESSAGE = "Pinterest is taking too long to process this video. Please try again in a few minutes.";
export const VIDEO_UPLOAD_REFUSED_MESSAGE = "Pinterest did not accept the video upload. Please try again.";
