import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { signUpVerified } from "../support/accounts.ts";
import { callApi, promoteToAdmin } from "../support/admin.ts";
import { seriousAxeViolations } from "../support/axe.ts";
import { sandboxUrl, useBrowser } from "../support/browser.ts";
import { connectProfile, uniquePinterestUsername } from "../support/pinterest.ts";

// Every page passes axe-core with no serious or critical violation (colour contrast included),
// signed out and signed in, on a desk and on a phone. The pages come from app/routes itself, so a
// page is checked the day it is added.

const browser = useBrowser();

/** Values for the routes' path parameters: real enough to render their page (a missing one renders not-found, which is checked too). */
const PARAMS: Record<string, string> = { templateId: "no-such-template", handle: "no-such-handle", postId: "no-such-pin", slug: "pinterest-seo-basics" };
/** Routes that are not pages a person looks at: they redirect at once. */
const NOT_PAGES = new Set(["auth.google.callback.tsx"]);

/** Remix flat-route file names to paths: "template-builder.$templateId.tsx" -> "/template-builder/no-such-template". */
function pagePaths(): string[] {
  const files = readdirSync(join(process.cwd(), "app/routes")).filter((file) => /\.tsx$/.test(file) && !NOT_PAGES.has(file));
  return files
    .map((file) => file.replace(/\.tsx$/, ""))
    .map((name) => {
      if (name === "$") return "/no-such-page";
      const segments = name
        .split(".")
        .filter((segment) => segment !== "_index")
        .map((segment) => (segment.startsWith("$") ? (PARAMS[segment.slice(1)] ?? "x") : segment));
      return `/${segments.join("/")}`;
    })
    .sort();
}

async function serious(page: Page, path: string): Promise<string[]> {
  await page.goto(path);
  await page.waitForSelector('html[data-hydrated="true"]', { state: "attached" });
  // Wait until what the page loads has arrived (no spinner left), then let one frame paint.
  await page.waitForFunction(() => document.querySelectorAll('[aria-busy="true"], .spinner').length === 0, null, { timeout: 15_000 }).catch(() => undefined);
  return seriousAxeViolations(page, path);
}

