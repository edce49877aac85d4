import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { appUrl, useBrowser } from "../support/browser.ts";

// The home page (issue 17): real example pins rendered by our engine load, the og:image it names is a
// PNG we serve, the plans come with their prices and a way to /pricing, and the page fits a phone.

const browser = useBrowser();

async function hydrated(page: Page, path: string) {
  const response = await page.goto(path);
  await page.waitForSelector('html[data-hydrated="true"]', { state: "attached" });
  return response;
}

describe("home page", () => {
  it("shows example pins rendered by our engine, every one loaded, and names an og:image that is a PNG", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const response = await hydrated(page, "/");
    expect(response?.status()).toBe(200);
    const pins = page.locator('img[src^="/example-pins/"]');
    expect(await pins.count()).toBeGreaterThanOrEqual(4);
    for (let i = 0; i < (await pins.count()); i++) {
      const pin = pins.nth(i);
      await pin.scrollIntoViewIfNeeded();
      expect(await pin.getAttribute("alt"), `pin ${i} has alt text`).toBeTruthy();
      await page.waitForFunction((img) => (img as HTMLImageElement).complete, await pin.elementHandle(), { timeout: 30_000 });
      expect(await pin.evaluate((img) => (img as HTMLImageElement).naturalWidth), `pin ${i} loaded`).toBeGreaterThan(0);
    }

    const ogImage = await page.locator('head meta[property="og:image"]').getAttribute("content");
    expect(ogImage).toBe(`${appUrl()}/og-image.png`);
    const picture = await page.request.get(ogImage!);
    expect(picture.status()).toBe(200);
    expect(picture.headers()["content-type"]).toBe("image/png");
    expect(picture.headers()["x-content-type-options"]).toBe("nosniff");
    expect([...(await picture.body()).subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    expect(await page.locator('head meta[name="twitter:card"]').getAttribute("content")).toBe("summary_large_image");
    expect(await page.locator('head link[rel="canonical"]').getAttribute("href")).toBe(`${appUrl()}/`);
    expect(await page.title()).toBe("Pinboard Studio: pins from every post, scheduled for you");
  });

  it("shows the plans with their prices in the page itself, linking to /pricing, and sign-up calls to action", async () => {
    // In the HTML itself: search engines and slow phones see the prices before any JavaScript runs.
    const html = await (await fetch(`${appUrl()}/`)).text();
    expect(html).toContain("Plans for every stage");
    expect(html).toContain("150 pin credits a month");
    const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
    await hydrated(page, "/");
    const plans = page.getByRole("list", { name: "Monthly plans" });
    const starter = plans.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Starter", exact: true }) });
    expect(await starter.textContent()).toContain("$16.99/month");
    expect(await starter.textContent()).toContain("150 pin credits a month");
    // At 1366 px the cards line up with their heading, each price stays on one line, and each card has its button
    // (issue 40 point 10).
    const heading = (await page.getByRole("heading", { name: "Plans for every stage" }).boundingBox())!;
    const list = (await plans.boundingBox())!;
    expect(Math.abs(list.x - heading.x)).toBeLessThan(2);
    for (const price of await plans.locator(".home-plans__price").all()) {
      const lineHeight = await price.evaluate((element) => Number.parseFloat(getComputedStyle(element).lineHeight) || 30);
      expect((await price.boundingBox())!.height).toBeLessThan(lineHeight * 1.6);
    }
    expect(await plans.getByRole("link").count()).toBe(await plans.getByRole("listitem").count());
    expect(await starter.getByRole("link", { name: "Start free trial: Starter" }).getAttribute("href")).toBe(
      `/login?redirectTo=${encodeURIComponent("/pricing?startPlan=starter-monthly")}`,
    );
    expect(await plans.getByRole("link", { name: "Sign up free: Free" }).getAttribute("href")).toBe("/signup");
    await page.getByRole("link", { name: "Compare all plans" }).click();
    await page.waitForURL((url) => url.pathname === "/pricing");
    await hydrated(page, "/");
    const signUps = page.getByRole("link", { name: "Create your free account" });
    expect(await signUps.count()).toBe(2);
    expect(await signUps.first().getAttribute("href")).toBe("/signup");
  });

  it("fits a phone screen: nothing wider than the screen, pins in view without sideways scrolling", async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await hydrated(page, "/");
    await page.locator('img[src^="/example-pins/"]').first().waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
  it("paints with no render-blocking stylesheet (its own styles are in the page), and styles what scripts show later", async () => {
    const html = await (await fetch(`${appUrl()}/`)).text();
    // The only stylesheet link is the whole site stylesheet, for print until the scripts run (decision 064).
    expect(html.match(/<link rel="stylesheet"[^>]*>/g)).toEqual([expect.stringMatching(/href="\/assets\/site-[^"]+\.css" media="print"/)]);
    expect(html).toMatch(/<style data-site-styles="">:root\{/);
    // Before any script runs, the page is laid out by its own styles: the hero is a grid, the navbar sticks.
    const still = await browser.newPage({ javaScriptEnabled: false, viewport: { width: 412, height: 823 } });
    const blocking: string[] = [];
    still.on("request", (request) => {
      if (request.resourceType() === "stylesheet" && !/\/assets\/site-/.test(request.url())) blocking.push(request.url());
    });
    await still.goto("/");
    expect(await still.locator("section.hero").evaluate((hero) => getComputedStyle(hero).display)).toBe("grid");
    expect(await still.locator("header.navbar").evaluate((bar) => getComputedStyle(bar).position)).toBe("sticky");
    expect(await still.locator("link[data-site-styles-full]").getAttribute("media")).toBe("print");
    expect(blocking).toEqual([]);

    // Hydrated, the whole stylesheet applies: the phone menu, which the page's own styles leave out, is styled.
    const page = await browser.newPage({ viewport: { width: 412, height: 823 } });
    await hydrated(page, "/pricing");
    await page.waitForFunction(() => {
      const link = document.querySelector<HTMLLinkElement>("link[data-site-styles-full]");
      return link?.media === "all" && link.sheet !== null;
    });
    await page.getByRole("button", { name: "Menu", exact: true }).click();
    const menu = page.getByRole("menu");
    await menu.waitFor();
    expect(await menu.evaluate((element) => getComputedStyle(element).backgroundColor)).toBe("rgb(255, 255, 255)");
    expect(await menu.evaluate((element) => getComputedStyle(element).borderRadius)).toBe("12px");
    await page.keyboard.press("Escape");
    await menu.waitFor({ state: "hidden" });

    // To / by a link and back: the home page's hero, which /pricing's own styles did not carry, is styled; the styles are there once.
    await page.getByRole("link", { name: "Pinboard Studio" }).first().click();
    await page.waitForURL((url) => url.pathname === "/");
    await page.locator("section.hero").waitFor();
    expect(await page.locator("style[data-site-styles]").count()).toBe(1);
    expect(await page.locator("link[data-site-styles-full]").count()).toBe(1);
    expect(await page.locator("section.hero").evaluate((hero) => getComputedStyle(hero).display)).toBe("grid");
  });
});
