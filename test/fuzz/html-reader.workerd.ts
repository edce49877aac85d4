import { PageTooComplex, readFragment, readPageFacts } from "../../workers/scrape/page-reader.ts";
import { pageSource } from "../../workers/scrape/page-source.ts";
import type { Outcome, Target } from "./campaign.ts";
import { htmlCases } from "./html-target.ts";

const decoder = new TextDecoder();

/**
 * What the scrape does with a page (readPageFacts, then pageSource) and a feed with an item's HTML (readFragment),
 * inside workerd. Accepted when the page gives a title; refused when it gives none or HTMLRewriter refuses it (the
 * scrape answers 422, naming the address).
 */
export async function readScrapedHtml(bytes: Uint8Array): Promise<Outcome> {
  await readFragment(decoder.decode(bytes));
  try {
    const facts = await readPageFacts(new Response(bytes.slice().buffer, { headers: { "content-type": "text/html; charset=utf-8" } }));
    return pageSource(facts, "https://blog.example/posts/a-post").title ? "accepted" : "refused";
  } catch (error) {
    if (error instanceof PageTooComplex) return "refused";
    throw error;
  }
}

export function htmlTarget(seeds: Uint8Array[]): Target {
  return { ...htmlCases(seeds), run: readScrapedHtml };
}