describe("accessibility of every page (axe-core)", () => {
  it("finds the pages from app/routes", () => {
    expect(pagePaths()).toContain("/");
    expect(pagePaths()).toContain("/generate");
    // Issue 17's pages, and the sign-in and pricing pages it names, are among them.
    expect(pagePaths()).toEqual(
      expect.arrayContaining([
        "/blog",
        "/blog/pinterest-seo-basics",
        "/page/pinterest-seo-basics",
        "/pinterest-mini-course",
        "/savings-calculator",
        "/privacy-policy",
        "/terms-and-conditions",
        "/contact",
        "/admin",
        "/lifetime",
        "/login",
        "/signup",
        "/pricing",
      ]),
    );
    expect(pagePaths().length).toBeGreaterThan(20);
  });

  it("has no serious or critical violation signed out, on a desk", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, allowConsoleErrors: /404|Failed to load resource/ });
    const found: string[] = [];
    for (const path of pagePaths()) found.push(...(await serious(page, path)));
    expect(found.join("\n"), "serious or critical axe violations").toBe("");
  }, 240_000);

  it("has no serious or critical violation signed in, on a desk and on a phone", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, allowConsoleErrors: /404|Failed to load resource/ });
    await signUpVerified(page);
    const found: string[] = [];
    for (const path of pagePaths()) found.push(...(await serious(page, path)));
    await page.setViewportSize({ width: 390, height: 844 });
    for (const path of pagePaths()) found.push(...(await serious(page, path)));
    expect(found.join("\n"), "serious or critical axe violations").toBe("");
  }, 360_000);

  it("has no serious or critical violation on the basic generator with pins and on a public pin, on a desk and on a phone", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, allowConsoleErrors: /404|Failed to load resource/ });
    await signUpVerified(page);
    await page.goto("/backupGenerator");
    await page.getByLabel("Blog post or page address").fill(`${inject("sandboxUrl")}/blog-demo/posts/berry-smoothie-bowls`);
    await page.getByLabel("Number of pins").selectOption("1");
    await page.getByRole("button", { name: "Generate pins" }).click();
    await page.getByRole("heading", { name: "Your pins" }).waitFor({ timeout: 60_000 });
    const generated = page.url();
    const rendered = await callApi(page, "/highMemLimitApi/scraping/renderTemplateImage", {
      post: {
        template: { title: "Plain", background: "#f4efe6", layers: [], categories: [] },
        title: "A public pin",
        description: "Its page.",
        url: "https://linen.example/a",
      },
    });
    expect(rendered.status).toBe(200);
    const history = await callApi(page, "/api/user/getPinHistory", { startAtDate: null });
    const made = await callApi(page, "/api/user/pinHistory/setPublic", { id: history.body.pinHistory[0].id, isPublic: true });
    expect(made.status).toBe(200);
    const found: string[] = [];
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      for (const path of [generated, made.body.pin.publicUrl]) found.push(...(await serious(page, path)));
    }
    expect(found.join("\n"), "serious or critical axe violations").toBe("");
  }, 180_000);

  it("has no serious or critical violation on the affiliate dashboard and the admin page, on a desk and on a phone", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, allowConsoleErrors: /404|Failed to load resource/ });
    const { email } = await signUpVerified(page);
    expect((await callApi(page, "/api/affiliate/createAffiliateProfile", {})).status).toBe(200);
    await promoteToAdmin(email);
    const found: string[] = [];
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      for (const path of ["/affiliate", "/admin"]) found.push(...(await serious(page, path)));
    }
    expect(await page.getByRole("heading", { name: "Affiliate payouts" }).count()).toBe(1);
    // The content editor open, with a preview shown.
    await page.getByRole("button", { name: "New blog post" }).click();
    await page.getByLabel("Text (Markdown)").fill("## A heading\n\nSome text with [a link](/blog).");
    await page.getByRole("button", { name: "Preview" }).click();
    await page.getByLabel("Preview").getByRole("heading", { name: "A heading" }).waitFor();
    found.push(...(await seriousAxeViolations(page, "/admin (content editor)")));
    // A batch of redeem codes with its codes shown, on a desk and on a phone (issue 20).
    // A note no other row can hold by chance: a bare "Axe" once matched another table's row (an e-mail address with
    // "axe" in its random part, the match being case-insensitive) that has no "Show codes".
    const note = `Axe ${Date.now().toString(36)}`;
    expect((await callApi(page, "/api/admin/redeemCodes", { planId: "starter-monthly", count: 2, months: 1, note })).status).toBe(201);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await serious(page, "/admin");
      await page
        .getByRole("table", { name: "Batches of redeem codes" })
        .getByRole("row")
        .filter({ hasText: note })
        .getByRole("button", { name: /^Show codes/ })
        .click();
      await page.getByRole("table", { name: "Codes of the batch" }).waitFor();
      found.push(...(await seriousAxeViolations(page, `/admin (redeem codes, ${width} px)`)));
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    // The users section with an account's detail open, and the audit log below (issue 20).
    const users = page.getByRole("region", { name: "Users" });
    await users.getByLabel("Search users").fill(email);
    await users.getByRole("button", { name: "Search" }).click();
    await users.getByRole("button", { name: `Manage ${email}` }).click();
    await page.getByRole("dialog").getByRole("heading", { name: "Grant credits" }).waitFor();
    found.push(...(await seriousAxeViolations(page, "/admin (account detail)")));
    expect(found.join("\n"), "serious or critical axe violations").toBe("");
  }, 120_000);

  it("has no serious or critical violation on /post-approvals with a profile, a reviewer and a waiting pin, for the owner and the reviewer, on a desk and on a phone", async () => {
    const owner = await browser.newPage({ viewport: { width: 1280, height: 900 }, allowConsoleErrors: /404|Failed to load resource/ });
    await signUpVerified(owner);
    const username = uniquePinterestUsername();
    await connectProfile(owner, username);
    const reviewerEmail = `reviewer.${Date.now().toString(36)}@example.com`;
    const send = (method: string, path: string, body: unknown) =>
      owner.evaluate(
        async ({ method, path, body }) => {
          const response = await fetch(path, {
            method,
            headers: { "content-type": "application/json", authorization: `Bearer ${localStorage.getItem("FBIdToken")}` },
            body: JSON.stringify(body),
          });
          return response.status;
        },
        { method, path, body },
      );
    expect(await send("PUT", "/api/approvals/settings", { pinterestProfileUsername: username, approvalRequired: true })).toBe(200);
    expect(await send("POST", "/api/approvals/reviewers", { pinterestProfileUsername: username, email: reviewerEmail })).toBe(201);
    const accounts = (await (await fetch(`${sandboxUrl()}/__sandbox/pinterest/accounts`)).json()) as {
      username: string;
      boards: { id: string; name: string }[];
    }[];
    const board = accounts.find((account) => account.username === username)!.boards[0];
    const pin = {
      title: "Amalfi coast in three days",
      description: "A slow travel guide.",
      url: `${sandboxUrl()}/blog-demo/posts/amalfi-coast-itinerary`,
      imageURL: `${sandboxUrl()}/blog-demo/images/amalfi-coast-itinerary-1.jpg`,
      boardId: board.id,
      boardName: board.name,
      pinterestProfileUsername: username,
      type: "SpecificDate",
      scheduledTime: Date.now() + 24 * 3_600_000,
    };
    expect(await send("POST", "/api/scheduling/schedulePin", pin)).toBe(201);
    const mails = (await (await fetch(`${sandboxUrl()}/__sandbox/outbox?to=${encodeURIComponent(reviewerEmail)}`)).json()) as { links: string[] }[];
    const link = mails.at(-1)!.links.find((candidate) => new URL(candidate).pathname === "/post-approvals")!;
    const reviewer = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const found: string[] = [];
    for (const width of [1280, 390]) {
      await owner.setViewportSize({ width, height: 900 });
      found.push(...(await serious(owner, "/post-approvals")));
      await reviewer.setViewportSize({ width, height: 900 });
      found.push(...(await serious(reviewer, link)));
    }
    expect(await owner.getByText("Awaiting approval", { exact: true }).count()).toBe(1);
    expect(await reviewer.getByRole("button", { name: "Approve “Amalfi coast in three days”" }).count()).toBe(1);
    expect(found.join("\n"), "serious or critical axe violations").toBe("");
  }, 180_000);
});
