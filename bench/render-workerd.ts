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
// biome-ignore lint/suspicious/noConfusingVoidType: a handler answers a reply or nothing (then "ok"); void lets it leave out `return`.
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
    const child = spawn(
      join(tree, "node_modules", ".bin", "vitest"),
      ["run", "--config", "bench/vitest.render.config.ts", "--reporter", "dot", ...(options.args ?? [])],
      {
        cwd: tree,
        stdio: ["ignore", "ignore", "inherit"],
        env: childEnv({ ...env, BENCH_FILE: file }),
      },
    );
    child.on("close", (code) => resolve(code ?? 1));
  });
}

/** A Worker's modules as wrangler bundles them: the entry first, then its WebAssembly and data modules. */
export type BundledModules = { type: "ESModule" | "CompiledWasm" | "Data"; path: string }[];

/**
 * Bundles the Worker of `config` (a wrangler.toml under bench/) of the checkout `tree` with
 * `wrangler deploy --dry-run` into `outdir`, as the app is bundled for deployment; resolves with its
 * modules: `entry` first, then the WebAssembly and the data modules wrangler wrote beside it.
 */
export async function bundleBenchWorker(options: { tree?: string; config: string; entry: string; outdir: string }): Promise<BundledModules> {
  const tree = options.tree ?? ROOT;
  await run(
    join(tree, "node_modules", ".bin", "wrangler"),
    ["deploy", "--dry-run", "--outdir", options.outdir, "--config", join(tree, "bench", options.config)],
    { quiet: true },
  );
  const files = readdirSync(options.outdir).filter((file) => /\.(js|wasm|bin)$/.test(file));
  if (!files.includes(options.entry)) throw new Error(`wrangler wrote no ${options.entry} in ${options.outdir}`);
  return [options.entry, ...files.filter((file) => file !== options.entry)].map((file) => ({
    type: file.endsWith(".wasm") ? "CompiledWasm" : file.endsWith(".bin") ? "Data" : "ESModule",
    path: join(options.outdir, file),
  }));
}

/** The cold-render Worker of the checkout `tree` (bench/wrangler.cold.toml), bundled: its entry, WebAssembly and fonts. */
export function bundleColdWorker(tree = ROOT): Promise<BundledModules> {
  return bundleBenchWorker({ tree, config: "wrangler.cold.toml", entry: "render-cold-worker.workerd.js", outdir: join(tree, ".wrangler", "bench-cold") });
}

/** Runs the bundled cold-render Worker once in a fresh workerd process, with `env` as its bindings. */
export async function runBundled(modules: Awaited<ReturnType<typeof bundleColdWorker>>, env: Record<string, string>): Promise<void> {
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      modules,
      modulesRoot: dirname(modules[0].path),
      compatibilityDate: "2026-10-01",
      compatibilityFlags: ["nodejs_compat"],
      bindings: env,
    }),
  );
  try {
    const response = await mf.dispatchFetch("http://bench.invalid/");
    if (!response.ok) throw new Error(`the cold run answered ${response.status}: ${await response.text()}`);
    await response.text();
  } finally {
    await mf.dispose();
  }
}
