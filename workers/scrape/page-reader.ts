import { largestFromSrcset, parseDimension, type ImageCandidate } from "./images.ts";
import { MIN_PARAGRAPH, emptyFacts, type PageFacts } from "./page-source.ts";

/**
 * Reads what a page says about itself while it streams through HTMLRewriter
 * (built into workerd: no DOM is built and nothing is buffered). Values are
 * raw, as written in the markup; page-source.ts decodes and chooses.
 */

const META_IMAGE_KEYS = new Set(["og:image", "og:image:url", "og:image:secure_url", "twitter:image", "twitter:image:src"]);
const META_VIDEO_KEYS = new Set(["og:video", "og:video:url", "og:video:secure_url", "twitter:player:stream"]);
const ICON_RELS = new Set(["icon", "shortcut", "apple-touch-icon", "apple-touch-icon-precomposed", "mask-icon", "fluid-icon"]);
const FEED_TYPES = new Set(["application/rss+xml", "application/atom+xml", "application/feed+xml", "application/rdf+xml"]);
const IMG_URL_ATTRIBUTES = ["data-src", "data-lazy-src", "data-original", "data-lazy", "data-url", "src"];
const IMG_SRCSET_ATTRIBUTES = ["data-srcset", "data-lazy-srcset", "srcset"];

/** Counts how deep the stream is inside elements matched by a selector (needs their end tags). */
function depthCounter(): { depth: number; handler: HTMLRewriterElementContentHandlers } {
  const counter = {
    depth: 0,
    handler: {
      element(element: Element) {
        // Void elements have no end tag: onEndTag refuses them.
        try {
          element.onEndTag(() => {
            counter.depth = Math.max(0, counter.depth - 1);
          });
          counter.depth += 1;
        } catch {
          /* no end tag to wait for */
        }
      },
    } satisfies HTMLRewriterElementContentHandlers,
  };
  return counter;
}

/** Collects text of an element until its end tag, then hands it over. */
function textCollector(onEnd: (raw: string) => void, skip: () => boolean): HTMLRewriterElementContentHandlers {
  let buffer: string[] | null = null;
  return {
    element(element) {
      if (skip()) return;
      try {
        element.onEndTag(() => {
          const text = buffer?.join("") ?? "";
          buffer = null;
          onEnd(text);
        });
        buffer = [];
      } catch {
        /* no end tag to wait for */
      }
    },
    text(chunk) {
      if (buffer && buffer.length < 4000) buffer.push(chunk.text);
    },
  };
}

