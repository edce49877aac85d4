import { describe, expect, it } from "vitest";
import { DEMO_PRODUCTS } from "../../sandbox/demo-shop/catalog.ts";
import { signUpInBrowser } from "./support/accounts.ts";
import { sandboxUrl, useBrowser } from "./support/browser.ts";

// Issue 14, WooCommerce (decision 030), in Chromium against the running stack: the store's own
// authorisation page, Approve, the stand-in POSTing the keys to the app's callback over the network,
// the browser's return carrying its cookie, then the store's products through our API.

const browser = useBrowser();

describe("connecting a WooCommerce store in a browser", () => {
  it("approves on the store's page, comes back connected, and lists the store's products", async () => {
    const page = await browser.newPage();
    await signUpInBrowser(page);
    const slug = `e2e-${Date.now().toString(36)}`;
    const store = `${sandboxUrl()}/woocommerce/${slug}`;
    await fetch(`${sandboxUrl()}/__sandbox/woocommerce/stores/${slug}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "Kiln & Co" }) });

    const started = await page.evaluate(async (storeUrl) => {
      const response = await fetch("/api/woocommerce/connect", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${localStorage.getItem("FBIdToken")}` },
        body: JSON.stringify({ storeUrl, redirectUrl: "/profile" }),
      });
      return { status: response.status, body: (await response.json()) as { authorizeUrl?: string; error?: string } };
    }, store);
    expect(started.status, started.body.error).toBe(200);

    await page.goto(started.body.authorizeUrl!);
    await page.getByRole("heading", { name: "Pinboard Studio would like to connect to your store" }).waitFor();
    await page.getByRole("link", { name: "Approve" }).click();
    await page.waitForURL(/\/profile\?shopConnected=/);
    expect(new URL(page.url()).searchParams.get("shopConnected")).toBe("Kiln & Co");

    const listed = await page.evaluate(async (storeUrl) => {
      const headers = { authorization: `Bearer ${localStorage.getItem("FBIdToken")}` };
      const shops = (await (await fetch("/api/shops", { headers })).json()) as { authorizedShops: { id: string; shopUrl: string; shopType: string }[] };
      const shop = shops.authorizedShops.find((candidate) => candidate.shopUrl === storeUrl);
      if (!shop) return null;
      const response = await fetch(`/api/woocommerce/products?shopID=${shop.id}&pageNumber=1&searchInput=`, { headers });
      return { shopType: shop.shopType, status: response.status, page: (await response.json()) as { listings: { title: string }[]; count: number } };
    }, store);
    expect(listed).not.toBeNull();
    expect(listed!.shopType).toBe("WooCommerce");
    expect(listed!.status).toBe(200);
    expect(listed!.page.count).toBe(DEMO_PRODUCTS.filter((product) => product.status === "active").length);
    expect(listed!.page.listings).toHaveLength(50);
  });
});
