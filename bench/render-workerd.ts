// What the render benchmarks share: a workerd half runs as a vitest file inside
// a fresh workerd process (bench/vitest.render.config.ts), and posts what it
// measured to an HTTP receiver in the orchestrator.
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { childEnv, ROOT } from "../scripts/process.ts";

export interface Receiver {
  url: string;
  close(): void;
}

/**
 * An HTTP server on a free local port: each POST's path (without the leading
 * slash) and body go to `handle`, whose answer (default "ok") is the reply.
 */
export async function startReceiver(handle: (path: string, body: Buffer) => string | void | Promise<string | void>): Promise<Receiver> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", async () => {
      try {
        res.end((await handle((req.url ?? "/").slice(1), Buffer.concat(chunks))) ?? "ok");
      } catch {
        res.end("wait");
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

/**
 * Runs one benchmark file in a fresh workerd process, from the checkout `tree`
 * (this one unless told), with `env` as its bindings (BENCH_FILE is set here);
 * resolves with vitest's exit code. `args` go to vitest (an inspector port).
 */
export function runInWorkerd(file: string, env: Record<string, string>, options: { tree?: string; args?: string[] } = {}): Promise<number> {
  const tree = options.tree ?? ROOT;
  return new Promise<number>((resolve) => {
    const child = spawn(join(tree, "node_modules", ".bin", "vitest"), ["run", "--config", "bench/vitest.render.config.ts", "--reporter", "dot", ...(options.args ?? [])], {
      cwd: tree,
      stdio: ["ignore", "ignore", "inherit"],
      env: childEnv({ ...env, BENCH_FILE: file }),
    });
    child.on("close", (code) => resolve(code ?? 1));
  });
}
