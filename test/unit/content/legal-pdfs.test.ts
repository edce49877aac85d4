import { readFile } from "node:fs/promises";
import { PDFDocument } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { buildLegalPdf, LEGAL_PDFS } from "../../../scripts/generate-legal-pdfs.ts";

describe.each(LEGAL_PDFS)("the legal PDF $path", ({ path, document, subject }) => {
  const committed = () => readFile(new URL(`../../../public${path}`, import.meta.url));

  it("is a small PDF with its title and metadata", async () => {
    const bytes = await committed();
    expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(bytes.length).toBeLessThan(100 * 1024);
    const pdf = await PDFDocument.load(bytes);
    expect(pdf.getPageCount()).toBeGreaterThanOrEqual(2);
    expect(pdf.getTitle()).toBe(`${document.title} | Pinboard Studio`);
    expect(pdf.getAuthor()).toBe("Pinboard Studio");
    expect(pdf.getSubject()).toBe(subject);
  });

  it("is what scripts/generate-legal-pdfs.ts makes from app/legal (regenerate it after editing the text)", async () => {
    expect(Buffer.from(await buildLegalPdf(document, subject)).equals(await committed())).toBe(true);
  });
});

describe("the legal texts", () => {
  const text = (path: string) => JSON.stringify(LEGAL_PDFS.find((pdf) => pdf.path === path)!.document);

  it("puts the privacy policy under the law of England and Wales", () => {
    expect(text("/privacy-policy.pdf")).toContain("governed by the law of England and Wales");
  });

  it("states the affiliate programme's terms of spec section 9, under the law of the Netherlands", () => {
    const agreement = text("/affiliate-agreement.pdf");
    for (const term of [
      "25% commission",
      "including recurring payments",
      "for **30 days**",
      "at least **$100**",
      "on or before the 5th of the month",
      "held for 1 month",
      "No commission on lifetime deals",
      "does not offer refunds",
      "governed by the law of the Netherlands",
    ]) {
      expect(agreement).toContain(term);
    }
  });
});
