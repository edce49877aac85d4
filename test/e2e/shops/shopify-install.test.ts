import { describe, expect, inject, it } from "vitest";
import { signUpInBrowser } from "../support/accounts.ts";
import { seriousAxeViolations } from "../support/axe.ts";
import { appUrl, useBrowser } from "../support/browser.ts";

// An install that begins on Shopify's side before the merchant has an account here (decision 029):
// Shopify opens our App URL, the merchant installs the app, lands on sign-up, and the store is
// theirs once they sign up in that browser.

const browser = useBrowser();

describe("installing from Shopify before signing up", () => {
  it("keeps the store for the account made in that browser", async () => {
    const page = await browser.newPage({ allowConsoleErrors: /status of 404/ });
    const shop = `harbour-${Date.now().toString(36)}.myshopify.com`;
    await page.goto(`${inject("sandboxUrl")}/__sandbox/shopify/launch?${new URLSearchParams({ shop, appUrl: `${appUrl()}/api/shopifyAPI/install` })}`);
    await page.getByRole("button", { name: "Install app" }).click();
    await page.waitForURL((url) => url.pathname === "/signup");
    const notice = page.getByRole("status").filter({ hasText: "It will be connected to the account you create here." });
    await notice.waitFor();
    expect(await notice.textContent()).toContain("Harbour");
    expect(await seriousAxeViolations(page, "/signup with an installed Shopify store")).toEqual([]);

    await signUpInBrowser(page);
    // On a slow phone the store list can answer before the store picker's code has loaded: hold that
    // code until the list has arrived, so the page must cope with the list coming first (it once
    // failed to hydrate here, React error 421, on a loaded machine).
    const storesAnswered = page.waitForResponse((response) => new URL(response.url()).pathname === "/api/shops");
    await page.route(/\/assets\/shopify-store-[^/]*\.js$/, async (route) => {
      await (await storesAnswered).finished();
      // Two frames: time for the page to read the list and set it.
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      await route.continue();
    });
    await page.goto("/pricing?payWith=shopify");
    const store = page.getByLabel("Shopify store", { exact: true });
    await store.waitFor();
    expect(await store.locator("option:checked").textContent()).toMatch(/^Harbour /);
  });
});
