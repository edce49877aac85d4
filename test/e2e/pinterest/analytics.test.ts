import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { signUpVerified } from "../support/accounts.ts";
import { callApi } from "../support/admin.ts";
import { seriousAxeViolations } from "../support/axe.ts";
import { sandboxUrl, useBrowser } from "../support/browser.ts";
import { overflowing } from "../support/layout.ts";
import { BOARD, connectProfile, uniquePinterestUsername } from "../support/pinterest.ts";

/** Issue 41: connect, post a pin, see it on /analytics with its chart, its picture, its table and its CSV, then apply the best times. */

const browser = useBrowser();

const DEMO_POST = "berry-smoothie-bowls";
const DESK = { width: 1400, height: 1000 };
const PHONE = { width: 390, height: 844 };
/** How many days old the posted pin is made before its figures are read. */
const AGE_DAYS = 5;

async function open(page: Page, path: string) {
  await page.goto(path);
  await page.waitForSelector('html[data-hydrated="true"]', { state: "attached" });
}

/** The pins the stand-in received for an account. */
async function postedPins(username: string): Promise<{ id: string; title: string }[]> {
  const response = await fetch(`${sandboxUrl()}/__sandbox/pinterest/pins?username=${encodeURIComponent(username)}`);
  return (await response.json()) as { id: string; title: string }[];
}

/** A datetime-local value in GMT (the default schedule's zone). */
const gmtFieldValue = (ms: number) => new Date(ms).toISOString().slice(0, 19);

const cards = (page: Page) => page.getByRole("list", { name: "Generated pins" }).getByRole("listitem");

