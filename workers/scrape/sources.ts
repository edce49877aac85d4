import {
  MAX_SITEMAP_URLS,
  type ScrapeFeedResponse,
  type ScrapeWebsitesResponse,
  type SitemapPost,
  type SitemapResponse,
  type Source,
} from "../../contracts/content/scrape.ts";
import { trustedHosts } from "../http/guarded-fetch.ts";
import { ServiceError } from "../services/core/errors.ts";
import { parseFeed, type FeedItem } from "./feed.ts";
import {
  FEED_TYPES,
  HTML_TYPES,
  MAX_HTML_BYTES,
  MAX_ROBOTS_BYTES,
  MAX_XML_BYTES,
  SITEMAP_TYPES,
  openSource,
  readSourceText,
  sourceErrors,
  type OpenedSource,
  type ScrapeEnv,
  type SourceRequest,
} from "./fetch.ts";
import { chooseImages } from "./images.ts";
import { MAX_HANDLER_CALLS, PageTooComplex, ReadingBudget, readFragment, readPageFacts } from "./page-reader.ts";
import { MAX_DESCRIPTION_LENGTH, MAX_PARAGRAPH_DESCRIPTION_LENGTH, MAX_TITLE_LENGTH, hostName, pageSource, type PageFacts } from "./page-source.ts";
import { isPostUrl, newestFirst, parseSitemap, postSitemapsFirst, sitemapLocations, sitemapsFromRobots, titleFromUrl, type SitemapEntry } from "./sitemap.ts";
import { attributeUrl, cleanText, isoDate } from "./text.ts";
import { normalizeSourceUrl, resolveWebUrl } from "./url.ts";

/**
 * Sources for the generator (issue 5): a web page, many pages, a site's post
 * URLs from its sitemap, an RSS or Atom feed's items. Every fetch goes through
 * fetch.ts (bounded); every failure is a ServiceError a user can read.
 */

/** Pages fetched at once by scrapeWebsites. */
export const SCRAPE_CONCURRENCY = 6;
/** Sitemap indexes are followed at most this deep (index -> index -> urlset). */
export const MAX_SITEMAP_DEPTH = 3;
/** At most this many sitemap files are read for one site. */
export const MAX_SITEMAP_FILES = 50;

const PAGE: SourceRequest = {
  noun: "page",
  what: "a web page",
  accept: HTML_TYPES,
  maxBytes: MAX_HTML_BYTES,
  acceptHeader: "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5",
};
const SITEMAP: SourceRequest = {
  noun: "sitemap",
  what: "a sitemap",
  accept: SITEMAP_TYPES,
  maxBytes: MAX_XML_BYTES,
  acceptHeader: "application/xml,text/xml;q=0.9,*/*;q=0.5",
};
const ROBOTS: SourceRequest = { noun: "robots.txt", what: "a robots.txt file", accept: ["text/plain"], maxBytes: MAX_ROBOTS_BYTES, acceptHeader: "text/plain" };
const FEED: SourceRequest = {
  noun: "feed",
  what: "an RSS or Atom feed",
  accept: [...FEED_TYPES, ...HTML_TYPES],
  maxBytes: MAX_XML_BYTES,
  acceptHeader: "application/rss+xml,application/atom+xml,application/xml;q=0.9,text/xml;q=0.9,*/*;q=0.5",
};

export interface ScrapeOptions {
  /** Overrides the time limit of each fetch (tests use short ones). */
  timeoutMs?: number;
}

/** The URL rule of spec section 5, as the worker applies it: a 400 naming the field when it fails. */
export function checkSourceUrl(env: ScrapeEnv, input: string, field = "url"): string {
  const check = normalizeSourceUrl(input, { localHosts: trustedHosts(env), field });
  if (!check.ok) throw new ServiceError(400, check.error, field);
  return check.url;
}

/** Reads a page's facts; a body cut short (too large, too slow) or refused by the HTML reader fails with the reason. */
async function pageFacts(source: OpenedSource): Promise<PageFacts> {
  let facts: PageFacts;
  try {
    facts = await readPageFacts(source.response);
  } catch (error) {
    throw source.failure() ?? (error instanceof PageTooComplex ? sourceErrors.tooComplex(source.noun) : sourceErrors.unreadable(source.noun));
  }
  const failure = source.failure();
  if (failure) throw failure;
  return facts;
}

/** One web page as a source. Exported for the benchmark, which times exactly this. */
export async function scrapeWebsite(env: ScrapeEnv, input: string, options: ScrapeOptions = {}): Promise<Source> {
  const url = checkSourceUrl(env, input);
  const source = await openSource(env, url, { ...PAGE, timeoutMs: options.timeoutMs });
  return pageSource(await pageFacts(source), source.url);
}

