import { asList, asNode, parseXml, textOf } from "./xml.ts";

/**
 * Sitemaps (sitemaps.org): where to look for them, how to read a urlset or a
 * sitemap index, and which listed URLs are posts. Pure; the fetching is in
 * sources.ts.
 */

/** One <url> of a urlset: its address, when it changed, and the title a news sitemap gives it ("" when none). */
export interface SitemapEntry {
  loc: string;
  lastmod: string;
  title: string;
}

export type ParsedSitemap = { kind: "urlset"; entries: SitemapEntry[] } | { kind: "index"; sitemaps: string[] };

/** Reads a sitemap or a sitemap index; null when the text is neither. */
export function parseSitemap(text: string): ParsedSitemap | null {
  const xml = parseXml(text, { removeNamespaces: true });
  if (!xml) return null;
  const urlset = asNode(xml.urlset);
  if (urlset || xml.urlset === "") {
    const entries = asList(urlset?.url)
      .map((entry) => {
        const node = asNode(entry);
        // Google News sitemaps name the article: <news:news><news:title>.
        const news = asNode(asList(node?.news)[0]);
        return { loc: textOf(node?.loc).trim(), lastmod: textOf(node?.lastmod).trim(), title: textOf(news?.title).replace(/\s+/g, " ").trim() };
      })
      .filter((entry) => entry.loc);
    return { kind: "urlset", entries };
  }
  const index = asNode(xml.sitemapindex);
  if (index || xml.sitemapindex === "") {
    return {
      kind: "index",
      sitemaps: asList(index?.sitemap)
        .map((entry) => textOf(asNode(entry)?.loc).trim())
        .filter(Boolean),
    };
  }
  return null;
}

/** Sitemap URLs named by robots.txt ("Sitemap: <url>" lines, any case), resolved against it. */
export function sitemapsFromRobots(text: string, robotsUrl: string): string[] {
  const found: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*sitemap\s*:\s*(\S+)/i.exec(line);
    if (!match) continue;
    try {
      const url = new URL(match[1]!, robotsUrl);
      if ((url.protocol === "http:" || url.protocol === "https:") && !found.includes(url.href)) found.push(url.href);
    } catch {
      /* not a URL: skip the line */
    }
  }
  return found;
}

export const SITEMAP_FILE_NAMES = ["sitemap_index.xml", "sitemap.xml", "wp-sitemap.xml"];

/**
 * Where a site's sitemaps may be, best first, for a URL the user gave: the
 * robots.txt files to read, then well-known sitemap names, both at the root
 * and under the first folder of the path (a blog at example.com/blog/).
 */
export function sitemapLocations(pageUrl: string): { robots: string[]; candidates: string[] } {
  const url = new URL(pageUrl);
  const bases = ["/"];
  const first = /^\/([^/]+)(\/)?/.exec(url.pathname);
  // "/blog/..." or "/blog" is a folder; "/post.html" is a file at the root.
  if (first && (first[2] === "/" || !/\.[a-z0-9]+$/i.test(first[1]!))) bases.unshift(`/${first[1]}/`);
  const at = (base: string, file: string) => new URL(`${base}${file}`, url.origin).href;
  return {
    robots: [...new Set(["/", ...bases].map((base) => at(base, "robots.txt")))],
    candidates: bases.flatMap((base) => SITEMAP_FILE_NAMES.map((name) => at(base, name))),
  };
}

/** Child sitemaps of an index that never list posts (taxonomies, authors). */
const NON_POST_SITEMAP = /(category|categories|tag|tags|author|authors|users?|taxonom|archive-date|date-archive|format)[-_.]?(sitemap)?[^/]*\.xml(\.gz)?$/i;

/** The children of a sitemap index worth reading, posts first (Yoast's post-sitemap before page-sitemap). */
export function postSitemapsFirst(sitemaps: readonly string[]): string[] {
  const score = (url: string) => (/post|article|blog|news|product/i.test(url) ? 0 : /page/i.test(url) ? 2 : 1);
  return sitemaps.filter((url) => !NON_POST_SITEMAP.test(new URL(url, "https://x.invalid").pathname)).sort((a, b) => score(a) - score(b));
}

