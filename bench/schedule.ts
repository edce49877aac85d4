// `npm run bench:schedule`: the scheduling engine against a stack started the
// way `npm start` starts it (free ports, fresh local state), with the sandbox as
// Pinterest. Prints:
//   (a) bulk-scheduling 1,000 pins into one profile's queue in 5 calls of 200 (target < 3 s end to end);
//   (b) with 10,000 pins queued, GET getScheduledPins (a page of 50): p50/p95 over 50 requests (target p50 < 30 ms);
//   (c) 200 pins falling due at once on a second profile: how fast they are posted, and how many (must be 200).
// For (c) the pins are SpecificDate pins due 2 s after scheduling: SpecificDate pins keep their time and are not
// paced by postingIntervalInSeconds (which spaces Queue pins), so the run measures the engine's posting speed.
// The bench user is given 20,000 credits with a ledger grant row (`wrangler d1 execute` on the bench's state).
// Figures only: nothing here asserts a time. Set BENCH_SKIP_BUILD=1 when build/ is fresh.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, ROOT, run, startStack } from "../scripts/stack.ts";

const PASSWORD = "Violet-Harbour-42!";
const LIST_REQUESTS = Number(process.env.BENCH_LIST_REQUESTS ?? 50);
const DUE_PINS = 200;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};

const stateDir = mkdtempSync(join(tmpdir(), "pinboard-bench-schedule-"));
const stack = await startStack({ appPort: await freePort(), sandboxPort: 0, videoPort: 0, persistTo: stateDir, build: !process.env.BENCH_SKIP_BUILD, quiet: true });
const app = stack.appUrl;

