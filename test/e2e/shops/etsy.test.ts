import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DEMO_PRODUCTS } from "../../../sandbox/demo-shop/catalog.ts";
import { signUpVerified } from "../support/accounts.ts";
import { redeemStarterCode } from "../support/admin.ts";
import { sandboxUrl, useBrowser } from "../support/browser.ts";
import { connectProfile, scheduleAllPins, uniquePinterestUsername } from "../support/pinterest.ts";

// Issue 14, Etsy (decision 028), in Chromium as a shop owner does it: Connect Etsy on /products, Etsy's
// consent page, back to /products with the shop's listings, search, choose three products, generate
// 15 pins and schedule them to a Pinterest board.

const browser = useBrowser();
const productCards = (page: Page) => page.getByRole("list", { name: "Products" }).getByRole("listitem");
const pinCards = (page: Page) => page.getByRole("list", { name: "Generated pins" }).getByRole("listitem");

describe("an Etsy shop on the products page", () => {
  it("connects through Etsy's consent page, searches its listings, and generates and schedules 15 pins from three products", async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const account = await signUpVerified(page);
    // A shop owner on the Starter plan: 15 pins need more than Free's 10 credits.
    await redeemStarterCode(page, account.email);
    const pinterest = uniquePinterestUsername();
    await connectProfile(page, pinterest);

    await page.goto("/products");
    await page.waitForSelector('html[data-hydrated="true"]', { state: "attached" });
    await page.getByRole("button", { name: "Connect Etsy" }).click();
    await page.waitForURL((url) => url.href.startsWith(sandboxUrl()));
    const shopName = `Kiln${Date.now().toString(36).slice(-8)}`;
    await page.getByLabel("Etsy shop name").fill(shopName);
    await page.getByRole("button", { name: "Allow access" }).click();
    await page.waitForURL((url) => url.pathname === "/products");
    await page.getByText(`${shopName} is connected`).first().waitFor();

    const active = DEMO_PRODUCTS.filter((product) => product.status === "active");
    await expect.poll(() => productCards(page).count(), { timeout: 20_000 }).toBe(50);
    await page.getByLabel("Search products").fill("mug");
    const mugs = active.filter((product) => product.kind === "mug");
    await expect.poll(() => productCards(page).count(), { timeout: 20_000 }).toBe(mugs.length);
    for (const product of mugs.slice(0, 3)) await productCards(page).filter({ hasText: product.title }).getByRole("checkbox").check();
    await page.getByText("3 products chosen, 15 pins.").waitFor();
    await page.getByRole("button", { name: "Generate pins" }).click();
    await page.waitForURL((url) => url.pathname === "/generate");
    await expect.poll(() => pinCards(page).count(), { timeout: 30_000 }).toBe(15);
    const titles = await pinCards(page).getByRole("heading").allTextContents();
    for (const product of mugs.slice(0, 3)) expect(titles.filter((title) => title === product.title)).toHaveLength(5);

    // Schedule all 15 to the queue; five pins share each product's link, so the user lets them through.
    await scheduleAllPins(page, 15);
  });
});
