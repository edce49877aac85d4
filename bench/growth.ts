// `npm run bench:growth` (issue 21, target 5): does a list page cost the same after a year of heavy use?
// Against a stack started the way `npm start` starts it (free ports, fresh local state), one user:
//   1. on an EMPTY account (20 connected profiles, nothing else), every list page's API call: p50/p95 over
//      BENCH_REQUESTS requests at concurrency 1;
//   2. fills that user's data to a year of heavy use: 20 profiles x 10,000 queued pins through the API
//      (POST /api/scheduling/schedulePin, 200 a call, credits charged as for anyone), then the user's UserLedger
//      object in bulk (decision 084), straight into its local SQLite file (node:sqlite, one transaction per chunk): pin history up to 1,000,000
//      rows with one credit-ledger spend each, 50,000 media, 5,000 drafts, all spread over the past 365 days;
//   3. restarts the worker on the filled database (as after a deploy), measures the same calls again, plus
//      pages deep in each list (by cursor), in the same loop as the same calls of an EMPTY TWIN: a second account
//      made like the first at the start (20 profiles), left empty. Prints the empty twin's p50, the filled
//      account's and the ratio (target: within 20%, ratio <= 1.20), and step 1's figure beside them. The lists
//      and both accounts take turns, so a burst of load elsewhere on the machine falls on all alike, and a
//      machine that runs slower after the fill than before it (the page cache full of a 1.4 GB file, a warmer
//      or cooler CPU) slows both sides of each ratio.
//      Each call is timed from sending it to the last byte of its answer on a kept-alive connection (node:http,
//      bench/timed-http.ts), not parsed: the client's own time is left out of the figures.
// BENCH_SCALE scales every count (0.01 for a quick check); BENCH_REQUESTS (400) the requests per figure;
// BENCH_SKIP_BUILD=1 when build-bench/ is fresh; BENCH_KEEP_STATE=1 keeps the filled local state, and
// BENCH_REUSE_STATE=<that dir> measures it again (step 3 only) after a code change; BENCH_VERBOSE=1 shows the
// worker's log. Figures only: nothing here asserts a time. docs/scale.md holds the figures of a full run.
//
// The rows written in bulk are what the app itself writes (same columns, same reference formats): a
// scheduled-and-posted pin's history row and its spend, a download's; media rows point at R2 keys that are not
// uploaded (the lists read D1 only). Pins queued through the API are dated back over the year once charged (their
// history row and spend), so the month being counted holds a twelfth of the year's spends, as it would: the account
// is dated a year and 29 days back, so its billing month (from the signup anniversary) is near its end.
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { billingMonth } from "../workers/domain/plans.ts";
import { startBenchStack } from "../scripts/stack.ts";
import { connectBenchProfile, quietSchedulingSettings, type BenchBoard } from "./bench-pinterest.ts";
import { BENCH_PASSWORD, benchCall } from "./bench-session.ts";
import { closeTimedHttp, timedHttp } from "./timed-http.ts";

const SCALE = Number(process.env.BENCH_SCALE ?? 1);
if (!(SCALE > 0 && SCALE <= 1)) throw new Error("BENCH_SCALE must be a number in (0, 1]");
const REQUESTS = Math.max(5, Number(process.env.BENCH_REQUESTS ?? 400));
const PROFILES = 20;
const QUEUED_PER_PROFILE = Math.max(1, Math.round(10_000 * SCALE));
const HISTORY_ROWS = Math.round(1_000_000 * SCALE);
const MEDIA_ROWS = Math.round(50_000 * SCALE);
const DRAFT_ROWS = Math.round(5_000 * SCALE);
const PINS_PER_CALL = 200;
const DAY = 86_400_000;
const YEAR = 365 * DAY;
const CHUNK = 20_000;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(", ");

// BENCH_REUSE_STATE=<dir kept by BENCH_KEEP_STATE=1>: measure the filled account of an earlier run again (after a code change).
const REUSE = process.env.BENCH_REUSE_STATE;
const { stack, stateDir } = await startBenchStack("growth", { stateDir: REUSE, verbose: Boolean(process.env.BENCH_VERBOSE) });
const call = <T>(path: string, token: string | null, body?: unknown) => benchCall<T>(stack, path, token, body);

