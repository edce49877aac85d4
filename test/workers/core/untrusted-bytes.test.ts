import { beforeAll, describe, expect, it } from "vitest";
import { woffToSfnt } from "../../../workers/media/fonts.ts";
import { MAX_HANDLER_CALLS, readPageFacts } from "../../../workers/scrape/page-reader.ts";
import { mutantOf, runCampaign, type Target } from "../../fuzz/campaign.ts";
import { expectClean } from "../../fuzz/expect-clean.ts";
import { fontTarget } from "../../fuzz/font-target.ts";
import { htmlTarget } from "../../fuzz/html-reader.workerd.ts";
import { HTML_SEED_PATHS } from "../../fuzz/html-target.ts";
import { WOFF2_MUTATORS, WOFF_MUTATORS } from "../../fuzz/font-mutations.ts";
import { caseSeed, readU16, readU32, writeU16 } from "../../fuzz/mutations.ts";
import { JPEG_MUTATORS, PNG_MUTATORS } from "../../fuzz/picture-mutations.ts";
import { HTML_MUTATORS, XML_MUTATORS } from "../../fuzz/text-mutations.ts";
import woffUrl from "../../fixtures/fonts/pacifico-latin-400.woff?inline";
import woff2Url from "../../fixtures/fonts/pacifico-latin-400.woff2?inline";
// The font campaign's seeds: font-target.ts's SMALL_FONT_FILES.
import greatVibesWoff from "@fontsource/great-vibes/files/great-vibes-greek-ext-400-normal.woff?inline";
import greatVibesWoff2 from "@fontsource/great-vibes/files/great-vibes-greek-ext-400-normal.woff2?inline";
import latoWoff from "@fontsource/lato/files/lato-latin-ext-400-normal.woff?inline";
import latoWoff2 from "@fontsource/lato/files/lato-latin-ext-400-normal.woff2?inline";
import openSansWoff from "@fontsource/open-sans/files/open-sans-greek-ext-400-normal.woff?inline";
import openSansWoff2 from "@fontsource/open-sans/files/open-sans-greek-ext-400-normal.woff2?inline";
import robotoWoff from "@fontsource/roboto/files/roboto-greek-ext-400-normal.woff?inline";
import robotoWoff2 from "@fontsource/roboto/files/roboto-greek-ext-400-normal.woff2?inline";
import { bearer, json, signUpUser, type TestUser } from "../accounts/accounts-support.ts";
import { app, read, testEnv } from "../support.ts";

/**
 * Untrusted bytes inside workerd (issue 37, decision 078): the HTML campaign (HTMLRewriter exists only here), the
 * pages and feeds it found through the real scrape routes, and for each parser a few of the campaign's mutations
 * through the real routes: whatever comes in, the answer is a result or a clear refusal (4xx with a message),
 * never a 500.
 */

const SEED = 37;
/** The HTML campaign's share of the suite's cases (decision 078); bench:fuzz runs many more. */
const HTML_CASES = 1_000;
const FONT_CASES = 2_500;
const utf8 = (text: string) => new TextEncoder().encode(text);
const blog = (path: string) => `${testEnv.SANDBOX_URL}/blog-demo/${path}`;
const fromDataUrl = (url: string) => Uint8Array.from(atob(url.slice(url.indexOf(",") + 1)), (c) => c.charCodeAt(0));

async function fetched(url: string): Promise<Uint8Array> {
  const response = await fetch(url);
  expect(response.status, url).toBe(200);
  return new Uint8Array(await response.arrayBuffer());
}

/** Puts `bytes` on the sandbox (hostile/served) and answers its address. */
async function serve(name: string, bytes: Uint8Array, type: string): Promise<string> {
  const url = `${testEnv.SANDBOX_URL}/hostile/served/${name}`;
  const response = await fetch(url, { method: "PUT", headers: { "content-type": type }, body: bytes.slice() });
  expect(response.status).toBe(204);
  return url;
}

let user: TestUser;
beforeAll(async () => {
  user = await signUpUser();
});

function upload(bytes: Uint8Array, fileName: string, mediaType: "image" | "font") {
  const form = new FormData();
  form.set("file", new File([bytes.slice()], fileName, { type: "application/octet-stream" }));
  form.set("mediaType", mediaType);
  return app("/api/user/media/uploadMedia", { method: "POST", headers: bearer(user.tokens), body: form });
}

/** A clear answer: a success, or a refusal in the 4xx range with a message for people. */
async function expectClearAnswer(response: Response, what: string) {
  const body = await read(response);
  expect(response.status, `${what}: ${JSON.stringify(body).slice(0, 300)}`).toBeLessThan(500);
  if (response.status >= 400) expect(typeof body.error, what).toBe("string");
  return { status: response.status, body };
}

function mutants(target: Pick<Target, "seeds" | "mutators">, count: number): { seed: number; bytes: Uint8Array }[] {
  return Array.from({ length: count }, (_, i) => {
    const seed = caseSeed(SEED, i);
    return { seed, bytes: mutantOf({ name: "", run: () => "refused", ...target }, seed) };
  });
}

