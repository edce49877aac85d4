import type { Env } from "../env.ts";
import { ProviderError, providerFetch } from "./http.ts";

/**
 * The FFmpeg video service (containers/video, docs/decisions/032-video-service.md).
 * VIDEO_SERVICE_URL is the container's address in production; locally and in
 * tests the sandbox's /video prefix, which forwards to the Node process and
 * records the calls.
 */

export interface VideoServiceJob {
  jobId: string;
  status: "queued" | "rendering" | "done" | "failed";
  progress: number;
  durationSeconds: number;
  error?: string;
}

export interface VideoJobSubmission {
  jobId: string;
  spec: { box: { x: number; y: number; width: number; height: number }; durationSeconds?: number; trimStart?: number };
  overlay: Blob;
  base: Blob;
  source: Blob;
}

function base(env: Pick<Env, "VIDEO_SERVICE_URL">) {
  if (!env.VIDEO_SERVICE_URL) throw new Error("VIDEO_SERVICE_URL is not configured");
  return env.VIDEO_SERVICE_URL.replace(/\/+$/, "");
}

/** Hands a job over with all its inputs (the service never calls back). 400 from the service: the inputs are unusable. */
export async function submitVideoJob(env: Pick<Env, "VIDEO_SERVICE_URL">, job: VideoJobSubmission): Promise<VideoServiceJob> {
  const form = new FormData();
  form.set("jobId", job.jobId);
  form.set("spec", JSON.stringify(job.spec));
  form.set("overlay", job.overlay, "overlay.png");
  form.set("base", job.base, "base.jpg");
  form.set("source", job.source, "source");
  const response = await providerFetch("video", `${base(env)}/jobs`, { method: "POST", body: form, timeoutMs: 60_000 });
  return (await response.json()) as VideoServiceJob;
}

/** The service's view of a job; null when it does not know it (never given, or forgotten after a restart). */
export async function getVideoServiceJob(env: Pick<Env, "VIDEO_SERVICE_URL">, jobId: string): Promise<VideoServiceJob | null> {
  try {
    const response = await providerFetch("video", `${base(env)}/jobs/${encodeURIComponent(jobId)}`, { timeoutMs: 15_000 });
    return (await response.json()) as VideoServiceJob;
  } catch (error) {
    if (error instanceof ProviderError && error.status === 404) return null;
    throw error;
  }
}

/** A finished job's MP4 or JPEG. */
export async function fetchVideoResult(env: Pick<Env, "VIDEO_SERVICE_URL">, jobId: string, what: "video" | "thumbnail"): Promise<ArrayBuffer> {
  const response = await providerFetch("video", `${base(env)}/jobs/${encodeURIComponent(jobId)}/${what}`, { timeoutMs: 120_000 });
  return response.arrayBuffer();
}

/** Lets the service delete a job's files (once they are safe in R2). */
export async function deleteVideoServiceJob(env: Pick<Env, "VIDEO_SERVICE_URL">, jobId: string): Promise<void> {
  try {
    await providerFetch("video", `${base(env)}/jobs/${encodeURIComponent(jobId)}`, { method: "DELETE", timeoutMs: 15_000 });
  } catch (error) {
    if (!(error instanceof ProviderError && error.status === 404)) throw error;
  }
}
