// `npm run bench:faults`: the fault campaign. 10,000 scheduled pins over 20 Pinterest profiles
// through the stack as `npm start` runs it (wrangler dev on the built app: Durable Objects,
// alarms, the cron trigger; the sandbox as Pinterest), while:
//   - a seeded 20% of create-pin calls fail (sandbox `fault-rate`): 5xx, 429 with reset headers,
//     answers lost after the pin was created (connection broken, a 502/504, or an answer that
//     comes after the client gave up), expired tokens
//     and revoked tokens (the profile then needs reconnecting: the bench reconnects it as its
//     user would, through the OAuth pages, and opens its queue);
//   - alarms are re-run by force (the dev control `POST /api/dev/scheduling/rerunAlarm`, as an
//     alarm delivered twice) on a seeded choice of profiles, and the cron trigger fires every 20 s;
//   - the worker is restarted once mid-run (wrangler stopped and started again on the same
//     persisted state and port) while pins are due.
// Then it compares what our queues say with what the Pinterest stand-in recorded (a pin is
// identified by its title) and prints posted, lost, duplicated, failed and still-queued counts
// and pins per second, and the credits charged and history entries against the pins scheduled.
// Target: 0 lost, 0 duplicated, 0 charged twice (the exit code is 1 otherwise). Nothing is
// asserted on time.
//
// Options (environment): BENCH_PINS (10000), BENCH_PROFILES (20), BENCH_FAULT_RATE (0.2),
// BENCH_SEED ("pinboard-faults"), BENCH_SPREAD_SECONDS (pins fall due over this long, 60: faster than
// the engine posts, so pins per second is its throughput under faults),
// BENCH_RERUN_EVERY_MS (a forced alarm re-run this often, 1000), BENCH_DEADLINE_SECONDS (3600),
// BENCH_SKIP_BUILD=1 when build-bench/ is fresh.
//
// Pins are SpecificDate pins (they keep their time; Queue pacing does not apply), each with its
// own link (the 48-hour rule never refuses one), spread over four public boards per profile, so
// that no board gets more new pins between a lost answer and the look on the board than that
// look reads (decision 012).
import { rmSync } from "node:fs";
import { seededRandom, stableSeed } from "../workers/domain/random.ts";
import { startBenchStack } from "../scripts/stack.ts";

const PASSWORD = "Violet-Harbour-42!";
const PINS = Number(process.env.BENCH_PINS ?? 10_000);
const PROFILES = Number(process.env.BENCH_PROFILES ?? 20);
const FAULT_RATE = Number(process.env.BENCH_FAULT_RATE ?? 0.2);
const SEED = process.env.BENCH_SEED ?? "pinboard-faults";
const SPREAD_MS = Number(process.env.BENCH_SPREAD_SECONDS ?? 60) * 1000;
const RERUN_EVERY_MS = Number(process.env.BENCH_RERUN_EVERY_MS ?? 1000);
const DEADLINE_MS = Number(process.env.BENCH_DEADLINE_SECONDS ?? 3600) * 1000;
const CRON_EVERY_MS = 20_000;
/** The restart comes once this share of the pins is on Pinterest. */
const RESTART_AT = 0.4;
/** Pins per schedulePin call (the API takes up to 200). */
const BATCH = 100;
/** Create-pin faults and their weights (sandbox/providers/pinterest/fault-rate.ts). */
const FAULT_KINDS = { server_error: 3, rate_limited: 3, lost_answer: 3, error_after_create: 2, late_answer: 1, token_expired: 2, token_revoked: 1 };
/** A late answer comes after the client has given up (workers/integrations/pinterest.ts waits 15 s). */
const LATE_ANSWER_MS = 16_000;
const BOARD_INDEXES = [0, 1, 2, 4]; // the stand-in's 4th board is SECRET

/** The bench's own choices (which profile's alarm to re-run), from the seed. */
const random = seededRandom(stableSeed(SEED));

const { stack, stateDir } = await startBenchStack("faults");
const app = stack.appUrl;