/** Runs `work` over `items`, at most `limit` at a time, answers in input order. */
async function mapWithConcurrency<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const runners = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await work(items[index]!);
    }
  });
  await Promise.all(runners);
  return results;
}

/** Many pages at once (a sitemap's posts): each one a source or a failure with its reason. */
export async function scrapeWebsites(env: ScrapeEnv, urls: readonly string[], options: ScrapeOptions = {}): Promise<ScrapeWebsitesResponse> {
  type Outcome = { url: string; source: Source } | { url: string; error: string };
  const outcomes = await mapWithConcurrency(urls, SCRAPE_CONCURRENCY, async (url): Promise<Outcome> => {
    try {
      return { url, source: await scrapeWebsite(env, url, options) };
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      return { url, error: error.message };
    }
  });
  const sources: Source[] = [];
  const failures: ScrapeWebsitesResponse["failures"] = [];
  for (const outcome of outcomes) {
    if ("source" in outcome) sources.push(outcome.source);
    else failures.push(outcome);
  }
  return { sources, failures };
}

/** A sitemap file read and parsed; null when it is missing or not a sitemap (during discovery). */
async function readSitemapFile(env: ScrapeEnv, url: string, options: ScrapeOptions) {
  const text = await readSourceText(await openSource(env, url, { ...SITEMAP, timeoutMs: options.timeoutMs }));
  const parsed = parseSitemap(text);
  if (!parsed) throw new ServiceError(415, "That address is not a sitemap.", "url");
  return parsed;
}

/** Post URLs listed by a sitemap, following indexes (bounded in depth and number of files). */
async function postUrlsOf(env: ScrapeEnv, sitemapUrl: string, options: ScrapeOptions): Promise<SitemapPost[]> {
  const entries: SitemapEntry[] = [];
  const seenFiles = new Set<string>([sitemapUrl]);
  let level = [sitemapUrl];
  let filesRead = 0;
  let firstError: ServiceError | null = null;
  for (let depth = 0; depth < MAX_SITEMAP_DEPTH && level.length > 0 && entries.length < MAX_SITEMAP_URLS; depth += 1) {
    const files = level.slice(0, MAX_SITEMAP_FILES - filesRead);
    filesRead += files.length;
    const parsed = await mapWithConcurrency(files, 4, async (file) => {
      try {
        return { file, sitemap: await readSitemapFile(env, file, options) };
      } catch (error) {
        if (!(error instanceof ServiceError)) throw error;
        firstError ??= error;
        return { file, sitemap: null };
      }
    });
    const nextLevel: string[] = [];
    for (const { file, sitemap } of parsed) {
      if (!sitemap) continue;
      if (sitemap.kind === "urlset") {
        for (const entry of sitemap.entries) if (isPostUrl(entry.loc, file)) entries.push(entry);
      } else {
        for (const child of postSitemapsFirst(sitemap.sitemaps)) {
          const resolved = resolveWebUrl(child, file);
          if (resolved && !seenFiles.has(resolved)) {
            seenFiles.add(resolved);
            nextLevel.push(resolved);
          }
        }
      }
    }
    level = nextLevel;
  }
  if (entries.length === 0 && firstError && filesRead === 1) throw firstError;
  const seen = new Set<string>();
  const posts: SitemapPost[] = [];
  for (const entry of newestFirst(entries)) {
    if (seen.has(entry.loc)) continue;
    seen.add(entry.loc);
    posts.push(
      entry.title
        ? { url: entry.loc, title: entry.title, lastmod: entry.lastmod }
        : { url: entry.loc, title: titleFromUrl(entry.loc), titleGuessed: true, lastmod: entry.lastmod },
    );
    if (posts.length >= MAX_SITEMAP_URLS) break;
  }
  return posts;
}

const sitemapAnswer = (posts: SitemapPost[], usedSitemap: string): SitemapResponse => ({ allPostURLs: posts.map((post) => post.url), posts, usedSitemap });

const looksLikeSitemap = (url: URL) => /\.xml(\.gz)?$/i.test(url.pathname) || /sitemap/i.test(url.pathname);

/**
 * A site's post URLs from its sitemap. Given a sitemap's address it reads that
 * one; given any other page of the site it looks for the sitemap in
 * robots.txt, then at the usual addresses.
 */
