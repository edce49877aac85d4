import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { signUpInBrowser, TEST_PASSWORD, uniqueEmail } from "../support/accounts.ts";
import { promoteToAdmin, runSql } from "../support/admin.ts";
import { sandboxUrl, useBrowser } from "../support/browser.ts";
import { overflowing } from "../support/layout.ts";

// The affiliate programme end to end (issue 16): an affiliate joins on /affiliate with the id
// earnyourhappy; a visitor comes through /earn, signs up on /signup, starts Starter through the
// sandbox's Stripe Checkout and pays when the trial ends; the affiliate's dashboard shows the click,
// the sign-up, the sale and its 25% commission. Then the admin page lists payouts for admins only.

const browser = useBrowser();
let addresses = 0;

async function hydrated(page: Page, path: string) {
  await page.goto(path);
  await page.waitForSelector('html[data-hydrated="true"]', { state: "attached" });
}

/** Each sign-up from its own documentation address (sign-ups are limited per address). */
async function withOwnAddress(page: Page) {
  await page.route("**/api/signup", (route) => {
    addresses += 1;
    return route.continue({ headers: { ...route.request().headers(), "cf-connecting-ip": `192.0.2.${(addresses % 250) + 1}` } });
  });
}

async function getJson(page: Page, path: string) {
  return page.evaluate(async (path) => (await fetch(path, { headers: { authorization: `Bearer ${localStorage.getItem("FBIdToken")}` } })).json(), path);
}

