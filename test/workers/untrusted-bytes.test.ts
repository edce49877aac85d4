import { beforeAll, describe, expect, it } from "vitest";
import { woffToSfnt } from "../../workers/media/fonts.ts";
import { readPageFacts } from "../../workers/scrape/page-reader.ts";
import { pageSource } from "../../workers/scrape/page-source.ts";
import { mutantOf, runCampaign, summary, type Target } from "../fuzz/campaign.ts";
import { WOFF2_MUTATORS, WOFF_MUTATORS } from "../fuzz/font-mutations.ts";
import { caseSeed, readU16, readU32, writeU16 } from "../fuzz/mutations.ts";
import { JPEG_MUTATORS, PNG_MUTATORS } from "../fuzz/picture-mutations.ts";
import { HTML_MUTATORS, XML_MUTATORS } from "../fuzz/text-mutations.ts";
import woffUrl from "../fixtures/fonts/pacifico-latin-400.woff?inline";
import woff2Url from "../fixtures/fonts/pacifico-latin-400.woff2?inline";
import { bearer, json, signUpUser, type TestUser } from "./accounts-support.ts";
import { app, read, testEnv } from "./support.ts";

/**
 * Untrusted bytes inside workerd (issue 37, decision 078): the HTML campaign (HTMLRewriter exists only here), and
 * for each parser a few of the campaign's mutations through the real routes: whatever comes in, the answer is a
 * result or a clear refusal (4xx with a message), never a 500.
 */

const SEED = 37;
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

describe("scraped HTML: the campaign through HTMLRewriter", () => {
  // Open (decision 078): 128 of 2,000 cases failed, HTMLRewriter throwing "Parser error: The memory limit has been
  // exceeded." out of readPageFacts on pages with a huge tag, attribute or text run, and 5 cases over 1 s (28 s for
  // a 600 KB page). Skipped until readPageFacts turns that into a clear refusal and the slow pages are found.
  it.skip("reads 2,000 mutated pages of the demo blog without a failure", async () => {
    const seeds = await Promise.all(["", "posts/balcony-herb-garden", "posts/berry-smoothie-bowls", "archive/3"].map((path) => fetched(blog(path))));
    seeds.push(await fetched(`${testEnv.SANDBOX_URL}/hostile/tiny-images`));
    const target: Target = {
      name: "scraped HTML",
      seeds,
      mutators: HTML_MUTATORS,
      async run(bytes) {
        const facts = await readPageFacts(new Response(bytes, { headers: { "content-type": "text/html; charset=utf-8" } }));
        const source = pageSource(facts, "https://blog.example/posts/a-post");
        return source.title ? "accepted" : "refused";
      },
    };
    const result = await runCampaign(target, { cases: 2_000, seed: SEED });
    console.log(summary(result));
    expect(result.examples, summary(result)).toEqual([]);
    expect(result.accepted).toBeGreaterThan(0);
    expect(result.refused).toBeGreaterThan(0);
  }, 600_000);
});

describe("untrusted bytes through the real routes: a result or a clear refusal, never a 500", () => {
  it("picture uploads and the image proxy: mutated JPEGs and PNGs", async () => {
    const jpeg = await fetched(blog("images/golden-hour-phone-photography-1.jpg"));
    const png = await fetched(blog("images/avatar.png"));
    const answers: number[] = [];
    for (const [type, seed, mutators] of [["jpeg", jpeg, JPEG_MUTATORS], ["png", png, PNG_MUTATORS]] as const) {
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
    for (const [type, seed, mutators] of [["woff", fromDataUrl(woffUrl), WOFF_MUTATORS], ["woff2", fromDataUrl(woff2Url), WOFF2_MUTATORS]] as const) {
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
