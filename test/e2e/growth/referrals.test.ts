import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { signUpInBrowser, signUpVerified, uniqueEmail, verificationLink } from "../support/accounts.ts";
import { redeemStarterCode, spendPinCredits } from "../support/admin.ts";
import { seriousAxeViolations } from "../support/axe.ts";
import { appUrl, sandboxUrl, useBrowser } from "../support/browser.ts";
import { overflowing } from "../support/layout.ts";
import { REFERRAL_MODAL_DELAY_MS } from "../../../app/lib/referrals.ts";

// Issue 16, the referral half: /referral?pgreferral=CODE, claiming the free month, the referral card on
// /profile with its gift dialog, and the referral modal (20 used credits, then 21 quiet days).

const browser = useBrowser();

async function open(page: Page, path: string) {
  await page.goto(path);
  await page.waitForSelector('html[data-hydrated="true"]', { state: "attached" });
}

/** Two animation frames: effects that open dialogs have run and rendered. */
async function settled(page: Page) {
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

async function referralCodeOf(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const response = await fetch("/api/referrals/getReferralCode", { headers: { authorization: `Bearer ${localStorage.getItem("FBIdToken")}` } });
    return ((await response.json()) as { referralCode: string }).referralCode;
  });
}

async function outbox(address: string): Promise<{ subject: string; links: string[] }[]> {
  return (await fetch(`${sandboxUrl()}/__sandbox/outbox?to=${encodeURIComponent(address)}`)).json() as Promise<{ subject: string; links: string[] }[]>;
}

