import { readFile } from "node:fs/promises";
import { it } from "vitest";
import { signUpVerified } from "./support/accounts.ts";
import { useBrowser } from "./support/browser.ts";
const browser = useBrowser();
it("shots", async () => {
  for (const [name, viewport] of [["desk", { width: 1280, height: 900 }], ["phone", { width: 390, height: 844 }]] as const) {
    const page = await browser.newPage({ viewport });
    await signUpVerified(page);
    await page.goto("/products");
    await page.waitForSelector('html[data-hydrated="true"]', { state: "attached" });
    await page.screenshot({ path: `/tmp/products-empty-${name}.png`, fullPage: true });
    const demo = await (await page.request.get("/demo-products.csv")).text();
    await page.getByLabel("CSV file").setInputFiles({ name: "demo.csv", mimeType: "text/csv", buffer: Buffer.from(demo + "Bad,,x,USD,nope,,\n") });
    await page.getByRole("button", { name: "Upload CSV" }).click();
    await page.getByText("Loaded 5 products").waitFor();
    await page.getByRole("list", { name: "Products" }).getByRole("checkbox").first().check();
    await page.waitForTimeout(500);
    await page.screenshot({ path: `/tmp/products-${name}.png`, fullPage: true });
  }
}, 120_000);
