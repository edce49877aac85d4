import { describe, expect, it } from "vitest";
import * as v from "valibot";
import { defaultDesignSettings, DesignSettings, type DesignSettingsInput } from "../../../contracts/content/design-settings.ts";
import { Post } from "../../../contracts/content/post.ts";
import { RenderTemplateImageBody } from "../../../contracts/content/render.ts";
import type { Source } from "../../../contracts/content/scrape.ts";
import type { Template, TemplateDesignInput } from "../../../contracts/content/template.ts";
import { TemplateDesign } from "../../../contracts/content/template.ts";
import {
  applyDesignToPosts,
  changeImage,
  colourFor,
  duplicatePost,
  editPost,
  generatePosts,
  imageCandidates,
  postContent,
  regenerateColors,
  regenerateImages,
  regenerateTemplates,
  renderPostBody,
  startGeneration,
  templatePool,
  type GenerationContext,
} from "../../../workers/domain/generate.ts";
import { previewContent, previewImageUrl } from "../../../app/lib/generator/preview-images.ts";
import { seededRandom } from "../../../workers/domain/random.ts";

function template(id: string, slots: number): Template {
  const layers: TemplateDesignInput["layers"] = [
    ...Array.from({ length: slots }, (_, i) => ({
      type: "Image" as const,
      id: `photo-${i}`,
      name: `Photo ${i}`,
      x: 0,
      y: i * 300,
      width: 1000,
      height: 300,
      imageIndex: i,
    })),
    { type: "text" as const, id: "title", name: "Title", x: 100, y: 1000, width: 800, height: 300, content: "title" as const },
  ];
  return {
    ...v.parse(TemplateDesign, { title: `Template ${id}`, layers, imageSlots: slots }),
    templateId: id,
    isStandardTemplate: true,
    isShared: false,
    isOwn: false,
    updatedAt: "2026-01-01",
  };
}

const TEMPLATES = [template("t-one", 1), template("t-two", 2), template("t-three", 3)];

function source(slug: string, images = 3): Source {
  return {
    url: `https://www.example.com/posts/${slug}`,
    title: `Title of ${slug}`,
    description: `Description of ${slug}`,
    allImages: Array.from({ length: images }, (_, i) => `https://www.example.com/images/${slug}-${i}.jpg`),
    date: "2026-03-01T00:00:00.000Z",
    siteName: "Example Site",
  };
}

/** Settings for the tests: one pin per source unless a test asks for more. */
function settings(overrides: DesignSettingsInput = {}) {
  return v.parse(DesignSettings, { pinsPerSource: 1, ...overrides });
}

function context(overrides: DesignSettingsInput = {}, templates = TEMPLATES, seed = 7): GenerationContext {
  let n = 0;
  return { settings: settings(overrides), templates, random: seededRandom(seed), newId: () => `post-${++n}` };
}

