// `npm run bench:fleet` (issue 38, decision 084): does D1 grow per user and not per pin?
// Against stacks started the way `npm start` starts one (free ports, fresh local state; see BENCH_STACKS below):
//   1. BENCH_USERS users (2,000) sign up, get credits (the dev control) and connect a Pinterest profile each;
//      one more account per stack stays empty (the reference for reads), and one empty account for every 4 x CONCURRENCY
//      users a day is made with them (its objects as old as theirs) to make one first day beside the fleet.
//   2. A week, time compressed: each simulated day every user schedules BENCH_PINS_PER_DAY pins (30, one call,
//      due a minute later, so they post that "day"), downloads BENCH_DOWNLOADS_PER_DAY pins (1, rendered with a
//      plain template), and reads their credits and the first page of their pin history. The users go
//      BENCH_CONCURRENCY (8) at a time; between users, the empty account makes the same calls, so both meet the
//      same load.
//   3. Waits until every pin is on the Pinterest stand-in, then reads the sizes of the stores from the local
//      state: D1's SQLite file, the UserLedger objects' files, the ProfileScheduler objects', and R2's blobs
//      (used pages: page_count less freelist_count, times page_size; R2: the bytes of its blob files).
// Prints D1 bytes per pin (target 0) and per user, Durable Object bytes per user per day, R2 bytes per pin,
// p50/p99 of each call for the fleet and for the empty account with their ratio (target within 20%), and the day
// one D1 database (10 GB) would be full at 100,000 users: with what D1 grows per pin and per user now, and with the
// old layout's 1.85 KB per pin kept (docs/scale.md). Figures only: nothing here asserts a time.
// The users are spread over BENCH_STACKS stacks (one per 500 users): a local stack is one workerd process, which keeps
// every live Durable Object's SQLite file open (the file, its -wal and -shm: 3 descriptors), and this machine allows a
// process 20,000 open files, which 2,000 users' 4,000 objects passed on their first day ("Too many open files", then
// SQLITE_CANTOPEN and D1 "internal error" until the worker stopped answering). In production the objects are spread
// over Cloudflare's machines; here each stack holds its share. The stores' sizes and the pins are summed over stacks.
// BENCH_SKIP_BUILD=1 when build-bench/ is fresh; BENCH_VERBOSE=1 shows the workers' logs.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { freePort, type Stack, BENCH_BUILD_DIR, startStack } from "../scripts/stack.ts";
import { connectBenchProfile, type BenchBoard } from "./bench-pinterest.ts";
import { BENCH_PASSWORD } from "./bench-session.ts";

const USERS = Math.max(1, Number(process.env.BENCH_USERS ?? 2_000));
const DAYS = Math.max(1, Number(process.env.BENCH_DAYS ?? 7));
const PINS_PER_DAY = Math.max(1, Number(process.env.BENCH_PINS_PER_DAY ?? 30));
const DOWNLOADS_PER_DAY = Math.max(0, Number(process.env.BENCH_DOWNLOADS_PER_DAY ?? 1));
const CONCURRENCY = Math.max(1, Number(process.env.BENCH_CONCURRENCY ?? 8));
const STACKS = Math.max(1, Number(process.env.BENCH_STACKS ?? Math.ceil(USERS / 500)));
/** What one pin wrote to D1 before decision 084 (history 1,180 B, spend 371 B, render record 300 B; docs/scale.md). */
const OLD_D1_BYTES_PER_PIN = 1_851;
const D1_LIMIT = 10 * 1024 ** 3;
const FLEET_AT = 100_000;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};
const say = (line: string) => console.log(line);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** One local stack (worker, stand-ins, video service) and its state directory. */
interface FleetStack extends Stack {
  index: number;
  stateDir: string;
}
const stacks: FleetStack[] = [];
for (let s = 0; s < STACKS; s++) {
  const stateDir = mkdtempSync(join(tmpdir(), "pinboard-bench-fleet-"));
  const started = await startStack({
    buildDir: BENCH_BUILD_DIR,
    appPort: await freePort(),
    sandboxPort: 0,
    videoPort: 0,
    persistTo: stateDir,
    // One build serves every stack.
    build: s === 0 && !process.env.BENCH_SKIP_BUILD,
    quiet: !process.env.BENCH_VERBOSE,
  });
  stacks.push(Object.assign(started, { index: s, stateDir }));
}
/** The open files a process may have here (each stack's workerd is one process). */
const openFiles = execFileSync("sh", ["-c", "ulimit -n"], { encoding: "utf8" }).trim();
let exitCode = 0;

