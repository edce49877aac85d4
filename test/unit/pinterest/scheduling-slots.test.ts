import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { defaultSchedulingSettings, isTimeZone, SchedulingSettings } from "../../../contracts/pinterest/scheduling.ts";
import { dailySlotSeconds, localDay, nextFreeSlots, slotsOnDay, zonedTimeToUtc } from "../../../workers/domain/scheduling.ts";

const settingsIn = (zone: string, overrides: Partial<SchedulingSettings> = {}) =>
  v.parse(SchedulingSettings, { ...overrides, timezone: { label: zone, value: zone } });
const iso = (ms: number) => new Date(ms).toISOString();
const hhmm = (s: number) => `${String(Math.floor(s / 3600)).padStart(2, "0")}:${String((s % 3600) / 60).padStart(2, "0")}`;

describe("time zones", () => {
  it("knows a zone or an offset every time it is asked, and refuses one that does not exist every time (a known zone is remembered, an unknown one never)", () => {
    for (let i = 0; i < 2; i += 1) {
      expect(isTimeZone("Europe/London")).toBe(true);
      expect(isTimeZone("+02:00")).toBe(true);
      expect(isTimeZone("Mars/Olympus_Mons")).toBe(false);
      expect(isTimeZone("")).toBe(false);
    }
    const settings = v.safeParse(SchedulingSettings, { timezone: { label: "Mars", value: "Mars/Olympus_Mons" } });
    expect(settings.success).toBe(false);
    if (!settings.success) expect(settings.issues[0].message).toBe("timezone.value must be an IANA time zone such as Europe/London");
  });
});

describe("daily slots", () => {
  it("spreads the default 20 pins over 20:00-23:00 and 02:00-04:00, 15 minutes apart", () => {
    const settings = defaultSchedulingSettings();
    expect(settings).toMatchObject({
      numberOfPinsPerDay: 20,
      postingIntervalInSeconds: 900,
      timeSlots: 20,
      windowOneTimes: [72000, 82800],
      windowTwoTimes: [7200, 14400],
    });
    expect(settings.timezone.label).toBe("GMT");
    const slots = dailySlotSeconds(settings).map(hhmm);
    expect(slots).toHaveLength(20);
    expect(slots.slice(0, 8)).toEqual(["02:00", "02:15", "02:30", "02:45", "03:00", "03:15", "03:30", "03:45"]);
    expect(slots.slice(8)).toEqual(["20:00", "20:15", "20:30", "20:45", "21:00", "21:15", "21:30", "21:45", "22:00", "22:15", "22:30", "22:45"]);
  });

  it("spaces fewer pins evenly and never closer than the posting interval", () => {
    const five = dailySlotSeconds({ ...defaultSchedulingSettings(), numberOfPinsPerDay: 5 });
    expect(five.map(hhmm)).toEqual(["02:00", "20:00", "21:00", "22:00", "03:00"].sort());
    const crowded = dailySlotSeconds({ ...defaultSchedulingSettings(), numberOfPinsPerDay: 100, postingIntervalInSeconds: 3600 });
    expect(crowded).toHaveLength(5); // 3 h + 2 h of windows at one pin an hour
  });

  it("handles a window that runs past midnight", () => {
    const slots = dailySlotSeconds({ numberOfPinsPerDay: 4, windowOneTimes: [82800, 3600], windowTwoTimes: null, postingIntervalInSeconds: 900 });
    expect(slots.map(hhmm)).toEqual(["00:00", "00:30", "23:00", "23:30"]);
  });

  it("rejects a time zone the runtime does not know", () => {
    expect(() => settingsIn("Mars/Olympus_Mons")).toThrow(/IANA time zone/);
  });
});

