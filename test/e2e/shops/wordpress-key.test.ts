import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { signUpInBrowser } from "../support/accounts.ts";
import { seriousAxeViolations } from "../support/axe.ts";
import { appUrl, useBrowser } from "../support/browser.ts";
import { overflowing } from "../support/layout.ts";

// Issue 20, the WordPress hand-off (decision 054): the access key card on /profile. The key is
// shown once with a copy button; rotating it stops the old key at once; revoking stops it too.

const browser = useBrowser();

async function open(page: Page, path: string) {
  await page.goto(path);
  await page.waitForSelector('html[data-hydrated="true"]', { state: "attached" });
}

/** What the plugin's first call answers with this key (the status). */
async function pluginStatus(key: string): Promise<number> {
  const response = await fetch(new URL("/api/wordpress/account", appUrl()), { headers: { authorization: `Bearer ${key}` } });
  await response.body?.cancel();
  return response.status;
}

describe("/profile, the WordPress access key", () => {
  it("creates a key shown once with a copy button, rotates it and revokes it, each refused at once when replaced", async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await signUpInBrowser(page, { firstName: "Wanda" });
    await open(page, "/profile");
    const card = page.getByRole("region", { name: "WordPress" });
    await card.getByText("You have no access key yet.").waitFor();

    await card.getByRole("button", { name: "Create access key" }).click();
    await page.getByText("Your WordPress access key is ready. Copy it now.").first().waitFor();
    const field = card.getByLabel("Your new access key");
    const key = await field.inputValue();
    expect(key).toMatch(/^pbwp_[A-Za-z0-9_-]{43}$/);
    await card
      .getByTestId("wordpress-key-shown")
      .getByText(`${key.slice(0, 9)}…`)
      .waitFor();
    await card.getByText("Not used yet").waitFor();
    await card.getByRole("button", { name: "Copy key" }).click();
    await page.getByText("Access key copied.").first().waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    expect(await pluginStatus(key)).toBe(200);
    expect(await overflowing(page)).toEqual([]);
    expect(await seriousAxeViolations(page, "/profile with a new WordPress key, on a phone")).toEqual([]);

    // Shown once: after a reload, only its first characters.
    await open(page, "/profile");
    await card
      .getByTestId("wordpress-key-shown")
      .getByText(`${key.slice(0, 9)}…`)
      .waitFor();
    expect(await card.getByLabel("Your new access key").count()).toBe(0);
    expect(await page.content()).not.toContain(key);
    // Used once by the plugin above: the card says when, in words.
    await card.getByText(/^Last used$/).waitFor();
    expect(await card.getByText("Not used yet").count()).toBe(0);

    // Rotate, confirmed in a dialog: a new key, and the old one refused at once.
    await card.getByRole("button", { name: "Rotate key" }).click();
    const rotateDialog = page.getByRole("dialog", { name: "Rotate your WordPress access key?" });
    await rotateDialog.waitFor();
    expect(await seriousAxeViolations(page, "/profile, rotating the WordPress key")).toEqual([]);
    await rotateDialog.getByRole("button", { name: "Rotate key" }).click();
    await page.getByText("Your WordPress access key was rotated. The old key no longer works.").first().waitFor();
    const rotated = await card.getByLabel("Your new access key").inputValue();
    expect(rotated).not.toBe(key);
    await card
      .getByTestId("wordpress-key-shown")
      .getByText(`${rotated.slice(0, 9)}…`)
      .waitFor();
    expect(await pluginStatus(key)).toBe(401);
    expect(await pluginStatus(rotated)).toBe(200);

    // Revoke, confirmed with the keyboard: the key is refused at once and the card offers a new one.
    await card.getByRole("button", { name: "Revoke key" }).focus();
    await page.keyboard.press("Enter");
    const revokeDialog = page.getByRole("dialog", { name: "Revoke your WordPress access key?" });
    await revokeDialog.waitFor();
    await revokeDialog.getByRole("button", { name: "Revoke key" }).click();
    await page.getByText("Your WordPress access key was revoked.").first().waitFor();
    await card.getByRole("button", { name: "Create access key" }).waitFor();
    expect(await card.getByLabel("Your new access key").count()).toBe(0);
    expect(await pluginStatus(rotated)).toBe(401);
  });

  it("has no serious or critical violation on a desk, with and without a key", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signUpInBrowser(page, { firstName: "Desmond" });
    await open(page, "/profile");
    const card = page.getByRole("region", { name: "WordPress" });
    await card.getByRole("button", { name: "Create access key" }).waitFor();
    expect(await seriousAxeViolations(page, "/profile without a WordPress key, on a desk")).toEqual([]);
    await card.getByRole("button", { name: "Create access key" }).click();
    await card.getByLabel("Your new access key").waitFor();
    await card.getByText(/^Created$/).waitFor();
    expect(await seriousAxeViolations(page, "/profile with a WordPress key, on a desk")).toEqual([]);
  });
});
