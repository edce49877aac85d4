import type { ReferralCodeAnswer, ReferralProfile } from "../../contracts/growth/referrals.ts";
import { shouldShowReferralModal } from "../../workers/domain/referrals.ts";
import { ApiError, apiJson } from "./api-client.ts";

/** The referral programme in the browser (spec sections 2, 3 and 8). */

/** Spec section 8: when the code is absent it is fetched; a 400 is retried every 5 s, at most 20 attempts. */
export const REFERRAL_CODE_RETRY_MS = 5_000;
export const REFERRAL_CODE_MAX_ATTEMPTS = 20;

/**
 * The user's referral code: the one the credentials carry, else fetched from
 * GET /api/referrals/getReferralCode. Only a 400 is retried; any other failure
 * (or 20 attempts) gives up with null. `wait` is injectable for unit tests.
 */
export async function loadReferralCode(
  known: string | null | undefined,
  fetchCode: () => Promise<ReferralCodeAnswer> = () => apiJson<ReferralCodeAnswer>("/api/referrals/getReferralCode"),
  wait: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<string | null> {
  if (known) return known;
  for (let attempt = 1; attempt <= REFERRAL_CODE_MAX_ATTEMPTS; attempt += 1) {
    try {
      return (await fetchCode()).referralCode;
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 400 || attempt === REFERRAL_CODE_MAX_ATTEMPTS) return null;
      await wait(REFERRAL_CODE_RETRY_MS);
    }
  }
  return null;
}

/** The invite link a code makes on this site. */
export function inviteLinkFor(origin: string, referralCode: string): string {
  return `${origin}/referral?pgreferral=${encodeURIComponent(referralCode)}`;
}

/** GET /api/referrals/getReferralProfile/{code}: null for a code that is not valid. */
export async function fetchReferralProfile(code: string): Promise<ReferralProfile | null> {
  try {
    return await apiJson<ReferralProfile>(`/api/referrals/getReferralProfile/${encodeURIComponent(code)}`);
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 400)) return null;
    throw error;
  }
}

// ---------------------------------------------------------------------------
// The referral modal's last showing (docs/decisions/038-referral-modal.md)

/** How long after a finished action's toast the modal waits, so that the result is read first (issue 40 point 8). */
export const REFERRAL_MODAL_DELAY_MS = 1500;

const MODAL_SHOWN_KEY = "referralModalShownAt";
const modalKey = (userId: string) => `${MODAL_SHOWN_KEY}:${userId}`;

export function referralModalLastShown(userId: string): number | null {
  try {
    const raw = window.localStorage.getItem(modalKey(userId));
    const at = raw === null ? NaN : Number(raw);
    return Number.isFinite(at) ? at : null;
  } catch {
    return null;
  }
}

export function rememberReferralModalShown(userId: string, now = Date.now()) {
  try {
    window.localStorage.setItem(modalKey(userId), String(now));
  } catch {
    // Storage blocked: the modal may come back on the next visit.
  }
}

/** Whether the modal is due for this user in this browser now. */
export function referralModalDue(user: { userId: string; usedPinCredits: number }, now = Date.now()): boolean {
  return shouldShowReferralModal({ usedPinCredits: user.usedPinCredits, lastShownAt: referralModalLastShown(user.userId) }, now);
}
