import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { signUpVerified } from "../support/accounts.ts";
import { seriousAxeViolations } from "../support/axe.ts";
import { useBrowser } from "../support/browser.ts";
import { overflowing } from "../support/layout.ts";

// /pinterest-keyword-research-tool (issue 19) against the Pinterest stand-in: search, table,
// chart, copy, CSV, "Use as AI keywords" into /generate's design settings, and the visitor's one try.

const browser = useBrowser();

async function open(page: Page) {
  await page.goto("/pinterest-keyword-research-tool");
  await page.waitForSelector('html[data-hydrated="true"]', { state: "attached" });
}

async function searchFor(page: Page, keyword: string, region?: string) {
  await page.getByLabel("Keyword", { exact: true }).fill(keyword);
  if (region) await page.getByLabel("Region").selectOption(region);
  await page.getByRole("button", { name: "Research keyword" }).click();
}

const chartTerms = async (page: Page) => (await page.locator(".keywords__chart canvas").getAttribute("data-terms"))?.split("|") ?? [];

describe("/pinterest-keyword-research-tool", () => {
  it("searches a keyword, charts two terms, copies and exports them, and sends three to /generate as AI keywords", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await signUpVerified(page);
    await open(page);

    await page.getByRole("button", { name: "Research keyword" }).click();
    expect(await page.getByText("Please enter a keyword.").count()).toBe(1);

    await searchFor(page, "Christmas Nails");
    const heading = page.getByRole("heading", { name: "Keywords for \u201Cchristmas nails\u201D in United States" });
    await heading.waitFor();
    await page.waitForSelector(".keywords__chart canvas[data-ready=true]");
    expect(await chartTerms(page)).toEqual(["christmas nails"]);
    const table = page.getByRole("table");
    expect(await table.getByRole("row").count()).toBeGreaterThan(10);
    const seedRow = table.getByRole("row", { name: /^Choose christmas nails christmas nails your keyword/ });
    expect(await seedRow.getByRole("cell").nth(2).textContent()).toContain("top this month");

    // Chart a second term.
    await page.getByLabel("Choose holiday nails", { exact: true }).check();
    await page.waitForFunction(() => document.querySelector(".keywords__chart canvas")?.getAttribute("data-terms") === "christmas nails|holiday nails");
    expect(await page.getByText("2 keywords chosen").count()).toBe(1);
    expect(await seriousAxeViolations(page, "keyword research results")).toEqual([]);

    // Sort and filter.
    const lastYear = page.getByRole("columnheader", { name: /Last year/ });
    await lastYear.getByRole("button").click();
    expect(await lastYear.getAttribute("aria-sort")).toBe("descending");
    await lastYear.getByRole("button").click();
    expect(await lastYear.getAttribute("aria-sort")).toBe("ascending");
    await page.getByLabel("Filter terms").fill("holiday");
    await page.waitForFunction(() => [...document.querySelectorAll(".keywords__table tbody th")].every((cell) => cell.textContent?.includes("holiday")));
    const holiday = await table.getByRole("rowheader").allTextContents();
    expect(holiday).toContain("holiday nails");
    expect(holiday.length).toBeLessThan(10);
    await page.getByLabel("Filter terms").fill("");
    await page.getByLabel("Show", { exact: true }).selectOption("suggested");
    const suggested = await table.getByRole("rowheader").allTextContents();
    expect(suggested.length).toBeGreaterThan(4);
    expect(suggested.every((term) => term.startsWith("christmas nails "))).toBe(true);

    // Copy the chosen terms.
    await page.getByRole("button", { name: "Copy to clipboard" }).click();
    await page.getByText("Copied 2 keywords to the clipboard.").first().waitFor();
    expect((await page.evaluate(() => navigator.clipboard.readText())).split("\n").sort()).toEqual(["christmas nails", "holiday nails"]);

    // Export the table as shown (the suggested terms) as CSV.
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download CSV" }).click()]);
    expect(download.suggestedFilename()).toBe("pinterest-keywords-christmas-nails-us.csv");
    const csv = readFileSync((await download.path())!, "utf8")
      .trim()
      .split(/\r?\n/);
    expect(csv[0]).toMatch(/^Keyword,Found as,Pinterest trend lists,Weekly change %,Monthly change %,Yearly change %,Interest week ending \d{4}-\d{2}-\d{2}/);
    expect(csv).toHaveLength(suggested.length + 1);
    expect(csv.slice(1).map((line) => line.split(",")[0])).toEqual(suggested);

    // A third term, then to /generate.
    await page.getByLabel("Show", { exact: true }).selectOption("all");
    await page.getByLabel("Choose nail ideas", { exact: true }).check();
    await page.waitForFunction(() => document.querySelector(".keywords__chart canvas")?.getAttribute("data-terms")?.split("|").length === 3);
    await page.getByRole("button", { name: "Use as AI keywords" }).click();
    await page.waitForURL("**/generate");
    await page.getByText('3 keywords are now the AI keywords of your design settings "Default".').first().waitFor();
    const drawer = page.getByRole("complementary", { name: "Design settings" });
    await drawer.getByText("AI copy").click();
    const keywords = drawer.getByLabel("Keywords", { exact: true });
    await page.waitForFunction(() => [...document.querySelectorAll("textarea")].some((area) => area.value.includes("holiday nails")));
    expect((await keywords.inputValue()).split("\n").sort()).toEqual(["christmas nails", "holiday nails", "nail ideas"]);
  });

  it("gives a visitor one search, then asks them to sign up", async () => {
    // The 401 of the second try, asked below on purpose, is logged by the browser.
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, allowConsoleErrors: /status of 401/ });
    await open(page);
    expect(await page.getByText("Try one search free; sign up to keep researching.").count()).toBe(1);
    await searchFor(page, "summer outfits", "AU+NZ");
    await page.getByRole("heading", { name: "Keywords for \u201Csummer outfits\u201D in Australasia" }).waitFor();
    await page.getByText("Login or sign up to keep researching keywords.").waitFor();
    expect(await page.getByRole("button", { name: "Research keyword" }).isDisabled()).toBe(true);
    // The server counts the try, not the page.
    const again = await page.evaluate(async () => (await fetch("/api/keywords/research?keyword=beach+outfits&region=US")).status);
    expect(again).toBe(401);
    expect(await page.getByRole("link", { name: "Sign Up" }).count()).toBeGreaterThan(0);
  });

  it("fits a phone with its results, searched from a link (a trend alert's e-mail) with its keyword and region", async () => {
    const page = await browser.newPage({ viewport: { width: 375, height: 740 } });
    await signUpVerified(page);
    await page.goto("/pinterest-keyword-research-tool?keyword=wedding+nails&region=GB%2BIE");
    await page.getByRole("heading", { name: /Keywords for .wedding nails. in Great Britain & Ireland/ }).waitFor();
    await page.waitForSelector(".keywords__chart canvas[data-ready=true]");
    expect(await overflowing(page)).toEqual([]);
    expect(await seriousAxeViolations(page, "keyword research results on a phone")).toEqual([]);
  });
});
