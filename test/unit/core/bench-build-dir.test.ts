import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BENCH_BUILD_DIR, DEFAULT_BUILD_DIR, ROOT, wranglerConfigFor } from "../../../scripts/stack.ts";

// Issue 40 point 13: a benchmark builds and serves its own copy of the app, so a running `npm start` keeps its files.
describe("the benchmarks' own build", () => {
  it("serves npm start's build from wrangler.toml itself", () => {
    expect(wranglerConfigFor(DEFAULT_BUILD_DIR)).toBe(join(ROOT, "wrangler.toml"));
  });

  it("serves the benchmarks' build from a copy of wrangler.toml whose only changes are the two build paths", () => {
    const file = wranglerConfigFor(BENCH_BUILD_DIR);
    try {
      expect(file).not.toBe(join(ROOT, "wrangler.toml"));
      const original = readFileSync(join(ROOT, "wrangler.toml"), "utf8").split("\n");
      const copy = readFileSync(file, "utf8").split("\n").slice(1); // after its "written by" line
      expect(copy.length).toBe(original.length);
      const changed = copy.filter((line, index) => line !== original[index]);
      expect(changed).toEqual([`directory = "./${BENCH_BUILD_DIR}/client"`, `"virtual:remix-build" = "./${BENCH_BUILD_DIR}/server/index.js"`]);
      expect(copy.join("\n")).not.toContain("./build/");
    } finally {
      rmSync(file, { force: true });
    }
  });
});
