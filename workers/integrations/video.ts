import type { Env } from "../env.ts";
import { providerFetch } from "./http.ts";

export interface VideoJobSubmission {
  jobId: string;
  payload: unknown;
}

/**
 * The FFmpeg video service (containers/video). Locally VIDEO_SERVICE_URL points
 * at the Node process on port 8790; in production at the container's address.
 */
export async function submitVideoJob(env: Pick<Env, "VIDEO_SERVICE_URL">, job: VideoJobSubmission) {
  if (!env.VIDEO_SERVICE_URL) throw new Error("VIDEO_SERVICE_URL is not configured");
  const response = await providerFetch("video", `${env.VIDEO_SERVICE_URL}/jobs`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(job),
    timeoutMs: 15_000,
  });
  return (await response.json()) as { jobId: string; status: string };
}
