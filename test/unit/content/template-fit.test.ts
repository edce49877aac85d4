import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { DesignSettings } from "../../../contracts/content/design-settings.ts";
import type { Source } from "../../../contracts/content/scrape.ts";
import { TemplateDesign, type Template, type TemplateDesignInput } from "../../../contracts/content/template.ts";
import { changeImage, changeTemplate, generatePosts, offerOf, regenerateImages, regenerateTemplates } from "../../../workers/domain/generate.ts";
import { seededRandom } from "../../../workers/domain/random.ts";
import { STANDARD_TEMPLATES } from "../../../workers/db/seed/standard-templates.ts";
import { distinctPictures, pictureKey } from "../../../workers/domain/picture-identity.ts";
import { canFill, fittingVariant, postOffer, templateNeeds, unmetNeedsSentence } from "../../../workers/domain/template-fit.ts";
import { chooseComparison, chooseListItems, choosePrice, chooseQuote } from "../../../workers/scrape/post-slots.ts";
import { sampleContentFor } from "../../../app/lib/sample-post.ts";

function asTemplate(id: string, design: TemplateDesignInput): Template {
  return { ...v.parse(TemplateDesign, design), templateId: id, isStandardTemplate: true, isShared: false, isOwn: false, updatedAt: "2026-11-01" };
}

const STANDARD = STANDARD_TEMPLATES.map(({ id, design }) => asTemplate(id, design));
const byId = (id: string) => STANDARD.find((template) => template.templateId === id)!;

const photo = (name: string) => `https://blog.example/wp-content/uploads/2025/03/${name}`;

function source(overrides: Partial<Source> = {}): Source {
  return {
    url: "https://blog.example/posts/a",
    title: "A post",
    description: "About it",
    allImages: [photo("bowl.jpg"), photo("berries.jpg"), photo("spoon.jpg")],
    date: "",
    siteName: "Blog",
    ...overrides,
  };
}

describe("near-duplicate pictures (decision 023)", () => {
  it("are one photo at another size, crop, format, density, CDN address or cache-busting query", () => {
    const key = pictureKey(photo("bowl.jpg"));
    for (const variant of [
      photo("bowl-300x200.jpg"),
      photo("bowl-1024x683.webp"),
      photo("bowl-scaled.jpg"),
      photo("bowl-e1712345678901.jpg"),
      photo("bowl@2x.jpg"),
      photo("BOWL.JPG"),
      `${photo("bowl.jpg")}?w=600&h=400&fit=crop&quality=80&ver=3`,
      "https://www.blog.example/wp-content/uploads/2025/03/bowl-768x512.jpeg",
      "https://i0.wp.com/blog.example/wp-content/uploads/2025/03/bowl.jpg?resize=640%2C427&ssl=1",
      "https://blog.example/_next/image?url=%2Fwp-content%2Fuploads%2F2025%2F03%2Fbowl.jpg&w=1080&q=75",
    ]) {
      expect(pictureKey(variant), variant).toBe(key);
    }
    expect(pictureKey("https://shop.example/cdn/shop/products/mug_600x600_crop_center.jpg?v=1699")).toBe(
      pictureKey("https://shop.example/cdn/shop/products/mug.jpg"),
    );
    expect(pictureKey("https://res.example/image/upload/w_300,h_200,c_fill/v1/cat.jpg")).toBe(pictureKey("https://res.example/image/upload/v1/cat.jpg"));
  });

  it("are not different photos: other names, numbers, folders or a query that names the picture", () => {
    expect(distinctPictures([photo("bowl-1.jpg"), photo("bowl-2.jpg"), photo("bowl.jpg"), "https://blog.example/2024/bowl.jpg"])).toHaveLength(4);
    expect(pictureKey("https://blog.example/image.php?id=3")).not.toBe(pictureKey("https://blog.example/image.php?id=4"));
    // The first (the best one the page named) stays.
    expect(distinctPictures([photo("bowl.jpg"), photo("bowl-300x200.jpg"), photo("spoon.jpg")])).toEqual([photo("bowl.jpg"), photo("spoon.jpg")]);
  });
});

