import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { csvForSpreadsheets, FORMULA_START } from "../../../workers/domain/csv-export.ts";

describe("CSV files for spreadsheets (OWASP's CSV-injection rule)", () => {
  it("puts a ' before every cell a spreadsheet would run as a formula, and leaves the rest as it was", () => {
    const risky = ["=1+1", "+1", "-1", "@A1", "\t=1", "\r=1", "\n=1", "  =1", "\u00a0=1", "=1\n+2", "-"];
    const safe = ["Ada", "a=b", "1-2", "email@example.com", "", "'quoted", "Smith-Jones"];
    for (const cell of risky) expect(FORMULA_START.test(cell), JSON.stringify(cell)).toBe(true);
    for (const cell of safe) expect(FORMULA_START.test(cell), JSON.stringify(cell)).toBe(false);
    const csv = csvForSpreadsheets(
      ["cell", "number"],
      [...risky, ...safe].map((cell) => [cell, -5]),
    );
    const rows = Papa.parse<string[]>(csv).data.slice(1);
    expect(rows.map((row) => row[0])).toEqual([...risky.map((cell) => `'${cell}`), ...safe]);
    expect(rows.every((row) => row[1] === "-5")).toBe(true);
  });
});
