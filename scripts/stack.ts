// Starts the whole local product the way `npm start` does: the app worker under
// `wrangler dev` (workerd), the provider sandbox and the video service. The e2e
// tests and the benchmarks start it through here too, on free ports.
import { spawn, type ChildProcess } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { startVideoService } from "../containers/video/server.ts";
import { startSandbox } from "../sandbox/server.ts";
import { seedSql } from "../workers/db/seed.ts";
import { inlineStatements, LOCAL_ADMIN, localAdminStatements } from "../workers/db/admin-accounts.ts";
import { hashPassword } from "../workers/auth/password-hash.ts";
import { providerVars } from "../sandbox/provider-vars.ts";
import { childEnv, freePort, ROOT, run } from "./process.ts";

export { freePort, ROOT, run };

const WRANGLER = join(ROOT, "node_modules", ".bin", "wrangler");

/**
 * Secrets the worker needs: the names listed in .dev.vars.example (the same
 * file `npm run cf-typegen` reads). Generated once per checkout into .dev.vars
 * (never committed).
 */
const SECRET_NAMES = Object.keys(parseDotenv(readFileSync(join(ROOT, ".dev.vars.example"), "utf8")));

export function localSecrets(): Record<string, string> {
  const path = join(ROOT, ".dev.vars");
  const existing = existsSync(path) ? parseDotenv(readFileSync(path, "utf8")) : {};
  const missing = SECRET_NAMES.filter((name) => !existing[name]);
  if (missing.length > 0) {
    for (const name of missing) existing[name] = `local-${randomBytes(24).toString("base64url")}`;
    writeFileSync(
      path,
      `${Object.entries(existing)
        .map(([k, v]) => `${k}=${v}`)
        .join("\n")}\n`,
    );
  }
  return existing;
}

function parseDotenv(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const match = /^\s*([A-Z0-9_]+)\s*=\s*(.*?)\s*$/.exec(line);
    if (match) values[match[1]] = match[2].replace(/^"(.*)"$/, "$1");
  }
  return values;
}

/** Applies the D1 migrations and the seed to the local database kept under `persistTo`, with the local admin account (README). */
export async function prepareDatabase(persistTo: string, quiet = false) {
  await run(WRANGLER, ["d1", "migrations", "apply", "DB", "--local", "--persist-to", persistTo], { quiet, env: { CI: "1" } });
  // One file per database: stacks started side by side (npm test's end-to-end halves) never read each other's half-written seed.
  const seedFile = join(ROOT, ".wrangler", `seed-${createHash("sha256").update(persistTo).digest("hex").slice(0, 12)}.sql`);
  mkdirSync(dirname(seedFile), { recursive: true });
  const localAdmin = inlineStatements(localAdminStatements(await hashPassword(LOCAL_ADMIN.password), Date.now()));
  writeFileSync(seedFile, `${seedSql()}\n${localAdmin}`);
  try {
    await run(WRANGLER, ["d1", "execute", "DB", "--local", "--persist-to", persistTo, "--file", seedFile, "--yes"], { quiet: true });
  } finally {
    rmSync(seedFile, { force: true });
  }
  if (!quiet) console.log("database: migrations applied and seed loaded");
}

const CRON = "*/5 * * * *";
const CRON_INTERVAL_MS = 5 * 60 * 1000;

export interface StackOptions {
  appPort?: number;
  sandboxPort?: number;
  videoPort?: number;
  /** Local state directory (D1, R2, Durable Objects). Default .wrangler/state, kept between runs. */
  persistTo?: string;
  /** Build the app first (default true). */
  build?: boolean;
  /**
   * Where the build goes and is served from, under the project (default "build", which `npm start` serves).
   * The benchmarks use BENCH_BUILD_DIR, so that running one never rebuilds the files a running `npm start`
   * serves (issue 40 point 13).
   */
  buildDir?: string;
  quiet?: boolean;
}

export interface Stack {
  appUrl: string;
  sandboxUrl: string;
  videoUrl: string;
  persistTo: string;
  stop(): Promise<void>;
  /** Stops the worker and starts it again on the same port and persisted state (a deploy or a crash). */
  restartWorker(): Promise<void>;
  /** Fires the cron trigger now. */
  cron(): Promise<boolean>;
}

