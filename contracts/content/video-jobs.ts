import * as v from "valibot";

/** What travels on the video-jobs queue: the id of a row in video_jobs. */
export const VideoJobMessage = v.object({
  jobId: v.pipe(v.string(), v.minLength(1, "jobId is required")),
});
export type VideoJobMessage = v.InferOutput<typeof VideoJobMessage>;
