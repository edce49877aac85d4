import type { Page, Route } from "playwright-core";
import { describe, expect, it } from "vitest";
import { signUpInBrowser } from "../support/accounts.ts";
import { useBrowser } from "../support/browser.ts";

// Issue 12, point 11: a user with two tabs open stays signed in when both tabs refresh their
// sign-in at the same moment with the same refresh token.

const browser = useBrowser();

async function hydrated(page: Page) {
  await page.waitForSelector('html[data-hydrated="true"]', { state: "attached" });
}

describe("two tabs", () => {
  it("both stay signed in and keep working when they refresh together", async () => {
    // The expired id token is answered 403 before each tab refreshes: the browser logs that.
    const first = await browser.newPage({ allowConsoleErrors: /status of 403/ });
    await signUpInBrowser(first, { firstName: "Tara", lastName: "Moss" });
    await first.goto("/pin-history");
    await hydrated(first);
    const second = await first.context().newPage();
    await second.goto("/pin-history");
    await hydrated(second);
    await second.getByText("No pins yet.").waitFor();
    const oldRefreshToken = await first.evaluate(() => localStorage.getItem("FBRefreshToken"));

    // Hold each tab's refresh until both have sent theirs, so they reach the server together
    // with the same refresh token (the id token they both read from storage has expired).
    const held: Route[] = [];
    let release!: () => void;
    const bothSent = new Promise<void>((resolve) => (release = resolve));
    const sentTokens: string[] = [];
    const statuses: number[] = [];
    for (const page of [first, second]) {
      await page.route("**/api/auth/token", async (route) => {
        sentTokens.push(JSON.parse(route.request().postData() ?? "{}").refresh_token);
        held.push(route);
        if (held.length === 2) release();
        await bothSent;
        await route.continue();
      });
      page.on("response", (response) => {
        if (response.url().endsWith("/api/auth/token")) statuses.push(response.status());
      });
    }
    await first.evaluate(() => localStorage.setItem("FBIdToken", "expired-id-token"));
    await Promise.all([first.reload(), second.reload()]);
    await bothSent;
    await expect.poll(() => statuses.length).toBe(2);

    expect(sentTokens).toEqual([oldRefreshToken, oldRefreshToken]);
    expect(statuses).toEqual([200, 200]);
    for (const page of [first, second]) {
      await page.getByText("No pins yet.").waitFor();
      expect(await page.getByRole("banner").getByRole("button", { name: "Account menu" }).textContent()).toContain("TM");
      const status = await page.evaluate(
        async () => (await fetch("/api/user", { headers: { authorization: `Bearer ${localStorage.getItem("FBIdToken")}` } })).status,
      );
      expect(status).toBe(200);
    }
    expect(await first.evaluate(() => localStorage.getItem("FBRefreshToken"))).not.toBe(oldRefreshToken);
  });
});
