/**
 * Pin history archives (issue 38, docs/decisions/084-user-ledger.md): the history page keeps 13 months online;
 * each older month is one gzip file of NDJSON (one entry per line, oldest first) that the user downloads from the
 * page. Months are calendar months in UTC, written "YYYY-MM".
 */

/** Months of history kept online: this month and the 12 before it. */
export const HISTORY_ONLINE_MONTHS = 13;

/** A month as the archives name it. */
export const ARCHIVE_MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/** GET /api/user/pinHistory/archives: the months archived, newest first. */
export interface PinHistoryArchives {
  archives: { month: string; entries: number; bytes: number }[];
}

/** The month (UTC) holding a time in ms. */
export function monthOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 7);
}

/** The start (ms, UTC) of the month `offset` months after `month`. */
export function monthStart(month: string, offset = 0): number {
  const [year, number] = month.split("-").map(Number);
  return Date.UTC(year, number - 1 + offset, 1);
}

/** Where a user's archive of a month is kept in R2 (outside the /media/ prefixes: served only to its owner). */
export function archiveKey(userId: string, month: string): string {
  return `${archivePrefix(userId)}${month}.ndjson.gz`;
}

export function archivePrefix(userId: string): string {
  return `archives/${userId}/pin-history/`;
}

/** The file name a downloaded archive is saved as. */
export function archiveFileName(month: string): string {
  return `pin-history-${month}.ndjson.gz`;
}