describe("the campaigns that run in workerd (memory is watched by bench:fuzz, through workerd's inspector)", () => {
  it("scraped HTML: 1,000 mutated pages of the demo blog, each read as a page and as a feed item's HTML", async () => {
    const seeds = await Promise.all(HTML_SEED_PATHS.map((path) => fetched(`${testEnv.SANDBOX_URL}${path}`)));
    expectClean(await runCampaign(htmlTarget(seeds), { cases: HTML_CASES, seed: SEED }));
  }, 600_000);

  it("WOFF font uploads, and the render's use of a font that passes: 2,500 cases", async () => {
    const seeds = [robotoWoff, greatVibesWoff, latoWoff, openSansWoff].map(fromDataUrl);
    expectClean(await runCampaign(fontTarget("woff", seeds), { cases: FONT_CASES, seed: SEED }));
  }, 600_000);

  it("WOFF2 font uploads, and the render's use of a font that passes: 2,500 cases", async () => {
    const seeds = [robotoWoff2, greatVibesWoff2, latoWoff2, openSansWoff2].map(fromDataUrl);
    expectClean(await runCampaign(fontTarget("woff2", seeds), { cases: FONT_CASES, seed: SEED }));
  }, 600_000);
});

describe("scraped pages and feeds the campaign found: a result or a clear refusal, in bounded work", () => {
  const scrape = (route: string, url: string) => app(`/highMemLimitApi/scraping/${route}`, json({ url }, bearer(user.tokens)));
  const page = (body: string) =>
    `<!doctype html><html><head><title>A post</title></head><body><article><p>${"A paragraph long enough to describe the post. ".repeat(3)}</p>${body}</article></body></html>`;

  it("refuses with a 422 naming the address a page HTMLRewriter will not read (tags nested 20,000 deep; it was a 502 saying to try again)", async () => {
    const url = await serve("nested-page", utf8(page("<div>".repeat(20_000))), "text/html; charset=utf-8");
    const { status, body } = await expectClearAnswer(await scrape("scrapeWebsite", url), "a page nested 20,000 deep");
    expect(status).toBe(422);
    expect(body.field).toBe("url");
    expect(body.error).toBe("We could not read the page: its HTML has a tag megabytes long, or tags nested thousands deep.");
  });

  it("refuses with a 422 a page with one tag of 4 MB, read as it streams", async () => {
    const url = await serve("huge-tag-page", utf8(page(`<img alt="${"a".repeat(4 * 1024 * 1024)}" src="/a.jpg">`)), "text/html; charset=utf-8");
    const { status, body } = await expectClearAnswer(await scrape("scrapeWebsite", url), "a page with a 4 MB tag");
    expect(status).toBe(422);
    expect(body.field).toBe("url");
  });

  it("stops reading a page after its handler budget and keeps what it read: 20,000 pictures, then a heading nobody reaches", async () => {
    // Each tag the reader looks at costs a call from HTMLRewriter (about 20 us of CPU): 100,000 of them took seconds.
    const pictures = Array.from({ length: 20_000 }, (_, i) => `<img src="/p/${i}.jpg" width="800" height="1200">`).join("");
    const html = page(`${pictures}<h1>A heading far below</h1>`).replace(
      "<title>A post</title>",
      '<title>A post</title><meta name="description" content="Early facts are kept">',
    );
    const facts = await readPageFacts(new Response(html));
    expect(facts.title).toBe("A post");
    expect(facts.meta.description).toBe("Early facts are kept");
    expect(facts.images.length).toBeGreaterThan(100);
    expect(facts.images.length).toBeLessThan(MAX_HANDLER_CALLS);
    expect(facts.h1).toBe("");

    const url = await serve("many-pictures-page", utf8(html), "text/html; charset=utf-8");
    const { status, body } = await expectClearAnswer(await scrape("scrapeWebsite", url), "a page of 20,000 pictures");
    expect(status).toBe(200);
    expect(body.source.title).toBe("A post");
    expect(body.source.allImages.length).toBeGreaterThan(0);
  });

  it("reads a feed whose item holds HTML nested 20,000 deep: the other items whole, that item as far as it could be read (it was a 500)", async () => {
    const feed = await fetched(blog("feed.xml"));
    const text = new TextDecoder().decode(feed);
    const first = text.indexOf("<description>", text.indexOf("<item>"));
    expect(first).toBeGreaterThan(0);
    const bomb = `<description><![CDATA[<p>Before the nesting.</p>${"<div>".repeat(20_000)}]]></description>`;
    const damaged = text.slice(0, first) + bomb + text.slice(text.indexOf("</description>", first) + "</description>".length);
    const url = await serve("nested-feed", utf8(damaged), "application/rss+xml");
    const { status, body } = await expectClearAnswer(await scrape("scrapeFeed", url), "a feed with an item nested 20,000 deep");
    expect(status).toBe(200);
    expect(body.sources.length).toBeGreaterThan(1);
    expect(body.sources[0].description).toBe("Before the nesting.");
    expect(body.sources.slice(1).every((source: { description: string }) => source.description.length > 0)).toBe(true);
  });
});