/** A rewriter that fills `facts` as a page streams through it. */
export function pageFactsRewriter(facts: PageFacts): HTMLRewriter {
  const article = depthCounter();
  const furniture = depthCounter();
  const hidden = depthCounter();
  let articleParagraph = "";
  let firstParagraph = "";
  let firstTimeAnywhere = "";
  let titleSeen = false;
  let h1Seen = false;

  const inArticle = () => article.depth > 0;
  const inFurniture = () => furniture.depth > 0 && !inArticle();
  /** The post's own text: in the article, outside any header, footer, nav or aside (related-post lists live there). */
  const inPostText = () => inArticle() && furniture.depth === 0 && hidden.depth === 0;
  // Lists: only top-level ones in the post's text; items of a list nested in an item belong to that item.
  let listDepth = 0;
  let currentList: string[] | null = null;

  return new HTMLRewriter()
    .on("article, main, [role=main], [itemprop=articleBody]", article.handler)
    .on("header, footer, nav, aside, [role=navigation], [role=banner], [role=contentinfo], [role=complementary]", furniture.handler)
    .on("svg, template, noscript, script, style", hidden.handler)
    .on("base[href]", {
      element(element) {
        facts.baseHref ||= element.getAttribute("href") ?? "";
      },
    })
    .on("meta", {
      element(element) {
        const key = (element.getAttribute("property") ?? element.getAttribute("name") ?? element.getAttribute("itemprop") ?? "").trim().toLowerCase();
        const content = element.getAttribute("content");
        if (!key || content === null) return;
        if (META_VIDEO_KEYS.has(key)) {
          facts.videos.push(content);
          return;
        }
        if (META_IMAGE_KEYS.has(key)) {
          facts.metaImages.push({ url: content, from: "meta" });
          return;
        }
        const last = facts.metaImages.at(-1);
        if (last && key === "og:image:width") last.width = parseDimension(content);
        if (last && key === "og:image:height") last.height = parseDimension(content);
        if (!(key in facts.meta)) facts.meta[key] = content;
      },
    })
    .on("link[href]", {
      element(element) {
        const rels = (element.getAttribute("rel") ?? "").toLowerCase().split(/\s+/).filter(Boolean);
        const href = element.getAttribute("href") ?? "";
        if (rels.includes("canonical")) facts.canonical ||= href;
        if (rels.includes("image_src")) facts.metaImages.push({ url: href, from: "meta" });
        if (rels.some((rel) => ICON_RELS.has(rel))) facts.iconHrefs.push(href);
        const type = (element.getAttribute("type") ?? "").toLowerCase().trim();
        if (rels.includes("alternate") && FEED_TYPES.has(type)) facts.feedHrefs.push(href);
      },
    })
    .on(
      "title",
      textCollector(
        (raw) => {
          titleSeen = true;
          facts.title = raw;
        },
        () => titleSeen || hidden.depth > 0,
      ),
    )
    .on(
      "h1",
      textCollector(
        (raw) => {
          if (!raw.trim()) return;
          h1Seen = true;
          facts.h1 = raw;
        },
        () => h1Seen || hidden.depth > 0,
      ),
    )
    .on(
      "p",
      textCollector(
        (raw) => {
          if (raw.replace(/\s+/g, " ").trim().length < MIN_PARAGRAPH) return;
          if (inArticle()) articleParagraph ||= raw;
          firstParagraph ||= raw;
        },
        () => hidden.depth > 0 || inFurniture() || articleParagraph !== "",
      ),
    )
    .on("ul, ol", {
      element(element) {
        try {
          element.onEndTag(() => {
            listDepth = Math.max(0, listDepth - 1);
            if (listDepth === 0) currentList = null;
          });
        } catch {
          return;
        }
        listDepth += 1;
        if (listDepth === 1 && inPostText()) {
          currentList = [];
          facts.lists.push(currentList);
        }
      },
    })
    .on(
      "li",
      textCollector(
        (raw) => currentList?.push(raw),
        () => listDepth !== 1 || currentList === null || currentList.length >= 50,
      ),
    )
    .on(
      "h2, h3",
      textCollector(
        (raw) => facts.headings.push(raw),
        () => !inPostText() || facts.headings.length >= 50,
      ),
    )
    .on(
      "blockquote",
      textCollector(
        (raw) => facts.quotes.push(raw),
        () => !inPostText() || facts.quotes.length >= 5,
      ),
    )
    .on("video[src], video source[src]", {
      element(element) {
        if (hidden.depth > 0 || inFurniture()) return;
        const src = element.getAttribute("src");
        if (src?.trim()) facts.videos.push(src);
      },
    })
    .on("time[datetime]", {
      element(element) {
        const value = element.getAttribute("datetime") ?? "";
        if (inArticle() && !facts.time) facts.time = value;
        firstTimeAnywhere ||= value;
      },
    })
    .on("img", {
      element(element) {
        if (hidden.depth > 0 || inFurniture()) return;
        const srcset = IMG_SRCSET_ATTRIBUTES.map((name) => element.getAttribute(name)).find((value) => value?.trim());
        const direct = IMG_URL_ATTRIBUTES.map((name) => element.getAttribute(name)).find((value) => value?.trim() && !/^data:/i.test(value.trim()));
        const url = (srcset ? largestFromSrcset(srcset) : undefined) ?? direct;
        if (!url) return;
        const alt = element.getAttribute("alt");
        facts.images.push({
          url,
          from: inArticle() ? "article" : "page",
          width: parseDimension(element.getAttribute("width")),
          height: parseDimension(element.getAttribute("height")),
          ...(alt ? { alt } : {}),
        });
      },
    })
    .onDocument({
      end() {
        facts.paragraph = articleParagraph || firstParagraph;
        facts.time ||= firstTimeAnywhere;
      },
    });
}

/** Streams a page through the reader and answers what it found; the body is read to its end and discarded. */
export async function readPageFacts(page: Response): Promise<PageFacts> {
  const facts = emptyFacts();
  const transformed = pageFactsRewriter(facts).transform(page);
  const reader = transformed.body?.getReader();
  if (reader) {
    for (;;) {
      const { done } = await reader.read();
      if (done) break;
    }
  }
  return facts;
}

export interface FragmentFacts {
  /** The fragment's text, raw (entities not decoded), with block boundaries as spaces. */
  text: string;
  /** <img> candidates in order. */
  images: ImageCandidate[];
}

/** Text and images of an HTML fragment (a feed item's description or content). */
export async function readFragment(html: string): Promise<FragmentFacts> {
  const result: FragmentFacts = { text: "", images: [] };
  if (!html) return result;
  if (!/[<&]/.test(html)) return { text: html, images: [] };
  const hidden = depthCounter();
  const parts: string[] = [];
  const rewriter = new HTMLRewriter()
    .on("script, style, template, noscript, svg", hidden.handler)
    .on("p, br, div, li, h1, h2, h3, h4, h5, h6, tr, blockquote, figure, figcaption", {
      element() {
        parts.push(" ");
      },
    })
    .on("img", {
      element(element) {
        const srcset = IMG_SRCSET_ATTRIBUTES.map((name) => element.getAttribute(name)).find((value) => value?.trim());
        const direct = IMG_URL_ATTRIBUTES.map((name) => element.getAttribute(name)).find((value) => value?.trim() && !/^data:/i.test(value.trim()));
        const url = (srcset ? largestFromSrcset(srcset) : undefined) ?? direct;
        if (url) result.images.push({ url, from: "article", width: parseDimension(element.getAttribute("width")), height: parseDimension(element.getAttribute("height")) });
      },
    })
    .onDocument({
      text(chunk) {
        if (hidden.depth === 0) parts.push(chunk.text);
      },
    });
  await rewriter.transform(new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } })).arrayBuffer();
  result.text = parts.join("");
  return result;
}