/** The local file of a user's UserLedger object (decision 084): the one whose ledger_meta names them. */
function ledgerFile(userId: string): string {
  const root = join(stateDir, "v3", "do");
  for (const dir of readdirSync(root).filter((name) => name.endsWith("-UserLedger"))) {
    for (const name of readdirSync(join(root, dir)).filter((file) => file.endsWith(".sqlite"))) {
      const file = new DatabaseSync(join(root, dir, name), { readOnly: true });
      try {
        const owner = file.prepare("SELECT value FROM ledger_meta WHERE key = 'user_id'").get() as { value: string } | undefined;
        if (owner?.value === userId) return join(root, dir, name);
      } finally {
        file.close();
      }
    }
  }
  throw new Error(`no UserLedger object of user ${userId} in ${root}`);
}

/** The local D1 database file of the stack (the only D1 binding, DB). */
function d1File(): string {
  const dir = join(stateDir, "v3", "d1", "miniflare-D1DatabaseObject");
  const files = readdirSync(dir).filter((name) => name.endsWith(".sqlite") && name !== "metadata.sqlite");
  if (files.length !== 1) throw new Error(`expected one D1 database file in ${dir}, found ${files.join(", ") || "none"}`);
  return join(dir, files[0]);
}

interface ListCall {
  name: string;
  path: string;
  body?: unknown;
  /** The account it is called as (default: the account being filled). */
  token?: string;
}

/** What a kept run leaves for BENCH_REUSE_STATE: the empty account's figures. */
interface Saved {
  empty: [string, Figure][];
}

interface Figure {
  p50: number;
  p95: number;
  items: number;
}

/**
 * p50/p95 of `REQUESTS` calls of each list, one call at a time, after 3 warm-up calls of each. The lists take turns
 * (one call of each per round), so a burst of load from elsewhere on the machine falls on all of them alike.
 */
async function measureAll(token: string, lists: ListCall[]): Promise<Map<string, Figure>> {
  const items = new Map<string, number>();
  for (const list of lists) for (let i = 0; i < 3; i++) items.set(list.name, countItems(await call<unknown>(list.path, list.token ?? token, list.body)));
  const times = new Map<string, number[]>(lists.map((list) => [list.name, []]));
  for (let round = 0; round < REQUESTS; round++) {
    for (const list of lists) {
      const answer = await timedHttp(stack.appUrl + list.path, {
        method: list.body === undefined ? "GET" : "POST",
        headers: { "content-type": "application/json", "cf-connecting-ip": "198.51.100.7", authorization: `Bearer ${list.token ?? token}` },
        body: list.body === undefined ? undefined : JSON.stringify(list.body),
      });
      if (answer.status < 200 || answer.status > 299) throw new Error(`${list.path} answered ${answer.status}`);
      times.get(list.name)!.push(answer.ms);
    }
  }
  return new Map(
    lists.map((list) => [list.name, { p50: percentile(times.get(list.name)!, 50), p95: percentile(times.get(list.name)!, 95), items: items.get(list.name)! }]),
  );
}

/** How many entries a list answer holds (the first array in it). */
function countItems(answer: unknown): number {
  if (Array.isArray(answer)) return answer.length;
  if (answer && typeof answer === "object") for (const value of Object.values(answer)) if (Array.isArray(value)) return value.length;
  return 0;
}

/**
 * The month's credit balance as D1 computes it, timed on the filled database file itself (node:sqlite, the
 * worker stopped from writing): summed over the billing month's ledger rows as credits.ts did before decision
 * 063, against the month's credit_month_totals row it reads now. Both answer the same balance (printed); the
 * sum's time grows with the month's rows, the row's does not. Also the one-time cost of writing a month's row
 * from the ledger (the first request of a month, or of the first month after migration 0038).
 */
