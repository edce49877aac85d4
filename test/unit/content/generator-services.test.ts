import { unzipSync } from "fflate";
import * as v from "valibot";
import { describe, expect, it, vi } from "vitest";
import { DesignSettings, type DesignSettingsInput } from "../../../contracts/content/design-settings.ts";
import type { Post } from "../../../contracts/content/post.ts";
import type { Source } from "../../../contracts/content/scrape.ts";
import type { Template } from "../../../contracts/content/template.ts";
import { TemplateDesign } from "../../../contracts/content/template.ts";
import { applyAiCopy, type AiClient, type RewriteRequest } from "../../../app/lib/generator/ai-copy.ts";
import { downloadPin, downloadPins, downloadRequest, uniqueFileNames, zipPins, type DownloadDeps } from "../../../app/lib/generator/download.ts";
import type { RenderTemplateImageBody } from "../../../contracts/content/render.ts";
import { draftPosts, isLoadableDraft, localDateTimeName } from "../../../app/lib/generator/drafts.ts";
import { generatePosts } from "../../../workers/domain/generate.ts";
import { seededRandom } from "../../../workers/domain/random.ts";
import { chunks, mapLimit } from "../../../app/lib/generator/tasks.ts";

const TEMPLATE: Template = {
  ...v.parse(TemplateDesign, {
    title: "Photo and title",
    layers: [
      { type: "Image", id: "photo", name: "Photo", x: 0, y: 0, width: 1000, height: 900 },
      { type: "text", id: "title", name: "Title", x: 100, y: 1000, width: 800, height: 300, content: "title" },
    ],
    imageSlots: 1,
  }),
  templateId: "photo-title",
  isStandardTemplate: true,
  isShared: false,
  isOwn: false,
  updatedAt: "2026-01-01",
};

function source(slug: string): Source {
  return {
    url: `https://blog.example/${slug}`,
    title: `Title ${slug}`,
    description: `About ${slug}`,
    allImages: [`https://blog.example/${slug}.jpg`],
    date: "",
    siteName: "Blog",
  };
}

function posts(sources: Source[], overrides: DesignSettingsInput = {}): { posts: Post[]; settings: DesignSettings } {
  const settings = v.parse(DesignSettings, { pinsPerSource: 1, ...overrides });
  let n = 0;
  return { settings, posts: generatePosts(sources, { settings, templates: [TEMPLATE], random: seededRandom(1), newId: () => `p${++n}` }) };
}

function fakeAi(overrides: Partial<AiClient> = {}) {
  const rewrites: { request: RewriteRequest; noDuplicates: boolean }[] = [];
  const client: AiClient = {
    async rewrite(request, noDuplicates) {
      rewrites.push({ request, noDuplicates });
      return Array.from({ length: request.numResults }, (_, i) => `${request.kind} ${i + 1} of ${request.prompt}`);
    },
    async altText({ imageURL }) {
      return `A photo at ${imageURL}`;
    },
    ...overrides,
  };
  return { client, rewrites };
}

describe("AI copy", () => {
  it("rewrites titles and descriptions once per text, with as many results as posts and no duplicates for several", async () => {
    const { posts: generated, settings } = posts([source("a"), source("b")], { rewriteTitle: true, rewriteDescription: true, useOneOfEachImage: false });
    const twice = [...generated, { ...generated[0], id: "p9" }];
    const { client, rewrites } = fakeAi();
    const result = await applyAiCopy(twice, { ...settings, aiKeywords: "lemon\nchicken", aiTone: "Friendly" }, client, { random: seededRandom(2) });
    expect(result.failures).toEqual([]);
    const titleCalls = rewrites.filter((call) => call.request.kind === "title");
    expect(titleCalls.map((call) => [call.request.prompt, call.request.numResults, call.noDuplicates])).toEqual([
      ["Title a", 2, true],
      ["Title b", 1, false],
    ]);
    expect(titleCalls[0].request).toMatchObject({ keywords: "lemon\nchicken", tone: "Friendly", language: "English" });
    expect(result.posts.map((p) => p.title)).toEqual(["title 1 of Title a", "title 1 of Title b", "title 2 of Title a"]);
    expect(result.posts[0].description).toBe("description 1 of About a");
    expect(result.posts[0].fileName).toMatch(/^title-1-of-Title-a-\d+\.jpeg$/);
    // The input is not changed.
    expect(twice[0].title).toBe("Title a");
  });

  it("keeps the existing text when a call fails, and reports why", async () => {
    const { posts: generated, settings } = posts([source("a")], { rewriteTitle: true, generateAltTextWithAI: true });
    const { client } = fakeAi({
      rewrite: async () => {
        throw new Error("The AI service is busy");
      },
      altText: async () => {
        throw new Error("Unable to describe the image");
      },
    });
    const result = await applyAiCopy(generated, settings, client, { random: seededRandom(2) });
    expect(result.posts[0].title).toBe("Title a");
    expect(result.posts[0].altText).toBe("Title a");
    expect(result.failures.sort()).toEqual(["The AI service is busy", "Unable to describe the image"]);
  });

  it("writes alt text once per lead picture, and leaves locked posts and overridden titles alone", async () => {
    const { posts: generated, settings } = posts([source("a"), source("a"), source("b")], {
      generateAltTextWithAI: true,
      rewriteTitle: true,
      pinOverrides: { title: "Mine" },
    });
    const locked = generated.map((post, i) => ({ ...post, isLocked: i === 2 }));
    const altText = vi.fn(async ({ imageURL }: { imageURL: string }) => `Alt for ${imageURL}`);
    const { client, rewrites } = fakeAi({ altText });
    const result = await applyAiCopy(locked, settings, client, { random: seededRandom(2) });
    expect(rewrites).toEqual([]);
    expect(altText).toHaveBeenCalledTimes(1);
    expect(result.posts.map((p) => p.altText)).toEqual(["Alt for https://blog.example/a.jpg", "Alt for https://blog.example/a.jpg", "Mine"]);
  });
});