/** The build `npm run build` writes and `npm start` serves (wrangler.toml's paths). */
export const DEFAULT_BUILD_DIR = "build";
/** The benchmarks' own build: never the one a running `npm start` serves. Gitignored. */
export const BENCH_BUILD_DIR = "build-bench";

/**
 * A benchmark's stack: built into build-bench/ (unless BENCH_SKIP_BUILD), on free ports, with its state in a
 * fresh temporary folder (`stateDir`, or the one given to measure a kept state again), quiet unless `verbose`.
 */
export async function startBenchStack(name: string, options: { stateDir?: string; verbose?: boolean } = {}): Promise<{ stack: Stack; stateDir: string }> {
  const stateDir = options.stateDir ?? mkdtempSync(join(tmpdir(), `pinboard-bench-${name}-`));
  const stack = await startStack({
    buildDir: BENCH_BUILD_DIR,
    appPort: await freePort(),
    sandboxPort: 0,
    videoPort: 0,
    persistTo: stateDir,
    build: !process.env.BENCH_SKIP_BUILD,
    quiet: !options.verbose,
  });
  return { stack, stateDir };
}

/**
 * The wrangler configuration that serves `buildDir`: wrangler.toml itself for the default build, else a copy with
 * its two build paths (the static assets and the Remix server build) pointed at `buildDir`, written beside it so
 * that every other relative path in it still holds.
 */
