// `npm run bench`: loads `/` (a server-rendered page) and `/api/health` (a Hono
// route with a D1 query) at a fixed concurrency and prints requests per second
// and latency percentiles. Against BENCH_URL when set, otherwise against a stack
// started here the way `npm start` starts it (on free ports, fresh local state).
import autocannon from "autocannon";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../scripts/process.ts";
import { BENCH_BUILD_DIR, startStack } from "../scripts/stack.ts";

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

async function load(url: string) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx answers and ${result.errors} errors during the run`);
  }
  return {
    path: new URL(url).pathname,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
  };
}

let baseUrl = process.env.BENCH_URL;
let stop: (() => Promise<void>) | undefined;
let stateDir: string | undefined;
if (!baseUrl) {
  stateDir = mkdtempSync(join(tmpdir(), "pinboard-bench-"));
  const stack = await startStack({ buildDir: BENCH_BUILD_DIR, appPort: await freePort(), sandboxPort: 0, videoPort: 0, persistTo: stateDir, quiet: true });
  baseUrl = stack.appUrl;
  stop = stack.stop;
}

try {
  // Warm up the worker (module load, first D1 connection) before measuring.
  for (const path of ["/", "/api/health"]) await fetch(baseUrl + path).then((r) => r.arrayBuffer());
  console.log(`HTTP benchmark against ${baseUrl}: ${CONNECTIONS} concurrent connections, ${SECONDS} s per route\n`);
  console.log("route          req/s     p50 ms   p99 ms   requests");
  for (const path of ["/", "/api/health"]) {
    const r = await load(baseUrl + path);
    console.log(
      `${r.path.padEnd(12)} ${r.requestsPerSecond.toFixed(0).padStart(7)} ${String(r.p50).padStart(9)} ${String(r.p99).padStart(8)} ${String(r.total).padStart(10)}`,
    );
  }
} finally {
  await stop?.();
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
}
