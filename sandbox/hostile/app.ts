import { gzipSync } from "node:zlib";
import { Hono } from "hono";

/**
 * Hostile pages, mounted by the sandbox at /hostile, for the tests of the
 * worker's bounded fetching (workers/http/guarded-fetch.ts, workers/scrape/fetch.ts): pages that are too
 * large, too slow, not HTML, redirect forever, or hold nothing worth pinning.
 *
 *   GET /huge?mb=6              an HTML page of 64 KB paragraphs streamed in 64 KB chunks, no Content-Length
 *                               (&tag=div: the text in divs, which the page reader does not look at)
 *   GET /huge-declared?mb=6     the same with a Content-Length header announcing its size
 *   GET /slow?ms=2000           answers a small page after a delay (at most 60 s)
 *   GET /slow-body?ms=2000      sends the head at once and the rest of the page after a delay
 *   GET /image.png              a PNG image (not a page)
 *   GET /document.pdf           a PDF document (not a page)
 *   GET /redirect-loop          redirects to /redirect-loop-b, which redirects back
 *   GET /redirect-chain/:n      redirects n times, then a small page
 *   GET /redirect-to/:name?to=URL   redirects (302) to any address it is given: a public page sending the
 *                               fetcher to a private one; :name is free (sitemap.xml makes it look like one)
 *   GET /tiny-images            a page whose only images are icons, pixels, data: URIs and an SVG sprite
 *   GET /not-found, /server-error   answer 404 and 500 pages
 *   GET /broken-feed.xml        XML that is not a feed
 *   GET /feed-link              an HTML page linking to the demo blog's feed
 *   GET /atom.xml               an Atom feed with HTML content, media thumbnails and relative links
 *   GET /robots.txt             names a gzipped sitemap at an unusual address (relative URL)
 *   GET /sitemaps/custom-posts.xml.gz   that sitemap: posts mixed with the home page, archives and files
 *   PUT /served/:name           keeps the body and its content type (the last 500), for GET /served/:name to answer
 *                               (the untrusted-bytes campaign's damaged pictures, fonts, feeds and pages, decision 078)
 */
export const hostile: Hono = new Hono();

const KB64 = 64 * 1024;
/** 64 KB of filler text in a `tag` element. */
const filler = (tag: "p" | "div") =>
  new TextEncoder().encode(
    `<${tag}>${"Lorem ipsum dolor sit amet, consectetur adipiscing elit. ".repeat(Math.ceil(KB64 / 57)).slice(0, KB64 - 6 - 2 * tag.length)}</${tag}>\n`,
  );
const FILLERS = { p: filler("p"), div: filler("div") };

function sizeParam(value: string | undefined, fallback: number, max: number): number {
  const number = Number(value);
  return Number.isFinite(number) && number > 0 ? Math.min(number, max) : fallback;
}

/** Streams `bytes` of HTML without holding them in memory. */
function hugeStream(bytes: number, tag: string | undefined = "p"): ReadableStream<Uint8Array> {
  const FILLER = tag === "div" ? FILLERS.div : FILLERS.p;
  const head = new TextEncoder().encode(`<!doctype html><html><head><title>A huge page</title></head><body>\n`);
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent === 0) {
        controller.enqueue(head);
        sent += head.byteLength;
        return;
      }
      if (sent >= bytes) {
        controller.close();
        return;
      }
      const chunk = FILLER.subarray(0, Math.min(FILLER.byteLength, bytes - sent));
      controller.enqueue(chunk);
      sent += chunk.byteLength;
    },
  });
}

hostile.get("/huge", (c) => {
  const bytes = Math.round(sizeParam(c.req.query("mb"), 6, 64) * 1024 * 1024);
  return new Response(hugeStream(bytes, c.req.query("tag")), { headers: { "content-type": "text/html; charset=utf-8" } });
});

