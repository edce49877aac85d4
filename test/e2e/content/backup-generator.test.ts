import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { signUpInBrowser, signUpVerified } from "../support/accounts.ts";
import { callApi } from "../support/admin.ts";
import { sandboxUrl, useBrowser } from "../support/browser.ts";

// Issue 20: the basic generator (/backupGenerator) works with JavaScript off, /generate sends a
// browser whose preview engine cannot start to it, and a pin made public has its own page.

const browser = useBrowser();

const DEMO_POST = "berry-smoothie-bowls";

/** A signed-up user's session in a second page whose browser runs no JavaScript. */
async function pageWithoutJavaScript(): Promise<Page> {
  const signingUp = await browser.newPage();
  await signUpInBrowser(signingUp);
  const page = await browser.newPage({ javaScriptEnabled: false });
  await page.context().addCookies(await signingUp.context().cookies());
  return page;
}

async function credits(page: Page): Promise<{ usedPinCredits: number; remaining: number }> {
  const response = await page.context().request.get("/api/user/credits");
  expect(response.status()).toBe(200);
  return (await response.json()) as { usedPinCredits: number; remaining: number };
}

describe("/backupGenerator", () => {
  it("makes pins as images with JavaScript off; a pin downloads for one credit, and the same form sent twice charges once", async () => {
    const page = await pageWithoutJavaScript();
    await page.goto("/backupGenerator");
    await page.getByRole("heading", { name: "Basic pin generator" }).waitFor();
    const before = await credits(page);

    await page.getByLabel("Blog post or page address").fill(`${sandboxUrl()}/blog-demo/posts/${DEMO_POST}`);
    await page.getByLabel("Number of pins").selectOption("2");
    await page.getByRole("button", { name: "Generate pins" }).click();
    await page.getByRole("heading", { name: "Your pins" }).waitFor({ timeout: 60_000 });
    const images = page.getByRole("img", { name: /^Pin \d:/ });
    expect(await images.count()).toBe(2);
    for (const src of await images
      .evaluateAll((nodes) => nodes.map((node) => (node as HTMLImageElement).src))
      .catch(async () => [await images.first().getAttribute("src")])) {
      const image = await page.context().request.get(src!);
      expect(image.headers()["content-type"]).toBe("image/jpeg");
    }
    expect(await credits(page)).toEqual(before);

    const firstPin = page.getByRole("listitem", { name: /^Pin 1:/ });
    const reference = await firstPin.locator('form:has(input[value="download"]) input[name="reference"]').getAttribute("value");
    const batch = new URL(page.url()).searchParams.get("batch");
    await firstPin.getByRole("button", { name: "Download (1 credit)" }).click();
    await page.getByText("Your pin is ready: 1 credit used.").waitFor({ timeout: 60_000 });
    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "Save the image" }).click();
    expect((await download).suggestedFilename()).toMatch(/\.jpe?g$/);
    expect((await credits(page)).usedPinCredits).toBe(before.usedPinCredits + 1);

    // The same form again (a double click, a resent page): the same pin, no second charge.
    const again = await page.context().request.post(`/backupGenerator?batch=${batch}`, {
      form: { intent: "download", batch: batch!, pin: "0", reference: reference! },
      headers: { origin: new URL(page.url()).origin },
    });
    expect(again.status()).toBe(200);
    expect(await again.text()).toContain("already paid for: no credit used");
    expect((await credits(page)).usedPinCredits).toBe(before.usedPinCredits + 1);
  }, 120_000);

  it("is offered on /generate when the preview engine cannot start", async () => {
    const page = await browser.newPage({ allowConsoleErrors: /Failed to load resource|net::ERR_FAILED|preview/i });
    // The preview workers and satori (the engine's WebAssembly layout) never arrive.
    await page.route(/\/assets\/(preview-worker|dist)-[^/]*\.js$/, (route) => route.abort());
    await signUpVerified(page);
    await page.goto("/generate");
    const link = page.getByRole("link", { name: "Use the basic generator" });
    await link.waitFor({ timeout: 30_000 });
    await link.click();
    await page.waitForURL(/\/backupGenerator$/);
    await page.getByRole("heading", { name: "Basic pin generator" }).waitFor();

    // Where the engine starts, there is no such notice.
    const working = await browser.newPage();
    await working.context().addCookies(await page.context().cookies());
    await working.goto("/generate");
    await working.waitForFunction(() => performance.getEntriesByName("preview:engine-warm").length > 0, null, { timeout: 30_000 });
    await working.getByRole("toolbar", { name: "Pins" }).waitFor();
    expect(await working.getByRole("link", { name: "Use the basic generator" }).count()).toBe(0);
  }, 90_000);
});

