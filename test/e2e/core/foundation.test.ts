import { describe, expect, it } from "vitest";
import { appUrl, sandboxUrl, useBrowser } from "../support/browser.ts";
import packageJson from "../../../package.json";

const browser = useBrowser();

describe("the running app", () => {
  it("answers /api/health over real HTTP with its version", async () => {
    const response = await fetch(`${appUrl()}/api/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok", version: packageJson.version });
    expect(response.headers.get("x-app-version")).toBe(packageJson.version);
  });

  it("renders the home page in Chromium with no console errors", async () => {
    const page = await browser.newPage();
    const response = await page.goto("/");
    expect(response?.status()).toBe(200);
    expect(response?.headers()["x-app-version"]).toBe(packageJson.version);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Pins from every post, scheduled while you sleep");
    expect(await page.getByRole("link", { name: "Generate pins" }).getAttribute("href")).toBe("/generate");
    // Hydrated: React took over the server-rendered page.
    await page.waitForFunction(
      () =>
        (window as unknown as { __reactRouterRouteModules?: unknown; __remixRouteModules?: Record<string, unknown> }).__remixRouteModules?.["routes/_index"] !==
        undefined,
    );
  });

  it("lines up each home page section's cards with its heading on a wide screen", async () => {
    const page = await browser.newPage({ viewport: { width: 1600, height: 900 } });
    await page.goto("/");
    for (const [heading, list] of [
      ["Made for people who sell with Pinterest", "ul.audiences"],
      ["How it works", "ol.steps"],
    ] as const) {
      const section = page.locator("section").filter({ has: page.getByRole("heading", { level: 2, name: heading, exact: true }) });
      const headingBox = await section.getByRole("heading", { level: 2 }).first().boundingBox();
      const listBox = await section.locator(list).boundingBox();
      expect(Math.abs((listBox?.x ?? 0) - (headingBox?.x ?? 0)), heading).toBeLessThan(2);
    }
  });

  it("serves static assets with the version header and long caching", async () => {
    const page = await browser.newPage();
    const assets: { url: string; headers: Record<string, string> }[] = [];
    page.on("response", (response) => {
      if (new URL(response.url()).pathname.startsWith("/assets/")) assets.push({ url: response.url(), headers: response.headers() });
    });
    await page.goto("/");
    await page.waitForLoadState("networkidle");
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) {
      expect(asset.headers["x-app-version"], asset.url).toBe(packageJson.version);
      expect(asset.headers["cache-control"], asset.url).toBe("public, max-age=31536000, immutable");
    }
  });

  it("shows the not-found page with status 404 for an unknown path", async () => {
    const page = await browser.newPage({ allowConsoleErrors: /404 \(Not Found\)/ });
    const response = await page.goto("/this/page/does/not/exist");
    expect(response?.status()).toBe(404);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Page Not Found");
    expect(await page.getByText("Sorry, the page you tried cannot be found.").isVisible()).toBe(true);
  });

  it("runs the cron handler that `npm start` fires every 5 minutes", async () => {
    const response = await fetch(`${appUrl()}/cdn-cgi/local/scheduled?cron=${encodeURIComponent("*/5 * * * *")}`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("ok");
  });

  it("runs the sandbox beside it with the demo blog", async () => {
    expect((await fetch(`${sandboxUrl()}/__sandbox/health`)).status).toBe(200);
    const blog = await fetch(`${sandboxUrl()}/blog-demo/`);
    expect(blog.status).toBe(200);
  });
});