describe("affiliate programme", () => {
  it("counts a visit to /earn, attributes the sign-up, and shows the Starter payment's commission on the affiliate's dashboard", async () => {
    // The affiliate joins with the id that /earn sends.
    const affiliate = await browser.newPage();
    await withOwnAddress(affiliate);
    await hydrated(affiliate, "/affiliate");
    await affiliate.getByText("Login or sign up to become an affiliate.").waitFor();
    await signUpInBrowser(affiliate);
    await hydrated(affiliate, "/affiliate");
    await affiliate.getByLabel("Link name (optional)").fill("earnyourhappy");
    await affiliate.getByRole("button", { name: "Become an affiliate" }).click();
    await affiliate.getByText("Welcome to the affiliate programme!").first().waitFor();
    const link = affiliate.getByLabel("Your affiliate link");
    await expect.poll(() => link.inputValue()).toMatch(/\/\?pgref=earnyourhappy$/);
    await affiliate.getByLabel("Wise tag").fill("happyearner");
    await affiliate.getByRole("button", { name: "Save Wise tag" }).click();
    await affiliate.getByText("Your Wise tag has been saved.").first().waitFor();
    await expect.poll(() => affiliate.getByLabel("Wise tag").inputValue()).toBe("@happyearner");

    // A visitor follows /earn: home with the pgref, one click reported and the id kept.
    const visitor = await browser.newPage({ allowConsoleErrors: /status of 404/ });
    await withOwnAddress(visitor);
    const clicked = visitor.waitForResponse((response) => new URL(response.url()).pathname === "/api/affiliate/incrementAffiliateClicks");
    await visitor.goto("/earn");
    expect(new URL(visitor.url()).search).toBe("?pgref=earnyourhappy");
    expect((await clicked).status()).toBe(200);
    expect(await visitor.evaluate(() => JSON.parse(localStorage.getItem("affiliateID") ?? "null")?.value)).toBe("earnyourhappy");

    // They sign up on /signup: the stored id is recorded for the new account.
    await hydrated(visitor, "/signup");
    const attributed = visitor.waitForResponse((response) => new URL(response.url()).pathname === "/api/affiliate/setUserAffiliateID");
    const dataLoads: string[] = [];
    visitor.on("request", (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.endsWith(".data")) dataLoads.push(pathname);
    });
    await visitor.getByLabel("First name").fill("Vera");
    await visitor.getByLabel("Last name").fill("Visitor");
    await visitor.getByLabel("E-mail", { exact: true }).fill(uniqueEmail("referred"));
    await visitor.getByLabel("Password").fill(TEST_PASSWORD);
    await visitor.getByRole("button", { name: "Create account" }).click();
    expect(await (await attributed).json()).toEqual({ attributed: true });
    await visitor.waitForURL(/\/onboarding$/);
    await visitor.getByText("Welcome, Vera!").waitFor();
    // The way to /onboarding brings the new user with it, in one request: not a reload of /signup as well while the
    // sign-up is recorded, which the way to /onboarding would cut off half-read (an error in the console).
    expect(dataLoads).toEqual(["/onboarding.data"]);

    // Starter through the sandbox's Checkout (a trial), then the trial ends and the card is charged.
    await hydrated(visitor, "/pricing");
    const monthly = visitor.getByRole("list", { name: "Monthly plans" });
    await monthly.getByRole("button", { name: "Start free trial: Starter monthly" }).click();
    await visitor.getByRole("button", { name: "Start trial", exact: true }).click();
    await visitor.getByText("Your subscription is active: welcome to the Starter plan!").waitFor();
    const { subscription } = await getJson(visitor, "/api/subscriptions/current");
    expect(subscription.subscriptionID).toMatch(/^sub_/);
    const renewed = await fetch(`${sandboxUrl()}/__sandbox/stripe/subscriptions/${subscription.subscriptionID}/renew`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(renewed.status).toBe(200);

    // The affiliate sees the click, the sign-up, the paying customer, the $16.99 sale and its $4.25 commission (held a month).
    await expect
      .poll(
        async () => {
          await hydrated(affiliate, "/affiliate");
          await affiliate.getByRole("heading", { name: "Latest sales" }).waitFor();
          return (await affiliate.getByRole("table", { name: "Latest sales" }).count()) > 0;
        },
        { timeout: 20_000 },
      )
      .toBe(true);
    const figure = (label: string) =>
      affiliate
        .locator(".affiliate-figure")
        .filter({ has: affiliate.getByText(label, { exact: true }) })
        .locator(".affiliate-figure__value");
    expect(await figure("Clicks").textContent()).toBe("1");
    expect(await figure("Sign-ups").textContent()).toBe("1");
    expect(await figure("Paying customers").textContent()).toBe("1");
    expect(await figure("Sales").textContent()).toBe("1");
    expect(await figure("Commission pending").textContent()).toBe("$4.25");
    expect(await figure("Commission payable").textContent()).toBe("$0.00");
    const sale = affiliate.getByRole("table", { name: "Latest sales" }).getByRole("row").nth(1);
    expect(await sale.getByRole("cell").nth(1).textContent()).toBe("$16.99");
    expect(await sale.getByRole("cell").nth(2).textContent()).toBe("$4.25");
    expect(await sale.getByRole("cell").nth(3).textContent()).toMatch(/^Held until \d{1,2} [A-Z][a-z]+ \d{4}$/);
    expect(await affiliate.getByTestId("next-payout").textContent()).toBe("Payouts start once $100 of commission is payable.");
    // The month's click and sign-up are charted (drawn by Chart.js once it has loaded) beside the table.
    const chart = affiliate.getByRole("img", { name: /^Clicks and sign-ups by month over the last 6 months: 1 click, 1 sign-up\./ });
    await affiliate.locator(".affiliate-chart canvas[data-ready=true]").waitFor();
    expect(await chart.getAttribute("data-clicks")).toBe("1");

    // The payment is refunded (from Stripe's dashboard): its commission is taken back, and the visitor is told (decision 077).
    const [charge] = (await (await fetch(`${sandboxUrl()}/__sandbox/stripe/charges?customer=${(await renewed.json()).customer}`)).json()) as { id: string }[];
    expect(
      (
        await fetch(`${sandboxUrl()}/__sandbox/stripe/charges/${charge.id}/refund`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: "{}",
        })
      ).status,
    ).toBe(200);
    await expect
      .poll(
        async () => {
          await hydrated(affiliate, "/affiliate");
          await affiliate.getByRole("heading", { name: "Latest sales" }).waitFor();
          return affiliate.getByRole("table", { name: "Latest sales" }).getByRole("row").count();
        },
        { timeout: 20_000 },
      )
      .toBe(3);
    const refund = affiliate.getByRole("table", { name: "Latest sales" }).getByRole("row").filter({ hasText: "Refunded" });
    expect(await refund.getByRole("cell").nth(1).textContent()).toBe("Refunded $16.99");
    expect(await refund.getByRole("cell").nth(2).textContent()).toBe("-$4.25");
    expect(await refund.getByRole("cell").nth(3).textContent()).toBe("Cancels the held commission");
    expect(await figure("Sales").textContent()).toBe("1");
    expect(await figure("Commission pending").textContent()).toBe("$0.00");
    // A page load of its own (the visitor is on /pricing already: a hash alone would not load it again).
    await hydrated(visitor, "/");
    await hydrated(visitor, "/pricing#manage");
    const notice = visitor.getByTestId("plan-taken-back");
    await notice.waitFor();
    expect(await notice.textContent()).toMatch(
      /^Your Starter plan ended on \d{1,2} [A-Z][a-z]+ \d{4} because its payment was refunded\. You are on the Free plan now\.$/,
    );

    // The terms are on the page.
    await affiliate.getByText("When do payouts happen?").click();
    await affiliate.getByText("Once at least $100 is payable, we pay it on or before the 5th of the month, to your Wise account.").waitFor();

    // Fits a phone.
    await affiliate.setViewportSize({ width: 375, height: 740 });
    expect(await overflowing(affiliate)).toEqual([]);
  });

  it("shows /admin and its Affiliate payouts section to admins only, with the menu item; Mark paid settles a payable affiliate", async () => {
    const page = await browser.newPage({ allowConsoleErrors: /status of 404/ });
    await withOwnAddress(page);
    const { email } = await signUpInBrowser(page);
    const response = await page.goto("/admin");
    expect(response?.status()).toBe(404);
    await hydrated(page, "/");
    await page.getByRole("button", { name: /^Account menu/ }).click();
    await page.getByRole("menuitem", { name: "Profile" }).waitFor();
    expect(await page.getByRole("menuitem", { name: "Admin page" }).count()).toBe(0);
    await page.keyboard.press("Escape");

    await promoteToAdmin(email);
    await hydrated(page, "/");
    await page.getByRole("button", { name: /^Account menu/ }).click();
    await page.getByRole("menuitem", { name: "Admin page" }).click();
    await page.waitForURL(/\/admin$/);
    await page.getByRole("heading", { name: "Affiliate payouts" }).waitFor();
    await page.getByText("No affiliate has $100 or more payable. Nothing to pay this month.").waitFor();

    // An affiliate whose customer paid $699 forty days ago: $174.75 out of its hold.
    const payee = await browser.newPage();
    await withOwnAddress(payee);
    await signUpInBrowser(payee);
    const joined = await payee.evaluate(async () =>
      (
        await fetch("/api/affiliate/createAffiliateProfile", {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${localStorage.getItem("FBIdToken")}` },
          body: "{}",
        })
      ).json(),
    );
    const affiliateID: string = joined.affiliateProfile.affiliateID;
    // A second such sale was refunded: its negative entry nets it away (decision 077).
    const charged = Date.now() - 40 * 24 * 60 * 60 * 1000;
    const payable = charged + 30 * 24 * 60 * 60 * 1000;
    await runSql(
      `INSERT INTO affiliate_commissions (provider, charge_ref, affiliate_id, amount_cents, commission_cents, currency, charged_at, payable_at, reverses_charge_ref) VALUES ` +
        `('stripe', 'in_e2e_${affiliateID}', '${affiliateID}', 69900, 17475, 'usd', ${charged}, ${payable}, NULL), ` +
        `('stripe', 'in_e2e_refunded_${affiliateID}', '${affiliateID}', 69900, 17475, 'usd', ${charged}, ${payable}, NULL), ` +
        `('stripe', 'reversal:in_e2e_refunded_${affiliateID}:69900', '${affiliateID}', -69900, -17475, 'usd', ${charged + 60_000}, ${payable}, 'in_e2e_refunded_${affiliateID}')`,
    );
    await hydrated(page, "/admin");
    const row = page.getByRole("table", { name: "Payable affiliates" }).getByRole("row").filter({ hasText: affiliateID });
    await row.getByText("$174.75", { exact: true }).waitFor();
    expect(await row.getByText("after $174.75 of refunded sales").isVisible()).toBe(true);
    expect(await row.getByText("No Wise tag yet").isVisible()).toBe(true);
    await row.getByRole("button", { name: `Mark paid: $174.75 to ${affiliateID}` }).click();
    await page.getByText(`Payout of $174.75 to ${affiliateID} marked paid.`).first().waitFor();
    await expect.poll(() => row.count()).toBe(0);

    // The affiliate sees it paid.
    await hydrated(payee, "/affiliate");
    await payee.getByText("Commission paid", { exact: true }).waitFor();
    expect(await payee.locator(".affiliate-figure").filter({ hasText: "Commission paid" }).locator(".affiliate-figure__value").textContent()).toBe("$174.75");
  });
});
