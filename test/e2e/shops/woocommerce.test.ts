import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DEMO_PRODUCTS } from "../../../sandbox/demo-shop/catalog.ts";
import { signUpVerified } from "../support/accounts.ts";
import { sandboxUrl, useBrowser } from "../support/browser.ts";

// Issue 14, WooCommerce (decision 030), in Chromium as a shop owner does it: Connect WooCommerce on
// /products, the store's own authorisation page, Approve, the stand-in POSTing the keys to the app's
// callback over the network, the browser's return carrying its cookie, then the store's products on
// the page: search, choose three, generate their pins.

const browser = useBrowser();
const productCards = (page: Page) => page.getByRole("list", { name: "Products" }).getByRole("listitem");
const pinCards = (page: Page) => page.getByRole("list", { name: "Generated pins" }).getByRole("listitem");

describe("a WooCommerce store on the products page", () => {
  it("connects through the store's approval page, lists and searches its products, and generates pins from three", async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await signUpVerified(page);
    const slug = `e2e-${Date.now().toString(36)}`;
    const store = `${sandboxUrl()}/woocommerce/${slug}`;
    await fetch(`${sandboxUrl()}/__sandbox/woocommerce/stores/${slug}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "Kiln & Co" }),
    });

    await page.goto("/products");
    await page.waitForSelector('html[data-hydrated="true"]', { state: "attached" });
    await page.getByRole("button", { name: "Connect WooCommerce" }).click();
    const ask = page.getByRole("dialog", { name: "Connect your WooCommerce store" });
    await ask.getByLabel("Your WordPress site's address").fill(store);
    await ask.getByRole("button", { name: "Connect" }).click();

    await page.getByRole("heading", { name: "Pinboard Studio would like to connect to your store" }).waitFor();
    await page.getByRole("link", { name: "Approve" }).click();
    await page.waitForURL((url) => url.pathname === "/products");
    await page.getByText("Kiln & Co is connected").first().waitFor();
    await expect.poll(() => new URL(page.url()).search, { message: "the address is cleaned" }).toBe("");

    // The store's products, 50 a page, with their count.
    const active = DEMO_PRODUCTS.filter((product) => product.status === "active");
    await expect.poll(() => productCards(page).count(), { timeout: 20_000 }).toBe(50);
    expect(await page.getByLabel("Products from").locator("option:checked").textContent()).toContain("Kiln & Co");
    expect(await productCards(page).first().textContent()).toContain("$");

    await page.getByLabel("Search products").fill("bud vase");
    const vases = active.filter((product) => product.kind === "vase");
    await expect.poll(() => productCards(page).count(), { timeout: 20_000 }).toBe(vases.length);
    for (const product of vases.slice(0, 3)) {
      await productCards(page).filter({ hasText: product.title }).getByRole("checkbox").check();
    }
    await page.getByText("3 products chosen, 15 pins.").waitFor();
    await page.getByRole("button", { name: "Generate pins" }).click();
    await page.waitForURL((url) => url.pathname === "/generate");
    await expect.poll(() => pinCards(page).count(), { timeout: 30_000 }).toBe(15);
    const titles = await pinCards(page).getByRole("heading").allTextContents();
    for (const product of vases.slice(0, 3)) expect(titles.filter((title) => title === product.title)).toHaveLength(5);
  });
});