const ARCHIVE_SEGMENTS = new Set([
  "category",
  "categories",
  "tag",
  "tags",
  "author",
  "authors",
  "page",
  "feed",
  "search",
  "wp-json",
  "wp-admin",
  "wp-login.php",
  "cart",
  "checkout",
  "my-account",
  "login",
  "account",
]);
const NON_HTML_EXTENSION =
  /\.(jpe?g|png|gif|webp|avif|svg|ico|bmp|tiff?|pdf|xml|gz|zip|rar|7z|txt|json|csv|xlsx?|docx?|pptx?|mp3|mp4|m4a|mov|webm|ogg|wav|css|js|woff2?|ttf|eot|rss|atom)$/i;

/**
 * Whether a sitemap URL is a post: not the home page (nor the folder the
 * sitemap lives in), not a category, tag, author, date or pagination archive,
 * and not a file that is not HTML.
 */
export function isPostUrl(raw: string, sitemapUrl: string): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return false;
  const path = url.pathname.replace(/\/+$/, "");
  if (path === "" || path === "/index.html" || path === "/index.php") return false;
  // The folders the sitemap lives in ("/blog/" for /blog/sitemaps/posts.xml) are the site's or the blog's home.
  const sitemapFolders = new URL(".", sitemapUrl).pathname.split("/").filter(Boolean);
  const homes = sitemapFolders.map((_, i) => `/${sitemapFolders.slice(0, i + 1).join("/")}`);
  if (homes.includes(path.replace(/\/index\.(html?|php)$/, ""))) return false;
  if (NON_HTML_EXTENSION.test(path)) return false;
  const segments = path
    .split("/")
    .filter(Boolean)
    .map((s) => s.toLowerCase());
  if (segments.some((segment) => ARCHIVE_SEGMENTS.has(segment))) return false;
  if (/\/\d{4}(\/\d{1,2}){0,2}$/.test(path)) return false; // /2024/, /blog/2024/05/: date archives
  if (/[?&](s|cat|tag|paged|page_id_all)=/.test(url.search)) return false;
  return true;
}

/** Newest first by lastmod; entries without one keep their order after the dated ones. */
export function newestFirst<T extends { loc: string; lastmod: string }>(entries: readonly T[]): T[] {
  return entries
    .map((entry, index) => ({ ...entry, index, time: Date.parse(entry.lastmod) }))
    .sort((a, b) => {
      const aDated = !Number.isNaN(a.time);
      const bDated = !Number.isNaN(b.time);
      if (aDated && bDated) return b.time - a.time || a.index - b.index;
      if (aDated !== bDated) return aDated ? -1 : 1;
      return a.index - b.index;
    })
    .map(({ index: _index, time: _time, ...entry }) => entry as unknown as T);
}

const SMALL_WORDS = new Set(["a", "an", "and", "as", "at", "but", "by", "for", "in", "nor", "of", "on", "or", "the", "to", "vs", "with"]);

/**
 * A readable title from a post's address, for sitemaps that name no titles:
 * the last meaningful path segment ("/2024/05/easy-lemon-chicken-dinner/" ->
 * "Easy Lemon Chicken Dinner"), without file endings, dates or ids. "" when
 * the address has no words in it.
 */
export function titleFromUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "";
  }
  const segments = url.pathname.split("/").filter(Boolean);
  let slug = segments[segments.length - 1] ?? "";
  try {
    slug = decodeURIComponent(slug);
  } catch {
    /* keep it as written */
  }
  slug = slug.replace(/\.(html?|php|aspx?)$/i, "");
  // Only the post's own segment names it: "/archive/17" or "/?p=17" says nothing a person would call a title.
  if (!/\p{L}/u.test(slug) || /^(index|default)$/i.test(slug)) return "";
  const words = slug
    .split(/[-_+\s]+/)
    .filter(Boolean)
    // A trailing id ("-12345", "-p123") says nothing to a person.
    .filter((word, index, all) => !(index === all.length - 1 && all.length > 1 && /^p?\d+$/i.test(word)));
  return words
    .map((word, index) => (index > 0 && SMALL_WORDS.has(word.toLowerCase()) ? word.toLowerCase() : word.charAt(0).toUpperCase() + word.slice(1)))
    .join(" ");
}
