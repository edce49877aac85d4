import { useId, useMemo, useRef, useState, type KeyboardEvent } from "react";
import type { ScheduledPin } from "../../../contracts/pinterest/scheduling-api.ts";
import {
  addMonths,
  calendarInstant,
  collectUntil,
  countsByDay,
  dayKeyOf,
  monthOf,
  monthRange,
  monthWeeks,
  type DayCounts,
  type Month,
} from "../../lib/pinterest/calendar.ts";
import { queuePages } from "../../lib/pinterest/queue.ts";
import { getScheduledPins } from "../../lib/pinterest/scheduling-api.ts";
import { timeZoneLabel } from "../../lib/pinterest/times.ts";
import { type ApiQueryOptions, failureOf, useApiQuery } from "../../lib/query.ts";
import { Spinner } from "../spinner.tsx";
import { schedulingKeys } from "./reads.ts";
import { failureText } from "./use-pinterest.tsx";

/** Pages (of 50) read per direction for one month: enough for 100 pins a day. */
const MAX_PAGES = 60;
const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

/** A date key ("2026-05-05") as words: "Tuesday 5 May 2026". */
export function dayLabel(key: string): string {
  const [year, month, day] = key.split("-").map(Number);
  return new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", weekday: "long", day: "numeric", month: "long", year: "numeric" }).format(
    new Date(Date.UTC(year, month - 1, day)),
  );
}

function countsText(counts: DayCounts | undefined): string {
  if (!counts) return "no pins";
  const parts = [
    counts.scheduled ? `${counts.scheduled} scheduled` : "",
    counts.posted ? `${counts.posted} posted` : "",
    counts.failed ? `${counts.failed} failed` : "",
  ].filter(Boolean);
  return parts.join(", ") || "no pins";
}

/** The month a date key ("2026-05-05") falls in. */
export function monthOfDay(key: string): Month {
  const [year, month] = key.split("-").map(Number);
  return { year, monthIndex: month - 1 };
}

export interface MonthPins {
  /** The profile's pins whose calendar instant falls in the month (in its zone). */
  pins: ScheduledPin[];
  /** False when the page limit stopped the reading early: there may be more. */
  complete: boolean;
}

/**
 * The pins of a month of the profile's calendar, read through the data layer: upcoming pins forward to the
 * month's end, posted pins back to its start. The page reads the same key (without fetching) for the pins of
 * the day chosen.
 */
export function useMonthPins(username: string, zone: string, month: Month, options: ApiQueryOptions<MonthPins> = {}) {
  return useApiQuery<MonthPins>(
    schedulingKeys.calendar(username, zone, month),
    async () => {
      const range = monthRange(month, zone);
      const now = Date.now();
      const upcoming =
        range.end > now
          ? collectUntil(
              queuePages((cursor) => getScheduledPins(username, { status: "pending", lastPinId: cursor })),
              (pin) => pin.scheduledTimeUTCTimestamp,
              range.end,
              "asc",
              MAX_PAGES,
            )
          : Promise.resolve({ items: [] as ScheduledPin[], complete: true });
      const past =
        range.start < now
          ? collectUntil(
              queuePages((cursor) => getScheduledPins(username, { status: "posted", sortBy: "scheduledTimeUTCTimestamp-desc", lastPinId: cursor })),
              (pin) => pin.scheduledTimeUTCTimestamp,
              range.start,
              "desc",
              MAX_PAGES,
            )
          : Promise.resolve({ items: [] as ScheduledPin[], complete: true });
      const [a, b] = await Promise.all([upcoming, past]);
      const pins = [...a.items, ...b.items].filter((pin) => {
        const at = calendarInstant(pin);
        return at >= range.start && at < range.end;
      });
      return { pins, complete: a.complete && b.complete };
    },
    options,
  );
}

const NO_PINS: ScheduledPin[] = [];

/**
 * A month of the profile's pins in its time zone: how many are scheduled,
 * posted or failed each day. Choosing a day narrows the queue list to it;
 * arrow keys move between days. The month shown stays while it refreshes.
 */
