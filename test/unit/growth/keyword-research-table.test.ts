import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import type { KeywordTerm } from "../../../contracts/growth/keywords.ts";
import { changeText, csvFileName, filterTerms, sortTerms, termsCsv, trendTypesText } from "../../../app/lib/keyword-research.ts";

// The keyword research page's table rules (app/lib/keyword-research.ts): sorting with terms
// without data last, filtering, the change figures in words, and the CSV export.

const term = (name: string, fields: Partial<KeywordTerm> = {}): KeywordTerm => ({
  term: name,
  sources: ["related"],
  trendTypes: ["monthly"],
  weeklyChange: 0,
  monthlyChange: 0,
  yearlyChange: 0,
  series: [10, 100],
  ...fields,
});

const terms = [
  term("christmas nails", { sources: ["seed"], monthlyChange: 250, weeklyChange: 30 }),
  term("holiday nails", { monthlyChange: 300, weeklyChange: -5 }),
  term("nail ideas", { monthlyChange: -12, weeklyChange: 2 }),
  term("christmas nails short", { sources: ["suggested"], monthlyChange: null, weeklyChange: null, yearlyChange: null, series: null, trendTypes: [] }),
];

describe("keyword research table", () => {
  it("sorts by a change either way, always keeping terms without data last, and by name", () => {
    expect(sortTerms(terms, "monthlyChange", "descending").map((t) => t.term)).toEqual([
      "holiday nails",
      "christmas nails",
      "nail ideas",
      "christmas nails short",
    ]);
    expect(sortTerms(terms, "monthlyChange", "ascending").map((t) => t.term)).toEqual([
      "nail ideas",
      "christmas nails",
      "holiday nails",
      "christmas nails short",
    ]);
    expect(sortTerms(terms, "weeklyChange", "descending")[0].term).toBe("christmas nails");
    expect(sortTerms(terms, "term", "ascending").map((t) => t.term)).toEqual(["christmas nails", "christmas nails short", "holiday nails", "nail ideas"]);
    expect(terms[0].term).toBe("christmas nails");
  });

  it("filters by the words typed and by how a term was found, or to the rising ones", () => {
    expect(filterTerms(terms, "  NAILS christmas ", "all").map((t) => t.term)).toEqual(["christmas nails", "christmas nails short"]);
    expect(filterTerms(terms, "", "suggested").map((t) => t.term)).toEqual(["christmas nails short"]);
    expect(filterTerms(terms, "", "rising").map((t) => t.term)).toEqual(["christmas nails", "holiday nails"]);
    expect(filterTerms(terms, "cake", "all")).toEqual([]);
  });

  it("writes changes for people", () => {
    expect(changeText(35)).toBe("+35%");
    expect(changeText(-12)).toBe("\u221212%");
    expect(changeText(0)).toBe("0%");
    expect(changeText(2500)).toBe("+2,500%");
    expect(changeText(10001)).toBe("over +10,000%");
    expect(changeText(null)).toBe("no data");
    expect(trendTypesText(terms[3])).toBe("not in Pinterest's top trends");
    expect(trendTypesText(term("x", { trendTypes: ["growing", "seasonal"] }))).toBe("growing, seasonal");
  });

  it("exports the rows as CSV that reads back to the same figures, with the weekly interest", () => {
    const csv = termsCsv(terms.slice(2), ["2026-11-15", "2026-11-22"]);
    const parsed = Papa.parse<string[]>(csv).data;
    expect(parsed[0]).toEqual([
      "Keyword",
      "Found as",
      "Pinterest trend lists",
      "Weekly change %",
      "Monthly change %",
      "Yearly change %",
      "Interest week ending 2026-11-15",
      "Interest week ending 2026-11-22",
    ]);
    expect(parsed[1]).toEqual(["nail ideas", "related", "monthly", "2", "-12", "0", "10", "100"]);
    expect(parsed[2]).toEqual(["christmas nails short", "suggested", "", "", "", "", "", ""]);
    expect(termsCsv([term('say "hi", then')], [])).toContain('"say ""hi"", then"');
    expect(csvFileName("Christmas Nails!", "GB+IE")).toBe("pinterest-keywords-christmas-nails-gb-ie.csv");
    // A keyword that a spreadsheet would run as a formula is written as text; numbers stay numbers.
    const risky = Papa.parse<string[]>(termsCsv([term("=cmd|' /C calc'!A0"), term("@SUM(1)"), term("=1\n+2")], [])).data;
    expect(risky.slice(1, 4).map((row) => row[0])).toEqual(["'=cmd|' /C calc'!A0", "'@SUM(1)", "'=1\n+2"]);
  });
});