describe("generatePosts", () => {
  it("makes one valid post per source with the spec's defaults", () => {
    const posts = generatePosts([source("a"), source("b")], context({ isRandomTemplates: false }));
    expect(posts).toHaveLength(2);
    for (const post of posts) expect(v.safeParse(Post, post).success).toBe(true);
    const [first] = posts;
    expect(first).toMatchObject({
      title: "Title of a",
      description: "Description of a",
      url: "https://www.example.com/posts/a",
      URLText: "example.com",
      brandName: "Example Site",
      colorIndex: 1,
      color: { r: 81, g: 195, b: 166, a: 1 },
      fontFamily: "Carter One",
      useUpperCaseFont: true,
      isLocked: false,
      isDownloaded: false,
      error: "",
    });
    // Round-robin templates: the first and second template, each with its own picture slots.
    expect(posts.map((p) => p.templateType)).toEqual(["t-one", "t-two"]);
    expect(posts[0].selectedImages).toEqual([source("a").allImages[0]]);
    expect(posts[1].selectedImages).toEqual(source("b").allImages.slice(0, 2));
    expect(posts[0].template?.layers).toHaveLength(2);
  });

  it("gives each source several pins with different templates and leading pictures (pinsPerSource, default 5)", () => {
    expect(defaultDesignSettings().pinsPerSource).toBe(5);
    const many = [...TEMPLATES, template("t-four", 1), template("t-five", 1), template("t-six", 1)];
    const posts = generatePosts([source("a", 3), source("b", 3)], context({ pinsPerSource: 5, isRandomTemplates: true }, many));
    expect(posts).toHaveLength(10);
    for (const slug of ["a", "b"]) {
      const own = posts.filter((p) => p.title === `Title of ${slug}`);
      expect(new Set(own.map((p) => p.templateType)).size).toBe(5);
      expect(new Set(own.map((p) => p.selectedImages[0])).size).toBe(3);
    }
    // More pins than templates: every template is used before one repeats.
    const few = generatePosts([source("c")], context({ pinsPerSource: 4, isRandomTemplates: false }));
    expect(few.map((p) => p.templateType)).toEqual(["t-one", "t-two", "t-three", "t-one"]);
    // "One of each" decides the count instead.
    expect(generatePosts([source("d")], context({ pinsPerSource: 5, useOneOfEachTemplate: true }))).toHaveLength(3);
  });

  it("names files by the spec's rule: dashes, no emoji, a random number, .jpeg, at most 100 characters", () => {
    const long = { ...source("x"), title: `Best 🍋 lemon chicken: one pan & done! ${"very ".repeat(40)}` };
    const [post] = generatePosts([long], context());
    expect(post.fileName).toMatch(/^Best-lemon-chicken-one-pan-done-very-[A-Za-z0-9-]*-\d+\.jpeg$/);
    expect(post.fileName.length).toBeLessThanOrEqual(100);
  });

  it("picks random templates from the pool, and one of each template when asked", () => {
    const random = generatePosts(
      Array.from({ length: 30 }, (_, i) => source(`s${i}`)),
      context({ isRandomTemplates: true }),
    );
    const used = new Set(random.map((p) => p.templateType));
    expect(used.size).toBe(3);

    const each = generatePosts([source("a"), source("b")], context({ useOneOfEachTemplate: true }));
    expect(each.map((p) => `${p.title}|${p.templateType}`)).toEqual([
      "Title of a|t-one",
      "Title of a|t-two",
      "Title of a|t-three",
      "Title of b|t-one",
      "Title of b|t-two",
      "Title of b|t-three",
    ]);
  });

  it("uses the selected colour, or all colours in turn", () => {
    const colors = [
      { r: 1, g: 1, b: 1, a: 1 },
      { r: 2, g: 2, b: 2, a: 1 },
      { r: 3, g: 3, b: 3, a: 1 },
    ];
    const selected = generatePosts([source("a"), source("b")], context({ designColors: colors, selectedColorIndex: 2 }));
    expect(selected.map((p) => p.colorIndex)).toEqual([2, 2]);
    expect(selected[0].color).toEqual(colors[2]);
    const all = generatePosts([source("a"), source("b"), source("c"), source("d")], context({ designColors: colors, useAllColors: true }));
    expect(all.map((p) => p.colorIndex)).toEqual([0, 1, 2, 0]);
    expect(all.map((p) => p.color.r)).toEqual([1, 2, 3, 1]);
    expect(colourFor(settings({ designColors: colors, selectedColorIndex: 9 }), 0).colorIndex).toBe(2);
  });

  it("gives one post per picture with one of each image, each picture leading once", () => {
    const posts = generatePosts([source("a", 3)], context({ useOneOfEachImage: true, isRandomTemplates: false }, [TEMPLATES[1]]));
    expect(posts.map((p) => p.selectedImages[0])).toEqual(source("a").allImages);
    expect(posts[1].selectedImages).toEqual([source("a").allImages[1], source("a").allImages[2]]);
    // Two pictures fill the 1- and 2-picture templates, not the 3-picture one: 2 templates x 2 pictures.
    const both = generatePosts([source("a", 2)], context({ useOneOfEachImage: true, useOneOfEachTemplate: true }));
    expect(both).toHaveLength(4);
    expect(new Set(both.map((post) => post.templateType))).toEqual(new Set(["t-one", "t-two"]));
  });

  it("chooses pictures: selected detected ones, uploaded ones, at random", () => {
    const s = source("a", 4);
    expect(
      imageCandidates(
        s,
        settings({ useAllDetectedImages: false, selectedDetectedImages: [s.allImages[2]], selectedUploadedImages: ["https://app/media/u.png"] }),
      ),
    ).toEqual([s.allImages[2], "https://app/media/u.png"]);
    // Nothing chosen at all: the source's own pictures.
    expect(imageCandidates(s, settings({ useAllDetectedImages: false }))).toEqual(s.allImages);
    const shuffledPosts = generatePosts(
      Array.from({ length: 12 }, () => s),
      context({ isRandomImages: true, templateSelections: [] }, [TEMPLATES[0]]),
    );
    expect(new Set(shuffledPosts.map((p) => p.selectedImages[0])).size).toBeGreaterThan(1);
    const ordered = generatePosts(
      Array.from({ length: 4 }, () => s),
      context({ isRandomImages: false }, [TEMPLATES[0]]),
    );
    expect(new Set(ordered.map((p) => p.selectedImages[0]))).toEqual(new Set([s.allImages[0]]));
  });

  it("applies pin overrides to every post", () => {
    const [post] = generatePosts(
      [source("a")],
      context({
        pinOverrides: {
          title: "My title",
          URLText: "shop.example",
          description: "Mine",
          url: "https://shop.example/x",
          brandName: "Brand",
          logoImage: "https://shop.example/logo.png",
        },
      }),
    );
    expect(post).toMatchObject({
      title: "My title",
      URLText: "shop.example",
      description: "Mine",
      url: "https://shop.example/x",
      brandName: "Brand",
      logoImage: "https://shop.example/logo.png",
    });
    expect(post.fileName).toMatch(/^My-title-\d+\.jpeg$/);
  });

  it("takes the selected templates, falling back to the others or the standard ones when one is missing", () => {
    const [one, two, three] = TEMPLATES;
    expect(templatePool([], [], [one, two]).map((t) => t.templateId)).toEqual(["t-one", "t-two"]);
    expect(templatePool(["t-three", "gone", "t-one"], [one, three], [two]).map((t) => t.templateId)).toEqual(["t-three", "t-one"]);
    expect(templatePool(["gone"], [], [two]).map((t) => t.templateId)).toEqual(["t-two"]);
  });
});