describe("what templates need and posts offer", () => {
  it("every standard template declares its needs, at least what its layers and family imply", () => {
    for (const { id, design } of STANDARD_TEMPLATES) {
      expect(design.needs, id).toBeDefined();
      expect(templateNeeds(byId(id)), id).toEqual({ ...templateNeeds({ ...byId(id), needs: undefined }), ...design.needs });
    }
    expect(templateNeeds(byId("std-list-numbered-grid-01"))).toMatchObject({ pictures: 4, listItems: 0 });
    expect(templateNeeds(byId("std-list-printable-03"))).toMatchObject({ pictures: 0, listItems: 5 });
    expect(templateNeeds(byId("std-product-burst-04"))).toMatchObject({ price: true, pictures: 1 });
    expect(templateNeeds(byId("std-video-cinema-04"))).toMatchObject({ video: true });
    expect(templateNeeds(byId("std-before-after-slider-02"))).toMatchObject({ comparison: true, pictures: 2 });
    expect(templateNeeds(byId("std-quote-colour-01"))).toMatchObject({ quote: true, pictures: 0 });
  });

  it("a post offers its different pictures, list items, price, video, quote and a real before and after", () => {
    const offer = postOffer({
      allImages: [photo("a.jpg"), photo("a-300x200.jpg"), photo("b.jpg")],
      listItems: ["One", " ", "Two"],
      price: "$5",
      comparison: [photo("a.jpg"), photo("a-640x480.jpg")],
    });
    expect(offer).toEqual({ pictures: 2, listItems: 2, price: true, video: false, comparison: false, quote: false });
  });

  it("says in plain words what a post lacks for a template", () => {
    const offer = postOffer({ allImages: [photo("a.jpg"), photo("b.jpg")] });
    expect(unmetNeedsSentence(byId("std-list-numbered-grid-01"), offer)).toBe("Needs 4 different pictures");
    expect(unmetNeedsSentence(byId("std-product-duo-08"), offer)).toBe("Needs a price");
    expect(unmetNeedsSentence(byId("std-video-with-still-11"), postOffer({ allImages: [photo("a.jpg")] }))).toBe("Needs a video and 2 different pictures");
    expect(unmetNeedsSentence(byId("std-before-after-cards-04"), offer)).toBe("Needs a before and an after picture");
    expect(unmetNeedsSentence(byId("std-full-bleed-banner-01"), offer)).toBe("");
  });

  it("a template that loses a slot falls back to the fitting variant of its family with the most slots, never an empty one", () => {
    const twoPictures = postOffer({ allImages: [photo("a.jpg"), photo("b.jpg")] });
    const grid = byId("std-list-numbered-grid-01");
    const variant = fittingVariant(grid, STANDARD, twoPictures)!;
    expect(variant.family).toBe("list");
    expect(canFill(variant, twoPictures)).toBe(true);
    const listFits = STANDARD.filter((t) => t.family === "list" && canFill(t, twoPictures));
    expect(Math.max(...listFits.map((t) => templateNeeds(t).pictures))).toBe(templateNeeds(variant).pictures);
    // A checklist of 5 lines for a post with a 3-item list: the 3-line checklist.
    const threeItems = postOffer({ allImages: [photo("a.jpg")], listItems: ["Rug", "Lamp", "Mirror"] });
    expect(fittingVariant(byId("std-list-printable-03"), STANDARD, threeItems)?.templateId).toBe("std-list-short-checklist-13");
    // A product template for a post without a price: another family, still filled.
    const fallback = fittingVariant(byId("std-product-burst-04"), STANDARD, twoPictures)!;
    expect(canFill(fallback, twoPictures)).toBe(true);
  });
});

