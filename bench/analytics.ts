// `npm run bench:analytics`: issue 41's speed targets for Insights, with 10,000 posted pins over 90 days on one
// profile, against a stack started the way `npm start` starts it (free ports, fresh state, built into build-bench/):
//   (a) /analytics in headless Chromium: from navigating to the page to its first chart on screen (the daily chart's
//       canvas drawn, `data-ready="true"`), timed in the page from its navigation start; median of BENCH_RUNS (5)
//       navigations after one warm-up (the worker's and Chart.js's first use), with where the time goes (hydration,
//       the overview's answer). Target: at most 1 s.
//   (b) the page's API calls (GET /api/analytics/overview, /pins and /bestTimes, for the page's default 30 days and for
//       90) beside GET /api/health, interleaved call by call (one call of each per round, the order turned each round)
//       for BENCH_ROUNDS (200) rounds after 3 warm-up calls of each; each call timed on a kept-alive connection to its
//       last byte (bench/timed-http.ts). p50/p95 of each and its p50 over /api/health's. Target: at most 2x.
// Nothing here asserts a time: the figures and each target met or not are printed, and the exit code is 0.
//
// The profile is filled the fast way, not through the queue (10,000 pins posted, aged and read through the queue and
// the stand-in would take about an hour on this machine): the dev control `POST /api/dev/analytics/fill` writes the
// profile object's posted pins and their days (444,000-odd pin-days) in chunks, with the figures the Pinterest
// stand-in itself serves for such pins (its `pinDay`: decay, busy hours, family rates), as if tonight's pass had just
// read them; then `POST /api/dev/analytics/sync` runs the rest of the real pass (the account's own totals from the
// stand-in, the prune, the rollups built 250 pins a step into a new generation, the switch).
// BENCH_PINS (10000), BENCH_DAYS (90), BENCH_SKIP_BUILD=1 (reuse build-bench/).
import { rmSync } from "node:fs";
import { loadavg } from "node:os";
import type { Page } from "playwright-core";
import { TEMPLATE_FAMILIES } from "../contracts/content/template.ts";
import type { AnalyticsOverview, AnalyticsPinsPage, BestTimes, BulkAnalyticsPin, PinSource } from "../contracts/pinterest/analytics.ts";
import { pinDay } from "../sandbox/providers/pinterest/analytics.ts";
import type { PinRecord } from "../sandbox/providers/pinterest/state.ts";
import { labelPicture, TEMPLATE_FAMILY_KEYWORD } from "../workers/render/picture-label.ts";
import { startBenchStack } from "../scripts/stack.ts";
import { launchChromium } from "../test/e2e/support/browser.ts";
import { connectBenchProfile } from "./bench-pinterest.ts";
import { benchCall, signedInPage, verifiedBenchUser } from "./bench-session.ts";
import { closeTimedHttp, timedHttp } from "./timed-http.ts";

const PINS = Number(process.env.BENCH_PINS ?? 10_000);
const DAYS = Number(process.env.BENCH_DAYS ?? 90);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);
/** Pins per fill call (the dev control takes up to 1,000). */
const FILL_CHUNK = 500;
const USERNAME = "bench_analytics";
const DAY_MS = 86_400_000;
const SOURCES: PinSource[] = ["blog", "blog", "sitemap", "feed", "shop", "csv"];
const PICTURES = ["amalfi-coast-itinerary-1", "balcony-herb-garden-1", "berry-smoothie-bowls-1", "backyard-wedding-on-a-budget-1"];

const median = (values: number[]) => percentile(values, 50);
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(", ");
const ms = (value: number) => `${Math.round(value)} ms`;
const utcDate = (at: number) => new Date(at).toISOString().slice(0, 10);
const say = (line: string) => console.log(line);

/** A posted pin with its daily figures, as POST /api/dev/analytics/fill takes it. */
type FillPin = BulkAnalyticsPin;
type FillDay = FillPin["days"][number];

/** A JPEG as small as a picture gets, carrying its template family the way our renders do (the stand-in reads it). */
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xd9]);
const labelled = new Map<string, Buffer>(TEMPLATE_FAMILIES.map((family) => [family, Buffer.from(labelPicture(JPEG, TEMPLATE_FAMILY_KEYWORD, family))]));

/**
 * The profile's pins: posted evenly over the last DAYS days up to today (so at every hour of the day), on the account's boards,
 * from 24 templates of every family (one pin in ten without a template), from every source; each with the daily
 * figures the stand-in serves for it from its posting day to yesterday (READY days, the last 90 only, as a pass keeps).
 */
