import type { Page } from "playwright-core";
import { expect } from "vitest";
import { sandboxUrl } from "./browser.ts";

/** A password the server's password policy accepts. */
export const TEST_PASSWORD = "Violet-Harbour-42!";

let counter = 0;
let signUps = 0;

/** Four hex digits naming the running test file (FNV-1a of its path). */
function fileTag(): string {
  const path = expect.getState().testPath ?? "";
  let hash = 2166136261;
  for (let i = 0; i < path.length; i += 1) hash = Math.imul(hash ^ path.charCodeAt(i), 16777619);
  return ((hash >>> 0) & 0xffff).toString(16);
}

/** An e-mail address no other test (or earlier run) has used. */
export function uniqueEmail(prefix = "user"): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}-${Math.random().toString(36).slice(2, 8)}@example.test`;
}

export interface SignUpFields {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
}

/**
 * Signs a new user up through the API from inside the page, so the session
 * cookie lands in the browser and the tokens in its local storage, then reloads
 * the page signed in. Leaves the page where it was (the home page if it was
 * blank).
 *
 * All e2e files share one app, and sign-ups are limited to 10 an hour per client
 * address, so each sign-up claims its own documentation address (RFC 3849):
 * the test file's own prefix and the sign-up's number in it, the same in every
 * run, never shared between files.
 */
export async function signUpInBrowser(page: Page, overrides: Partial<SignUpFields> = {}): Promise<{ email: string; password: string }> {
  const fields: SignUpFields = { email: uniqueEmail(), password: TEST_PASSWORD, firstName: "Test", lastName: "User", ...overrides };
  if (!page.url().startsWith("http")) await page.goto("/");
  // Sign up only once the page has hydrated: its first-load effects must not race the new tokens.
  await page.waitForSelector('html[data-hydrated="true"]', { state: "attached" });
  signUps += 1;
  const clientAddress = `2001:db8:${fileTag()}::${signUps.toString(16)}`;
  const failure = await page.evaluate(
    async ({ body, clientAddress }) => {
      const response = await fetch("/api/signup", {
        method: "POST",
        headers: { "content-type": "application/json", "cf-connecting-ip": clientAddress },
        body: JSON.stringify(body),
      });
      const answer = (await response.json()) as { idToken?: string; refreshToken?: string; error?: string };
      if (!response.ok || !answer.idToken || !answer.refreshToken) return `${response.status} ${answer.error ?? "no tokens"}`;
      localStorage.setItem("FBIdToken", answer.idToken);
      localStorage.setItem("FBRefreshToken", answer.refreshToken);
      return null;
    },
    { body: fields, clientAddress },
  );
  if (failure) throw new Error(`signing up ${fields.email} failed: ${failure}`);
  await page.reload();
  return { email: fields.email, password: fields.password };
}

/** The verification link e-mailed to an address (the sandbox's outbox). */
export async function verificationLink(address: string): Promise<string> {
  for (let attempt = 0; attempt < 40; attempt += 1) {
    const response = await fetch(`${sandboxUrl()}/__sandbox/outbox?to=${encodeURIComponent(address)}`);
    const mails = (await response.json()) as { subject: string; links: string[] }[];
    const mail = mails.find((candidate) => candidate.subject === "Verify your e-mail address");
    const link = mail?.links.find((candidate) => new URL(candidate).pathname === "/verify-email");
    if (link) return link;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no verification e-mail to ${address}`);
}

/** A new user with a verified e-mail, signed in on the page. */
export async function signUpVerified(page: Page): Promise<{ email: string; password: string }> {
  const account = await signUpInBrowser(page);
  await page.goto(await verificationLink(account.email));
  await page.getByText("Email verified", { exact: true }).waitFor();
  return account;
}
