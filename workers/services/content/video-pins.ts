import { and, eq } from "drizzle-orm";
import { postContent } from "../../domain/generate.ts";
import { CREDIT_COSTS } from "../../../contracts/billing/credits.ts";
import type { Post } from "../../../contracts/content/post.ts";
import type { Layer, PostContent, TemplateDesign, VideoLayer } from "../../../contracts/content/template.ts";
import type { VideoJobMessage } from "../../../contracts/content/video-jobs.ts";
import { VIDEO_FAILED_MESSAGE, type CreatedVideoJob, type VideoJobState } from "../../../contracts/content/video.ts";
import { database } from "../../db/client.ts";
import { videoJobs } from "../../db/schema.ts";
import { videoFileName } from "../../domain/file-names.ts";
import type { Env } from "../../env.ts";
import { mediaKeyOf, mediaUrl, putMedia, userMediaPrefix } from "../../media/store.ts";
import { differenceMatte, encodePng, roundVideoCorners } from "../../render/overlay.ts";
import { renderPin } from "../../render/render-pin.ts";
import { workerFontLoader } from "../../render/worker-fonts.ts";
import type { User } from "../accounts/accounts.ts";
import { consumeCredits, requireCredits, reverseCredits } from "../billing/credits.ts";
import { ServiceError } from "../core/errors.ts";
import { pictureSourceFor } from "./pin-images.ts";
import { getTemplate } from "./templates.ts";

/**
 * Video pins (issue 15, docs/decisions/032-video-service.md). The worker
 * renders what the template draws around its Video box with the pin engine,
 * stores the inputs in R2, charges the video credits once and queues the job;
 * the queue consumer (queues/video-jobs.ts) has the FFmpeg service compose
 * the video and copies the MP4 and its thumbnail to the keys promised here.
 */

/** What a video job row carries (video_jobs.payload). */
export interface VideoJobPayload {
  /** The Video layer's box on the pin. */
  box: { x: number; y: number; width: number; height: number };
  /** R2 keys of the inputs: the picture under the video, the transparent overlay, the clip or photo. */
  inputs: { base: string; overlay: string; source: string };
  sourceKind: "video" | "image";
  /** R2 keys the results go to. */
  videoKey: string;
  thumbnailKey: string;
  videoFileName: string;
  /** The ledger reference the credits were charged under (reversed when the job fails). */
  chargeReference: string;
}

/** Creates a video job row and puts it on the queue. */
export async function enqueueVideoJob(env: Pick<Env, "DB" | "VIDEO_JOBS">, job: { id: string; userId: string | null; payload: unknown }) {
  await database(env.DB).insert(videoJobs).values({ id: job.id, userId: job.userId, status: "queued", payload: job.payload, updatedAt: Date.now() });
  await env.VIDEO_JOBS.send({ jobId: job.id } satisfies VideoJobMessage);
}

/** The post's template: its own copy, else the one templateType names (visible to the caller). */
async function templateOf(env: Env, user: User, post: Post): Promise<TemplateDesign> {
  if (post.template) return post.template;
  if (!post.templateType) throw new ServiceError(400, "post.templateType is required: a video template", "post.templateType");
  try {
    return await getTemplate(env, user, post.templateType);
  } catch (error) {
    if (error instanceof ServiceError && error.status === 404)
      throw new ServiceError(400, "post.templateType names no template of yours or a standard one", "post.templateType");
    throw error;
  }
}

/** Layers over the video are drawn over black and over white: colours that depend on what is behind are fixed first. */
function overlayLayer(layer: Layer): Layer {
  if (layer.type !== "text") return layer;
  const color = layer.style.color === "auto" ? "#ffffff" : layer.style.color;
  return { ...layer, style: { ...layer.style, color } };
}

/** The picture the Video box shows when the post brings no video (the same slot an Image layer would fill). */
function pictureFor(layer: VideoLayer, content: PostContent): string | null {
  if (layer.source === "url" && layer.src) return layer.src;
  if (layer.source === "logo") return content.logoImage || null;
  const pictures = layer.source === "uploaded" ? (content.uploadedImages ?? []) : (content.allImages ?? []);
  return pictures[layer.imageIndex] ?? pictures[0] ?? content.allImages?.[0] ?? null;
}