async function call<T>(path: string, token: string | null, body?: unknown): Promise<T> {
  const response = await fetch(app + path, {
    method: body === undefined ? "GET" : "POST",
    headers: { "content-type": "application/json", "cf-connecting-ip": "198.51.100.9", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

/**
 * Connects a sandbox Pinterest account (auto-approved consent) the way a browser does, carrying the
 * cookie the state check sets to the callback, and answers its first board.
 */
async function connect(token: string, username: string): Promise<{ id: string; name: string }> {
  const started = await fetch(`${app}/api/pinterestAPI/recordPinterestStateCheck`, {
    method: "POST",
    headers: { "content-type": "application/json", "cf-connecting-ip": "198.51.100.9", authorization: `Bearer ${token}` },
    body: JSON.stringify({ stateCheck: `bench-${crypto.randomUUID()}`, redirectUrl: "/scheduling" }),
  });
  if (!started.ok) throw new Error(`state check answered ${started.status}: ${await started.text()}`);
  const { authorizeUrl } = (await started.json()) as { authorizeUrl: string };
  const cookie = started.headers.getSetCookie().map((value) => value.split(";")[0]).join("; ");
  const consent = await fetch(`${authorizeUrl}&auto_approve=1&username=${username}`, { redirect: "manual" });
  const back = new URL(consent.headers.get("location")!);
  const done = await fetch(`${app}${back.pathname}${back.search}`, { redirect: "manual", headers: { cookie } });
  if (!done.headers.get("location")?.includes("pinterestConnected=")) throw new Error(`connecting ${username} failed: ${done.headers.get("location")}`);
  const accounts = (await (await fetch(`${stack.sandboxUrl}/__sandbox/pinterest/accounts`)).json()) as { username: string; boards: { id: string; name: string }[] }[];
  return accounts.find((account) => account.username === username)!.boards[0];
}

let serial = 0;
function pin(username: string, board: { id: string; name: string }, fields: Record<string, unknown> = {}) {
  serial += 1;
  return {
    title: `Bench pin ${serial}`,
    description: `A pin scheduled by the benchmark (${serial}).`,
    altText: `Bench image ${serial}`,
    url: `https://bench.example/posts/${serial}`,
    imageURL: `https://bench.example/media/${serial}.jpeg`,
    boardId: board.id,
    boardName: board.name,
    pinterestProfileUsername: username,
    type: "Queue",
    ...fields,
  };
}

async function scheduleBatches(token: string, username: string, board: { id: string; name: string }, total: number): Promise<number[]> {
  const times: number[] = [];
  for (let done = 0; done < total; done += 200) {
    const started = performance.now();
    await call("/api/scheduling/schedulePin", token, { pins: Array.from({ length: Math.min(200, total - done) }, () => pin(username, board)) });
    times.push(performance.now() - started);
  }
  return times;
}

try {
  const email = `bench.schedule.${Date.now()}@example.com`;
  const { idToken } = await call<{ idToken: string }>("/api/signup", null, { email, password: PASSWORD, firstName: "Bench", lastName: "Scheduler" });
  const { credentials } = await call<{ credentials: { userId: string } }>("/api/user", idToken);
  await run(
    join(ROOT, "node_modules", ".bin", "wrangler"),
    [
      "d1", "execute", "DB", "--local", "--persist-to", stateDir, "--yes", "--command",
      `INSERT INTO credit_ledger (id, user_id, amount, category, reason, reference, created_at) VALUES ('${crypto.randomUUID()}', '${credentials.userId}', 20000, 'grant', 'benchmark grant', 'bench-grant', ${Date.now()})`,
    ],
    { quiet: true },
  );

  const queueProfile = `bench_queue_${Date.now().toString(36)}`;
  const queueBoard = await connect(idToken, queueProfile);
  // 100 pins a day in one 3-hour window that opens two hours from now (GMT): the queue does not start posting during the run.
  const windowStart = Math.floor(((Math.floor((Date.now() % 86_400_000) / 1000) + 7_200) % 86_400) / 60) * 60;
  await call("/api/scheduling/saveSchedulingSettings", idToken, {
    newSettings: { numberOfPinsPerDay: 100, postingIntervalInSeconds: 60, windowOneTimes: [windowStart, (windowStart + 10_800) % 86_400], windowTwoTimes: null },
    pinterestProfileUsername: queueProfile,
  });
  // Warm up the worker and the profile's Durable Object.
  await call(`/api/scheduling/getScheduledPins/${queueProfile}`, idToken);

  // (a) 1,000 pins in 5 calls.
  const started = performance.now();
  const calls = await scheduleBatches(idToken, queueProfile, queueBoard, 1_000);
  const bulkMs = performance.now() - started;
  console.log(`Scheduling benchmark against ${app}\n`);
  console.log(`(a) bulk-schedule 1,000 pins (5 calls of 200): ${bulkMs.toFixed(0)} ms end to end (calls: ${calls.map((ms) => ms.toFixed(0)).join(", ")} ms)`);

  // (b) fill the queue to 10,000 and list it.
  const fillStarted = performance.now();
  await scheduleBatches(idToken, queueProfile, queueBoard, 9_000);
  const fillMs = performance.now() - fillStarted;
  const first = await call<{ totalCount: number; scheduledPins: { id: string }[] }>(`/api/scheduling/getScheduledPins/${queueProfile}`, idToken);
  const deepCursor = (await call<{ scheduledPins: { id: string }[] }>(`/api/scheduling/getScheduledPins/${queueProfile}?sortBy=scheduledTimeUTCTimestamp-desc`, idToken)).scheduledPins[25].id;
  const firstPage: number[] = [];
  const cursorPage: number[] = [];
  for (let i = 0; i < LIST_REQUESTS; i += 1) {
    let t = performance.now();
    await call(`/api/scheduling/getScheduledPins/${queueProfile}`, idToken);
    firstPage.push(performance.now() - t);
    t = performance.now();
    await call(`/api/scheduling/getScheduledPins/${queueProfile}?lastPinId=${deepCursor}&sortBy=scheduledTimeUTCTimestamp-desc`, idToken);
    cursorPage.push(performance.now() - t);
  }
  console.log(`(b) queue of ${first.totalCount} pins (the last 9,000 scheduled in ${(fillMs / 1000).toFixed(1)} s); a page of 50 over ${LIST_REQUESTS} requests:`);
  console.log(`    first page:      p50 ${percentile(firstPage, 50).toFixed(1)} ms, p95 ${percentile(firstPage, 95).toFixed(1)} ms`);
  console.log(`    page by cursor:  p50 ${percentile(cursorPage, 50).toFixed(1)} ms, p95 ${percentile(cursorPage, 95).toFixed(1)} ms`);

  // (c) 200 pins due at once on a second profile.
  const postProfile = `bench_post_${Date.now().toString(36)}`;
  const postBoard = await connect(idToken, postProfile);
  const dueAt = Date.now() + 2_000;
  await call("/api/scheduling/schedulePin", idToken, { pins: Array.from({ length: DUE_PINS }, () => pin(postProfile, postBoard, { type: "SpecificDate", scheduledTime: dueAt })) });
  const deadline = Date.now() + 120_000;
  let posted: { created_at: string }[] = [];
  while (Date.now() < deadline) {
    posted = (await (await fetch(`${stack.sandboxUrl}/__sandbox/pinterest/pins?username=${postProfile}`)).json()) as { created_at: string }[];
    if (posted.length >= DUE_PINS) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const created = posted.map((p) => Date.parse(p.created_at)).sort((a, b) => a - b);
  const seconds = created.length > 0 ? (created[created.length - 1] - dueAt) / 1000 : NaN;
  const queue = await call<{ totalCount: number }>(`/api/scheduling/getScheduledPins/${postProfile}?status=posted`, idToken);
  console.log(
    `(c) ${DUE_PINS} pins due at once: ${posted.length} posted (${queue.totalCount} recorded as posted) in ${seconds.toFixed(2)} s from their due time: ${(posted.length / seconds).toFixed(0)} pins/s` +
      (created.length > 0 ? ` (first ${((created[0] - dueAt) / 1000).toFixed(2)} s after due)` : ""),
  );
  if (posted.length !== DUE_PINS) console.log(`    !! expected ${DUE_PINS} pins on Pinterest, found ${posted.length}`);
} finally {
  await stack.stop();
  rmSync(stateDir, { recursive: true, force: true });
}