export function CalendarPanel({
  username,
  zone,
  selectedDay,
  onSelectDay,
}: {
  username: string;
  zone: string;
  selectedDay: string | null;
  onSelectDay(key: string | null): void;
}) {
  const id = useId();
  // The month the user moved to, in the zone it was chosen in: the profile's zone decides which month "now"
  // is in, so a month chosen before the zone changed gives way to the current one.
  const [chosen, setChosen] = useState<{ zone: string; month: Month } | null>(null);
  const current = useMemo(() => monthOf(Date.now(), zone), [zone]);
  const month = chosen?.zone === zone ? chosen.month : current;
  const [focusKey, setFocusKey] = useState<string | null>(null);
  const grid = useRef<HTMLTableElement>(null);

  const query = useMonthPins(username, zone, month);
  const pins = query.data?.pins ?? NO_PINS;
  const failure = failureOf(query);
  const state: { kind: "loading" } | { kind: "ready"; complete: boolean } | { kind: "failed"; error: string } = failure
    ? { kind: "failed", error: failureText(failure) }
    : query.data
      ? { kind: "ready", complete: query.data.complete }
      : { kind: "loading" };

  const counts = useMemo(() => countsByDay(pins, zone), [pins, zone]);
  const weeks = useMemo(() => monthWeeks(month), [month]);
  const today = dayKeyOf(Date.now(), zone);
  const monthName = new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", month: "long", year: "numeric" }).format(
    new Date(Date.UTC(month.year, month.monthIndex, 1)),
  );
  const daysInMonth = weeks.flat().filter((day) => day.inMonth);
  const rovingKey = [focusKey, selectedDay, today].find((key) => key && daysInMonth.some((day) => day.key === key)) ?? daysInMonth[0]?.key;

  /** Another month: a day chosen in this one no longer narrows the list. */
  function showMonth(next: Month) {
    if (next.year !== month.year || next.monthIndex !== month.monthIndex) onSelectDay(null);
    setChosen({ zone, month: next });
  }

  function onKeyDown(event: KeyboardEvent<HTMLButtonElement>, index: number) {
    const delta = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -7, ArrowDown: 7 }[event.key];
    let target: number | undefined;
    if (delta !== undefined) target = Math.min(daysInMonth.length - 1, Math.max(0, index + delta));
    else if (event.key === "Home") target = 0;
    else if (event.key === "End") target = daysInMonth.length - 1;
    if (target === undefined) return;
    event.preventDefault();
    const key = daysInMonth[target].key;
    setFocusKey(key);
    grid.current?.querySelector<HTMLButtonElement>(`button[data-day="${key}"]`)?.focus();
  }

  return (
    <section className="card calendar-panel" aria-labelledby={`${id}-title`}>
      <div className="calendar-panel__head">
        <h2 id={`${id}-title`}>Calendar</h2>
        <div className="calendar-panel__nav">
          <button type="button" className="chip-button" onClick={() => showMonth(addMonths(month, -1))} aria-label="Previous month">
            <span aria-hidden="true">‹</span>
          </button>
          <button type="button" className="chip-button" onClick={() => showMonth(monthOf(Date.now(), zone))}>
            Today
          </button>
          <button type="button" className="chip-button" onClick={() => showMonth(addMonths(month, 1))} aria-label="Next month">
            <span aria-hidden="true">›</span>
          </button>
        </div>
      </div>
      <p className="muted small" aria-live="polite">
        {state.kind === "loading" ? (
          <>
            <Spinner label="Loading the calendar" /> Loading…
          </>
        ) : state.kind === "failed" ? (
          <span className="field__error">Unable to load the calendar: {state.error}</span>
        ) : (
          `${pins.length} ${pins.length === 1 ? "pin" : "pins"} in ${monthName}${state.complete ? "" : " (at least)"} · ${timeZoneLabel(zone)}`
        )}
      </p>
      <table className="calendar" ref={grid}>
        <caption className="calendar__caption">{monthName}</caption>
        <thead>
          <tr>
            {WEEKDAYS.map((name) => (
              <th key={name} scope="col">
                <abbr title={name}>{name.slice(0, 3)}</abbr>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeks.map((week) => (
            <tr key={week[0].key}>
              {week.map((day) => {
                if (!day.inMonth) {
                  return (
                    <td key={day.key} className="calendar__day calendar__day--outside" aria-hidden="true">
                      {day.day}
                    </td>
                  );
                }
                const dayCounts = counts.get(day.key);
                const index = daysInMonth.findIndex((candidate) => candidate.key === day.key);
                return (
                  <td key={day.key} className={`calendar__day${day.key === today ? " calendar__day--today" : ""}`}>
                    <button
                      type="button"
                      data-day={day.key}
                      tabIndex={day.key === rovingKey ? 0 : -1}
                      aria-pressed={selectedDay === day.key}
                      aria-label={`${dayLabel(day.key)}: ${countsText(dayCounts)}`}
                      onClick={() => onSelectDay(selectedDay === day.key ? null : day.key)}
                      onFocus={() => setFocusKey(day.key)}
                      onKeyDown={(event) => onKeyDown(event, index)}
                    >
                      <span className="calendar__number">{day.day}</span>
                      {dayCounts ? (
                        <span className="calendar__counts" aria-hidden="true">
                          {dayCounts.scheduled ? <span className="calendar__count calendar__count--scheduled">{dayCounts.scheduled}</span> : null}
                          {dayCounts.posted ? <span className="calendar__count calendar__count--posted">{dayCounts.posted}</span> : null}
                          {dayCounts.failed ? <span className="calendar__count calendar__count--failed">{dayCounts.failed}</span> : null}
                        </span>
                      ) : null}
                    </button>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      <p className="calendar__legend small" aria-hidden="true">
        <span className="calendar__count calendar__count--scheduled">n</span> scheduled <span className="calendar__count calendar__count--posted">n</span>{" "}
        posted <span className="calendar__count calendar__count--failed">n</span> failed
      </p>
    </section>
  );
}
