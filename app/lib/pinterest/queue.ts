import type { ScheduledPin, ScheduledPinStatus } from "../../../contracts/pinterest/scheduling-api.ts";
import type { PageOf } from "./calendar.ts";

/** Rules of the queue list: which pins can move or change, and how a move changes times. */

/** Pins still waiting for their time (or a reviewer's approval) can be edited, moved and rescheduled. */
export function isWaiting(status: ScheduledPinStatus): boolean {
  return status === "scheduled" || status === "paused" || status === "awaiting";
}

/**
 * Moving a pin up or down the queue swaps its scheduled time with its
 * waiting neighbour's (both keep their content and board). Null when there is
 * no such neighbour or either pin is no longer waiting.
 */
export function swapWithNeighbour(pins: readonly ScheduledPin[], id: string, direction: -1 | 1): { id: string; scheduledTime: number }[] | null {
  const index = pins.findIndex((pin) => pin.id === id);
  if (index < 0 || !isWaiting(pins[index].status)) return null;
  let other = index + direction;
  while (other >= 0 && other < pins.length && !isWaiting(pins[other].status)) other += direction;
  if (other < 0 || other >= pins.length) return null;
  const a = pins[index];
  const b = pins[other];
  if (a.scheduledTimeUTCTimestamp === b.scheduledTimeUTCTimestamp) return null;
  return [
    { id: a.id, scheduledTime: b.scheduledTimeUTCTimestamp },
    { id: b.id, scheduledTime: a.scheduledTimeUTCTimestamp },
  ];
}

/** The next page's cursor of a queue listing: the last pin's id while pins remain. */
export function queueCursor(loaded: number, page: readonly { id: string }[], totalCount: number): string | null {
  return page.length > 0 && loaded < totalCount ? page[page.length - 1].id : null;
}

/** Adapts a queue listing to the calendar's page reader. */
export function queuePages(fetch: (lastPinId: string | null) => Promise<{ scheduledPins: ScheduledPin[]; totalCount: number }>) {
  let loaded = 0;
  return async (cursor: string | null): Promise<PageOf<ScheduledPin>> => {
    if (cursor === null) loaded = 0;
    const answer = await fetch(cursor);
    loaded += answer.scheduledPins.length;
    return { items: answer.scheduledPins, next: queueCursor(loaded, answer.scheduledPins, answer.totalCount) };
  };
}

/** Adds a page to a list, replacing pins already in it (a pin may move between pages while we read). */
export function mergePins<T extends { id: string }>(current: readonly T[], page: readonly T[]): T[] {
  const fresh = new Set(page.map((pin) => pin.id));
  return [...current.filter((pin) => !fresh.has(pin.id)), ...page];
}

/** Status words as the list shows them. */
export const STATUS_LABELS: Record<ScheduledPinStatus, string> = {
  scheduled: "Scheduled",
  awaiting: "Awaiting approval",
  posting: "Posting now",
  paused: "Paused",
  posted: "Posted",
  failed: "Failed",
};
