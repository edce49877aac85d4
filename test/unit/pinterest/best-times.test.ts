import { describe, expect, it } from "vitest";
import { BEST_TIMES_MIN_PINS } from "../../../contracts/pinterest/analytics.ts";
import { type AudienceCell, bestTimes, hourLabel } from "../../../workers/domain/best-times.ts";

/** Pins posted at every hour of every weekday, with engagement that peaks at `peaks` (hours). */
function audience(peaks: number[], pinsPerCell = 1): AudienceCell[] {
  const cells: AudienceCell[] = [];
  for (let weekday = 0; weekday < 7; weekday += 1)
    for (let hour = 0; hour < 24; hour += 1) {
      const distance = Math.min(...peaks.map((peak) => Math.min(Math.abs(hour - peak), 24 - Math.abs(hour - peak))));
      cells.push({ weekday, hour, pins: pinsPerCell, impressions: 1000 * pinsPerCell, engagements: Math.round(100 / (1 + distance * distance)) * pinsPerCell });
    }
  return cells;
}

describe("best posting times", () => {
  it("below the minimum sample answers the scheduling defaults and says why", () => {
    const cells = audience([14]).slice(0, BEST_TIMES_MIN_PINS - 1);
    const best = bestTimes({ username: "u", timeZone: "Europe/Paris", cells });
    expect(best).toMatchObject({
      basedOn: "defaults",
      sample: BEST_TIMES_MIN_PINS - 1,
      minimumSample: BEST_TIMES_MIN_PINS,
      windowOneTimes: [72_000, 82_800],
      windowTwoTimes: [7_200, 14_400],
      timeZone: "Europe/Paris",
    });
    expect(best.note).toContain(`${BEST_TIMES_MIN_PINS - 1} so far`);
    expect(bestTimes({ username: "u", timeZone: "UTC", cells: [] })).toMatchObject({ basedOn: "defaults", sample: 0 });
  });

  it("puts the first window on the audience's busiest hours and the second on the next busiest, apart from the first", () => {
    const best = bestTimes({ username: "u", timeZone: "UTC", cells: audience([14, 21]) });
    expect(best.basedOn).toBe("audience");
    expect(best.sample).toBe(7 * 24);
    // 3 hours around 14:00 and 2 hours around 21:00.
    expect(best.windowOneTimes).toEqual([13 * 3600, 16 * 3600]);
    expect(best.windowTwoTimes?.[0]).toBeGreaterThanOrEqual(20 * 3600);
    expect(best.windowTwoTimes?.[0]).toBeLessThanOrEqual(21 * 3600);
    expect(best.hours).toHaveLength(24);
    expect(best.hours[14].score).toBe(1);
    expect(best.weekdays.map((day) => day.bestHour)).toEqual([14, 14, 14, 14, 14, 14, 14]);
    expect(best.note).toContain("from 1 pm to 4 pm");
  });

  it("wraps a window past midnight", () => {
    const best = bestTimes({ username: "u", timeZone: "UTC", cells: audience([0]) });
    expect(best.windowOneTimes).toEqual([23 * 3600, 2 * 3600]);
  });

  it("says hours as people read them", () => {
    expect([0, 9, 12, 13, 23].map(hourLabel)).toEqual(["12 am", "9 am", "12 pm", "1 pm", "11 pm"]);
  });
});
