import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Hono, type Context } from "hono";
import { ARCHIVE_POSTS, findArchivePost } from "./archive.ts";
import { BLOG_AUTHOR, BLOG_TAGLINE, BLOG_TITLE, DEMO_POSTS, findPost, type DemoImage, type DemoPost } from "./posts.ts";
import { escapeHtml } from "../html.ts";

/**
 * The demo blog ("Linen & Lark"), mounted by the sandbox at /blog-demo. It is
 * what new users generate pins from and what tests extract titles,
 * descriptions and images from.
 *
 *   GET /                 home page listing every post (with thumbnails)
 *   GET /posts/:slug[/]   an article page (og/meta tags, JSON-LD, 2+ images)
 *   GET /images/:file     post images, plus avatar.png, favicon.png, pixel.gif
 *   GET /archive/:n[/]   older follow-up posts 1-112 (./archive.ts), same layout
 *   GET /sitemap.xml      sitemaps.org urlset of the 14 posts (with image:image entries)
 *   GET /sitemap-archive.xml  urlset of the archive posts
 *   GET /sitemap_index.xml    sitemap index of the two sitemaps above
 *   GET /feed.xml         RSS 2.0 feed with an enclosure for each lead image
 *   GET /robots.txt       points at the sitemap index
 *
 * Article pages deliberately also carry images a pin generator must skip: a
 * favicon link, a 32x32 author avatar and a 1x1 tracking pixel.
 *
 * All links are absolute, built from the request's origin, since the sandbox
 * may listen on any port.
 */

export const BLOG_MOUNT = "/blog-demo";

/** Files under /images that are page furniture rather than post images. */
export const AVATAR_IMAGE = { file: "avatar.png", width: 32, height: 32 } as const;
export const FAVICON_IMAGE = { file: "favicon.png", width: 32, height: 32 } as const;
export const TRACKING_PIXEL = { file: "pixel.gif", width: 1, height: 1 } as const;

const IMAGES_DIR = fileURLToPath(new URL("./images/", import.meta.url));
const CONTENT_TYPES: Record<string, string> = { jpg: "image/jpeg", jpeg: "image/jpeg", png: "image/png", gif: "image/gif" };
const IMAGE_CACHE_CONTROL = "public, max-age=86400";

const SERVED_IMAGES = new Set<string>([...DEMO_POSTS.flatMap((p) => p.images.map((i) => i.file)), AVATAR_IMAGE.file, FAVICON_IMAGE.file, TRACKING_PIXEL.file]);

interface CachedImage {
  bytes: Uint8Array<ArrayBuffer>;
  type: string;
  etag: string;
}

const imageCache = new Map<string, CachedImage>();

/** Reads an image file once and keeps it in memory; undefined for unknown names. */
function loadImage(file: string): CachedImage | undefined {
  if (!SERVED_IMAGES.has(file)) return undefined;
  let image = imageCache.get(file);
  if (!image) {
    const bytes = new Uint8Array(readFileSync(IMAGES_DIR + file));
    const type = CONTENT_TYPES[file.slice(file.lastIndexOf(".") + 1).toLowerCase()] ?? "application/octet-stream";
    image = { bytes, type, etag: `"${createHash("sha1").update(bytes).digest("hex").slice(0, 20)}"` };
    imageCache.set(file, image);
  }
  return image;
}

