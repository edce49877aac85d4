import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { PAYPAL_CONFIRM_SWITCH_MESSAGE, SHOPIFY_CONNECT_FIRST_MESSAGE, SHOPIFY_MESSAGES } from "../../../contracts/billing/billing-paypal-shopify.ts";
import { signUpInBrowser } from "../support/accounts.ts";
import { seriousAxeViolations } from "../support/axe.ts";
import { useBrowser } from "../support/browser.ts";
import { overflowing } from "../support/layout.ts";

// Paying with PayPal and Shopify on /pricing in Chromium, through the sandbox's PayPal approval page
// and Shopify confirmation page; the stand-ins also deliver their signed webhooks to the running app,
// which must take them (2xx). Only the sandbox's faults this file injects are scoped to its own store.

const browser = useBrowser();
const manage = (page: Page) => page.locator("#manage");

async function hydrated(page: Page, path: string) {
  await page.goto(path);
  await page.waitForSelector('html[data-hydrated="true"]', { state: "attached" });
}

async function sandbox<T>(path: string, init?: { method?: string; json?: unknown }): Promise<T> {
  const response = await fetch(`${inject("sandboxUrl")}/__sandbox${path}`, {
    method: init?.method ?? "GET",
    headers: init?.json === undefined ? undefined : { "content-type": "application/json" },
    body: init?.json === undefined ? undefined : JSON.stringify(init.json),
  });
  if (!response.ok) throw new Error(`sandbox ${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

interface Delivery {
  type: string;
  delivery: string;
  attempts: { status: number | null }[];
}

/** Waits until every webhook event about `subject` was delivered and answered 200 by the app. */
async function expectDelivered(provider: "paypal" | "shopify", subject: string, types: string[]) {
  await expect
    .poll(
      async () => {
        const events = await sandbox<Delivery[]>(`/${provider}/events?subject=${encodeURIComponent(subject)}`);
        return events.filter((event) => event.delivery === "delivered" && event.attempts.at(-1)?.status === 200).map((event) => event.type);
      },
      { timeout: 15_000 },
    )
    .toEqual(expect.arrayContaining(types));
}

describe("paying with PayPal", () => {
  it("picks Starter, approves in PayPal, comes back Active with 150 credits; suspends, re-activates and switches to Pro from Manage subscription", async () => {
    // Chromium asks the sandbox's PayPal page for a favicon it does not have; nothing else may fail.
    const page = await browser.newPage({ allowConsoleErrors: /status of 404/ });
    await signUpInBrowser(page);
    await hydrated(page, "/pricing");
    await expect(page.getByLabel("Card").isChecked()).resolves.toBe(true);
    // Keyboard: the payment methods are one radio group.
    await page.getByLabel("Card").focus();
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => page.getByLabel("PayPal").isChecked()).toBe(true);
    await page.getByText("You approve the subscription in PayPal", { exact: false }).waitFor();

    const activation = page.waitForRequest((request) => request.url().endsWith("/api/subscriptions/activateUserSubscription"));
    await page.getByRole("list", { name: "Monthly plans" }).getByRole("button", { name: "Start free trial: Starter monthly" }).click();
    await page.waitForURL((url) => url.pathname === "/paypal/webapps/billing/subscriptions");
    await page.getByText("Subscribe to Starter (monthly)", { exact: false }).waitFor();
    await page.getByRole("button", { name: "Agree & Subscribe" }).click();

    const { subscriptionID } = (await activation).postDataJSON() as { subscriptionID: string };
    expect(subscriptionID).toMatch(/^I-/);
    await page.getByText("Your subscription is active: welcome to the Starter plan!").waitFor();
    await expect.poll(() => new URL(page.url()).search).toBe("");
    await expect.poll(() => manage(page).getByTestId("plan-status").textContent()).toBe("Active");
    await expect.poll(() => manage(page).getByTestId("credits-left").textContent()).toBe("150");
    await expect.poll(() => manage(page).getByTestId("current-plan").textContent()).toBe("Starter");
    // A first subscriber is in the 7-day free trial: PayPal charges nothing yet (no PAYMENT.SALE.COMPLETED).
    await expectDelivered("paypal", subscriptionID, ["BILLING.SUBSCRIPTION.ACTIVATED"]);

    await manage(page).getByRole("button", { name: "Suspend subscription" }).click();
    await manage(page).getByText("Your subscription has been suspended").waitFor();
    await expect.poll(() => manage(page).getByTestId("plan-status").textContent()).toBe("Suspended");
    await manage(page).getByText("Paused until you re-activate it").waitFor();
    expect(await manage(page).getByRole("button", { name: "Suspend subscription" }).count()).toBe(0);

    await manage(page).getByRole("button", { name: "Re-activate subscription" }).click();
    await manage(page).getByText("Your subscription has been re-activated").waitFor();
    await expect.poll(() => manage(page).getByTestId("plan-status").textContent()).toBe("Active");
    await expect.poll(() => manage(page).getByTestId("credits-left").textContent()).toBe("150");
    await expectDelivered("paypal", subscriptionID, ["BILLING.SUBSCRIPTION.SUSPENDED", "BILLING.SUBSCRIPTION.RE-ACTIVATED"]);

    // A dearer plan: PayPal wants the payer's approval (202).
    await manage(page).getByLabel("New plan").selectOption("pro-monthly");
    await manage(page).getByRole("button", { name: "Switch plan" }).click();
    await page.getByRole("alertdialog", { name: "What happens to your plan" }).getByRole("button", { name: "Switch plan" }).click();
    await manage(page).getByText(PAYPAL_CONFIRM_SWITCH_MESSAGE).waitFor();
    await manage(page).getByRole("link", { name: "Approve the switch in PayPal" }).click();
    await page.getByText("Change your subscription to Pro (monthly)", { exact: false }).waitFor();
    await page.getByRole("button", { name: "Agree & Subscribe" }).click();
    await page.getByText("Your subscription is active: welcome to the Pro plan!").waitFor();
    await expect.poll(() => new URL(page.url()).search).toBe("");
    await expect.poll(() => manage(page).getByTestId("current-plan").textContent()).toBe("Pro");
    await expect.poll(() => manage(page).getByTestId("credits-left").textContent()).toBe("400");
    await expectDelivered("paypal", subscriptionID, ["BILLING.SUBSCRIPTION.UPDATED"]);
  });

  it("says 'Payment cancelled' when the payer cancels at PayPal", async () => {
    const page = await browser.newPage({ allowConsoleErrors: /status of 404/ });
    await signUpInBrowser(page);
    await hydrated(page, "/pricing");
    await page.getByLabel("PayPal").check();
    await page.getByRole("list", { name: "Monthly plans" }).getByRole("button", { name: "Start Plan: Agency monthly" }).click();
    await page.getByRole("link", { name: "Cancel and return to the merchant" }).click();
    await page.getByText("Payment cancelled").waitFor();
    await expect.poll(() => new URL(page.url()).search).toBe("");
    await expect.poll(() => manage(page).getByTestId("current-plan").textContent()).toBe("Free");
  });
});

describe("paying with Shopify", () => {
  it("on a phone: connects the store through Shopify's install, shows Shopify's errors exactly, then starts, approves on Shopify and comes back Active", async () => {
    // Our 409 for the expired store connection is expected; the sandbox pages have no favicon (404).
    const page = await browser.newPage({ viewport: { width: 375, height: 740 }, allowConsoleErrors: /status of (404|409)/ });
    await signUpInBrowser(page);
    await hydrated(page, "/pricing");
    await page.getByLabel("Shopify").check();
    expect(await overflowing(page)).toEqual([]);
    const growth = page.getByRole("list", { name: "Monthly plans" }).getByRole("button", { name: "Start free trial: Growth monthly" });

    await growth.click();
    await page.getByText(SHOPIFY_CONNECT_FIRST_MESSAGE).waitFor();
    expect(await seriousAxeViolations(page, "/pricing, connecting a Shopify store")).toEqual([]);

    // Connect the store: Shopify's install page, then back here with the store to bill.
    const shop = `e2e-${Date.now().toString(36)}.myshopify.com`;
    await page.getByLabel("Your Shopify store address").fill(shop);
    await page.getByRole("button", { name: "Connect store" }).click();
    await page.waitForURL((url) => url.pathname.endsWith(`/${shop}/admin/oauth/authorize`));
    await page.getByRole("button", { name: "Install app" }).click();
    await page.getByText(/Your Shopify store E2e .* is connected\. Choose a plan to pay with Shopify\./).waitFor();
    await expect.poll(() => new URL(page.url()).searchParams.get("shopifyConnected")).toBeNull();
    await expect.poll(() => page.getByLabel("Shopify store", { exact: true }).inputValue()).not.toBe("");
    expect(await overflowing(page)).toEqual([]);
    expect(await seriousAxeViolations(page, "/pricing, a connected Shopify store")).toEqual([]);

    await sandbox("/faults", {
      method: "POST",
      json: { service: "shopify", path: `/${shop}/admin/api/*`, status: 401, body: { errors: "[API] Invalid API key or access token" } },
    });
    await growth.click();
    await page.getByText(SHOPIFY_MESSAGES.expired, { exact: true }).waitFor();
    await sandbox("/faults", { method: "POST", json: { service: "shopify", path: `/${shop}/admin/api/*`, status: 403, body: { errors: "Forbidden" } } });
    await growth.click();
    await page.getByText(SHOPIFY_MESSAGES.forbidden, { exact: true }).waitFor();

    await growth.click();
    await page.waitForURL((url) => url.pathname.includes("/RecurringApplicationCharge/confirm_recurring_application_charge"));
    await page.getByText("7-day free trial").waitFor();
    await page.getByRole("button", { name: "Approve" }).click();
    await page.getByText("Your subscription is active: welcome to the Growth plan!").waitFor();
    await expect.poll(() => new URL(page.url()).search).toBe("");
    await expect.poll(() => manage(page).getByTestId("plan-status").textContent()).toBe("Active");
    await expect.poll(() => manage(page).getByTestId("current-plan").textContent()).toBe("Growth");
    await expect.poll(() => manage(page).getByTestId("credits-left").textContent()).toBe("1,000");
    await expectDelivered("shopify", shop, ["app_subscriptions/update"]);
    expect(await overflowing(page)).toEqual([]);

    await manage(page).getByLabel("Why are you cancelling?").fill("Moving the store");
    await manage(page).getByRole("button", { name: "Cancel subscription" }).click();
    await page.getByRole("alertdialog", { name: "Cancel your Growth subscription?" }).getByRole("button", { name: "Cancel subscription" }).click();
    await manage(page).getByText("Your subscription has been canceled.").waitFor();
    await expect.poll(() => manage(page).getByTestId("plan-status").textContent()).toBe("Cancelled");
  });
});