describe("downloads", () => {
  const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);

  function deps(overrides: Partial<DownloadDeps> = {}) {
    const renders: RenderTemplateImageBody[] = [];
    const value: DownloadDeps = {
      render: vi.fn(async (body: RenderTemplateImageBody) => {
        renders.push(body);
        return { url: "https://app.example/media/u/pins/abc/pin.jpeg", fileName: "pin.jpeg", width: 1000, height: 1500 };
      }),
      fetchBytes: vi.fn(async () => jpeg),
      ...overrides,
    };
    return { deps: value, renders };
  }

  it("asks the server for a download (which it charges) under a reference naming what is rendered, and keeps the post's file name", async () => {
    const [post] = posts([source("a")]).posts;
    const { deps: d, renders } = deps();
    const pin = await downloadPin(post, d);
    expect(pin).toMatchObject({ fileName: post.fileName, bytes: jpeg });
    expect(renders).toHaveLength(1);
    expect(renders[0]).toMatchObject({ purpose: "download", post: { title: post.title, url: post.url } });
    expect(renders[0].reference).toMatch(/^pin-download:[0-9a-f]{32}$/);
    // The same pin asks under the same reference (answered again, charged once); another pin under another.
    expect((await downloadRequest(post)).reference).toBe(renders[0].reference);
    expect((await downloadRequest({ ...post, title: `${post.title}!` })).reference).not.toBe(renders[0].reference);
  });

  it("throws when the pin cannot be fetched, and retries a dropped render under the same reference", async () => {
    const [post] = posts([source("a")]).posts;
    const failing = deps({ fetchBytes: async () => Promise.reject(new Error("404")) });
    await expect(downloadPin(post, failing.deps)).rejects.toThrow("404");

    let calls = 0;
    const references: (string | undefined)[] = [];
    const flaky = deps({
      render: async (body) => {
        references.push(body.reference);
        if (++calls === 1) throw new TypeError("Failed to fetch");
        return { url: "https://app.example/media/u/pins/abc/pin.jpeg", fileName: "pin.jpeg", width: 1000, height: 1500 };
      },
    });
    await downloadPin(post, flaky.deps);
    expect(references).toHaveLength(2);
    expect(references[0]).toBe(references[1]);
  });

  it("downloads many with progress, skipping failures, into one ZIP with distinct names", async () => {
    const generated = posts([source("a"), source("b"), source("c")]).posts;
    let n = 0;
    const { deps: d } = deps({
      render: async () => {
        n += 1;
        if (n === 2) throw new Error("render failed");
        return { url: `https://app.example/media/${n}.jpeg`, fileName: "x.jpeg", width: 1000, height: 1500 };
      },
    });
    const progress: number[] = [];
    const result = await downloadPins(generated, d, (done) => progress.push(done));
    expect(progress).toEqual([1, 2, 3]);
    expect(result.pins).toHaveLength(2);
    expect(result.failed).toHaveLength(1);
    const zip = unzipSync(zipPins([...result.pins, { ...result.pins[0] }]));
    const names = Object.keys(zip);
    expect(names).toHaveLength(3);
    expect(new Set(names).size).toBe(3);
    expect([...zip[names[0]]]).toEqual([...jpeg]);
    expect(uniqueFileNames(["a.jpeg", "a.jpeg", "b"])).toEqual(["a.jpeg", "a (2).jpeg", "b"]);
  });
});

describe("drafts and tasks", () => {
  it("names updates by local date-time, loads only drafts with posts, keeps only valid posts", () => {
    expect(localDateTimeName(new Date(2026, 10, 5, 9, 7))).toBe("2026-11-05 09:07");
    expect(isLoadableDraft({ posts: [] })).toBe(false);
    expect(isLoadableDraft({ postCount: 0 })).toBe(false);
    expect(isLoadableDraft(null)).toBe(false);
    expect(isLoadableDraft({ posts: [{}] })).toBe(true);
    const [post] = posts([source("a")]).posts;
    expect(draftPosts([post, { id: "" }, { title: 3 }])).toHaveLength(1);
  });

  it("chunks and runs with a limit, in order", async () => {
    expect(chunks([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    let running = 0;
    let peak = 0;
    const out = await mapLimit([5, 1, 3, 2], 2, async (x) => {
      running += 1;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, x));
      running -= 1;
      return x * 2;
    });
    expect(out).toEqual([10, 2, 6, 4]);
    expect(peak).toBe(2);
  });
});
