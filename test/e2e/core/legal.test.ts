import { describe, expect, it } from "vitest";
import { appUrl, useBrowser } from "../support/browser.ts";

// The legal pages and their PDFs (issue 17; spec section 2).

const browser = useBrowser();

async function pdfAt(href: string) {
  const response = await fetch(new URL(href, appUrl()));
  const bytes = Buffer.from(await response.arrayBuffer());
  return {
    status: response.status,
    type: response.headers.get("content-type"),
    nosniff: response.headers.get("x-content-type-options"),
    head: bytes.subarray(0, 5).toString("latin1"),
  };
}

describe("legal pages", () => {
  it("the terms link the privacy policy and affiliate agreement PDFs, served as PDFs", async () => {
    const page = await browser.newPage();
    await page.goto("/terms-and-conditions");
    const links = { privacy: page.getByRole("link", { name: "PDF", exact: true }), affiliate: page.getByRole("link", { name: "affiliate agreement (PDF)" }) };
    expect(await links.privacy.getAttribute("href")).toBe("/privacy-policy.pdf");
    expect(await links.affiliate.getAttribute("href")).toBe("/affiliate-agreement.pdf");
    expect(await page.getByText("governed by the law of the Netherlands").count()).toBe(1);
    for (const link of Object.values(links)) {
      expect(await pdfAt((await link.getAttribute("href"))!)).toEqual({ status: 200, type: "application/pdf", nosniff: "nosniff", head: "%PDF-" });
    }
  });

  it("the privacy policy page shows the same text as its PDF, under the law of England and Wales, and links the PDF", async () => {
    const page = await browser.newPage();
    await page.goto("/privacy-policy");
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Privacy policy");
    expect(await page.getByText("This privacy policy is governed by the law of England and Wales").count()).toBe(1);
    expect(await page.getByRole("main").getByRole("link", { name: "terms and conditions", exact: true }).getAttribute("href")).toBe("/terms-and-conditions");
    expect(await page.getByRole("main").getByRole("link", { name: "hello@pinboard.studio" }).first().getAttribute("href")).toBe("mailto:hello@pinboard.studio");
    const download = page.getByRole("link", { name: "Download it as a PDF." });
    expect(await pdfAt((await download.getAttribute("href"))!)).toMatchObject({ status: 200, type: "application/pdf", head: "%PDF-" });
  });
});
