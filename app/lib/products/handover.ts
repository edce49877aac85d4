import type { Source } from "../../../contracts/content/scrape.ts";
import type { GenerationPlan } from "./chosen-products.ts";

/**
 * Products handed from /products to /generate in this tab (session storage,
 * like the grid /singlePin reads): /generate takes them once, on arrival, and
 * generates at once.
 */
const KEY = "pinboard:products-to-generate";

export function handProductsToGenerator(plan: GenerationPlan): boolean {
  try {
    window.sessionStorage.setItem(KEY, JSON.stringify(plan));
    return true;
  } catch {
    return false;
  }
}

function isSource(value: unknown): value is Source {
  const source = value as Source;
  return typeof source === "object" && source !== null && typeof source.url === "string" && typeof source.title === "string" && Array.isArray(source.allImages);
}

/**
 * The plan taken from session storage in this page view, until the generator
 * is done with it: after a client-side navigation the generator's component
 * can be mounted, unmounted and mounted again before it starts (seen in
 * Chromium on arrival from /products), and the second mount must find the
 * same products.
 */
let taken: GenerationPlan | null = null;

/** The products waiting for the generator (taken out of session storage once); null when there are none. */
export function takeProductsForGenerator(): GenerationPlan | null {
  if (taken) return taken;
  taken = readHandedProducts();
  return taken;
}

/** The generator is done with the products it took (generated, or failed and said so). */
export function productsForGeneratorDone() {
  taken = null;
}

function readHandedProducts(): GenerationPlan | null {
  try {
    const raw = window.sessionStorage.getItem(KEY);
    if (!raw) return null;
    window.sessionStorage.removeItem(KEY);
    const parsed = JSON.parse(raw) as Partial<GenerationPlan>;
    const counts = Array.isArray(parsed.pinCounts) ? parsed.pinCounts : [];
    const from = Array.isArray(parsed.from) ? parsed.from : [];
    const pairs = (Array.isArray(parsed.sources) ? parsed.sources : []).flatMap((source, index) =>
      isSource(source)
        ? [
            {
              source,
              pins: Number.isInteger(counts[index]) && counts[index] > 0 ? counts[index] : 1,
              from: from[index] === "csv" ? ("csv" as const) : ("shop" as const),
            },
          ]
        : [],
    );
    if (pairs.length === 0) return null;
    return { sources: pairs.map((pair) => pair.source), pinCounts: pairs.map((pair) => pair.pins), from: pairs.map((pair) => pair.from) };
  } catch {
    return null;
  }
}