/** The pin's pixels under the video (background and lower layers, opaque) and over it (transparent PNG). */
export async function renderVideoLayers(env: Env, design: TemplateDesign, videoIndex: number, content: PostContent) {
  const deps = { fonts: workerFontLoader(env), pictures: pictureSourceFor(env) };
  const below = await renderPin({ ...design, layers: design.layers.slice(0, videoIndex) }, content, deps, 92);
  const above = design.layers.slice(videoIndex + 1).map(overlayLayer);
  const still = { ...content, fixLowContrastText: false };
  const onBlack = await renderPin({ ...design, background: "#000000", layers: above }, still, deps);
  const onWhite = await renderPin({ ...design, background: "#ffffff", layers: above }, still, deps);
  const overlay = differenceMatte(onBlack.pixels, onWhite.pixels);
  const layer = design.layers[videoIndex] as VideoLayer;
  roundVideoCorners(overlay, below.pixels, layer, layer.borderRadius ?? 0);
  return { base: below.jpeg, overlay: encodePng(overlay) };
}

/** POST /videoApi/video/createFFMPEGVideo: validates, renders, stores, charges once and queues. */
export async function createVideoPin(env: Env, user: User, post: Post, chargeReference: string): Promise<CreatedVideoJob> {
  const design = await templateOf(env, user, post);
  const videoIndex = design.layers.findIndex((layer) => layer.type === "Video" && !layer.hidden);
  if (videoIndex < 0) throw new ServiceError(400, "This template has no video layer: choose a video template", "post.templateType");
  const layer = design.layers[videoIndex] as VideoLayer;
  const content = postContent(post);
  const prefix = userMediaPrefix(user.id);

  // The moving picture: a video from the caller's media library, else the post's picture.
  let source: { key: string; kind: "video" } | { bytes: Uint8Array; kind: "image" };
  if (post.video) {
    const key = mediaKeyOf(env.APP_URL, post.video);
    // The media library keeps a user's uploads under their media/ folder (services/media-library.ts).
    const head = key?.startsWith(`${prefix}media/`) ? await env.MEDIA.head(key) : null;
    if (!key || !head?.httpMetadata?.contentType?.startsWith("video/")) {
      throw new ServiceError(400, "post.video must be a video from your media library", "post.video");
    }
    source = { key, kind: "video" };
  } else {
    const picture = pictureFor(layer, content);
    if (!picture) throw new ServiceError(400, "A video pin needs a video from your media library or a picture in the post", "post.video");
    const bytes = await pictureSourceFor(env).fetch(picture);
    if (!bytes) throw new ServiceError(400, "The post's picture could not be loaded", "post.selectedImages");
    source = { bytes, kind: "image" };
  }

  await requireCredits(env, user.id, CREDIT_COSTS.video);
  const { base, overlay } = await renderVideoLayers(env, design, videoIndex, content);

  const jobId = crypto.randomUUID();
  const inputPrefix = `${prefix}video-jobs/${jobId}/`;
  const name = videoFileName(post.fileName, post.title || design.title).replace(/\.mp4$/, "");
  const resultPrefix = `${prefix}videos/${jobId.slice(0, 8)}/`;
  const payload: VideoJobPayload = {
    box: { x: layer.x, y: layer.y, width: layer.width, height: layer.height },
    inputs: { base: `${inputPrefix}base.jpg`, overlay: `${inputPrefix}overlay.png`, source: source.kind === "video" ? source.key : `${inputPrefix}source` },
    sourceKind: source.kind,
    videoKey: `${resultPrefix}${name}.mp4`,
    thumbnailKey: `${resultPrefix}${name}.jpg`,
    videoFileName: `${name}.mp4`,
    chargeReference,
  };
  const stored = [payload.inputs.base, payload.inputs.overlay];
  await putMedia(env, payload.inputs.base, base, "image/jpeg");
  await putMedia(env, payload.inputs.overlay, overlay, "image/png");
  if (source.kind === "image") {
    await putMedia(env, payload.inputs.source, source.bytes, "application/octet-stream");
    stored.push(payload.inputs.source);
  }
  try {
    await consumeCredits(env, user.id, { category: "video", amount: CREDIT_COSTS.video, reason: "Video pin", reference: chargeReference });
  } catch (error) {
    await env.MEDIA.delete(stored);
    throw error;
  }
  try {
    await enqueueVideoJob(env, { id: jobId, userId: user.id, payload });
  } catch (error) {
    await reverseCredits(env, user.id, chargeReference, "Video pin could not be queued");
    await env.MEDIA.delete(stored);
    throw error;
  }
  return { jobId, status: "queued", ...resultUrls(env, payload) };
}

