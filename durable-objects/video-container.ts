import { Container } from "@cloudflare/containers";
import type { Env } from "../workers/env.ts";
import { VIDEO_CONTAINER_PORT } from "../workers/domain/video-instances.ts";

/** The service's time limit for one job (ffmpeg is killed past it). */
const JOB_TIMEOUT_MS = 180_000;

/**
 * The FFmpeg video service (containers/video) as a Cloudflare Container, decision 095. Each object of this class
 * runs one container instance of the image that wrangler.toml's [[containers]] builds from containers/video/Dockerfile,
 * and forwards every request it is sent to the service's port. The queue consumer reaches it through the
 * VIDEO_CONTAINER binding (workers/integrations/video.ts), which picks the instance from the job id.
 *
 * Locally and in tests VIDEO_SERVICE_URL points at the Node service instead and this class never runs (`wrangler dev`
 * and the workers tests start no containers: wrangler.toml [dev] enable_containers = false).
 */
export class VideoContainer extends Container<Env> {
  defaultPort = VIDEO_CONTAINER_PORT;
  /**
   * Stopped (SIGTERM: the service kills its ffmpeg processes and deletes their files) after 5 minutes without a
   * request. The consumer asks about a running job every second; 5 minutes is longer than the longest job (the
   * 180 s limit) plus the longest wait before a failed delivery is retried (60 s), so a job whose delivery died is
   * still there when the next delivery asks for it.
   */
  sleepAfter = "5m";
  /** The service never calls out: everything a job needs travels in its request (decision 032). */
  enableInternet = false;
  /** Ready once the service answers its health check (any answer), not merely once the port is open. */
  pingEndpoint = "container/health";
  /**
   * The service's settings for this instance type (standard-1: 1/2 vCPU, 4 GiB, 8 GB disk). One ffmpeg at a time:
   * x264 uses every core it has, so a second one only slows both; the others wait in the service's own queue.
   */
  envVars = {
    VIDEO_HOST: "0.0.0.0",
    VIDEO_PORT: String(VIDEO_CONTAINER_PORT),
    VIDEO_CONCURRENCY: "1",
    VIDEO_JOB_TIMEOUT_MS: String(JOB_TIMEOUT_MS),
    VIDEO_MAX_CLIP_SECONDS: "300",
    VIDEO_TMP_DIR: "/tmp/video-jobs",
  };
}
