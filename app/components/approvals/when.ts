import { formatInZone, GMT } from "../../lib/pinterest/times.ts";

/** The browser's own time zone: a reviewer and an owner each read times in theirs. */
export function browserZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone ?? GMT.value;
}

/** An instant in plain words in the browser's zone, e.g. "Thursday 26 November 2026 at 14:00". */
export function plainTime(ms: number): string {
  return formatInZone(ms, browserZone(), { weekday: "long", day: "numeric", month: "long", year: "numeric", hour: "2-digit", minute: "2-digit" });
}

/** When a waiting pin goes out, in plain words; a time that passed while it waited is said to move on approval. */
export function goesOutText(ms: number, now = Date.now()): string {
  return ms > now ? plainTime(ms) : `${plainTime(ms)}: this time has passed, so it goes out at the next free time once approved`;
}
