import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { signUpInBrowser, TEST_PASSWORD, uniqueEmail } from "../support/accounts.ts";
import { seriousAxeViolations } from "../support/axe.ts";
import { appUrl, sandboxUrl, useBrowser } from "../support/browser.ts";
import { overflowing } from "../support/layout.ts";

const browser = useBrowser();

/** A 4xx answer the test provokes on purpose shows up in Chromium's console as "Failed to load resource". */
const EXPECTED_4XX = /status of 4\d\d/;
const SIGNUP_ALERT = "Please check your email to verify your account.";
/** A 1x1 PNG. */
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");

let addresses = 0;

/**
 * A fresh page whose sign-ups each come from their own documentation address
 * (RFC 5737): all e2e files share one app, and sign-ups are limited to 10 an
 * hour per client address (the limit itself is tested in test/workers).
 */
async function newPage(options?: Parameters<typeof browser.newPage>[0]): Promise<Page> {
  const page = await browser.newPage(options);
  await page.route("**/api/signup", (route) => {
    addresses += 1;
    return route.continue({ headers: { ...route.request().headers(), "cf-connecting-ip": `198.51.100.${(addresses % 250) + 1}` } });
  });
  return page;
}

/** Signs up in the browser (the shared helper) and answers the account with its @handle. */
async function signUp(page: Page, overrides: { firstName?: string; lastName?: string } = {}) {
  const fields = { firstName: "Maya", lastName: "Lindqvist", ...overrides };
  const { email, password } = await signUpInBrowser(page, fields);
  const handle = await page.evaluate(async () => ((await (await fetch("/api/user")).json()) as { credentials: { handle: string } }).credentials.handle);
  return { ...fields, email, password, handle };
}

/** Ends the session the way the app does: the server session and the stored tokens. */
async function logOutInBrowser(page: Page) {
  // Behind the page's back: first let its own first reads finish (the navbar's credits are the last,
  // loaded after hydration), or one answers 403 for the session ended under it.
  await page.getByTestId("nav-credits").first().waitFor();
  await page.evaluate(async () => {
    await fetch("/api/logout", { method: "POST" });
    localStorage.removeItem("FBIdToken");
    localStorage.removeItem("FBRefreshToken");
  });
}

interface SentEmail {
  subject: string;
  text: string;
  links: string[];
}

