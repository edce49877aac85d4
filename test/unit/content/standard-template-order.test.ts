import { describe, expect, it } from "vitest";
import { isSameSet, reorderWithinCategory } from "../../../workers/domain/standard-template-order.ts";

describe("reordering the templates of one category", () => {
  it("puts the category's templates in their new order into the places they held", () => {
    expect(reorderWithinCategory(["a", "x", "b", "y", "c"], ["c", "a", "b"])).toEqual(["c", "x", "a", "y", "b"]);
  });

  it("leaves the order alone when the category's order does not change", () => {
    expect(reorderWithinCategory(["a", "x", "b"], ["a", "b"])).toEqual(["a", "x", "b"]);
  });
});

describe("the same set of ids", () => {
  it("holds when each id is there once, in any order", () => {
    expect(isSameSet(["a", "b", "c"], ["c", "a", "b"])).toBe(true);
  });

  it("fails on a missing, a foreign or a repeated id", () => {
    expect(isSameSet(["a", "b", "c"], ["a", "b"])).toBe(false);
    expect(isSameSet(["a", "b", "c"], ["a", "b", "z"])).toBe(false);
    expect(isSameSet(["a", "b", "c"], ["a", "b", "b"])).toBe(false);
  });
});
