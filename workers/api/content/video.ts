import { CreateVideoBody, VideoJobParam, type CreatedVideoJob } from "../../../contracts/content/video.ts";
import { requireUser } from "../../auth/middleware.ts";
import { createVideoPin, videoJobState } from "../../services/content/video-pins.ts";
import { router } from "../core/hono.ts";
import { once, valid } from "../core/validation.ts";

/** Video pins (under /videoApi, spec section 7; issue 15). */
export const videoApi = router();

/**
 * A video pin from the post's video template: 202 with the job and the URLs
 * its video and thumbnail will have. Charges the video credits (5) once; with
 * an idempotency key a replay answers the same job.
 */
videoApi.post("/video/createFFMPEGVideo", requireUser, valid("json", CreateVideoBody), async (c) => {
  const input = c.req.valid("json");
  const created = await once<CreatedVideoJob>(c, "createFFMPEGVideo", input, (reference) => createVideoPin(c.env, c.var.auth.user, input.post, reference));
  return c.json(created, 202);
});

/** The caller's own job: status, progress and, when done, the video's length. */
videoApi.get("/video/getVideoJob/:jobId", requireUser, valid("param", VideoJobParam), async (c) => {
  return c.json(await videoJobState(c.env, c.var.auth.user, c.req.valid("param").jobId));
});
