import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { handProductsToGenerator, productsForGeneratorDone, takeProductsForGenerator } from "../../../app/lib/products/handover.ts";

const store = new Map<string, string>();
const sessionStorage = {
  getItem: (key: string) => store.get(key) ?? null,
  setItem: (key: string, value: string) => void store.set(key, value),
  removeItem: (key: string) => void store.delete(key),
};
const plan = {
  sources: [
    { url: "https://shop.example.com/products/mug", title: "Speckled Stoneware Mug in Sage", description: "", allImages: ["https://shop.example.com/mug.jpg"] },
  ],
  pinCounts: [5],
};

beforeEach(() => {
  store.clear();
  (globalThis as { window?: unknown }).window = { sessionStorage };
});
afterEach(() => {
  productsForGeneratorDone();
  delete (globalThis as { window?: unknown }).window;
});

describe("products handed from /products to /generate", () => {
  it("reach a generator mounted twice on arrival, and are generated once", () => {
    expect(handProductsToGenerator(plan as never)).toBe(true);
    const first = takeProductsForGenerator();
    // A product whose origin is not said came from a connected shop (what made each pin, issue 41).
    expect(first).toEqual({ ...plan, from: ["shop"] });
    expect(store.size).toBe(0); // out of session storage: a reload does not generate them again
    // Mounted again before it started: the same products.
    expect(takeProductsForGenerator()).toEqual(first);
    productsForGeneratorDone();
    // Generated: coming back to /generate later finds nothing.
    expect(takeProductsForGenerator()).toBeNull();
  });

  it("keeps whether each product came from a CSV file or a shop", () => {
    expect(handProductsToGenerator({ ...plan, sources: [plan.sources[0], plan.sources[0]], pinCounts: [1, 2], from: ["csv", "shop"] } as never)).toBe(true);
    expect(takeProductsForGenerator()?.from).toEqual(["csv", "shop"]);
  });

  it("ignores what is not a list of products", () => {
    store.set("pinboard:products-to-generate", JSON.stringify({ sources: [{ title: 3 }], pinCounts: [2] }));
    expect(takeProductsForGenerator()).toBeNull();
  });
});
