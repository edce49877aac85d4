import { useEffect, useSyncExternalStore } from "react";
import type { CreditsSummary } from "../../contracts/billing/credits.ts";
import { apiJson } from "./api-client.ts";
import { CREDITS_CHANGED_EVENT } from "./credit-events.ts";
import { useAuth } from "./auth.tsx";

/**
 * The signed-in user's pin credits for the month, as the navbar and /generate
 * show them (issue 13). The server is the source of truth: every call that may
 * spend credits sends `creditsMayHaveChanged()` (credit-events.ts) when it
 * ends, and the balance is read again from GET /api/user/credits. Reads that
 * overlap are folded into one more read after the running one, so a bulk
 * download of 50 pins reads the balance a few times, not 50.
 */

interface Snapshot {
  /** Whose credits these are: a new sign-in starts from nothing. */
  userKey: string | null;
  summary: CreditsSummary | null;
}

const SIGNED_OUT: Snapshot = { userKey: null, summary: null };
let snapshot = SIGNED_OUT;
/** The credentials version last read for: the navbar and /generate mounting together read once. */
let lastRead: string | null = null;
const listeners = new Set<() => void>();
let reading: Promise<void> | null = null;
let readAgain = false;

function publish(next: Snapshot) {
  snapshot = next;
  for (const listener of listeners) listener();
}

function read(userKey: string) {
  if (reading) {
    readAgain = true;
    return;
  }
  reading = apiJson<CreditsSummary>("/api/user/credits")
    .then(
      (summary) => {
        if (snapshot.userKey === userKey) publish({ userKey, summary });
      },
      // Not shown while it cannot be read (offline, signed out meanwhile): the next change or page reads it again.
      () => {
        lastRead = null;
      },
    )
    .finally(() => {
      reading = null;
      if (readAgain && snapshot.userKey) {
        readAgain = false;
        read(snapshot.userKey);
      }
    });
}

const onChanged = () => snapshot.userKey && read(snapshot.userKey);

function subscribe(listener: () => void) {
  listeners.add(listener);
  if (listeners.size === 1) window.addEventListener(CREDITS_CHANGED_EVENT, onChanged);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) window.removeEventListener(CREDITS_CHANGED_EVENT, onChanged);
  };
}

/**
 * This month's credits of the signed-in user, or null (signed out, or not read
 * yet). Read once per sign-in and again whenever the credentials the root
 * loader gives change their plan or used credits, or a spend may have happened.
 */
export function useCredits(): CreditsSummary | null {
  const { user } = useAuth();
  const userId = user?.userId ?? null;
  // Any of these changing (a plan activated, credits spent in another tab) is worth a fresh read.
  const version = user ? `${user.planId}|${user.planStatus}|${user.cancelSubscriptionDate}|${user.usedPinCredits}` : "";

  useEffect(() => {
    if (!userId) {
      lastRead = null;
      if (snapshot.userKey !== null) publish(SIGNED_OUT);
      return;
    }
    if (snapshot.userKey !== userId) publish({ userKey: userId, summary: null });
    const key = `${userId}|${version}`;
    if (lastRead === key) return;
    lastRead = key;
    read(userId);
  }, [userId, version]);

  const current = useSyncExternalStore(
    subscribe,
    () => snapshot,
    () => SIGNED_OUT,
  );
  return userId && current.userKey === userId ? current.summary : null;
}
