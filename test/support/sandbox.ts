import { afterAll, beforeAll, beforeEach } from "vitest";
import { startSandbox } from "../../sandbox/server.ts";

/**
 * A sandbox on a free port for the tests of one file, reset before each test.
 * Read `sandbox.url` inside tests (it is set once the file's set-up ran).
 */
export function useSandbox() {
  const handle = { url: "" };
  let running: Awaited<ReturnType<typeof startSandbox>>;
  beforeAll(async () => {
    running = await startSandbox(0);
    handle.url = running.url;
  });
  afterAll(() => running.close());
  beforeEach(async () => {
    await fetch(`${handle.url}/__sandbox/reset`, { method: "POST" });
  });
  return handle;
}
