import { describe, expect, it } from "vitest";
import { changeInWords, isRise, newTrendsIn, periodOf, RISE_THRESHOLDS, risesIn } from "../../../workers/domain/trend-alerts.ts";

const trend = (keyword: string, wow: number, mom: number, lastWeek = "2026-11-21") => ({
  keyword,
  pct_growth_wow: wow,
  pct_growth_mom: mom,
  time_series: { "2026-11-14": 40, [lastWeek]: 60 },
});

describe("trend alert rules", () => {
  it("counts a rise from +25% on the week before or +40% over four weeks, not below", () => {
    expect(RISE_THRESHOLDS).toEqual({ weekly: 25, monthly: 40 });
    expect(isRise({ pct_growth_wow: 25, pct_growth_mom: 0 })).toBe(true);
    expect(isRise({ pct_growth_wow: 24, pct_growth_mom: 39 })).toBe(false);
    expect(isRise({ pct_growth_wow: -10, pct_growth_mom: 40 })).toBe(true);
    expect(isRise({})).toBe(false);
  });

  it("names a day for daily alerts and an ISO week for weekly ones (UTC)", () => {
    expect(periodOf("daily", Date.UTC(2026, 10, 26, 23, 59))).toBe("2026-11-26");
    expect(periodOf("daily", Date.UTC(2026, 10, 27, 0, 0))).toBe("2026-11-27");
    // Monday 23 to Sunday 29 November 2026 is week 48; 1 January 2027 (a Friday) still belongs to 2026's week 53.
    expect(periodOf("weekly", Date.UTC(2026, 10, 23))).toBe("2026-W48");
    expect(periodOf("weekly", Date.UTC(2026, 10, 29, 23))).toBe("2026-W48");
    expect(periodOf("weekly", Date.UTC(2026, 10, 30))).toBe("2026-W49");
    expect(periodOf("weekly", Date.UTC(2027, 0, 1))).toBe("2026-W53");
    expect(periodOf("weekly", Date.UTC(2027, 0, 4))).toBe("2027-W01");
  });

  it("reports a followed keyword's rise once per week of Pinterest's data", () => {
    const first = risesIn("US", ["Linen Napkins", "table runner"], [trend("linen napkins", 50, 80), trend("table runner", 5, 3)], {});
    expect(first.findings).toEqual([{ kind: "rise", keyword: "linen napkins", region: "US", weeklyChange: 50, monthlyChange: 80, weekEnding: "2026-11-21" }]);
    const again = risesIn("US", ["linen napkins"], [trend("linen napkins", 50, 80)], { reported: first.reported });
    expect(again.findings).toEqual([]);
    const nextWeek = risesIn("US", ["linen napkins"], [trend("linen napkins", 30, 90, "2026-11-28")], { reported: first.reported });
    expect(nextWeek.findings.map((finding) => finding.weekEnding)).toEqual(["2026-11-28"]);
    // Another region is another rise.
    expect(risesIn("CA", ["linen napkins"], [trend("linen napkins", 50, 80)], { reported: first.reported }).findings).toHaveLength(1);
  });

  it("only remembers what trends on an interest's first check, then reports newcomers (not followed keywords)", () => {
    const first = newTrendsIn("US", ["home_decor"], [], [trend("japandi living room", 30, 60)], {});
    expect(first.findings).toEqual([]);
    const later = newTrendsIn(
      "US",
      ["home_decor"],
      ["boho bedroom"],
      [trend("japandi living room", 30, 60), trend("mocha mousse walls", 80, 120), trend("boho bedroom", 40, 50)],
      { trending: first.trending },
    );
    expect(later.findings.map((finding) => [finding.kind, finding.keyword, finding.interests])).toEqual([["new", "mocha mousse walls", ["home_decor"]]]);
    // Other interests start over.
    expect(newTrendsIn("US", ["beauty"], [], [trend("mocha mousse walls", 80, 120)], { trending: later.trending }).findings).toEqual([]);
  });

  it("says changes in words", () => {
    expect(changeInWords(50)).toBe("up 50%");
    expect(changeInWords(-12)).toBe("down 12%");
    expect(changeInWords(150)).toBe("up 150% (2.5 times the searches)");
    expect(changeInWords(250)).toBe("up 250% (3.5 times the searches)");
    expect(changeInWords(100)).toBe("up 100% (2 times the searches)");
    expect(changeInWords(10001)).toBe("up more than 10,000%");
    expect(changeInWords(null)).toBeNull();
  });
});
