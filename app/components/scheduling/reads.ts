import type { QueryKey } from "@tanstack/react-query";
import type { Month } from "../../lib/pinterest/calendar.ts";

/**
 * The cache keys of the Pinterest pages' reads (app/lib/query.ts), by profile. Every list of a profile's
 * pins starts with `pins(username)`, so a change to its queue reads them all again with one refresh.
 */
export const schedulingKeys = {
  /** The activation of a profile: its scheduling settings (/scheduling and the board picker of /generate). */
  activation: (username: string): QueryKey => ["scheduling", "activation", username],
  boards: (username: string): QueryKey => ["scheduling", "boards", username],
  sections: (username: string, boardId: string): QueryKey => ["scheduling", "sections", username, boardId],
  failingProfiles: (): QueryKey => ["scheduling", "failing-profiles"],
  pins: (username: string): QueryKey => ["scheduling", "pins", username],
  /** Every view of the queue; with a view, that one. */
  queue: (username: string, view?: string): QueryKey => ["scheduling", "pins", username, "queue", ...(view ? [view] : [])],
  /** Every month of the calendar; with a zone and a month, that one. */
  calendar: (username: string, zone?: string, month?: Month): QueryKey => [
    "scheduling",
    "pins",
    username,
    "calendar",
    ...(zone && month ? [zone, month.year, month.monthIndex] : []),
  ],
  repeating: (username: string): QueryKey => ["scheduling", "pins", username, "repeating"],
  pinHistory: (): QueryKey => ["pin-history", "entries"],
  pinHistoryArchives: (): QueryKey => ["pin-history", "archives"],
};
