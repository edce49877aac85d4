import { ScrapeFeedBody, ScrapeWebsiteBody, ScrapeWebsitesBody, SitemapBody, type ScrapeFeedResponse, type ScrapeWebsiteResponse, type ScrapeWebsitesResponse, type SitemapResponse } from "../../contracts/scrape.ts";
import { requireUser } from "../auth/middleware.ts";
import { getSitemapPostURLs, scrapeFeed, scrapeWebsite, scrapeWebsites } from "../scrape/sources.ts";
import { router } from "./hono.ts";
import { valid } from "./validation.ts";

/**
 * Sources for the generator (under /highMemLimitApi): a page, many pages, a
 * site's post URLs from its sitemap, a feed's items. Failures answer
 * `{error, field: "url"}` with 400 (the address), 413/415 (what it served) or
 * 502 (the site did not answer well).
 */
export const scraping = router();

scraping.post("/scraping/scrapeWebsite", requireUser, valid("json", ScrapeWebsiteBody), async (c) => {
  const source = await scrapeWebsite(c.env, c.req.valid("json").url);
  return c.json({ source } satisfies ScrapeWebsiteResponse);
});

scraping.post("/scraping/scrapeWebsites", requireUser, valid("json", ScrapeWebsitesBody), async (c) => {
  return c.json((await scrapeWebsites(c.env, c.req.valid("json").urls)) satisfies ScrapeWebsitesResponse);
});

scraping.post("/scraping/getSitemapPostURLs", requireUser, valid("json", SitemapBody), async (c) => {
  return c.json((await getSitemapPostURLs(c.env, c.req.valid("json").url)) satisfies SitemapResponse);
});

scraping.post("/scraping/scrapeFeed", requireUser, valid("json", ScrapeFeedBody), async (c) => {
  return c.json((await scrapeFeed(c.env, c.req.valid("json").url)) satisfies ScrapeFeedResponse);
});
