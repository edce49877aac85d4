// What the render benchmarks share: a workerd half runs as a vitest file inside
// a fresh workerd process (bench/vitest.render.config.ts), or as a Worker bundled
// by wrangler (the cold runs), and posts what it measured to an HTTP receiver in
// the orchestrator.
import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { childEnv, ROOT, run } from "../scripts/process.ts";

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

/**
 * Bundles the cold-render Worker of the checkout `tree` (bench/wrangler.cold.toml) with
 * `wrangler deploy --dry-run`, as the app is bundled for deployment; resolves with its modules:
 * the entry first, then the WebAssembly and the fonts' data modules wrangler wrote beside it.
 */
export async function bundleColdWorker(tree = ROOT): Promise<{ type: "ESModule" | "CompiledWasm" | "Data"; path: string }[]> {
  const outdir = join(tree, ".wrangler", "bench-cold");
  await run(join(tree, "node_modules", ".bin", "wrangler"), ["deploy", "--dry-run", "--outdir", outdir, "--config", join(tree, "bench", "wrangler.cold.toml")], { quiet: true });
  const files = readdirSync(outdir).filter((file) => /\.(js|wasm|bin)$/.test(file));
  const entry = "render-cold-worker.workerd.js";
  if (!files.includes(entry)) throw new Error(`wrangler wrote no ${entry} in ${outdir}`);
  return [entry, ...files.filter((file) => file !== entry)].map((file) => ({
    type: file.endsWith(".wasm") ? "CompiledWasm" : file.endsWith(".bin") ? "Data" : "ESModule",
    path: join(outdir, file),
  }));
}

/** Runs the bundled cold-render Worker once in a fresh workerd process, with `env` as its bindings. */
export async function runBundled(modules: Awaited<ReturnType<typeof bundleColdWorker>>, env: Record<string, string>): Promise<void> {
  const mf = new Miniflare(
    convertV4MiniflareOptions({ modules, modulesRoot: dirname(modules[0].path), compatibilityDate: "2026-10-01", compatibilityFlags: ["nodejs_compat"], bindings: env }),
  );
  try {
    const response = await mf.dispatchFetch("http://bench.invalid/");
    if (!response.ok) throw new Error(`the cold run answered ${response.status}: ${await response.text()}`);
    await response.text();
  } finally {
    await mf.dispose();
  }
}