interface Account {
  n: number;
  stack: FleetStack;
  token: string;
  ip: string;
  username: string;
  board: BenchBoard;
}

/** One call, timed from sending it to the last byte of its answer (fetch: the fleet's users call at once, on their own connections). */
async function call<T>(caller: { token?: string; ip: string; stack: FleetStack }, path: string, body?: unknown): Promise<{ ms: number; body: T }> {
  const started = performance.now();
  const response = await fetch(caller.stack.appUrl + path, {
    method: body === undefined ? "GET" : "POST",
    headers: { "content-type": "application/json", "cf-connecting-ip": caller.ip, ...(caller.token ? { authorization: `Bearer ${caller.token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const ms = performance.now() - started;
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${text.slice(0, 300)}`);
  return { ms, body: JSON.parse(text) as T };
}

/** Runs `work` over items, `limit` at a time. */
async function pool<T>(items: T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

const ipOf = (n: number) => `10.${Math.floor(n / 65_536) % 256}.${Math.floor(n / 256) % 256}.${n % 256}`;

/** Account `n`, on the stack `n` falls to (users are dealt to the stacks in turn) unless one is given. */
async function newAccount(n: number, credits: number, stack = stacks[n % STACKS]): Promise<Account> {
  const ip = ipOf(n + 1);
  const email = `fleet.${n}.${Date.now().toString(36)}@example.com`;
  const { body } = await call<{ idToken: string }>({ ip, stack }, "/api/signup", {
    email,
    password: BENCH_PASSWORD,
    firstName: "Fleet",
    lastName: `User ${n}`,
    leadSource: "Pinterest",
  });
  const account = { n, token: body.idToken, ip, stack };
  if (credits > 0) await call(account, "/api/dev/credits/grant", { amount: credits });
  const username = `fleet_${n}_${Date.now().toString(36)}`.slice(0, 30);
  // Under the fleet's load a connection can fail as a user's would (Pinterest's token call past its time limit): the
  // user tries again; three failures in a row stop the run.
  let board: BenchBoard | undefined;
  for (let attempt = 1; !board; attempt++) {
    try {
      board = await connectBenchProfile(stack, body.idToken, username);
    } catch (error) {
      if (attempt >= 3) throw error;
      connectRetries++;
      say(`  connecting ${username} again after: ${(error as Error).message.slice(0, 160)}`);
    }
  }
  return { ...account, username, board };
}

/**
 * Used bytes of a SQLite file (pages in use times the page size). The stack is still running (alarms, retention):
 * a file whose writer holds its lock at that moment is read again a little later (SQLITE_BUSY), and one still
 * locked after a few seconds counts its size on disk (an upper bound), so a week's run is never lost to a lock.
 */
function sqliteBytes(file: string): number {
  for (let attempt = 1; attempt <= 50; attempt++) {
    try {
      const db = new DatabaseSync(file, { readOnly: true });
      try {
        const pages = (db.prepare("PRAGMA page_count").get() as { page_count: number }).page_count;
        const free = (db.prepare("PRAGMA freelist_count").get() as { freelist_count: number }).freelist_count;
        const size = (db.prepare("PRAGMA page_size").get() as { page_size: number }).page_size;
        return (pages - free) * size;
      } finally {
        db.close();
      }
    } catch (error) {
      if ((error as { errcode?: number }).errcode !== 5 /* SQLITE_BUSY */) throw error;
      lockedReads++;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    }
  }
  lockedFiles++;
  return statSync(file).size;
}
let lockedReads = 0;
let lockedFiles = 0;

function filesUnder(dir: string, match: (path: string) => boolean): string[] {
  const found: string[] = [];
  const walk = (path: string) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const full = join(path, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (match(full)) found.push(full);
    }
  };
  walk(dir);
  return found;
}

/** The stores' sizes now, summed over the stacks: D1, the two kinds of Durable Objects, R2's blobs. */
function sizes() {
  const total = { d1: 0, ledgers: { count: 0, bytes: 0 }, schedulers: { count: 0, bytes: 0 }, r2: 0 };
  for (const { stateDir } of stacks) {
    total.d1 += filesUnder(join(stateDir, "v3", "d1"), (path) => path.endsWith(".sqlite")).reduce((sum, file) => sum + sqliteBytes(file), 0);
    for (const [kind, into] of [
      ["UserLedger", total.ledgers],
      ["ProfileScheduler", total.schedulers],
    ] as const) {
      const files = filesUnder(join(stateDir, "v3", "do"), (path) => path.includes(kind) && path.endsWith(".sqlite"));
      into.count += files.length;
      into.bytes += files.reduce((sum, file) => sum + sqliteBytes(file), 0);
    }
    total.r2 += filesUnder(join(stateDir, "v3", "r2"), (path) => path.includes("blobs")).reduce((sum, file) => sum + statSync(file).size, 0);
  }
  return total;
}

const template = { title: "Plain", background: "#f4efe6", layers: [], categories: [] };
const timings: Record<"fleet" | "empty", Record<string, number[]>> = { fleet: {}, empty: {} };
let refused = 0;
let connectRetries = 0;
const note = (who: "fleet" | "empty", name: string, ms: number) => (timings[who][name] ??= []).push(ms);

/** One user's day: schedule the day's pins, download, read the credits and the history's first page. */
async function day(account: Account, d: number, who: "fleet" | "empty") {
  const now = Date.now();
  const pins = Array.from({ length: PINS_PER_DAY }, (_, i) => ({
    title: `Fleet pin ${account.n}-${d}-${i}`,
    description: `A week of pins for bench:fleet (user ${account.n}, day ${d}, pin ${i}). Linen, light and a table laid for friends.`,
    altText: `A table laid with linen, pin ${i}`,
    url: `https://fleet.example/${account.n}/${d}/${i}`,
    imageURL: `https://fleet.example/media/${account.n}-${d}-${i}.jpeg`,
    boardId: account.board.id,
    boardName: account.board.name,
    pinterestProfileUsername: account.username,
    type: "SpecificDate",
    // A minute ahead: under the fleet's load a schedule call can take seconds, and a time already passed is refused.
    scheduledTime: now + 60_000 + i * 50,
  }));
  const scheduled = await call<{ scheduledPins?: unknown[]; failedPins?: unknown[] }>(account, "/api/scheduling/schedulePin", { pins });
  note(who, "schedule 30 pins", scheduled.ms);
  // A pin the server refused (its time passed while the call waited under load) is not expected on Pinterest.
  refused += PINS_PER_DAY - (scheduled.body.scheduledPins?.length ?? PINS_PER_DAY);
  for (let k = 0; k < DOWNLOADS_PER_DAY; k++) {
    const post = {
      id: `post-${d}-${k}`,
      title: `Linen napkins, day ${d}`,
      description: "Three folds for a dinner table.",
      url: `https://fleet.example/${account.n}/${d}`,
      allImages: [],
    };
    note(
      who,
      "download a pin",
      (await call(account, "/highMemLimitApi/scraping/renderTemplateImage", { post: { ...post, template }, purpose: "download" })).ms,
    );
  }
  note(who, "credits", (await call(account, "/api/user/credits")).ms);
  note(who, "pin history, first page", (await call(account, "/api/user/getPinHistory", { startAtDate: null })).ms);
}

try {
  say(
    `Fleet benchmark against ${stacks.map((stack) => stack.appUrl).join(", ")} (${STACKS} stacks; ${openFiles} open files a process): ${USERS} users x ${DAYS} days x ${PINS_PER_DAY} pins (+${DOWNLOADS_PER_DAY} download a day), ${CONCURRENCY} at a time; load ${loadavg()
      .map((n) => n.toFixed(2))
      .join(", ")}`,
  );
  const credits = DAYS * (PINS_PER_DAY + DOWNLOADS_PER_DAY) + 10;
  const started = Date.now();
  const empty0 = sizes();
  const accounts: Account[] = [];
  await pool(
    Array.from({ length: USERS }, (_, n) => n),
    CONCURRENCY,
    async (n) => {
      accounts.push(await newAccount(n, credits));
    },
  );
  // One empty account per stack: its reads meet the load of the users beside it.
  const empties: Account[] = [];
  for (const stack of stacks) empties.push(await newAccount(USERS + stack.index, 0, stack));
  // The empty accounts whose first day is measured beside the fleet's days: made now, with the fleet, so that their
  // objects are as old (as cold) as the fleet's when their day comes, and only their data differs.
  const firstDays: Account[][] = stacks.map(() => []);
  const firstDayCount = Math.floor(USERS / (CONCURRENCY * 4)) * DAYS;
  await pool(
    Array.from({ length: firstDayCount }, (_, i) => USERS + STACKS + i),
    CONCURRENCY,
    async (n) => {
      const fresh = await newAccount(n, credits);
      firstDays[fresh.stack.index].push(fresh);
    },
  );
  const users = USERS + STACKS + firstDayCount;
  say(`  ${users} accounts with a connected profile in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  const before = sizes();

  let firstDaysRun = 0;
  for (let d = 1; d <= DAYS; d++) {
    const dayStarted = Date.now();
    let done = 0;
    await pool(accounts, CONCURRENCY, async (account) => {
      await day(account, d, "fleet");
      // This user's place in the day, taken before any await (the others move `done` on meanwhile).
      const place = ++done;
      // Every CONCURRENCY users, the empty account's reads, and every 4 x CONCURRENCY a fresh account's first day
      // (its schedule and download, an empty account's), under the same load.
      if (place % CONCURRENCY === 0) {
        const empty = empties[account.stack.index];
        note("empty", "credits", (await call(empty, "/api/user/credits")).ms);
        note("empty", "pin history, first page", (await call(empty, "/api/user/getPinHistory", { startAtDate: null })).ms);
        const fresh = place % (CONCURRENCY * 4) === 0 ? firstDays[account.stack.index].pop() : undefined;
        if (fresh) {
          firstDaysRun++;
          await day(fresh, d, "empty");
        }
      }
    });
    say(`  day ${d}: ${USERS * PINS_PER_DAY} pins scheduled, ${USERS * DOWNLOADS_PER_DAY} downloads, in ${((Date.now() - dayStarted) / 1000).toFixed(0)} s`);
  }

  // Every pin on the stand-in (posted by the profiles' alarms).
  const expected = (USERS * DAYS + firstDaysRun) * PINS_PER_DAY - refused;
  const deadline = Date.now() + 30 * 60_000;
  let onPinterest = 0;
  const countOn = async (stack: FleetStack) =>
    ((await (await fetch(`${stack.sandboxUrl}/__sandbox/pinterest/pins?count=1&username_prefix=fleet_`)).json()) as { count: number }).count;
  while (Date.now() < deadline) {
    onPinterest = (await Promise.all(stacks.map(countOn))).reduce((sum, count) => sum + count, 0);
    if (onPinterest >= expected) break;
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
  // Each pin once: the stand-in's pins by title (a title names one pin of one user and day).
  const listed: { title: string }[] = [];
  for (const stack of stacks) listed.push(...((await (await fetch(`${stack.sandboxUrl}/__sandbox/pinterest/pins`)).json()) as { title: string }[]));
  const copies = new Map<string, number>();
  for (const pin of listed) if (pin.title.startsWith("Fleet pin ")) copies.set(pin.title, (copies.get(pin.title) ?? 0) + 1);
  const twice = [...copies.values()].filter((n) => n > 1).length;
  const extra = [...copies.values()].reduce((sum, n) => sum + n - 1, 0);
  // Said before the stores are measured, so that a failure there never hides it.
  say(
    `pins on Pinterest: ${copies.size} of ${expected} scheduled (${refused} refused when scheduled), ${twice} posted twice (${extra} extra copies)${onPinterest < expected ? "; stopped at the deadline" : ""}`,
  );
  if (twice > 0 || copies.size < expected) exitCode = 1;
  const after = sizes();
  const pins = expected;
  const d1PerPin = (after.d1 - before.d1) / pins;
  const d1PerUser = (before.d1 - empty0.d1) / users;
  // What the week added to the objects (each object's schema pages were written at its first wake, before the week),
  // per user-day (the fleet's days and the first days of the empty accounts).
  const ledgerPerUserDay = (after.ledgers.bytes - before.ledgers.bytes) / (USERS * DAYS + firstDaysRun);
  const r2PerPin = after.r2 / pins;
  say("");
  if (connectRetries > 0) say(`profile connections tried again: ${connectRetries}`);
  if (lockedReads > 0) say(`store files read again while locked: ${lockedReads}; counted by their size on disk: ${lockedFiles}`);
  say(
    `D1:               ${mb(empty0.d1)} before sign-ups, ${mb(before.d1)} after, ${mb(after.d1)} after the week: ${d1PerPin.toFixed(1)} B per pin (target 0), ${(d1PerUser / 1024).toFixed(1)} KB per user`,
  );
  say(
    `UserLedger:       ${after.ledgers.count} objects, ${mb(before.ledgers.bytes)} before the week, ${mb(after.ledgers.bytes)} after: ${(ledgerPerUserDay / 1024).toFixed(1)} KB per user per day (${((after.ledgers.bytes - before.ledgers.bytes) / pins).toFixed(0)} B per pin)`,
  );
  say(
    `ProfileScheduler: ${after.schedulers.count} objects, ${mb(after.schedulers.bytes)} (${(after.schedulers.bytes / pins).toFixed(0)} B per pin, kept 90 days after posting)`,
  );
  say(`R2:               ${mb(after.r2)}: ${(r2PerPin / 1024).toFixed(1)} KB per pin (downloads; scheduled pins here point at the blog's own pictures)`);
  say("");
  say("call                       fleet p50 / p99     empty p50 / p99     ratio of p50");
  for (const name of Object.keys(timings.fleet)) {
    const fleet = timings.fleet[name];
    const alone = timings.empty[name] ?? [];
    const ratio = percentile(fleet, 50) / percentile(alone, 50);
    say(
      `${name.padEnd(26)} ${percentile(fleet, 50).toFixed(1).padStart(7)} / ${percentile(fleet, 99).toFixed(1).padEnd(9)} ${percentile(alone, 50).toFixed(1).padStart(7)} / ${percentile(alone, 99).toFixed(1).padEnd(9)} ${Number.isFinite(ratio) ? ratio.toFixed(2) : "-"} (${fleet.length} / ${alone.length} calls)`,
    );
  }
  say("");
  const dailyNew = FLEET_AT * PINS_PER_DAY * Math.max(0, d1PerPin);
  const usersBytes = FLEET_AT * d1PerUser;
  const fullNew = dailyNew > 0 ? Math.max(0, (D1_LIMIT - usersBytes) / dailyNew) : Number.POSITIVE_INFINITY;
  const fullOld = Math.max(0, (D1_LIMIT - usersBytes) / (FLEET_AT * PINS_PER_DAY * OLD_D1_BYTES_PER_PIN));
  say(
    `one D1 database (10 GB) at ${FLEET_AT.toLocaleString("en")} users x ${PINS_PER_DAY} pins a day: ${(usersBytes / 1024 ** 3).toFixed(2)} GB of per-user rows;`,
  );
  say(`  old layout (${OLD_D1_BYTES_PER_PIN} B per pin in D1): full on day ${fullOld.toFixed(1)}`);
  say(`  new layout (${d1PerPin.toFixed(1)} B per pin measured): ${Number.isFinite(fullNew) ? `full on day ${fullNew.toFixed(0)}` : "never full from pins"}`);
  say(
    `run time: ${((Date.now() - started) / 1000).toFixed(0)} s; load ${loadavg()
      .map((n) => n.toFixed(2))
      .join(", ")}`,
  );
} catch (error) {
  exitCode = 1;
  console.error(error);
} finally {
  for (const stack of stacks) {
    await stack.stop();
    rmSync(stack.stateDir, { recursive: true, force: true });
  }
}
process.exit(exitCode);
