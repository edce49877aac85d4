import { readFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { signUpVerified } from "../support/accounts.ts";
import { seriousAxeViolations } from "../support/axe.ts";
import { useBrowser } from "../support/browser.ts";
import { overflowing } from "../support/layout.ts";

// /products (issue 14): the sign-in prompt, the demo CSV file uploaded and two of its rows turned into
// pins on /generate with their titles and prices, a bad file's messages, 10,000 rows, and a phone.

const browser = useBrowser();

async function openProducts(page: Page) {
  await page.goto("/products");
  await page.waitForSelector('html[data-hydrated="true"]', { state: "attached" });
  await page.getByRole("heading", { name: "Add your shop" }).waitFor();
}

const productCards = (page: Page) => page.getByRole("list", { name: "Products" }).getByRole("listitem");
const pinCards = (page: Page) => page.getByRole("list", { name: "Generated pins" }).getByRole("listitem");

async function upload(page: Page, name: string, text: string) {
  await page.getByLabel("CSV file").setInputFiles({ name, mimeType: "text/csv", buffer: Buffer.from(text) });
  await page.getByRole("button", { name: "Upload CSV" }).click();
}

describe("the products page", () => {
  it("asks logged-out visitors to log in or sign up, and is in the navigation", async () => {
    const page = await browser.newPage();
    await page.goto("/");
    await page.waitForSelector('html[data-hydrated="true"]', { state: "attached" });
    await page.getByRole("banner").getByRole("link", { name: "Products", exact: true }).click();
    await page.getByText("Login or sign up to turn your shop's products into pins.").waitFor();
    expect(new URL(page.url()).pathname).toBe("/products");
    expect(await page.getByRole("link", { name: "Login" }).last().getAttribute("href")).toBe("/login?redirectTo=%2Fproducts");
    expect(await page.getByRole("heading", { name: "Add your shop" }).count()).toBe(0);
  });

  it("uploads the demo CSV file and generates pins from two of its rows, with their titles and prices", async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await signUpVerified(page);
    await openProducts(page);

    // The demo file shows every column, with pictures this site serves.
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download the demo CSV file" }).click()]);
    expect(download.suggestedFilename()).toBe("demo-products.csv");
    const demo = await readFile((await download.path())!, "utf8");
    expect(demo.split("\r\n")[0]).toBe("title,description,price,currency,url,images,categories,numberOfPinsToGenerate");
    expect(demo).toContain(`${new URL(page.url()).origin}/demo-products/speckled-stoneware-mug-in-sage-1.jpg`);

    await upload(page, "demo-products.csv", demo);
    await page.getByText("Loaded 5 products from demo-products.csv.").waitFor();
    expect(await productCards(page).count()).toBe(5);
    expect(await page.getByLabel("Products from").locator("option:checked").textContent()).toBe("CSV file: demo-products.csv");
    const mug = productCards(page).filter({ hasText: "Speckled Stoneware Mug in Sage" });
    expect(await mug.getByText("$24.50").isVisible()).toBe(true);
    expect(await mug.getByText("Kitchen & Dining · Mugs").isVisible()).toBe(true);
    // Its picture is served by this site and shows.
    await expect.poll(() => mug.locator("img").evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBe(1200);
    // The file's numberOfPinsToGenerate column, else 5.
    expect(await page.getByLabel("Pins from Stonewashed Linen Cushion Cover in Sage").inputValue()).toBe("3");
    expect(await page.getByLabel("Pins from Speckled Stoneware Mug in Sage").inputValue()).toBe("5");

    // Search the file's rows.
    await page.getByLabel("Search products").fill("vase");
    await expect.poll(() => productCards(page).count()).toBe(1);
    await page.getByLabel("Search products").fill("");
    await expect.poll(() => productCards(page).count()).toBe(5);

    await mug.getByRole("checkbox").check();
    // The page with products, chosen ones and the generate bar, as axe-core sees it.
    expect(await seriousAxeViolations(page, "/products with the demo file's products")).toEqual([]);
    const vase = productCards(page).filter({ hasText: "Ribbed Glass Bud Vase in Terracotta" });
    await vase.getByRole("checkbox").check();
    await page.getByLabel("Pins from Ribbed Glass Bud Vase in Terracotta").fill("3");
    await page.getByText("2 products chosen, 8 pins.").waitFor();

    await page.getByRole("button", { name: "Generate pins" }).click();
    await page.waitForURL((url) => url.pathname === "/generate");
    await expect.poll(() => pinCards(page).count(), { timeout: 30_000 }).toBe(8);
    await page.getByText("8 pins generated").first().waitFor();
    const titles = await pinCards(page).getByRole("heading").allTextContents();
    expect(titles.filter((title) => title === "Speckled Stoneware Mug in Sage")).toHaveLength(5);
    expect(titles.filter((title) => title === "Ribbed Glass Bud Vase in Terracotta")).toHaveLength(3);

    // Each pin carries its product's price and link, and its pictures to choose from (templates with picture boxes).
    const vasePins = titles.flatMap((title, index) => (title === "Ribbed Glass Bud Vase in Terracotta" ? [index + 1] : []));
    const pictureChoices: number[] = [];
    for (const number of vasePins) {
      await page.getByRole("button", { name: `Edit pin ${number}`, exact: true }).click();
      const dialog = page.getByRole("dialog", { name: `Edit pin ${number}` });
      expect(await dialog.getByLabel("Price", { exact: true }).inputValue()).toBe("$34.50");
      expect(await dialog.getByLabel("URL", { exact: true }).inputValue()).toBe("https://shop.example.com/products/ribbed-glass-bud-vase-in-terracotta");
      const firstSlot = dialog.locator(".post-editor__images").first();
      pictureChoices.push((await firstSlot.count()) > 0 ? await firstSlot.getByRole("img").count() : 0);
      await dialog.getByRole("button", { name: "Done" }).click();
      await dialog.waitFor({ state: "detached" });
    }
    expect(Math.max(...pictureChoices), "the vase's three pictures feed the templates").toBe(3);
    await page.getByRole("button", { name: "Edit pin 1", exact: true }).click();
    expect(await page.getByRole("dialog", { name: "Edit pin 1" }).getByLabel("Price", { exact: true }).inputValue()).toBe("$24.50");
  });

  it("says what is wrong with a missing, unreadable or partly bad file, and loads the good rows", async () => {
    const page = await browser.newPage();
    await signUpVerified(page);
    await openProducts(page);

    await page.getByRole("button", { name: "Upload CSV" }).click();
    await page.getByRole("alert").filter({ hasText: "Please select a CSV file to upload." }).waitFor();

    await upload(page, "products.txt", "title,url,images\n");
    await page.getByRole("alert").filter({ hasText: 'Please select a CSV file to upload. "products.txt" is not a .csv file.' }).waitFor();

    await upload(page, "no-pictures.csv", "title,description,url\nMug,Nice,https://shop.example.com/mug\n");
    await page.getByRole("alert").filter({ hasText: "Failed to parse CSV file. The header row (row 1) has no images column." }).waitFor();

    const origin = new URL(page.url()).origin;
    const good = (title: string) =>
      `"${title}",A thing,12.00,EUR,https://shop.example.com/p,"${origin}/demo-products/cedar-and-fig-soy-candle-in-oat-1.jpg, ${origin}/demo-products/cedar-and-fig-soy-candle-in-oat-2.jpg",Candles`;
    await upload(
      page,
      "mixed.csv",
      [
        "title,description,price,currency,url,images,categories",
        good("Good candle"),
        ",No title,12.00,EUR,https://shop.example.com/p,https://shop.example.com/a.jpg,",
        "Bad price,x,twelve,EUR,https://shop.example.com/p,https://shop.example.com/a.jpg,",
        "",
        good("Another good candle"),
      ].join("\n"),
    );
    await page.getByText("Loaded 2 products from mixed.csv.").waitFor();
    const problems = page.getByRole("region", { name: "2 rows could not be loaded:" });
    expect(await problems.getByRole("listitem").allTextContents()).toEqual([
      "Row 3, title: is empty: each product needs a title.",
      'Row 4, price: "twelve" is not a price. Write it as a number such as 24.00, with the currency in the currency column.',
    ]);
    expect(await productCards(page).getByText("Good candle", { exact: true }).count()).toBe(1);
    expect(await productCards(page).filter({ hasText: "Another good candle" }).getByText("€12.00").count()).toBe(1);
  });

  it("loads 10,000 rows, paged 50 at a time, and fits a phone", async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await signUpVerified(page);
    await openProducts(page);
    const origin = new URL(page.url()).origin;
    const lines = ["title,price,currency,url,images"];
    for (let i = 1; i <= 10_000; i++)
      lines.push(
        `Product ${i},${(i % 90) + 10}.00,USD,https://shop.example.com/products/${i},${origin}/demo-products/speckled-stoneware-mug-in-sage-${(i % 3) + 1}.jpg`,
      );
    await upload(page, "big.csv", lines.join("\n"));
    await page.getByText("Loaded 10,000 products from big.csv.").waitFor({ timeout: 20_000 });
    expect(await productCards(page).count()).toBe(50);
    expect(await page.getByText("10,000 products", { exact: true }).isVisible()).toBe(true);

    await page.getByRole("navigation", { name: "Pages" }).getByRole("button", { name: "Page 200" }).click();
    await expect.poll(() => productCards(page).first().locator(".product-card__title").textContent()).toBe("Product 9951");
    expect(await productCards(page).count()).toBe(50);

    // Choose a whole page: the bar counts its pins and says a generation holds 200.
    await page.getByLabel("Select all on this page").check();
    await page.getByText("50 products chosen, 250 pins. One generation holds at most 200 pins: the first 200 are made.").waitFor();
    expect(await overflowing(page)).toEqual([]);
    expect(await seriousAxeViolations(page, "/products on a phone with 10,000 rows")).toEqual([]);
  });
});

