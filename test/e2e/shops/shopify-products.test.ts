import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DEMO_PRODUCTS } from "../../../sandbox/demo-shop/catalog.ts";
import { signUpVerified } from "../support/accounts.ts";
import { redeemStarterCode } from "../support/admin.ts";
import { useBrowser } from "../support/browser.ts";
import { connectProfile, scheduleAllPins, uniquePinterestUsername } from "../support/pinterest.ts";

// Issue 14, Shopify (decision 029), in Chromium as a shop owner does it: Connect Shopify on /products,
// the store's install page, back with the store's products (all statuses by default, the status filter,
// next and previous pages by link), search, choose three products, generate 15 pins and schedule them.

const browser = useBrowser();
const productCards = (page: Page) => page.getByRole("list", { name: "Products" }).getByRole("listitem");
const pinCards = (page: Page) => page.getByRole("list", { name: "Generated pins" }).getByRole("listitem");

describe("a Shopify store on the products page", () => {
  it("connects the demo store, filters by status, pages by link, and generates and schedules 15 pins from three products", async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const account = await signUpVerified(page);
    await redeemStarterCode(page, account.email);
    await connectProfile(page, uniquePinterestUsername());

    await page.goto("/products");
    await page.waitForSelector('html[data-hydrated="true"]', { state: "attached" });
    await page.getByRole("button", { name: "Connect Shopify" }).click();
    const ask = page.getByRole("dialog", { name: "Connect your Shopify store" });
    const shop = `kiln-${Date.now().toString(36)}.myshopify.com`;
    await ask.getByLabel("Your Shopify store's address").fill(shop);
    await ask.getByRole("button", { name: "Connect" }).click();
    await page.getByRole("button", { name: "Install app" }).click();
    await page.waitForURL((url) => url.pathname === "/products");
    await page
      .getByText(/ is connected$/)
      .first()
      .waitFor();

    // Every product of the store (status 'all'), 50 a page, paged by link.
    await expect.poll(() => productCards(page).count(), { timeout: 20_000 }).toBe(50);
    const firstPage = await productCards(page).first().textContent();
    await page.getByRole("button", { name: "Next", exact: true }).click();
    await expect.poll(() => productCards(page).first().textContent(), { timeout: 20_000 }).not.toBe(firstPage);
    await page.getByRole("button", { name: "Previous", exact: true }).click();
    await expect.poll(() => productCards(page).first().textContent(), { timeout: 20_000 }).toBe(firstPage);

    const drafts = DEMO_PRODUCTS.filter((product) => product.status === "draft");
    await page.getByLabel("Status", { exact: true }).selectOption({ label: "Draft" });
    await expect.poll(() => productCards(page).count(), { timeout: 20_000 }).toBe(drafts.length);
    await page.getByLabel("Status", { exact: true }).selectOption({ label: "Active" });
    await page.getByLabel("Search products").fill("candle");
    const candles = DEMO_PRODUCTS.filter((product) => product.status === "active" && product.kind === "candle");
    await expect.poll(() => productCards(page).count(), { timeout: 20_000 }).toBe(candles.length);

    for (const product of candles.slice(0, 3)) await productCards(page).filter({ hasText: product.title }).getByRole("checkbox").check();
    await page.getByText("3 products chosen, 15 pins.").waitFor();
    await page.getByRole("button", { name: "Generate pins" }).click();
    await page.waitForURL((url) => url.pathname === "/generate");
    await expect.poll(() => pinCards(page).count(), { timeout: 30_000 }).toBe(15);

    await scheduleAllPins(page, 15);
  });
});
