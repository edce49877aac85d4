import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { seriousAxeViolations } from "../support/axe.ts";
import { sandboxUrl, useBrowser } from "../support/browser.ts";
import { overflowing } from "../support/layout.ts";

// /contact and its feedback dialog (issue 17; spec sections 2, 4, 5, 7, 8).

const browser = useBrowser();
const PHONE = { width: 375, height: 740 };

async function open(page: Page, path: string) {
  await page.goto(path);
  await page.waitForSelector('html[data-hydrated="true"]', { state: "attached" });
}

const dialog = (page: Page) => page.getByRole("dialog", { name: "Send us feedback" });

interface Mail {
  to: string[];
  text: string;
  replyTo: string[];
}

async function mailsWith(marker: string): Promise<Mail[]> {
  const outbox = (await (await fetch(`${sandboxUrl()}/__sandbox/outbox?to=hello%40pinboard.studio`)).json()) as Mail[];
  return outbox.filter((mail) => mail.text.includes(marker));
}

describe("/contact", () => {
  it("lists the configured e-mail, phone and social profiles, and works on a phone", async () => {
    const page = await browser.newPage({ viewport: PHONE });
    await open(page, "/contact");
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Contact us");
    expect(await page.getByRole("link", { name: "hello@pinboard.studio" }).getAttribute("href")).toBe("mailto:hello@pinboard.studio");
    expect(await page.getByRole("link", { name: "+31 20 794 2210" }).getAttribute("href")).toBe("tel:+31207942210");
    for (const [name, href] of [
      ["Pinterest", "https://www.pinterest.com/pinboardstudio/"],
      ["Instagram", "https://www.instagram.com/pinboardstudio/"],
      ["YouTube", "https://www.youtube.com/@pinboardstudio"],
      ["LinkedIn", "https://www.linkedin.com/company/pinboardstudio/"],
    ]) {
      expect(await page.getByRole("link", { name: `${name} (opens in a new tab)` }).getAttribute("href"), name).toBe(href);
    }
    expect(await overflowing(page)).toEqual([]);
  });

  it("sends feedback after checking the text and, when a response is wanted, the address; then closes emptied", async () => {
    const page = await browser.newPage();
    await open(page, "/contact");
    await page.getByRole("button", { name: "Send us feedback" }).click();
    const form = dialog(page);
    await form.waitFor();

    // Text is required.
    await form.getByRole("button", { name: "Send", exact: true }).click();
    await form.getByText("Please write your message.").waitFor();
    expect(await form.getByLabel("Your message").getAttribute("aria-invalid")).toBe("true");
    expect(await seriousAxeViolations(page, "/contact with the feedback dialog open")).toEqual([]);

    const marker = `Board sorting idea ${Date.now()}`;
    await form.getByLabel("Your message").fill(`${marker}: could boards be sorted by name?`);
    // A response needs a valid address.
    await form.getByLabel("I would like a response").check();
    await form.getByRole("button", { name: "Send", exact: true }).click();
    await form.getByText("Please enter a valid email.").waitFor();
    await form.getByLabel("Your email").fill("reader@example");
    await form.getByRole("button", { name: "Send", exact: true }).click();
    await form.getByText("Please enter a valid email.").waitFor();
    expect(await mailsWith(marker)).toEqual([]);

    await form.getByLabel("Your email").fill("reader@example.com");
    await form.getByRole("button", { name: "Send", exact: true }).click();
    await page.getByText("Message Sent.").first().waitFor();
    await form.waitFor({ state: "detached" });
    const [mail] = await mailsWith(marker);
    expect(mail.text).toContain(`${marker}: could boards be sorted by name?`);
    expect(mail.replyTo).toEqual(["reader@example.com"]);

    // Opened again, the dialog is empty.
    await page.getByRole("button", { name: "Send us feedback" }).click();
    await form.waitFor();
    expect(await form.getByLabel("Your message").inputValue()).toBe("");
    expect(await form.getByLabel("I would like a response").isChecked()).toBe(false);
    expect(await form.getByLabel("Your email").count()).toBe(0);
  });

  it("says 'Message failed to send.' when the e-mail provider refuses it, and closes", async () => {
    const fault = await fetch(`${sandboxUrl()}/__sandbox/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ service: "email", method: "POST", path: "/emails", status: 503 }),
    });
    expect(fault.status).toBe(201);
    const page = await browser.newPage({ allowConsoleErrors: /status of 502/ });
    await open(page, "/contact");
    await page.getByRole("button", { name: "Send us feedback" }).click();
    const marker = `Lost message ${Date.now()}`;
    await dialog(page).getByLabel("Your message").fill(marker);
    await page.keyboard.press("Tab");
    await dialog(page).getByRole("button", { name: "Send", exact: true }).click();
    await page.getByText("Message failed to send.").first().waitFor();
    await dialog(page).waitFor({ state: "detached" });
    expect(await mailsWith(marker)).toEqual([]);
  });
});