describe("untrusted bytes through the real routes: a result or a clear refusal, never a 500", () => {
  it("picture uploads and the image proxy: mutated JPEGs and PNGs", async () => {
    const jpeg = await fetched(blog("images/golden-hour-phone-photography-1.jpg"));
    const png = await fetched(blog("images/avatar.png"));
    const answers: number[] = [];
    for (const [type, seed, mutators] of [
      ["jpeg", jpeg, JPEG_MUTATORS],
      ["png", png, PNG_MUTATORS],
    ] as const) {
      for (const mutant of mutants({ seeds: [seed], mutators }, 12)) {
        const what = `${type} mutant ${mutant.seed}`;
        answers.push((await expectClearAnswer(await upload(mutant.bytes, `picture.${type}`, "image"), `upload of ${what}`)).status);
        const url = await serve(`${mutant.seed}.${type}`, mutant.bytes, `image/${type}`);
        const proxied = await app(`/api/scraping/imageProxy?url=${encodeURIComponent(url)}&width=200`, { headers: bearer(user.tokens) });
        if (proxied.status === 200) await proxied.arrayBuffer();
        else await expectClearAnswer(proxied, `proxy of ${what}`);
      }
    }
    // The mutations both keep some pictures whole and damage others.
    expect(answers).toContain(201);
    expect(answers.some((status) => status === 400 || status === 415)).toBe(true);
  }, 120_000);

  it("refuses with a 400 a font whose glyph outline is damaged (it passed the upload and then failed every render)", async () => {
    const sfnt = woffToSfnt(fromDataUrl(woffUrl));
    const view = new DataView(sfnt.buffer, sfnt.byteOffset, sfnt.byteLength);
    const table = (name: string) => {
      for (let i = 0; i < view.getUint16(4); i++) {
        const record = 12 + 16 * i;
        if (String.fromCharCode(...sfnt.subarray(record, record + 4)) === name) return readU32(sfnt, record + 8);
      }
      throw new Error(`no ${name} table`);
    };
    const glyf = table("glyf");
    const loca = table("loca");
    const shortLoca = readU16(sfnt, table("head") + 50) === 0;
    // The first glyph with contours: its last contour's end point made far larger than the glyph's data.
    for (let glyph = 1; ; glyph++) {
      const at = glyf + (shortLoca ? readU16(sfnt, loca + glyph * 2) * 2 : readU32(sfnt, loca + glyph * 4));
      const contours = view.getInt16(at);
      if (contours <= 0) continue;
      writeU16(sfnt, at + 10 + (contours - 1) * 2, 0x7ff0);
      break;
    }
    const response = await upload(sfnt, "damaged.ttf", "font");
    const { status, body } = await expectClearAnswer(response, "a font with a damaged glyph");
    expect(status).toBe(400);
    expect(body.error).toBe("This font file could not be read.");
  });

  it("font uploads: mutated WOFF and WOFF2 files", async () => {
    const answers: number[] = [];
    for (const [type, seed, mutators] of [
      ["woff", fromDataUrl(woffUrl), WOFF_MUTATORS],
      ["woff2", fromDataUrl(woff2Url), WOFF2_MUTATORS],
    ] as const) {
      for (const mutant of mutants({ seeds: [seed], mutators }, 15)) {
        answers.push((await expectClearAnswer(await upload(mutant.bytes, `font.${type}`, "font"), `${type} mutant ${mutant.seed}`)).status);
      }
    }
    expect(answers).toContain(201);
    expect(answers).toContain(400);
  }, 120_000);

  it("feeds, sitemaps and pages to scrape: mutated files", async () => {
    const call = (route: string, url: string) => app(`/highMemLimitApi/scraping/${route}`, json({ url }, bearer(user.tokens)));
    const cases = [
      { route: "scrapeFeed", seed: await fetched(blog("feed.xml")), mutators: XML_MUTATORS, type: "application/rss+xml" },
      { route: "getSitemapPostURLs", seed: await fetched(blog("sitemap.xml")), mutators: XML_MUTATORS, type: "application/xml" },
      { route: "scrapeWebsite", seed: await fetched(blog("posts/balcony-herb-garden")), mutators: HTML_MUTATORS, type: "text/html; charset=utf-8" },
    ];
    for (const { route, seed, mutators, type } of cases) {
      const statuses: number[] = [];
      for (const mutant of mutants({ seeds: [seed], mutators }, 10)) {
        const url = await serve(`${route}-${mutant.seed}`, mutant.bytes, type);
        statuses.push((await expectClearAnswer(await call(route, url), `${route} of mutant ${mutant.seed}`)).status);
      }
      expect(statuses, route).toContain(200);
    }
  }, 180_000);
});
