import * as v from "valibot";
import { MediaIdParam, MediaPageQuery, MediaTypeField } from "../../../contracts/content/library.ts";
import { requireUser } from "../../auth/middleware.ts";
import { deleteMedia, listMedia, MAX_UPLOAD_REQUEST_BYTES, uploadMedia } from "../../services/content/media-library.ts";
import { apiError } from "../core/errors.ts";
import { router } from "../core/hono.ts";
import { valid } from "../core/validation.ts";

/** The media library (spec section 7): uploads of images, videos and fonts to R2, listed and deleted by their owner. */
export const mediaApi = router();
mediaApi.use("/user/media/*", requireUser);

/** Multipart form: `file` and `mediaType` (image, video or font). */
mediaApi.post("/user/media/uploadMedia", async (c) => {
  const declared = Number(c.req.header("content-length") ?? "0");
  if (declared > MAX_UPLOAD_REQUEST_BYTES) return apiError(c, 413, "The file is too large. Videos may be up to 100 MB, images 10 MB and fonts 5 MB.", "file");
  let form: FormData;
  try {
    form = await c.req.formData();
  } catch {
    return apiError(c, 400, "Please send the file as multipart form data.", "file");
  }
  const mediaType = v.safeParse(MediaTypeField, form.get("mediaType"));
  if (!mediaType.success) return apiError(c, 400, "mediaType must be one of image, video, font", "mediaType");
  const file = form.get("file");
  if (!(file instanceof File)) return apiError(c, 400, "Please choose a file to upload.", "file");
  return c.json({ media: await uploadMedia(c.env, c.var.auth.user, file, mediaType.output) }, 201);
});

mediaApi.get("/user/media/getUserMedia", valid("query", MediaPageQuery), async (c) => {
  return c.json(await listMedia(c.env, c.var.auth.user, c.req.valid("query")));
});

mediaApi.delete("/user/media/deleteMedia/:id", valid("param", MediaIdParam), async (c) => {
  return c.json(await deleteMedia(c.env, c.var.auth.user, c.req.valid("param").id));
});