describe("/referral", () => {
  it("keeps a friend's code, shows who invited the visitor, and after sign-up gives the free month of Starter once", async () => {
    const referrer = await browser.newPage();
    await signUpInBrowser(referrer, { firstName: "Ines", lastName: "Moreau" });
    const code = await referralCodeOf(referrer);

    const page = await browser.newPage({ viewport: { width: 390, height: 800 } });
    await open(page, `/referral?pgreferral=${code}`);
    await page.getByRole("heading", { name: "Ines gifted you a free month of Starter" }).waitFor();
    await page.getByText("Login or sign up to claim your free month.").waitFor();
    // Kept for 30 days by app/lib/attribution.ts.
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem("referralCode") ?? "null") as { value: string; expiresAt: number } | null);
    expect(stored?.value).toBe(code);
    expect(stored!.expiresAt - Date.now()).toBeGreaterThan(29 * 86_400_000);
    expect(await overflowing(page)).toEqual([]);
    expect(await seriousAxeViolations(page, "/referral with a code, signed out")).toEqual([]);

    // Sign-up lands on /onboarding, which points to the gift still waiting in this browser.
    const sam = await signUpInBrowser(page, { firstName: "Sam" });
    await open(page, "/onboarding");
    await page.getByRole("link", { name: "Claim your free month" }).click();
    await page.getByRole("heading", { name: "Ines gifted you a free month of Starter" }).waitFor();
    // The month needs a verified address (decision 079): the page says so and sends the link again.
    await page.getByText("Please verify your e-mail address first: open the link we e-mailed you, then claim your free month.").waitFor();
    expect(await page.getByRole("button", { name: "Claim your free month" }).count()).toBe(0);
    await page.getByRole("button", { name: "Resend verification e-mail" }).click();
    await page.getByText("Email verification link sent").waitFor();
    expect(await seriousAxeViolations(page, "/referral with a code, signed in, not verified")).toEqual([]);
    await page.goto(await verificationLink(sam.email));
    await page.getByText("Email verified", { exact: true }).waitFor();
    await open(page, "/referral");
    await page.getByRole("heading", { name: "Ines gifted you a free month of Starter" }).waitFor();
    await page.getByRole("button", { name: "Claim your free month" }).waitFor();
    expect(await seriousAxeViolations(page, "/referral with a code, signed in")).toEqual([]);
    await page.getByRole("button", { name: "Claim your free month" }).click();
    await page.getByText("Referral recorded successfully").first().waitFor();
    await page
      .getByTestId("referral-claimed")
      .getByText(/^Your free month of Starter runs until .+ \d{4}\./)
      .waitFor();

    await open(page, "/profile");
    await page.getByRole("region", { name: "Plan" }).getByText("Starter (monthly)").waitFor();
    await page.getByRole("region", { name: "Plan" }).getByText("150 pin credits", { exact: false }).first().waitFor();

    // The month does not renew: /pricing offers to buy Starter to keep it (no trial: the free month was it).
    await open(page, "/pricing");
    await page.getByRole("list", { name: "Monthly plans" }).getByRole("button", { name: "Start Plan: Starter monthly" }).waitFor();

    // Once per person: the link again offers no second month.
    await open(page, `/referral?pgreferral=${code}`);
    await page.getByText("The free month is for new customers, and your account already has a plan.", { exact: false }).waitFor();
    expect(await page.getByRole("button", { name: "Claim your free month" }).count()).toBe(0);

    // The referrer's own link is not a gift to themselves.
    await open(referrer, `/referral?pgreferral=${code}`);
    await referrer.getByText("This is your own invite link: share it with a friend.").waitFor();
    expect(await referrer.getByRole("button", { name: "Claim your free month" }).count()).toBe(0);
  });

  it("says so when the server refuses a claim, and a bad code is not a gift", async () => {
    const referrer = await browser.newPage();
    await signUpInBrowser(referrer, { firstName: "Ines" });
    const code = await referralCodeOf(referrer);
    const page = await browser.newPage({ allowConsoleErrors: /status of 40\d/ });
    await signUpVerified(page);
    // Claimed in another tab first: this page still shows the button, and the server refuses the second claim.
    await open(page, `/referral?pgreferral=${code}`);
    const claimed = await page.evaluate(async (referralCode) => {
      const response = await fetch("/api/referrals/recordReferral", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${localStorage.getItem("FBIdToken")}` },
        body: JSON.stringify({ referralCode }),
      });
      return response.status;
    }, code);
    expect(claimed).toBe(200);
    await page.getByRole("button", { name: "Claim your free month" }).click();
    await page.getByText("Unable to record referral").first().waitFor();
    await page.getByText("You have already claimed a free month from a friend.").first().waitFor();

    await open(page, "/referral?pgreferral=ZZZZZZZZ");
    await page.getByText("This invite link is not valid. Ask your friend to send it again.").waitFor();
  });
});

describe("the referral card on /profile", () => {
  it("shows the invite link and sends a gift by e-mail, which ticks the onboarding step", async () => {
    // The provider failure below is answered 502 on purpose.
    const page = await browser.newPage({ allowConsoleErrors: /status of 502/ });
    await signUpInBrowser(page, { firstName: "Maya", lastName: "Lindqvist" });
    const code = await referralCodeOf(page);
    await open(page, "/profile");
    const card = page.getByRole("region", { name: "Gift a month, get a month" });
    expect(await card.getByLabel("Your invite link").inputValue()).toBe(`${appUrl()}/referral?pgreferral=${code}`);
    expect(await card.getByRole("button", { name: "Copy invite link" }).isVisible()).toBe(true);
    await card.getByTestId("referral-earnings").getByText("No friend has subscribed yet", { exact: false }).waitFor();

    await card.getByRole("button", { name: "Send gift via email" }).click();
    const dialog = page.getByRole("dialog", { name: "Gift 1 Month via Email" });
    await dialog.waitFor();
    await dialog.getByLabel("Your friend's email").fill("not an address");
    await dialog.getByRole("button", { name: "Send gift" }).click();
    await dialog.getByText("Please enter a valid email address.").waitFor();
    expect(await seriousAxeViolations(page, "the gift dialog with an error")).toEqual([]);

    const friend = uniqueEmail("friend");
    await dialog.getByLabel("Your friend's email").fill(friend);
    // The e-mail provider fails once: the dialog stays open with the address, to try again.
    const fault = await fetch(`${sandboxUrl()}/__sandbox/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ service: "email", method: "POST", path: "/emails", status: 503, times: 1 }),
    });
    expect(fault.status).toBe(201);
    await dialog.getByRole("button", { name: "Send gift" }).click();
    await page.getByText("Failed to send email. Please try again.").first().waitFor();
    expect(await outbox(friend)).toHaveLength(0);
    expect(await dialog.getByLabel("Your friend's email").inputValue()).toBe(friend);

    await dialog.getByRole("button", { name: "Send gift" }).click();
    await page.getByText("Gift sent successfully!").first().waitFor();
    // The dialog closes by itself a second later.
    await dialog.waitFor({ state: "detached" });
    const [mail] = await outbox(friend);
    expect(mail.subject).toBe("Maya Lindqvist gifted you a free month of Pinboard Studio");
    expect(mail.links.some((link) => new URL(link).pathname === "/referral" && new URL(link).searchParams.get("pgreferral") === code)).toBe(true);

    await open(page, "/onboarding");
    expect(await page.getByLabel("Gift a month to a friend").isChecked()).toBe(true);
  });
});

