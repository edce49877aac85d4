// `npm run bench:generate`: how fast the generator turns the sandbox's demo
// blog into pins, against a stack started the way `npm start` starts it (on
// free ports, fresh state), driven in headless Chromium. Prints:
//   (a) the server-side scrape of one demo-blog page (median of 20 calls; target < 300 ms);
//   (b) from the page receiving the scrape result to 20 previews on screen (target <= 1 s, median of
//       BENCH_RUNS=5 fresh pages), read from performance marks the page sets; the URL is pasted once the page
//       has warmed its preview engine (templates, fonts), as it does while a user types. Also prints where the
//       time goes: the engine's start, each preview's steps in the workers, the photos, the main thread, the
//       number of workers and the order previews appear in; BENCH_VERBOSE=1 adds the requests and each card's
//       times, BENCH_PROFILE=1 a CPU profile, BENCH_TRACE=1 the main thread's trace events (last run);
//       BENCH_PARTS=ab skips (c);
//   (c) from the demo blog's sitemap index to 100 posts generated.
// Figures only: nothing here asserts a time.
import { rmSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import type { Page } from "playwright-core";
import { launchChromium } from "../test/e2e/support/browser.ts";
import { startBenchStack } from "../scripts/stack.ts";
import { benchCall, signedInPage, verifiedBenchUser } from "./bench-session.ts";

const SCRAPES = Number(process.env.BENCH_SCRAPES ?? 20);
const PREVIEWS = 20;
const SITEMAP_POSTS = 100;
/** Which parts to run (BENCH_PARTS=b skips the sitemap while working on previews). */
const PARTS = process.env.BENCH_PARTS ?? "abc";
/** Runs of (b): the target is the median of 5. */
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};

const { stack, stateDir } = await startBenchStack("generate");
const app = stack.appUrl;
const blogPost = `${stack.sandboxUrl}/blog-demo/posts/berry-smoothie-bowls`;
const sitemapIndex = `${stack.sandboxUrl}/blog-demo/sitemap_index.xml`;
const browser = await launchChromium();

const call = <T>(path: string, token: string | null, body?: unknown) => benchCall<T>(stack, path, token, body);
const verifiedUser = (email: string) => verifiedBenchUser(stack, email);

/** A signed-in page at /generate (session cookie and tokens, as after logging in). */
async function generatorPage(email: string): Promise<Page> {
  const page = await signedInPage(browser, stack, email, "/generate");
  await page.getByRole("heading", { name: "Design settings" }).waitFor();
  return page;
}

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

