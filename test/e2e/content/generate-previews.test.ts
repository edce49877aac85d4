import { describe, expect, it } from "vitest";
import type { Template } from "../../../contracts/content/template.ts";
import { canFill, postOffer } from "../../../workers/domain/template-fit.ts";
import { signUpVerified } from "../support/accounts.ts";
import { callApi } from "../support/admin.ts";
import { sandboxUrl, useBrowser } from "../support/browser.ts";

const browser = useBrowser();

const DEMO_POST_URL = () => `${sandboxUrl()}/blog-demo/posts/berry-smoothie-bowls`;

describe("pin previews on /generate", () => {
  it("makes pins from the chosen templates and draws them without waiting for the standard templates", async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await signUpVerified(page);
    // Three standard templates the demo post can fill, chosen in the design settings.
    const templates = await page.evaluate(async () => {
      const response = await fetch("/api/templates/standardTemplates", { headers: { authorization: `Bearer ${localStorage.getItem("FBIdToken")}` } });
      return ((await response.json()) as { templates: Template[] }).templates;
    });
    const scraped = await callApi(page, "/highMemLimitApi/scraping/scrapeWebsite", { url: DEMO_POST_URL() });
    expect(scraped.status).toBe(200);
    const chosen = templates.filter((template) => canFill(template, postOffer(scraped.body.source))).slice(0, 3);
    expect(chosen).toHaveLength(3);
    const saved = await callApi(page, "/api/user/saveDesignSettings", {
      designSettings: { templateSelections: chosen.map((template) => template.templateId), useOneOfEachTemplate: true, isRandomTemplates: false },
    });
    expect(saved.status).toBe(200);

    // The standard templates (the fallbacks of a generation) never arrive on this page.
    let held = 0;
    await page.route("**/api/templates/standardTemplates*", () => {
      held += 1;
    });
    await page.goto("/generate");
    await page.waitForSelector('html[data-hydrated="true"]', { state: "attached" });
    await page.getByLabel("Paste a blog post or web page URL").fill(DEMO_POST_URL());
    await page.getByRole("button", { name: "Generate", exact: true }).click();

    const grid = page.getByRole("list", { name: "Generated pins" });
    await expect.poll(() => grid.getByRole("listitem").count(), { timeout: 20_000 }).toBe(3);
    expect(await grid.getByRole("listitem").evaluateAll((items) => items.map((item) => item.getAttribute("data-template")))).toEqual(
      chosen.map((template) => template.templateId),
    );
    await page.waitForFunction(
      () => [...document.querySelectorAll(".post-grid .post-preview")].every((preview) => preview.getAttribute("data-preview") === "ready"),
      null,
      { timeout: 30_000 },
    );
    // Each preview is a whole pin drawn by the engine (an SVG of the pin's size, from a Blob made in the preview worker).
    const shown = await grid
      .locator(".post-preview img")
      .evaluateAll((images) =>
        (images as HTMLImageElement[]).map((image) => ({ width: image.naturalWidth, height: image.naturalHeight, blob: image.src.startsWith("blob:") })),
      );
    expect(shown).toEqual(Array.from({ length: 3 }, () => ({ width: 1000, height: 1500, blob: true })));
    expect(held, "the page asked for the standard templates (and is still waiting)").toBeGreaterThan(0);
    await page.unrouteAll({ behavior: "ignoreErrors" });
  });
});
