import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { signUpInBrowser } from "../support/accounts.ts";
import { useBrowser } from "../support/browser.ts";

// Pricing parity in Chromium (issue 7): a visitor the edge places in India sees every price 50 % lower
// (the full price struck through) and pays exactly that on the sandbox's Stripe Checkout. The local
// stack has no Cloudflare edge: in this development configuration (only) the cf-ipcountry header
// names the country (docs/decisions/015-pricing-parity.md), set here on the whole browser context.

const browser = useBrowser();

async function hydrated(page: Page, path: string) {
  await page.goto(path);
  await page.waitForSelector('html[data-hydrated="true"]', { state: "attached" });
}

/** A page whose every request says the edge saw `country`; answers it with the responses that failed. */
async function pageIn(country: string) {
  // Chromium asks the sandbox's checkout page for a favicon it does not have: that 404 is checked below.
  const page = await browser.newPage({ allowConsoleErrors: /status of 404/ });
  await page.context().setExtraHTTPHeaders({ "cf-ipcountry": country });
  const failed: string[] = [];
  page.on("response", (response) => {
    if (response.status() >= 400) failed.push(new URL(response.url()).pathname);
  });
  return { page, failed };
}

function card(list: Locator, planName: string) {
  return list.getByRole("listitem").filter({ has: list.page().getByRole("heading", { name: planName, exact: true }) });
}

async function prices(card: Locator) {
  await card.locator("s").waitFor();
  return { full: await card.locator("s").textContent(), charged: await card.locator(".plan-card__amount").textContent() };
}

describe("pricing parity", () => {
  it("shows a parity country's prices on /pricing and charges them on Stripe Checkout", async () => {
    const { page, failed } = await pageIn("IN");
    await signUpInBrowser(page);
    await hydrated(page, "/pricing");
    await page.getByText("Pricing for India: 50% off every plan, applied at checkout.").waitFor();

    const monthly = page.getByRole("list", { name: "Monthly plans" });
    // Stripe's rounding: 50 % of 1699 cents is a 850-cent discount, so 8.49.
    expect(await prices(card(monthly, "Starter"))).toEqual({ full: "$16.99", charged: "$8.49" });
    expect(await prices(card(monthly, "Agency"))).toEqual({ full: "$69.99", charged: "$34.99" });
    await page.getByLabel("Annual").check();
    expect(await prices(card(page.getByRole("list", { name: "Annual plans" }), "Pro"))).toEqual({ full: "$299", charged: "$149.50" });
    await page.getByLabel("Monthly").check();
    // PayPal and Shopify charge the same parity prices: they stay, with the note.
    for (const method of ["PayPal", "Shopify", "Card"]) {
      await page.getByLabel(method, { exact: true }).check();
      expect(await prices(card(monthly, "Starter")), method).toEqual({ full: "$16.99", charged: "$8.49" });
      await page.getByTestId("parity-note").waitFor();
    }

    await card(monthly, "Agency").getByRole("button", { name: "Start Plan: Agency monthly" }).click();
    await page.getByRole("button", { name: "Subscribe", exact: true }).waitFor();
    const amount = page.locator(".amount");
    expect(await amount.textContent()).toBe("$69.99$34.99");
    expect(await amount.locator("s").textContent()).toBe("$69.99");
    await page.getByText("Pricing parity (50% off): −$35.00").waitFor();
    await page.getByRole("button", { name: "Subscribe", exact: true }).click();

    await page.getByText("Your subscription is active: welcome to the Agency plan!").waitFor();
    await expect.poll(() => page.locator("#manage").getByTestId("current-plan").textContent()).toBe("Agency");
    expect(failed.filter((path) => path !== "/favicon.ico")).toEqual([]);
  });

  it("shows the lifetime price less the parity, and the checkout charges it", async () => {
    const { page, failed } = await pageIn("BR");
    await signUpInBrowser(page);
    await hydrated(page, "/lifetime");
    await page.getByText("Pricing for Brazil: 40% off every plan, applied at checkout.").waitFor();
    const lifetime = card(page.getByRole("list", { name: "Lifetime plans" }), "Lifetime");
    expect(await prices(lifetime)).toEqual({ full: "$249", charged: "$149.40" });

    // The development configuration opens the payment on a new tab.
    const [tab] = await Promise.all([page.context().waitForEvent("page"), lifetime.getByRole("button", { name: "Get Lifetime" }).click()]);
    await tab.getByRole("button", { name: "Pay", exact: true }).waitFor();
    expect(await tab.locator(".amount").textContent()).toBe("$249.00$149.40");
    await tab.getByRole("button", { name: "Pay", exact: true }).click();
    await tab.getByText("Thank you! Your Lifetime plan is now active.").waitFor();
    expect(failed).toEqual([]);
  });

  it("shows full prices and no note where there is no parity", async () => {
    const { page, failed } = await pageIn("US");
    await hydrated(page, "/pricing");
    const monthly = page.getByRole("list", { name: "Monthly plans" });
    await card(monthly, "Starter").getByText("$16.99").waitFor();
    expect(await monthly.locator("s").count()).toBe(0);
    expect(await page.getByTestId("parity-note").count()).toBe(0);
    expect(failed).toEqual([]);
  });
});