/** BENCH_PROFILE=1: where the page spent its time during (b), by function (self time). */
function printProfile(profile: CpuProfile) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const frame = byId.get(id)!.callFrame;
    const name = `${frame.functionName || "(anonymous)"} ${frame.url.split("/").pop() ?? ""}:${frame.lineNumber}`;
    self.set(name, (self.get(name) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  console.log(`\nCPU profile of (b): ${total.toFixed(0)} ms sampled; top functions by self time:`);
  for (const [name, ms] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`  ${ms.toFixed(0).padStart(6)} ms  ${name}`);
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  args?: { name?: string };
}

/** BENCH_TRACE=1: the renderer main thread's work during (b), by trace event (self time, nested events subtracted). */
function printTrace({ traceEvents }: { traceEvents: TraceEvent[] }) {
  const main = traceEvents.find((event) => event.ph === "M" && event.name === "thread_name" && event.args?.name === "CrRendererMain");
  if (!main) return;
  const events = traceEvents
    .filter((event) => event.pid === main.pid && event.tid === main.tid && event.ph === "X" && event.dur)
    .sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const self = new Map<string, number>();
  const stack: TraceEvent[] = [];
  for (const event of events) {
    while (stack.length && stack.at(-1)!.ts + stack.at(-1)!.dur! <= event.ts) stack.pop();
    const parent = stack.at(-1);
    if (parent) self.set(parent.name, (self.get(parent.name) ?? 0) - event.dur! / 1000);
    self.set(event.name, (self.get(event.name) ?? 0) + event.dur! / 1000);
    stack.push(event);
  }
  console.log("\nRenderer main thread during (b), self time by trace event:");
  for (const [name, ms] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`  ${ms.toFixed(0).padStart(6)} ms  ${name}`);
}

interface PreviewRun {
  /** Scrape result -> the 20th preview on screen, ms. */
  total: number;
  click: number;
  warmAt: number;
  shown: number;
  workers: number;
  postsReady: number;
  firstReady: number;
  /** Engine start (in each worker, from its creation): step -> ms. */
  warm: Record<string, number>;
  /** Per-preview steps after the scrape result: step -> durations. */
  steps: Record<string, number[]>;
  /** Per card, in grid order: when its picture arrived on the page and when it was on screen (ms after the scrape result). */
  cards: { index: number; arrived: number; ready: number }[];
  /** Main-thread long tasks between the scrape result and the 20th preview: count and ms. */
  longTasks: { count: number; ms: number };
  requests: string[];
  timeline: string;
}

/** Watches the grid (before the app runs): when each card's picture arrives and is shown, and the main thread's long tasks. */
const WATCH_SCRIPT = () => {
  const win = window as unknown as { __cards: Map<string, { arrived?: number; ready?: number }>; __longTasks: { start: number; ms: number }[] };
  win.__cards = new Map();
  win.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) win.__longTasks.push({ start: entry.startTime, ms: entry.duration });
  }).observe({ type: "longtask", buffered: true });
  const note = (element: Element) => {
    const card = element.closest("[data-post-id]");
    if (!card) return;
    const id = card.getAttribute("data-post-id")!;
    const seen = win.__cards.get(id) ?? {};
    if (element.matches("img.pin-preview__image") && seen.arrived === undefined) seen.arrived = performance.now();
    if (element.getAttribute("data-preview") === "ready" && seen.ready === undefined) seen.ready = performance.now();
    win.__cards.set(id, seen);
  };
  new MutationObserver((mutations) => {
    for (const mutation of mutations) {
      if (mutation.type === "attributes") note(mutation.target as Element);
      for (const node of mutation.addedNodes) {
        if (!(node instanceof Element)) continue;
        if (node.matches("img.pin-preview__image, [data-preview]")) note(node);
        node.querySelectorAll("img.pin-preview__image, [data-preview]").forEach(note);
      }
    }
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-preview", "src"] });
};

/** One run of (b) on a fresh page: paste once the engine is warm, Generate, wait for 20 previews on screen. */
async function previewRun(email: string, diagnose: boolean): Promise<PreviewRun> {
  const page = await signedInPage(browser, stack, email, "/generate", undefined, WATCH_SCRIPT);
  await page.getByRole("heading", { name: "Design settings" }).waitFor();
  // As a user would be typing the URL meanwhile: the page prefetches the templates to generate with and their fonts.
  const warmMs = await page.waitForFunction(() => performance.getEntriesByName("preview:engine-warm")[0]?.startTime ?? null, null, {
    timeout: 60_000,
    polling: 50,
  });
  const warmAt = Number(await warmMs.jsonValue());
  await page.getByLabel("Paste a blog post or web page URL").fill(blogPost);
  const profiler = diagnose && process.env.BENCH_PROFILE ? await page.context().newCDPSession(page) : null;
  if (profiler) {
    await profiler.send("Profiler.enable");
    await profiler.send("Profiler.start");
  }
  if (diagnose && process.env.BENCH_TRACE)
    await browser.startTracing(page, { categories: ["devtools.timeline", "disabled-by-default-devtools.timeline", "blink", "v8.execute"] });
  const clicked = await page.evaluate(() => performance.now());
  await page.getByRole("button", { name: "Generate", exact: true }).click();
  const previews = await page.waitForFunction(
    (wanted) => {
      const scraped = performance.getEntriesByName("generator:scrape-result")[0];
      if (!scraped) return null;
      const ready = performance.getEntriesByName("generator:preview-ready").filter((entry) => entry.startTime >= scraped.startTime);
      if (ready.length < wanted) return null;
      const posts = performance.getEntriesByName("generator:posts-ready").filter((entry) => entry.startTime >= scraped.startTime)[0];
      const after = (time: number) => Math.round(time - scraped.startTime);
      const twentieth = ready[wanted - 1].startTime;
      const win = window as unknown as { __cards: Map<string, { arrived?: number; ready?: number }>; __longTasks: { start: number; ms: number }[] };
      const cardIds = [...document.querySelectorAll(".post-grid [data-post-id]")].map((card) => card.getAttribute("data-post-id")!);
      const longTasks = win.__longTasks.filter((task) => task.start + task.ms > scraped.startTime && task.start < twentieth);
      const warm: Record<string, number> = {};
      for (const entry of performance.getEntriesByType("measure")) {
        if (entry.name.startsWith("preview:warm-") && entry.startTime < scraped.startTime)
          warm[entry.name.slice("preview:".length)] = Math.max(warm[entry.name.slice("preview:".length)] ?? 0, Math.round(entry.duration));
      }
      const steps: Record<string, number[]> = {};
      for (const entry of performance.getEntriesByType("measure")) {
        if (
          !entry.name.startsWith("preview:") ||
          entry.name.startsWith("preview:warm-") ||
          entry.startTime < scraped.startTime - 50 ||
          entry.startTime > twentieth
        )
          continue;
        (steps[entry.name.slice("preview:".length)] ??= []).push(Math.round(entry.duration));
      }
      return {
        total: twentieth - scraped.startTime,
        click: scraped.startTime,
        warmAt: 0,
        shown: document.querySelectorAll('.post-grid [data-preview="ready"]').length,
        workers: (performance.getEntriesByName("preview:workers")[0] as PerformanceMark | undefined)?.detail?.count ?? 0,
        postsReady: posts ? after(posts.startTime) : NaN,
        firstReady: after(ready[0].startTime),
        warm,
        steps,
        cards: cardIds.map((id, index) => ({ index, arrived: after(win.__cards.get(id)?.arrived ?? NaN), ready: after(win.__cards.get(id)?.ready ?? NaN) })),
        longTasks: { count: longTasks.length, ms: Math.round(longTasks.reduce((sum, task) => sum + task.ms, 0)) },
        requests: performance
          .getEntriesByType("resource")
          .filter((entry) => entry.startTime >= scraped.startTime - 50)
          .map((entry) => `  +${after(entry.startTime)} ms for ${Math.round(entry.duration)} ms: ${entry.name.replace(location.origin, "").slice(0, 110)}`),
        timeline: `posts generated +${posts ? after(posts.startTime) : "?"} ms; previews ready at +${ready.map((entry) => after(entry.startTime)).join(", +")} ms`,
      };
    },
    PREVIEWS,
    { timeout: 120_000, polling: 50 },
  );
  const result = (await previews.jsonValue())!;
  result.click = result.click - clicked;
  result.warmAt = warmAt;
  if (profiler) printProfile((await profiler.send("Profiler.stop")).profile as CpuProfile);
  if (diagnose && process.env.BENCH_TRACE) printTrace(JSON.parse((await browser.stopTracing()).toString("utf8")) as { traceEvents: TraceEvent[] });
  await page.context().close();
  return result;
}

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;
};