describe("public pins", () => {
  it("a pin made public has its page with og:image; made private again it is not found", async () => {
    const page = await browser.newPage({ allowConsoleErrors: /404|Failed to load resource/ });
    await signUpVerified(page);
    const rendered = await callApi(page, "/highMemLimitApi/scraping/renderTemplateImage", {
      post: {
        template: { title: "Plain", background: "#f4efe6", layers: [], categories: [] },
        title: "Berry smoothie bowls",
        description: "Three toppings.",
        url: "https://linen.example/bowls",
      },
    });
    expect(rendered.status).toBe(200);

    await page.goto("/pin-history");
    const entry = page.getByRole("listitem", { name: "Downloaded: Berry smoothie bowls" });
    await entry.getByRole("button", { name: "Make public" }).click();
    await page.getByText("Your pin is public").first().waitFor();
    const href = await entry.getByRole("link", { name: "Public page" }).getAttribute("href");
    expect(href).toMatch(/^\/users\/[^/]+\/[^/]+$/);

    // The page answers 404 once private: the browser logs that.
    const visitor = await browser.newPage({ allowConsoleErrors: /status of 404/ });
    const answer = await visitor.goto(href!);
    expect(answer?.status()).toBe(200);
    await visitor.getByRole("heading", { name: "Berry smoothie bowls" }).waitFor();
    const ogImage = await visitor.locator('meta[property="og:image"]').getAttribute("content");
    expect(ogImage).toMatch(/^https?:\/\/[^/]+\/api\/user\/[^/]+\/pins\/[^/]+\/image$/);
    const image = await visitor.context().request.get(ogImage!);
    expect(image.headers()["content-type"]).toBe("image/jpeg");
    await visitor.getByRole("img", { name: "Berry smoothie bowls" }).waitFor();
    await visitor.getByRole("link", { name: "Visit the page" }).waitFor();

    // The owner's public profile lists it, and leads to its page (issue 40 point 9).
    const handle = href!.split("/")[2];
    await visitor.goto(`/users/${handle}`);
    const pins = visitor.getByRole("region", { name: /^Pins by / });
    await pins.getByRole("link", { name: "Berry smoothie bowls" }).click();
    await visitor.waitForURL((url) => url.pathname === href);
    await visitor.getByRole("img", { name: "Berry smoothie bowls" }).waitFor();

    // A new handle: the old profile's address moves to it.
    const newHandle = `berry_${Date.now().toString(36)}`;
    expect((await callApi(page, "/api/user", { updates: { handle: newHandle } })).status).toBe(200);
    await visitor.goto(`/users/${handle}`);
    await visitor.waitForURL((url) => url.pathname === `/users/${newHandle}`);
    await visitor.getByText(`@${newHandle}`).waitFor();
    await visitor
      .getByRole("region", { name: /^Pins by / })
      .getByRole("link", { name: "Berry smoothie bowls" })
      .waitFor();

    await entry.getByRole("button", { name: "Make private" }).click();
    await page.getByText("Your pin is private again").first().waitFor();
    const gone = await visitor.goto(`/users/${newHandle}${href!.slice(href!.lastIndexOf("/"))}`);
    expect(gone?.status()).toBe(404);
    await visitor.getByRole("heading", { name: "Page Not Found" }).waitFor();
    await visitor.goto(`/users/${newHandle}`);
    await visitor.getByText(`@${newHandle} has no public pins yet.`).waitFor();
  }, 90_000);
});