export function wranglerConfigFor(buildDir: string): string {
  const main = join(ROOT, "wrangler.toml");
  if (buildDir === DEFAULT_BUILD_DIR) return main;
  const source = readFileSync(main, "utf8");
  const rewritten = source
    .replace('directory = "./build/client"', `directory = "./${buildDir}/client"`)
    .replace('"virtual:remix-build" = "./build/server/index.js"', `"virtual:remix-build" = "./${buildDir}/server/index.js"`);
  if (rewritten.split(`./${buildDir}/`).length !== 3) throw new Error("wrangler.toml's build paths changed: update wranglerConfigFor in scripts/stack.ts");
  const file = join(ROOT, `wrangler.${buildDir}.generated.toml`);
  writeFileSync(file, `# Written by scripts/stack.ts from wrangler.toml for the build in ${buildDir}/. Do not edit.\n${rewritten}`);
  return file;
}

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const quiet = options.quiet ?? false;
  const persistTo = options.persistTo ?? join(ROOT, ".wrangler", "state");
  const buildDir = options.buildDir ?? DEFAULT_BUILD_DIR;
  // A production build whoever starts the stack: under vitest NODE_ENV is "test", and Vite would keep it, building React's development code.
  if (options.build ?? true) await run("npm", ["run", "build"], { quiet, env: { NODE_ENV: "production", APP_BUILD_DIR: buildDir } });
  else if (!existsSync(join(ROOT, buildDir, "server", "index.js"))) {
    throw new Error(`The app is not built in ${buildDir}/: run it without BENCH_SKIP_BUILD once (or \`npm run build\` for build/).`);
  }
  const configFile = wranglerConfigFor(buildDir);

  await prepareDatabase(persistTo, quiet);

  const video = await startVideoService(options.videoPort ?? 8790);
  const sandbox = await startSandbox(options.sandboxPort ?? 8788, { upstreams: { video: video.url } });
  const appPort = options.appPort ?? 8787;
  const appUrl = `http://127.0.0.1:${appPort}`;
  // The in-process sandbox delivers Stripe webhooks here (it reads this on every delivery, so resets keep it).
  process.env.STRIPE_WEBHOOK_URL = `${appUrl}/api/stripe/webhook`;
  process.env.PAYPAL_WEBHOOK_URL = `${appUrl}/api/paypal/webhook`;
  process.env.SHOPIFY_WEBHOOK_URL = `${appUrl}/api/shopify/webhook`;
  process.env.EMAIL_WEBHOOK_URL = `${appUrl}/api/email/webhook`;

  const envFile = join(ROOT, ".wrangler", `stack-${appPort}.env`);
  const vars = { ...localSecrets(), ...providerVars({ appUrl, sandboxUrl: sandbox.url }) };
  writeFileSync(
    envFile,
    `${Object.entries(vars)
      .map(([k, v]) => `${k}=${v}`)
      .join("\n")}\n`,
  );

  const inspectorPort = await freePort();
  let workerOutput = "";
  const startWorker = () => {
    const child = spawn(
      WRANGLER,
      [
        "dev",
        "--config",
        configFile,
        "--ip",
        "127.0.0.1",
        "--port",
        String(appPort),
        "--persist-to",
        persistTo,
        "--env-file",
        envFile,
        "--show-interactive-dev-session=false",
        "--inspector-port",
        String(inspectorPort),
        "--log-level",
        quiet ? "error" : "info",
      ],
      {
        cwd: ROOT,
        // Wrangler's local trace collector is off unless asked for (X_LOCAL_OBSERVABILITY=true): it writes every
        // request, D1 query and fetch to a SQLite file under the state directory, about 2 ms a request
        // (docs/decisions/065-local-trace-collector-off.md). Production logging is wrangler.toml's [observability].
        env: childEnv({ X_LOCAL_OBSERVABILITY: process.env.X_LOCAL_OBSERVABILITY ?? "false" }),
        stdio: ["ignore", quiet ? "pipe" : "inherit", quiet ? "pipe" : "inherit"],
        detached: true,
      },
    );
    child.stdout?.on("data", (chunk: Buffer) => (workerOutput = (workerOutput + chunk.toString()).slice(-20_000)));
    child.stderr?.on("data", (chunk: Buffer) => (workerOutput = (workerOutput + chunk.toString()).slice(-20_000)));
    return child;
  };
  let worker = startWorker();

  // `wrangler dev` does not fire cron triggers; fire ours on the same schedule (wrangler.toml [triggers]).
  const cron = setInterval(() => void triggerCron(appUrl), CRON_INTERVAL_MS);
  cron.unref();

  const stop = async () => {
    clearInterval(cron);
    await stopProcess(worker);
    await Promise.all([sandbox.close(), video.close()]);
  };

  /** Stops the worker (wrangler and its workerd) and starts it again on the same port and persisted state. */
  const restartWorker = async () => {
    await stopProcess(worker);
    worker = startWorker();
    try {
      await waitFor(`${appUrl}/api/health`, worker, 90_000);
    } catch (error) {
      throw new Error(`${(error as Error).message}\n--- wrangler output ---\n${workerOutput}`);
    }
  };

  try {
    await waitFor(`${appUrl}/api/health`, worker, 90_000);
    await waitFor(`${sandbox.url}/__sandbox/health`, null, 10_000);
    await waitFor(`${video.url}/health`, null, 30_000);
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\n--- wrangler output ---\n${workerOutput}`);
  }
  return { appUrl, sandboxUrl: sandbox.url, videoUrl: video.url, persistTo, stop, restartWorker, cron: () => triggerCron(appUrl) };
}

/** Fires the worker's cron trigger now, as Cloudflare would on its schedule (true when the worker took it). */
async function triggerCron(appUrl: string): Promise<boolean> {
  try {
    const response = await fetch(`${appUrl}/cdn-cgi/local/scheduled?cron=${encodeURIComponent(CRON)}`);
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}

async function waitFor(url: string, process: ChildProcess | null, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  let lastError = "";
  while (Date.now() < deadline) {
    if (process && process.exitCode !== null) throw new Error(`The process serving ${url} exited with ${process.exitCode}`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return;
      lastError = `status ${response.status}`;
    } catch (error) {
      lastError = String(error);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms (${lastError})`);
}

/** Stops a detached child and everything it started (wrangler starts workerd). */
function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return Promise.resolve();
  return new Promise((resolveStop) => {
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {}
    }, 5_000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolveStop();
    });
    try {
      process.kill(-child.pid!, "SIGTERM");
    } catch {
      clearTimeout(timer);
      resolveStop();
    }
  });
}