describe("wall time to UTC across daylight-saving changes", () => {
  it("maps ordinary times with the offset in force", () => {
    expect(iso(zonedTimeToUtc(2026, 6, 1, 20 * 3600, "Europe/London"))).toBe("2026-07-01T19:00:00.000Z");
    expect(iso(zonedTimeToUtc(2026, 0, 15, 20 * 3600, "Europe/London"))).toBe("2026-01-15T20:00:00.000Z");
    expect(iso(zonedTimeToUtc(2026, 0, 15, 20 * 3600, "Asia/Kathmandu"))).toBe("2026-01-15T14:15:00.000Z");
  });

  it("moves a time in the spring-forward gap forward by the gap", () => {
    // London, 29 March 2026: 01:00 GMT becomes 02:00 BST.
    expect(iso(zonedTimeToUtc(2026, 2, 29, 1.5 * 3600, "Europe/London"))).toBe("2026-03-29T01:30:00.000Z");
    // New York, 8 March 2026: 02:00 EST becomes 03:00 EDT; 02:30 does not exist.
    expect(iso(zonedTimeToUtc(2026, 2, 8, 2.5 * 3600, "America/New_York"))).toBe("2026-03-08T07:30:00.000Z");
    // Lord Howe Island shifts by 30 minutes (5 April 2026 is its fall-back; 4 October 2026 its spring-forward at 02:00).
    expect(iso(zonedTimeToUtc(2026, 9, 4, 2.25 * 3600, "Australia/Lord_Howe"))).toBe("2026-10-03T15:45:00.000Z");
  });

  it("uses the first occurrence of a time that happens twice", () => {
    // New York, 1 November 2026: 02:00 EDT becomes 01:00 EST; 01:30 happens twice.
    expect(iso(zonedTimeToUtc(2026, 10, 1, 1.5 * 3600, "America/New_York"))).toBe("2026-11-01T05:30:00.000Z");
    // Sydney, 5 April 2026: 03:00 AEDT becomes 02:00 AEST.
    expect(iso(zonedTimeToUtc(2026, 3, 5, 2.5 * 3600, "Australia/Sydney"))).toBe("2026-04-04T15:30:00.000Z");
  });

  it("keeps every slot of the spring-forward day distinct and in order", () => {
    const settings = settingsIn("America/New_York");
    const slots = slotsOnDay(settings, { year: 2026, monthIndex: 2, day: 8 });
    // 02:00-02:45 fall into the gap and land on 03:00-03:45, which are slots already: the day has 16.
    expect(slots).toHaveLength(16);
    expect(new Set(slots).size).toBe(16);
    expect([...slots].sort((a, b) => a - b)).toEqual(slots);
    const ordinary = slotsOnDay(settings, { year: 2026, monthIndex: 2, day: 9 });
    expect(ordinary).toHaveLength(20);
  });

  it("posts once in the repeated hour of the fall-back day", () => {
    const settings = settingsIn("America/New_York", { windowOneTimes: [3600, 7200], windowTwoTimes: null, numberOfPinsPerDay: 4 });
    const slots = slotsOnDay(settings, { year: 2026, monthIndex: 10, day: 1 }).map(iso);
    expect(slots).toEqual(["2026-11-01T05:00:00.000Z", "2026-11-01T05:15:00.000Z", "2026-11-01T05:30:00.000Z", "2026-11-01T05:45:00.000Z"]);
  });
});

describe("next free slots", () => {
  it("takes the next slots after now, skipping taken ones, into the following days", () => {
    const settings = settingsIn("Europe/Berlin");
    const now = Date.parse("2026-11-22T21:40:00Z"); // 22:40 in Berlin
    const first = nextFreeSlots(settings, new Set(), now, 3).map(iso);
    expect(first).toEqual(["2026-11-22T21:45:00.000Z", "2026-11-23T01:00:00.000Z", "2026-11-23T01:15:00.000Z"]);
    const taken = new Set([Date.parse("2026-11-22T21:45:00Z"), Date.parse("2026-11-23T01:00:00Z")]);
    expect(nextFreeSlots(settings, taken, now, 2).map(iso)).toEqual(["2026-11-23T01:15:00.000Z", "2026-11-23T01:30:00.000Z"]);
  });

  it("fills 1,000 queue slots as 50 days of 20 without repeats", () => {
    const settings = defaultSchedulingSettings();
    const slots = nextFreeSlots(settings, new Set(), Date.parse("2026-11-22T00:00:00Z"), 1000);
    expect(slots).toHaveLength(1000);
    expect(new Set(slots).size).toBe(1000);
    const days = new Set(slots.map((s) => JSON.stringify(localDay(s, "Etc/GMT"))));
    expect(days.size).toBe(50);
  });
});
