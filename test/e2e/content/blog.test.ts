import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { signUpVerified } from "../support/accounts.ts";
import { promoteToAdmin } from "../support/admin.ts";
import { useBrowser } from "../support/browser.ts";

// The blog end to end (issue 17): the list and a post rendered on the server, the not-found view with a
// real 404, and an admin writing, previewing and publishing a post that then appears on /blog and in
// /sitemap.xml (and not before).

const browser = useBrowser();

async function hydrated(page: Page, path: string) {
  const response = await page.goto(path);
  await page.waitForSelector('html[data-hydrated="true"]', { state: "attached" });
  return response;
}

describe("blog", () => {
  it("lists the posts on /blog and opens a post with its related posts", async () => {
    const page = await browser.newPage();
    const response = await hydrated(page, "/blog");
    expect(response?.status()).toBe(200);
    await page.getByRole("heading", { level: 1, name: "Blog" }).waitFor();
    expect(await page.locator('head link[rel="canonical"]').getAttribute("href")).toMatch(/\/blog$/);
    // Every post on the index has a cover: a picture that loads, described, or its initial (issue 40 point 10).
    const cards = page.locator(".blog-list .post-card");
    const covers = cards.locator(".post-card__cover");
    expect(await covers.count()).toBe(await cards.count());
    const seo = page.getByRole("img", { name: "Pastel houses stacked on a cliff above a turquoise sea with a small boat on the Amalfi Coast" });
    await seo.scrollIntoViewIfNeeded();
    await expect.poll(() => seo.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBeGreaterThan(0);
    await page.getByRole("link", { name: "Pinterest SEO basics: how people find your pins" }).click();
    await page.getByRole("heading", { level: 1, name: "Pinterest SEO basics: how people find your pins" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/blog/pinterest-seo-basics");
    await page.getByRole("heading", { name: "Where Pinterest reads your keywords" }).waitFor();
    expect(await page.getByRole("heading", { name: "Related posts" }).isVisible()).toBe(true);
    expect(await page.locator('head meta[property="og:title"]').getAttribute("content")).toBe(
      "Pinterest SEO basics: how people find your pins | Pinboard Studio",
    );
    // The post's link to the old blog host stays on this site.
    await page.getByRole("link", { name: "how often to pin" }).click();
    await page.getByRole("heading", { level: 1, name: "How often should you pin? A schedule that keeps growing" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/blog/how-often-should-you-pin");
  });

  it("shows the not-found view, with status 404, for a post that does not exist", async () => {
    const page = await browser.newPage({ allowConsoleErrors: /404|Failed to load resource/ });
    const response = await hydrated(page, "/blog/no-such-post");
    expect(response?.status()).toBe(404);
    await page.getByRole("heading", { name: "Page Not Found" }).waitFor();
    expect(await page.getByText("Sorry, the page you tried cannot be found.").isVisible()).toBe(true);
  });

  it("lets an admin write, preview and publish a post, which then appears on /blog and in /sitemap.xml", async () => {
    const page = await browser.newPage({ allowConsoleErrors: /404|Failed to load resource/ });
    const { email } = await signUpVerified(page);
    await promoteToAdmin(email);
    await hydrated(page, "/admin");
    const section = page.getByRole("region", { name: "Blog posts and pages" });
    await section.getByRole("list", { name: "Posts and pages" }).waitFor();

    const title = `Group boards in ${Date.now().toString(36)}`;
    const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, "-");
    await section.getByRole("button", { name: "New blog post" }).click();
    await section.getByLabel("Title").fill(title);
    expect(await section.getByLabel(/^Address/).inputValue()).toBe(slug);
    await section.getByLabel(/^Description/).fill("When group boards still help, and how to leave the ones that do not.");
    await section
      .getByLabel("Text (Markdown)")
      .fill(
        "## Are group boards worth it?\n\nSome are. See [our SEO guide](https://blog.pinboard.studio/pinterest-seo-basics/).\n\n<script>window.hacked = true</script>",
      );
    await section.getByRole("button", { name: "Preview" }).click();
    const preview = section.getByLabel("Preview");
    await preview.getByRole("heading", { name: "Are group boards worth it?" }).waitFor();
    expect(await preview.getByRole("link", { name: "our SEO guide" }).getAttribute("href")).toBe("/blog/pinterest-seo-basics");
    expect(await preview.getByText("<script>window.hacked = true</script>").isVisible()).toBe(true);
    expect(await page.evaluate(() => (window as unknown as { hacked?: boolean }).hacked)).toBeUndefined();

    await section.getByRole("button", { name: "Save draft" }).click();
    await page.getByText("Draft saved: publish it when it is ready").first().waitFor();
    const item = section.getByRole("listitem").filter({ hasText: title });
    await item.getByText("Draft", { exact: true }).waitFor();
    // A draft is nowhere public.
    expect((await page.request.get(`/blog/${slug}`)).status()).toBe(404);
    expect(await (await page.request.get("/sitemap.xml")).text()).not.toContain(`/blog/${slug}<`);

    await item.getByRole("button", { name: `Publish ${title}` }).click();
    await page.getByText(`Published at /blog/${slug}`).first().waitFor();
    await item.getByText("Published", { exact: true }).waitFor();

    await hydrated(page, "/blog");
    await page.getByRole("link", { name: title }).click();
    await page.getByRole("heading", { level: 1, name: title }).waitFor();
    expect(await page.getByText("<script>window.hacked = true</script>").isVisible()).toBe(true);
    expect(await page.evaluate(() => (window as unknown as { hacked?: boolean }).hacked)).toBeUndefined();
    const sitemap = await (await page.request.get("/sitemap.xml")).text();
    expect(sitemap).toContain(`/blog/${slug}</loc>`);
  });

  it("refuses the admin's content calls to a signed-in user who is not an admin", async () => {
    const page = await browser.newPage({ allowConsoleErrors: /40[34]|Failed to load resource/ });
    await signUpVerified(page);
    const status = await page.evaluate(async () => {
      const response = await fetch("/api/admin/content", { headers: { authorization: `Bearer ${localStorage.getItem("FBIdToken")}` } });
      return response.status;
    });
    expect(status).toBe(403);
    const response = await hydrated(page, "/admin");
    expect(response?.status()).toBe(404);
    expect(await page.getByRole("heading", { name: "Blog posts and pages" }).count()).toBe(0);
  });
});
