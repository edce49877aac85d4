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
    expect(first).toEqual(plan);
    expect(store.size).toBe(0); // out of session storage: a reload does not generate them again
    // Mounted again before it started: the same products.
    expect(takeProductsForGenerator()).toEqual(plan);
    productsForGeneratorDone();
    // Generated: coming back to /generate later finds nothing.
    expect(takeProductsForGenerator()).toBeNull();
  });

  it("ignores what is not a list of products", () => {
    store.set("pinboard:products-to-generate", JSON.stringify({ sources: [{ title: 3 }], pinCounts: [2] }));
    expect(takeProductsForGenerator()).toBeNull();
  });
});