describe("the generator picks only templates a post can fill", () => {
  const settings = (extra = {}) => v.parse(DesignSettings, { pinsPerSource: 5, isRandomTemplates: true, ...extra });
  const context = (extra = {}, templates = STANDARD) => {
    let n = 0;
    return { settings: settings(extra), templates, fallbacks: STANDARD, random: seededRandom(3), newId: () => `p${++n}` };
  };

  it("random choice draws no video, price, quote, list or before-and-after template a blog post cannot fill", () => {
    const posts = generatePosts(
      Array.from({ length: 40 }, () => source()),
      context(),
    );
    expect(posts).toHaveLength(200);
    for (const post of posts) expect(canFill(post.template!, offerOf(post)), post.templateType).toBe(true);
    const families = new Set(posts.map((post) => post.template!.family));
    for (const family of ["video", "product", "quote", "before-after"]) expect(families.has(family as never), family).toBe(false);
    // Three different pictures: never one photo in two boxes.
    for (const post of posts) expect(new Set(post.selectedImages).size, post.templateType).toBe(post.selectedImages.length);
  });

  it("a post with a price, a list, a quote and a before and after can be drawn with those templates, before first and after second", () => {
    const rich = source({
      price: "$59",
      listItems: ["One", "Two", "Three", "Four", "Five"],
      quote: "Less, but better.",
      comparison: [photo("spoon.jpg"), photo("bowl.jpg")],
    });
    const posts = generatePosts([rich], context({ useOneOfEachTemplate: true }));
    const families = new Set(posts.map((post) => post.template!.family));
    for (const family of ["product", "quote", "before-after", "list"]) expect(families.has(family as never), family).toBe(true);
    for (const post of posts.filter((p) => p.template!.family === "before-after"))
      expect(post.selectedImages.slice(0, 2)).toEqual([photo("spoon.jpg"), photo("bowl.jpg")]);
    expect(posts.every((post) => post.template!.family !== "video")).toBe(true);
  });

  it("selected templates the post cannot fill give way to a fitting variant", () => {
    const posts = generatePosts(
      [source({ allImages: [photo("a.jpg"), photo("a-300x200.jpg")] })],
      context({ pinsPerSource: 1 }, [byId("std-list-numbered-grid-01")]),
    );
    expect(posts).toHaveLength(1);
    expect(posts[0].template!.family).toBe("list");
    expect(templateNeeds(posts[0].template!).pictures).toBeLessThanOrEqual(1);
  });

  it("Regenerate templates picks only among templates the post can fill", () => {
    const [post] = generatePosts([source()], context({ pinsPerSource: 1 }));
    let current = [post];
    for (let i = 0; i < 60; i++) {
      current = regenerateTemplates(current, STANDARD, { random: seededRandom(i), isRandom: true, fallbacks: STANDARD });
      expect(canFill(current[0].template!, offerOf(current[0])), current[0].templateType).toBe(true);
    }
  });

  it("choosing a picture shown in another box swaps the two, and regenerating pictures keeps a before and after in place", () => {
    const [post] = generatePosts([source()], context({ pinsPerSource: 1 }, [STANDARD.find((t) => t.family === "collage" && templateNeeds(t).pictures === 2)!]));
    const [first, second] = post.selectedImages;
    expect(changeImage(post, 0, second).selectedImages.slice(0, 2)).toEqual([second, first]);
    const comparison = [photo("spoon.jpg"), photo("bowl.jpg")];
    const paired = changeTemplate({ ...post, comparison }, byId("std-before-after-slider-02"));
    expect(paired.selectedImages.slice(0, 2)).toEqual(comparison);
    expect(regenerateImages([paired], seededRandom(1))[0].selectedImages.slice(0, 2)).toEqual(comparison);
  });
});

describe("reading what a post offers from its page", () => {
  it("takes its longest list of short items, else its section headings, without their numbering", () => {
    expect(
      chooseListItems(
        [
          ["Home", "Blog"],
          ["1. Pack layers", "2) Boots", "Step 3: Maps", "A headlamp"],
        ],
        [],
      ),
    ).toEqual(["Pack layers", "Boots", "Maps", "A headlamp"]);
    expect(chooseListItems([], ["1. Choose a bigger rug", "2. Lift furniture", "3. Layer lighting"])).toEqual([
      "Choose a bigger rug",
      "Lift furniture",
      "Layer lighting",
    ]);
    expect(chooseListItems([["One", "Two"]], ["Intro", "Outro"])).toEqual([]);
    const paragraphs = ["x".repeat(200), "Short", "Also short"];
    expect(chooseListItems([paragraphs], [])).toEqual([]);
  });

  it("takes a short blockquote as the quote, a stated price with its currency, and a before and an after only when the page says so", () => {
    expect(chooseQuote(["“Less, but better.”"])).toBe("Less, but better.");
    expect(chooseQuote(["ok", "x".repeat(400)])).toBe("");
    expect(choosePrice({ "product:price:amount": "59.00", "product:price:currency": "USD" })).toBe("$59");
    expect(choosePrice({ "og:price:amount": "12,50", "og:price:currency": "EUR" })).toBe("€12.50");
    expect(choosePrice({ price: "1,299.00", pricecurrency: "GBP" })).toBe("£1,299");
    expect(choosePrice({ description: "Only $5" })).toBe("");
    const base = "https://blog.example/posts/a";
    const shown = [photo("kitchen-after.jpg"), photo("kitchen-before.jpg")];
    expect(
      chooseComparison(
        [
          { url: shown[0], from: "article" },
          { url: shown[1], from: "article" },
        ],
        shown,
        base,
      ),
    ).toEqual([shown[1], shown[0]]);
    const bowls = [photo("bowl-1.jpg"), photo("bowl-2.jpg")];
    expect(
      chooseComparison(
        bowls.map((url) => ({ url, from: "article" as const, alt: "A smoothie bowl" })),
        bowls,
        base,
      ),
    ).toBeUndefined();
  });
});

