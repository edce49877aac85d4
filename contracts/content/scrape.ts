import * as v from "valibot";
import { body } from "../fields.ts";

/**
 * Sources the generator turns into posts (spec section 2, /generate): a web
 * page, a sitemap's posts, an RSS or Atom feed's items, or a product. The
 * worker fetches and extracts them (workers/scrape/).
 */
export interface Source {
  /** The canonical URL of the page, item or product. */
  url: string;
  title: string;
  description: string;
  /** Images worth using, best first (og:image, article images; icons, pixels and tiny images skipped). */
  allImages: string[];
  /** Publication date as ISO 8601, when the source gives one. */
  date: string;
  /** The site's or shop's name, for the brand name. */
  siteName: string;
  /** Products only (a page that states a price: product meta tags). */
  price?: string;
  /** The post's list items: its longest list, else its section headings (none when it has neither). */
  listItems?: string[];
  /** A quotation the post carries (its first short blockquote). */
  quote?: string;
  /** A video the page shares (og:video, a <video>). */
  video?: string;
  /** A before and an after picture, when the post shows a change (pictures named or described "before" and "after"). */
  comparison?: [string, string];
}

/** A URL as typed by the user: trimmed; the server checks the host and normalises the scheme. */
const UrlField = (field: string) =>
  v.pipe(v.string(`${field} is required`), v.trim(), v.nonEmpty(`${field} is required`), v.maxLength(2048, `${field} is too long`));

/** POST /highMemLimitApi/scraping/scrapeWebsite {url} -> {source} */
export const ScrapeWebsiteBody = body({ url: UrlField("url") });
export interface ScrapeWebsiteResponse {
  source: Source;
}

/** POST /highMemLimitApi/scraping/scrapeWebsites {urls} -> {sources, failures}: many pages at once (a sitemap's posts). */
export const MAX_URLS_PER_BATCH = 25;
export const ScrapeWebsitesBody = body({
  urls: v.pipe(
    v.array(UrlField("urls"), "urls must be a list"),
    v.minLength(1, "urls needs at least one URL"),
    v.maxLength(MAX_URLS_PER_BATCH, `urls may hold at most ${MAX_URLS_PER_BATCH} URLs`),
  ),
});
export interface ScrapeWebsitesResponse {
  sources: Source[];
  failures: { url: string; error: string }[];
}

/** POST /highMemLimitApi/scraping/getSitemapPostURLs {url} -> {allPostURLs, posts, usedSitemap}: the site's post URLs from its sitemap. */
export const SitemapBody = body({ url: UrlField("url") });
export const MAX_SITEMAP_URLS = 2000;
/** A post a sitemap lists, as the chooser shows it: its title (the sitemap's own, or read from its address; "" when neither gives one) and when it last changed. */
export interface SitemapPost {
  url: string;
  title: string;
  /** The title is only guessed from the address ("Diy Yarn Wall Hanging"): shown until the page itself is read. */
  titleGuessed?: boolean;
  /** The sitemap's lastmod, as written there ("" when none). */
  lastmod: string;
}
export interface SitemapResponse {
  allPostURLs: string[];
  /** The same posts, in the same order, with titles to show. */
  posts: SitemapPost[];
  /** The sitemap the URLs came from. */
  usedSitemap: string;
}

/** POST /highMemLimitApi/scraping/scrapeFeed {url} -> {feedTitle, sources}: each RSS or Atom item is a source. */
export const ScrapeFeedBody = body({ url: UrlField("url") });
export interface ScrapeFeedResponse {
  feedTitle: string;
  sources: Source[];
}
