import {
  ScrapeFeedBody,
  ScrapeWebsiteBody,
  ScrapeWebsitesBody,
  SitemapBody,
  type ScrapeFeedResponse,
  type ScrapeWebsiteResponse,
  type ScrapeWebsitesResponse,
  type SitemapResponse,
} from "../../../contracts/content/scrape.ts";
import type { Context } from "hono";
import { requireUser } from "../../auth/middleware.ts";
import { getSitemapPostURLs, scrapeFeed, scrapeWebsite, scrapeWebsites } from "../../scrape/sources.ts";
import { tickOnboardingStep } from "../../services/accounts/onboarding.ts";
import { router, type AppBindings } from "../core/hono.ts";
import { valid } from "../core/validation.ts";

/**
 * Sources for the generator (under /highMemLimitApi): a page, many pages, a
 * site's post URLs from its sitemap, a feed's items. Failures answer
 * `{error, field: "url"}` with 400 (the address), 413/415 (what it served) or
 * 502 (the site did not answer well).
 */
export const scraping = router();

/** The generator makes pins of every source it reads: reading one is the user generating pins (onboarding). */
const generated = (c: Context<AppBindings>) => tickOnboardingStep(c.env.DB, c.var.auth.user, "generatePins");

scraping.post("/scraping/scrapeWebsite", requireUser, valid("json", ScrapeWebsiteBody), async (c) => {
  const source = await scrapeWebsite(c.env, c.req.valid("json").url);
  await generated(c);
  return c.json({ source } satisfies ScrapeWebsiteResponse);
});

scraping.post("/scraping/scrapeWebsites", requireUser, valid("json", ScrapeWebsitesBody), async (c) => {
  const answer = await scrapeWebsites(c.env, c.req.valid("json").urls);
  if (answer.sources.length > 0) await generated(c);
  return c.json(answer satisfies ScrapeWebsitesResponse);
});

scraping.post("/scraping/getSitemapPostURLs", requireUser, valid("json", SitemapBody), async (c) => {
  return c.json((await getSitemapPostURLs(c.env, c.req.valid("json").url)) satisfies SitemapResponse);
});

scraping.post("/scraping/scrapeFeed", requireUser, valid("json", ScrapeFeedBody), async (c) => {
  const answer = await scrapeFeed(c.env, c.req.valid("json").url);
  if (answer.sources.length > 0) await generated(c);
  return c.json(answer satisfies ScrapeFeedResponse);
});
