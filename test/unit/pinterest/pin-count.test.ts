import { describe, expect, it } from "vitest";
import { generateLabel, pinsPerPost } from "../../../app/lib/generator/pin-count.ts";

const settings = { pinsPerSource: 5, useOneOfEachTemplate: false, useOneOfEachImage: false };

describe("what a generate button says it makes", () => {
  it("counts pins, not posts: 3 posts at 5 pins each make 15 pins", () => {
    expect(generateLabel(3, settings, 40)).toBe("Generate 15 pins from 3 posts");
    expect(generateLabel(1, { ...settings, pinsPerSource: 1 }, 40)).toBe("Generate 1 pin from 1 post");
  });

  it("follows one-of-each-template (one pin per template) and one-of-each-image (not known before reading)", () => {
    expect(pinsPerPost({ ...settings, useOneOfEachTemplate: true }, 4)).toBe(4);
    expect(generateLabel(2, { ...settings, useOneOfEachTemplate: true }, 4)).toBe("Generate 8 pins from 2 posts");
    expect(generateLabel(2, { ...settings, useOneOfEachImage: true }, 4)).toBe("Generate pins from 2 posts (one for each picture)");
  });

  it("never promises more pins than a grid holds", () => {
    expect(generateLabel(100, settings, 40)).toBe("Generate 200 pins from 100 posts");
  });
});