const PAGE_CSS = `
*{box-sizing:border-box}
body{margin:0;font-family:Georgia,"Times New Roman",serif;color:#2b2622;background:#faf7f2;line-height:1.7}
a{color:#8a4b2a}
.site-header,.site-footer{max-width:1100px;margin:0 auto;padding:20px 24px;display:flex;align-items:center;justify-content:space-between;gap:16px}
.site-header .brand{font-size:1.6rem;font-weight:bold;text-decoration:none;color:#2f5d52;letter-spacing:.02em}
.site-header nav a{margin-left:16px;font-family:Helvetica,Arial,sans-serif;font-size:.9rem;text-decoration:none}
.site-footer{font-family:Helvetica,Arial,sans-serif;font-size:.85rem;color:#7a716a;border-top:1px solid #e6ddd2}
main{max-width:1100px;margin:0 auto;padding:0 24px 48px}
.tagline{font-style:italic;color:#6b625b;margin-top:0}
.post-grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(300px,1fr));gap:28px;padding:0;list-style:none}
.card{background:#fff;border-radius:10px;overflow:hidden;box-shadow:0 1px 4px rgba(0,0,0,.08)}
.card img{display:block;width:100%;height:auto}
.card .card-body{padding:16px 20px 20px}
.card h2{font-size:1.2rem;line-height:1.35;margin:.3em 0}
.card h2 a{color:inherit;text-decoration:none}
.card p{margin:.4em 0;color:#5b534c;font-size:.95rem}
.category{font-family:Helvetica,Arial,sans-serif;text-transform:uppercase;letter-spacing:.08em;font-size:.75rem;color:#2f5d52;margin:0}
article.post{max-width:760px;margin:0 auto}
article.post h1{font-size:2.3rem;line-height:1.2;margin:.2em 0 .4em}
article.post h2{font-size:1.4rem;margin:1.4em 0 .4em}
blockquote{margin:28px 0;padding:4px 24px;border-left:4px solid #2f5d52;font-style:italic;font-size:1.2rem;color:#2f5d52}
.byline{display:flex;align-items:center;gap:10px;font-family:Helvetica,Arial,sans-serif;font-size:.9rem;color:#6b625b}
.byline img.avatar{border-radius:50%}
figure{margin:28px 0}
figure img{display:block;width:100%;height:auto;border-radius:8px}
figcaption{font-size:.85rem;color:#7a716a;margin-top:6px}
.related{max-width:760px;margin:40px auto 0;border-top:1px solid #e6ddd2;padding-top:20px}
.pixel{position:absolute;left:-9999px;top:0}
`;

/** Same escaping is correct for XML text and attribute values. */
const escapeXml = escapeHtml;

function jsonLd(data: unknown): string {
  return JSON.stringify(data).replace(/</g, "\\u003c").replace(/>/g, "\\u003e").replace(/&/g, "\\u0026");
}

interface Urls {
  origin: string;
  base: string;
  home: string;
  post(slug: string): string;
  archive(number: number): string;
  image(file: string): string;
  feed: string;
  sitemap: string;
  sitemapIndex: string;
  archiveSitemap: string;
}

function urls(c: Context): Urls {
  const origin = new URL(c.req.url).origin;
  const base = origin + BLOG_MOUNT;
  return {
    origin,
    base,
    home: `${base}/`,
    post: (slug) => `${base}/posts/${encodeURIComponent(slug)}`,
    archive: (number) => `${base}/archive/${number}`,
    image: (file) => `${base}/images/${encodeURIComponent(file)}`,
    feed: `${base}/feed.xml`,
    sitemap: `${base}/sitemap.xml`,
    sitemapIndex: `${base}/sitemap_index.xml`,
    archiveSitemap: `${base}/sitemap-archive.xml`,
  };
}

const byNewest = (a: DemoPost, b: DemoPost) => b.publishedAt.localeCompare(a.publishedAt);
const sortedPosts = () => [...DEMO_POSTS].sort(byNewest);

function displayDate(iso: string): string {
  return new Date(iso).toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });
}

function imgTag(u: Urls, image: DemoImage | { file: string; width: number; height: number }, alt: string, attrs = ""): string {
  return `<img src="${escapeHtml(u.image(image.file))}" alt="${escapeHtml(alt)}" width="${image.width}" height="${image.height}"${attrs ? ` ${attrs}` : ""}>`;
}

interface PageOptions {
  title: string;
  description: string;
  canonical: string;
  head?: string;
  body: string;
}

