import { tzOffset } from "@date-fns/tz";
import type { SchedulingSettings } from "../../contracts/pinterest/scheduling.ts";

/**
 * Time slots of a profile's schedule, as pure functions: which local times of
 * day pins go out at, and which UTC instants those are on a given day in the
 * profile's IANA time zone, correct across daylight-saving changes.
 *
 * - A wall time that does not exist (the spring-forward gap) moves forward by
 *   the gap, as clocks do: 02:30 becomes 03:30.
 * - A wall time that happens twice (the fall-back overlap) is used once, at
 *   its first occurrence.
 * - Slots that land on the same instant after those rules count once.
 */

const DAY_MS = 86_400_000;
const SECONDS_PER_DAY = 86_400;

/** The seconds of the local day at which the profile posts, ascending. */
export function dailySlotSeconds(
  settings: Pick<SchedulingSettings, "numberOfPinsPerDay" | "windowOneTimes" | "windowTwoTimes" | "postingIntervalInSeconds">,
): number[] {
  const windows = [settings.windowOneTimes, settings.windowTwoTimes].filter((w): w is [number, number] => Array.isArray(w));
  const lengths = windows.map(([start, end]) => (end > start ? end - start : end + SECONDS_PER_DAY - start));
  const total = lengths.reduce((sum, length) => sum + length, 0);
  // Never closer together than the posting interval: that caps how many fit.
  const capacity = windows.reduce((sum, _, i) => sum + Math.max(1, Math.floor(lengths[i] / settings.postingIntervalInSeconds)), 0);
  const count = Math.min(settings.numberOfPinsPerDay, capacity);
  const step = total / count;
  const seconds = new Set<number>();
  for (let i = 0; i < count; i += 1) {
    let offset = Math.round(i * step);
    let w = 0;
    while (w < windows.length - 1 && offset >= lengths[w]) {
      offset -= lengths[w];
      w += 1;
    }
    seconds.add((windows[w][0] + offset) % SECONDS_PER_DAY);
  }
  return [...seconds].sort((a, b) => a - b);
}

/** Offset (minutes) of a zone at an instant. */
function offsetAt(zone: string, ms: number): number {
  return tzOffset(zone, new Date(ms));
}

/**
 * The UTC instant of a wall time on a local calendar day. A time inside a
 * spring-forward gap moves forward by the gap; an ambiguous one answers its
 * first occurrence.
 */
export function zonedTimeToUtc(year: number, monthIndex: number, day: number, secondOfDay: number, zone: string): number {
  const naive = Date.UTC(year, monthIndex, day) + secondOfDay * 1000;
  const offsets = new Set([offsetAt(zone, naive - DAY_MS), offsetAt(zone, naive), offsetAt(zone, naive + DAY_MS)]);
  const valid = [...offsets].map((o) => naive - o * 60_000).filter((t) => naive - offsetAt(zone, t) * 60_000 === t);
  if (valid.length > 0) return Math.min(...valid);
  // In the gap: read the wall time with the offset in force before the change.
  return naive - offsetAt(zone, naive - DAY_MS) * 60_000;
}

/** The local calendar day (year, month index, day) of an instant in a zone. */
export function localDay(ms: number, zone: string): { year: number; monthIndex: number; day: number } {
  const local = new Date(ms + offsetAt(zone, ms) * 60_000);
  return { year: local.getUTCFullYear(), monthIndex: local.getUTCMonth(), day: local.getUTCDate() };
}

/** The slot instants (UTC ms) of one local day, ascending and distinct. */
export function slotsOnDay(settings: SchedulingSettings, day: { year: number; monthIndex: number; day: number }): number[] {
  const zone = settings.timezone.value;
  const instants = dailySlotSeconds(settings).map((s) => zonedTimeToUtc(day.year, day.monthIndex, day.day, s, zone));
  return [...new Set(instants)].sort((a, b) => a - b);
}

/**
 * The next `count` free slots strictly after `afterMs`, skipping instants in
 * `taken` (the profile's queue). Used for `type: 'Queue'` pins.
 */
export function nextFreeSlots(settings: SchedulingSettings, taken: ReadonlySet<number>, afterMs: number, count: number, maxDays = 3660): number[] {
  const found: number[] = [];
  if (count <= 0) return found;
  const start = localDay(afterMs, settings.timezone.value);
  for (let d = 0; d < maxDays && found.length < count; d += 1) {
    // Walk calendar days; Date.UTC normalises day overflow into the next month.
    const date = new Date(Date.UTC(start.year, start.monthIndex, start.day + d));
    for (const slot of slotsOnDay(settings, { year: date.getUTCFullYear(), monthIndex: date.getUTCMonth(), day: date.getUTCDate() })) {
      if (slot > afterMs && !taken.has(slot)) {
        found.push(slot);
        if (found.length === count) break;
      }
    }
  }
  return found;
}
