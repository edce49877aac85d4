import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { signUpInBrowser } from "../support/accounts.ts";
import { callApi, promoteToAdmin, spendPinCredits } from "../support/admin.ts";
import { seriousAxeViolations } from "../support/axe.ts";
import { useBrowser } from "../support/browser.ts";

// Issue 37, defect 6 (decision 082), in Chromium: before checkout the pages say what happens to the current plan and
// its credits; a redeemed month reads "Redeemed · ends ..."; cancelling asks once; a cancelled Stripe subscription
// that has not ended offers Reactivate, which works.

const browser = useBrowser();

async function hydrated(page: Page, path: string) {
  await page.goto(path);
  await page.waitForSelector('html[data-hydrated="true"]', { state: "attached" });
}

const manage = (page: Page) => page.locator("#manage");

/** When the plan record deciding the user's plan ends, as the browser writes the day ("2 January 2027", its own zone). */
function currentPlanEnds(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const response = await fetch("/api/subscriptions/current", { headers: { authorization: `Bearer ${localStorage.getItem("FBIdToken")}` } });
    const { subscription } = (await response.json()) as { subscription: { periodEnd: string } };
    return new Date(subscription.periodEnd).toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric" });
  });
}

describe("plan changes say what happens before checkout", () => {
  it("a redeemed Growth month reads 'Redeemed · ends ...'; Starter and Lifetime say first that it ends and the credits used still count", async () => {
    // The sandbox's checkout page has no favicon (404).
    const page = await browser.newPage({ allowConsoleErrors: /status of 404/ });
    const { email } = await signUpInBrowser(page);
    await promoteToAdmin(email);
    const created = await callApi(page, "/api/admin/redeemCodes", { planId: "growth-monthly", count: 1, months: 1 });
    expect(created.status).toBe(201);
    expect((await callApi(page, "/api/subscriptions/redeemPurchaseCode", { redemptionCode: created.body.codes[0] })).status).toBe(200);
    await spendPinCredits(page, 3);

    await hydrated(page, "/pricing#manage");
    const ends = await currentPlanEnds(page);
    await expect.poll(() => manage(page).getByTestId("plan-status").textContent()).toBe(`Redeemed · ends ${ends}`);
    await expect.poll(() => manage(page).getByTestId("current-plan").textContent()).toBe("Growth");

    // Starter: what happens, before any payment; going back changes nothing.
    const monthly = page.getByRole("list", { name: "Monthly plans" });
    await monthly.getByRole("button", { name: "Start free trial: Starter monthly" }).click();
    const question = page.getByRole("alertdialog", { name: "What happens to your plan" });
    await question
      .getByText(
        `Your redeemed Growth month (1,000 credits a month, ends ${ends}) ends when Starter starts; you will have 150 credits a month from then, ` +
          "and the 3 credits you used this month still count: 147 left this month.",
        { exact: true },
      )
      .waitFor();
    expect(await seriousAxeViolations(page, "/pricing, asking before a plan change")).toEqual([]);
    await question.getByRole("button", { name: "Go back" }).click();
    await expect.poll(() => question.count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe("/pricing");
    await expect.poll(() => manage(page).getByTestId("current-plan").textContent()).toBe("Growth");

    // Lifetime: the same question on /lifetime; going on pays (a new tab in the development configuration).
    await hydrated(page, "/lifetime");
    await page.getByRole("list", { name: "Lifetime plans" }).getByRole("button", { name: "Get Lifetime" }).click();
    await question
      .getByText(
        `Your redeemed Growth month (1,000 credits a month, ends ${ends}) ends when Lifetime starts; you will have 400 credits a month from then, ` +
          "and the 3 credits you used this month still count: 397 left this month.",
        { exact: true },
      )
      .waitFor();
    const [tab] = await Promise.all([page.context().waitForEvent("page"), question.getByRole("button", { name: "Continue to payment" }).click()]);
    await tab.getByRole("button", { name: "Pay", exact: true }).click();
    await tab.getByText("Thank you! Your Lifetime plan is now active.").waitFor();

    // What it said: Lifetime's 400 a month, the 3 used this month still counted.
    await hydrated(page, "/pricing#manage");
    await expect.poll(() => manage(page).getByTestId("current-plan").textContent()).toBe("Lifetime");
    await expect.poll(() => manage(page).getByTestId("credits-left").textContent()).toBe("397");
    await expect.poll(() => manage(page).getByTestId("plan-status").textContent()).toBe("Active");
  });

  it("cancelling asks once, saying the plan stays until its end and then Free's credits; Reactivate then keeps the plan", async () => {
    const page = await browser.newPage({ allowConsoleErrors: /status of 404/ });
    await signUpInBrowser(page);
    await hydrated(page, "/pricing");
    await page.getByRole("list", { name: "Monthly plans" }).getByRole("button", { name: "Start free trial: Starter monthly" }).click();
    await page.getByRole("button", { name: "Start trial", exact: true }).click();
    await page.getByText("Your subscription is active: welcome to the Starter plan!").waitFor();
    await expect.poll(() => manage(page).getByTestId("plan-status").textContent()).toBe("Active");
    const ends = await currentPlanEnds(page);

    const cancel = async () => {
      await manage(page).getByLabel("Why are you cancelling?").fill("Taking a break");
      await manage(page).getByRole("button", { name: "Cancel subscription" }).click();
      const question = page.getByRole("alertdialog", { name: "Cancel your Starter subscription?" });
      await question.getByText(`You keep Starter until ${ends}; then you move to Free with 10 credits a month.`, { exact: true }).waitFor();
      return question;
    };
    // Kept: nothing is cancelled.
    const first = await cancel();
    expect(await seriousAxeViolations(page, "/pricing, asking before cancelling")).toEqual([]);
    await first.getByRole("button", { name: "Keep my subscription" }).click();
    await expect.poll(() => first.count()).toBe(0);
    expect(await manage(page).getByText("Your subscription has been canceled.").count()).toBe(0);
    expect(await manage(page).getByTestId("plan-status").textContent()).toBe("Active");

    // Confirmed once, and done.
    const second = await cancel();
    await second.getByRole("button", { name: "Cancel subscription" }).click();
    await manage(page).getByText("Your subscription has been canceled.").waitFor();
    expect(await page.getByRole("alertdialog").count()).toBe(0);
    await expect.poll(() => manage(page).getByTestId("plan-status").textContent()).toBe("Cancelled");

    // Not ended yet: Reactivate, and the plan goes on.
    await manage(page).getByRole("button", { name: "Reactivate subscription" }).click();
    await manage(page).getByText("Your subscription has been re-activated").waitFor();
    await expect.poll(() => manage(page).getByTestId("plan-status").textContent()).toBe("Active");
    await manage(page).getByRole("button", { name: "Cancel subscription" }).waitFor();
    expect(await manage(page).getByRole("button", { name: "Reactivate subscription" }).count()).toBe(0);
  });
});
