import { readFile } from "node:fs/promises";
import Papa from "papaparse";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { signUpVerified } from "../support/accounts.ts";
import { promoteToAdmin } from "../support/admin.ts";
import { useBrowser } from "../support/browser.ts";

// The admin console's redeem codes and standard templates (issue 20, decision 053), end to end:
// an admin makes a batch of three codes, downloads its CSV, a user redeems one and the batch shows
// it used, by whom; an admin creates, designs, publishes and unpublishes a standard template, and a
// user sees it, then no longer does.

const browser = useBrowser();

async function hydrated(page: Page, path: string) {
  const response = await page.goto(path);
  await page.waitForSelector('html[data-hydrated="true"]', { state: "attached" });
  return response;
}

async function adminPage(): Promise<Page> {
  const page = await browser.newPage({ allowConsoleErrors: /404|Failed to load resource/ });
  const { email } = await signUpVerified(page);
  await promoteToAdmin(email);
  await hydrated(page, "/admin");
  return page;
}

describe("redeem codes in the admin console", () => {
  it("an admin creates a batch of 3 codes and downloads them; a user redeems one; the batch shows it used", async () => {
    const admin = await adminPage();
    const section = admin.getByRole("region", { name: "Redeem codes" });
    const note = `E2E ${Date.now().toString(36)}`;
    await section.getByLabel(/^Plan/).selectOption({ label: "Starter (monthly)" });
    await section.getByLabel(/^Months each code gives/).fill("2");
    await section.getByLabel(/^Number of codes/).fill("3");
    await section.getByLabel(/^Note for admins \(optional\)/).fill(note);
    await section.getByRole("button", { name: "Create codes" }).click();
    await admin.getByText("3 codes created").first().waitFor();

    // The new batch is listed, and its codes are shown.
    const batchRow = section.getByRole("table", { name: "Batches of redeem codes" }).getByRole("row").filter({ hasText: note });
    await batchRow.getByText("0 of 3").waitFor();
    const codesTable = section.getByRole("table", { name: "Codes of the batch" });
    await expect.poll(() => codesTable.getByRole("row").count()).toBe(4);
    const shown = (await codesTable.locator("tbody th code").allTextContents()).sort();
    expect(shown).toHaveLength(3);

    const [download] = await Promise.all([admin.waitForEvent("download"), batchRow.getByRole("button", { name: /^Download CSV/ }).click()]);
    expect(download.suggestedFilename()).toMatch(/^redeem-codes-starter-monthly-.*\.csv$/);
    const csv = Papa.parse<Record<string, string>>(await readFile((await download.path())!, "utf8"), { header: true, skipEmptyLines: true });
    expect(csv.data.map((row) => row.Code).sort()).toEqual(shown);
    for (const row of csv.data) expect(row).toMatchObject({ Plan: "Starter", Gives: "2 months of the Starter plan", Status: "Not used", Expires: "Never" });

    // A user redeems one of them on /redeem-code (the disabled one, later, is answered 409).
    const user = await browser.newPage({ allowConsoleErrors: /status of 409/ });
    const { email } = await signUpVerified(user);
    await hydrated(user, "/redeem-code");
    await user.getByLabel("Redemption code").fill(csv.data[1]!.Code!);
    await user.getByRole("button", { name: "Redeem code" }).click();
    await user.getByText("Your code has been redeemed: you now have 2 months of the Starter plan.").waitFor();

    // The admin sees it used, by that user.
    await hydrated(admin, "/admin");
    const row = section.getByRole("table", { name: "Batches of redeem codes" }).getByRole("row").filter({ hasText: note });
    await row.getByText("1 of 3").waitFor();
    await row.getByRole("button", { name: /^Show codes/ }).click();
    const used = section.getByRole("table", { name: "Codes of the batch" }).getByRole("row").filter({ hasText: csv.data[1]!.Code! });
    await used.getByText("Used", { exact: true }).waitFor();
    expect(await used.getByText(email).isVisible()).toBe(true);

    // Disabling another code: the user cannot redeem it.
    const other = section.getByRole("table", { name: "Codes of the batch" }).getByRole("row").filter({ hasText: csv.data[0]!.Code! });
    await other.getByRole("button", { name: `Disable ${csv.data[0]!.Code}` }).click();
    await other.getByRole("button", { name: `Disable for good ${csv.data[0]!.Code}` }).click();
    await admin.getByText(`Code ${csv.data[0]!.Code} disabled`).first().waitFor();
    await user.getByLabel("Redemption code").fill(csv.data[0]!.Code!);
    await user.getByRole("button", { name: "Redeem code" }).click();
    await user.getByText("This code is no longer valid.").waitFor();
  }, 120_000);
});

describe("standard templates in the admin console", () => {
  it("an admin creates, designs and publishes a standard template, then unpublishes it, and a user no longer sees it", async () => {
    const admin = await adminPage();
    const section = admin.getByRole("region", { name: "Standard templates" });
    const title = `Admin pick ${Date.now().toString(36)}`;
    await section.getByLabel(/^Title/).fill(title);
    await section.getByLabel(/^Category/).selectOption({ label: "No category" });
    await section.getByRole("button", { name: "Create template" }).click();
    await admin.getByText(`"${title}" created`).first().waitFor();

    // Designed in the template editor, saved back as the standard template.
    await section.getByRole("link", { name: `Design “${title}” in the editor` }).click();
    await admin.getByRole("heading", { name: title }).waitFor();
    await admin.getByText("This is a standard template: once it is published, every user sees what you save here.").waitFor();
    const editorPath = new URL(admin.url()).pathname;
    expect(editorPath).toMatch(/^\/template-builder\/[0-9a-f-]{36}$/);
    await admin.getByRole("button", { name: "Save", exact: true }).click();
    await admin.getByText("Template saved").first().waitFor();

    await hydrated(admin, "/admin");
    await section.getByLabel(/^Show/).selectOption({ label: "All standard templates" });
    const item = section.getByRole("listitem").filter({ hasText: title });
    await item.getByText("Not published").waitFor();
    await item.getByRole("button", { name: `Publish ${title}` }).click();
    await admin.getByText(`"${title}" is published`).first().waitFor();
    await item.getByText("Published", { exact: true }).waitFor();

    // Its editor's address answers 404 to the user at the end.
    const user = await browser.newPage({ allowConsoleErrors: /404/ });
    await signUpVerified(user);
    await hydrated(user, "/templates?tab=standard");
    const gallery = user.getByRole("list", { name: "Standard templates" });
    await gallery.getByRole("heading", { name: title }).waitFor();

    await item.getByRole("button", { name: `Unpublish ${title}` }).click();
    await item.getByRole("button", { name: `Hide from users ${title}` }).click();
    await admin.getByText(`"${title}" is unpublished`).first().waitFor();
    await item.getByText("Not published").waitFor();

    await hydrated(user, "/templates?tab=standard");
    await gallery.getByRole("listitem").first().waitFor();
    expect(await gallery.getByRole("heading", { name: title }).count()).toBe(0);
    // Nor can it be opened.
    expect((await user.goto(editorPath))?.status()).toBe(404);
  }, 120_000);
});