/** (b)'s figures: each run, the median, and where the time went (medians over the runs). */
function printPreviewRuns(runs: PreviewRun[]) {
  if (runs.length === 0) return;
  const totals = runs.map((run) => run.total);
  const mid = [...runs].sort((a, b) => a.total - b.total)[Math.floor(runs.length / 2)]!;
  const over = (pick: (run: PreviewRun) => number) => median(runs.map(pick)).toFixed(0);
  const all = (step: string) => runs.flatMap((run) => run.steps[step] ?? []);
  const stepLine = (step: string) => {
    const values = all(step);
    return values.length ? `${step} ${median(values)} (p90 ${pct(values, 0.9)}, max ${Math.max(...values)})` : `${step} -`;
  };
  const shows = runs.flatMap((run) => run.cards.map((card) => card.ready - card.arrived).filter(Number.isFinite));
  const outOfOrder = runs.map((run) => {
    const byReady = [...run.cards].filter((card) => Number.isFinite(card.ready)).sort((a, b) => a.ready - b.ready);
    return byReady.filter((card, i) => i > 0 && card.index < byReady[i - 1]!.index).length;
  });
  console.log(
    `(b) scrape result received -> ${PREVIEWS} previews on screen: median ${(median(totals) / 1000).toFixed(2)} s over ${runs.length} runs ` +
      `(${totals.map((total) => (total / 1000).toFixed(2)).join(", ")} s); target <= 1 s\n` +
      `    click -> scrape result median ${over((run) => run.click)} ms; preview engine warm median ${(median(runs.map((run) => run.warmAt)) / 1000).toFixed(2)} s after the page started loading; ` +
      `${mid.workers} preview worker(s) beside the page's thread`,
  );
  const warm = (step: string) => over((run) => run.warm[step] ?? NaN);
  console.log(
    `    engine start, before the scrape result (medians; each from the worker's creation): worker script ${warm("warm-start")} ms, ` +
      `satori with its WASM compiled ${warm("warm-engine")} ms, fonts fetched and parsed ${warm("warm-fonts")} ms, ` +
      `font sets parsed by satori ${warm("warm-font-sets")} ms, first designs drawn in full ${warm("warm-drawings")} ms`,
  );
  console.log(
    `    after the scrape result (medians): posts generated +${over((run) => run.postsReady)} ms, first preview on screen +${over((run) => run.firstReady)} ms, ${PREVIEWS}th +${over((run) => run.total)} ms`,
  );
  console.log(`    per preview, ms (median, p90, max): ${["queued", "fonts", "layout", "pictures", "engine", "satori", "reply"].map(stepLine).join("; ")}`);
  const fetches = all("picture-fetch");
  const resizes = all("picture-resize");
  console.log(
    `    pictures, fetched and downscaled in the preview worker(s) (off the main thread): ${fetches.length / runs.length} per run, ` +
      `fetch median ${median(fetches)} ms (max ${Math.max(...fetches)}), decode + downscale + encode median ${median(resizes)} ms (max ${Math.max(...resizes)})`,
  );
  console.log(
    `    on the page (main thread): SVG arrived -> on screen (decode, paint) median ${median(shows)} ms, p90 ${pct(shows, 0.9)}, max ${Math.max(...shows)}; ` +
      `long tasks until the ${PREVIEWS}th preview: median ${over((run) => run.longTasks.count)} for ${over((run) => run.longTasks.ms)} ms`,
  );
  console.log(`    order: previews out of grid order per run: ${outOfOrder.join(", ")} (0 = on screen in the order of the grid)`);
  console.log(`    median run: ${mid.timeline}`);
  if (process.env.BENCH_VERBOSE) {
    console.log(`\nRequests after the scrape result (median run):\n${mid.requests.join("\n")}`);
    console.log(
      `\nCards of the median run (grid index: SVG arrived, on screen, ms after the scrape result):\n  ${mid.cards.map((card) => `${card.index}: +${card.arrived}/+${card.ready}`).join(", ")}`,
    );
  }
}