function layout(u: Urls, page: PageOptions): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)}</title>
<meta name="description" content="${escapeHtml(page.description)}">
<link rel="canonical" href="${escapeHtml(page.canonical)}">
<link rel="icon" type="image/png" sizes="32x32" href="${escapeHtml(u.image(FAVICON_IMAGE.file))}">
<link rel="alternate" type="application/rss+xml" title="${escapeHtml(BLOG_TITLE)}" href="${escapeHtml(u.feed)}">
${page.head ?? ""}
<style>${PAGE_CSS}</style>
</head>
<body>
<header class="site-header">
<a class="brand" href="${escapeHtml(u.home)}">${escapeHtml(BLOG_TITLE)}</a>
<nav><a href="${escapeHtml(u.home)}">Home</a><a href="${escapeHtml(u.feed)}">RSS</a></nav>
</header>
<main>
${page.body}
</main>
<footer class="site-footer">
<span>&copy; 2025 ${escapeHtml(BLOG_TITLE)} &middot; Written by ${escapeHtml(BLOG_AUTHOR)}</span>
<a href="${escapeHtml(u.sitemap)}">Sitemap</a>
</footer>
</body>
</html>
`;
}

function homePage(u: Urls): string {
  const posts = sortedPosts();
  const lead = posts[0]!;
  const leadImage = lead.images[0]!;
  const cards = posts
    .map((post) => {
      const thumb = post.images[0]!;
      return `<li class="card">
<a href="${escapeHtml(u.post(post.slug))}">${imgTag(u, thumb, thumb.alt, `loading="lazy"`)}</a>
<div class="card-body">
<p class="category">${escapeHtml(post.category)}</p>
<h2><a href="${escapeHtml(u.post(post.slug))}">${escapeHtml(post.title)}</a></h2>
<p>${escapeHtml(post.description)}</p>
<p><time datetime="${escapeHtml(post.publishedAt)}">${escapeHtml(displayDate(post.publishedAt))}</time></p>
</div>
</li>`;
    })
    .join("\n");
  const head = [
    `<meta property="og:type" content="website">`,
    `<meta property="og:site_name" content="${escapeHtml(BLOG_TITLE)}">`,
    `<meta property="og:title" content="${escapeHtml(BLOG_TITLE)}">`,
    `<meta property="og:description" content="${escapeHtml(BLOG_TAGLINE)}">`,
    `<meta property="og:url" content="${escapeHtml(u.home)}">`,
    `<meta property="og:image" content="${escapeHtml(u.image(leadImage.file))}">`,
  ].join("\n");
  return layout(u, {
    title: `${BLOG_TITLE} – ${BLOG_TAGLINE}`,
    description: BLOG_TAGLINE,
    canonical: u.home,
    head,
    body: `<h1>${escapeHtml(BLOG_TITLE)}</h1>
<p class="tagline">${escapeHtml(BLOG_TAGLINE)}</p>
<ul class="post-grid">
${cards}
</ul>`,
  });
}

function postPage(u: Urls, post: DemoPost, url = u.post(post.slug)): string {
  const lead = post.images[0]!;
  const rest = post.images.slice(1);
  // Spread the other images evenly through the text (never after the last paragraph).
  const slots = new Map<number, DemoImage>();
  rest.forEach((image, i) => {
    const after = Math.max(1, Math.round(((i + 1) * post.paragraphs.length) / (rest.length + 1)));
    slots.set(Math.min(after, post.paragraphs.length - 1), image);
  });
  const figure = (image: DemoImage, attrs: string) => `<figure>${imgTag(u, image, image.alt, attrs)}<figcaption>${escapeHtml(image.alt)}</figcaption></figure>`;
  let text = "";
  post.paragraphs.forEach((paragraph, i) => {
    const heading = post.headings?.[i];
    if (heading) text += `<h2>${escapeHtml(heading)}</h2>\n`;
    text += `<p>${escapeHtml(paragraph)}</p>\n`;
    if (post.quote?.after === i) text += `<blockquote><p>${escapeHtml(post.quote.text)}</p></blockquote>\n`;
    if (post.list?.after === i) {
      const tag = post.list.ordered ? "ol" : "ul";
      text += `<h2>${escapeHtml(post.list.heading)}</h2>\n<${tag}>${post.list.items.map((item) => `<li>${escapeHtml(item)}</li>`).join("")}</${tag}>\n`;
    }
    const image = slots.get(i + 1);
    if (image) text += `${figure(image, `loading="lazy"`)}\n`;
  });
  const related = sortedPosts()
    .filter((p) => p.slug !== post.slug)
    .slice(0, 3)
    .map((p) => `<li><a href="${escapeHtml(u.post(p.slug))}">${escapeHtml(p.title)}</a></li>`)
    .join("");
  const structured = {
    "@context": "https://schema.org",
    "@type": "BlogPosting",
    headline: post.title,
    description: post.description,
    image: post.images.map((i) => u.image(i.file)),
    datePublished: post.publishedAt,
    articleSection: post.category,
    author: { "@type": "Person", name: BLOG_AUTHOR },
    publisher: { "@type": "Organization", name: BLOG_TITLE },
    mainEntityOfPage: url,
  };
  const head = [
    `<meta property="og:type" content="article">`,
    `<meta property="og:site_name" content="${escapeHtml(BLOG_TITLE)}">`,
    `<meta property="og:title" content="${escapeHtml(post.title)}">`,
    `<meta property="og:description" content="${escapeHtml(post.description)}">`,
    `<meta property="og:url" content="${escapeHtml(url)}">`,
    `<meta property="og:image" content="${escapeHtml(u.image(lead.file))}">`,
    `<meta property="og:image:width" content="${lead.width}">`,
    `<meta property="og:image:height" content="${lead.height}">`,
    `<meta property="og:image:alt" content="${escapeHtml(lead.alt)}">`,
    `<meta property="article:published_time" content="${escapeHtml(post.publishedAt)}">`,
    `<meta property="article:section" content="${escapeHtml(post.category)}">`,
    `<meta name="author" content="${escapeHtml(BLOG_AUTHOR)}">`,
    `<meta name="twitter:card" content="summary_large_image">`,
    `<script type="application/ld+json">${jsonLd(structured)}</script>`,
  ].join("\n");
  return layout(u, {
    title: `${post.title} | ${BLOG_TITLE}`,
    description: post.description,
    canonical: url,
    head,
    body: `<article class="post">
