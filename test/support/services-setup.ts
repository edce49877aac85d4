// Global setup of the workers tests: the sandbox (with the video service behind
// its /video prefix) on free ports, torn down after the run.
import type { TestProject } from "vitest/node";
import { startVideoService } from "../../containers/video/server.ts";
import { startSandbox } from "../../sandbox/server.ts";

declare module "vitest" {
  interface ProvidedContext {
    sandboxUrl: string;
    /** The video service itself, for the stand-in of its container (test/workers/content/video-container-stand-in.js). */
    videoServiceUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const video = await startVideoService(0);
  const sandbox = await startSandbox(0, { upstreams: { video: video.url } });
  project.provide("sandboxUrl", sandbox.url);
  project.provide("videoServiceUrl", video.url);
  return async () => {
    await sandbox.close();
    await video.close();
  };
}