describe("/analytics", () => {
  it("asks logged-out visitors to log in, and a user without a profile to connect one", async () => {
    const page = await browser.newPage();
    await open(page, "/analytics");
    await page.getByText("Login or sign up to see your pin analytics.", { exact: true }).waitFor();
    expect(await page.getByRole("link", { name: "Login" }).first().getAttribute("href")).toBe("/login?redirectTo=%2Fanalytics");

    await signUpVerified(page);
    await open(page, "/analytics");
    const link = page.getByRole("link", { name: "Connect a Pinterest profile on the scheduling page" });
    await link.waitFor();
    expect(await link.getAttribute("href")).toBe("/scheduling");
    // The account menu leads here.
    await page.getByRole("banner").getByRole("button", { name: "Account menu" }).click();
    expect(await page.getByRole("menuitem", { name: "Analytics" }).getAttribute("href")).toBe("/analytics");
  });

  it("shows a posted pin's figures with the chart, its picture, the table and the CSV; /scheduling applies the best times", {
    timeout: 240_000,
  }, async () => {
    const page = await browser.newPage({ viewport: DESK });
    await signUpVerified(page);
    const username = uniquePinterestUsername();
    await connectProfile(page, username);

    // Before anything is synced: one plain sentence.
    await open(page, "/analytics");
    await page.getByText(/they arrive within a day of your first pin posted with Pinboard Studio/).waitFor();

    // Generate one pin from a blog post and schedule it a few seconds ahead.
    await open(page, "/generate");
    const drawer = page.getByRole("complementary", { name: "Design settings" });
    await drawer.getByLabel("Pins per post").fill("1");
    await page.getByLabel("Paste a blog post or web page URL").fill(`${sandboxUrl()}/blog-demo/posts/${DEMO_POST}`);
    await page.getByRole("button", { name: "Generate", exact: true }).click();
    await expect.poll(() => cards(page).count(), { timeout: 20_000 }).toBe(1);
    const title = (await cards(page).first().locator("h3").textContent()) ?? "";

    // The schedule request says what made the pin (issue 41): its template and its source.
    const scheduleRequest = page.waitForRequest((request) => request.url().endsWith("/api/scheduling/schedulePin") && request.method() === "POST");
    await page.getByRole("button", { name: "Schedule pin 1" }).click();
    const dialog = page.getByRole("dialog", { name: "Schedule 1 pin" });
    const board = dialog.getByLabel("Board", { exact: true });
    await expect.poll(() => board.locator("option").count(), { timeout: 20_000 }).toBeGreaterThan(1);
    await board.selectOption({ label: BOARD });
    await dialog.locator('.board-fields[aria-busy="false"]').waitFor();
    await dialog.getByLabel("At a date and time").check();
    await dialog.getByLabel("Date and time (GMT)").fill(gmtFieldValue(Date.now() + 20_000));
    await dialog.getByRole("button", { name: "Schedule 1 pin" }).click();
    const sent = (await scheduleRequest).postDataJSON() as { pins: { templateId?: string; templateTitle?: string; source?: string }[] };
    expect(sent.pins[0]?.source).toBe("blog");
    expect(sent.pins[0]?.templateId).toBeTruthy();
    expect(sent.pins[0]?.templateTitle).toBeTruthy();
    await page.getByText(`1 pin scheduled to ${BOARD}`, { exact: true }).first().waitFor({ timeout: 30_000 });
    await expect.poll(async () => (await postedPins(username)).length, { timeout: 60_000, interval: 1_000 }).toBe(1);

    // A few days on (the stand-in's figures and our record of the posting, both moved back), the figures are read
    // from Pinterest: the dev control runs the sync now rather than with the night's alarm.
    const aged = await fetch(`${sandboxUrl()}/__sandbox/pinterest/analytics/age-pins`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username, days: AGE_DAYS }),
    });
    expect(aged.status).toBe(200);
    expect((await callApi(page, "/api/dev/analytics/backdate", { pinterestProfileUsername: username, days: AGE_DAYS })).body).toEqual({ pins: 1 });
    const sync = await callApi(page, "/api/dev/analytics/sync", { pinterestProfileUsername: username });
    expect(sync.status).toBe(200);

    await open(page, "/analytics");
    const totals = page.getByRole("region", { name: "Last 30 days" });
    await totals.waitFor({ timeout: 20_000 });
    const impressions = (await totals.locator('[data-figure="Impressions"]').textContent()) ?? "";
    expect(impressions).toMatch(/^\d{1,3}(,\d{3})*$/);
    expect(await totals.locator('[data-figure="Engagement rate"]').textContent()).toMatch(/^\d+(\.\d)?%$/);

    // The chart is drawn, and its table carries the same days.
    const chart = page.locator(".analytics-chart canvas");
    await expect.poll(() => chart.getAttribute("data-ready"), { timeout: 20_000 }).toBe("true");
    expect(await chart.getAttribute("aria-label")).toMatch(/^Impressions by day/);
    await page.getByRole("radio", { name: "Saves" }).check();
    await expect.poll(() => chart.getAttribute("data-metric")).toBe("saves");
    const showTable = page.getByRole("button", { name: "Show as a table" });
    await showTable.focus();
    await page.keyboard.press("Enter");
    const table = page.getByRole("region", { name: "Figures by day" });
    await table.waitFor();
    expect(await table.getByRole("row").count()).toBe(Number(await chart.getAttribute("data-days")) + 1);

    // The pin with its picture and its Pinterest link.
    const topPins = page.getByRole("list", { name: "Top pins by impressions" });
    const [posted] = await postedPins(username);
    const pin = topPins.getByRole("listitem").filter({ hasText: title });
    await pin.waitFor();
    const picture = pin.getByRole("img", { name: title });
    await expect.poll(() => picture.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
    expect(await pin.getByRole("link", { name: title }).getAttribute("href")).toBe(`https://www.pinterest.com/pin/${posted!.id}/`);
    expect(await pin.textContent()).toContain("Blog post or page");
    await page.getByLabel("Sort by").selectOption("saves");
    await page.getByRole("list", { name: "Top pins by saves" }).getByRole("listitem").filter({ hasText: title }).waitFor();

    // Breakdowns by board, template, family, source and hour.
    await page.locator('table[data-breakdown="board"]').getByRole("rowheader", { name: BOARD }).waitFor();
    await page.locator('table[data-breakdown="source"]').getByRole("rowheader", { name: "Blog post or page" }).waitFor();

    // The CSV export downloads the window's figures with the pin in it.
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export CSV" }).click()]);
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    const csv = readFileSync((await download.path())!, "utf8");
    expect(csv).toContain(posted!.id);

    // Axe on a desk and a phone, with data; nothing sticks out on the phone.
    expect(await seriousAxeViolations(page, "/analytics (desk)")).toEqual([]);
    await page.setViewportSize(PHONE);
    await open(page, "/analytics");
    await expect.poll(() => page.locator(".analytics-chart canvas").getAttribute("data-ready"), { timeout: 20_000 }).toBe("true");
    await page.getByRole("button", { name: "Show as a table" }).click();
    expect(await overflowing(page)).toEqual([]);
    expect(await seriousAxeViolations(page, "/analytics (phone)")).toEqual([]);
    await page.setViewportSize(DESK);

    // /scheduling: the suggested times (the defaults for a single pin, with the note saying so) and "Use these times".
    // A new profile posts at the default times already: move them first, so that using the suggestion changes them.
    await open(page, "/scheduling");
    const suggestion = page.getByRole("region", { name: "Suggested posting times" });
    await suggestion.waitFor({ timeout: 20_000 });
    await suggestion.getByText(/^These are the usual posting times: your own are worked out once 30 of your pins have figures/).waitFor();
    await suggestion.getByRole("button", { name: "These times are in use" }).waitFor();
    const firstWindow = page.getByRole("group", { name: "First posting window" });
    await firstWindow.getByLabel("From").fill("03:00");
    await firstWindow.getByLabel("To").fill("05:00");
    await page.getByLabel("Use a second posting window").uncheck();
    await page.getByRole("button", { name: "Save settings" }).click();
    await page.getByText("Scheduling settings saved", { exact: true }).waitFor();
    const suggested = (await suggestion.locator("[data-suggested]").textContent()) ?? "";
    const before = await page.getByRole("list", { name: "Daily posting times" }).getByRole("listitem").allTextContents();
    await suggestion.getByRole("button", { name: "Use these times" }).click();
    await page.getByText("Posting times changed", { exact: true }).waitFor();
    await page
      .getByText(new RegExp(`now posts from ${suggested.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`))
      .first()
      .waitFor();
    await suggestion.getByRole("button", { name: "These times are in use" }).waitFor();
    const after = await page.getByRole("list", { name: "Daily posting times" }).getByRole("listitem").allTextContents();
    expect(after).not.toEqual(before);
    // The first window's start is a posting time now ("20:00 to 22:00 ..." posts at 20:00).
    expect(after).toContain(suggested.slice(0, 5));
    // Saved: a fresh visit shows the same times.
    await open(page, "/scheduling");
    await expect
      .poll(() => page.getByRole("list", { name: "Daily posting times" }).getByRole("listitem").allTextContents(), { timeout: 20_000 })
      .toEqual(after);
  });
});