/** The e-mails sent to an address with a subject, waiting briefly for the first. */
async function emailsTo(address: string, subject: string): Promise<SentEmail[]> {
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const response = await fetch(`${sandboxUrl()}/__sandbox/outbox?to=${encodeURIComponent(address)}`);
    const mails = ((await response.json()) as SentEmail[]).filter((mail) => mail.subject === subject);
    if (mails.length > 0) return mails;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no "${subject}" e-mail to ${address}`);
}

function linkIn(mail: SentEmail, path: string): string {
  const link = mail.links.find((candidate) => new URL(candidate).pathname === path);
  if (!link) throw new Error(`no ${path} link in: ${mail.links.join(", ")}`);
  return link;
}

async function fillLogin(page: Page, email: string, password: string) {
  const form = page.getByRole("form", { name: "Log in with e-mail" });
  await form.getByLabel("E-mail", { exact: true }).fill(email);
  await form.getByLabel("Password").fill(password);
  await form.getByRole("button", { name: "Log in" }).click();
}

describe("sign-up and e-mail verification", () => {
  it("signs up through the form, lands on /onboarding with the alert, and verifies the e-mail from the outbox", async () => {
    const page = await newPage();
    const email = uniqueEmail("form");
    await page.goto("/signup");
    await page.getByLabel("First name").fill("Nora");
    await page.getByLabel("Last name").fill("Quist");
    await page.getByLabel("E-mail", { exact: true }).fill(email);
    await page.getByLabel("Password").fill(TEST_PASSWORD);
    await page.getByLabel("How did you hear about us?").selectOption("Other");
    await page.getByLabel("Where did you hear about us?").fill("A meetup");
    await page.getByRole("button", { name: "Create account" }).click();

    await page.waitForURL(/\/onboarding$/);
    await expect.poll(() => page.getByRole("status").filter({ hasText: SIGNUP_ALERT }).isVisible()).toBe(true);
    expect(await page.getByText("Welcome, Nora!").isVisible()).toBe(true);

    const [mail] = await emailsTo(email, "Verify your e-mail address");
    await page.goto(linkIn(mail, "/verify-email"));
    await page.getByText("Email verified", { exact: true }).waitFor();

    await page.goto("/profile");
    const emailBlock = page.getByRole("region", { name: "E-mail" });
    expect(await emailBlock.getByText(email).isVisible()).toBe(true);
    expect(await emailBlock.getByText("Verified", { exact: true }).isVisible()).toBe(true);
    expect(await emailBlock.getByRole("button", { name: "Resend verification e-mail" }).count()).toBe(0);
    // The onboarding step is ticked by the verification.
    await page.goto("/onboarding");
    expect(await page.getByLabel("Verify your e-mail address").isChecked()).toBe(true);
  });

  it("shows the server's field errors on the right sign-up field", async () => {
    const page = await newPage({ allowConsoleErrors: EXPECTED_4XX });
    const taken = await signUp(page);
    await logOutInBrowser(page);

    await page.goto("/signup");
    await page.getByLabel("First name").fill("Ola");
    await page.getByLabel("Last name").fill("Berg");
    await page.getByLabel("E-mail", { exact: true }).fill(uniqueEmail());
    // Client-side rule first: too short, no request.
    await page.getByLabel("Password").fill("short");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByText("Password must be at least 8 characters.").waitFor();

    // The common-password rule lives on the server.
    await page.getByLabel("Password").fill("password123");
    await page.getByRole("button", { name: "Create account" }).click();
    const password = page.getByLabel("Password");
    await page.getByText("This password is too common. Please choose a less guessable one.").waitFor();
    expect(await password.getAttribute("aria-invalid")).toBe("true");
    expect(await password.getAttribute("aria-describedby")).toContain((await page.getByText("This password is too common.").getAttribute("id")) ?? "missing");

    await password.fill(TEST_PASSWORD);
    await page.getByLabel("E-mail", { exact: true }).fill(taken.email);
    await page.getByRole("button", { name: "Create account" }).click();
    // Sign-up never says an address has an account (decision 083): the words a new account is shown, no session,
    // and the owner is e-mailed instead.
    await page.getByRole("status").filter({ hasText: "Please check your email to verify your account." }).waitFor();
    expect(page.url()).toMatch(/\/signup$/);
    expect(await page.evaluate(() => localStorage.getItem("FBIdToken"))).toBeNull();
  });
});

describe("login and logout", () => {
  it("logs out through the account menu, logs back in and returns to the page it came from", async () => {
    const page = await newPage();
    const account = await signUp(page);
    await page.goto("/profile");
    await page.getByRole("heading", { name: "Your profile" }).waitFor();

    await page.getByRole("button", { name: "Account menu" }).click();
    await page.getByRole("menuitem", { name: "Log out" }).click();
    await page.waitForURL(/\/login$/);

    await page.goto("/profile");
    const prompt = page.getByRole("region", { name: "Sign in required" });
    expect(await prompt.getByText("Login or sign up to view your profile.").isVisible()).toBe(true);
    // The prompt's Login leads to /login, which brings the user back (before the page's scripts run, or in a new tab).
    const loginLink = prompt.getByRole("link", { name: "Login" });
    expect(await loginLink.getAttribute("href")).toBe("/login?redirectTo=%2Fprofile");
    await page.goto("/login?redirectTo=%2Fprofile");

    await fillLogin(page, account.email, account.password);
    await page.waitForURL(/\/profile$/);
    expect(await page.getByLabel("First name").inputValue()).toBe(account.firstName);

    // Signed in, the sign-in pages send the user home (from the server, before any script runs).
    const login = await page.goto("/login");
    expect(new URL(page.url()).pathname).toBe("/");
    expect(login?.status()).toBe(200);
    await page.goto("/signup");
    expect(new URL(page.url()).pathname).toBe("/");
  });

  it("logs in and signs up in a dialog over the page, with Cancel", async () => {
    const page = await newPage({ allowConsoleErrors: EXPECTED_4XX });
    const account = await signUp(page);
    await logOutInBrowser(page);
    await page.goto("/profile");
    await page.waitForSelector('html[data-hydrated="true"]', { state: "attached" });
    const prompt = page.getByRole("region", { name: "Sign in required" });

    // Cancel closes the dialog and leaves the visitor where they were.
    await prompt.getByRole("link", { name: "Login" }).click();
    const dialog = page.getByRole("dialog", { name: "Log in" });
    await dialog.waitFor();
    expect(await seriousAxeViolations(page, "the login dialog")).toEqual([]);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "detached" });
    expect(new URL(page.url()).pathname).toBe("/profile");
    expect(await prompt.isVisible()).toBe(true);

    // A wrong password is answered in the dialog, which stays open.
    await prompt.getByRole("link", { name: "Login" }).click();
    await dialog.waitFor();
    await fillLogin(page, account.email, "Not-The-Password-1!");
    await dialog.getByRole("alert").filter({ hasText: "Wrong e-mail or password." }).waitFor();
    expect(await dialog.isVisible()).toBe(true);

    // Logged in, the dialog closes and the page shows what it is for, without leaving it.
    await fillLogin(page, account.email, account.password);
    await dialog.waitFor({ state: "detached" });
    await page.getByRole("heading", { name: "Your profile" }).waitFor();
    expect(await page.getByLabel("First name").inputValue()).toBe(account.firstName);
    expect(new URL(page.url()).pathname).toBe("/profile");

    // Sign Up: a new account goes to /onboarding with the sign-up alert, as after /signup.
    await logOutInBrowser(page);
    await page.goto("/profile");
    await page.waitForSelector('html[data-hydrated="true"]', { state: "attached" });
    await prompt.getByRole("link", { name: "Sign Up" }).click();
    const signup = page.getByRole("dialog", { name: "Create your free account" });
    const form = signup.getByRole("form", { name: "Sign up with e-mail" });
    await form.waitFor();
    expect(await seriousAxeViolations(page, "the sign-up dialog")).toEqual([]);
    await form.getByLabel("First name").fill("Ines");
    await form.getByLabel("Last name").fill("Moreau");
    await form.getByLabel("E-mail", { exact: true }).fill(uniqueEmail("dialog"));
    await form.getByLabel("Password").fill(TEST_PASSWORD);
    await form.getByRole("button", { name: "Create account" }).click();
    await page.waitForURL(/\/onboarding$/);
    await page.getByText(SIGNUP_ALERT).waitFor();
    expect(await signup.count()).toBe(0);
  });

  it("returns to the previous page of the tab when /login has no redirectTo", async () => {
    const page = await newPage();
    const account = await signUp(page);
    await logOutInBrowser(page);
    await page.goto("/onboarding");
    await page.goto("/login");
    await fillLogin(page, account.email, account.password);
    await page.waitForURL(/\/onboarding$/);
  });

  it("shows field errors without a request, and the server's general error", async () => {
    const page = await newPage({ allowConsoleErrors: EXPECTED_4XX });
    const loginCalls: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === "/api/login") loginCalls.push(request.url());
    });
    await page.goto("/login");
    const form = page.getByRole("form", { name: "Log in with e-mail" });
    const email = form.getByLabel("E-mail", { exact: true });

    await form.getByRole("button", { name: "Log in" }).click();
    await form.getByText("Please enter your e-mail.").waitFor();
    expect(await email.getAttribute("aria-invalid")).toBe("true");
    expect(await form.getByText("Please enter your password.").isVisible()).toBe(true);
    // Focus goes to the first field at fault.
    expect(await email.evaluate((element) => element === document.activeElement)).toBe(true);

    await email.fill("not-an-email");
    await form.getByLabel("Password").fill("whatever-it-is");
    await form.getByRole("button", { name: "Log in" }).click();
    await form.getByText("Please enter a valid email address.").waitFor();
    expect(loginCalls).toEqual([]);

    await email.fill(uniqueEmail("nobody"));
    await form.getByRole("button", { name: "Log in" }).click();
    await form.getByRole("alert").filter({ hasText: "Wrong e-mail or password." }).waitFor();
    expect(loginCalls).toHaveLength(1);
    expect(await email.getAttribute("aria-invalid")).toBeNull();
    expect(new URL(page.url()).pathname).toBe("/login");
  });

  it("signs in with Google through the sandbox popup and sends a new account to /onboarding", async () => {
    const page = await newPage();
    const email = uniqueEmail("google");
    await page.goto("/login");
    const popupPromise = page.waitForEvent("popup");
    await page.getByRole("button", { name: "Sign in with Google" }).click();
    const popup = await popupPromise;
    await popup.getByLabel("E-mail", { exact: true }).fill(email);
    await popup.getByLabel("First name").fill("Gina");
    await popup.getByLabel("Last name").fill("Oak");
    await popup.getByRole("button", { name: "Continue", exact: true }).click();

    await page.waitForURL(/\/onboarding$/);
    await page.getByText("Welcome, Gina!").waitFor();
    // Google verified the address: the step is done and there is nothing to verify.
    expect(await page.getByLabel("Verify your e-mail address").isChecked()).toBe(true);
    expect(await page.getByText(SIGNUP_ALERT).count()).toBe(0);
  });
});

describe("password reset", () => {
  it("resets the password through the e-mailed link; the new password works and the old one fails", async () => {
    const page = await newPage({ allowConsoleErrors: EXPECTED_4XX });
    const account = await signUp(page);
    await logOutInBrowser(page);
    const newPassword = "Copper-Meadow-77?";

    await page.goto("/forgot-password");
    await page.getByLabel("E-mail", { exact: true }).fill(account.email);
    await page.getByRole("button", { name: "Send reset link" }).click();
    await page.getByRole("status").filter({ hasText: "Password reset requested for this email." }).waitFor();

    const [mail] = await emailsTo(account.email, "Reset your password");
    await page.goto(linkIn(mail, "/reset-password"));
    await page.getByLabel("New password", { exact: true }).fill(newPassword);
    await page.getByLabel("Confirm new password").fill("Copper-Meadow-78?");
    await page.getByRole("button", { name: "Set new password" }).click();
    await page.getByText("The passwords do not match.").waitFor();
    await page.getByLabel("Confirm new password").fill(newPassword);
    await page.getByRole("button", { name: "Set new password" }).click();
    await page.getByText("Your password has been changed. Please log in with your new password.").waitFor();

    await page.getByRole("main").getByRole("link", { name: "Log in" }).click();
    await page.waitForURL(/\/login$/);
    await fillLogin(page, account.email, account.password);
    await page.getByRole("alert").filter({ hasText: "Wrong e-mail or password." }).waitFor();
    await fillLogin(page, account.email, newPassword);
    // Coming from the reset page, the login goes home (spec section 2).
    await page.waitForURL((url) => url.pathname === "/");

    // The link works once.
    await logOutInBrowser(page);
    await page.goto(linkIn(mail, "/reset-password"));
    await page.getByLabel("New password", { exact: true }).fill("Another-Pass-99!");
    await page.getByLabel("Confirm new password").fill("Another-Pass-99!");
    await page.getByRole("button", { name: "Set new password" }).click();
    await page.getByRole("alert").filter({ hasText: "This password reset link has expired or was already used." }).waitFor();
  });
});

describe("profile", () => {
  it("saves the name with a toast, uploads a PNG photo, shows the invite link, and deletes the account", async () => {
    const page = await newPage();
    const account = await signUp(page);
    await page.goto("/profile");

    await page.getByLabel("First name").fill("Renamed");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByText("Profile saved.", { exact: true }).waitFor();
    await page.reload();
    expect(await page.getByLabel("First name").inputValue()).toBe("Renamed");

    await page.getByLabel("Choose a profile photo").setInputFiles({ name: "me.png", mimeType: "image/png", buffer: PNG });
    await page.getByText("Profile photo updated.", { exact: true }).waitFor();
    const photo = page.getByRole("region", { name: "Profile photo" }).getByRole("img");
    await expect.poll(() => photo.getAttribute("src")).toMatch(/\/media\//);
    const served = await fetch(new URL((await photo.getAttribute("src"))!, appUrl()));
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);

    // The referral card (the gift dialog and its e-mail are tested in referrals.test.ts).
    const invite = await page.getByLabel("Your invite link").inputValue();
    expect(invite).toMatch(new RegExp(`^${appUrl()}/referral\\?pgreferral=[A-Z0-9]{8}$`));
    expect(await page.getByRole("button", { name: "Copy invite link" }).isVisible()).toBe(true);
    expect(await page.getByRole("button", { name: "Send gift via email" }).isVisible()).toBe(true);

    // A Free user's plan reads Free, once: not "Inactive", and not "Plan Free · Status Free".
    expect(await page.getByTestId("profile-plan-status").textContent()).toBe("Free");
    expect(await page.getByRole("region", { name: "Plan" }).locator("dt", { hasText: "Status" }).count()).toBe(0);

    // The photo's file chooser button looks like the page's other buttons, not the browser's own grey box.
    const chooser = await page.getByLabel("Choose a profile photo").evaluate((input) => {
      const style = getComputedStyle(input, "::file-selector-button");
      return [style.borderTopColor, style.borderTopLeftRadius, style.fontWeight, style.color];
    });
    const ghost = await page.getByRole("button", { name: "Resend verification e-mail" }).evaluate((button) => {
      const style = getComputedStyle(button);
      return [style.borderTopColor, style.borderTopLeftRadius, style.fontWeight, style.color];
    });
    expect(chooser).toEqual(ghost);

    // Signed-in pages fit a phone too.
    await page.setViewportSize({ width: 375, height: 740 });
    for (const path of ["/profile", "/onboarding"]) {
      await page.goto(path);
      expect(await overflowing(page), path).toEqual([]);
    }
    await page.goto("/profile");

    await page.getByRole("button", { name: "Delete account" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete your account?" });
    const confirm = dialog.getByRole("button", { name: "Delete my account" });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel("Type DELETE to confirm").fill("DELETE");
    await confirm.click();
    await page.waitForURL((url) => url.pathname === "/");
    await page.getByText("Your account has been deleted.", { exact: true }).waitFor();
    const login = await fetch(`${appUrl()}/api/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: account.email, password: account.password }),
    });
    expect(login.status).toBe(401);
  });

  it("shows a sign-in block to logged-out visitors", async () => {
    const page = await newPage();
    await page.goto("/profile");
    expect(await page.getByText("Login or sign up to view your profile.").isVisible()).toBe(true);
    await page.goto("/verify-email");
    expect(await page.getByText("Login or sign up to verify your email.").isVisible()).toBe(true);
    await page.goto("/onboarding");
    expect(await page.getByText("Login or sign up to see your onboarding checklist.").isVisible()).toBe(true);
  });
});