<p class="category">${escapeHtml(post.category)}</p>
<h1>${escapeHtml(post.title)}</h1>
<div class="byline">${imgTag(u, AVATAR_IMAGE, BLOG_AUTHOR, `class="avatar"`)}<span>By ${escapeHtml(BLOG_AUTHOR)}</span> &middot; <time datetime="${escapeHtml(post.publishedAt)}">${escapeHtml(displayDate(post.publishedAt))}</time></div>
${figure(lead, `fetchpriority="high"`)}
${text}</article>
<aside class="related">
<h2>More from ${escapeHtml(BLOG_TITLE)}</h2>
<ul>${related}</ul>
</aside>
${imgTag(u, TRACKING_PIXEL, "", `class="pixel"`)}`,
  });
}

function notFoundPage(u: Urls, path: string): string {
  return layout(u, {
    title: `Page not found | ${BLOG_TITLE}`,
    description: "The page you were looking for does not exist.",
    canonical: u.home,
    head: `<meta name="robots" content="noindex">`,
    body: `<h1>Page not found</h1>
<p>Sorry, there is nothing at <code>${escapeHtml(path)}</code>. It may have moved, or the link may be mistyped.</p>
<p><a href="${escapeHtml(u.home)}">Back to the home page</a></p>`,
  });
}

const day = (iso: string) => iso.slice(0, 10);

/** One <url> of a sitemap, with the post's images as image:image entries. */
function sitemapEntry(u: Urls, loc: string, lastmod: string, changefreq: string, priority: string, images: DemoImage[] = []): string {
  return (
    `<url><loc>${escapeXml(loc)}</loc><lastmod>${day(lastmod)}</lastmod><changefreq>${changefreq}</changefreq><priority>${priority}</priority>` +
    images.map((image) => `<image:image><image:loc>${escapeXml(u.image(image.file))}</image:loc></image:image>`).join("") +
    `</url>`
  );
}

function urlsetXml(entries: string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
${entries.join("\n")}
</urlset>
`;
}

function sitemapXml(u: Urls): string {
  const posts = sortedPosts();
  return urlsetXml([
    sitemapEntry(u, u.home, posts[0]!.publishedAt, "weekly", "1.0"),
    ...posts.map((post) => sitemapEntry(u, u.post(post.slug), post.publishedAt, "monthly", "0.8", post.images)),
  ]);
}

function archiveSitemapXml(u: Urls): string {
  return urlsetXml(ARCHIVE_POSTS.map((post) => sitemapEntry(u, u.archive(post.number), post.publishedAt, "yearly", "0.5", post.images)));
}