function monthBalanceFigures(db: DatabaseSync, ldb: DatabaseSync, userId: string) {
  // The bench user is on Free with no plan records: its billing month is counted from its signup (creditAnchor).
  const user = db
    .prepare("SELECT u.created_at AS createdAt, p.credits_per_month AS cap FROM users AS u JOIN plans AS p ON p.id = u.plan_id WHERE u.id = ?1")
    .get(userId) as {
    createdAt: number;
    cap: number;
  };
  const month = { ...billingMonth(user.createdAt, Date.now()), cap: user.cap };
  if (!ldb.prepare("SELECT 1 FROM credit_month_totals WHERE user_id = ?1 AND period_start = ?2 AND period_end = ?3").get(userId, month.start, month.end)) {
    console.log("\n4. The month's credit balance: the user has no credit_month_totals row for this month (was the worker's code before migration 0038?)");
    return;
  }
  const grant = `amount > 0 AND reference NOT LIKE 'reversal:%' AND reference NOT LIKE 'admin-grant:%'`;
  const spend = `(amount < 0 OR reference LIKE 'reversal:%')`;
  const summed = ldb.prepare(
    `SELECT min(coalesce(sum(CASE WHEN ${grant} THEN amount END), 0),
                max(?4, coalesce(sum(CASE WHEN ${grant} AND reference NOT LIKE 'grant:free:%' THEN amount END), 0)))
            + coalesce(sum(CASE WHEN amount > 0 AND reference LIKE 'admin-grant:%' THEN amount END), 0)
            + coalesce(sum(CASE WHEN ${spend} THEN amount END), 0) AS balance
     FROM credit_ledger WHERE user_id = ?1 AND created_at >= ?2 AND created_at < ?3`,
  );
  const fromRow = ldb.prepare(
    `SELECT min(t.grants, max(?4, t.paid_grants)) + t.admin_grants + t.spends AS balance
     FROM credit_month_totals AS t WHERE t.user_id = ?1 AND t.period_start = ?2 AND t.period_end = ?3`,
  );
  const rowsInMonth = (
    ldb.prepare("SELECT count(*) AS n FROM credit_ledger WHERE user_id = ?1 AND created_at >= ?2 AND created_at < ?3").get(userId, month.start, month.end) as {
      n: number;
    }
  ).n;
  const time = (statement: ReturnType<DatabaseSync["prepare"]>, runs: number) => {
    const times: number[] = [];
    let balance = 0;
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      balance = (statement.get(userId, month.start, month.end, month.cap) as { balance: number }).balance;
      times.push(performance.now() - started);
    }
    return { p50: percentile(times, 50), balance };
  };
  const before = time(summed, 21);
  const after = time(fromRow, 201);
  // Writing a month's row from the ledger (once per user and month), timed in a transaction that is rolled back.
  const backfill = ldb.prepare(
    `INSERT INTO credit_month_totals (user_id, period_start, period_end, spends_from, grants, paid_grants, admin_grants, spends)
     SELECT ?1, ?2, ?3 - 1, ?2, coalesce(sum(CASE WHEN ${grant} THEN amount END), 0),
            coalesce(sum(CASE WHEN ${grant} AND reference NOT LIKE 'grant:free:%' THEN amount END), 0),
            coalesce(sum(CASE WHEN amount > 0 AND reference LIKE 'admin-grant:%' THEN amount END), 0),
            coalesce(sum(CASE WHEN ${spend} THEN amount END), 0)
     FROM credit_ledger WHERE user_id = ?1 AND created_at >= ?2 AND created_at < ?3 - 1`,
  );
  ldb.exec("BEGIN");
  const started = performance.now();
  backfill.run(userId, month.start, month.end);
  const backfillMs = performance.now() - started;
  ldb.exec("ROLLBACK");
  console.log(
    `\n4. The month's credit balance in SQLite itself (the filled database file; load average ${load()}), ${rowsInMonth} ledger rows in the billing month:`,
  );
  console.log(`   summed over the month's ledger rows (before decision 063)  p50 ${before.p50.toFixed(3).padStart(8)} ms  balance ${before.balance}`);
  console.log(`   read from the month's credit_month_totals row (now)        p50 ${after.p50.toFixed(3).padStart(8)} ms  balance ${after.balance}`);
  console.log(`   ratio x${(before.p50 / after.p50).toFixed(0)} faster; the same balance: ${before.balance === after.balance ? "yes" : "NO, THEY DIFFER"}`);
  console.log(`   writing a month's row from the ledger, once per user and month: ${backfillMs.toFixed(1)} ms`);
}

let serial = 0;
function queuePin(username: string, board: BenchBoard) {
  serial += 1;
  return {
    title: `Linen napkin folds, idea ${serial}`,
    description: `Three quick folds for a dinner table that looks like you tried (${serial}). Step-by-step photos, the napkins we use and where to find them.`,
    altText: `A set table with folded linen napkins, idea ${serial}`,
    url: `https://linen-and-table.example/posts/napkin-folds-${serial}`,
    imageURL: `https://linen-and-table.example/media/pins/napkin-folds-${serial}.jpeg`,
    boardId: board.id,
    boardName: board.name,
    pinterestProfileUsername: username,
    type: "Queue",
  };
}

