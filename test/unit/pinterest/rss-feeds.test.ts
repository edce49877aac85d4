import { describe, expect, it } from "vitest";
import { colourIndexFor, newestPostsFirst, splitFirstCheck } from "../../../workers/domain/rss-feeds.ts";
import { stableSeed } from "../../../workers/domain/random.ts";

describe("RSS feed rules (decision 044)", () => {
  it("gives a post the same seed and colour every time, and different posts different seeds", () => {
    expect(stableSeed("https://blog.example/a")).toBe(stableSeed("https://blog.example/a"));
    expect(stableSeed("https://blog.example/a")).not.toBe(stableSeed("https://blog.example/b"));
    const colours = Array.from({ length: 50 }, (_, i) => colourIndexFor(`https://blog.example/post-${i}`, 3));
    expect(new Set(colours)).toEqual(new Set([0, 1, 2]));
    expect(colourIndexFor("x", 0)).toBe(0);
  });

  it("takes the newest posts on a first check and leaves the older ones out; later checks take every post", () => {
    const posts = [1, 2, 3, 4, 5];
    expect(splitFirstCheck(posts, true, 3)).toEqual({ take: [1, 2, 3], leaveOut: [4, 5] });
    expect(splitFirstCheck(posts, false, 3)).toEqual({ take: posts, leaveOut: [] });
  });

  it("orders posts newest first, undated ones after, keeping the source's order among equals", () => {
    const posts = [
      { id: "a", date: 10 },
      { id: "b", date: null },
      { id: "c", date: 30 },
      { id: "d", date: 10 },
    ];
    expect(newestPostsFirst(posts).map((post) => post.id)).toEqual(["c", "a", "d", "b"]);
    expect(
      newestPostsFirst([
        { id: "x", date: null },
        { id: "y", date: null },
      ]).map((post) => post.id),
    ).toEqual(["x", "y"]);
  });
});
