import { readFile } from "node:fs/promises";
import { gunzipSync } from "node:zlib";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { signUpVerified } from "../support/accounts.ts";
import { callApi } from "../support/admin.ts";
import { seriousAxeViolations } from "../support/axe.ts";
import { useBrowser } from "../support/browser.ts";
import { overflowing } from "../support/layout.ts";

// Issue 38 point 3 (decision 084): pin history older than 13 months leaves the page for one gzip NDJSON file per
// month, listed under "Older months" on /pin-history and downloadable there.

const browser = useBrowser();

async function open(page: Page, path: string) {
  await page.goto(path);
  await page.waitForSelector('html[data-hydrated="true"]', { state: "attached" });
}

describe("older months of pin history", () => {
  it("lists a month past the 13 kept online as a file the user downloads from /pin-history, on a phone too", async () => {
    const page = await browser.newPage({ viewport: { width: 375, height: 740 } });
    await signUpVerified(page);
    for (const title of ["Linen napkins, three folds", "A table for six"]) {
      const charged = await callApi(page, "/api/scraping/addPinHistoryAndAdjustCredits", {
        pinDetails: {
          action: "downloaded",
          title,
          description: "For a dinner table.",
          url: "https://linen.example/napkins",
          imageUrl: "https://linen.example/napkins.jpeg",
        },
        category: "image",
      });
      expect(charged.status).toBe(200);
    }
    // Fifteen months on: the two downloads are past the 13 months kept online, and the ledger's retention archives them.
    expect((await callApi(page, "/api/dev/pinHistory/backdate", { days: 460 })).body).toEqual({ entries: 2 });

    const archives = page.getByRole("region", { name: "Older months" });
    await expect
      .poll(
        async () => {
          await open(page, "/pin-history");
          return archives.isVisible();
        },
        { timeout: 30_000 },
      )
      .toBe(true);
    const link = archives.getByRole("link");
    expect(await link.count()).toBe(1);
    expect(await archives.textContent()).toContain("(2 pins,");
    expect(await page.getByText("Linen napkins, three folds").count(), "no longer on the page itself").toBe(0);
    expect(await seriousAxeViolations(page, "/pin-history with older months")).toEqual([]);
    expect(await overflowing(page)).toEqual([]);

    const download = page.waitForEvent("download");
    await link.click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^pin-history-\d{4}-\d{2}\.ndjson\.gz$/);
    const entries = gunzipSync(await readFile((await file.path())!))
      .toString("utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { title: string });
    expect(entries.map((entry) => entry.title).sort()).toEqual(["A table for six", "Linen napkins, three folds"]);
  });
});
