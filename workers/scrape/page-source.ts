import type { Source } from "../../contracts/content/scrape.ts";
import { chooseImages, type ImageCandidate } from "./images.ts";
import { chooseComparison, chooseListItems, choosePrice, chooseQuote, chooseVideo } from "./post-slots.ts";
import { attributeUrl, cleanAttribute, cleanText, isoDate } from "./text.ts";
import { resolveWebUrl } from "./url.ts";

/**
 * Turns what a page said about itself into a Source: the best title,
 * description, date, site name, canonical URL and images, each from the most
 * reliable place the page offers. Pure.
 */

export const MAX_TITLE_LENGTH = 500;
export const MAX_DESCRIPTION_LENGTH = 2000;
/** A description taken from the article's text is cut shorter than one the page wrote for sharing. */
export const MAX_PARAGRAPH_DESCRIPTION_LENGTH = 500;

/** What a page says about itself, raw as written in the markup (read by page-reader.ts). */
export interface PageFacts {
  /** First value of each <meta property|name|itemprop> (keys lowercased). */
  meta: Record<string, string>;
  /** og:image, twitter:image and link rel=image_src, in page order. */
  metaImages: ImageCandidate[];
  /** <img> candidates in page order, outside header/nav/footer (unless inside an article). */
  images: ImageCandidate[];
  /** hrefs of rel=icon, apple-touch-icon and similar links. */
  iconHrefs: string[];
  /** RSS and Atom feeds the page links to (rel=alternate). */
  feedHrefs: string[];
  title: string;
  h1: string;
  /** First paragraph of at least MIN_PARAGRAPH characters, preferring one inside <article>/<main>. */
  paragraph: string;
  /** First <time datetime>, preferring one inside <article>/<main>. */
  time: string;
  canonical: string;
  baseHref: string;
  /** Items of each top-level list (ul, ol) in the article, raw. */
  lists: string[][];
  /** h2 and h3 headings in the article, raw. */
  headings: string[];
  /** Blockquotes in the article, raw. */
  quotes: string[];
  /** og:video and similar, then <video> and its <source>s, as written. */
  videos: string[];
}

/** A paragraph shorter than this is not a description (captions, bylines). */
export const MIN_PARAGRAPH = 80;

export function emptyFacts(): PageFacts {
  return {
    meta: {},
    metaImages: [],
    images: [],
    iconHrefs: [],
    feedHrefs: [],
    title: "",
    h1: "",
    paragraph: "",
    time: "",
    canonical: "",
    baseHref: "",
    lists: [],
    headings: [],
    quotes: [],
    videos: [],
  };
}

const DATE_KEYS = [
  "article:published_time",
  "og:article:published_time",
  "datepublished",
  "article:published",
  "publish_date",
  "pubdate",
  "date",
  "dc.date",
  "dc.date.issued",
  "dcterms.created",
  "sailthru.date",
  "parsely-pub-date",
];

function firstMeta(meta: Record<string, string>, keys: readonly string[], max: number): string {
  for (const key of keys) {
    const value = cleanAttribute(meta[key], max);
    if (value) return value;
  }
  return "";
}

/** "Post title | Site" becomes "Post title" when "Site" is the site's name. */
export function withoutSiteSuffix(title: string, siteName: string): string {
  if (!siteName) return title;
  for (const separator of [" | ", " - ", " – ", " — ", " · ", " :: ", " » "]) {
    const suffix = `${separator}${siteName}`;
    if (title.length > suffix.length && title.toLowerCase().endsWith(suffix.toLowerCase())) return title.slice(0, -suffix.length).trim();
  }
  return title;
}

export function hostName(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./i, "");
  } catch {
    return "";
  }
}

/** The Source a page describes. `pageUrl` is the URL that answered (after redirects). */
export function pageSource(facts: PageFacts, pageUrl: string): Source {
  const base = resolveWebUrl(attributeUrl(facts.baseHref), pageUrl) || pageUrl;
  const siteName = firstMeta(facts.meta, ["og:site_name", "application-name", "apple-mobile-web-app-title"], 100) || hostName(pageUrl);
  const title =
    firstMeta(facts.meta, ["og:title", "twitter:title"], MAX_TITLE_LENGTH) ||
    withoutSiteSuffix(cleanText(facts.title, MAX_TITLE_LENGTH), siteName) ||
    cleanText(facts.h1, MAX_TITLE_LENGTH);
  const description =
    firstMeta(facts.meta, ["og:description", "description", "twitter:description"], MAX_DESCRIPTION_LENGTH) ||
    cleanText(facts.paragraph, MAX_PARAGRAPH_DESCRIPTION_LENGTH);
  const date = [...DATE_KEYS.map((key) => facts.meta[key]), facts.time].map((raw) => isoDate(raw ? cleanAttribute(raw) : "")).find(Boolean) ?? "";
  const url = resolveWebUrl(attributeUrl(facts.canonical), base) || resolveWebUrl(attributeUrl(facts.meta["og:url"]), base) || pageUrl;
  const images = [...facts.metaImages, ...facts.images].map((image) => ({ ...image, url: attributeUrl(image.url) }));
  const allImages = chooseImages(images, base, facts.iconHrefs.map(attributeUrl));
  // What the post offers the templates besides its title and pictures (issue 13): only what the page plainly has.
  const listItems = chooseListItems(facts.lists, facts.headings);
  const quote = chooseQuote(facts.quotes);
  const price = choosePrice(facts.meta);
  const video = chooseVideo(facts.videos, base);
  const comparison = chooseComparison(images, allImages, base);
  return {
    url,
    title,
    description,
    allImages,
    date,
    siteName,
    ...(price ? { price } : {}),
    ...(listItems.length > 0 ? { listItems } : {}),
    ...(quote ? { quote } : {}),
    ...(video ? { video } : {}),
    ...(comparison ? { comparison } : {}),
  };
}