/** (c) The demo blog's sitemap index -> 100 posts generated; answers the printed line. */
async function sitemapRun(token: string, email: string): Promise<string> {
  await call("/api/user/saveDesignSettings", token, { designSettings: { templateSelections: [], useOneOfEachTemplate: false } });
  const sitemapPage = await generatorPage(email);
  await sitemapPage.getByRole("tab", { name: "Sitemap" }).click();
  await sitemapPage.getByLabel("Find the posts of a whole site from its sitemap").fill(sitemapIndex);
  const lookupStart = Date.now();
  await sitemapPage.getByRole("button", { name: "Find posts" }).click();
  const dialog = sitemapPage.getByRole("dialog", { name: "Posts found in the sitemap" });
  await dialog.waitFor({ timeout: 60_000 });
  const lookupMs = Date.now() - lookupStart;
  const listed = await dialog.getByRole("checkbox").count();
  // Exactly the first 100 posts.
  await dialog.getByLabel("Select all").uncheck();
  await dialog.getByRole("list", { name: "Posts" }).evaluate((list, wanted) => {
    [...list.querySelectorAll<HTMLInputElement>("input[type=checkbox]")].slice(0, wanted).forEach((box) => {
      box.click();
    });
  }, SITEMAP_POSTS);
  const generateStart = Date.now();
  await dialog.getByRole("button", { name: /^Generate \d+ pins? from \d+ posts?$/ }).click();
  await sitemapPage.waitForFunction((wanted) => document.querySelectorAll(".post-grid > li").length >= wanted, SITEMAP_POSTS, {
    timeout: 300_000,
    polling: 50,
  });
  const generateMs = Date.now() - generateStart;
  await sitemapPage.context().close();
  return (
    `(c) sitemap index -> ${SITEMAP_POSTS} posts generated: ${((lookupMs + generateMs) / 1000).toFixed(2)} s ` +
    `(finding ${listed} post URLs ${(lookupMs / 1000).toFixed(2)} s, reading ${SITEMAP_POSTS} pages and generating ${(generateMs / 1000).toFixed(2)} s)`
  );
}