describe("onboarding and public profiles", () => {
  it("keeps a ticked step after a reload and shows the public profile by @handle", async () => {
    const page = await newPage({ allowConsoleErrors: /status of [45]\d\d/ });
    const account = await signUp(page, { firstName: "Pia", lastName: "Holm" });
    await page.goto("/onboarding");
    expect(await page.getByText("0 of 8 steps done").isVisible()).toBe(true);
    const step = page.getByLabel("Connect your Pinterest profile");
    const saved = page.waitForResponse((response) => new URL(response.url()).pathname === "/api/user/setOnboardingChecklist");
    await step.check();
    expect((await saved).status()).toBe(200);
    expect(await page.getByText("1 of 8 steps done").isVisible()).toBe(true);
    await page.reload();
    expect(await page.getByLabel("Connect your Pinterest profile").isChecked()).toBe(true);
    expect(await page.getByRole("progressbar").getAttribute("aria-valuenow")).toBe("1");

    await page.goto(`/users/${account.handle}`);
    await page.getByText(`@${account.handle}`).waitFor();
    expect(await page.getByRole("heading", { name: "Pia Holm" }).isVisible()).toBe(true);
    expect(await page.getByText(/^Member since /).isVisible()).toBe(true);

    // A pin that is not public (here: none such) is the not-found view (decision 055).
    const pin = await page.goto(`/users/${account.handle}/some-pin`);
    expect(pin?.status()).toBe(404);
    await page.getByRole("heading", { name: "Page Not Found" }).waitFor();

    await page.goto("/users/nobody.here.at.all");
    await page.getByRole("heading", { name: "Page Not Found" }).waitFor();

    // A tick that cannot be saved is rolled back.
    await page.goto("/onboarding");
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    await page.route("**/api/user/setOnboardingChecklist", async (route) => {
      await answered;
      await route.fulfill({
        status: 500,
        contentType: "application/json",
        body: JSON.stringify({ error: "Something went wrong on our side. Please try again." }),
      });
    });
    const generate = page.getByLabel("Generate pins from a blog post");
    await generate.click();
    // Ticked at once, before the server answers...
    expect(await generate.isChecked()).toBe(true);
    expect(await page.getByText("2 of 8 steps done").isVisible()).toBe(true);
    answer();
    // ...and unticked when saving fails.
    await page.getByText("Your checklist was not saved.", { exact: true }).waitFor();
    await expect.poll(() => generate.isChecked()).toBe(false);
    expect(await page.getByText("1 of 8 steps done").isVisible()).toBe(true);
  });
});

describe("newsletter pages", () => {
  it("sends the Success plan from /email-signup and unsubscribes from the e-mailed link", async () => {
    const page = await newPage();
    const email = uniqueEmail("reader");
    await page.goto("/email-signup");
    await page.getByLabel("E-mail", { exact: true }).fill("not an address");
    await page.getByRole("button", { name: "Send me the plan" }).click();
    await page.getByText("Please enter a valid email address", { exact: true }).waitFor();
    await page.getByLabel("E-mail", { exact: true }).fill(email);
    await page.getByRole("button", { name: "Send me the plan" }).click();
    await page.getByText("Please check your email for the download link.").waitFor();

    const [mail] = await emailsTo(email, "Your Pinterest Success Plan");
    await page.goto(linkIn(mail, "/unsubscribe"));
    await page.getByText(`${email} has been unsubscribed.`).waitFor();
  });
});

describe("small screens", () => {
  it("fits the account pages into 375 px without sideways scrolling", async () => {
    const page = await newPage({ viewport: { width: 375, height: 740 } });
    for (const path of ["/login", "/signup", "/forgot-password", "/email-signup"]) {
      await page.goto(path);
      expect(await overflowing(page), path).toEqual([]);
    }
  });
});