/**
 * A new account as the filled one starts: signed up, dated a year and 29 days back, 20 connected profiles with quiet
 * scheduling settings. Answers its token, id and profiles.
 */
async function newAccount(db: DatabaseSync, email: string, lastName: string) {
  const token = (await call<{ idToken: string }>("/api/signup", null, { email, password: BENCH_PASSWORD, firstName: "Bench", lastName })).idToken;
  const { credentials } = await call<{ credentials: { userId: string } }>("/api/user", token);
  // A year-old account whose billing month (counted from the signup anniversary, as for any Free user) began 29 days
  // ago: the month being counted holds nearly a month of its spends, the heavy user's month-end.
  db.prepare("UPDATE users SET created_at = ?1 WHERE id = ?2").run(Date.now() - YEAR - 29 * DAY, credentials.userId);
  // Credits for every pin the run queues and charges, in the user's ledger (decision 084; the dev control writes an admin's grant).
  await call("/api/dev/credits/grant", token, { amount: PROFILES * QUEUED_PER_PROFILE + 100_000 });
  const tag = Date.now().toString(36);
  const profiles: { username: string; board: BenchBoard }[] = [];
  for (let i = 0; i < PROFILES; i++) {
    const username = `${lastName.toLowerCase()}_${tag}_${i}`;
    profiles.push({ username, board: await connectBenchProfile(stack, token, username) });
    await call("/api/scheduling/saveSchedulingSettings", token, { newSettings: quietSchedulingSettings(), pinterestProfileUsername: username });
  }
  return { token, userId: credentials.userId, profiles };
}

/** The empty twin: an account made as the filled one was, which stays empty; measured in the same loop as it (step 3). */
const TWIN_EMAIL = "bench.twin.%";

