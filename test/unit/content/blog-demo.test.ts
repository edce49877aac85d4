import { XMLParser } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { DEMO_POSTS } from "../../../sandbox/blog-demo/posts.ts";
import { useSandbox } from "../../support/sandbox.ts";

const sandbox = useSandbox();
const blog = (path = "") => `${sandbox.url}/blog-demo/${path}`;

const decode = (text: string) =>
  text
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&");
const attribute = (html: string, pattern: RegExp) => pattern.exec(html)?.[1];

/** Width and height of a PNG or JPEG from its header bytes. */
function imageSize(bytes: Uint8Array): { type: string; width: number; height: number } {
  if (bytes[0] === 0x89 && bytes[1] === 0x50) {
    const view = new DataView(bytes.buffer, bytes.byteOffset);
    return { type: "png", width: view.getUint32(16), height: view.getUint32(20) };
  }
  if (bytes[0] === 0xff && bytes[1] === 0xd8) {
    let offset = 2;
    while (offset < bytes.length) {
      const marker = bytes[offset + 1];
      const length = (bytes[offset + 2] << 8) | bytes[offset + 3];
      if (marker >= 0xc0 && marker <= 0xc3) {
        return { type: "jpeg", height: (bytes[offset + 5] << 8) | bytes[offset + 6], width: (bytes[offset + 7] << 8) | bytes[offset + 8] };
      }
      offset += 2 + length;
    }
  }
  throw new Error("not a PNG or JPEG");
}

describe("demo blog", () => {
  it("has at least 12 posts, each a real article page with title, description, og:image and two or more real images", async () => {
    expect(DEMO_POSTS.length).toBeGreaterThanOrEqual(12);
    for (const post of DEMO_POSTS) {
      const response = await fetch(blog(`posts/${post.slug}`));
      expect(response.status, post.slug).toBe(200);
      expect(response.headers.get("content-type")).toContain("text/html");
      const html = await response.text();
      expect(decode(attribute(html, /<title>([^<]+)<\/title>/) ?? "")).toContain(post.title);
      expect(attribute(html, /<meta name="description" content="([^"]+)"/)?.length).toBeGreaterThan(50);
      const ogImage = attribute(html, /<meta property="og:image" content="([^"]+)"/);
      expect(ogImage).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/blog-demo\/images\//);

      const contentImages = [...html.matchAll(/<img[^>]+src="([^"]+)"[^>]*>/g)].map((m) => m[0]).filter((tag) => !/width="(1|32)"/.test(tag));
      expect(contentImages.length, post.slug).toBeGreaterThanOrEqual(2);
      for (const tag of [ogImage!, ...contentImages.map((t) => attribute(t, /src="([^"]+)"/)!)]) {
        const image = await fetch(tag);
        expect(image.status, tag).toBe(200);
        const size = imageSize(new Uint8Array(await image.arrayBuffer()));
        expect(size.width, tag).toBeGreaterThanOrEqual(600);
        expect(size.height, tag).toBeGreaterThanOrEqual(600);
      }
    }
  });

  it("lists every post in sitemap.xml", async () => {
    const response = await fetch(blog("sitemap.xml"));
    expect(response.headers.get("content-type")).toContain("xml");
    const xml = new XMLParser().parse(await response.text());
    const locs: string[] = xml.urlset.url.map((u: { loc: string }) => u.loc);
    for (const post of DEMO_POSTS) expect(locs).toContain(blog(`posts/${post.slug}`));
  });

  it("publishes an RSS 2.0 feed with an item per post", async () => {
    const response = await fetch(blog("feed.xml"));
    expect(response.headers.get("content-type")).toContain("application/rss+xml");
    const xml = new XMLParser({ ignoreAttributes: false }).parse(await response.text());
    expect(xml.rss["@_version"]).toBe("2.0");
    const items = xml.rss.channel.item as { title: string; link: string; pubDate: string }[];
    expect(items).toHaveLength(DEMO_POSTS.length);
    for (const item of items) {
      expect(item.link).toMatch(/\/blog-demo\/posts\//);
      expect(Number.isNaN(Date.parse(item.pubDate))).toBe(false);
    }
  });

  it("answers 404 for an unknown post", async () => {
    expect((await fetch(blog("posts/no-such-post"))).status).toBe(404);
  });
});
