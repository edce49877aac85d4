import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { demoProductsCsv } from "../../../app/lib/products/demo-csv.ts";
import { signUpVerified } from "../support/accounts.ts";
import { seriousAxeViolations } from "../support/axe.ts";
import { sandboxUrl, useBrowser } from "../support/browser.ts";
import { connectProfile, uniquePinterestUsername } from "../support/pinterest.ts";

// Issue 18, Catalogs (decision 043), in Chromium: the demo products on /products, three of them put in a new
// catalog through 'Create a Pinterest Catalog', the catalog published to the connected Pinterest profile, and
// Pinterest's processing result (the stand-in downloads the feed from the app, over the network) on the page.

const browser = useBrowser();
const productCards = (page: Page) => page.getByRole("list", { name: "Products" }).getByRole("listitem");

async function hydrated(page: Page, path: string) {
  await page.goto(path);
  await page.waitForSelector('html[data-hydrated="true"]', { state: "attached" });
}

describe("Pinterest catalogs", () => {
  it("asks logged-out visitors to log in or sign up", async () => {
    const page = await browser.newPage();
    await hydrated(page, "/pinterest-catalogs");
    await page.getByText("Login or sign up to build Pinterest catalogs.").waitFor();
    expect(await page.getByRole("link", { name: "Login" }).last().getAttribute("href")).toBe("/login?redirectTo=%2Fpinterest-catalogs");
  });

  it("builds a catalog from three demo products, publishes it, and shows Pinterest's processing result; a picture and an item can be removed", async () => {
    // The picture removal made to fail answers 503 once: the browser logs it.
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 }, allowConsoleErrors: /503|Failed to load resource/ });
    await signUpVerified(page);
    const username = uniquePinterestUsername();
    await connectProfile(page, username);

    // The demo products on /products, three chosen, into a new catalog.
    await hydrated(page, "/products");
    await page.getByRole("heading", { name: "Add your shop" }).waitFor();
    const origin = new URL(page.url()).origin;
    await page.getByLabel("CSV file").setInputFiles({ name: "demo-products.csv", mimeType: "text/csv", buffer: Buffer.from(demoProductsCsv(origin)) });
    await page.getByRole("button", { name: "Upload CSV" }).click();
    await page.getByText("Loaded 5 products from demo-products.csv.").waitFor();
    const chosen = ["Speckled Stoneware Mug in Sage", "Ribbed Glass Bud Vase in Terracotta", "Stonewashed Linen Cushion Cover in Sage"];
    for (const title of chosen) await productCards(page).filter({ hasText: title }).getByRole("checkbox").check();
    const section = page.getByRole("region", { name: "Create a Pinterest Catalog" });
    await section.getByLabel("Catalog name").fill("Studio favourites");
    await section.getByRole("button", { name: "Add 3 products to the catalog" }).click();
    await section.getByText("3 products added to Studio favourites.").waitFor();
    await section.getByRole("link", { name: "Open the catalog" }).click();
    await page.waitForURL((url) => url.pathname === "/pinterest-catalogs");

    // The catalog, its items with their pictures, publishing to the connected profile.
    await page.getByRole("heading", { name: "Studio favourites" }).waitFor();
    const items = page
      .getByRole("list", { name: "Items of Studio favourites" })
      .getByRole("listitem")
      .filter({ has: page.getByRole("heading") });
    await expect.poll(() => items.count()).toBe(3);
    const mug = items.filter({ hasText: "Speckled Stoneware Mug in Sage" });
    await expect
      .poll(() =>
        mug
          .getByRole("img")
          .first()
          .evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth),
      )
      .toBeGreaterThan(0);
    expect(await page.getByLabel("Publishes to").inputValue()).toBe(username);
    const feedUrl = await page.getByLabel("Feed address (Pinterest reads the catalog here)").inputValue();
    expect(feedUrl).toMatch(new RegExp(`^${origin}/catalog-feeds/[A-Za-z0-9_-]{32}\\.csv$`));

    // A picture removed; a failed removal puts it back.
    const pictures = mug.getByRole("list", { name: "Pictures of Speckled Stoneware Mug in Sage" }).getByRole("img");
    expect(await pictures.count()).toBe(3);
    await page.route(
      "**/api/catalogs/deleteCatalogItemImage",
      (route) => route.fulfill({ status: 503, contentType: "application/json", body: JSON.stringify({ error: "Please try again." }) }),
      { times: 1 },
    );
    await mug.getByRole("button", { name: "Remove picture 3 of Speckled Stoneware Mug in Sage" }).click();
    await page.getByText("Unable to remove the picture").first().waitFor();
    await expect.poll(() => pictures.count()).toBe(3);
    await mug.getByRole("button", { name: "Remove picture 3 of Speckled Stoneware Mug in Sage" }).click();
    await expect.poll(() => pictures.count()).toBe(2);

    // The page with a catalog and its items, as axe-core sees it.
    expect(await seriousAxeViolations(page, "/pinterest-catalogs with a catalog")).toEqual([]);

    await page.getByRole("button", { name: "Publish to Pinterest" }).click();
    await page.getByText("Catalog sent to Pinterest").first().waitFor();
    const result = page.getByRole("status").filter({ hasText: "Pinterest" });
    await result.getByText(/Pinterest processed your catalog .*: it accepted 3 of 3 products\./).waitFor({ timeout: 30_000 });
    await page.getByText(/Last published .*: 3 items sent\./).waitFor();

    // Pinterest downloaded the file from the app and registered it for the connected profile.
    const feeds = (await (await fetch(`${sandboxUrl()}/__sandbox/pinterest/feeds?username=${username}`)).json()) as {
      location: string;
      processing_results: { status: string; fetched: { status: number } | null; product_counts: { original: number; ingested: number } }[];
    }[];
    expect(feeds).toHaveLength(1);
    expect(feeds[0].location).toBe(feedUrl);
    expect(feeds[0].processing_results.at(-1)).toMatchObject({ status: "COMPLETED", fetched: { status: 200 }, product_counts: { original: 3, ingested: 3 } });

    // An item edited and another deleted: the catalog says it changed since publishing.
    await items.filter({ hasText: "Ribbed Glass Bud Vase in Terracotta" }).getByRole("button", { name: "Delete Ribbed Glass Bud Vase in Terracotta" }).click();
    await expect.poll(() => items.count()).toBe(2);
    await mug.getByRole("button", { name: "Edit Speckled Stoneware Mug in Sage" }).click();
    const dialog = page.getByRole("dialog", { name: "Edit item" });
    await dialog.getByLabel("Price").fill("");
    await dialog.getByRole("button", { name: "Save item" }).click();
    await mug.getByText("The item has no price.").waitFor();
    await page.getByText("The catalog changed since: publish again to send the changes.").waitFor();
  });

  it("adds a CSV file's rows on a phone, says when adding or updating fails, and removing the active catalog clears it from the page", async () => {
    // Two calls made to fail answer 409 once each: the browser logs them.
    const page = await browser.newPage({ viewport: { width: 390, height: 844 }, allowConsoleErrors: /409|Failed to load resource/ });
    await signUpVerified(page);
    await hydrated(page, "/pinterest-catalogs");
    await page.getByText("You have no catalogs yet. Name your first one to start.").waitFor();
    await page.getByLabel("New catalog name").fill("Spring");
    await page.getByRole("button", { name: "Create catalog" }).click();
    await page.getByRole("heading", { name: "Spring" }).waitFor();
    await page.getByLabel("New catalog name").fill("Summer");
    await page.getByRole("button", { name: "Create catalog" }).click();
    await page.getByRole("heading", { name: "Summer" }).waitFor();
    expect(new URL(page.url()).searchParams.get("catalog")).toBeTruthy();

    // Rows of a CSV file added on the catalog page itself; the spec's messages when adding or updating fails.
    await page
      .getByLabel("Add items from a CSV file")
      .setInputFiles({ name: "demo-products.csv", mimeType: "text/csv", buffer: Buffer.from(demoProductsCsv(new URL(page.url()).origin)) });
    await page.getByText("5 items added to Summer").first().waitFor();
    await expect.poll(() => page.getByRole("list", { name: "Items of Summer" }).getByRole("heading").count()).toBe(5);
    await page.route(
      "**/api/catalogs/addItemsToCatalog",
      (route) =>
        route.fulfill({ status: 409, contentType: "application/json", body: JSON.stringify({ error: "A catalog holds at most 2000 items; this one has 5." }) }),
      { times: 1 },
    );
    await page
      .getByLabel("Add items from a CSV file")
      .setInputFiles({ name: "more.csv", mimeType: "text/csv", buffer: Buffer.from(demoProductsCsv(new URL(page.url()).origin)) });
    await page.getByText("Error adding items to catalog: A catalog holds at most 2000 items; this one has 5.").first().waitFor();
    await page.route(
      "**/api/catalogs/updateCatalog/*",
      (route) => route.fulfill({ status: 409, contentType: "application/json", body: JSON.stringify({ error: "Please try again." }) }),
      { times: 1 },
    );
    await page.getByLabel("Name", { exact: true }).fill("Summer sale");
    await page.getByRole("button", { name: "Rename" }).click();
    await page.getByText("Error updating catalog: Please try again.").first().waitFor();
    await page.getByRole("button", { name: "Rename" }).click();
    await page.getByRole("heading", { name: "Summer sale" }).waitFor();

    await page.getByRole("button", { name: "Remove catalog" }).click();
    await page.getByRole("alertdialog", { name: "Remove Summer sale?" }).getByRole("button", { name: "Remove catalog" }).click();
    await page.getByText("Choose a catalog to see its items.").waitFor();
    expect(await page.getByRole("heading", { name: "Summer sale" }).count()).toBe(0);
    expect(await page.getByLabel("Catalog").locator("option").allTextContents()).toEqual(["Choose a catalog", "Spring (0 items)"]);
    expect(new URL(page.url()).searchParams.get("catalog")).toBeNull();
  });
});