describe("the referral modal", () => {
  /** A finished action (the profile saved, with its success toast), then the modal's short wait, on the page's clock. */
  async function finishAnAction(page: Page) {
    await open(page, "/profile");
    await page.getByLabel("First name").fill("Noor");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByText("Profile saved.", { exact: true }).waitFor();
    await page.clock.fastForward(REFERRAL_MODAL_DELAY_MS);
    await settled(page);
  }

  it("comes after a finished action once 20 credits are used, never on a page's load or over work in progress, and not again for 21 days", async () => {
    const page = await browser.newPage();
    await page.clock.install();
    const account = await signUpInBrowser(page, { firstName: "Noor" });
    await redeemStarterCode(page, account.email);
    await spendPinCredits(page, 19);
    const modal = page.getByRole("dialog", { name: "Enjoying Pinboard Studio, Noor?" });
    await finishAnAction(page);
    expect(await modal.count()).toBe(0);

    // Due now, but not on a page's load (issue 40 point 8: it opened over /generate as it loaded).
    await spendPinCredits(page, 1);
    await open(page, "/generate");
    await page.clock.fastForward(REFERRAL_MODAL_DELAY_MS);
    await settled(page);
    expect(await modal.count()).toBe(0);

    // Nor while something is at work (a busy part stands for a bulk action still running, as /generate marks it).
    await open(page, "/profile");
    await page.evaluate(() => {
      const work = document.createElement("div");
      work.setAttribute("aria-busy", "true");
      work.textContent = "Scheduling pins";
      document.body.append(work);
    });
    await page.getByLabel("First name").fill("Noor");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByText("Profile saved.", { exact: true }).waitFor();
    await page.clock.fastForward(REFERRAL_MODAL_DELAY_MS);
    await settled(page);
    expect(await modal.count()).toBe(0);

    // After a finished action, with nothing at work, it comes.
    await finishAnAction(page);
    await modal.waitFor();
    await modal.getByRole("heading", { name: "Gift a month, get a month" }).waitFor();
    expect(await modal.getByRole("button", { name: "Copy invite link" }).isVisible()).toBe(true);
    expect(await modal.getByRole("button", { name: "Send gift via email" }).isVisible()).toBe(true);
    expect(await seriousAxeViolations(page, "the referral modal")).toEqual([]);
    await modal.getByRole("button", { name: "Maybe later" }).click();
    await modal.waitFor({ state: "detached" });

    // Not again after the next actions.
    await finishAnAction(page);
    expect(await modal.count()).toBe(0);

    // 21 days later (the remembered showing moved back), it comes again after the next finished action.
    await page.evaluate(() => {
      const key = Object.keys(localStorage).find((name) => name.startsWith("referralModalShownAt:"))!;
      localStorage.setItem(key, String(Number(localStorage.getItem(key)) - 21 * 24 * 60 * 60 * 1000));
    });
    await finishAnAction(page);
    await modal.waitFor();
  });
});
