import type { SchedulingSettings } from "../../../contracts/pinterest/scheduling.ts";
import { dailySlotSeconds, localDay, zonedTimeToUtc } from "../../../workers/domain/scheduling.ts";

/**
 * Times of a profile's schedule as the user reads and types them: clock
 * times of the local day, instants shown in the profile's time zone, and the
 * date-time field's text in that zone (the same zone rules as the engine:
 * workers/domain/scheduling.ts).
 */

const SECONDS_PER_DAY = 86_400;
const pad = (n: number) => String(n).padStart(2, "0");

/** 72000 -> "20:00" (86400, the end of the day, is "24:00"). */
export function clockOf(seconds: number): string {
  const s = Math.max(0, Math.min(SECONDS_PER_DAY, Math.round(seconds)));
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}`;
}

/** "20:00" or "20:00:30" -> 72000; null when it is not a clock time. "24:00" is the end of the day. */
export function secondsOfClock(text: string): number | null {
  const match = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(text.trim());
  if (!match) return null;
  const [h, m, s] = [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)];
  if (m > 59 || s > 59) return null;
  const total = h * 3600 + m * 60 + s;
  return total <= SECONDS_PER_DAY ? total : null;
}

/** The local times of day the profile posts at, e.g. ["02:00", "02:24", ...]. */
export function dailyTimes(
  settings: Pick<SchedulingSettings, "numberOfPinsPerDay" | "windowOneTimes" | "windowTwoTimes" | "postingIntervalInSeconds">,
): string[] {
  return dailySlotSeconds(settings).map(clockOf);
}

/** An instant shown in a zone, e.g. "Tue, 5 May 2026, 20:15". */
export function formatInZone(
  ms: number,
  zone: string,
  options: Intl.DateTimeFormatOptions = { weekday: "short", day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit" },
): string {
  return new Intl.DateTimeFormat("en-GB", { timeZone: zone, hourCycle: "h23", ...options }).format(new Date(ms));
}

/** The wall clock (seconds of the day) of an instant in a zone. */
function secondOfDay(ms: number, zone: string): number {
  const parts = new Intl.DateTimeFormat("en-GB", { timeZone: zone, hourCycle: "h23", hour: "2-digit", minute: "2-digit", second: "2-digit" }).formatToParts(
    new Date(ms),
  );
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return part("hour") * 3600 + part("minute") * 60 + part("second");
}

/** The text of a datetime-local field showing `ms` in `zone` ("2026-05-05T20:15:00"). */
export function dateTimeFieldValue(ms: number, zone: string): string {
  const day = localDay(ms, zone);
  const s = secondOfDay(ms, zone);
  return `${day.year}-${pad(day.monthIndex + 1)}-${pad(day.day)}T${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}

/** A datetime-local field's text read as a wall time in `zone` (ms since the epoch); null when it is not a date-time. */
export function instantOfDateTimeField(value: string, zone: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/.exec(value.trim());
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0));
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return null;
  // A day past the month's end (31 June) is not a date.
  if (new Date(Date.UTC(year, month - 1, day)).getUTCMonth() !== month - 1) return null;
  return zonedTimeToUtc(year, month - 1, day, hour * 3600 + minute * 60 + second, zone);
}

export interface TimeZoneOption {
  label: string;
  value: string;
}

/** The default zone of the spec's schedule. */
export const GMT: TimeZoneOption = { label: "GMT", value: "Etc/GMT" };

/** A zone's name as people read it: "America/New_York" -> "America/New York". */
export function timeZoneLabel(zone: string): string {
  return zone === GMT.value ? GMT.label : zone.replace(/_/g, " ");
}

/** Every IANA zone the browser knows, GMT first, with `current` kept even if the browser lacks it. */
export function timeZoneOptions(
  current?: string,
  supported: () => string[] = () => (typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : []),
): TimeZoneOption[] {
  const zones = new Set(supported());
  zones.delete(GMT.value);
  if (current && current !== GMT.value) zones.add(current);
  return [GMT, ...[...zones].sort().map((value) => ({ value, label: timeZoneLabel(value) }))];
}