function resultUrls(env: Pick<Env, "APP_URL">, payload: VideoJobPayload) {
  // Rows written before migration 0017 carry no result keys.
  if (!payload.videoKey) return { videoURL: "", videoFileName: "", videoThumbnail: "" };
  return {
    videoURL: mediaUrl(env.APP_URL, payload.videoKey),
    videoFileName: payload.videoFileName,
    videoThumbnail: mediaUrl(env.APP_URL, payload.thumbnailKey),
  };
}

/** GET /videoApi/video/getVideoJob/:jobId: the caller's own job, else 404. */
export async function videoJobState(env: Env, user: User, jobId: string): Promise<VideoJobState> {
  const row = await database(env.DB).query.videoJobs.findFirst({ where: and(eq(videoJobs.id, jobId), eq(videoJobs.userId, user.id)) });
  if (!row) throw new ServiceError(404, "Video job not found");
  const payload = row.payload as VideoJobPayload;
  return {
    jobId: row.id,
    status: row.status,
    progress: row.status === "done" ? 1 : Math.round(row.progress * 100) / 100,
    ...resultUrls(env, payload),
    ...(row.status === "done" && row.durationSeconds != null ? { durationSeconds: row.durationSeconds } : {}),
    ...(row.status === "failed" ? { message: VIDEO_FAILED_MESSAGE } : {}),
  };
}

/**
 * A job that cannot be made (dead-lettered after its retries, or refused by
 * the service as bad input): marked failed with the reason kept, its credits
 * given back once, its inputs deleted (a library video is the user's and stays).
 */
export async function failVideoJob(env: Env, jobId: string, reason: string): Promise<void> {
  const db = database(env.DB);
  const row = await db.query.videoJobs.findFirst({ where: eq(videoJobs.id, jobId) });
  if (!row || row.status === "done") return;
  const payload = row.payload as VideoJobPayload;
  await db.update(videoJobs).set({ status: "failed", lastError: reason, updatedAt: Date.now() }).where(eq(videoJobs.id, jobId));
  if (row.userId && payload.chargeReference) await reverseCredits(env, row.userId, payload.chargeReference, "Video pin could not be made: credits returned");
  if (payload.inputs) await env.MEDIA.delete([payload.inputs.base, payload.inputs.overlay, ...(payload.sourceKind === "image" ? [payload.inputs.source] : [])]);
}

/**
 * Of these video pins about to be scheduled, those whose credits were paid when
 * their video was made (decision 032): the first pin of each of the caller's
 * finished videos, found by the video's address. The claim is atomic and names
 * the pin, so a retry of that pin stays free and a second pin of the same video
 * is charged as a new video pin.
 */
export async function videoPinsPaidAtCreation(env: Env, userId: string, pins: { id: string; videoURL?: string }[]): Promise<Set<string>> {
  const paid = new Set<string>();
  for (const pin of pins) {
    const key = pin.videoURL ? mediaKeyOf(env.APP_URL, pin.videoURL) : null;
    if (!key) continue;
    const claimed = await env.DB.prepare(
      `UPDATE video_jobs SET first_pin_id = ?1
       WHERE id = (SELECT id FROM video_jobs WHERE user_id = ?2 AND status = 'done' AND json_extract(payload, '$.videoKey') = ?3 LIMIT 1)
         AND (first_pin_id IS NULL OR first_pin_id = ?1)
       RETURNING id`,
    )
      .bind(pin.id, userId, key)
      .first<{ id: string }>();
    if (claimed) paid.add(pin.id);
  }
  return paid;
}
