import { describe, expect, it } from "vitest";
import { dayLabel, formatCount, formatRate, windowsText } from "../../../app/lib/pinterest/analytics.ts";

/** Issue 41: how the analytics figures and suggested times read. */
describe("analytics figures for people", () => {
  it("writes counts with thousands separators and rates as a percentage with one decimal", () => {
    expect(formatCount(12345)).toBe("12,345");
    expect(formatCount(0)).toBe("0");
    expect(formatCount(1_234_567.4)).toBe("1,234,567");
    expect(formatRate(0.0321)).toBe("3.2%");
    expect(formatRate(0)).toBe("0.0%");
    expect(formatRate(1)).toBe("100.0%");
  });

  it("names days", () => {
    expect(dayLabel("2026-11-24")).toBe("24 Nov");
    expect(dayLabel("2026-11-24", { weekday: "short", day: "numeric", month: "short" })).toBe("Tue 24 Nov");
    expect(dayLabel("not a day")).toBe("not a day");
  });

  it("says the posting windows in clock times, one or two", () => {
    expect(windowsText({ windowOneTimes: [72_000, 79_200], windowTwoTimes: null })).toBe("20:00 to 22:00");
    expect(windowsText({ windowOneTimes: [32_400, 36_000], windowTwoTimes: [79_200, 86_400 + 3_600] })).toBe("09:00 to 10:00 and 22:00 to 01:00");
  });
});
