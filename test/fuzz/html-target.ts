import { MAX_HTML_BYTES } from "../../workers/scrape/fetch.ts";
import type { Target } from "./campaign.ts";
import { firstElements } from "./mutations.ts";
import { HTML_MUTATORS } from "./text-mutations.ts";

/**
 * Scraped HTML, the one parser of untrusted bytes that exists only in workerd (HTMLRewriter). Its cases are made
 * anywhere (here); they are read inside workerd (html-reader.workerd.ts), by test/workers/core/untrusted-bytes.test.ts
 * and by bench:fuzz's workerd harness (bench/fuzz-workerd.ts).
 */

/** The sandbox's pages the campaign starts from: a post, the home page, an archive, the hostile tiny-images page. */
export const HTML_SEED_PATHS = ["/blog-demo/posts/berry-smoothie-bowls", "/blog-demo/", "/blog-demo/archive/3", "/hostile/tiny-images"];

/**
 * The HTML target's cases from the pages at HTML_SEED_PATHS, without a reader: `run` is given by where the reading
 * happens. Pages of cards keep three (the home page's 14 cost 600 handler calls a reading, a post 90).
 */
export function htmlCases(pages: Uint8Array[]): Omit<Target, "run"> {
  const seeds = pages.map((page) => firstElements(page, "li", 3));
  // The scrape reads at most MAX_HTML_BYTES of a page (a longer one is refused with 413 as it streams).
  return { name: "scraped HTML", seeds, mutators: HTML_MUTATORS, fit: (bytes) => bytes.subarray(0, MAX_HTML_BYTES) };
}