function sitemapIndexXml(u: Urls): string {
  const newestArchive = ARCHIVE_POSTS.map((p) => p.publishedAt)
    .sort()
    .at(-1)!;
  return `<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>${escapeXml(u.sitemap)}</loc><lastmod>${day(sortedPosts()[0]!.publishedAt)}</lastmod></sitemap>
<sitemap><loc>${escapeXml(u.archiveSitemap)}</loc><lastmod>${day(newestArchive)}</lastmod></sitemap>
</sitemapindex>
`;
}

function feedXml(u: Urls): string {
  const posts = sortedPosts();
  const items = posts.map((post) => {
    const link = u.post(post.slug);
    const lead = loadImage(post.leadImage);
    return `<item>
<title>${escapeXml(post.title)}</title>
<link>${escapeXml(link)}</link>
<guid isPermaLink="true">${escapeXml(link)}</guid>
<pubDate>${new Date(post.publishedAt).toUTCString()}</pubDate>
<category>${escapeXml(post.category)}</category>
<description>${escapeXml(post.description)}</description>
<enclosure url="${escapeXml(u.image(post.leadImage))}" type="${lead?.type ?? "image/jpeg"}" length="${lead?.bytes.length ?? 0}"/>
</item>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">
<channel>
<title>${escapeXml(BLOG_TITLE)}</title>
<link>${escapeXml(u.home)}</link>
<description>${escapeXml(BLOG_TAGLINE)}</description>
<language>en-us</language>
<lastBuildDate>${new Date(posts[0]!.publishedAt).toUTCString()}</lastBuildDate>
<atom:link href="${escapeXml(u.feed)}" rel="self" type="application/rss+xml"/>
${items.join("\n")}
</channel>
</rss>
`;
}

export const blogDemo: Hono = new Hono();

blogDemo.get("/", (c) => c.html(homePage(urls(c))));

const servePost = (c: Context) => {
  const post = findPost(c.req.param("slug") ?? "");
  if (!post) return c.html(notFoundPage(urls(c), c.req.path), 404);
  return c.html(postPage(urls(c), post));
};
blogDemo.get("/posts/:slug", servePost);
blogDemo.get("/posts/:slug/", servePost);

const serveArchivePost = (c: Context) => {
  const post = findArchivePost(Number(c.req.param("number")));
  if (!post) return c.html(notFoundPage(urls(c), c.req.path), 404);
  const u = urls(c);
  return c.html(postPage(u, post, u.archive(post.number)));
};
blogDemo.get("/archive/:number", serveArchivePost);
blogDemo.get("/archive/:number/", serveArchivePost);

blogDemo.get("/images/:file", (c) => {
  const image = loadImage(c.req.param("file"));
  if (!image) return c.text("Image not found", 404);
  const headers = { "content-type": image.type, "cache-control": IMAGE_CACHE_CONTROL, etag: image.etag };
  if (c.req.header("if-none-match") === image.etag) return c.body(null, 304, headers);
  return c.body(image.bytes, 200, headers);
});

blogDemo.get("/sitemap.xml", (c) => c.body(sitemapXml(urls(c)), 200, { "content-type": "application/xml; charset=utf-8" }));
const XML = { "content-type": "application/xml; charset=utf-8" };
blogDemo.get("/sitemap-archive.xml", (c) => c.body(archiveSitemapXml(urls(c)), 200, XML));
blogDemo.get("/sitemap_index.xml", (c) => c.body(sitemapIndexXml(urls(c)), 200, XML));
blogDemo.get("/feed.xml", (c) => c.body(feedXml(urls(c)), 200, { "content-type": "application/rss+xml; charset=utf-8" }));
blogDemo.get("/robots.txt", (c) => c.text(`User-agent: *\nAllow: ${BLOG_MOUNT}/\n\nSitemap: ${urls(c).sitemapIndex}\n`));

// Mounted with app.route("/blog-demo", blogDemo), "/" above only matches
// "/blog-demo" (Hono's routing is strict about trailing slashes), so the
// canonical "/blog-demo/" is answered here. Anything else: an HTML 404.
blogDemo.get("*", (c) => {
  if (c.req.path === `${BLOG_MOUNT}/`) return c.html(homePage(urls(c)));
  return c.html(notFoundPage(urls(c), c.req.path), 404);
});
blogDemo.notFound((c) => c.html(notFoundPage(urls(c), c.req.path), 404));
