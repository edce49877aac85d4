// `npm run bench:hot-paths` (issue 38's constraint): the hot per-pin calls of this checkout beside another checkout's
// (BENCH_BASE: a directory holding the code to compare, with node_modules, such as a git worktree of the commit
// before a change), each started the way `npm start` starts it, measured in ONE run: the two stacks take turns
// call by call, so the machine's load falls on both alike. Calls: the credits meter, the pin history's first page,
// scheduling one pin, charging a download, each as a user with a connected profile and a few hundred pins of
// history. Prints p50/p99 of each side and the ratio of p50s (target: this checkout within 20% of the base).
// BENCH_ROUNDS (200) calls of each kind per side; BENCH_SKIP_BUILD=1 when both builds are fresh. Figures only.
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { freePort, startStack } from "../scripts/stack.ts";
import { LOCAL_ADMIN } from "../workers/db/admin-accounts.ts";
import { connectBenchProfile, type BenchBoard } from "./bench-pinterest.ts";
import { BENCH_PASSWORD } from "./bench-session.ts";

const BASE = process.env.BENCH_BASE;
if (!BASE) throw new Error("BENCH_BASE must name a checkout to compare with (a git worktree with node_modules)");
const ROUNDS = Math.max(5, Number(process.env.BENCH_ROUNDS ?? 200));
const HISTORY = 300;

type StartStack = typeof startStack;
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};

interface Side {
  name: string;
  stack: Awaited<ReturnType<StartStack>>;
  dir: string;
  token: string;
  username: string;
  board: BenchBoard;
  times: Record<string, number[]>;
}

async function call<T>(side: Pick<Side, "stack">, token: string | null, path: string, body?: unknown): Promise<{ ms: number; body: T }> {
  const started = performance.now();
  const response = await fetch(side.stack.appUrl + path, {
    method: body === undefined ? "GET" : "POST",
    headers: { "content-type": "application/json", "cf-connecting-ip": "198.51.100.9", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const ms = performance.now() - started;
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${text.slice(0, 300)}`);
  return { ms, body: JSON.parse(text) as T };
}

async function side(name: string, root: string): Promise<Side> {
  const { startStack: start, freePort: port } = (await import(join(resolve(root), "scripts", "stack.ts"))) as {
    startStack: StartStack;
    freePort: typeof freePort;
  };
  const dir = mkdtempSync(join(tmpdir(), `pinboard-bench-hot-${name}-`));
  const stack = await start({
    buildDir: "build-bench",
    appPort: await port(),
    sandboxPort: 0,
    videoPort: 0,
    persistTo: dir,
    build: !process.env.BENCH_SKIP_BUILD,
    quiet: true,
  });
  const partial = { stack };
  const email = `hot.${name}.${Date.now()}@example.com`;
  const { body: signedUp } = await call<{ idToken: string }>(partial, null, "/api/signup", {
    email,
    password: BENCH_PASSWORD,
    firstName: "Hot",
    lastName: "Paths",
    leadSource: "Pinterest",
  });
  const token = signedUp.idToken;
  const { body: me } = await call<{ credentials: { userId: string } }>(partial, token, "/api/user");
  // Credits through the admin's grant, which both checkouts have.
  const { body: admin } = await call<{ idToken: string }>(partial, null, "/api/login", { email: LOCAL_ADMIN.email, password: LOCAL_ADMIN.password });
  await call(partial, admin.idToken, `/api/admin/users/${me.credentials.userId}/credits`, {
    amount: 10_000,
    reason: "hot-path benchmark",
    reference: crypto.randomUUID(),
  });
  const username = `hot_${name}_${Date.now().toString(36)}`.slice(0, 30);
  const board = await connectBenchProfile(stack, token, username);
  const s: Side = { name, stack, dir, token, username, board, times: {} };
  // A history of a few hundred pins, as a user who has used the app a while.
  for (let i = 0; i < HISTORY; i += 50) await call(s, token, "/api/scheduling/schedulePin", { pins: Array.from({ length: 50 }, (_, k) => pin(s, i + k)) });
  return s;
}

function pin(s: Side, n: number) {
  return {
    title: `Hot path pin ${n}`,
    description: `A pin the hot-path benchmark schedules (${n}).`,
    url: `https://hot.example/${s.name}/${n}/${crypto.randomUUID()}`,
    imageURL: `https://hot.example/media/${n}.jpeg`,
    boardId: s.board.id,
    boardName: s.board.name,
    pinterestProfileUsername: s.username,
    type: "SpecificDate",
    // A month out: nothing posts during the run.
    scheduledTime: Date.now() + 30 * 86_400_000 + n * 60_000,
  };
}

const CALLS: { name: string; run(s: Side, n: number): Promise<{ ms: number }> }[] = [
  { name: "credits meter", run: (s) => call(s, s.token, "/api/user/credits") },
  { name: "pin history, first page", run: (s) => call(s, s.token, "/api/user/getPinHistory", { startAtDate: null }) },
  { name: "schedule one pin", run: (s, n) => call(s, s.token, "/api/scheduling/schedulePin", pin(s, 10_000 + n)) },
  {
    name: "charge a download",
    run: (s, n) =>
      call(s, s.token, "/api/scraping/addPinHistoryAndAdjustCredits", {
        pinDetails: { action: "downloaded", title: `Downloaded ${n}`, description: "", url: "https://hot.example/", imageUrl: "https://hot.example/a.jpeg" },
        category: "image",
      }),
  },
];

const sides: Side[] = [];
let exitCode = 0;
try {
  console.log(
    `Hot paths: this checkout beside ${BASE}, ${ROUNDS} calls of each kind per side, taking turns; load ${loadavg()
      .map((n) => n.toFixed(2))
      .join(", ")}`,
  );
  sides.push(await side("base", BASE), await side("this", process.cwd()));
  for (let n = 0; n < ROUNDS; n++) {
    for (const kind of CALLS) {
      // The order alternates, so neither side always goes first.
      for (const s of n % 2 === 0 ? sides : [...sides].reverse()) (s.times[kind.name] ??= []).push((await kind.run(s, n)).ms);
    }
  }
  console.log("");
  console.log("call                        base p50 / p99      this p50 / p99      ratio of p50 (target <= 1.20)");
  for (const kind of CALLS) {
    const [base, mine] = sides.map((s) => s.times[kind.name]);
    const ratio = percentile(mine, 50) / percentile(base, 50);
    console.log(
      `${kind.name.padEnd(27)} ${percentile(base, 50).toFixed(1).padStart(7)} / ${percentile(base, 99).toFixed(1).padEnd(9)} ${percentile(mine, 50).toFixed(1).padStart(7)} / ${percentile(mine, 99).toFixed(1).padEnd(9)} ${ratio.toFixed(2)}`,
    );
  }
  console.log(
    `load ${loadavg()
      .map((n) => n.toFixed(2))
      .join(", ")}`,
  );
} catch (error) {
  exitCode = 1;
  console.error(error);
} finally {
  for (const s of sides) {
    await s.stack.stop();
    rmSync(s.dir, { recursive: true, force: true });
  }
}
process.exit(exitCode);
