/**
 * The signal that credits may have been spent (issue 13): every call that may
 * spend credits (a download, a schedule, an AI rewrite) sends it when it ends,
 * charged or refused, and the balance shown (app/lib/credits.ts) is read again
 * from the server. No React here: the API helpers that send it stay plain.
 */
export const CREDITS_CHANGED_EVENT = "pinboard:credits-changed";

export function creditsMayHaveChanged() {
  if (typeof window !== "undefined") window.dispatchEvent(new Event(CREDITS_CHANGED_EVENT));
}
