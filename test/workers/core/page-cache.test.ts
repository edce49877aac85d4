import { PhotonImage } from "@cf-wasm/photon/workerd";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { users } from "../../../workers/db/schema.ts";
import { cacheablePath, purgePages } from "../../../workers/http/page-cache.ts";
import { EXAMPLE_PINS } from "../../../workers/services/content/showcase-catalog.ts";
import { bearer, json, signUpUser, type TestUser } from "../accounts/accounts-support.ts";
import { db } from "../billing/billing-support.ts";
import { app, read, testEnv } from "../support.ts";

// The edge page cache (issue 17, decision 042): public pages come from the Cache API on the second
// visit, each answer with a nonce of its own that matches its policy; signed-in visitors never see
// (or leave) a shared copy; a country-varying page is kept per country; admin edits purge.

const nonceOfPolicy = (response: Response) => /'nonce-([A-Za-z0-9+/=]+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1];

/** The page's nonces: each must be the one its answer's policy allows. */
function noncesIn(html: string): string[] {
  return [...new Set([...html.matchAll(/nonce="([^"]+)"/g)].map((match) => match[1]))];
}

/** A fresh address of a cached page (the query keeps tests apart from each other and from other files). */
let serial = 0;
const freshCalculator = () => `/savings-calculator?pinsPerWeek=${(Date.now() % 500) + 20 + ++serial}`;

async function admin(): Promise<TestUser> {
  const user = await signUpUser();
  await db.update(users).set({ role: "admin" }).where(eq(users.id, user.userId));
  return user;
}

describe("edge page cache", () => {
  it("serves the second visit from the cache, with a fresh nonce that matches the answer's policy", async () => {
    const path = freshCalculator();
    const first = await app(path);
    expect(first.status).toBe(200);
    expect(first.headers.get("x-cache")).toBe("MISS");
    expect(first.headers.get("cache-control")).toMatch(/^public, max-age=60, s-maxage=\d+$/);
    const firstHtml = await first.text();
    expect(noncesIn(firstHtml)).toEqual([nonceOfPolicy(first)]);

    const second = await app(path);
    expect(second.status).toBe(200);
    expect(second.headers.get("x-cache")).toBe("HIT");
    expect(second.headers.get("content-type")).toContain("text/html");
    expect(second.headers.get("x-content-type-options")).toBe("nosniff");
    const secondHtml = await second.text();
    const secondNonce = nonceOfPolicy(second);
    expect(secondNonce).toBeDefined();
    expect(secondNonce).not.toBe(nonceOfPolicy(first));
    expect(noncesIn(secondHtml)).toEqual([secondNonce]);
    expect(secondHtml).not.toContain(nonceOfPolicy(first)!);
    // The same page apart from the nonce.
    expect(secondHtml.replaceAll(secondNonce!, "N")).toBe(firstHtml.replaceAll(nonceOfPolicy(first)!, "N"));
  });

  it("never serves a signed-in visitor a shared page, and never stores theirs", async () => {
    const user = await signUpUser({ firstName: "Ingrid" });
    const path = freshCalculator();
    // A signed-in first visit: rendered for them, private, not stored.
    const mine = await app(path, { headers: { cookie: user.cookie } });
    expect(mine.headers.get("x-cache")).toBe("BYPASS");
    expect(mine.headers.get("cache-control")).toBe("private, no-store");
    const myHtml = await mine.text();
    expect(myHtml).toContain(user.email);
    const anonymous = await app(path);
    expect(anonymous.headers.get("x-cache")).toBe("MISS");
    expect(await anonymous.text()).not.toContain(user.email);
    // Now a signed-out copy is cached; the signed-in visitor still gets their own page.
    expect((await app(path)).headers.get("x-cache")).toBe("HIT");
    const again = await app(path, { headers: { cookie: user.cookie } });
    expect(again.headers.get("x-cache")).toBe("BYPASS");
    expect(await again.text()).toContain(user.email);
  });

  it("keeps a page with only the site styles its markup uses, and links the whole stylesheet for later", async () => {
    const user = await signUpUser();
    const path = freshCalculator();
    const siteStyles = (html: string) => /<style data-site-styles="">([^<]*)<\/style>/.exec(html)?.[1] ?? "";
    // Signed in, the page is not kept: it carries the whole stylesheet, the credits meter's rules included.
    const whole = siteStyles(await (await app(path, { headers: { cookie: user.cookie } })).text());
    expect(whole).toContain(".credits-panel");
    for (const answer of [await app(path), await app(path)]) {
      const html = await answer.text();
      const own = siteStyles(html);
      // The calculator's navbar and footer are styled from the first byte; another page's parts are not carried.
      expect(own).toMatch(/\.navbar\{/);
      expect(own).toMatch(/\.footer\{/);
      expect(own).not.toContain(".credits-panel");
      expect(own).not.toContain(".hero__pins");
      // The cookie banner appears right after the scripts start, with no click: its rules are always there.
      expect(own).toContain(".cookie-banner{");
      expect(own.length).toBeLessThan(whole.length * 0.7);
      // The whole stylesheet, for print until the scripts run (never blocking the first paint), after the inline styles.
      const link = /<link rel="stylesheet" href="(\/assets\/site-[^"]+\.css)" media="print" data-site-styles-full=""\/>/.exec(html);
      expect(link).not.toBeNull();
      expect(html.indexOf(link![0])).toBeGreaterThan(html.indexOf("<style data-site-styles"));
    }
  });

  it("keeps a page that varies by country once per country, and serves each country its own prices", async () => {
    // The home page shows the plans with the visitor's pricing parity (x-page-vary: country).
    const india = await app("/?utm_source=cache-test-1", { headers: { "cf-ipcountry": "IN" } });
    expect(india.headers.get("x-page-vary")).toBe("country");
    const indiaHtml = await india.text();
    expect(indiaHtml).toContain("Pricing for India: 50% off every plan");
    const germany = await app("/", { headers: { "cf-ipcountry": "DE" } });
    const germanyHtml = await germany.text();
    expect(germanyHtml).not.toContain("Pricing for");
    expect(germanyHtml).toContain("$16.99");
    // Both are now kept (tracking parameters do not make a new copy); each country gets its own again.
    const indiaAgain = await app("/", { headers: { "cf-ipcountry": "IN" } });
    expect(indiaAgain.headers.get("x-cache")).toBe("HIT");
    expect(await indiaAgain.text()).toContain("$8.49");
    const germanyAgain = await app("/?utm_campaign=x", { headers: { "cf-ipcountry": "DE" } });
    expect(germanyAgain.headers.get("x-cache")).toBe("HIT");
    expect(await germanyAgain.text()).not.toContain("Pricing for");
    // A third country is rendered for itself, not given another's copy.
    const brazil = await app("/", { headers: { "cf-ipcountry": "BR" } });
    expect(brazil.headers.get("x-cache")).toBe("MISS");
    // Purging the page forgets every country's copy.
    await purgePages(testEnv, ["/"]);
    expect((await app("/", { headers: { "cf-ipcountry": "IN" } })).headers.get("x-cache")).toBe("MISS");
    expect((await app("/", { headers: { "cf-ipcountry": "DE" } })).headers.get("x-cache")).toBe("MISS");

    // /pricing too: each country its own copy, never another's prices (React marks text joins with <!-- -->).
    const pricingText = async (response: Response) => (await response.text()).replaceAll("<!-- -->", "");
    const pricingIndia = await app("/pricing", { headers: { "cf-ipcountry": "IN" } });
    expect(pricingIndia.headers.get("x-page-vary")).toBe("country");
    expect(await pricingText(pricingIndia)).toContain("Pricing for India: 50% off every plan");
    const pricingGermany = await app("/pricing", { headers: { "cf-ipcountry": "DE" } });
    expect(await pricingText(pricingGermany)).not.toContain("Pricing for");
    const pricingIndiaAgain = await app("/pricing", { headers: { "cf-ipcountry": "IN" } });
    expect(pricingIndiaAgain.headers.get("x-cache")).toBe("HIT");
    expect(await pricingText(pricingIndiaAgain)).toContain("Pricing for India: 50% off every plan");
    const pricingGermanyAgain = await app("/pricing", { headers: { "cf-ipcountry": "DE" } });
    expect(pricingGermanyAgain.headers.get("x-cache")).toBe("HIT");
    expect(await pricingText(pricingGermanyAgain)).not.toContain("Pricing for");
  });

  it("purges a post when an admin edits, unpublishes or deletes it, so the next visit shows the change", async () => {
    const editor = await admin();
    const slug = `cache-purge-${Date.now().toString(36)}`;
    const fields = {
      kind: "post",
      slug,
      title: "Board names that help search",
      description: "Why focused board names bring more readers.",
      author: "Test Author",
    };
    const created = await read(await app("/api/admin/content", json({ ...fields, body: "The first version of the text." }, bearer(editor.tokens))));
    const id = created.entry.id as string;
    expect((await app(`/api/admin/content/${id}/publish`, json({ published: true }, bearer(editor.tokens)))).status).toBe(200);

    const first = await app(`/blog/${slug}`);
    expect(first.headers.get("x-cache")).toBe("MISS");
    expect(await first.text()).toContain("The first version of the text.");
    expect((await app(`/blog/${slug}`)).headers.get("x-cache")).toBe("HIT");
    expect(await (await app("/blog")).text()).toContain(`href="/blog/${slug}"`);
    expect((await app("/blog")).headers.get("x-cache")).toBe("HIT");
    expect((await app("/sitemap.xml")).headers.get("x-cache")).toMatch(/HIT|MISS/);
    expect((await app("/sitemap.xml")).headers.get("x-cache")).toBe("HIT");

    const edited = await app(
      `/api/admin/content/${id}`,
      json({ ...fields, body: "The second, corrected text.", title: "Board names that people search for" }, bearer(editor.tokens)),
    );
    expect(edited.status).toBe(200);
    const after = await app(`/blog/${slug}`);
    expect(after.headers.get("x-cache")).toBe("MISS");
    const afterHtml = await after.text();
    expect(afterHtml).toContain("The second, corrected text.");
    expect(afterHtml).not.toContain("The first version of the text.");
    expect(await (await app("/blog")).text()).toContain("Board names that people search for");

    // Taken back to draft: gone from its page and the list at once; published again, back.
    expect((await app(`/api/admin/content/${id}/publish`, json({ published: false }, bearer(editor.tokens)))).status).toBe(200);
    expect((await app(`/blog/${slug}`)).status).toBe(404);
    expect(await (await app("/blog")).text()).not.toContain(`href="/blog/${slug}"`);
    expect((await app(`/api/admin/content/${id}/publish`, json({ published: true }, bearer(editor.tokens)))).status).toBe(200);
    expect(await (await app(`/blog/${slug}`)).text()).toContain("The second, corrected text.");

    // A new address for the post: the old one is purged (and gone), the list and sitemap follow.
    await app(`/api/admin/content/${id}`, json({ ...fields, slug: `${slug}-v2`, body: "Moved." }, bearer(editor.tokens)));
    expect((await app(`/blog/${slug}`)).status).toBe(404);
    expect(await (await app("/sitemap.xml")).text()).toContain(`/blog/${slug}-v2</loc>`);

    expect((await app(`/api/admin/content/${id}`, { method: "DELETE", headers: bearer(editor.tokens) })).status).toBe(200);
    expect((await app(`/blog/${slug}-v2`)).status).toBe(404);
    expect(await (await app("/blog")).text()).not.toContain(`href="/blog/${slug}-v2"`);
    expect(await (await app("/sitemap.xml")).text()).not.toContain(`/blog/${slug}-v2</loc>`);
  });

  it("caches only the public pages, and only the queries they read", () => {
    const at = (path: string) => cacheablePath(new URL(path, "http://app.test"));
    expect(at("/")).toEqual({ path: "/", edgeSeconds: 3600 });
    expect(at("/?utm_source=newsletter&pgref=convertkit")).toEqual({ path: "/", edgeSeconds: 3600 });
    expect(at("/blog?page=2")).toEqual({ path: "/blog?page=2", edgeSeconds: 300 });
    expect(at("/blog?page=abc")).toBe("uncached-query");
    expect(at("/pricing?anything=1")).toBe("uncached-query");
    expect(at("/savings-calculator?pinsPerWeek=40&hourlyValue=30")).toEqual({ path: "/savings-calculator?hourlyValue=30&pinsPerWeek=40", edgeSeconds: 3600 });
    for (const path of ["/generate", "/profile", "/admin", "/api/health", "/blog/Not_A_Slug", "/login"]) expect(at(path), path).toBeNull();
    for (const path of [
      "/pricing",
      "/lifetime",
      "/privacy-policy",
      "/terms-and-conditions",
      "/pinterest-mini-course",
      "/blog/a-post",
      "/page/about",
      "/sitemap.xml",
    ]) {
      expect(at(path), path).not.toBeNull();
    }
  });

  it("serves /robots.txt and /sitemap.xml from the cache exactly as rendered", async () => {
    for (const path of ["/robots.txt", "/sitemap.xml"]) {
      await purgePages(testEnv, [path]);
      const first = await app(path);
      const second = await app(path);
      expect(second.headers.get("x-cache"), path).toBe("HIT");
      expect(second.headers.get("content-type"), path).toBe(first.headers.get("content-type"));
      expect(await second.text(), path).toBe(await first.text());
    }
  });

  it("leaves pages it does not cache alone", async () => {
    const help = await app("/help");
    expect(help.headers.get("x-cache")).toBeNull();
    const missing = await app("/blog/no-such-post-for-the-cache");
    expect(missing.status).toBe(404);
    expect(missing.headers.get("cache-control") ?? "").not.toContain("public");
    expect((await app("/blog/no-such-post-for-the-cache")).headers.get("x-cache")).toBe("MISS");
  });
});

describe("home page pictures rendered by the pin engine", () => {
  it("lists real example pins on the home page and serves each as a picture our engine rendered", async () => {
    const html = await (await app("/", { headers: { "cf-ipcountry": "FR" } })).text();
    const sources = [...new Set([...html.matchAll(/<img[^>]+src="(\/example-pins\/[^"]+)"/g)].map((match) => match[1].replaceAll("&amp;", "&")))];
    expect(sources.length).toBe(EXAMPLE_PINS.length);
    // Each in every width it is offered in (srcset), each the size it says.
    const offered = [...html.matchAll(/srcSet="([^"]+)"/gi)].flatMap((match) =>
      match[1]
        .replaceAll("&amp;", "&")
        .split(", ")
        .map((item) => item.split(" ")),
    );
    for (const [source, width] of offered) {
      const response = await app(source);
      expect(response.status, source).toBe(200);
      const image = PhotonImage.new_from_byteslice(new Uint8Array(await response.arrayBuffer()));
      expect([image.get_width(), image.get_height()], source).toEqual([Number.parseInt(width, 10), Number.parseInt(width, 10) * 1.5]);
      image.free();
    }
    for (const source of sources) {
      const response = await app(source);
      expect(response.status, source).toBe(200);
      expect(response.headers.get("content-type")).toBe("image/jpeg");
      expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      const bytes = new Uint8Array(await response.arrayBuffer());
      const image = PhotonImage.new_from_byteslice(bytes);
      expect([image.get_width(), image.get_height()]).toEqual([400, 600]);
      // Not a flat placeholder: the picture has many different colours.
      const pixels = image.get_raw_pixels();
      const colours = new Set<number>();
      for (let i = 0; i < pixels.length; i += 4 * 97) colours.add((pixels[i] << 16) | (pixels[i + 1] << 8) | pixels[i + 2]);
      image.free();
      expect(colours.size, source).toBeGreaterThan(200);
      // Kept after the first render: the same bytes again, with a validator.
      const again = await app(source, { headers: { "if-none-match": response.headers.get("etag")! } });
      expect(again.status).toBe(304);
    }
    expect((await app("/example-pins/std-no-such-template")).status).toBe(404);
    const bad = await app("/example-pins/..%2Fsecret");
    expect(bad.status).toBe(400);
    expect((await read(bad)).field).toBe("templateId");
    const badWidth = await app("/example-pins/std-product-card-01?w=5000");
    expect(badWidth.status).toBe(400);
    expect((await read(badWidth)).field).toBe("w");
  });

  it("serves the Open Graph picture the home page names: a 1200 x 630 PNG", async () => {
    const html = await (await app("/", { headers: { "cf-ipcountry": "FR" } })).text();
    const url = /<meta property="og:image" content="([^"]+)"/.exec(html)?.[1];
    expect(url).toBe(`${new URL(testEnv.APP_URL).origin}/og-image.png`);
    expect(html).toContain(`<meta name="twitter:image" content="${url}"/>`);
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image"/>');
    expect(html).toContain(`<link rel="canonical" href="${new URL(testEnv.APP_URL).origin}/"/>`);
    const response = await app("/og-image.png");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/png");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("cache-control")).toContain("public");
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    const image = PhotonImage.new_from_byteslice(bytes);
    expect([image.get_width(), image.get_height()]).toEqual([1200, 630]);
    image.free();
  });
});
