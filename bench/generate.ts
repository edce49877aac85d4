// `npm run bench:generate`: how fast the generator turns the sandbox's demo
// blog into pins, against a stack started the way `npm start` starts it (on
// free ports, fresh state), driven in headless Chromium. Prints:
//   (a) the server-side scrape of one demo-blog page (median of 20 calls; target < 300 ms);
//   (b) from the page receiving the scrape result to 20 previews on screen (target <= 2 s),
//       read from performance marks the page sets; the URL is pasted once the page has warmed its preview
//       engine (templates, fonts), as it does while a user types; BENCH_VERBOSE=1 adds requests and the
//       preview workers' steps, BENCH_PROFILE=1 a CPU profile, BENCH_TRACE=1 the main thread's trace events;
//   (c) from the demo blog's sitemap index to 100 posts generated.
// Figures only: nothing here asserts a time.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { launchChromium } from "../test/e2e/support/browser.ts";
import { freePort, startStack } from "../scripts/stack.ts";
import { benchCall, signedInPage, verifiedBenchUser } from "./bench-session.ts";

const SCRAPES = Number(process.env.BENCH_SCRAPES ?? 20);
const PREVIEWS = 20;
const SITEMAP_POSTS = 100;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};

const stateDir = mkdtempSync(join(tmpdir(), "pinboard-bench-generate-"));
const stack = await startStack({ appPort: await freePort(), sandboxPort: 0, videoPort: 0, persistTo: stateDir, build: !process.env.BENCH_SKIP_BUILD, quiet: true });
const app = stack.appUrl;
const blogPost = `${stack.sandboxUrl}/blog-demo/posts/berry-smoothie-bowls`;
const sitemapIndex = `${stack.sandboxUrl}/blog-demo/sitemap_index.xml`;
const browser = await launchChromium();

const call = <T,>(path: string, token: string | null, body?: unknown) => benchCall<T>(stack, path, token, body);
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
  const events = traceEvents.filter((event) => event.pid === main.pid && event.tid === main.tid && event.ph === "X" && event.dur).sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
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

  // (b) One page -> 20 pins (one of each of 20 templates) -> 20 previews on screen.
  const { templates } = await call<{ templates: { templateId: string }[] }>("/api/templates/standardTemplates", token);
  await call("/api/user/saveDesignSettings", token, {
    designSettings: { templateSelections: templates.slice(0, PREVIEWS).map((t) => t.templateId), useOneOfEachTemplate: true, isRandomTemplates: false },
  });
  const page = await generatorPage(email);
  // As a user would be typing the URL meanwhile: the page prefetches the templates to generate with and their fonts.
  const warmMs = await page.waitForFunction(() => performance.getEntriesByName("preview:engine-warm")[0]?.startTime ?? null, null, { timeout: 60_000, polling: 50 });
  const warmAt = Number(await warmMs.jsonValue());
  await page.getByLabel("Paste a blog post or web page URL").fill(blogPost);
  const profiler = process.env.BENCH_PROFILE ? await page.context().newCDPSession(page) : null;
  if (profiler) {
    await profiler.send("Profiler.enable");
    await profiler.send("Profiler.start");
  }
  if (process.env.BENCH_TRACE) await browser.startTracing(page, { categories: ["devtools.timeline", "disabled-by-default-devtools.timeline", "blink", "v8.execute"] });
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
      return {
        scraped: scraped.startTime,
        twentieth: ready[wanted - 1].startTime,
        shown: document.querySelectorAll('.post-grid [data-preview="ready"]').length,
        requests: performance
          .getEntriesByType("resource")
          .filter((entry) => entry.startTime >= scraped.startTime - 50)
          .map((entry) => `  +${after(entry.startTime)} ms for ${Math.round(entry.duration)} ms: ${entry.name.replace(location.origin, "").slice(0, 110)}`),
        steps: performance
          .getEntriesByType("measure")
          .filter((entry) => entry.name.startsWith("preview:") && entry.startTime >= scraped.startTime - 50)
          .map((entry) => ({ name: entry.name.slice("preview:".length), start: after(entry.startTime), ms: Math.round(entry.duration) })),
        timeline: `posts generated +${posts ? after(posts.startTime) : "?"} ms; previews ready at +${ready.map((entry) => after(entry.startTime)).join(", +")} ms`,
      };
    },
    PREVIEWS,
    { timeout: 120_000, polling: 50 },
  );
  const marks = (await previews.jsonValue())!;
  if (process.env.BENCH_VERBOSE) {
    console.log(`\nRequests after the scrape result:\n${marks.requests.join("\n")}`);
    console.log("\nPreview steps (in the preview workers), from the scrape result:");
    for (const name of [...new Set(marks.steps.map((step) => step.name))]) {
      const of = marks.steps.filter((step) => step.name === name);
      console.log(`  ${name.padEnd(9)} median ${median(of.map((step) => step.ms))} ms, max ${Math.max(...of.map((step) => step.ms))} ms; first ${of.slice(0, 4).map((step) => `+${step.start} for ${step.ms}`).join(", ")}`);
    }
  }
  if (profiler) printProfile((await profiler.send("Profiler.stop")).profile as CpuProfile);
  if (process.env.BENCH_TRACE) printTrace(JSON.parse((await browser.stopTracing()).toString("utf8")) as { traceEvents: TraceEvent[] });

  // (c) Sitemap index -> 100 posts.
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
  await dialog.getByRole("list", { name: "Post URLs" }).evaluate((list, wanted) => {
    [...list.querySelectorAll<HTMLInputElement>("input[type=checkbox]")].slice(0, wanted).forEach((box) => box.click());
  }, SITEMAP_POSTS);
  const generateStart = Date.now();
  await dialog.getByRole("button", { name: /^Generate \d+ pins$/ }).click();
  await sitemapPage.waitForFunction((wanted) => document.querySelectorAll(".post-grid > li").length >= wanted, SITEMAP_POSTS, { timeout: 300_000, polling: 50 });
  const generateMs = Date.now() - generateStart;

  console.log(`Generator benchmark against ${app} (sandbox ${stack.sandboxUrl})\n`);
  console.log(`(a) scrape one demo-blog page (server side): median ${median(scrapeMs).toFixed(0)} ms over ${SCRAPES} calls (min ${Math.min(...scrapeMs).toFixed(0)}, max ${Math.max(...scrapeMs).toFixed(0)}); target < 300 ms`);
  console.log(
    `(b) scrape result received -> ${PREVIEWS} previews on screen: ${((marks.twentieth - marks.scraped) / 1000).toFixed(2)} s ` +
      `(click -> scrape result ${((marks.scraped - clicked) / 1000).toFixed(2)} s; ${marks.shown} previews ready); target <= 2 s\n` +
      `    preview engine warm ${(warmAt / 1000).toFixed(2)} s after the page started loading; ${marks.timeline}`,
  );
  console.log(
    `(c) sitemap index -> ${SITEMAP_POSTS} posts generated: ${((lookupMs + generateMs) / 1000).toFixed(2)} s ` +
      `(finding ${listed} post URLs ${(lookupMs / 1000).toFixed(2)} s, reading ${SITEMAP_POSTS} pages and generating ${(generateMs / 1000).toFixed(2)} s)`,
  );
} finally {
  await browser.close();
  await stack.stop();
  rmSync(stateDir, { recursive: true, force: true });
}
