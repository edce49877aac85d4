import { readFile } from "node:fs/promises";
import { PDFDocument } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { buildSuccessPlan } from "../../../scripts/generate-success-plan.ts";

const committed = () => readFile(new URL("../../../public/success-plan.pdf", import.meta.url));

describe("the Pinterest Success Plan PDF (public/success-plan.pdf)", () => {
  it("is a small PDF of at least 4 pages with its metadata", async () => {
    const bytes = await committed();
    expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(bytes.length).toBeLessThan(200 * 1024);
    const pdf = await PDFDocument.load(bytes);
    expect(pdf.getPageCount()).toBeGreaterThanOrEqual(4);
    expect(pdf.getTitle()).toBe("The Pinterest Success Plan");
    expect(pdf.getAuthor()).toBe("Pinboard Studio");
    expect(pdf.getSubject()).toMatch(/Pinterest/);
  });

  it("is what scripts/generate-success-plan.ts produces (regenerate it after editing the text)", async () => {
    expect(Buffer.from(await buildSuccessPlan()).equals(await committed())).toBe(true);
  });
});
