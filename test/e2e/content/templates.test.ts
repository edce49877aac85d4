import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { signUpInBrowser } from "../support/accounts.ts";
import { useBrowser } from "../support/browser.ts";

const browser = useBrowser();

/** A 4xx answer the test provokes on purpose shows up in Chromium's console as "Failed to load resource". */
const EXPECTED_4XX = /status of 4\d\d/;
const SCREENSHOTS = process.env.E2E_SCREENSHOTS ?? "/tmp";

/** Calls the API from inside the page with the signed-in user's token. */
function api<T>(page: Page, path: string, body?: unknown): Promise<T> {
  return page.evaluate(
    async ({ path, body }) => {
      const response = await fetch(path, {
        method: body === undefined ? "GET" : "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${localStorage.getItem("FBIdToken")}` },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
      return response.json();
    },
    { path, body },
  ) as Promise<T>;
}

/**
 * Signs a new user up once the page has hydrated: before that, the app's
 * first-load token refresh (tokens but no session cookie) can race the
 * helper's reload and revoke the new session.
 */
async function signUp(page: Page) {
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
  await signUpInBrowser(page);
}

/** A small design: a pin-coloured background and the post's title. */
function design(title: string) {
  return {
    title,
    background: "pin",
    layers: [{ type: "text", id: "title", name: "Title", x: 100, y: 400, width: 800, height: 600, content: "title" }],
  };
}

/** Waits until the editor's canvas shows the engine's picture for the current design. */
async function previewSettled(page: Page) {
  await explained(page, () => page.waitForFunction(() => document.querySelector(".editor__stage")?.getAttribute("data-preview") === "ready"));
}

/** Runs a wait; when it fails, logs what the page shows and its last requests (sign-in state included). */
async function explained<T>(page: Page, wait: () => Promise<T>): Promise<T> {
  try {
    return await wait();
  } catch (error) {
    const state = await page.evaluate(async () => ({
      tokens: Object.keys(localStorage),
      cookieUser: (await fetch("/api/user")).status,
      bearerUser: (await fetch("/api/user", { headers: { authorization: `Bearer ${localStorage.getItem("FBIdToken")}` } })).status,
      preview: document.querySelector(".editor__stage")?.getAttribute("data-preview"),
      h1: document.querySelector("h1")?.textContent,
      url: location.href,
    }));
    console.log("page at the failure:", JSON.stringify(state), "\nlast requests:", JSON.stringify(requestLog.get(page)?.slice(-40), null, 1));
    throw error;
  }
}

const requestLog = new WeakMap<Page, string[]>();
/** Keeps a page's requests and console messages, with times, for `explained`. */
function logRequests(page: Page) {
  const log: string[] = [];
  requestLog.set(page, log);
  const start = Date.now();
  page.on("request", (r) => log.push(`${Date.now() - start} > ${r.method()} ${r.url()}`));
  page.on("requestfinished", (r) => log.push(`${Date.now() - start} < ${r.url()}`));
  page.on("requestfailed", (r) => log.push(`${Date.now() - start} FAILED ${r.url()} ${r.failure()?.errorText}`));
  page.on("response", (r) => r.status() >= 300 && log.push(`${Date.now() - start} ${r.status()} ${r.url()}`));
  page.on("console", (m) => log.push(`${Date.now() - start} console ${m.type()} ${m.text()}`));
}

async function positionOfSelected(page: Page) {
  const properties = page.getByRole("complementary", { name: "Layer properties" });
  return {
    x: Number(await properties.getByLabel("X", { exact: true }).inputValue()),
    y: Number(await properties.getByLabel("Y", { exact: true }).inputValue()),
  };
}

async function layerNames(page: Page) {
  return page.getByRole("list", { name: "Layers, front to back" }).locator(".layer-row__name").allTextContents();
}

/** What sticks out to the right of a narrow viewport (for a readable failure). */
function overflowing(page: Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll("body *")]
      .filter((element) => element.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
      .slice(0, 5)
      .map((element) => `${element.tagName.toLowerCase()}.${element.className} ${Math.round(element.getBoundingClientRect().right)}px`),
  );
}

describe("templates", () => {
  it("asks logged-out visitors to log in on the gallery and the editor", async () => {
    const page = await browser.newPage();
    for (const path of ["/templates", "/template-builder", "/template-builder/some-template"]) {
      await page.goto(path);
      await page.getByText("Login or sign up to browse and design templates.").waitFor();
      expect(await page.getByRole("link", { name: "Login" }).last().isVisible()).toBe(true);
    }
  });

  it("answers the editor of a template that does not exist with the not-found view and 404", async () => {
    // The document's 404 is the answer under test.
    const page = await browser.newPage({ allowConsoleErrors: /status of 404/ });
    await page.goto("/templates");
    await signUp(page);
    const answer = await page.goto("/template-builder/no-such-template");
    expect(answer?.status()).toBe(404);
    await page.getByRole("heading", { name: "Page Not Found" }).waitFor();
    expect(await page.getByText("Sorry, the page you tried cannot be found.").isVisible()).toBe(true);
  });

  it("runs an editor session: add, drag, undo, redo, duplicate, save, reload", async () => {
    const page = await browser.newPage();
    logRequests(page);
    await page.goto("/templates?tab=mine");
    await signUp(page);
    await page.getByRole("button", { name: "New template" }).click();
    // It asks for the template's name first (issue 40 point 12), and says so when none is given.
    const naming = page.getByRole("dialog", { name: "New template" });
    await naming.getByRole("button", { name: "Create template" }).click();
    await naming.getByText("Please name your template.").waitFor();
    await naming.getByLabel("Template name").fill("Harvest recipes");
    await naming.getByRole("button", { name: "Create template" }).click();
    await page.waitForURL(/\/template-builder\/[\w-]+$/);
    await page.getByRole("heading", { name: "Harvest recipes" }).waitFor();
    await previewSettled(page);
    expect(await page.getByRole("contentinfo").count(), "the editor has no footer").toBe(0);
    expect(await layerNames(page)).toEqual(["Website", "Title", "Colour band", "Photo"]);

    // Add a text layer: it is selected, at the factory position.
    await page.getByRole("button", { name: "Add text" }).click();
    expect(await layerNames(page)).toEqual(["Text 1", "Website", "Title", "Colour band", "Photo"]);
    expect(await page.getByRole("button", { name: "Text 1", pressed: true }).count()).toBe(1);
    const start = await positionOfSelected(page);
    expect(start).toEqual({ x: 150, y: 600 });
    await previewSettled(page);
    await page.getByRole("status").filter({ hasText: "Unsaved changes" }).waitFor();

    // Drag it on the canvas with the mouse, from the middle of the layer (700 x 220 px).
    const stage = page.locator(".editor__stage");
    const box = (await stage.boundingBox())!;
    const scale = Number(await stage.getAttribute("data-scale"));
    expect(box.width).toBeCloseTo(1000 * scale, 0);
    const from = { x: box.x + (start.x + 350) * scale, y: box.y + (start.y + 110) * scale };
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(from.x + 60, from.y + 30, { steps: 6 });
    await page.mouse.move(from.x + 120, from.y + 60, { steps: 6 });
    await page.mouse.up();
    const moved = await positionOfSelected(page);
    expect(Math.abs(moved.x - (start.x + 120 / scale))).toBeLessThanOrEqual(1);
    expect(Math.abs(moved.y - (start.y + 60 / scale))).toBeLessThanOrEqual(1);
    await previewSettled(page);
    await page.screenshot({ path: `${SCREENSHOTS}/templates-editor-dragged.png` });

    // Undo brings it back, redo moves it again.
    await page.getByRole("button", { name: "Undo" }).click();
    expect(await positionOfSelected(page)).toEqual(start);
    await page.getByRole("button", { name: "Redo" }).click();
    expect(await positionOfSelected(page)).toEqual(moved);
    // The keyboard does the same.
    await page.keyboard.press("Control+z");
    expect(await positionOfSelected(page)).toEqual(start);
    await page.keyboard.press("Control+Shift+z");
    expect(await positionOfSelected(page)).toEqual(moved);

    // Duplicate: "name (copy)", 20 px right and down, above the original and selected.
    await page.getByRole("button", { name: "Duplicate layer" }).click();
    expect(await layerNames(page)).toEqual(["Text 1 (copy)", "Text 1", "Website", "Title", "Colour band", "Photo"]);
    expect(await page.getByRole("button", { name: "Text 1 (copy)", pressed: true }).count()).toBe(1);
    expect(await positionOfSelected(page)).toEqual({ x: moved.x + 20, y: moved.y + 20 });
    // Shift+arrow nudges 10 px.
    await page.keyboard.press("Shift+ArrowDown");
    const copyAt = { x: moved.x + 20, y: moved.y + 30 };
    expect(await positionOfSelected(page)).toEqual(copyAt);

    // Save, reload: everything is where it was.
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByRole("status").filter({ hasText: "All changes saved" }).waitFor();
    await page.getByText("Template saved", { exact: true }).waitFor();
    await previewSettled(page);
    await page.screenshot({ path: `${SCREENSHOTS}/templates-editor-saved.png` });
    await page.reload();
    await page.getByRole("heading", { name: "Harvest recipes" }).waitFor();
    expect(await layerNames(page)).toEqual(["Text 1 (copy)", "Text 1", "Website", "Title", "Colour band", "Photo"]);
    await page.getByRole("button", { name: "Text 1", exact: true }).click();
    expect(await positionOfSelected(page)).toEqual(moved);
    await page.getByRole("button", { name: "Text 1 (copy)", exact: true }).click();
    expect(await positionOfSelected(page)).toEqual(copyAt);
    await previewSettled(page);

    // Share and unshare.
    await page.getByRole("button", { name: "Share", exact: true }).click();
    await page.getByText("Template saved and shared", { exact: true }).waitFor();
    await page.getByRole("button", { name: "Unshare" }).click();
    await page.getByText("Template is no longer shared", { exact: true }).waitFor();
    await page.getByRole("button", { name: "Share", exact: true }).waitFor();
  });

  it("offers 'Duplicate to edit' for a standard template, and warns before leaving unsaved changes", async () => {
    const page = await browser.newPage();
    logRequests(page);
    await page.goto("/templates?tab=mine");
    await signUp(page);
    const { templates } = await api<{ templates: { templateId: string; title: string }[] }>(page, "/api/templates/standardTemplates?category=Blog");
    expect(templates.length, "the seed has standard templates in the Blog category").toBeGreaterThan(0);
    const standard = templates[0];
    await page.goto(`/template-builder/${standard.templateId}`);
    await explained(page, () => page.getByRole("heading", { name: standard.title }).waitFor());
    await page.getByText("Standard templates cannot be changed. Duplicate it to edit your own copy.").waitFor();
    expect(await page.getByRole("button", { name: "Save" }).count()).toBe(0);
    await previewSettled(page);

    // An edit, then a link away: the editor asks first.
    const first = (await layerNames(page))[0];
    await page.getByRole("button", { name: first, exact: true }).click();
    const before = await positionOfSelected(page);
    await page.keyboard.press("ArrowRight");
    expect(await positionOfSelected(page)).toEqual({ x: before.x + 1, y: before.y });
    await page.getByRole("link", { name: "Back to templates" }).click();
    const leave = page.getByRole("alertdialog", { name: "Leave without saving?" });
    await leave.getByRole("button", { name: "Stay" }).click();
    expect(new URL(page.url()).pathname).toBe(`/template-builder/${standard.templateId}`);

    // "Duplicate to edit": the user's own copy, "title (copy)", with the edit in it, opened without asking.
    await page.getByRole("button", { name: "Duplicate to edit" }).click();
    await page.waitForURL((url) => url.pathname.startsWith("/template-builder/") && !url.pathname.endsWith(standard.templateId));
    await page.getByRole("heading", { name: `${standard.title} (copy)` }).waitFor();
    // Copies have no categories (spec section 4): the user is told so.
    await page
      .getByRole("region", { name: /Notifications/ })
      .getByText("Copies start without categories: pick them under Categories in the editor.", { exact: false })
      .waitFor();
    await page.getByRole("button", { name: "Save" }).waitFor();
    await page.getByRole("button", { name: first, exact: true }).click();
    expect(await positionOfSelected(page)).toEqual({ x: before.x + 1, y: before.y });
    const copyId = new URL(page.url()).pathname.split("/").at(-1)!;
    const copy = await api<{ template: { isStandardTemplate: boolean; categories: string[]; title: string } }>(page, `/api/template/${copyId}`);
    expect(copy.template).toMatchObject({ isStandardTemplate: false, categories: [], title: `${standard.title} (copy)` });
    await previewSettled(page);
  });

  it("shows live previews in the gallery; favourites, shares, categories and deletes", async () => {
    const page = await browser.newPage({ allowConsoleErrors: EXPECTED_4XX });
    await page.goto("/templates?tab=mine");
    await signUp(page);
    const first = await api<{ template: { templateId: string } }>(page, "/api/templates/addNewTemplate", { template: design("Autumn reading list") });
    const second = await api<{ template: { templateId: string } }>(page, "/api/templates/addNewTemplate", { template: design("Weeknight dinners") });
    await api(page, "/api/templates/updateTemplate", { template: { ...design("Weeknight dinners"), templateId: second.template.templateId, isShared: true } });

    await page.goto("/templates?tab=mine");
    await page.getByRole("tab", { name: "My templates", selected: true }).waitFor();
    const grid = page.getByRole("list", { name: "My templates templates" });
    const card = grid.getByRole("listitem").filter({ hasText: "Autumn reading list" });
    await card.waitFor();

    // The preview is the engine's SVG, as a loaded blob: image 1000 px wide.
    const preview = card.getByRole("img", { name: "Autumn reading list" });
    await preview.waitFor();
    await page.waitForFunction((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0, await preview.elementHandle());
    const loaded = await preview.evaluate((img: HTMLImageElement) => ({ src: img.src, width: img.naturalWidth }));
    expect(loaded.src.startsWith("blob:")).toBe(true);
    expect(loaded.width).toBe(1000);
    expect(await page.evaluate(async (src) => (await (await fetch(src)).blob()).type, loaded.src)).toBe("image/svg+xml");
    await page.screenshot({ path: `${SCREENSHOTS}/templates-gallery-mine.png` });

    // Favourite, then find it under Favourites; un-favourite takes it away.
    const heart = card.getByRole("button", { name: "Favourite Autumn reading list" });
    expect(await heart.getAttribute("aria-pressed")).toBe("false");
    await heart.click();
    await page.waitForFunction(() => document.querySelector('[aria-label="Favourite Autumn reading list"]')?.getAttribute("aria-pressed") === "true");
    await page.getByText("Added to your favourites", { exact: true }).waitFor();
    await page.getByRole("tab", { name: "Favourites" }).click();
    const favourites = page.getByRole("list", { name: "Favourites templates" });
    await favourites.getByText("Autumn reading list").waitFor();

    // Shared templates show how often they are favourited.
    await page.getByRole("tab", { name: "Shared" }).click();
    const shared = page.getByRole("list", { name: "Shared templates" }).getByRole("listitem").filter({ hasText: "Weeknight dinners" });
    await shared.waitFor();
    const sharedHeart = shared.getByRole("button", { name: "Favourite Weeknight dinners" });
    expect(await sharedHeart.textContent()).toBe("0");
    await sharedHeart.click();
    await page.waitForFunction(() => document.querySelector('[aria-label="Favourite Weeknight dinners"]')?.textContent === "1");

    // Tabs answer to the arrow keys.
    await page.getByRole("tab", { name: "Shared" }).focus();
    await page.keyboard.press("ArrowLeft");
    await page.getByRole("tab", { name: "My templates", selected: true }).waitFor();

    // Categories: add one (a second time fails with the spec's message), filter by it, delete it.
    await page.getByRole("button", { name: "Manage categories" }).click();
    const dialog = page.getByRole("dialog", { name: "Your categories" });
    await dialog.getByLabel("New category").fill("Reading");
    await dialog.getByRole("button", { name: "Add", exact: true }).click();
    await dialog.getByText("Reading", { exact: true }).waitFor();
    await dialog.getByLabel("New category").fill("reading");
    await dialog.getByRole("button", { name: "Add", exact: true }).click();
    await dialog.getByRole("alert").filter({ hasText: 'Unable to add template category: A category named "Reading" already exists' }).waitFor();
    await dialog.getByRole("button", { name: "Done" }).click();
    await page.getByRole("group", { name: "Filter by category" }).getByRole("button", { name: "Reading" }).click();
    await page.getByText('No templates in "Reading" here.').waitFor();
    await page.getByRole("group", { name: "Filter by category" }).getByRole("button", { name: "All" }).click();
    await page.getByRole("button", { name: "Manage categories" }).click();
    await dialog.getByRole("button", { name: "Delete category Reading" }).click();
    await dialog.getByText("You have no categories of your own yet.").waitFor();
    await dialog.getByRole("button", { name: "Done" }).click();

    // Delete, after confirming; it stays gone after a reload.
    await page.getByRole("list", { name: "My templates templates" }).getByRole("button", { name: "Delete Autumn reading list" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Delete this template?" });
    await confirm.getByRole("button", { name: "Delete template" }).click();
    await page.getByText('"Autumn reading list" deleted', { exact: true }).waitFor();
    const mine = page.getByRole("list", { name: "My templates templates" });
    expect(await mine.getByText("Autumn reading list").count()).toBe(0);
    await page.goto("/templates?tab=mine");
    await mine.getByText("Weeknight dinners").waitFor();
    expect(await mine.getByText("Autumn reading list").count()).toBe(0);
    const ids = (await api<{ templates: { templateId: string }[] }>(page, "/api/templates")).templates.map((t) => t.templateId);
    expect(ids).toEqual([second.template.templateId]);
    expect(ids).not.toContain(first.template.templateId);
  });

  it("shows each standard template with sample content of its own: different photos on different cards", async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await page.goto("/templates?tab=standard");
    await signUp(page);
    await page.goto("/templates?tab=standard");
    const cards = page.locator(".template-grid .template-card");
    await cards.nth(11).waitFor();
    // Once the cards in view are drawn the gallery is no longer busy, though the cards far below wait to be drawn
    // until they come near: a skeleton, not "loading" (aria-busy) for as long as nobody scrolls.
    await expect.poll(() => page.locator('.pin-preview[aria-busy="true"]').count(), { timeout: 30_000 }).toBe(0);
    const last = cards.last().locator(".pin-preview");
    expect(await last.locator(".pin-preview__skeleton").count(), "the last card is not drawn yet").toBe(1);
    expect(await last.getAttribute("aria-busy")).toBe("false");
    // The first dozen cards' previews: each the engine's SVG with its photos embedded.
    const photosOf = async (index: number) => {
      const image = cards.nth(index).locator("img.pin-preview__image");
      await image.scrollIntoViewIfNeeded();
      await page.waitForFunction((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0, await image.elementHandle());
      return image.evaluate(async (img: HTMLImageElement) => {
        const svg = await (await fetch(img.src)).text();
        // Each embedded photo, by a fingerprint of its bytes.
        return [...svg.matchAll(/href="data:image\/[a-z]+;base64,([^"]+)"/g)].map(
          ([, data]) => `${data.length}:${data.slice(data.length / 2, data.length / 2 + 120)}`,
        );
      });
    };
    const leads = new Set<string>();
    for (let index = 0; index < 12; index++) {
      const photos = await photosOf(index);
      expect(photos.length, `card ${index + 1} shows a photo`).toBeGreaterThan(0);
      leads.add(photos[0]);
    }
    // Not one illustration on every card.
    expect(leads.size).toBeGreaterThanOrEqual(4);
    await page.close();
  });

  it("stacks the editor's panels below the canvas on a phone", async () => {
    const page = await browser.newPage({ viewport: { width: 375, height: 800 } });
    logRequests(page);
    await page.goto("/templates?tab=mine");
    await signUp(page);
    await page.getByRole("button", { name: "New template" }).click();
    await page.getByLabel("Template name").fill("Phone layout");
    await page.getByRole("button", { name: "Create template" }).click();
    await page.waitForURL(/\/template-builder\/[\w-]+$/);
    await previewSettled(page);
    await page.getByRole("button", { name: "Title", exact: true }).click();
    const canvas = (await page.locator(".editor__stage").boundingBox())!;
    const layers = (await page.getByRole("complementary", { name: "Layers and template" }).boundingBox())!;
    const properties = (await page.getByRole("complementary", { name: "Layer properties" }).boundingBox())!;
    expect(canvas.width).toBeLessThanOrEqual(375);
    expect(layers.y).toBeGreaterThan(canvas.y + canvas.height);
    expect(properties.y).toBeGreaterThan(layers.y);
    expect(await overflowing(page)).toEqual([]);
    await page.screenshot({ path: `${SCREENSHOTS}/templates-editor-phone.png`, fullPage: true });

    // The shortcuts are listed in a popover.
    await page.getByRole("button", { name: "Keyboard shortcuts" }).click();
    await page.getByRole("dialog", { name: "Keyboard shortcuts" }).getByText("Duplicate the selected layer").waitFor();
    await page.keyboard.press("Escape");
    expect(await page.getByRole("dialog", { name: "Keyboard shortcuts" }).isVisible()).toBe(false);

    // The gallery opens on the standard templates, two columns wide.
    await page.goto("/templates");
    await page.getByRole("tab", { name: "Standard", selected: true }).waitFor();
    const standard = page.getByRole("list", { name: "Standard templates" });
    await standard.getByRole("img").first().waitFor();
    const [one, two, three] = await standard.getByRole("listitem").evaluateAll((items) => items.slice(0, 3).map((item) => item.getBoundingClientRect().top));
    expect(one).toBe(two);
    expect(three).toBeGreaterThan(one);
    expect(await overflowing(page)).toEqual([]);
    await page.screenshot({ path: `${SCREENSHOTS}/templates-gallery-phone.png` });
  });
});