interface Session {
  idToken: string;
  /** The session cookie the sign-up answer set (what a browser would carry through the OAuth callback). */
  cookie: string;
}

async function call<T>(path: string, session: Session | null, body?: unknown): Promise<T> {
  const response = await fetch(app + path, {
    method: body === undefined ? "GET" : "POST",
    headers: {
      "content-type": "application/json",
      "cf-connecting-ip": "198.51.100.10",
      origin: app,
      ...(session ? { authorization: `Bearer ${session.idToken}`, cookie: session.cookie } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(120_000),
  });
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

async function sandbox<T>(path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${stack.sandboxUrl}/__sandbox${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`sandbox ${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

/**
 * Connects (or reconnects) a sandbox Pinterest account the way a browser does: the state check,
 * the auto-approved consent page, then the callback carrying the user's session cookie.
 * Answers the account's boards.
 */
async function connect(session: Session, username: string): Promise<{ id: string; name: string }[]> {
  const started = await fetch(`${app}/api/pinterestAPI/recordPinterestStateCheck`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "cf-connecting-ip": "198.51.100.10",
      origin: app,
      authorization: `Bearer ${session.idToken}`,
      cookie: session.cookie,
    },
    body: JSON.stringify({ stateCheck: `bench-${crypto.randomUUID()}`, redirectUrl: "/scheduling" }),
  });
  if (!started.ok) throw new Error(`state check answered ${started.status}: ${await started.text()}`);
  const { authorizeUrl } = (await started.json()) as { authorizeUrl: string };
  // The callback must come back with the cookie the state check set (the connection is bound to this "browser").
  const binding = started.headers.getSetCookie().map((value) => value.split(";")[0]);
  const consent = await fetch(`${authorizeUrl}&auto_approve=1&username=${username}`, { redirect: "manual" });
  const back = new URL(consent.headers.get("location")!);
  const done = await fetch(`${app}${back.pathname}${back.search}`, { redirect: "manual", headers: { cookie: [session.cookie, ...binding].join("; ") } });
  if (!done.headers.get("location")?.includes("pinterestConnected=")) throw new Error(`connecting ${username} failed: ${done.headers.get("location")}`);
  const accounts = await sandbox<{ username: string; boards: { id: string; name: string }[] }[]>("/pinterest/accounts");
  return accounts.find((account) => account.username === username)!.boards;
}

interface QueuedPin {
  id: string;
  title: string;
  status: string;
  attempts: number;
  pinterestPinId: string | null;
  error: string | null;
}

interface SandboxPin {
  id: string;
  username: string;
  title: string | null;
  created_at: string;
}

async function queueOf(session: Session, username: string): Promise<QueuedPin[]> {
  const pins: QueuedPin[] = [];
  let lastPinId: string | undefined;
  for (;;) {
    const query = new URLSearchParams({ status: "all", ...(lastPinId ? { lastPinId } : {}) });
    const page = await call<{ scheduledPins: QueuedPin[] }>(`/api/scheduling/getScheduledPins/${username}?${query}`, session);
    pins.push(...page.scheduledPins);
    if (page.scheduledPins.length < 50) return pins;
    lastPinId = page.scheduledPins[page.scheduledPins.length - 1].id;
  }
}

/** Pins not posted yet and not failed, per profile (null when the worker did not answer). */
async function stillQueued(session: Session, usernames: string[]): Promise<number | null> {
  try {
    const counts = await Promise.all(
      usernames.map(async (username) => {
        const pending = await call<{ totalCount: number }>(`/api/scheduling/getScheduledPins/${username}?status=pending`, session);
        const failed = await call<{ totalCount: number }>(`/api/scheduling/getScheduledPins/${username}?status=failed`, session);
        return pending.totalCount - failed.totalCount;
      }),
    );
    return counts.reduce((a, b) => a + b, 0);
  } catch {
    return null;
  }
}

const seconds = (ms: number) => (ms / 1000).toFixed(1);
const say = (line: string) => console.log(line);
let exitCode = 0;

try {
  const started = Date.now();
  const signup = await fetch(`${app}/api/signup`, {
    method: "POST",
    headers: { "content-type": "application/json", "cf-connecting-ip": "198.51.100.10" },
    body: JSON.stringify({ email: `bench.faults.${Date.now()}@example.com`, password: PASSWORD, firstName: "Bench", lastName: "Faults" }),
  });
  if (!signup.ok) throw new Error(`signup answered ${signup.status}: ${await signup.text()}`);
  const cookie = (signup.headers.getSetCookie?.() ?? []).map((line) => line.split(";")[0]).join("; ");
  const session: Session = { idToken: ((await signup.json()) as { idToken: string }).idToken, cookie };
  // The credits live in the user's ledger object (decision 084): granted through the local stack's dev control.
  await call("/api/dev/credits/grant", session, { amount: PINS * 2 });

  const usernames = Array.from({ length: PROFILES }, (_, p) => `faults_${p}`);
  const boards = new Map<string, { id: string; name: string }[]>();
  for (const username of usernames)
    boards.set(
      username,
      (await connect(session, username)).filter((_, i) => BOARD_INDEXES.includes(i)),
    );
  await call(`/api/scheduling/getScheduledPins/${usernames[0]}`, session);

  say(
    `Fault campaign against ${app}: ${PINS} pins over ${PROFILES} profiles, ${Math.round(FAULT_RATE * 100)}% of create-pin calls faulted (seed ${JSON.stringify(SEED)})`,
  );
  await sandbox("/pinterest/fault-rate", { rate: FAULT_RATE, seed: SEED, kinds: FAULT_KINDS, delayMs: LATE_ANSWER_MS });

  // Schedule: pin j of each profile falls due at dueFrom + j * step, in rounds of BATCH pins per profile.
  const perProfile = Math.ceil(PINS / PROFILES);
  const step = SPREAD_MS / perProfile;
  const dueFrom = Date.now() + 20_000;
  const titles = new Map<string, string>(); // title -> username
  let scheduledCount = 0;
  const scheduleStarted = Date.now();
  for (let round = 0; round * BATCH < perProfile; round += 1) {
    for (const [p, username] of usernames.entries()) {
      const pins = [];
      const count = Math.floor(PINS / PROFILES) + (p < PINS % PROFILES ? 1 : 0);
      for (let j = round * BATCH; j < Math.min((round + 1) * BATCH, count); j += 1) {
        const board = boards.get(username)![j % BOARD_INDEXES.length];
        const title = `Fault campaign pin ${p}-${j}`;
        titles.set(title, username);
        pins.push({
          title,
          description: `Scheduled by bench:faults (profile ${p}, pin ${j}).`,
          altText: `Bench image ${p}-${j}`,
          url: `https://bench.example/faults/${p}/${j}`,
          imageURL: `https://bench.example/media/faults-${p}-${j}.jpeg`,
          boardId: board.id,
          boardName: board.name,
          pinterestProfileUsername: username,
          type: "SpecificDate",
          scheduledTime: Math.max(dueFrom + Math.round(j * step) + p * 7, Date.now() + 3_000),
        });
      }
      if (pins.length === 0) continue;
      await call("/api/scheduling/schedulePin", session, { pins });
      scheduledCount += pins.length;
    }
  }
  say(
    `scheduled ${scheduledCount} pins in ${seconds(Date.now() - scheduleStarted)} s; they fall due from ${new Date(dueFrom).toISOString()} over ${seconds(SPREAD_MS)} s`,
  );

  // The run: forced alarm re-runs, the cron, reconnecting revoked profiles, one restart.
  let running = true;
  let restarting = false;
  let restarted = false;
  let reruns = 0;
  let rerunsRefused = 0;
  let crons = 0;
  let reconnects = 0;
  const background: Promise<unknown>[] = [];
  const loop = (everyMs: number, work: () => Promise<void>) =>
    background.push(
      (async () => {
        while (running) {
          await new Promise((resolve) => setTimeout(resolve, everyMs));
          if (!running || restarting) continue;
          await work().catch(() => {});
        }
      })(),
    );
  loop(RERUN_EVERY_MS, async () => {
    const username = usernames[Math.floor(random() * usernames.length)];
    // Not awaited by the loop: a re-run may overlap the next one and the alarm itself.
    background.push(
      call("/api/dev/scheduling/rerunAlarm", session, { pinterestProfileUsername: username }).then(
        () => (reruns += 1),
        () => (rerunsRefused += 1),
      ),
    );
  });
  loop(CRON_EVERY_MS, async () => {
    if (await stack.cron()) crons += 1;
  });
  loop(1_000, async () => {
    const { failingPinterestProfiles } = await call<{ failingPinterestProfiles: { username: string; status: string }[] }>(
      "/api/pinterestAPI/failingPinterestProfiles",
      session,
    );
    for (const failing of failingPinterestProfiles.filter((profile) => profile.status === "reauth")) {
      await connect(session, failing.username);
      // The scheduling page the callback lands on lists the queue, which resumes it.
      await call(`/api/scheduling/getScheduledPins/${failing.username}`, session);
      reconnects += 1;
    }
  });

  let onPinterest = 0;
  let lastReport = Date.now();
  let queued: number | null = scheduledCount;
  while (Date.now() - started < DEADLINE_MS) {
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    onPinterest = (await sandbox<SandboxPin[]>("/pinterest/pins")).length;
    if (!restarted && onPinterest >= RESTART_AT * scheduledCount) {
      restarted = true;
      restarting = true;
      const stopAt = Date.now();
      say(`restarting the worker with ${onPinterest} pins on Pinterest ...`);
      await stack.restartWorker();
      restarting = false;
      say(`the worker is back after ${seconds(Date.now() - stopAt)} s`);
    }
    if (Date.now() - lastReport >= 15_000) {
      lastReport = Date.now();
      queued = await stillQueued(session, usernames);
      say(
        `  ${seconds(Date.now() - dueFrom)} s after the first due time: ${onPinterest} pins on Pinterest, ${queued ?? "?"} queued, ${reruns} forced re-runs, ${reconnects} reconnects`,
      );
    }
    if (restarted && Date.now() > dueFrom + SPREAD_MS) {
      queued = await stillQueued(session, usernames);
      if (queued === 0) break;
    }
  }
  running = false;
  await Promise.allSettled(background);
  const finished = Date.now();

  // Compare our queues with what Pinterest recorded.
  const copies = new Map<string, SandboxPin[]>();
  const sandboxPins = await sandbox<SandboxPin[]>("/pinterest/pins");
  for (const pin of sandboxPins) copies.set(pin.title ?? "", [...(copies.get(pin.title ?? "") ?? []), pin]);
  let posted = 0;
  let lost = 0;
  let failed = 0;
  let failedButPosted = 0;
  let stillInQueue = 0;
  let wrongId = 0;
  let retried = 0;
  const lostTitles: string[] = [];
  const seen = new Set<string>();
  for (const username of usernames) {
    for (const pin of await queueOf(session, username)) {
      seen.add(pin.title);
      const found = copies.get(pin.title) ?? [];
      if (pin.attempts > 1) retried += 1;
      if (pin.status === "posted") {
        if (found.length === 0) {
          lost += 1;
          lostTitles.push(`${pin.title} (posted as ${pin.pinterestPinId}, not on Pinterest)`);
        } else {
          posted += 1;
          if (!found.some((copy) => copy.id === pin.pinterestPinId)) wrongId += 1;
        }
      } else if (pin.status === "failed") {
        failed += 1;
        if (found.length > 0) failedButPosted += 1;
      } else stillInQueue += 1;
    }
  }
  for (const [title] of titles) {
    if (!seen.has(title) && !copies.get(title)?.length) {
      lost += 1;
      lostTitles.push(`${title} (gone from the queue)`);
    }
  }
  const duplicated = [...copies.entries()].filter(([title, found]) => titles.has(title) && found.length > 1);
  const created = sandboxPins.map((pin) => Date.parse(pin.created_at)).sort((a, b) => a - b);
  const postingSeconds = created.length > 0 ? (created[created.length - 1] - dueFrom) / 1000 : Number.NaN;
  const plans = await sandbox<{ seen: number; injected: Record<string, number> }[]>("/pinterest/fault-rate");
  const injected = plans[0]?.injected ?? {};
  const faults = Object.values(injected).reduce((a, b) => a + b, 0);

  // Charged once each (decision 084: the spend and its history entry are one transaction of the user's ledger).
  const credits = await call<{ usedPinCredits: number }>("/api/user/credits", session);
  const chargedTwice = Math.max(0, credits.usedPinCredits - scheduledCount);
  const entries = new Map<string, number>();
  let cursor: { startAtDate: number | null; lastId?: string } = { startAtDate: null };
  for (;;) {
    const { pinHistory } = await call<{ pinHistory: { id: string; title: string; createdAtUTCTimestamp: number }[] }>(
      "/api/user/getPinHistory",
      session,
      cursor,
    );
    for (const entry of pinHistory) entries.set(entry.title, (entries.get(entry.title) ?? 0) + 1);
    if (pinHistory.length === 0) break;
    const last = pinHistory[pinHistory.length - 1];
    cursor = { startAtDate: last.createdAtUTCTimestamp, lastId: last.id };
  }
  const doubledEntries = [...entries.values()].filter((n) => n > 1).length;
  const missingEntries = [...titles.keys()].filter((title) => !entries.has(title)).length;

  say("");
  say(`scheduled:     ${scheduledCount} pins on ${PROFILES} profiles`);
  say(`posted:        ${posted} (on Pinterest once each${wrongId ? `; ${wrongId} recorded with another copy's id` : ""})`);
  say(`lost:          ${lost}`);
  say(`duplicated:    ${duplicated.length} (${duplicated.reduce((sum, [, found]) => sum + found.length - 1, 0)} extra copies on Pinterest)`);
  say(`failed:        ${failed} (visible with their reason${failedButPosted ? `; ${failedButPosted} of them are on Pinterest all the same` : ""})`);
  say(`still queued:  ${stillInQueue}`);
  say(
    `charged twice: ${chargedTwice} (${credits.usedPinCredits} credits used for ${scheduledCount} pins; history: ${entries.size} entries, ${doubledEntries} doubled, ${missingEntries} missing)`,
  );
  const ninety = created[Math.ceil(created.length * 0.9) - 1];
  say(
    `pins per second: ${(sandboxPins.length / postingSeconds).toFixed(1)} (${sandboxPins.length} pins on Pinterest, the last ${postingSeconds.toFixed(1)} s after the first due time; due over ${seconds(SPREAD_MS)} s)`,
  );
  if (ninety !== undefined)
    say(
      `                 ${((created.length * 0.9) / ((ninety - dueFrom) / 1000)).toFixed(1)} until 90% were on Pinterest (${seconds(ninety - dueFrom)} s; the rest wait out retry backoffs)`,
    );
  say(
    `faults injected: ${faults} of ${plans[0]?.seen ?? 0} create-pin calls (${Object.entries(injected)
      .map(([kind, n]) => `${kind} ${n}`)
      .join(", ")})`,
  );
  say(
    `also: ${retried} pins needed more than one attempt, ${reruns} forced alarm re-runs (${rerunsRefused} not answered), ${crons} cron triggers, ${reconnects} reconnects after revoked tokens, ${restarted ? 1 : 0} worker restart`,
  );
  say(`run time: ${seconds(finished - started)} s${Date.now() - started >= DEADLINE_MS ? " (stopped at the deadline)" : ""}`);
  if (lost > 0 || duplicated.length > 0 || chargedTwice > 0 || doubledEntries > 0 || missingEntries > 0) {
    exitCode = 1;
    for (const title of lostTitles.slice(0, 20)) say(`!! lost: ${title}`);
    for (const [title, found] of duplicated.slice(0, 20)) say(`!! duplicated: ${title} x${found.length} (${found.map((copy) => copy.id).join(", ")})`);
  }
} finally {
  await stack.stop();
  rmSync(stateDir, { recursive: true, force: true });
}
process.exit(exitCode);
