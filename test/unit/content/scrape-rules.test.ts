import { describe, expect, it } from "vitest";
import { MAX_SITEMAP_URLS } from "../../../contracts/content/scrape.ts";
import { parseFeed } from "../../../workers/scrape/feed.ts";
import { formatBytes, parseContentType } from "../../../workers/scrape/fetch.ts";
import { chooseImages, largestFromSrcset, parseDimension, type ImageCandidate } from "../../../workers/scrape/images.ts";
import { emptyFacts, pageSource, withoutSiteSuffix } from "../../../workers/scrape/page-source.ts";
import {
  isPostUrl,
  newestFirst,
  parseSitemap,
  postSitemapsFirst,
  sitemapLocations,
  sitemapsFromRobots,
  titleFromUrl,
} from "../../../workers/scrape/sitemap.ts";
import { cleanText, isoDate, truncateWords } from "../../../workers/scrape/text.ts";

const PAGE = "https://blog.example.com/2025/03/lemon-chicken/";

describe("choosing images", () => {
  it("puts sharing images first, then article images, then the rest, resolving relative URLs", () => {
    const candidates: ImageCandidate[] = [
      { url: "/uploads/sidebar-ad.jpg", from: "page" },
      { url: "../../../uploads/step-1.jpg", from: "article", width: 800, height: 600 },
      { url: "https://cdn.example.com/og.jpg", from: "meta" },
      { url: "step-2.jpg", from: "article" },
    ];
    expect(chooseImages(candidates, PAGE)).toEqual([
      "https://cdn.example.com/og.jpg",
      "https://blog.example.com/uploads/step-1.jpg",
      "https://blog.example.com/2025/03/lemon-chicken/step-2.jpg",
      "https://blog.example.com/uploads/sidebar-ad.jpg",
    ]);
  });

  it("skips icons, tracking pixels, tiny images, data: URIs, SVG sprites and duplicates", () => {
    const candidates: ImageCandidate[] = [
      { url: "https://blog.example.com/favicon.ico", from: "page" },
      { url: "/apple-touch-icon-180x180.png", from: "page" },
      { url: "/images/pixel.gif", from: "article", width: 1, height: 1 },
      { url: "/images/avatar.png", from: "article", width: 32, height: 32 },
      { url: "/images/spacer.gif", from: "article" },
      { url: "https://pixel.wp.com/g.gif?x=1", from: "page" },
      { url: "https://www.facebook.com/tr?id=1&ev=PageView", from: "page" },
      { url: "https://secure.gravatar.com/avatar/abc?s=96", from: "article" },
      { url: "data:image/png;base64,iVBORw0KGgo=", from: "article" },
      { url: "/assets/icons.svg#heart", from: "article" },
      { url: "/assets/sprite.png", from: "article" },
      { url: "/uploads/logo-80x60.png", from: "article" },
      { url: "/uploads/photo-1024x683.jpg", from: "meta" },
      { url: "/uploads/photo.jpg", from: "article", width: 1600, height: 1067 },
      { url: "/uploads/photo-300x200.jpg", from: "article" },
      { url: "/uploads/second.jpg#zoom", from: "article" },
      { url: "/uploads/second.jpg", from: "article" },
      { url: "javascript:void(0)", from: "article" },
    ];
    expect(chooseImages(candidates, PAGE)).toEqual(["https://blog.example.com/uploads/photo-1024x683.jpg", "https://blog.example.com/uploads/second.jpg"]);
  });

  it("skips URLs the page names as its icons", () => {
    const chosen = chooseImages(
      [
        { url: "/brand/mark.png", from: "page" },
        { url: "/uploads/a.jpg", from: "page" },
      ],
      PAGE,
      ["/brand/mark.png"],
    );
    expect(chosen).toEqual(["https://blog.example.com/uploads/a.jpg"]);
  });

  it("reads srcset and declared sizes", () => {
    expect(largestFromSrcset("a-300.jpg 300w, a-1024.jpg 1024w, a-768.jpg 768w")).toBe("a-1024.jpg");
    expect(largestFromSrcset("a.jpg, a@2x.jpg 2x")).toBe("a@2x.jpg");
    expect(largestFromSrcset("https://res.example.com/w_300,h_200/a.jpg 300w, https://res.example.com/w_900,h_600/a.jpg 900w")).toBe(
      "https://res.example.com/w_900,h_600/a.jpg",
    );
    expect(largestFromSrcset("  ")).toBeUndefined();
    expect(parseDimension("640")).toBe(640);
    expect(parseDimension("640px")).toBe(640);
    expect(parseDimension("100%")).toBeUndefined();
    expect(parseDimension(null)).toBeUndefined();
  });
});