describe("the template gallery's sample content", () => {
  const samples = STANDARD.map((template) => ({ template, content: sampleContentFor(template) }));

  it("fills every slot of every standard template: list items, a price, a quote, a before and an after, enough different photos", () => {
    for (const { template, content } of samples) {
      const offer = postOffer({ ...content, video: "sample.mp4", comparison: template.family === "before-after" ? content.allImages?.slice(0, 2) : [] });
      expect(unmetNeedsSentence(template, offer), template.templateId).toBe("");
    }
  });

  it("suits the family and category: list titles and items for lists, a product for product pins, the topic's own photos", () => {
    const of = (id: string) => samples.find((entry) => entry.template.templateId === id)!.content;
    expect(of("std-list-printable-03").title).not.toBe(of("std-full-bleed-banner-01").title);
    expect(of("std-product-card-01").price).toMatch(/^\$\d+$/);
    const recipes = samples.filter(({ template }) => template.categories.includes("Recipes")).map(({ content }) => content.allImages![0]);
    const travel = samples.filter(({ template }) => template.categories.includes("Travel")).map(({ content }) => content.allImages![0]);
    expect(recipes.every((picture) => /chicken|smoothie/.test(picture))).toBe(true);
    expect(travel.every((picture) => /amalfi|cabin|golden-hour/.test(picture))).toBe(true);
  });

  it("shows different photos on different cards, not one illustration on every card", () => {
    const leads = samples.map(({ content }) => content.allImages![0]);
    expect(new Set(leads).size).toBeGreaterThanOrEqual(15);
    for (const family of ["full-bleed", "split", "collage", "list", "product", "quote", "video"]) {
      const inFamily = samples.filter(({ template }) => template.family === family).map(({ content }) => content.allImages![0]);
      expect(new Set(inFamily).size, family).toBeGreaterThanOrEqual(3);
    }
  });
});

describe("video templates", () => {
  it("has at least 10 standard video templates, each with one Video layer and nothing drawn over the moving picture that only makes sense on a still", () => {
    const videos = STANDARD_TEMPLATES.filter(({ design }) => design.family === "video");
    expect(videos.length).toBeGreaterThanOrEqual(10);
    for (const { id, design } of videos) {
      const layers = design.layers as { type: string; name?: string; x: number; y: number; width: number; height: number }[];
      const videoAt = layers.findIndex((layer) => layer.type === "Video");
      expect(
        layers.filter((layer) => layer.type === "Video"),
        id,
      ).toHaveLength(1);
      const box = layers[videoAt];
      // A play button or a progress bar floats in the video's middle: Pinterest draws its own controls on a playing video.
      const floating = layers.slice(videoAt + 1).filter((layer) => {
        if (layer.type !== "SVG") return false;
        const cx = layer.x + layer.width / 2;
        const cy = layer.y + layer.height / 2;
        return cx > box.x + box.width / 3 && cx < box.x + (2 * box.width) / 3 && cy > box.y + box.height / 3 && cy < box.y + (2 * box.height) / 3;
      });
      expect(
        floating.map((layer) => layer.name),
        id,
      ).toEqual([]);
      expect(
        layers.filter((layer) => /play button|progress/i.test(layer.name ?? "")).map((layer) => layer.name),
        id,
      ).toEqual([]);
    }
  });
});