hostile.get("/huge-declared", (c) => {
  const bytes = Math.round(sizeParam(c.req.query("mb"), 6, 64) * 1024 * 1024);
  return new Response(hugeStream(bytes), { headers: { "content-type": "text/html; charset=utf-8", "content-length": String(bytes) } });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

hostile.get("/slow", async (c) => {
  await sleep(sizeParam(c.req.query("ms"), 2000, 60_000));
  return c.html(`<!doctype html><html><head><title>Finally</title></head><body><h1>Finally</h1></body></html>`);
});

hostile.get("/slow-body", (c) => {
  const delay = sizeParam(c.req.query("ms"), 2000, 60_000);
  const encoder = new TextEncoder();
  let step = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      step += 1;
      if (step === 1) controller.enqueue(encoder.encode(`<!doctype html><html><head><title>Slow body</title></head><body>`));
      else if (step === 2) {
        await sleep(delay);
        controller.enqueue(encoder.encode(`<h1>Slow body</h1></body></html>`));
      } else controller.close();
    },
  });
  return new Response(body, { headers: { "content-type": "text/html; charset=utf-8" } });
});

/** A real 120 x 80 PNG would do as well; any PNG bytes make the point. This is a valid 1 x 1 one. */
const PNG = Uint8Array.from(atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="), (ch) => ch.charCodeAt(0));
hostile.get("/image.png", (c) => c.body(PNG, 200, { "content-type": "image/png" }));

const PDF = new TextEncoder().encode(
  "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj 3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n",
);
hostile.get("/document.pdf", (c) => c.body(PDF, 200, { "content-type": "application/pdf" }));

hostile.get("/redirect-loop", (c) => c.redirect(new URL("redirect-loop-b", c.req.url).href, 302));
hostile.get("/redirect-loop-b", (c) => c.redirect(new URL("redirect-loop", c.req.url).href, 301));

hostile.get("/redirect-chain/:n", (c) => {
  const n = Math.min(Math.max(Math.floor(Number(c.req.param("n")) || 0), 0), 50);
  if (n === 0) {
    return c.html(
      `<!doctype html><html><head><title>End of the chain</title><meta name="description" content="You followed every redirect."></head><body><h1>End of the chain</h1></body></html>`,
    );
  }
  // Relative Location headers, as many servers send them.
  return c.body(null, 302, { location: String(n - 1) });
});

hostile.get("/redirect-to/:name", (c) => {
  const to = c.req.query("to");
  return to ? c.body(null, 302, { location: to }) : c.text("to is required", 400);
});

hostile.get("/tiny-images", (c) => {
  const base = new URL("/", c.req.url).origin;
  return c.html(`<!doctype html>
<html><head>
<title>Nothing to pin here</title>
<link rel="icon" href="${base}/hostile/favicon.ico">
<link rel="apple-touch-icon" href="${base}/hostile/apple-touch-icon.png">
</head><body>
<h1>Nothing to pin here</h1>
<p>This page only carries images that a pin generator must skip: icons, tracking pixels, spacers, data URIs and SVG sprites. None of them is a picture.</p>
<img src="${base}/hostile/favicon.ico" alt="">
<img src="${base}/hostile/pixel.gif" width="1" height="1" alt="">
<img src="${base}/hostile/badge.png" width="48" height="48" alt="badge">
<img src="${base}/hostile/wp-content/uploads/photo-150x80.jpg" alt="thumbnail">
<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt="">
<img src="${base}/hostile/icons.svg#star" alt="star">
<img src="https://pixel.wp.com/g.gif?v=ext" alt="">
</body></html>`);
});

hostile.get("/not-found", (c) => c.html(`<!doctype html><title>Not here</title><h1>Not here</h1>`, 404));
hostile.get("/server-error", (c) => c.html(`<!doctype html><title>Oops</title><h1>Oops</h1>`, 500));

hostile.get("/broken-feed.xml", (c) =>
  c.body(`<?xml version="1.0"?><catalog><book id="1"><title>Not a feed</title></book></catalog>`, 200, { "content-type": "application/xml" }),
);

hostile.get("/feed-link", (c) => {
  const feed = new URL("/blog-demo/feed.xml", c.req.url).href;
  return c.html(
    `<!doctype html><html><head><title>A page with a feed</title><link rel="alternate" type="application/rss+xml" href="${feed}"></head><body><h1>Subscribe</h1></body></html>`,
  );
});

hostile.get("/atom.xml", (c) => {
  const origin = new URL(c.req.url).origin;
  return c.body(
    `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/" xml:base="${origin}/hostile/">
  <title type="html">Field &amp;amp; Fern</title>
  <link rel="alternate" href="${origin}/hostile/"/>
  <link rel="self" type="application/atom+xml" href="${origin}/hostile/atom.xml"/>
  <updated>2025-05-02T10:00:00Z</updated>
  <id>urn:uuid:field-and-fern</id>
  <entry>
    <title>Pressed Flower Bookmarks</title>
    <link rel="alternate" type="text/html" href="posts/pressed-flower-bookmarks"/>
    <id>urn:uuid:1</id>
    <published>2025-05-01T09:00:00+02:00</published>
    <updated>2025-05-02T10:00:00Z</updated>
    <summary type="html">&lt;p&gt;Turn a &lt;b&gt;summer&lt;/b&gt; walk into bookmarks &amp;amp; gifts &amp;mdash; no press needed.&lt;/p&gt;</summary>
    <content type="html"><![CDATA[<p>Gather flowers.</p><img src="/blog-demo/images/balcony-herb-garden-1.jpg" width="1200" height="800"><img src="/hostile/pixel.gif" width="1" height="1">]]></content>
    <media:thumbnail url="${origin}/blog-demo/images/balcony-herb-garden-2.jpg" width="1000" height="1500"/>
  </entry>
  <entry>
    <title>Seed Paper Cards</title>
    <link href="posts/seed-paper-cards"/>
    <id>urn:uuid:2</id>
    <updated>2025-04-20T08:00:00Z</updated>
    <content type="html">&lt;p&gt;Plantable cards from scrap paper.&lt;/p&gt;</content>
  </entry>
</feed>
`,
    200,
    { "content-type": "application/atom+xml; charset=utf-8" },
  );
});

hostile.get("/robots.txt", (c) => c.text("User-agent: *\nDisallow: /hostile/private/\n\nSitemap: /hostile/sitemaps/custom-posts.xml.gz\n"));

hostile.get("/sitemaps/custom-posts.xml.gz", (c) => {
  const base = `${new URL(c.req.url).origin}/hostile`;
  const entry = (path: string, lastmod?: string) => `<url><loc>${base}${path}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ""}</url>`;
  const xml = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${entry("/", "2025-06-01")}
${entry("/posts/older-post", "2025-01-10")}
${entry("/category/crafts/", "2025-06-01")}
${entry("/tag/paper/")}
${entry("/posts/newest-post", "2025-05-20T08:00:00+00:00")}
${entry("/uploads/cover.jpg")}
${entry("/posts/undated-post")}
${entry("/2025/05/")}
</urlset>
`;
  return c.body(new Uint8Array(gzipSync(xml)), 200, { "content-type": "application/x-gzip" });
});

const servedFiles = new Map<string, { bytes: Uint8Array; type: string }>();

hostile.put("/served/:name", async (c) => {
  servedFiles.delete(c.req.param("name"));
  servedFiles.set(c.req.param("name"), { bytes: new Uint8Array(await c.req.arrayBuffer()), type: c.req.header("content-type") ?? "application/octet-stream" });
  for (const name of servedFiles.keys()) {
    if (servedFiles.size <= 500) break;
    servedFiles.delete(name);
  }
  return c.body(null, 204);
});

hostile.get("/served/:name", (c) => {
  const file = servedFiles.get(c.req.param("name"));
  return file ? c.body(file.bytes.slice().buffer, 200, { "content-type": file.type }) : c.text("Not here", 404);
});
