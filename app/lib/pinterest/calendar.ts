import type { ScheduledPin, ScheduledPinStatus } from "../../../contracts/pinterest/scheduling-api.ts";
import { localDay, zonedTimeToUtc } from "../../../workers/domain/scheduling.ts";

/**
 * The calendar of a profile's pins: a month of local days in the profile's
 * time zone, and how many pins are scheduled, posted or failed on each.
 */

export interface Month {
  year: number;
  /** 0-11 */
  monthIndex: number;
}

export interface CalendarDay {
  /** "2026-05-05" */
  key: string;
  day: number;
  inMonth: boolean;
}

export interface DayCounts {
  scheduled: number;
  posted: number;
  failed: number;
}

const pad = (n: number) => String(n).padStart(2, "0");

export function dayKey(day: { year: number; monthIndex: number; day: number }): string {
  return `${day.year}-${pad(day.monthIndex + 1)}-${pad(day.day)}`;
}

/** The local day (as a key) an instant falls on in a zone. */
export function dayKeyOf(ms: number, zone: string): string {
  return dayKey(localDay(ms, zone));
}

export function monthOf(ms: number, zone: string): Month {
  const { year, monthIndex } = localDay(ms, zone);
  return { year, monthIndex };
}

export function addMonths(month: Month, count: number): Month {
  const date = new Date(Date.UTC(month.year, month.monthIndex + count, 1));
  return { year: date.getUTCFullYear(), monthIndex: date.getUTCMonth() };
}

/**
 * The weeks of a month as rows of seven days (Monday first), padded with the
 * neighbouring months' days so every row is full.
 */
export function monthWeeks(month: Month): CalendarDay[][] {
  const first = new Date(Date.UTC(month.year, month.monthIndex, 1));
  const lead = (first.getUTCDay() + 6) % 7; // days before the 1st back to Monday
  const daysInMonth = new Date(Date.UTC(month.year, month.monthIndex + 1, 0)).getUTCDate();
  const cells = Math.ceil((lead + daysInMonth) / 7) * 7;
  const weeks: CalendarDay[][] = [];
  for (let i = 0; i < cells; i += 1) {
    const date = new Date(Date.UTC(month.year, month.monthIndex, 1 - lead + i));
    const day = { year: date.getUTCFullYear(), monthIndex: date.getUTCMonth(), day: date.getUTCDate() };
    if (i % 7 === 0) weeks.push([]);
    weeks[weeks.length - 1].push({ key: dayKey(day), day: day.day, inMonth: day.monthIndex === month.monthIndex });
  }
  return weeks;
}

/** The instants [start, end) of a month's local days in a zone. */
export function monthRange(month: Month, zone: string): { start: number; end: number } {
  const next = addMonths(month, 1);
  return { start: zonedTimeToUtc(month.year, month.monthIndex, 1, 0, zone), end: zonedTimeToUtc(next.year, next.monthIndex, 1, 0, zone) };
}

/** Which calendar bucket a pin's status counts in. */
export function countKind(status: ScheduledPinStatus): keyof DayCounts {
  return status === "posted" ? "posted" : status === "failed" ? "failed" : "scheduled";
}

/** The instant a pin belongs on in the calendar: when it was posted, else when it is scheduled. */
export function calendarInstant(pin: Pick<ScheduledPin, "status" | "postedAt" | "scheduledTimeUTCTimestamp">): number {
  return pin.status === "posted" && pin.postedAt ? Date.parse(pin.postedAt) : pin.scheduledTimeUTCTimestamp;
}

/** Counts per local day (pins counted once, by id). */
export function countsByDay(
  pins: readonly Pick<ScheduledPin, "id" | "status" | "postedAt" | "scheduledTimeUTCTimestamp">[],
  zone: string,
): Map<string, DayCounts> {
  const counts = new Map<string, DayCounts>();
  const seen = new Set<string>();
  for (const pin of pins) {
    if (seen.has(pin.id)) continue;
    seen.add(pin.id);
    const key = dayKeyOf(calendarInstant(pin), zone);
    const entry = counts.get(key) ?? { scheduled: 0, posted: 0, failed: 0 };
    entry[countKind(pin.status)] += 1;
    counts.set(key, entry);
  }
  return counts;
}

/** The pins of one local day, earliest first. */
export function pinsOnDay<T extends Pick<ScheduledPin, "id" | "status" | "postedAt" | "scheduledTimeUTCTimestamp">>(
  pins: readonly T[],
  key: string,
  zone: string,
): T[] {
  const seen = new Set<string>();
  return pins
    .filter((pin) => {
      if (seen.has(pin.id) || dayKeyOf(calendarInstant(pin), zone) !== key) return false;
      seen.add(pin.id);
      return true;
    })
    .sort((a, b) => calendarInstant(a) - calendarInstant(b));
}

export interface PageOf<T> {
  items: T[];
  /** The cursor of the next page, or null after the last. */
  next: string | null;
}

/**
 * Reads pages of a time-ordered list until one passes `bound` (ascending:
 * an item after it; descending: an item before it), the list ends, or
 * `maxPages` were read (then `complete` is false and counts are lower bounds).
 */
export async function collectUntil<T>(
  fetchPage: (cursor: string | null) => Promise<PageOf<T>>,
  timeOf: (item: T) => number,
  bound: number,
  direction: "asc" | "desc",
  maxPages: number,
): Promise<{ items: T[]; complete: boolean }> {
  const items: T[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < maxPages; page += 1) {
    const answer: PageOf<T> = await fetchPage(cursor);
    items.push(...answer.items);
    const last = answer.items[answer.items.length - 1];
    const passed = last !== undefined && (direction === "asc" ? timeOf(last) >= bound : timeOf(last) < bound);
    if (!answer.next || answer.items.length === 0 || passed) return { items, complete: true };
    cursor = answer.next;
  }
  return { items, complete: false };
}
