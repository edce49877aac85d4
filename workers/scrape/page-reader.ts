import { largestFromSrcset, parseDimension, type ImageCandidate } from "./images.ts";
import { MIN_PARAGRAPH, emptyFacts, type PageFacts } from "./page-source.ts";

/**
 * Reads what a page says about itself while it streams through HTMLRewriter
 * (built into workerd: no DOM is built). Values are raw, as written in the
 * markup; page-source.ts decodes and chooses.
 *
 * What one page may cost is bounded (decision 078). workerd calls our
 * handlers one at a time, about 20 us of CPU a call, so a page of 100,000
 * tags we look at took seconds: reading stops after MAX_HANDLER_CALLS calls
 * and keeps what was read by then (the demo blog's pages need under 400).
 * What is kept is capped too. HTMLRewriter itself refuses a page that takes
 * it past 3 MB (one tag megabytes long, tags nested about 15,000 deep):
 * PageTooComplex, which the scrape answers as a clear refusal.
 */

export const MAX_HANDLER_CALLS = 5_000;
/** Characters kept of one element's text (a title, a paragraph, a list item): far more than any use of it. */
const MAX_TEXT_LENGTH = 16_000;
/** Candidates kept of each kind: images (40 are chosen at most), icons, feeds, videos, lists, meta tags. */
const MAX_IMAGES_READ = 400;
const MAX_LINKS_READ = 50;
const MAX_LISTS_READ = 50;
const MAX_META_READ = 300;

/** HTMLRewriter's own refusal of a page: its memory limit for one page was reached. */
export class PageTooComplex extends Error {
  constructor() {
    super("The page's HTML is beyond what the HTML reader takes: a tag megabytes long, or tags nested thousands deep.");
    this.name = "PageTooComplex";
  }
}

/**
 * The handler calls a reading may make (one page, or all the item texts of one feed). Past them the handlers do
 * nothing and the page stops being fed to HTMLRewriter (throwing out of a handler stops it too, but workerd then
 * logs every such stop as an uncaught exception).
 */
export class ReadingBudget {
  private calls = 0;
  private readonly max: number;
  spent = false;
  constructor(max: number) {
    this.max = max;
  }

  /** Counts a call; false once the budget is spent (the call should then do nothing). */
  spend(): boolean {
    this.calls += 1;
    if (this.calls > this.max) this.spent = true;
    return !this.spent;
  }

  /** The same handlers, each call counted, doing nothing once the budget is spent. */
  counted<H extends object>(handlers: H): H {
    const wrapped: Record<string, unknown> = {};
    for (const [name, handler] of Object.entries(handlers)) {
      wrapped[name] = (...args: unknown[]) => (this.spend() ? (handler as (...args: unknown[]) => unknown)(...args) : undefined);
    }
    return wrapped as H;
  }
}

/** What HTMLRewriter is fed at a time: after the budget is spent, at most this much more is read (with idle handlers). */
const SLICE_BYTES = 8 * 1024;

/** `body` in slices of at most SLICE_BYTES, ending early (the rest cancelled) once the budget is spent. */
function slicedUntilSpent(body: ReadableStream<Uint8Array> | null, budget: ReadingBudget): ReadableStream<Uint8Array> {
  const reader = body?.getReader();
  let pending: Uint8Array = new Uint8Array(0);
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (budget.spent || !reader) {
        controller.close();
        await reader?.cancel().catch(() => {});
        return;
      }
      if (pending.length === 0) {
        const { done, value } = await reader.read();
        if (done) {
          controller.close();
          return;
        }
        pending = value;
      }
      controller.enqueue(pending.subarray(0, SLICE_BYTES));
      pending = pending.subarray(SLICE_BYTES);
    },
    cancel(reason) {
      return reader?.cancel(reason);
    },
  });
}

/**
 * Streams `page` through `rewriter` to its end, or until the budget is spent; the parser's limit is PageTooComplex.
 * The output is collected by workerd itself (arrayBuffer, at most the page's 5 MB): read chunk by chunk in
 * JavaScript it cost 45 us a chunk, one chunk per tag a handler saw, three times the handlers' own time.
 */
async function readThrough(rewriter: HTMLRewriter, budget: ReadingBudget, page: Response): Promise<void> {
  try {
    await rewriter.transform(new Response(slicedUntilSpent(page.body, budget), { headers: page.headers })).arrayBuffer();
  } catch (error) {
    if (error instanceof TypeError && /memory limit/i.test(error.message)) throw new PageTooComplex();
    throw error;
  }
}

const pushCapped = <T>(list: T[], item: T, max: number) => {
  if (list.length < max) list.push(item);
};

