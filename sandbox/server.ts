import { serve } from "@hono/node-server";
import { createSandbox, type SandboxOptions } from "./app.ts";

/** Starts the sandbox on 127.0.0.1 (SANDBOX_PORT, default 8788; 0 picks a free port). */
export function startSandbox(port = Number(process.env.SANDBOX_PORT ?? 8788), options: SandboxOptions = {}) {
  const { app, state } = createSandbox(options);
  return new Promise<{ url: string; close: () => Promise<void>; state: typeof state }>((resolve) => {
    const server = serve({ fetch: app.fetch, hostname: "127.0.0.1", port }, (info) => {
      resolve({
        url: `http://127.0.0.1:${info.port}`,
        state,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            (server as { closeAllConnections?: () => void }).closeAllConnections?.();
          }),
      });
    });
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const video = process.env.VIDEO_URL ?? `http://127.0.0.1:${process.env.VIDEO_PORT ?? 8790}`;
  const { url } = await startSandbox(undefined, { upstreams: { video } });
  console.log(`sandbox listening on ${url}`);
}
