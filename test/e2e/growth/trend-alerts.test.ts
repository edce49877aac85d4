import { describe, expect, it } from "vitest";
import { signUpVerified } from "../support/accounts.ts";
import { seriousAxeViolations } from "../support/axe.ts";
import { appUrl, sandboxUrl, useBrowser } from "../support/browser.ts";
import { overflowing } from "../support/layout.ts";

// /pinterest-trend-alerts end to end (issue 19, decision 047): an alert made on the page, the
// Pinterest stand-in's trend rising, the cron that `npm start` fires every 5 minutes, the digest
// in the sandbox outbox, and its unsubscribe link.

const browser = useBrowser();

interface SentEmail {
  subject: string;
  html: string;
  text: string;
  links: string[];
  headers?: Record<string, string>;
}

async function digestTo(address: string): Promise<SentEmail> {
  for (let attempt = 0; attempt < 80; attempt += 1) {
    const response = await fetch(`${sandboxUrl()}/__sandbox/outbox?to=${encodeURIComponent(address)}`);
    const digest = ((await response.json()) as SentEmail[]).find((mail) => mail.headers?.["List-Unsubscribe"]);
    if (digest) return digest;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no trend alert e-mail to ${address}`);
}

describe("trend alerts page", () => {
  it("asks logged-out visitors to log in or sign up", async () => {
    const page = await browser.newPage();
    await page.goto("/pinterest-trend-alerts");
    await page.getByRole("heading", { level: 1, name: "Pinterest trend alerts" }).waitFor();
    await page.getByText("Login or sign up to set up trend alerts.").waitFor();
    // Linked from the site's footer.
    await page.getByRole("contentinfo").getByRole("link", { name: "Pinterest trend alerts" }).waitFor();
  });

  it("creates an alert, e-mails its digest when the keyword rises on Pinterest, and stops after the unsubscribe link", async () => {
    const page = await browser.newPage();
    const { email } = await signUpVerified(page);
    const keyword = `terracotta planter ${Date.now().toString(36)}`;

    await page.goto("/pinterest-trend-alerts");
    await page.getByText("No trend alerts yet. Create one to hear when your keywords rise.").waitFor();
    // Keyword chips: typed and added with Enter, removed with their button.
    const keywords = page.getByLabel("Keywords", { exact: true });
    await keywords.fill("planter ideas");
    await keywords.press("Enter");
    await keywords.fill(keyword);
    await keywords.press("Enter");
    await page.getByRole("button", { name: "Remove keyword planter ideas" }).click();
    expect(await page.getByRole("list", { name: "Keywords followed" }).getByRole("listitem").allTextContents()).toEqual([`${keyword}×`]);
    // Regions and interests are labelled checkboxes; frequency a radio group.
    await page.getByRole("checkbox", { name: "United States" }).uncheck();
    await page.getByRole("button", { name: "Create alert" }).click();
    await page.getByText("Please choose at least one region.").waitFor();
    await page.getByRole("checkbox", { name: "Canada" }).check();
    await page.getByRole("checkbox", { name: "Gardening" }).check();
    await page.getByRole("radio", { name: "Daily" }).check();
    await page.getByRole("button", { name: "Create alert" }).click();
    await page.getByText("Trend alert created").first().waitFor();
    const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: keyword, exact: true }) });
    await card.getByText("Not checked yet: the first check runs within a few minutes.").waitFor();
    expect(await card.getByText("Canada").isVisible()).toBe(true);
    expect(await card.getByText("Gardening").isVisible()).toBe(true);
    expect(await card.getByText("Every day").isVisible()).toBe(true);

    // Pinterest's searches for the keyword triple in Canada; the cron runs.
    const rise = await fetch(`${sandboxUrl()}/__sandbox/pinterest/trends/rise`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ keyword, region: "CA", factor: 3 }),
    });
    expect(rise.status).toBe(201);
    const cron = await fetch(`${appUrl()}/cdn-cgi/local/scheduled?cron=${encodeURIComponent("*/5 * * * *")}`);
    expect(cron.status).toBe(200);

    const digest = await digestTo(email);
    expect(digest.subject).toBe(`"${keyword}" is rising on Pinterest`);
    expect(digest.text).toMatch(new RegExp(`"${keyword}" is rising in Canada: searches up \\d+% on the week before`));
    const research = new URL(digest.links.find((link) => new URL(link).pathname === "/pinterest-keyword-research-tool")!);
    expect([research.searchParams.get("keyword"), research.searchParams.get("region")]).toEqual([keyword, "CA"]);
    const chartUrl = digest.html.match(/<img src="([^"]+)"/)![1].replace(/&amp;/g, "&");
    const chart = await fetch(chartUrl);
    expect(chart.status).toBe(200);
    expect(chart.headers.get("content-type")).toBe("image/png");
    expect(chart.headers.get("x-content-type-options")).toBe("nosniff");

    // A second cron run the same day mails nothing more.
    await fetch(`${appUrl()}/cdn-cgi/local/scheduled?cron=${encodeURIComponent("*/5 * * * *")}`);

    // The page shows the result in words and the e-mail in its history.
    await page.reload();
    await card.getByText(/^Last checked .+: found 1 keyword on the move, and we e-mailed you about it\.$/).waitFor();
    expect(await card.getByText(/is rising in Canada/).isVisible()).toBe(true);
    const history = page.getByRole("list", { name: "Trend e-mails sent" });
    await history.getByRole("heading", { name: digest.subject }).waitFor();
    expect(
      await history
        .getByRole("listitem")
        .filter({ has: page.getByRole("heading") })
        .count(),
    ).toBe(1);
    expect(await page.locator("main").textContent()).not.toMatch(/\d{4}-\d{2}-\d{2}T|pct_growth|weeklyChange/);
    const found: string[] = [];
    found.push(...(await seriousAxeViolations(page, "/pinterest-trend-alerts with an alert and a digest (desk)")));
    await page.setViewportSize({ width: 390, height: 844 });
    found.push(...(await seriousAxeViolations(page, "/pinterest-trend-alerts with an alert and a digest (phone)")));
    expect(found.join("\n")).toBe("");
    expect(await overflowing(page), "fits a phone without sideways scrolling").toEqual([]);
    await page.setViewportSize({ width: 1280, height: 800 });

    // The e-mail's unsubscribe link pauses the alerts.
    await page.goto(digest.links.find((link) => new URL(link).pathname === "/unsubscribe")!);
    await page.getByText(`${email} will no longer receive trend alert e-mails.`).waitFor();
    await page.getByRole("link", { name: "Go to my trend alerts" }).click();
    await card.getByText("Paused because you unsubscribed from trend alert e-mails. Resume it to get them again.").waitFor();
    expect(await card.getByText("Paused", { exact: true }).isVisible()).toBe(true);

    // Resume, then delete (with a confirmation).
    await card.getByRole("button", { name: `Resume alert ${keyword}` }).click();
    await page.getByText("Trend alert resumed").first().waitFor();
    await card.getByText("Active", { exact: true }).waitFor();
    await card.getByRole("button", { name: `Delete alert ${keyword}` }).click();
    await card.getByRole("button", { name: "Delete alert", exact: true }).click();
    await page.getByText("Trend alert deleted").first().waitFor();
    await page.getByText("No trend alerts yet. Create one to hear when your keywords rise.").waitFor();
    expect(
      await fetch(`${sandboxUrl()}/__sandbox/outbox?to=${encodeURIComponent(email)}`).then(
        async (response) => ((await response.json()) as SentEmail[]).filter((mail) => mail.headers?.["List-Unsubscribe"]).length,
      ),
    ).toBe(1);
  });
});