try {
  console.log(
    `Growth benchmark against ${stack.appUrl}: scale ${SCALE} (${HISTORY_ROWS} history rows, ${MEDIA_ROWS} media, ${DRAFT_ROWS} drafts, ${PROFILES} profiles x ${QUEUED_PER_PROFILE} queued pins), ${REQUESTS} requests per figure`,
  );
  let token: string;
  let userId: string;
  let profiles: { username: string; board: BenchBoard }[] = [];
  let db: DatabaseSync;
  // The user's UserLedger object: their history, ledger, media and drafts (decision 084).
  let ldb: DatabaseSync;
  let saved: Saved | null = null;
  if (REUSE) {
    db = new DatabaseSync(d1File());
    const user = db.prepare("SELECT id, email FROM users WHERE email LIKE 'bench.growth.%' ORDER BY created_at DESC LIMIT 1").get() as {
      id: string;
      email: string;
    };
    userId = user.id;
    token = (await call<{ idToken: string }>("/api/login", null, { email: user.email, password: BENCH_PASSWORD })).idToken;
    ldb = new DatabaseSync(ledgerFile(userId));
    profiles = (db.prepare("SELECT username FROM pinterest_profiles WHERE user_id = ? ORDER BY created_at").all(userId) as { username: string }[]).map(
      (row) => ({
        username: row.username,
        board: { id: "", name: "" },
      }),
    );
    saved = existsSync(join(stateDir, "growth.json")) ? (JSON.parse(readFileSync(join(stateDir, "growth.json"), "utf8")) as Saved) : null;
    console.log(
      `Measuring again the account filled earlier in ${stateDir} (${saved ? "empty-account figures of that run kept" : "no empty-account figures kept"})`,
    );
  } else {
    db = new DatabaseSync(d1File());
    ({ token, userId, profiles } = await newAccount(db, `bench.growth.${Date.now()}@example.com`, "Growth"));
    db.exec("PRAGMA busy_timeout = 30000");
    ldb = new DatabaseSync(ledgerFile(userId));
    // A large page cache: the bulk rows go into b-trees keyed by random ids (the app's UUIDs), which SQLite's default 2 MB cache makes slow.
    ldb.exec("PRAGMA busy_timeout = 30000; PRAGMA cache_size = -1000000");
  }
  // The empty twin (made now, or found in the kept state).
  const twinRow = db.prepare("SELECT email FROM users WHERE email LIKE ? ORDER BY created_at DESC LIMIT 1").get(TWIN_EMAIL) as { email: string } | undefined;
  const twin = twinRow
    ? {
        token: (await call<{ idToken: string }>("/api/login", null, { email: twinRow.email, password: BENCH_PASSWORD })).idToken,
        first: (
          db
            .prepare("SELECT p.username FROM pinterest_profiles p JOIN users u ON u.id = p.user_id WHERE u.email = ? ORDER BY p.created_at LIMIT 1")
            .get(twinRow.email) as { username: string }
        ).username,
      }
    : await newAccount(db, TWIN_EMAIL.replace("%", `${Date.now()}@example.com`), "Twin").then((account) => ({
        token: account.token,
        first: account.profiles[0].username,
      }));
  const first = profiles[0].username;

  const chargeOne = {
    name: "charge one download (write)",
    path: "/api/scraping/addPinHistoryAndAdjustCredits",
    body: {
      pinDetails: {
        action: "downloaded",
        title: "A pin downloaded by the benchmark",
        description: "",
        url: "https://linen-and-table.example/",
        imageUrl: "https://linen-and-table.example/a.jpeg",
      },
      category: "image",
    },
  };
  const listsOf = (first: string): ListCall[] => [
    { name: "GET /api/health (no data: noise)", path: "/api/health" },
    { name: "GET /api/user (credentials)", path: "/api/user" },
    { name: "GET /api/user/credits", path: "/api/user/credits" },
    { name: "pin history, first page", path: "/api/user/getPinHistory", body: {} },
    { name: "media library, first page", path: "/api/user/media/getUserMedia" },
    { name: "media library, images", path: "/api/user/media/getUserMedia?mediaType=image" },
    { name: "media library, fonts", path: "/api/user/media/getUserMedia?mediaType=font" },
    { name: "drafts, first page", path: "/api/user/drafts/getDrafts" },
    { name: "latest draft", path: "/api/user/drafts/latestDraft" },
    { name: "queue, first page of 50", path: `/api/scheduling/getScheduledPins/${first}` },
    { name: "queue, newest first", path: `/api/scheduling/getScheduledPins/${first}?sortBy=scheduledTimeUTCTimestamp-desc` },
    { name: "repeating pins", path: `/api/scheduling/getRepeatingPins/${first}` },
    { name: "failing profiles", path: "/api/pinterestAPI/failingPinterestProfiles" },
    { name: "my templates", path: "/api/templates" },
    { name: "shared templates", path: "/api/templates/sharedTemplates/getSharedTemplates" },
    { name: "template categories", path: "/api/templates/categories/getTemplateCategories" },
  ];
  const firstPages = listsOf(first);
  const TWIN = "empty twin: ";
  const twinPages: ListCall[] = [...listsOf(twin.first), chargeOne].map((list) => ({ ...list, name: TWIN + list.name, token: twin.token }));

  let empty = new Map<string, Figure>(saved?.empty ?? []);
  if (!REUSE) {
    console.log(`\n1. Empty account (load average ${load()})`);
    empty = await measureAll(token, [...firstPages, chargeOne]);
    writeFileSync(join(stateDir, "growth.json"), JSON.stringify({ empty: [...empty] } satisfies Saved));
    for (const [name, figure] of empty) {
      console.log(`   ${name.padEnd(34)} p50 ${figure.p50.toFixed(1).padStart(6)} ms  p95 ${figure.p95.toFixed(1).padStart(6)} ms  (${figure.items} items)`);
    }

    // 2a. The queues, through the API, one call at a time: each call's history rows and spends are dated back over the
    // year between calls (workerd does not wait for a lock another process holds, so nothing is written while a call runs).
    console.log(`\n2. Filling (load average ${load()})`);
    const redateFrom = Date.now();
    const redate = ldb.prepare(`UPDATE credit_ledger SET created_at = ?1 - (abs(random()) % ?2) WHERE user_id = ?3 AND amount < 0 AND created_at >= ?4`);
    const redateHistory = ldb.prepare(`UPDATE pin_history SET created_at = ?1 - (abs(random()) % ?2) WHERE user_id = ?3 AND created_at >= ?4`);
    const callTimes: number[] = [];
    const queueStarted = performance.now();
    for (const { username, board } of profiles) {
      for (let done = 0; done < QUEUED_PER_PROFILE; done += PINS_PER_CALL) {
        const pins = Array.from({ length: Math.min(PINS_PER_CALL, QUEUED_PER_PROFILE - done) }, () => queuePin(username, board));
        const started = performance.now();
        await call("/api/scheduling/schedulePin", token, { pins });
        callTimes.push(performance.now() - started);
        const now = Date.now();
        redate.run(now, YEAR, userId, redateFrom);
        redateHistory.run(now, YEAR, userId, redateFrom);
      }
    }
    const queueMs = performance.now() - queueStarted;
    const queued = PROFILES * QUEUED_PER_PROFILE;
    const firstCalls = callTimes.slice(0, 5);
    const lastCalls = callTimes.slice(-5);
    console.log(
      `   ${queued} pins queued through the API in ${(queueMs / 1000).toFixed(1)} s (${callTimes.length} calls of up to ${PINS_PER_CALL}; ` +
        `p50 ${percentile(callTimes, 50).toFixed(0)} ms a call, first five ${firstCalls.map((ms) => ms.toFixed(0)).join("/")} ms, last five ${lastCalls.map((ms) => ms.toFixed(0)).join("/")} ms)`,
    );

    // 2b. D1 in bulk.
    const now = Date.now();
    const boards = profiles.map((p) => p.board);
    const bulkHistory = Math.max(0, HISTORY_ROWS - queued);
    const insertHistory = ldb.prepare(
      `INSERT INTO pin_history (id, user_id, action, category, credits, title, description, url, image_url, media_type, board_id, board_name,
                                pinterest_profile, pinterest_pin_id, reference, created_at, pin_id, scheduled_for, posted_at)
       VALUES (?, ?, ?, 'image', 1, ?, ?, ?, ?, 'image', ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const insertSpend = ldb.prepare(
      `INSERT INTO credit_ledger (id, user_id, amount, category, reason, reference, created_at) VALUES (?, ?, -1, 'image', ?, ?, ?)`,
    );
    const inChunks = (total: number, write: (i: number) => void) => {
      for (let from = 0; from < total; from += CHUNK) {
        ldb.exec("BEGIN");
        try {
          for (let i = from; i < Math.min(total, from + CHUNK); i++) write(i);
          ldb.exec("COMMIT");
        } catch (error) {
          ldb.exec("ROLLBACK");
          throw error;
        }
      }
    };
    let started = performance.now();
    inChunks(bulkHistory, (i) => {
      // Oldest first, evenly over the year, a few seconds of jitter.
      const createdAt = now - YEAR + Math.floor(((i + 0.5) * YEAR) / bulkHistory) + (i % 7) * 13;
      const profile = profiles[i % PROFILES];
      const board = boards[i % PROFILES];
      const kind = i % 20; // 17 in 20 scheduled and posted, 2 downloaded, 1 pinned at once
      const pinId = crypto.randomUUID();
      const action = kind < 17 ? "scheduled" : kind < 19 ? "downloaded" : "pinned";
      const reference = action === "scheduled" ? `scheduled:${pinId}` : `pin:${crypto.randomUUID()}`;
      const scheduledFor = action === "scheduled" ? createdAt + (i % 10) * DAY : null;
      const postedAt = action === "downloaded" ? null : action === "pinned" ? createdAt : Math.min(now - 60_000, scheduledFor!);
      const pinterestPinId = action === "downloaded" ? null : String(1_000_000_000_000_000 + i);
      insertHistory.run(
        crypto.randomUUID(),
        userId,
        action,
        `Linen napkin folds, idea ${i}: three quick folds for a dinner table`,
        `Three quick folds for a dinner table that looks like you tried. Step-by-step photos, the napkins we use and where to find them (${i}).`,
        `https://linen-and-table.example/posts/napkin-folds-${i}`,
        `http://127.0.0.1:8787/media/u/${userId}/renders/${pinId}.jpeg`,
        action === "downloaded" ? null : board.id,
        action === "downloaded" ? null : board.name,
        action === "downloaded" ? null : profile.username,
        pinterestPinId,
        reference,
        createdAt,
        action === "scheduled" ? pinId : null,
        scheduledFor,
        postedAt,
      );
      insertSpend.run(crypto.randomUUID(), userId, action === "downloaded" ? "Pin download" : "Pin scheduled", reference, createdAt);
    });
    const historyMs = performance.now() - started;
    console.log(
      `   ${bulkHistory} pin-history rows and their ${bulkHistory} credit spends written in ${(historyMs / 1000).toFixed(1)} s (${((2 * bulkHistory) / (historyMs / 1000)).toFixed(0)} rows/s)`,
    );

    started = performance.now();
    const insertMedia = ldb.prepare(
      `INSERT INTO user_media (id, user_id, media_type, object_key, file_name, content_type, size, width, height, font_family, source_format, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    inChunks(MEDIA_ROWS, (i) => {
      const id = crypto.randomUUID();
      const type = i % 20 < 16 ? "image" : i % 20 < 19 ? "video" : "font";
      const extension = type === "image" ? "jpeg" : type === "video" ? "mp4" : "ttf";
      insertMedia.run(
        id,
        userId,
        type,
        `u/${userId}/media/${id}.${extension}`,
        `${type === "image" ? "table-setting" : type === "video" ? "napkin-fold" : "Brand Sans"}-${i}.${extension}`,
        type === "image" ? "image/jpeg" : type === "video" ? "video/mp4" : "font/ttf",
        type === "image" ? 350_000 + (i % 1000) * 100 : type === "video" ? 8_000_000 : 120_000,
        type === "font" ? null : 1000,
        type === "font" ? null : 1500,
        type === "font" ? `Brand Sans ${i}` : null,
        type === "font" ? "woff2" : null,
        now - YEAR + Math.floor(((i + 0.5) * YEAR) / MEDIA_ROWS),
      );
    });
    const mediaMs = performance.now() - started;

    started = performance.now();
    const posts = (i: number) =>
      JSON.stringify(
        Array.from({ length: 12 }, (_, j) => ({
          id: `post-${i}-${j}`,
          templateType: `std-${String(j % 20).padStart(2, "0")}`,
          title: `Linen napkin folds, idea ${i}.${j}`,
          description: "Three quick folds for a dinner table that looks like you tried. Step-by-step photos, the napkins we use and where to find them.",
          altText: "A set table with folded linen napkins",
          url: `https://linen-and-table.example/posts/napkin-folds-${i}-${j}`,
          allImages: Array.from({ length: 4 }, (_, k) => `https://linen-and-table.example/media/photo-${i}-${j}-${k}.jpeg`),
          selectedImages: [`https://linen-and-table.example/media/photo-${i}-${j}-0.jpeg`],
        })),
      );
    const insertDraft = ldb.prepare(`INSERT INTO drafts (id, user_id, name, date, posts, post_count, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 12, ?, ?)`);
    inChunks(DRAFT_ROWS, (i) => {
      const at = now - YEAR + Math.floor(((i + 0.5) * YEAR) / DRAFT_ROWS);
      const label = new Date(at).toISOString().slice(0, 16).replace("T", " ");
      insertDraft.run(crypto.randomUUID(), userId, `Napkin week ${i}`, label, posts(i), at, at);
    });
    const draftMs = performance.now() - started;
    const bytes = statSync(ledgerFile(userId)).size;
    console.log(
      `   ${MEDIA_ROWS} media rows in ${(mediaMs / 1000).toFixed(1)} s, ${DRAFT_ROWS} drafts in ${(draftMs / 1000).toFixed(1)} s; the user's ledger file now ${(bytes / 1e6).toFixed(0)} MB`,
    );
    const counted = (table: string) => (ldb.prepare(`SELECT count(*) AS n FROM ${table} WHERE user_id = ?`).get(userId) as { n: number }).n;
    const month = (ldb.prepare(`SELECT count(*) AS n FROM credit_ledger WHERE user_id = ? AND created_at >= ?`).get(userId, now - 30 * DAY) as { n: number }).n;
    console.log(
      `   the user now has ${counted("pin_history")} pin-history rows, ${counted("credit_ledger")} ledger rows (${month} in the last 30 days), ${counted("user_media")} media, ${counted("drafts")} drafts, ${queued} queued pins`,
    );
  }

  if (!REUSE) {
    // A fresh worker on the filled database, as after a deploy: nothing it cached or held open predates the bulk rows.
    db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    ldb.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    await stack.restartWorker();
  }

  // Pages deep in each list: the cursor a client would hold after scrolling halfway.
  const middle = <T>(sql: string, count: number) => ldb.prepare(`${sql} LIMIT 1 OFFSET ?`).get(userId, Math.floor(count / 2)) as T;
  const historyCursor = middle<{ id: string; created_at: number }>(
    "SELECT id, created_at FROM pin_history WHERE user_id = ? ORDER BY created_at DESC, id DESC",
    HISTORY_ROWS,
  );
  const mediaCursor = middle<{ id: string }>("SELECT id FROM user_media WHERE user_id = ? ORDER BY created_at DESC, id DESC", MEDIA_ROWS);
  const draftCursor = middle<{ id: string }>("SELECT id FROM drafts WHERE user_id = ? ORDER BY updated_at DESC, id DESC", DRAFT_ROWS);
  const queueCursor = (
    await call<{ scheduledPins: { id: string }[] }>(`/api/scheduling/getScheduledPins/${first}?sortBy=scheduledTimeUTCTimestamp-desc`, token)
  ).scheduledPins;
  const deepQueuePin = queueCursor[Math.min(25, queueCursor.length - 1)]?.id;
  const deepPages: (ListCall & { like: string })[] = [
    {
      like: "pin history, first page",
      name: "pin history, halfway (cursor)",
      path: "/api/user/getPinHistory",
      body: { startAtDate: Math.round(historyCursor.created_at), lastId: historyCursor.id },
    },
    { like: "media library, first page", name: "media library, halfway (cursor)", path: `/api/user/media/getUserMedia?lastMediaId=${mediaCursor.id}` },
    { like: "drafts, first page", name: "drafts, halfway (cursor)", path: `/api/user/drafts/getDrafts?lastDraftId=${draftCursor.id}` },
    ...(deepQueuePin
      ? [
          {
            like: "queue, newest first",
            name: "queue, by cursor",
            path: `/api/scheduling/getScheduledPins/${first}?lastPinId=${deepQueuePin}&sortBy=scheduledTimeUTCTimestamp-desc`,
          },
        ]
      : []),
  ];

  console.log(
    `\n3. After a year of heavy use (load average ${load()}): p50 of the filled account against the empty twin measured in the same loop ` +
      `(target: ratio <= 1.20); in brackets, step 1's empty account, measured before the fill`,
  );
  const rows: { name: string; before: number; earlier: number; after: number; items: number; p95: number }[] = [];
  const full = await measureAll(token, [...firstPages, chargeOne, ...deepPages, ...twinPages]);
  const twinFigure = (name: string) => full.get(TWIN + name)?.p50 ?? Number.NaN;
  for (const list of [...firstPages, chargeOne]) {
    const figure = full.get(list.name)!;
    rows.push({
      name: list.name,
      before: twinFigure(list.name),
      earlier: empty.get(list.name)?.p50 ?? Number.NaN,
      after: figure.p50,
      items: figure.items,
      p95: figure.p95,
    });
  }
  for (const list of deepPages) {
    const figure = full.get(list.name)!;
    rows.push({
      name: `${list.name} vs empty first page`,
      before: twinFigure(list.like),
      earlier: empty.get(list.like)?.p50 ?? Number.NaN,
      after: figure.p50,
      items: figure.items,
      p95: figure.p95,
    });
  }
  let over = 0;
  for (const row of rows) {
    const ratio = row.after / row.before;
    if (ratio > 1.2) over++;
    console.log(
      `   ${row.name.padEnd(52)} ${row.before.toFixed(1).padStart(6)} -> ${row.after.toFixed(1).padStart(6)} ms  x${ratio.toFixed(2)}${ratio > 1.2 ? " !!" : "   "}  ` +
        `(step 1: ${Number.isNaN(row.earlier) ? "n/a" : `${row.earlier.toFixed(1)} ms, x${(row.after / row.earlier).toFixed(2)}`}; p95 ${row.p95.toFixed(1)} ms, ${row.items} items)`,
    );
  }
  console.log(`\n   ${rows.length - over} of ${rows.length} within 20% of the empty account; load average ${load()}`);
  monthBalanceFigures(db, ldb, userId);
  db.close();
  ldb.close();
} finally {
  closeTimedHttp();
  await stack.stop();
  if (process.env.BENCH_KEEP_STATE || REUSE) console.log(`local state kept in ${stateDir}`);
  else rmSync(stateDir, { recursive: true, force: true });
}
