import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { signUpInBrowser, signUpVerified } from "../support/accounts.ts";
import { spendPinCredits } from "../support/admin.ts";
import { sandboxUrl, useBrowser } from "../support/browser.ts";
import { overflowing } from "../support/layout.ts";

// Issue 13 section 3: the month's pin credits in sight (navbar, /generate, /profile), updated after every
// charge, with a warning near the end and the upgrade link at zero; section 4: generating ticks the checklist.

const browser = useBrowser();

const DEMO_POST = "berry-smoothie-bowls";

async function open(page: Page, path: string) {
  await page.goto(path);
  await page.waitForSelector('html[data-hydrated="true"]', { state: "attached" });
}

/** The navbar's credits link (the layout on screen: wide or narrow). */
const navCredits = (page: Page) => page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: /pin credits used this month/ });
const creditsPanel = (page: Page) => page.getByRole("region", { name: /pin credits used this month/ });

describe("pin credits in sight", () => {
  it("shows used of the month's credits beside the account menu and on /generate, and counts a download at once", async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await signUpVerified(page);
    await open(page, "/generate");
    await expect.poll(() => navCredits(page).textContent()).toContain("0/10");
    expect(await navCredits(page).getAttribute("href")).toBe("/pricing#manage");
    await creditsPanel(page).getByText("0 of 10 pin credits used this month").waitFor();
    expect(
      await creditsPanel(page)
        .getByText(/Credits start again on \d{1,2} [A-Z][a-z]+\./)
        .isVisible(),
    ).toBe(true);

    await page.getByLabel("Paste a blog post or web page URL").fill(`${sandboxUrl()}/blog-demo/posts/${DEMO_POST}`);
    await page.getByRole("button", { name: "Generate", exact: true }).click();
    const download = page.waitForEvent("download", { timeout: 30_000 });
    await page.getByRole("button", { name: "Download pin 1" }).click();
    await download;
    // No reload: the download's charge is read back from the server.
    await creditsPanel(page).getByText("1 of 10 pin credits used this month").waitFor();
    await expect.poll(() => navCredits(page).textContent()).toContain("1/10");
    await page.getByRole("link", { name: "1 of 10 pin credits used this month" }).waitFor();

    // The plan block of /profile: Free, not "Inactive", with the same count.
    await open(page, "/profile");
    expect(await page.getByTestId("profile-plan-status").textContent()).toBe("Free");
    await page.getByRole("region", { name: "Plan" }).getByText("1 of 10 pin credits used this month").waitFor();

    // Generating ticked its onboarding step on the server.
    await open(page, "/onboarding");
    expect(await page.getByLabel("Generate pins from a blog post").isChecked()).toBe(true);
    expect(await page.getByLabel("Verify your e-mail address").isChecked()).toBe(true);
  });

  it("warns gently near the end of the month's credits and offers the upgrade once they are used up, on a phone too", async () => {
    const page = await browser.newPage({ viewport: { width: 375, height: 740 } });
    await signUpVerified(page);
    await spendPinCredits(page, 8);
    await open(page, "/generate");
    await creditsPanel(page).getByText("Only 2 credits left this month.", { exact: false }).waitFor();
    expect(await creditsPanel(page).getByRole("link", { name: "Upgrade your plan" }).getAttribute("href")).toBe("/pricing");
    await page.getByRole("link", { name: "8 of 10 pin credits used this month. Running low" }).waitFor();
    expect(await overflowing(page)).toEqual([]);

    await spendPinCredits(page, 2);
    await open(page, "/generate");
    await creditsPanel(page).getByText("You have used this month's pin credits.", { exact: false }).waitFor();
    const upgrade = page.getByRole("link", { name: "10 of 10 pin credits used this month. Upgrade your plan for more" });
    expect(await upgrade.getAttribute("href")).toBe("/pricing");
    expect(await overflowing(page)).toEqual([]);
  });

  it("is not shown to visitors who are not signed in, and fits the narrowest wide navbar", async () => {
    const page = await browser.newPage();
    await open(page, "/pricing");
    await page.getByRole("list", { name: "Monthly plans" }).getByText("$16.99").waitFor();
    expect(await page.getByRole("link", { name: /pin credits/ }).count()).toBe(0);
    // A signed-in user who has not verified the e-mail sees the count too.
    await signUpInBrowser(page);
    await open(page, "/pricing");
    await expect.poll(() => navCredits(page).textContent()).toContain("0/10");
    // The wide layout starts at 800 px: links, help, credits and the account menu still fit.
    await page.setViewportSize({ width: 800, height: 700 });
    await expect.poll(() => navCredits(page).isVisible()).toBe(true);
    expect(await overflowing(page)).toEqual([]);
  });
});
