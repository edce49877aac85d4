import { XMLParser } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { RSS_FIRST_CHECK_POSTS } from "../../../contracts/pinterest/rss.ts";
import { signUpVerified } from "../support/accounts.ts";
import { redeemStarterCode } from "../support/admin.ts";
import { seriousAxeViolations } from "../support/axe.ts";
import { overflowing } from "../support/layout.ts";
import { appUrl, sandboxUrl, useBrowser } from "../support/browser.ts";
import { BOARD, connectProfile, uniquePinterestUsername } from "../support/pinterest.ts";

const browser = useBrowser();

/** Issue 18: an RSS feed for Pinterest's auto-publish made from the demo blog, filled by the cron, seen on the page. */
describe("/pinterest-rss-feeds", () => {
  it("asks a signed-out visitor to log in or sign up", async () => {
    const page = await browser.newPage();
    await page.goto("/pinterest-rss-feeds");
    await page.getByText("Login or sign up to create RSS feeds that Pinterest publishes as pins.", { exact: true }).waitFor();
    expect(await page.getByRole("link", { name: "Login" }).getAttribute("href")).toBe("/login?redirectTo=%2Fpinterest-rss-feeds");
  });

  it("creates a feed from the demo blog; after the cron runs, its pins show with their images and its public feed lists them", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const { email } = await signUpVerified(page);
    await redeemStarterCode(page, email);
    const username = uniquePinterestUsername();
    await connectProfile(page, username);

    await page.goto("/pinterest-rss-feeds");
    await page.waitForSelector('html[data-hydrated="true"]', { state: "attached" });
    await page.getByText("You have no RSS feeds yet.", { exact: true }).waitFor();
    await page.getByRole("button", { name: "Add an RSS feed" }).click();
    const form = page.getByRole("region", { name: "New RSS feed" });
    await form.getByLabel("Blog feed or sitemap address").fill(`${sandboxUrl()}/blog-demo/feed.xml`);
    await form.getByLabel("Feed name").fill("Linen & Lark");
    const board = form.getByLabel("Board", { exact: true });
    await expect.poll(() => board.locator("option").count(), { timeout: 20_000 }).toBeGreaterThan(1);
    await board.selectOption({ label: BOARD });
    await form.locator('.board-fields[aria-busy="false"]').waitFor();
    await form.getByRole("button", { name: "Create feed" }).click();
    await page.getByText('RSS feed "Linen & Lark" created', { exact: true }).first().waitFor();

    const card = page.getByRole("article", { name: "Linen & Lark" });
    await card.getByText("Not yet: the first check runs within a few minutes.", { exact: true }).waitFor();
    await card.getByText(`${BOARD} on ${username}`, { exact: true }).waitFor();
    const publicUrl = await card.getByLabel("Public feed address (give it to Pinterest)").inputValue();
    expect(publicUrl).toMatch(new RegExp(`^${appUrl().replace(/[.]/g, "\\.")}/api/rss/feed/[A-Za-z0-9_-]{43}$`));
    await card.getByText("How to claim this feed in Pinterest", { exact: true }).click();
    await card.getByText("Open Settings → Bulk create Pins, and choose Connect RSS feed (Auto-publish).", { exact: true }).waitFor();

    // The cron `npm start` fires every 5 minutes, fired now.
    const cron = await fetch(`${appUrl()}/cdn-cgi/local/scheduled?cron=${encodeURIComponent("*/5 * * * *")}`);
    expect(cron.status).toBe(200);

    // The cron has checked the feed: the page shows its pins once reloaded (the state is polled, so a failure says what the feed reached).
    const feedState = () =>
      page.evaluate(async () => {
        const response = await fetch("/api/rss/getRSSFeeds", { headers: { authorization: `Bearer ${localStorage.getItem("FBIdToken")}` } });
        const [feed] = ((await response.json()) as { rssFeeds: { publishedCount: number; lastError: string | null; pausedReason: string | null }[] }).rssFeeds;
        return { publishedCount: feed?.publishedCount, lastError: feed?.lastError, pausedReason: feed?.pausedReason };
      });
    await expect.poll(feedState, { timeout: 90_000, interval: 1_000 }).toEqual({ publishedCount: RSS_FIRST_CHECK_POSTS, lastError: null, pausedReason: null });
    await page.reload();
    await page.waitForSelector('html[data-hydrated="true"]', { state: "attached" });
    await card.getByText(`${RSS_FIRST_CHECK_POSTS} in the feed;`, { exact: false }).waitFor();
    const pins = page.getByRole("region", { name: "Latest pins of Linen & Lark" }).getByRole("img");
    await expect.poll(() => pins.count(), { timeout: 20_000 }).toBe(RSS_FIRST_CHECK_POSTS);
    // Every image has loaded: real 1000x1500 pins, not broken images.
    await expect
      .poll(
        () => pins.evaluateAll((images) => images.map((image) => `${(image as HTMLImageElement).naturalWidth}x${(image as HTMLImageElement).naturalHeight}`)),
        { timeout: 20_000 },
      )
      .toEqual(Array.from({ length: RSS_FIRST_CHECK_POSTS }, () => "1000x1500"));
    expect(await card.getByText("Last checked", { exact: true }).count()).toBe(1);
    expect(await card.getByText("Not yet: the first check runs within a few minutes.").count()).toBe(0);

    // What Pinterest reads: the same pins, as an RSS 2.0 feed.
    const feed = await fetch(publicUrl);
    expect(feed.headers.get("content-type")).toBe("application/rss+xml; charset=utf-8");
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@", isArray: (name) => name === "item" }).parse(await feed.text());
    expect(parsed.rss["@version"]).toBe("2.0");
    expect(parsed.rss.channel.title).toBe("Linen & Lark");
    expect(parsed.rss.channel.item).toHaveLength(RSS_FIRST_CHECK_POSTS);
    const shown = await pins.evaluateAll((images) => images.map((image) => (image as HTMLImageElement).src));
    expect(new Set(parsed.rss.channel.item.map((item: { enclosure: { "@url": string } }) => item.enclosure["@url"]))).toEqual(new Set(shown));

    // The page with a feed, its pins and its form open passes axe, on a desk and on a phone, and fits a phone.
    await card.getByRole("button", { name: "Edit" }).click();
    await card.getByRole("region", { name: "Edit Linen & Lark" }).locator('.board-fields[aria-busy="false"]').waitFor();
    const found = await seriousAxeViolations(page, "/pinterest-rss-feeds (a feed with pins, editing)");
    await page.setViewportSize({ width: 390, height: 844 });
    found.push(...(await seriousAxeViolations(page, "/pinterest-rss-feeds on a phone")));
    expect(found.join("\n"), "serious or critical axe violations").toBe("");
    expect(await overflowing(page)).toEqual([]);
    await card.getByRole("button", { name: "Cancel" }).click();

    // Switched off, it says so.
    await card.getByRole("switch", { name: "Feed on" }).uncheck();
    await page.getByText('"Linen & Lark" is off', { exact: true }).first().waitFor();
    await card.getByText("Off", { exact: true }).waitFor();
  }, 180_000);
});
