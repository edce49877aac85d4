// The workerd share of `npm run bench:fuzz` (decision 078): scraped HTML (HTMLRewriter exists only in workerd) and
// font uploads (measured against workerd's zlib: Node's keeps 16 KB of every damaged stream). The readers run in
// bench/fuzz-workerd.workerd.ts, bundled by wrangler as the app is, in one workerd per campaign started
// through Miniflare and posted to straight, not through Miniflare's entry Worker. Node makes each case's page and
// posts it; the time of a case is the CPU time workerd's threads spent on it (from /proc, so other processes of a
// busy machine do not count). Memory: the isolate's JavaScript heap after a collection (read through the inspector),
// and workerd's resident set.
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { freePort, ROOT } from "../scripts/process.ts";
import type { Target } from "../test/fuzz/campaign.ts";
import { inspect } from "./inspector.ts";
import { bundleBenchWorker } from "./render-workerd.ts";

/** The child process of this one named `name`, started last. */
function childProcess(name: string): number | null {
  const children = readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
        const [, parent] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        return Number(parent) === process.pid && readFileSync(`/proc/${pid}/comm`, "utf8").trim() === name;
      } catch {
        return false;
      }
    })
    .map(Number);
  return children.length ? Math.max(...children) : null;
}

/** Milliseconds of CPU time all of a process's threads have run (schedstat: nanoseconds). */
function cpuMilliseconds(pid: number): number {
  let total = 0;
  for (const thread of readdirSync(`/proc/${pid}/task`)) {
    try {
      total += Number(readFileSync(`/proc/${pid}/task/${thread}/schedstat`, "utf8").split(" ")[0]);
    } catch {
      /* the thread ended */
    }
  }
  return total / 1e6;
}

function residentBytes(pid: number): number {
  const kilobytes = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return Number(kilobytes ?? 0) * 1024;
}

/**
 * Posts a case to the harness. A connection that fails before any answer (Node reusing a kept-alive socket
 * just as workerd closed it: "fetch failed") is the harness's, not the reader's: it is posted once more on a
 * fresh connection, and said. workerd still running and answering the second time is what tells them apart:
 * a reader that brought workerd down fails both.
 */
async function post(url: URL, bytes: Uint8Array): Promise<Response> {
  try {
    return await fetch(url, { method: "POST", body: bytes.slice() });
  } catch (error) {
    process.stderr.write(`  the harness's connection failed (${String(error)}); the case is posted again\n`);
    return fetch(url, { method: "POST", body: bytes.slice(), headers: { connection: "close" } });
  }
}

/**
 * `cases` (a target's name, seeds and mutators) with its reader in a workerd of its own, at `path` of
 * fuzz-workerd.workerd.ts (/html, /font); `close` stops it.
 */
export async function targetInWorkerd(cases: Omit<Target, "run">, path: "/html" | "/font"): Promise<Target & { close(): Promise<void> }> {
  // One output folder per campaign: bench:fuzz runs two at a time.
  const outdir = join(ROOT, ".wrangler", `bench-fuzz-workerd-${process.pid}`);
  const modules = await bundleBenchWorker({ config: "wrangler.fuzz-workerd.toml", entry: "fuzz-workerd.workerd.js", outdir });
  const inspectorPort = await freePort();
  // V8's collector exposed in workerd (Miniflare passes these flags on), for the heap measured after a collection.
  process.env.MINIFLARE_WORKERD_V8_FLAGS = "--expose-gc";
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      modules,
      modulesRoot: outdir,
      compatibilityDate: "2026-10-01",
      compatibilityFlags: ["nodejs_compat"],
      // Straight to the Worker, not through Miniflare's entry Worker: that cost 3 ms of workerd's CPU a request.
      unsafeDirectSockets: [{ host: "127.0.0.1", port: 0 }],
      inspectorPort,
    }),
  );
  await mf.ready;
  const url = await mf.unsafeGetDirectURL();
  const workerd = childProcess("workerd");
  if (!workerd) throw new Error("no workerd process under this one: /proc is needed for the CPU time of a case");
  const inspector = await inspect(inspectorPort, /core:user:/);
  return {
    ...cases,
    async run(bytes) {
      const response = await post(new URL(path, url), bytes);
      const answer = (await response.json()) as { outcome?: "accepted" | "refused"; error?: { trap: boolean; message: string } };
      if (answer.outcome) return answer.outcome;
      const message = answer.error?.message ?? `workerd answered ${response.status}`;
      throw answer.error?.trap ? new WebAssembly.RuntimeError(message) : new Error(message);
    },
    clock: () => cpuMilliseconds(workerd),
    async memory() {
      const collected = await fetch(new URL("/collect-garbage", url));
      if (collected.status !== 204) throw new Error("workerd did not expose V8's collector (MINIFLARE_WORKERD_V8_FLAGS)");
      const { usedSize } = await inspector.send<{ usedSize: number }>("Runtime.getHeapUsage");
      return { "workerd JavaScript heap": usedSize, "workerd process": residentBytes(workerd) };
    },
    async close() {
      inspector.close();
      await mf.dispose();
      rmSync(outdir, { recursive: true, force: true });
    },
  };
}
