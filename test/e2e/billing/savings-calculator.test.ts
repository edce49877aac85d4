import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { appUrl, useBrowser } from "../support/browser.ts";
import { overflowing } from "../support/layout.ts";

// /savings-calculator (issue 17): figures from the plans table, server-rendered, live in the browser, with a chart.

const browser = useBrowser();

async function open(page: Page, path: string) {
  await page.goto(path);
  await page.waitForSelector('html[data-hydrated="true"]', { state: "attached" });
}

const figure = (page: Page, id: string) => page.getByTestId(id).textContent();
const row = (page: Page, name: string) =>
  page
    .getByRole("row", { name: new RegExp(`^${name}`) })
    .getByRole("cell")
    .allTextContents();

describe("/savings-calculator", () => {
  it("renders the default figures on the server, and the query's without JavaScript", async () => {
    const html = await (await fetch(new URL("/savings-calculator", appUrl()))).text();
    // 30 pins a week are 130 a month: 26 hours by hand at 12 minutes, 2.2 at 1 minute; Starter annual is $14.08 a month.
    expect(html).toContain("23.8 hours");
    expect(html).toContain("$700.92");
    expect(html).toContain("Starter, annual: $14.08 a month, 150 pin credits");
    const custom = await (await fetch(new URL("/savings-calculator?pinsPerWeek=60&planId=pro-monthly", appUrl()))).text();
    expect(custom).toContain("47.7 hours");
    expect(custom).toContain("$1,400.01");
  });

  it("changes its figures, table and chart as the numbers change, and warns when the plan has too few credits", async () => {
    const page = await browser.newPage();
    await open(page, "/savings-calculator");
    await page.waitForSelector("canvas[data-ready=true]");
    expect(await figure(page, "hours-saved")).toBe("23.8 hours");
    expect(await row(page, "Hours spent")).toEqual(["26 hours", "2.2 hours"]);

    await page.getByLabel("Pins per week").fill("60");
    await page.getByTestId("hours-saved").getByText("47.7 hours").waitFor();
    expect(await figure(page, "net-saving")).toBe("$1,415.92");
    expect(await page.getByRole("note").textContent()).toContain("260 pins a month need 260 pin credits; the Starter, annual plan has 150.");
    expect(await page.locator("canvas").getAttribute("data-total")).toBe("1560");

    await page.getByLabel("Plan", { exact: true }).selectOption("pro-monthly");
    await page.getByTestId("net-saving").getByText("$1,400.01").waitFor();
    expect(await page.getByRole("note").count()).toBe(0);
    expect(await row(page, "Plan")).toEqual(["$0.00", "$29.99"]);

    await page.getByLabel("What an hour of your time is worth (USD)").fill("0");
    await page.getByTestId("net-saving").getByText("-$29.99").waitFor();
    expect(await page.getByText("at these numbers the plan costs more than the time it saves").count()).toBe(1);
  });

  it("fits a phone", async () => {
    const page = await browser.newPage({ viewport: { width: 375, height: 740 } });
    await open(page, "/savings-calculator");
    await page.waitForSelector("canvas[data-ready=true]");
    expect(await overflowing(page)).toEqual([]);
  });
});
