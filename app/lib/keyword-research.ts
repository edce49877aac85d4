import type { KeywordResearch, KeywordSource, KeywordTerm, UseAsAiKeywordsAnswer } from "../../contracts/growth/keywords.ts";
import type { PinterestTrendRegion, PinterestTrendType } from "../../contracts/pinterest/pinterest-trends.ts";
import { csvForSpreadsheets } from "../../workers/domain/csv-export.ts";
import { apiJson } from "./api-client.ts";

/** The keyword research page's client logic: the API calls, and sorting, filtering and exporting its table. */

export function fetchKeywordResearch(keyword: string, region: PinterestTrendRegion): Promise<KeywordResearch> {
  return apiJson<KeywordResearch>(`/api/keywords/research?${new URLSearchParams({ keyword, region })}`);
}

export function sendAsAiKeywords(keywords: string[]): Promise<UseAsAiKeywordsAnswer> {
  return apiJson<UseAsAiKeywordsAnswer>("/api/keywords/useAsAiKeywords", { json: { keywords } });
}

export type SortKey = "term" | "weeklyChange" | "monthlyChange" | "yearlyChange";
export type SortDirection = "ascending" | "descending";

/** Terms in the chosen order; terms without trend data always last, whatever the direction. */
export function sortTerms(terms: readonly KeywordTerm[], key: SortKey, direction: SortDirection): KeywordTerm[] {
  const sign = direction === "ascending" ? 1 : -1;
  return [...terms].sort((a, b) => {
    if (key === "term") return sign * a.term.localeCompare(b.term);
    const [x, y] = [a[key], b[key]];
    if (x === null || y === null) return x === y ? a.term.localeCompare(b.term) : x === null ? 1 : -1;
    return sign * (x - y) || a.term.localeCompare(b.term);
  });
}

export type SourceFilter = "all" | KeywordSource | "rising";

export const SOURCE_FILTERS: Record<SourceFilter, string> = {
  all: "All terms",
  suggested: "Suggested searches",
  related: "Related terms",
  trending: "Trending with your keyword",
  seed: "Your keyword",
  rising: "Rising this month",
};

/** Terms whose text contains every word typed, and that match the chosen kind. */
export function filterTerms(terms: readonly KeywordTerm[], text: string, source: SourceFilter): KeywordTerm[] {
  const words = text.toLowerCase().split(/\s+/).filter(Boolean);
  return terms.filter(
    (term) =>
      words.every((word) => term.term.includes(word)) &&
      (source === "all" || (source === "rising" ? (term.monthlyChange ?? 0) > 0 : term.sources.includes(source))),
  );
}

const SOURCE_WORDS: Record<KeywordSource, string> = { seed: "your keyword", suggested: "suggested", related: "related", trending: "trending" };
const TREND_WORDS: Record<PinterestTrendType, string> = { growing: "growing", monthly: "top this month", yearly: "top this year", seasonal: "seasonal" };

export function sourcesText(term: KeywordTerm) {
  return term.sources.map((source) => SOURCE_WORDS[source]).join(", ");
}

export function trendTypesText(term: KeywordTerm) {
  return term.trendTypes.length === 0 ? "not in Pinterest's top trends" : term.trendTypes.map((type) => TREND_WORDS[type]).join(", ");
}

/** "+35%", "−12%", "0%", "over +10,000%" (Pinterest's 10001), or "no data". */
export function changeText(change: number | null): string {
  if (change === null) return "no data";
  if (change > 10000) return "over +10,000%";
  const amount = `${Math.abs(change).toLocaleString("en-US")}%`;
  return change > 0 ? `+${amount}` : change < 0 ? `\u2212${amount}` : amount;
}

/** A week's last day (YYYY-MM-DD, a calendar date: no time zone moves it) as "Nov 22, 2026". */
export function weekLabel(date: string, options: Intl.DateTimeFormatOptions = { month: "short", day: "numeric", year: "numeric" }) {
  return new Date(`${date}T00:00:00Z`).toLocaleDateString(undefined, { ...options, timeZone: "UTC" });
}

/** The table as CSV (papaparse): one row per term with its figures, then its weekly interest. */
export function termsCsv(terms: readonly KeywordTerm[], weeks: readonly string[]): string {
  const fields = [
    "Keyword",
    "Found as",
    "Pinterest trend lists",
    "Weekly change %",
    "Monthly change %",
    "Yearly change %",
    ...weeks.map((week) => `Interest week ending ${week}`),
  ];
  const data = terms.map((term) => [
    term.term,
    sourcesText(term),
    term.trendTypes.join(", "),
    term.weeklyChange ?? "",
    term.monthlyChange ?? "",
    term.yearlyChange ?? "",
    ...weeks.map((_, index) => term.series?.[index] ?? ""),
  ]);
  return csvForSpreadsheets(fields, data);
}

/** A file name for the export: "pinterest-keywords-christmas-nails-us.csv". */
export function csvFileName(keyword: string, region: string) {
  const slug = `${keyword}-${region}`
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
  return `pinterest-keywords-${slug || "export"}.csv`;
}
