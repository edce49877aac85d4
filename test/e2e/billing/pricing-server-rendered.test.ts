import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { signUpInBrowser } from "../support/accounts.ts";
import { useBrowser } from "../support/browser.ts";

// /pricing and /lifetime rendered on the server (issue 17): with JavaScript off, a visitor sees the
// plans, what each includes and the prices of their own country (the local stack has no Cloudflare
// edge: in this development configuration the cf-ipcountry header names the country, decision 015),
// chooses monthly or annual, and reaches login with the plan chosen. With JavaScript on, hydration
// keeps the server's prices: the very elements the HTML parser made stay, with the same text.

const browser = useBrowser();

async function pageIn(country: string, javaScriptEnabled: boolean) {
  const page = await browser.newPage({ javaScriptEnabled });
  await page.context().setExtraHTTPHeaders({ "cf-ipcountry": country });
  return page;
}

function card(list: Locator, planName: string) {
  return list.getByRole("listitem").filter({ has: list.page().getByRole("heading", { name: planName, exact: true }) });
}

async function prices(card: Locator) {
  const full = card.locator("s");
  return { full: (await full.count()) > 0 ? await full.textContent() : null, charged: await card.locator(".plan-card__amount").textContent() };
}

describe("/pricing without JavaScript", () => {
  it("shows the plans, what they include and the parity prices, switches to annual and sends a plan's button to login", async () => {
    const page = await pageIn("IN", false);
    await page.goto("/pricing");
    expect(await page.getByText("Loading plans", { exact: false }).count()).toBe(0);
    await page.getByText("Pricing for India: 50% off every plan, applied at checkout.").waitFor();
    const monthly = page.getByRole("list", { name: "Monthly plans" });
    expect(await prices(card(monthly, "Starter"))).toEqual({ full: "$16.99", charged: "$8.49" });
    expect(await prices(card(monthly, "Agency"))).toEqual({ full: "$69.99", charged: "$34.99" });
    expect(await prices(card(monthly, "Free"))).toEqual({ full: null, charged: "$0" });
    expect(await card(monthly, "Pro").getByText("credits per month").textContent()).toBe("400 credits per month");
    expect(await card(monthly, "Growth").getByText("Priority support").count()).toBe(1);
    expect(await card(monthly, "Starter").getByText("7-day free trial for new subscribers", { exact: false }).count()).toBe(1);

    // The period switch is a form: choosing Annual and submitting it shows the annual prices.
    await page.getByLabel("Annual", { exact: true }).check();
    await page.getByRole("button", { name: "Show these prices" }).click();
    await page.waitForURL((url) => url.searchParams.get("interval") === "year");
    const annual = page.getByRole("list", { name: "Annual plans" });
    expect(await prices(card(annual, "Pro"))).toEqual({ full: "$299", charged: "$149.50" });
    expect(await page.getByLabel("Annual", { exact: true }).isChecked()).toBe(true);

    // A plan's button is a link: log in (or sign up from there), then back to start that plan.
    await card(annual, "Pro").getByRole("link", { name: "Start free trial: Pro annual" }).click();
    await page.waitForURL((url) => url.pathname === "/login");
    expect(new URL(page.url()).searchParams.get("redirectTo")).toBe("/pricing?startPlan=pro-annual");
    await page.getByRole("heading", { level: 1 }).waitFor();
  });

  it("shows full prices and no parity note where there is no parity", async () => {
    const page = await pageIn("US", false);
    await page.goto("/pricing");
    const monthly = page.getByRole("list", { name: "Monthly plans" });
    expect(await prices(card(monthly, "Starter"))).toEqual({ full: null, charged: "$16.99" });
    expect(await page.getByTestId("parity-note").count()).toBe(0);
  });
});

describe("/lifetime without JavaScript", () => {
  it("shows the lifetime plan at the visitor's price with what it includes, and Get Lifetime leads to login", async () => {
    const page = await pageIn("BR", false);
    await page.goto("/lifetime");
    expect(await page.getByText("Loading", { exact: false }).count()).toBe(0);
    await page.getByText("Pricing for Brazil: 40% off every plan, applied at checkout.").waitFor();
    const lifetime = card(page.getByRole("list", { name: "Lifetime plans" }), "Lifetime");
    expect(await prices(lifetime)).toEqual({ full: "$249", charged: "$149.40" });
    expect(await lifetime.getByText("Access to all features").count()).toBe(1);
    await lifetime.getByRole("link", { name: "Get Lifetime" }).click();
    await page.waitForURL((url) => url.pathname === "/login" && url.searchParams.get("redirectTo") === "/lifetime");
  });

  it("shows the list price, struck through against the earlier price, without parity", async () => {
    const page = await pageIn("US", false);
    await page.goto("/lifetime");
    const lifetime = card(page.getByRole("list", { name: "Lifetime plans" }), "Lifetime");
    expect(await prices(lifetime)).toEqual({ full: "$499", charged: "$249" });
  });
});

/**
 * Records each price element the HTML parser created, with its text, at the moment parsing ends
 * (readyState "interactive", which the browser sets before it runs any deferred or module script,
 * so before React starts), so that after hydration the test can check they are the same elements
 * with the same text: a hydration that re-rendered the prices (a mismatch) or changed them would
 * replace or edit them. (A MutationObserver is not used: its records arrive later, as a microtask,
 * and a check of readyState there could already see "interactive" for elements parsed before it.)
 */
function recordParsedPrices(page: Page) {
  return page.addInitScript(() => {
    const parsed: { element: Element; text: string | null }[] = [];
    (window as unknown as { parsedPrices: typeof parsed }).parsedPrices = parsed;
    document.addEventListener("readystatechange", () => {
      if (document.readyState !== "interactive") return;
      for (const element of document.querySelectorAll(".plan-card__amount")) parsed.push({ element, text: element.textContent });
    });
  });
}

async function pricesKeptThroughHydration(page: Page) {
  return page.evaluate(() => {
    const parsed = (window as unknown as { parsedPrices: { element: Element; text: string | null }[] }).parsedPrices;
    const now = [...document.querySelectorAll(".plan-card__amount")];
    return {
      parsed: parsed.map((entry) => entry.text),
      kept: parsed.every((entry) => entry.element.isConnected && entry.element.textContent === entry.text) && now.length === parsed.length,
    };
  });
}

describe("hydration of the server's prices", () => {
  it("keeps the parity prices the HTML came with on /pricing and /lifetime, signed out and signed in", async () => {
    const page = await pageIn("KE", true);
    await recordParsedPrices(page);
    for (const path of ["/pricing", "/lifetime"]) {
      await page.goto(path);
      await page.waitForSelector('html[data-hydrated="true"]', { state: "attached" });
      const { parsed, kept } = await pricesKeptThroughHydration(page);
      expect(parsed.length, path).toBeGreaterThan(0);
      expect(parsed, path).toContain(path === "/pricing" ? "$8.49" : "$124.50");
      expect(kept, path).toBe(true);
    }

    await signUpInBrowser(page);
    await page.goto("/pricing");
    await page.waitForSelector('html[data-hydrated="true"]', { state: "attached" });
    const monthly = page.getByRole("list", { name: "Monthly plans" });
    // The user's own plan is filled in after hydration, around prices that stay as they came.
    await card(monthly, "Free (your plan)").getByText("You are on this plan.").waitFor();
    await card(monthly, "Agency").getByRole("button", { name: "Start Plan: Agency monthly" }).waitFor();
    expect(await pricesKeptThroughHydration(page)).toMatchObject({ kept: true });
  });
});