function profilePins(now: number, appUrl: string, boards: { id: string; name: string }[]): FillPin[] {
  const oldest = utcDate(now - 89 * DAY_MS);
  const yesterday = utcDate(now - DAY_MS);
  // Up to the start of today: a pin posted today has no whole day yet, so every pin has figures.
  const today = Date.parse(utcDate(now));
  const first = now - DAYS * DAY_MS;
  const pins: FillPin[] = [];
  for (let i = 0; i < PINS; i++) {
    const postedAt = first + Math.floor(((i + 0.5) * (today - first)) / PINS);
    const template = i % 10 === 9 ? null : (i * 7) % 24;
    const family = template === null ? null : TEMPLATE_FAMILIES[template % TEMPLATE_FAMILIES.length];
    const pinterestPinId = String(910_000_000_000_000n + BigInt(i));
    const record = {
      id: pinterestPinId,
      username: USERNAME,
      createdAt: new Date(postedAt).toISOString(),
      media: { data: family ? labelled.get(family) : undefined },
    } as unknown as PinRecord;
    const days: FillDay[] = [];
    for (let at = Math.max(Date.parse(utcDate(postedAt)), Date.parse(oldest)); utcDate(at) <= yesterday; at += DAY_MS) {
      const day = pinDay(record, utcDate(at), now);
      if (day.ready) days.push([day.date, day.IMPRESSION, day.SAVE, day.PIN_CLICK, day.OUTBOUND_CLICK]);
    }
    const board = boards[i % boards.length];
    pins.push({
      pinId: `bench-${String(i).padStart(6, "0")}`,
      pinterestPinId,
      postedAt,
      boardId: board.id,
      boardName: board.name,
      templateId: template === null ? null : `bench-template-${template}`,
      templateTitle: template === null ? null : `Template ${template + 1}`,
      family,
      source: SOURCES[i % SOURCES.length],
      title: `Benchmark pin ${i + 1}`,
      imageUrl: `${appUrl}/samples/${PICTURES[i % PICTURES.length]}.jpg`,
      days,
    });
  }
  return pins;
}

interface PageRun {
  /** From the navigation's start to the daily chart drawn on screen. */
  chart: number;
  /** The page hydrated (html[data-hydrated]) as the poll first saw it. */
  hydrated: number;
  /** The overview's answer read (its resource timing's end). */
  overview: number;
}

/** Navigates to /analytics and reads, in the page, when the daily chart was first drawn (polled every frame). */
async function chartOnScreen(page: Page): Promise<PageRun> {
  await page.goto("/analytics", { waitUntil: "commit" });
  const done = await page.waitForFunction(
    () => {
      const state = window as unknown as { __benchHydrated?: number };
      if (state.__benchHydrated === undefined && document.documentElement.dataset.hydrated === "true") state.__benchHydrated = performance.now();
      const canvas = document.querySelector('.analytics-chart canvas[data-ready="true"]');
      if (!canvas) return null;
      const overview = performance.getEntriesByType("resource").find((entry) => entry.name.includes("/api/analytics/overview")) as
        | PerformanceResourceTiming
        | undefined;
      return { chart: performance.now(), hydrated: state.__benchHydrated ?? Number.NaN, overview: overview?.responseEnd ?? Number.NaN };
    },
    undefined,
    { timeout: 60_000, polling: "raf" },
  );
  return (await done.jsonValue()) as PageRun;
}