describe("changes to the grid", () => {
  const base = () => generatePosts([source("a"), source("b"), source("c"), source("d")], context({ isRandomTemplates: false, useAllColors: true }));

  it("a new generation resets the flags and keeps only the locked posts", () => {
    const old = base().map((post, i) => ({
      ...post,
      isDownloaded: true,
      isDownloading: true,
      isScheduled: true,
      isScheduling: true,
      error: "boom",
      isLocked: i === 1,
    }));
    const fresh = generatePosts([source("z")], context());
    const next = startGeneration(old, [{ ...fresh[0], isDownloaded: true }]);
    expect(next.map((p) => p.title)).toEqual(["Title of b", "Title of z"]);
    for (const post of next) expect(post).toMatchObject({ isDownloading: false, isDownloaded: false, isScheduling: false, isScheduled: false, error: "" });
    expect(next[0].isLocked).toBe(true);
  });

  it("regenerating templates, colours and images skips locked posts and changes the others", () => {
    const posts = base().map((post, i) => ({ ...post, isLocked: i === 0 }));
    const random = seededRandom(3);
    const templates = regenerateTemplates(posts, TEMPLATES, { random, isRandom: true });
    expect(templates[0]).toBe(posts[0]);
    for (let i = 1; i < posts.length; i++) {
      expect(templates[i].templateType).not.toBe(posts[i].templateType);
      expect(templates[i].template?.title).toBe(TEMPLATES.find((t) => t.templateId === templates[i].templateType)?.title);
      expect(templates[i].selectedImages).toHaveLength(TEMPLATES.find((t) => t.templateId === templates[i].templateType)!.imageSlots!);
    }
    const inTurn = regenerateTemplates(posts, TEMPLATES, { random, isRandom: false });
    expect(inTurn.slice(1).map((p) => p.templateType)).toEqual(["t-three", "t-one", "t-two"]);

    const colors = regenerateColors(posts, settings(), random);
    expect(colors[0]).toBe(posts[0]);
    for (let i = 1; i < posts.length; i++) expect(colors[i].colorIndex).not.toBe(posts[i].colorIndex);
    expect(colors[1].color).toEqual(defaultDesignSettings().designColors[colors[1].colorIndex]);

    const images = regenerateImages(posts, random);
    expect(images[0]).toBe(posts[0]);
    for (let i = 1; i < posts.length; i++) expect(images[i].selectedImages[0]).not.toBe(posts[i].selectedImages[0]);
  });

  it("a bulk design change skips locked posts", () => {
    const posts = base().map((post, i) => ({ ...post, isLocked: i === 2 }));
    const next = applyDesignToPosts(
      posts,
      settings({ fontFamily: "Lobster", useUpperCaseFont: false, fontColor: "#112233", pinOverrides: { brandName: "New brand" } }),
      seededRandom(1),
    );
    expect(next[2]).toBe(posts[2]);
    for (const i of [0, 1, 3]) expect(next[i]).toMatchObject({ fontFamily: "Lobster", useUpperCaseFont: false, fontColor: "#112233", brandName: "New brand" });
  });

  it("duplicating resets pinning, downloading and scheduling flags", () => {
    const post = {
      ...base()[0],
      isPinned: true,
      isPinning: true,
      isDownloaded: true,
      isDownloading: true,
      isScheduled: true,
      isScheduling: true,
      error: "x",
      isLocked: true,
    };
    const copy = duplicatePost(post, "copy-1", seededRandom(2));
    expect(copy).toMatchObject({
      id: "copy-1",
      isPinned: false,
      isPinning: false,
      isDownloaded: false,
      isDownloading: false,
      isScheduled: false,
      isScheduling: false,
      error: "",
      title: post.title,
    });
    expect(copy.template).toEqual(post.template);
    expect(copy.template).not.toBe(post.template);
    expect(copy.fileName).not.toBe(post.fileName);
  });

  it("an edited title renames the file with the same number; other edits keep it", () => {
    const post = base()[0];
    const number = /-(\d+)\.jpeg$/.exec(post.fileName)![1];
    const edited = editPost(post, { title: "A new title!" }, seededRandom(4));
    expect(edited.fileName).toBe(`A-new-title-${number}.jpeg`);
    expect(editPost(post, { description: "d", altText: "alt", url: "https://x.example", URLText: "x.example" }, seededRandom(4))).toMatchObject({
      fileName: post.fileName,
      description: "d",
      altText: "alt",
    });
  });

  it("draws what the post shows: its chosen pictures in slot order, uploads as uploaded images", () => {
    const post = changeImage(base()[1], 1, "https://app.example/media/upload.png");
    const content = postContent(post);
    expect(content.allImages).toEqual([post.selectedImages[0], "https://app.example/media/upload.png"]);
    expect(content.uploadedImages).toEqual(["https://app.example/media/upload.png"]);
    const body = renderPostBody(post);
    expect(v.safeParse(RenderTemplateImageBody, { post: body }).success).toBe(true);
    expect(body.fileName).toBe(post.fileName);
  });
});

describe("preview pictures", () => {
  it("takes other sites' pictures through our image proxy, and keeps our own and inline ones", () => {
    const origin = "https://app.example";
    expect(previewImageUrl("https://blog.example/a b.jpg", origin)).toBe("/api/scraping/imageProxy?url=https%3A%2F%2Fblog.example%2Fa%20b.jpg");
    expect(previewImageUrl("https://app.example/media/u/1.png?v=2", origin)).toBe("/media/u/1.png?v=2");
    expect(previewImageUrl("/samples/x.jpg", origin)).toBe("/samples/x.jpg");
    expect(previewImageUrl("data:image/png;base64,AAA", origin)).toBe("data:image/png;base64,AAA");
    const [post] = generatePosts([source("a")], context({ pinOverrides: { logoImage: "https://cdn.example/logo.png" } }));
    const content = previewContent(post, origin);
    expect(content.allImages?.every((url) => url.startsWith("/api/scraping/imageProxy?url="))).toBe(true);
    expect(content.logoImage).toBe("/api/scraping/imageProxy?url=https%3A%2F%2Fcdn.example%2Flogo.png");
    // The download draws the original addresses.
    expect(renderPostBody(post).allImages).toEqual(post.selectedImages);
  });
});