export async function getSitemapPostURLs(env: ScrapeEnv, input: string, options: ScrapeOptions = {}): Promise<SitemapResponse> {
  const url = checkSourceUrl(env, input);
  if (looksLikeSitemap(new URL(url))) {
    const posts = await postUrlsOf(env, url, options);
    if (posts.length === 0) throw new ServiceError(404, "That sitemap lists no posts.", "url");
    return sitemapAnswer(posts, url);
  }

  const { robots, candidates } = sitemapLocations(url);
  // A refusal of the address itself (400: a private network) is the answer when no sitemap is found, not "none found".
  let refusedAddress: ServiceError | null = null;
  const declared = await Promise.all(
    robots.map(async (robotsUrl) => {
      try {
        const source = await openSource(env, robotsUrl, { ...ROBOTS, timeoutMs: options.timeoutMs });
        return sitemapsFromRobots(await readSourceText(source), source.url);
      } catch (error) {
        if (!(error instanceof ServiceError)) throw error;
        if (error.status === 400) refusedAddress ??= error;
        return [];
      }
    }),
  );
  const tried = new Set<string>();
  let emptySitemap: string | null = null;
  for (const sitemapUrl of [...declared.flat(), ...candidates]) {
    if (tried.has(sitemapUrl)) continue;
    tried.add(sitemapUrl);
    let posts: SitemapPost[];
    try {
      posts = await postUrlsOf(env, sitemapUrl, options);
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      if (error.status === 400) refusedAddress ??= error;
      continue;
    }
    if (posts.length > 0) return sitemapAnswer(posts, sitemapUrl);
    emptySitemap ??= sitemapUrl;
  }
  if (emptySitemap) throw new ServiceError(404, `The sitemap at ${emptySitemap} lists no posts.`, "url");
  if (refusedAddress) throw refusedAddress;
  const host = new URL(url).host;
  throw new ServiceError(404, `We could not find a sitemap for ${host}. Enter the sitemap's address instead (often https://${host}/sitemap.xml).`, "url");
}

/** The HTML reader's handler calls for all the items of one feed (a few hundred an item; decision 078). */
const MAX_FEED_HANDLER_CALLS = 4 * MAX_HANDLER_CALLS;

/** One feed item as a source: its HTML turned into text (within the feed's budget), its images chosen like a page's. */
async function itemSource(item: FeedItem, feed: { title: string; siteUrl: string; url: string }, budget: ReadingBudget): Promise<Source> {
  const [summary, content, title] = await Promise.all([
    readFragment(item.summaryHtml, budget),
    readFragment(item.contentHtml, budget),
    readFragment(item.title, budget),
  ]);
  const link = item.link || feed.siteUrl || feed.url;
  const description = cleanText(summary.text, MAX_DESCRIPTION_LENGTH) || cleanText(content.text, MAX_PARAGRAPH_DESCRIPTION_LENGTH);
  return {
    url: link,
    title: cleanText(title.text, MAX_TITLE_LENGTH),
    description,
    allImages: chooseImages([...item.images, ...content.images, ...summary.images], link),
    date: isoDate(cleanText(item.date)),
    siteName: feed.title || hostName(feed.siteUrl || feed.url),
  };
}

/** An RSS or Atom feed's items as sources. A page that links to its feed is followed to the feed. */
export async function scrapeFeed(env: ScrapeEnv, input: string, options: ScrapeOptions = {}): Promise<ScrapeFeedResponse> {
  const url = checkSourceUrl(env, input);
  let source = await openSource(env, url, { ...FEED, timeoutMs: options.timeoutMs });
  if (HTML_TYPES.includes(source.contentType)) {
    const facts = await pageFacts(source);
    const feedUrl = facts.feedHrefs.map((href) => resolveWebUrl(attributeUrl(href), source.url)).find(Boolean);
    if (!feedUrl) throw new ServiceError(415, "That address is a web page, not an RSS or Atom feed, and the page does not link to a feed.", "url");
    source = await openSource(env, feedUrl, { ...FEED, accept: FEED_TYPES, timeoutMs: options.timeoutMs });
  }
  const feed = parseFeed(await readSourceText(source), source.url);
  if (!feed) throw new ServiceError(415, "That address is not an RSS or Atom feed.", "url");
  const feedTitle = cleanText((await readFragment(feed.title)).text, MAX_TITLE_LENGTH);
  const budget = new ReadingBudget(MAX_FEED_HANDLER_CALLS);
  const sources = await Promise.all(feed.items.map((item) => itemSource(item, { title: feedTitle, siteUrl: feed.siteUrl, url: source.url }, budget)));
  return { feedTitle, sources };
}
