import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { DesignSettings } from "../../../contracts/content/design-settings.ts";
import { Post } from "../../../contracts/content/post.ts";
import type { Source } from "../../../contracts/content/scrape.ts";
import { type Template, TemplateDesign } from "../../../contracts/content/template.ts";
import { changeTemplate, generatePosts, regenerateTemplates, templateWeight, type GenerationContext } from "../../../workers/domain/generate.ts";
import { seededRandom, weightedIndex, weightedShuffled } from "../../../workers/domain/random.ts";

/** Issue 41: the generator's random template choice leans towards the families that perform; each pin says what made it. */

function template(id: string, family: "split" | "full-bleed" | "text-only" | undefined): Template {
  return {
    ...v.parse(TemplateDesign, {
      title: `Template ${id}`,
      family,
      imageSlots: 1,
      layers: [
        { type: "Image", id: "photo", name: "Photo", x: 0, y: 0, width: 1000, height: 1000, imageIndex: 0 },
        { type: "text", id: "title", name: "Title", x: 100, y: 1100, width: 800, height: 300, content: "title" },
      ],
    }),
    templateId: id,
    isStandardTemplate: true,
    isShared: false,
    isOwn: false,
    updatedAt: "2026-01-01",
  };
}

const source = (slug: string): Source => ({
  url: `https://www.example.com/posts/${slug}`,
  title: `Title of ${slug}`,
  description: `Description of ${slug}`,
  allImages: [`https://www.example.com/images/${slug}.jpg`],
  date: "",
  siteName: "Example",
});

function context(overrides: Partial<GenerationContext> = {}): GenerationContext {
  let n = 0;
  return {
    settings: v.parse(DesignSettings, { pinsPerSource: 1, isRandomTemplates: true }),
    templates: [template("t-split", "split"), template("t-bleed", "full-bleed"), template("t-text", "text-only")],
    random: seededRandom(41),
    newId: () => `post-${++n}`,
    ...overrides,
  };
}

describe("weightedIndex", () => {
  it("draws each index about as often as its weight says", () => {
    const random = seededRandom(1);
    const counts = [0, 0, 0];
    for (let i = 0; i < 6000; i += 1) counts[weightedIndex([1, 2, 3], random)]! += 1;
    expect(counts[0]! / 6000).toBeCloseTo(1 / 6, 1);
    expect(counts[1]! / 6000).toBeCloseTo(2 / 6, 1);
    expect(counts[2]! / 6000).toBeCloseTo(3 / 6, 1);
  });

  it("never draws a weight of 0 and treats no positive weight as all alike", () => {
    const random = seededRandom(2);
    for (let i = 0; i < 500; i += 1) expect(weightedIndex([0, 5, Number.NaN, -1], random)).toBe(1);
    const seen = new Set(Array.from({ length: 200 }, () => weightedIndex([0, 0, 0], random)));
    expect(seen).toEqual(new Set([0, 1, 2]));
    // The edge of the range (random() just under 1) lands on the last index with weight.
    expect(weightedIndex([1, 1, 0], () => 0.999_999_999)).toBe(1);
    expect(weightedIndex([2, 1], () => 0)).toBe(0);
  });
});

describe("weightedShuffled", () => {
  it("keeps every item once and puts heavier ones first more often", () => {
    const random = seededRandom(3);
    let heavyFirst = 0;
    for (let i = 0; i < 1000; i += 1) {
      const order = weightedShuffled(["light", "middle", "heavy"], (item) => ({ light: 1, middle: 1, heavy: 8 })[item]!, random);
      expect([...order].sort()).toEqual(["heavy", "light", "middle"]);
      if (order[0] === "heavy") heavyFirst += 1;
    }
    expect(heavyFirst / 1000).toBeCloseTo(0.8, 1);
  });
});

describe("templateWeight", () => {
  it("weighs a template by its family, a family without figures as the mean, and nothing without weights", () => {
    const weigh = templateWeight({ split: 3, quote: 1 })!;
    expect(weigh({ family: "split" })).toBe(3);
    expect(weigh({ family: "quote" })).toBe(1);
    expect(weigh({ family: "list" })).toBe(2);
    expect(weigh({})).toBe(2);
    expect(templateWeight(undefined)).toBeNull();
    expect(templateWeight({})).toBeNull();
    expect(templateWeight({ split: 0 })).toBeNull();
  });
});

describe("generatePosts with family weights", () => {
  it("draws the best family's templates more often when the choice is random", () => {
    const sources = Array.from({ length: 200 }, (_, i) => source(`p${i}`));
    const plain = generatePosts(sources, context());
    const leaning = generatePosts(sources, context({ familyWeights: { split: 8, "full-bleed": 1, "text-only": 1 } }));
    const share = (posts: Post[]) => posts.filter((post) => post.templateType === "t-split").length / posts.length;
    expect(share(plain)).toBeCloseTo(1 / 3, 1);
    expect(share(leaning)).toBeCloseTo(0.8, 1);
  });

  it("still gives a source's several pins different templates", () => {
    const ctx = context({ familyWeights: { split: 50, "full-bleed": 1, "text-only": 1 } });
    const posts = generatePosts([source("a")], { ...ctx, settings: { ...ctx.settings, pinsPerSource: 3 } });
    expect(new Set(posts.map((post) => post.templateType)).size).toBe(3);
  });

  it("leaves templates in turn alone", () => {
    const ctx = context({ familyWeights: { split: 1, "full-bleed": 50, "text-only": 1 } });
    const posts = generatePosts([source("a"), source("b"), source("c")], { ...ctx, settings: { ...ctx.settings, isRandomTemplates: false } });
    expect(posts.map((post) => post.templateType)).toEqual(["t-split", "t-bleed", "t-text"]);
  });
});

describe("regenerateTemplates with family weights", () => {
  it("gives each post another template, the best family's more often", () => {
    const ctx = context();
    const posts = generatePosts(
      Array.from({ length: 300 }, (_, i) => source(`r${i}`)),
      { ...ctx, settings: { ...ctx.settings, isRandomTemplates: false } },
    ).filter((post) => post.templateType === "t-text");
    const again = regenerateTemplates(posts, ctx.templates, { random: seededRandom(9), isRandom: true, familyWeights: { split: 8, "full-bleed": 1 } });
    expect(again.every((post) => post.templateType !== "t-text")).toBe(true);
    expect(again.filter((post) => post.templateType === "t-split").length / again.length).toBeCloseTo(8 / 9, 1);
  });
});

describe("a pin's origin", () => {
  it("names the template, its family and where the source came from, and follows a template change", () => {
    const [post] = generatePosts([source("a")], context({ from: "feed", settings: v.parse(DesignSettings, { pinsPerSource: 1, isRandomTemplates: false }) }));
    expect(post!.origin).toEqual({ templateId: "t-split", templateTitle: "Template t-split", templateFamily: "split", source: "feed" });
    expect(v.safeParse(Post, post).success).toBe(true);
    expect(changeTemplate(post!, template("t-bleed", "full-bleed")).origin).toEqual({
      templateId: "t-bleed",
      templateTitle: "Template t-bleed",
      templateFamily: "full-bleed",
      source: "feed",
    });
  });

  it("takes each source's kind by position, and other when none is given", () => {
    const posts = generatePosts([source("a"), source("b")], context({ from: ["shop", "csv"] }));
    expect(posts.map((post) => post.origin?.source)).toEqual(["shop", "csv"]);
    expect(generatePosts([source("c")], context())[0]!.origin?.source).toBe("other");
  });
});