try {
  const email = `bench-${Date.now().toString(36)}@example.test`;
  const token = await verifiedUser(email);

  // (a) The server-side scrape of one page.
  await call("/highMemLimitApi/scraping/scrapeWebsite", token, { url: blogPost }); // warm-up
  const scrapeMs: number[] = [];
  for (let i = 0; i < SCRAPES; i++) {
    const start = performance.now();
    await call("/highMemLimitApi/scraping/scrapeWebsite", token, { url: blogPost });
    scrapeMs.push(performance.now() - start);
  }

  // (b) One page -> 20 pins (one of each of 20 templates) -> 20 previews on screen, RUNS times (a fresh browser context each).
  const { templates } = await call<{ templates: { templateId: string }[] }>("/api/templates/standardTemplates", token);
  await call("/api/user/saveDesignSettings", token, {
    designSettings: { templateSelections: templates.slice(0, PREVIEWS).map((t) => t.templateId), useOneOfEachTemplate: true, isRandomTemplates: false },
  });
  const runs: PreviewRun[] = [];
  for (let run = 0; run < RUNS; run++) runs.push(await previewRun(email, run === RUNS - 1));

  // (c) Sitemap index -> 100 posts.
  const sitemapFigures = PARTS.includes("c") ? await sitemapRun(token, email) : null;

  console.log(
    `\nGenerator benchmark against ${app} (sandbox ${stack.sandboxUrl}); load average ${loadavg()
      .map((load) => load.toFixed(2))
      .join(", ")} on ${cpus().length} cores\n`,
  );
  console.log(
    `(a) scrape one demo-blog page (server side): median ${median(scrapeMs).toFixed(0)} ms over ${SCRAPES} calls (min ${Math.min(...scrapeMs).toFixed(0)}, max ${Math.max(...scrapeMs).toFixed(0)}); target < 300 ms`,
  );
  printPreviewRuns(runs);
  if (sitemapFigures) console.log(sitemapFigures);
} finally {
  await browser.close();
  await stack.stop();
  rmSync(stateDir, { recursive: true, force: true });
}