const { stack, stateDir } = await startBenchStack("analytics");
const browser = await launchChromium();
try {
  say(`Analytics benchmark against ${stack.appUrl} (Pinterest stand-in at ${stack.sandboxUrl}); load average at the start ${load()}\n`);
  const email = `bench-analytics-${Date.now()}@example.test`;
  const token = await verifiedBenchUser(stack, email);
  await connectBenchProfile(stack, token, USERNAME);
  const accounts = (await (await fetch(`${stack.sandboxUrl}/__sandbox/pinterest/accounts`)).json()) as {
    username: string;
    boards: { id: string; name: string; privacy?: string }[];
  }[];
  const boards = accounts.find((account) => account.username === USERNAME)!.boards.filter((board) => board.privacy !== "SECRET");

  // ---- fill: the pins and their days in bulk, then the rest of the night's pass
  const now = Date.now();
  let started = performance.now();
  const pins = profilePins(now, stack.appUrl, boards);
  const generated = performance.now() - started;
  started = performance.now();
  let pinDays = 0;
  for (let at = 0; at < pins.length; at += FILL_CHUNK) {
    const written = await benchCall<{ pins: number; days: number }>(stack, "/api/dev/analytics/fill", token, {
      pinterestProfileUsername: USERNAME,
      pins: pins.slice(at, at + FILL_CHUNK),
      now,
    });
    pinDays += written.days;
  }
  const filled = performance.now() - started;
  started = performance.now();
  const { steps } = await benchCall<{ steps: { requests: number; done: boolean; waitingUntil: number | null; stopped: string | null }[] }>(
    stack,
    "/api/dev/analytics/sync",
    token,
    { pinterestProfileUsername: USERNAME, now },
  );
  const synced = performance.now() - started;
  const last = steps[steps.length - 1];
  if (!last?.done) throw new Error(`the pass did not end: ${JSON.stringify(last)}`);
  const check = await benchCall<AnalyticsOverview>(stack, `/api/analytics/overview?username=${USERNAME}&days=90`, token);
  say(
    `Filled ${pins.length.toLocaleString("en-US")} posted pins over ${DAYS} days on ${USERNAME} (${boards.length} boards): ${pinDays.toLocaleString("en-US")} pin-days ` +
      `(figures from the stand-in's model in ${ms(generated)}), written through POST /api/dev/analytics/fill in ${(filled / 1000).toFixed(1)} s ` +
      `(${Math.ceil(pins.length / FILL_CHUNK)} calls of ${FILL_CHUNK} pins); the rest of the pass (account totals, rollups in ${steps.length} steps) in ${(synced / 1000).toFixed(1)} s.`,
  );
  say(
    `The 90-day overview counts ${check.pins.toLocaleString("en-US")} pins, ${check.totals.impressions.toLocaleString("en-US")} impressions, ${check.daily.length} days.\n`,
  );

  // ---- (b) the API beside /api/health, call by call
  const calls = [
    { name: "GET /api/health", path: "/api/health" },
    { name: "GET /api/analytics/overview (30 days)", path: `/api/analytics/overview?username=${USERNAME}&days=30` },
    { name: "GET /api/analytics/overview (90 days)", path: `/api/analytics/overview?username=${USERNAME}&days=90` },
    { name: "GET /api/analytics/pins (30 days, top 10)", path: `/api/analytics/pins?username=${USERNAME}&days=30&sortBy=impressions&limit=10` },
    { name: "GET /api/analytics/pins (90 days, top 50)", path: `/api/analytics/pins?username=${USERNAME}&days=90&sortBy=impressions&limit=50` },
    { name: "GET /api/analytics/bestTimes", path: `/api/analytics/bestTimes?username=${USERNAME}` },
  ];
  const headers = { "cf-connecting-ip": "198.51.100.7", authorization: `Bearer ${token}` };
  const bytes = new Map<string, number>();
  for (const call of calls) {
    for (let i = 0; i < 3; i++) {
      const answer = await timedHttp(stack.appUrl + call.path, { headers });
      if (answer.status !== 200) throw new Error(`${call.path} answered ${answer.status}`);
      bytes.set(call.name, answer.bytes);
    }
  }
  const pinsPage = await benchCall<AnalyticsPinsPage>(stack, calls[4].path, token);
  const bestTimes = await benchCall<BestTimes>(stack, calls[5].path, token);
  const apiLoad = load();
  const times = new Map<string, number[]>(calls.map((call) => [call.name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (let k = 0; k < calls.length; k++) {
      const call = calls[(round + k) % calls.length];
      const answer = await timedHttp(stack.appUrl + call.path, { headers });
      if (answer.status !== 200) throw new Error(`${call.path} answered ${answer.status}`);
      times.get(call.name)!.push(answer.ms);
    }
  }
  const healthP50 = median(times.get(calls[0].name)!);
  say(`(b) API p50 beside /api/health, ${ROUNDS} rounds interleaved call by call (load average before ${apiLoad}, after ${load()}); target <= 2x /api/health`);
  const ratios: number[] = [];
  for (const call of calls) {
    const values = times.get(call.name)!;
    const ratio = median(values) / healthP50;
    if (call !== calls[0]) ratios.push(ratio);
    say(
      `    ${call.name.padEnd(42)} p50 ${median(values).toFixed(1).padStart(6)} ms  p95 ${percentile(values, 95).toFixed(1).padStart(6)} ms  ` +
        `${String(bytes.get(call.name)).padStart(6)} bytes${call === calls[0] ? "" : `  x${ratio.toFixed(2)} ${ratio <= 2 ? "met" : "NOT MET"}`}`,
    );
  }
  say(
    `    (the pins page holds ${pinsPage.pins.length} of ${pinsPage.total.toLocaleString("en-US")} pins; best times from ${bestTimes.basedOn}, ${bestTimes.sample.toLocaleString("en-US")} pins)`,
  );
  say(`    API target: ${ratios.every((ratio) => ratio <= 2) ? "met" : "NOT MET"} (highest x${Math.max(...ratios).toFixed(2)})\n`);

  // ---- (a) /analytics in Chromium
  const page = await signedInPage(browser, stack, email, "/", { width: 1400, height: 1000 });
  const warmUp = await chartOnScreen(page);
  const runs: PageRun[] = [];
  const pageLoad = load();
  for (let run = 0; run < RUNS; run++) runs.push(await chartOnScreen(page));
  const chart = median(runs.map((run) => run.chart));
  say(`(a) /analytics: navigation to the first chart on screen, median of ${RUNS} (load average before ${pageLoad}, after ${load()}); target <= 1000 ms`);
  say(`    first chart: median ${ms(chart)} (${runs.map((run) => ms(run.chart)).join(", ")}) ${chart <= 1000 ? "met" : "NOT MET"}`);
  say(
    `    of which hydrated: median ${ms(median(runs.map((run) => run.hydrated)))}; the overview's answer read: median ${ms(median(runs.map((run) => run.overview)))}`,
  );
  say(`    the warm-up navigation (the worker's and Chart.js's first use): ${ms(warmUp.chart)}`);
  say(`\nload average at the end ${load()}`);
} finally {
  closeTimedHttp();
  await browser.close();
  await stack.stop();
  rmSync(stateDir, { recursive: true, force: true });
}