describe("a page's source", () => {
  it("prefers og tags, and falls back to <title> without the site name, the first h1 and the first paragraph", () => {
    const rich = {
      ...emptyFacts(),
      meta: {
        "og:title": "Lemon Chicken &amp; Potatoes",
        "og:description": "Crispy &quot;one-pan&quot; dinner.",
        "og:site_name": "Linen &amp; Lark",
        "article:published_time": "2025-03-04T08:30:00Z",
      },
      title: "Ignored | Linen &amp; Lark",
      metaImages: [{ url: "/og.jpg", from: "meta" as const }],
      images: [{ url: "/a.jpg", from: "article" as const }],
      canonical: "/2025/03/lemon-chicken/",
    };
    expect(pageSource(rich, `${PAGE}?utm_source=x`)).toEqual({
      url: PAGE,
      title: "Lemon Chicken & Potatoes",
      description: 'Crispy "one-pan" dinner.',
      allImages: ["https://blog.example.com/og.jpg", "https://blog.example.com/a.jpg"],
      date: "2025-03-04T08:30:00.000Z",
      siteName: "Linen & Lark",
    });

    const bare = {
      ...emptyFacts(),
      meta: { "application-name": "Field Notes" },
      title: "  How to Press Flowers\n – Field Notes ",
      h1: "Pressing Flowers",
      paragraph: `Pressed flowers keep a summer walk for years. ${"All you need is a heavy book and some patience. ".repeat(20)}`,
      time: "2024-06-01",
    };
    const source = pageSource(bare, "https://www.fieldnotes.example/press");
    expect(source.title).toBe("How to Press Flowers");
    expect(source.description.length).toBeLessThanOrEqual(500);
    expect(source.description).toMatch(/^Pressed flowers keep a summer walk for years\. All you need/);
    expect(source.description.endsWith("…")).toBe(true);
    expect(source.date).toBe("2024-06-01T00:00:00.000Z");
    expect(source.siteName).toBe("Field Notes");
    expect(source.url).toBe("https://www.fieldnotes.example/press");

    const h1Only = pageSource({ ...emptyFacts(), h1: "Only a heading" }, "https://www.fieldnotes.example/x");
    expect(h1Only.title).toBe("Only a heading");
    expect(h1Only.siteName).toBe("fieldnotes.example");
    expect(h1Only.date).toBe("");
    expect(h1Only.allImages).toEqual([]);
  });

  it("reads a page whose picture addresses have a stray % (a URIError made the scrape a 500; the HTML campaign, seed 623347669)", () => {
    const images: ImageCandidate[] = [
      { url: "/uploads/kitchen-before-100%.jpg", from: "article" },
      { url: "/uploads/kitchen-after-%E0%A4%A.jpg", from: "article" },
    ];
    const source = pageSource({ ...emptyFacts(), title: "A kitchen", images }, PAGE);
    expect(source.allImages).toEqual([
      "https://blog.example.com/uploads/kitchen-before-100%.jpg",
      "https://blog.example.com/uploads/kitchen-after-%E0%A4%A.jpg",
    ]);
    expect(source.comparison).toEqual(source.allImages);
  });

  it("resolves images against <base href>", () => {
    const source = pageSource({ ...emptyFacts(), baseHref: "https://cdn.example.net/site/", images: [{ url: "img/a.jpg", from: "page" }] }, PAGE);
    expect(source.allImages).toEqual(["https://cdn.example.net/site/img/a.jpg"]);
  });

  it("strips the site name only when it is the suffix", () => {
    expect(withoutSiteSuffix("Post | Site", "Site")).toBe("Post");
    expect(withoutSiteSuffix("Post — site", "Site")).toBe("Post");
    expect(withoutSiteSuffix("Site", "Site")).toBe("Site");
    expect(withoutSiteSuffix("Post | Other", "Site")).toBe("Post | Other");
  });
});

