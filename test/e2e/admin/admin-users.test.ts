import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { signUpInBrowser } from "../support/accounts.ts";
import { promoteToAdmin } from "../support/admin.ts";
import { useBrowser } from "../support/browser.ts";

// Issue 20, the admin console's users section end to end: an admin finds a user, grants credits the user
// then sees on Manage subscription, and blocks the user, whose open page is signed out on its next call.

const browser = useBrowser();

async function hydrated(page: Page, path: string) {
  await page.goto(path);
  await page.waitForSelector('html[data-hydrated="true"]', { state: "attached" });
}

const creditsLeft = (page: Page) => page.locator("#manage").getByTestId("credits-left").textContent();

describe("admin console: users", () => {
  it("an admin searches a user, grants credits the user sees, then blocks them: their open page is signed out on its next call", async () => {
    // The blocked user's calls are refused (403, then 401 for the refresh): the browser logs those.
    const member = await browser.newPage({ allowConsoleErrors: /status of 40[13]/ });
    const { email } = await signUpInBrowser(member, { firstName: "Greta", lastName: "Lindgren" });
    await hydrated(member, "/pricing#manage");
    await expect.poll(() => creditsLeft(member)).toMatch(/^\d+$/);
    const before = Number(await creditsLeft(member));

    const admin = await browser.newPage();
    const adminAccount = await signUpInBrowser(admin, { firstName: "Ada", lastName: "Admin" });
    await promoteToAdmin(adminAccount.email);
    await hydrated(admin, "/admin");
    const users = admin.getByRole("region", { name: "Users" });
    await users.getByLabel("Search users").fill("greta lindgren");
    await users.getByRole("button", { name: "Search" }).click();
    await users.getByRole("button", { name: `Manage ${email}` }).click();

    const dialog = admin.getByRole("dialog", { name: "Greta Lindgren" });
    await dialog.getByText(`${before} left of`).waitFor();
    await dialog.getByLabel("Credits", { exact: true }).fill("40");
    await dialog.getByLabel("Reason").fill("Sorry for Tuesday's outage");
    await dialog.getByRole("button", { name: "Grant credits" }).click();
    // Nothing happens before the admin confirms.
    await dialog.getByText(`Grant 40 credits to ${email} for this month? Reason: Sorry for Tuesday's outage`).waitFor();
    await dialog.getByRole("button", { name: "Confirm" }).click();
    await admin.getByText(`Granted 40 credits to ${email}`).first().waitFor();
    await dialog.getByText(`${before + 40} left of`).waitFor();
    await dialog.getByText("+40 Sorry for Tuesday's outage").waitFor();

    // The user sees them (a reload: going to the same address with its #manage would not load the page again).
    await member.reload();
    await member.waitForSelector('html[data-hydrated="true"]', { state: "attached" });
    await expect.poll(() => creditsLeft(member)).toBe(String(before + 40));

    // Blocked: the user's page, still open, is signed out by its next call.
    await hydrated(member, "/profile");
    const firstName = member.getByLabel("First name");
    await expect.poll(() => firstName.inputValue()).toBe("Greta");
    await dialog.getByRole("button", { name: "Block" }).click();
    await dialog.getByText(`Block ${email}?`).waitFor();
    await dialog.getByRole("button", { name: "Confirm" }).click();
    await admin.getByText(`${email} is blocked`).first().waitFor();
    await dialog.getByText(/^Blocked since /).waitFor();

    await firstName.fill("Margareta");
    await member.getByRole("button", { name: "Save changes" }).click();
    await member.waitForURL(/\/login$/);
    expect(await member.evaluate(() => localStorage.getItem("FBIdToken"))).toBeNull();
    await hydrated(member, "/profile");
    await member.getByText("Login or sign up to view your profile.").waitFor();

    // The audit log lists both actions, newest first.
    await hydrated(admin, "/admin");
    const log = admin.getByRole("list", { name: "Admin actions, newest first" });
    await log.getByText(`Blocked ${email}`).waitFor();
    const summaries = await log.locator(".admin-audit__summary").allTextContents();
    expect(summaries.slice(0, 2)).toEqual([
      `Blocked ${email}: 1 open sign-in ended, posting paused.`,
      `Granted 40 credits to ${email}: Sorry for Tuesday's outage`,
    ]);

    // Logging in again is refused with a plain message.
    await hydrated(member, "/login");
    const form = member.getByRole("form", { name: "Log in with e-mail" });
    await form.getByLabel("E-mail", { exact: true }).fill(email);
    await form.getByLabel("Password").fill("Violet-Harbour-42!");
    await form.getByRole("button", { name: "Log in" }).click();
    await form.getByRole("alert").filter({ hasText: "This account has been blocked. If you think this is a mistake, please contact us." }).waitFor();
  }, 120_000);
});
