// Starts the built app the way `npm start` does (wrangler dev + sandbox + video
// service), on free ports and with a fresh local state directory.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { freePort, startStack } from "../../scripts/stack.ts";

declare module "vitest" {
  interface ProvidedContext {
    appUrl: string;
    sandboxUrl: string;
    videoUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const persistTo = mkdtempSync(join(tmpdir(), "pinboard-e2e-"));
  const stack = await startStack({
    appPort: await freePort(),
    sandboxPort: 0,
    videoPort: 0,
    persistTo,
    build: !process.env.E2E_SKIP_BUILD,
    quiet: true,
  });
  project.provide("appUrl", stack.appUrl);
  project.provide("sandboxUrl", stack.sandboxUrl);
  project.provide("videoUrl", stack.videoUrl);
  return async () => {
    await stack.stop();
    rmSync(persistTo, { recursive: true, force: true });
  };
}
