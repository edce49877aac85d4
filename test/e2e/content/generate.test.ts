import { readFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { signUpInBrowser, signUpVerified } from "../support/accounts.ts";
import { redeemStarterCode } from "../support/admin.ts";
import { sandboxUrl, useBrowser } from "../support/browser.ts";
import { overflowing } from "../support/layout.ts";

const browser = useBrowser();

const DEMO_POST = "berry-smoothie-bowls";
/** The demo post has three images: "One of each image" makes a pin of each. */
const DEMO_IMAGES = 3;

/** Width and height from a baseline or progressive JPEG's SOF marker. */
function jpegSize(bytes: Uint8Array): { width: number; height: number } {
  let offset = 2;
  while (offset < bytes.length) {
    if (bytes[offset] !== 0xff) throw new Error(`not a JPEG marker at ${offset}`);
    const marker = bytes[offset + 1];
    const length = (bytes[offset + 2] << 8) | bytes[offset + 3];
    if (marker >= 0xc0 && marker <= 0xc3) {
      return { height: (bytes[offset + 5] << 8) | bytes[offset + 6], width: (bytes[offset + 7] << 8) | bytes[offset + 8] };
    }
    offset += 2 + length;
  }
  throw new Error("no SOF marker");
}

/** /generate, hydrated. */
async function openGenerator(page: Page) {
  await page.goto("/generate");
  await page.waitForSelector('html[data-hydrated="true"]', { state: "attached" });
}

const cards = (page: Page) => page.getByRole("list", { name: "Generated pins" }).getByRole("listitem");

/** Waits until every card's preview shows the engine's current picture. */
async function previewsSettled(page: Page, count: number) {
  await page.waitForFunction(
    (count) => {
      const previews = [...document.querySelectorAll(".post-grid .post-preview")];
      return previews.length === count && previews.every((preview) => preview.getAttribute("data-preview") === "ready");
    },
    count,
    { timeout: 30_000 },
  );
}

async function templatesOf(page: Page): Promise<string[]> {
  return cards(page).evaluateAll((items) => items.map((item) => item.getAttribute("data-template") ?? ""));
}

describe("the pin generator", () => {
  it("asks logged-out visitors to log in, and unverified users to verify their e-mail", async () => {
    const page = await browser.newPage();
    await page.goto("/generate");
    await page.getByText("Login or sign up to generate pins.").waitFor();
    expect(await page.getByRole("contentinfo").count(), "/generate has no footer").toBe(0);

    await signUpInBrowser(page);
    await page.goto("/generate");
    await page.getByRole("heading", { name: "Verify your e-mail address" }).waitFor();
    expect(await page.getByRole("button", { name: "Resend verification e-mail" }).isVisible()).toBe(true);
  });

  it("generates from a blog post, locks, regenerates, edits, downloads a real JPEG and restores a saved draft", async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await signUpVerified(page);
    await openGenerator(page);
    const drawer = page.getByRole("complementary", { name: "Design settings" });
    await drawer.getByRole("heading", { name: "Design settings" }).waitFor();
    expect(await drawer.getByLabel("Font", { exact: true }).inputValue()).toBe("Carter One");
    expect(await drawer.getByLabel("Uppercase").isChecked()).toBe(true);
    expect(await drawer.getByLabel("Use colour 2").isChecked(), "colour index 1 is the default").toBe(true);
    await drawer.getByLabel("One of each image").check();

    // A bad URL is refused before anything is sent.
    const url = page.getByLabel("Paste a blog post or web page URL");
    await url.fill("not a url");
    await page.getByRole("button", { name: "Generate", exact: true }).click();
    await page.getByRole("alert").filter({ hasText: "single web address" }).waitFor();

    await url.fill(`${sandboxUrl()}/blog-demo/posts/${DEMO_POST}`);
    await page.getByRole("button", { name: "Generate", exact: true }).click();
    await expect.poll(() => cards(page).count(), { timeout: 20_000 }).toBe(DEMO_IMAGES);
    await previewsSettled(page, DEMO_IMAGES);
    expect(await cards(page).first().getByRole("heading").textContent()).toContain("Smoothie");

    // Lock the first pin, then regenerate templates: it keeps its template, the others change.
    const before = await templatesOf(page);
    await page.getByRole("button", { name: "Lock pin 1" }).click();
    expect(await page.getByRole("button", { name: "Unlock pin 1" }).getAttribute("aria-pressed")).toBe("true");
    await page.getByRole("button", { name: "Regenerate templates" }).click();
    await expect.poll(async () => (await templatesOf(page)).slice(1).every((id, i) => id !== before[i + 1])).toBe(true);
    const after = await templatesOf(page);
    expect(after[0]).toBe(before[0]);
    await previewsSettled(page, DEMO_IMAGES);

    // Edit the second pin's title: the preview is drawn again.
    const second = cards(page).nth(1);
    const pictureBefore = await second.locator(".pin-preview__image").getAttribute("src");
    await page.getByRole("button", { name: "Edit pin 2" }).click();
    const dialog = page.getByRole("dialog", { name: "Edit pin 2" });
    await dialog.getByLabel("Title", { exact: true }).fill("Five berry bowls for busy mornings");
    await dialog.getByRole("button", { name: "Done" }).click();
    await expect.poll(() => second.getByRole("heading").textContent()).toBe("Five berry bowls for busy mornings");
    await previewsSettled(page, DEMO_IMAGES);
    expect(await second.locator(".pin-preview__image").getAttribute("src")).not.toBe(pictureBefore);

    // Download it: a 1000 x 1500 JPEG named after the new title.
    const [download] = await Promise.all([page.waitForEvent("download", { timeout: 30_000 }), page.getByRole("button", { name: "Download pin 2" }).click()]);
    expect(download.suggestedFilename()).toMatch(/^Five-berry-bowls-for-busy-mornings-\d+\.jpeg$/);
    const bytes = new Uint8Array(await readFile((await download.path())!));
    expect([bytes[0], bytes[1]]).toEqual([0xff, 0xd8]);
    expect(jpegSize(bytes)).toEqual({ width: 1000, height: 1500 });
    await second.getByText("Downloaded").waitFor();

    // Save a draft, reload, load it back.
    await page.getByRole("button", { name: "Save draft" }).click();
    const naming = page.getByRole("dialog", { name: "Save draft" });
    await naming.getByLabel("Draft name").fill("Smoothie pins");
    await naming.getByRole("button", { name: "Save draft" }).click();
    await page.getByText('Draft "Smoothie pins" saved', { exact: true }).waitFor();

    await page.reload();
    await page.waitForSelector('html[data-hydrated="true"]', { state: "attached" });
    expect(await cards(page).count()).toBe(0);
    await page.getByRole("button", { name: "Drafts" }).click();
    await page.getByRole("dialog", { name: "Drafts" }).getByRole("button", { name: "Load Smoothie pins" }).click();
    await expect.poll(() => cards(page).count()).toBe(DEMO_IMAGES);
    expect(await cards(page).nth(1).getByRole("heading").textContent()).toBe("Five berry bowls for busy mornings");
    expect(await page.getByRole("button", { name: "Unlock pin 1" }).count()).toBe(1);
    expect(await templatesOf(page)).toEqual(after);
    await previewsSettled(page, DEMO_IMAGES);

    // The pin on its own page (/singlePin?postID=).
    await page.getByRole("link", { name: "Open pin 2 on its own page" }).click();
    await page.waitForURL(/\/singlePin\?postID=/);
    await page.getByRole("heading", { name: "Pin", exact: true }).waitFor();
    expect(await page.getByLabel("Title", { exact: true }).inputValue()).toBe("Five berry bowls for busy mornings");
    await page.locator('.post-preview[data-preview="ready"]').waitFor();
    expect(await page.getByRole("button", { name: "Save to draft" }).isVisible()).toBe(true);
  });

  it("draws previews in preview workers, and on the page itself where workers are unavailable", async () => {
    for (const workers of [true, false]) {
      const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
      if (!workers) await page.addInitScript(() => Reflect.deleteProperty(window, "Worker"));
      await signUpVerified(page);
      await openGenerator(page);
      const drawer = page.getByRole("complementary", { name: "Design settings" });
      await drawer.getByLabel("One of each image").check();
      await page.getByLabel("Paste a blog post or web page URL").fill(`${sandboxUrl()}/blog-demo/posts/${DEMO_POST}`);
      await page.getByRole("button", { name: "Generate", exact: true }).click();
      await expect.poll(() => cards(page).count(), { timeout: 20_000 }).toBe(DEMO_IMAGES);
      await previewsSettled(page, DEMO_IMAGES);
      // Each preview shows a whole pin: a 2:3 picture drawn from the post's photo.
      const shown = await page
        .locator(".post-grid .post-preview img")
        .evaluateAll((images) => (images as HTMLImageElement[]).map((image) => ({ width: image.naturalWidth, height: image.naturalHeight, alt: image.alt })));
      expect(shown).toHaveLength(DEMO_IMAGES);
      for (const image of shown) expect(image).toMatchObject({ width: 1000, height: 1500 });
      // The workers report each drawing's steps to the page's timeline; the page's own engine does not.
      const drawnInWorkers = await page.evaluate(() => performance.getEntriesByName("preview:satori").length);
      if (workers) expect(drawnInWorkers).toBeGreaterThanOrEqual(DEMO_IMAGES);
      else expect(drawnInWorkers).toBe(0);
      await page.close();
    }
  });

  it("makes an AI picture for a pin: a progress bar, then the picture on the pin and in its choices, 12 credits (issue 40 point 15)", async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const account = await signUpVerified(page);
    await redeemStarterCode(page, account.email);
    await openGenerator(page);
    await page.getByLabel("Paste a blog post or web page URL").fill(`${sandboxUrl()}/blog-demo/posts/${DEMO_POST}`);
    await page.getByRole("button", { name: "Generate", exact: true }).click();
    await page.getByRole("button", { name: "Edit pin 1" }).click();
    const dialog = page.getByRole("dialog", { name: "Edit pin 1" });
    const picture = dialog.getByRole("group", { name: "AI picture" });
    expect(await picture.getByLabel("What the picture shows").inputValue()).not.toBe("");
    await picture.getByLabel("What the picture shows").fill("A bowl of berries on a sunny kitchen table");
    await picture.getByRole("button", { name: "Make an AI picture (12 credits)" }).click();
    await picture.getByRole("progressbar", { name: "Drawing the AI picture" }).waitFor();
    await page.getByText("AI picture added", { exact: true }).first().waitFor({ timeout: 60_000 });
    // Chosen for the pin's first picture, and offered among its choices.
    const chosen = dialog.locator(".post-editor__images").first().locator("input:checked + img");
    await expect.poll(() => chosen.getAttribute("src")).toMatch(/\/media\/.+\.png$/);
    await dialog.locator('.post-preview[data-preview="ready"]').waitFor({ timeout: 30_000 });
    expect(await picture.getByRole("progressbar").count()).toBe(0);
  });

  it("fits a phone: the design settings slide over from the menu bar", async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await signUpVerified(page);
    await openGenerator(page);
    const drawer = page.getByRole("complementary", { name: "Design settings" });
    expect(await drawer.isVisible()).toBe(false);
    await page.getByRole("button", { name: "Design settings" }).click();
    await drawer.getByLabel("Uppercase").waitFor();
    // The template picker shows previews large enough to judge, two a row on a phone, each named (issue 40 point 12).
    await drawer.getByRole("button", { name: "Choose templates" }).click();
    const picker = page.getByRole("dialog", { name: "Templates to generate with" });
    const grid = picker.getByRole("list", { name: "Standard templates" });
    await grid.getByRole("listitem").first().waitFor();
    const [first, second] = await Promise.all([0, 1].map(async (n) => (await grid.locator(".template-choice__preview").nth(n).boundingBox())!));
    expect(first.width).toBeGreaterThanOrEqual(120);
    expect(second.y, "two a row").toBe(first.y);
    const name = (await grid.locator(".template-choice__title").first().textContent())!;
    expect(name.length).toBeGreaterThan(0);
    await picker.getByRole("checkbox", { name }).check();
    await picker.getByText("1 chosen.").waitFor();
    await picker.getByRole("button", { name: "Clear the selection" }).click();
    await picker.getByRole("button", { name: "Done" }).click();
    await page.keyboard.press("Escape");
    await expect.poll(() => drawer.isVisible()).toBe(false);
    expect(await overflowing(page)).toEqual([]);

    // The edit dialog shows the pin centred above its fields.
    await page.getByLabel("Paste a blog post or web page URL").fill(`${sandboxUrl()}/blog-demo/posts/${DEMO_POST}`);
    await page.getByRole("button", { name: "Generate", exact: true }).click();
    await page.getByRole("button", { name: "Edit pin 1" }).click();
    const dialog = page.getByRole("dialog", { name: "Edit pin 1" });
    const preview = dialog.locator(".post-editor__preview");
    await dialog.locator('.post-preview[data-preview="ready"]').waitFor({ timeout: 30_000 });
    const [box, column] = await Promise.all([preview.boundingBox(), dialog.locator(".post-editor").boundingBox()]);
    const gapLeft = box!.x - column!.x;
    const gapRight = column!.x + column!.width - (box!.x + box!.width);
    expect(gapLeft, "the preview is narrower than the dialog").toBeGreaterThan(10);
    expect(Math.abs(gapLeft - gapRight)).toBeLessThan(2);
  });
});
