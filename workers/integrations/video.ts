import type { Env } from "../env.ts";
import { videoInstanceName } from "../domain/video-instances.ts";
import { type FetchTarget, ProviderError, providerFetch } from "./http.ts";

/**
 * The FFmpeg video service (containers/video, docs/decisions/032-video-service.md).
 * In production it runs as a Cloudflare Container reached through the
 * VIDEO_CONTAINER Durable Object binding (decision 095); locally and in tests
 * VIDEO_SERVICE_URL is set, to the sandbox's /video prefix, which forwards to
 * the Node process and records the calls. A set URL wins over the binding.
 */

/** What the client needs to reach the service: an address, else the container binding. */
export type VideoServiceEnv = Pick<Env, "VIDEO_SERVICE_URL" | "VIDEO_CONTAINER">;

/** Where a job's calls go: the configured address, else the job's container instance. */
function serviceFor(env: VideoServiceEnv, jobId: string): { base: string; via?: FetchTarget } {
  if (env.VIDEO_SERVICE_URL) return { base: env.VIDEO_SERVICE_URL.replace(/\/+$/, "") };
  // The host is not used: the Container class forwards the path to the service's port in the container.
  if (env.VIDEO_CONTAINER) return { base: "http://video-container", via: env.VIDEO_CONTAINER.getByName(videoInstanceName(jobId)) };
  throw new Error("The video service is not configured: set VIDEO_SERVICE_URL or bind VIDEO_CONTAINER (wrangler.toml)");
}

/** One call to the service about one job. */
function videoFetch(env: VideoServiceEnv, jobId: string, path: string, init: RequestInit & { timeoutMs: number }) {
  const { base, via } = serviceFor(env, jobId);
  return providerFetch("video", `${base}${path}`, { ...init, via });
}

export interface VideoServiceJob {
  jobId: string;
  status: "queued" | "rendering" | "done" | "failed";
  progress: number;
  durationSeconds: number;
  error?: string;
}

/** A file part: bytes, or a stream (an R2 object's body, so a large clip never sits in the worker's memory). */
export type VideoJobFile = Uint8Array | ReadableStream<Uint8Array>;

export interface VideoJobSubmission {
  jobId: string;
  spec: { box: { x: number; y: number; width: number; height: number }; durationSeconds?: number; trimStart?: number };
  overlay: VideoJobFile;
  base: VideoJobFile;
  source: VideoJobFile;
}

/** A multipart/form-data body written as it is sent: text fields, then the files streamed one after another. */
export function multipartBody(fields: Record<string, string>, files: Record<string, VideoJobFile>): { body: ReadableStream<Uint8Array>; contentType: string } {
  const boundary = `----pinboard-video-${crypto.randomUUID()}`;
  const encoder = new TextEncoder();
  const header = (name: string, file: boolean) =>
    encoder.encode(
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${file ? `; filename="${name}"` : ""}\r\n` +
        (file ? "Content-Type: application/octet-stream\r\n" : "") +
        "\r\n",
    );
  async function* chunks(): AsyncGenerator<Uint8Array> {
    for (const [name, value] of Object.entries(fields)) {
      yield header(name, false);
      yield encoder.encode(`${value}\r\n`);
    }
    for (const [name, file] of Object.entries(files)) {
      yield header(name, true);
      if (file instanceof Uint8Array) yield file;
      else {
        const reader = file.getReader();
        for (let part = await reader.read(); !part.done; part = await reader.read()) yield part.value;
      }
      yield encoder.encode("\r\n");
    }
    yield encoder.encode(`--${boundary}--\r\n`);
  }
  const iterator = chunks();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await iterator.return(undefined);
    },
  });
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Hands a job over with all its inputs (the service never calls back). 400 from the service: the inputs are unusable. */
export async function submitVideoJob(env: VideoServiceEnv, job: VideoJobSubmission): Promise<VideoServiceJob> {
  const { body, contentType } = multipartBody(
    { jobId: job.jobId, spec: JSON.stringify(job.spec) },
    { overlay: job.overlay, base: job.base, source: job.source },
  );
  const response = await videoFetch(env, job.jobId, "/jobs", { method: "POST", headers: { "content-type": contentType }, body, timeoutMs: 120_000 });
  return (await response.json()) as VideoServiceJob;
}

/** The service's view of a job; null when it does not know it (never given, or forgotten after a restart). */
export async function getVideoServiceJob(env: VideoServiceEnv, jobId: string): Promise<VideoServiceJob | null> {
  try {
    const response = await videoFetch(env, jobId, `/jobs/${encodeURIComponent(jobId)}`, { timeoutMs: 15_000 });
    return (await response.json()) as VideoServiceJob;
  } catch (error) {
    if (error instanceof ProviderError && error.status === 404) return null;
    throw error;
  }
}

/** A finished job's MP4 or JPEG. */
export async function fetchVideoResult(env: VideoServiceEnv, jobId: string, what: "video" | "thumbnail"): Promise<ArrayBuffer> {
  const response = await videoFetch(env, jobId, `/jobs/${encodeURIComponent(jobId)}/${what}`, { timeoutMs: 120_000 });
  return response.arrayBuffer();
}

/** Lets the service delete a job's files (once they are safe in R2). */
export async function deleteVideoServiceJob(env: VideoServiceEnv, jobId: string): Promise<void> {
  try {
    await videoFetch(env, jobId, `/jobs/${encodeURIComponent(jobId)}`, { method: "DELETE", timeoutMs: 15_000 });
  } catch (error) {
    if (!(error instanceof ProviderError && error.status === 404)) throw error;
  }
}
