import { stableSeed } from "./random.ts";

/** The port the video service listens on in its container (containers/video/Dockerfile: VIDEO_PORT, EXPOSE). */
export const VIDEO_CONTAINER_PORT = 8790;

/**
 * The container instances video jobs are spread over, named video-0 ... video-9: [[containers]] max_instances in
 * wrangler.toml is the same number (a unit test keeps them equal), so every instance can run at once.
 */
export const VIDEO_CONTAINER_INSTANCES = 10;

/**
 * The container instance that runs a job, picked from its id (its FNV-1a seed, modulo the pool). A job's status and files
 * live on the instance that ran it, so its submit, status, results and delete calls all go to this one; the same id
 * always picks the same instance, so nothing has to be recorded (decision 095).
 */
export function videoInstanceName(jobId: string): string {
  return `video-${stableSeed(jobId) % VIDEO_CONTAINER_INSTANCES}`;
}