const META_IMAGE_KEYS = new Set(["og:image", "og:image:url", "og:image:secure_url", "twitter:image", "twitter:image:src"]);
const META_VIDEO_KEYS = new Set(["og:video", "og:video:url", "og:video:secure_url", "twitter:player:stream"]);
const ICON_RELS = new Set(["icon", "shortcut", "apple-touch-icon", "apple-touch-icon-precomposed", "mask-icon", "fluid-icon"]);
const FEED_TYPES = new Set(["application/rss+xml", "application/atom+xml", "application/feed+xml", "application/rdf+xml"]);
const IMG_URL_ATTRIBUTES = ["data-src", "data-lazy-src", "data-original", "data-lazy", "data-url", "src"];
const IMG_SRCSET_ATTRIBUTES = ["data-srcset", "data-lazy-srcset", "srcset"];

/** Counts how deep the stream is inside elements matched by a selector (needs their end tags). */
function depthCounter(budget: ReadingBudget): { depth: number; handler: HTMLRewriterElementContentHandlers } {
  const counter = {
    depth: 0,
    handler: {
      element(element: Element) {
        // Void elements have no end tag: onEndTag refuses them.
        try {
          element.onEndTag(() => {
            if (budget.spend()) counter.depth = Math.max(0, counter.depth - 1);
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

/** Collects text of an element until its end tag (MAX_TEXT_LENGTH at most), then hands it over. */
function textCollector(budget: ReadingBudget, onEnd: (raw: string) => void, skip: () => boolean): HTMLRewriterElementContentHandlers {
  let buffer: string[] | null = null;
  let length = 0;
  return {
    element(element) {
      if (skip()) return;
      try {
        element.onEndTag(() => {
          if (!budget.spend()) return;
          const text = buffer?.join("") ?? "";
          buffer = null;
          onEnd(text);
        });
        buffer = [];
        length = 0;
      } catch {
        /* no end tag to wait for */
      }
    },
    text(chunk) {
      if (!buffer || length >= MAX_TEXT_LENGTH) return;
      const text = chunk.text.slice(0, MAX_TEXT_LENGTH - length);
      buffer.push(text);
      length += text.length;
    },
  };
}

/** A rewriter that fills `facts` as a page streams through it; `finish` completes them once the reading ends. */
function pageFactsRewriter(facts: PageFacts, budget: ReadingBudget): { rewriter: HTMLRewriter; finish(): void } {
  const article = depthCounter(budget);
  const furniture = depthCounter(budget);
  const hidden = depthCounter(budget);
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

  const rewriter = new HTMLRewriter();
  const on = (selector: string, handlers: HTMLRewriterElementContentHandlers) => rewriter.on(selector, budget.counted(handlers));
  on("article, main, [role=main], [itemprop=articleBody]", article.handler);
  on("header, footer, nav, aside, [role=navigation], [role=banner], [role=contentinfo], [role=complementary]", furniture.handler);
  on("svg, template, noscript, script, style", hidden.handler);
  on("base[href]", {
    element(element) {
      facts.baseHref ||= element.getAttribute("href") ?? "";
    },
  });
  on("meta", {
    element(element) {
      const key = (element.getAttribute("property") ?? element.getAttribute("name") ?? element.getAttribute("itemprop") ?? "").trim().toLowerCase();
      const content = element.getAttribute("content");
      if (!key || content === null) return;
      if (META_VIDEO_KEYS.has(key)) {
        pushCapped(facts.videos, content, MAX_LINKS_READ);
        return;
      }
      if (META_IMAGE_KEYS.has(key)) {
        pushCapped(facts.metaImages, { url: content, from: "meta" }, MAX_LINKS_READ);
        return;
      }
      const last = facts.metaImages.at(-1);
      if (last && key === "og:image:width") last.width = parseDimension(content);
      if (last && key === "og:image:height") last.height = parseDimension(content);
      if (!(key in facts.meta) && Object.keys(facts.meta).length < MAX_META_READ) facts.meta[key] = content;
    },
  });
  on("link[href]", {
    element(element) {
      const rels = (element.getAttribute("rel") ?? "").toLowerCase().split(/\s+/).filter(Boolean);
      const href = element.getAttribute("href") ?? "";
      if (rels.includes("canonical")) facts.canonical ||= href;
      if (rels.includes("image_src")) pushCapped(facts.metaImages, { url: href, from: "meta" }, MAX_LINKS_READ);
      if (rels.some((rel) => ICON_RELS.has(rel))) pushCapped(facts.iconHrefs, href, MAX_LINKS_READ);
      const type = (element.getAttribute("type") ?? "").toLowerCase().trim();
      if (rels.includes("alternate") && FEED_TYPES.has(type)) pushCapped(facts.feedHrefs, href, MAX_LINKS_READ);
    },
  });
  on(
    "title",
    textCollector(
      budget,
      (raw) => {
        titleSeen = true;
        facts.title = raw;
      },
      () => titleSeen || hidden.depth > 0,
    ),
  );
  on(
    "h1",
    textCollector(
      budget,
      (raw) => {
        if (!raw.trim()) return;
        h1Seen = true;
        facts.h1 = raw;
      },
      () => h1Seen || hidden.depth > 0,
    ),
  );
  on(
    "p",
    textCollector(
      budget,
      (raw) => {
        if (raw.replace(/\s+/g, " ").trim().length < MIN_PARAGRAPH) return;
        if (inArticle()) articleParagraph ||= raw;
        firstParagraph ||= raw;
      },
      () => hidden.depth > 0 || inFurniture() || articleParagraph !== "",
    ),
  );
  on("ul, ol", {
    element(element) {
      try {
        element.onEndTag(() => {
          if (!budget.spend()) return;
          listDepth = Math.max(0, listDepth - 1);
          if (listDepth === 0) currentList = null;
        });
      } catch {
        return;
      }
      listDepth += 1;
      if (listDepth === 1 && inPostText() && facts.lists.length < MAX_LISTS_READ) {
        currentList = [];
        facts.lists.push(currentList);
      }
    },
  });
  on(
    "li",
    textCollector(
      budget,
      (raw) => currentList?.push(raw),
      () => listDepth !== 1 || currentList === null || currentList.length >= 50,
    ),
  );
  on(
    "h2, h3",
    textCollector(
      budget,
      (raw) => facts.headings.push(raw),
      () => !inPostText() || facts.headings.length >= 50,
    ),
  );
  on(
    "blockquote",
    textCollector(
      budget,
      (raw) => facts.quotes.push(raw),
      () => !inPostText() || facts.quotes.length >= 5,
    ),
  );
  on("video[src], video source[src]", {
    element(element) {
      if (hidden.depth > 0 || inFurniture()) return;
      const src = element.getAttribute("src");
      if (src?.trim()) pushCapped(facts.videos, src, MAX_LINKS_READ);
    },
  });
  on("time[datetime]", {
    element(element) {
      const value = element.getAttribute("datetime") ?? "";
      if (inArticle() && !facts.time) facts.time = value;
      firstTimeAnywhere ||= value;
    },
  });
  on("img", {
    element(element) {
      if (hidden.depth > 0 || inFurniture() || facts.images.length >= MAX_IMAGES_READ) return;
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
  });
  return {
    rewriter,
    finish() {
      facts.paragraph = articleParagraph || firstParagraph;
      facts.time ||= firstTimeAnywhere;
    },
  };
}

/**
 * Streams a page through the reader and answers what it found, reading to the end of the body or until the
 * handler budget is spent; PageTooComplex when HTMLRewriter refuses the page.
 */
export async function readPageFacts(page: Response): Promise<PageFacts> {
  const facts = emptyFacts();
  const budget = new ReadingBudget(MAX_HANDLER_CALLS);
  const { rewriter, finish } = pageFactsRewriter(facts, budget);
  await readThrough(rewriter, budget, page);
  finish();
  return facts;
}

export interface FragmentFacts {
  /** The fragment's text, raw (entities not decoded), with block boundaries as spaces. */
  text: string;
  /** <img> candidates in order. */
  images: ImageCandidate[];
}

/**
 * Text and images of an HTML fragment (a feed item's description or content, a shop's product description),
 * within a page's budget, or within `budget` when several fragments share one (a feed's items). A fragment
 * HTMLRewriter refuses keeps what was read before: one odd item does not fail a whole feed.
 */
export async function readFragment(html: string, budget = new ReadingBudget(MAX_HANDLER_CALLS)): Promise<FragmentFacts> {
  const result: FragmentFacts = { text: "", images: [] };
  if (!html) return result;
  if (!/[<&]/.test(html)) return { text: html, images: [] };
  const hidden = depthCounter(budget);
  const parts: string[] = [];
  let length = 0;
  const rewriter = new HTMLRewriter()
    .on("script, style, template, noscript, svg", budget.counted(hidden.handler))
    .on(
      "p, br, div, li, h1, h2, h3, h4, h5, h6, tr, blockquote, figure, figcaption",
      budget.counted({
        element() {
          parts.push(" ");
        },
      }),
    )
    .on(
      "img",
      budget.counted({
        element(element: Element) {
          if (result.images.length >= MAX_IMAGES_READ) return;
          const srcset = IMG_SRCSET_ATTRIBUTES.map((name) => element.getAttribute(name)).find((value) => value?.trim());
          const direct = IMG_URL_ATTRIBUTES.map((name) => element.getAttribute(name)).find((value) => value?.trim() && !/^data:/i.test(value.trim()));
          const url = (srcset ? largestFromSrcset(srcset) : undefined) ?? direct;
          if (url)
            result.images.push({
              url,
              from: "article",
              width: parseDimension(element.getAttribute("width")),
              height: parseDimension(element.getAttribute("height")),
            });
        },
      }),
    )
    .onDocument(
      budget.counted({
        text(chunk: Text) {
          if (hidden.depth > 0 || length >= MAX_TEXT_LENGTH) return;
          parts.push(chunk.text);
          length += chunk.text.length;
        },
      }),
    );
  try {
    await readThrough(rewriter, budget, new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } }));
  } catch (error) {
    if (!(error instanceof PageTooComplex)) throw error;
  }
  result.text = parts.join("");
  return result;
}