describe("the products page with connected shops (the shop calls answered by the test)", () => {
  // The listing routes are built by the shop connections of issue 14; here the browser's calls to them are
  // answered by the test, so the page's own behaviour is checked: the switcher, Shopify's status filter and
  // links, numbered pages, the server's message on failure, Reconnect, and removal with a confirmation.
  const shopView = (id: string, shopType: string, shopName: string, extra: object = {}) => ({
    id,
    shopType,
    shopName,
    shopUrl: null,
    isActive: false,
    status: "ok",
    ...extra,
  });
  const listing = (shop: string, n: number) => ({
    id: String(n),
    title: `${shop} product ${n}`,
    description: "",
    images: [],
    categories: [],
    price: "10.00",
    currency: "GBP",
    url: `https://shop.example.com/${shop}/${n}`,
  });

  it("switches shops, filters and pages their listings, shows failures, asks to reconnect and confirms removal", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, allowConsoleErrors: /Failed to load resource/ });
    await signUpVerified(page);
    let shops = [
      shopView("s1", "Shopify", "Sage Studio", { isActive: true }),
      shopView("e1", "Etsy", "Oat House"),
      shopView("w1", "WooCommerce", "Ink Shop", { status: "reauth" }),
    ];
    const asked: string[] = [];
    await page.route(/\/api\/(shops|etsyAPI|shopifyAPI|woocommerce)/, async (route) => {
      const url = new URL(route.request().url());
      asked.push(`${route.request().method()} ${url.pathname}${url.search}`);
      const json = (body: unknown, status = 200) => route.fulfill({ status, contentType: "application/json", body: JSON.stringify(body) });
      if (url.pathname === "/api/shops") return json({ authorizedShops: shops });
      if (url.pathname === "/api/etsyAPI/activateShopProfile") return json({ authorizedShops: shops });
      if (url.pathname.startsWith("/api/etsyAPI/removeShopProfile/")) {
        shops = shops.filter((shop) => shop.id !== url.pathname.split("/").pop());
        return json({ authorizedShops: shops });
      }
      if (url.pathname === "/api/shopifyAPI/getShopifyShopListings") {
        const second = url.searchParams.get("paginationLink") === "after-50";
        const from = second ? 51 : 1;
        return json({
          listings: Array.from({ length: second ? 20 : 50 }, (_, i) => listing("shopify", from + i)),
          count: 70,
          nextPageLink: second ? null : "after-50",
          previousPageLink: second ? "before-51" : null,
        });
      }
      if (url.pathname === "/api/etsyAPI/getEtsyShopListings") {
        if (url.searchParams.get("searchInput") === "broken") return json({ error: "Unable to get Etsy shop listings: Etsy is down for maintenance" }, 502);
        const pageNumber = Number(url.searchParams.get("pageNumber"));
        return json({ listings: Array.from({ length: pageNumber === 3 ? 10 : 50 }, (_, i) => listing("etsy", (pageNumber - 1) * 50 + i + 1)), count: 110 });
      }
      return route.continue();
    });

    await openProducts(page);
    // The active shop opens: Shopify, status 'all', next and previous links.
    await expect.poll(() => productCards(page).count()).toBe(50);
    expect(await page.getByLabel("Status").inputValue()).toBe("all");
    expect(asked).toContain("GET /api/shopifyAPI/getShopifyShopListings?shopID=s1&searchInput=&paginationLink=&productStatus=all");
    const pages = page.getByRole("navigation", { name: "Pages" });
    await pages.getByRole("button", { name: "Next" }).click();
    await expect.poll(() => productCards(page).first().textContent()).toContain("shopify product 51");
    expect(await pages.getByText("Page 2").isVisible()).toBe(true);
    expect(await productCards(page).first().getByText("£10.00").isVisible()).toBe(true);
    await page.getByLabel("Status").selectOption("draft");
    await expect.poll(() => asked.at(-1)).toBe("GET /api/shopifyAPI/getShopifyShopListings?shopID=s1&searchInput=&paginationLink=&productStatus=draft");

    // Choices stay when the page or the shop changes.
    await productCards(page).first().getByRole("checkbox").check();
    await page.getByLabel("Products from").selectOption({ label: "Oat House (Etsy)" });
    await expect.poll(() => asked).toContain("POST /api/etsyAPI/activateShopProfile");
    await expect.poll(() => productCards(page).first().textContent()).toContain("etsy product 1");
    expect(await page.getByLabel("Status").count(), "Etsy has no status filter").toBe(0);
    await pages.getByRole("button", { name: "Page 3" }).click();
    await expect.poll(() => productCards(page).count()).toBe(10);
    expect(asked.at(-1)).toBe("GET /api/etsyAPI/getEtsyShopListings?shopID=e1&pageNumber=3&searchInput=");
    await page.getByLabel("Select all on this page").check();
    await page.getByText("11 products chosen, 55 pins.").waitFor();

    // A failed call shows the server's message as it is.
    await page.getByLabel("Search products").fill("broken");
    await page.getByRole("alert").filter({ hasText: "Unable to get Etsy shop listings: Etsy is down for maintenance" }).waitFor();
    expect(asked.at(-1)).toBe("GET /api/etsyAPI/getEtsyShopListings?shopID=e1&pageNumber=1&searchInput=broken");

    // A shop that needs reconnecting says so instead of listing.
    await page.getByLabel("Products from").selectOption({ label: "Ink Shop (WooCommerce), needs reconnecting" });
    await page.getByRole("button", { name: "Reconnect" }).waitFor();
    expect(asked.some((call) => call.startsWith("GET /api/woocommerce/products"))).toBe(false);

    // Removing asks first.
    await page.getByRole("button", { name: "Remove shop" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Remove Ink Shop?" });
    await confirm.getByRole("button", { name: "Cancel" }).click();
    expect(asked.some((call) => call.startsWith("DELETE"))).toBe(false);
    await page.getByRole("button", { name: "Remove shop" }).click();
    await confirm.getByRole("button", { name: "Remove shop" }).click();
    await expect.poll(() => asked).toContain("DELETE /api/etsyAPI/removeShopProfile/w1");
    await expect.poll(() => page.getByLabel("Products from").locator("option").allTextContents()).not.toContain("Ink Shop (WooCommerce), needs reconnecting");
    expect(await page.getByRole("alertdialog").count()).toBe(0);
  });
});