describe("text", () => {
  it("decodes entities, collapses whitespace and cuts at a word", () => {
    expect(cleanText("  Tom &amp; Jerry&rsquo;s\n\n &#8220;best&#8221;  ")).toBe("Tom & Jerry’s “best”");
    expect(truncateWords("one two three four five", 16)).toBe("one two three…");
    expect(truncateWords("short", 16)).toBe("short");
    expect(isoDate("Tue, 04 Mar 2025 08:30:00 GMT")).toBe("2025-03-04T08:30:00.000Z");
    expect(isoDate("not a date")).toBe("");
  });

  it("reads content types and sizes", () => {
    expect(parseContentType("text/HTML; Charset=ISO-8859-1")).toEqual({ type: "text/html", charset: "iso-8859-1" });
    expect(parseContentType(null)).toEqual({ type: "", charset: null });
    expect(formatBytes(5 * 1024 * 1024)).toBe("5 MB");
    expect(formatBytes(20 * 1024 * 1024)).toBe("20 MB");
  });
});

describe("sitemaps", () => {
  it("reads urlsets and indexes", () => {
    const urlset = parseSitemap(
      `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc> https://a.example/x </loc><lastmod>2025-01-01</lastmod></url><url><loc>https://a.example/y?a=1&amp;b=2</loc></url></urlset>`,
    );
    expect(urlset).toEqual({
      kind: "urlset",
      entries: [
        { loc: "https://a.example/x", lastmod: "2025-01-01", title: "" },
        { loc: "https://a.example/y?a=1&b=2", lastmod: "", title: "" },
      ],
    });
    const index = parseSitemap(
      `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://a.example/post-sitemap.xml</loc></sitemap></sitemapindex>`,
    );
    expect(index).toEqual({ kind: "index", sitemaps: ["https://a.example/post-sitemap.xml"] });
    expect(parseSitemap(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>`)).toEqual({ kind: "urlset", entries: [] });
    expect(parseSitemap("<!doctype html><html><body>Not found</body></html>")).toBeNull();
    expect(parseSitemap("User-agent: *")).toBeNull();
  });

  it("reads the titles news sitemaps give, and makes readable titles from addresses that have words", () => {
    const news = parseSitemap(
      `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"><url><loc>https://a.example/p/123</loc><news:news><news:title>Spring   planting, week by week</news:title></news:news></url></urlset>`,
    );
    expect(news).toEqual({ kind: "urlset", entries: [{ loc: "https://a.example/p/123", lastmod: "", title: "Spring planting, week by week" }] });
    expect(titleFromUrl("https://a.example/2024/05/easy-lemon-chicken-for-a-crowd/")).toBe("Easy Lemon Chicken for a Crowd");
    expect(titleFromUrl("https://a.example/recipes/caf%C3%A9-cr%C3%A8me.html")).toBe("Café Crème");
    expect(titleFromUrl("https://a.example/blog/summer_salads-12345")).toBe("Summer Salads");
    expect(titleFromUrl("https://a.example/archive/17")).toBe("");
    expect(titleFromUrl("https://a.example/?p=17")).toBe("");
    expect(titleFromUrl("not a url")).toBe("");
  });

  it("reads Sitemap lines of robots.txt", () => {
    const robots =
      "User-agent: *\nDisallow: /wp-admin/\nSitemap: https://a.example/sitemap_index.xml\nsitemap:/news-sitemap.xml\r\nSitemap: https://a.example/sitemap_index.xml\n";
    expect(sitemapsFromRobots(robots, "https://a.example/robots.txt")).toEqual(["https://a.example/sitemap_index.xml", "https://a.example/news-sitemap.xml"]);
  });

  it("looks in robots.txt, then at the usual names, in the blog's folder and at the root", () => {
    expect(sitemapLocations("https://a.example/")).toEqual({
      robots: ["https://a.example/robots.txt"],
      candidates: ["https://a.example/sitemap_index.xml", "https://a.example/sitemap.xml", "https://a.example/wp-sitemap.xml"],
    });
    const blog = sitemapLocations("http://127.0.0.1:8788/blog-demo/posts/x");
    expect(blog.robots).toEqual(["http://127.0.0.1:8788/robots.txt", "http://127.0.0.1:8788/blog-demo/robots.txt"]);
    expect(blog.candidates.slice(0, 3)).toEqual([
      "http://127.0.0.1:8788/blog-demo/sitemap_index.xml",
      "http://127.0.0.1:8788/blog-demo/sitemap.xml",
      "http://127.0.0.1:8788/blog-demo/wp-sitemap.xml",
    ]);
    expect(sitemapLocations("https://a.example/post.html").robots).toEqual(["https://a.example/robots.txt"]);
  });

  it("keeps posts and drops the home page, archives and files", () => {
    const sitemap = "https://a.example/sitemap.xml";
    for (const url of [
      "https://a.example/lemon-chicken/",
      "https://a.example/2025/03/lemon-chicken/",
      "https://a.example/recipes/soup",
      "https://a.example/post.html",
    ]) {
      expect(isPostUrl(url, sitemap), url).toBe(true);
    }
    for (const url of [
      "https://a.example/",
      "https://a.example",
      "https://a.example/category/recipes/",
      "https://a.example/tag/soup/",
      "https://a.example/author/maya/",
      "https://a.example/page/2/",
      "https://a.example/2025/",
      "https://a.example/2025/03/",
      "https://a.example/uploads/photo.jpg",
      "https://a.example/guide.pdf",
      "https://a.example/feed.xml",
      "https://a.example/?s=soup",
      "ftp://a.example/x",
      "not a url",
    ]) {
      expect(isPostUrl(url, sitemap), url).toBe(false);
    }
    expect(isPostUrl("http://127.0.0.1:8788/blog-demo/", "http://127.0.0.1:8788/blog-demo/sitemap.xml")).toBe(false);
    expect(isPostUrl("http://127.0.0.1:8788/blog-demo/posts/x", "http://127.0.0.1:8788/blog-demo/sitemap.xml")).toBe(true);
    const nested = "https://a.example/blog/sitemaps/posts.xml.gz";
    expect(isPostUrl("https://a.example/blog/", nested)).toBe(false);
    expect(isPostUrl("https://a.example/blog/index.html", nested)).toBe(false);
    expect(isPostUrl("https://a.example/blog/2024/05/", nested)).toBe(false);
    expect(isPostUrl("https://a.example/blog/2024/05/lemon-chicken", nested)).toBe(true);
    expect(isPostUrl("https://a.example/blog/sitemaps-explained", nested)).toBe(true);
  });

  it("reads post sitemaps first and skips taxonomy ones", () => {
    expect(
      postSitemapsFirst([
        "https://a.example/page-sitemap.xml",
        "https://a.example/category-sitemap.xml",
        "https://a.example/post-sitemap.xml",
        "https://a.example/wp-sitemap-taxonomies-category-1.xml",
        "https://a.example/wp-sitemap-users-1.xml",
        "https://a.example/post_tag-sitemap.xml",
        "https://a.example/wp-sitemap-posts-post-1.xml",
      ]),
    ).toEqual(["https://a.example/post-sitemap.xml", "https://a.example/wp-sitemap-posts-post-1.xml", "https://a.example/page-sitemap.xml"]);
  });

  it("orders newest first, undated last", () => {
    expect(
      newestFirst([
        { loc: "a", lastmod: "" },
        { loc: "b", lastmod: "2024-01-01" },
        { loc: "c", lastmod: "2025-01-01" },
        { loc: "d", lastmod: "" },
      ]).map((entry) => entry.loc),
    ).toEqual(["c", "b", "a", "d"]);
    expect(MAX_SITEMAP_URLS).toBeGreaterThanOrEqual(100);
  });
});

describe("feeds", () => {
  it("reads RSS 2.0 items with media, enclosures and content", () => {
    const feed = parseFeed(
      `<?xml version="1.0"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:media="http://search.yahoo.com/mrss/" xmlns:dc="http://purl.org/dc/elements/1.1/">
<channel><title>Linen &amp; Lark</title><link>https://a.example/</link>
<item>
  <title>Lemon &amp;amp; Garlic</title>
  <link>/lemon</link>
  <description><![CDATA[<p>Crispy <b>chicken</b>.</p>]]></description>
  <content:encoded><![CDATA[<p>Text</p><img src="/uploads/in-content.jpg">]]></content:encoded>
  <pubDate>Tue, 04 Mar 2025 08:30:00 GMT</pubDate>
  <media:content url="https://a.example/media.jpg" medium="image" width="1200" height="800"/>
  <media:content url="https://a.example/clip.mp4" medium="video"/>
  <media:thumbnail url="https://a.example/thumb.jpg"/>
  <enclosure url="https://a.example/enclosure.jpg" type="image/jpeg" length="1"/>
  <enclosure url="https://a.example/episode.mp3" type="audio/mpeg" length="1"/>
</item>
<item><title>Second</title><guid isPermaLink="true">https://a.example/second</guid><dc:date>2025-02-01T00:00:00Z</dc:date></item>
</channel></rss>`,
      "https://a.example/feed.xml",
    );
    expect(feed?.format).toBe("rss");
    expect(feed?.title).toBe("Linen & Lark");
    expect(feed?.items).toHaveLength(2);
    const [first, second] = feed!.items;
    expect(first).toMatchObject({
      title: "Lemon &amp; Garlic",
      link: "https://a.example/lemon",
      summaryHtml: "<p>Crispy <b>chicken</b>.</p>",
      contentHtml: '<p>Text</p><img src="/uploads/in-content.jpg">',
      date: "Tue, 04 Mar 2025 08:30:00 GMT",
    });
    expect(first!.images.map((i) => i.url)).toEqual(["https://a.example/media.jpg", "https://a.example/thumb.jpg", "https://a.example/enclosure.jpg"]);
    expect(second).toMatchObject({ title: "Second", link: "https://a.example/second", date: "2025-02-01T00:00:00Z" });
  });

  it("reads Atom entries with xml:base and alternate links", () => {
    const feed = parseFeed(
      `<feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://b.example/blog/"><title type="text">Field Notes</title>
<link rel="self" href="https://b.example/atom.xml"/><link href="https://b.example/blog/"/>
<entry><title type="html">Press &amp;amp; Dry</title><link rel="alternate" href="press"/><summary>Short</summary><updated>2025-05-02T10:00:00Z</updated></entry>
</feed>`,
      "https://b.example/atom.xml",
    );
    expect(feed).toMatchObject({ format: "atom", title: "Field Notes", siteUrl: "https://b.example/blog/" });
    expect(feed!.items[0]).toMatchObject({
      title: "Press &amp; Dry",
      link: "https://b.example/blog/press",
      summaryHtml: "Short",
      date: "2025-05-02T10:00:00Z",
    });
  });

  it("answers null for what is not a feed", () => {
    expect(parseFeed("<!doctype html><html><head><title>x</title></head></html>", "https://a.example/")).toBeNull();
    expect(parseFeed(`<?xml version="1.0"?><catalog><book/></catalog>`, "https://a.example/")).toBeNull();
    expect(parseFeed("just text", "https://a.example/")).toBeNull();
  });

  it("does not expand entity bombs", () => {
    const bomb = `<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;"><!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;"><!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;">]><rss version="2.0"><channel><title>&f;</title></channel></rss>`;
    const feed = parseFeed(bomb, "https://a.example/");
    expect((feed?.title ?? "").length).toBeLessThan(200_000);
  });
});
