import * as v from "valibot";

/**
 * Scheduling settings of a Pinterest profile (spec section 3, defaults of
 * section 9). Windows are seconds of the profile's local day [start, end);
 * a window may wrap past midnight (start > end).
 */
const SECONDS_PER_DAY = 86_400;
const DaySecond = (field: string) =>
  v.pipe(
    v.number(`${field} must be a number`),
    v.integer(`${field} must be whole seconds`),
    v.minValue(0, `${field} must be at least 0`),
    v.maxValue(SECONDS_PER_DAY, `${field} must be at most ${SECONDS_PER_DAY}`),
  );

export const TimeWindow = v.pipe(
  v.tuple([DaySecond("window start"), DaySecond("window end")], "a window is [startSecond, endSecond]"),
  v.check(([start, end]) => start !== end, "a window must not be empty"),
);

export const TimeZone = v.object({
  label: v.pipe(v.string(), v.maxLength(100)),
  value: v.pipe(
    v.string("timezone.value is required"),
    v.check((zone) => isTimeZone(zone), "timezone.value must be an IANA time zone such as Europe/London"),
  ),
});

export const SchedulingSettings = v.object({
  numberOfPinsPerDay: v.optional(
    v.pipe(v.number(), v.integer(), v.minValue(1, "numberOfPinsPerDay must be at least 1"), v.maxValue(100, "numberOfPinsPerDay must be at most 100")),
    20,
  ),
  windowOneTimes: v.optional(TimeWindow, [72_000, 82_800]),
  /** null: only one window. */
  windowTwoTimes: v.optional(v.nullable(TimeWindow), [7_200, 14_400]),
  timezone: v.optional(TimeZone, { label: "GMT", value: "Etc/GMT" }),
  timeSlots: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100)), 20),
  /** The least time between two pins of the profile. */
  postingIntervalInSeconds: v.optional(
    v.pipe(v.number(), v.integer(), v.minValue(60, "postingIntervalInSeconds must be at least 60"), v.maxValue(SECONDS_PER_DAY)),
    900,
  ),
});
export type SchedulingSettings = v.InferOutput<typeof SchedulingSettings>;

export function defaultSchedulingSettings(): SchedulingSettings {
  return v.parse(SchedulingSettings, {});
}

/**
 * Zones this runtime was found to know. Building an Intl.DateTimeFormat costs a good part of a millisecond, and
 * every read of stored settings checks its zone (30 times for a page of pin history): a known zone is checked once
 * per isolate. Only known zones are kept, so the set is bounded by the zones that exist (and the fixed offsets).
 */
const knownZones = new Set<string>();

/** Whether the runtime knows this IANA zone (or a fixed offset such as +02:00). */
export function isTimeZone(zone: string): boolean {
  if (!zone || zone.length > 64) return false;
  if (knownZones.has(zone)) return true;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
  } catch {
    return false;
  }
  knownZones.add(zone);
  return true;
}
