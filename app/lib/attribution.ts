/**
 * Who sent this visitor: an affiliate id (a pgref link such as /earn) or a
 * friend's referral code (/referral?pgreferral=CODE). The browser keeps at most
 * one of the two, for 30 days (spec sections 3 and 9): storing one replaces the
 * other, so the later link wins.
 *
 * Kept in local storage under the spec's names, `affiliateID` and
 * `referralCode`, each as JSON {value, expiresAt}. A bare string left by an older
 * version is read as unexpired once and then rewritten with an expiry.
 */
export const ATTRIBUTION_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

export const AFFILIATE_KEY = "affiliateID";
export const REFERRAL_KEY = "referralCode";

export type Attribution = { kind: "affiliate"; affiliateID: string } | { kind: "referral"; referralCode: string };

interface Stored {
  value: string;
  expiresAt: number;
}

function storage(): Storage | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage;
  } catch {
    return null; // storage disabled (private mode, blocked cookies)
  }
}

function write(key: string, value: string, now: number) {
  const store = storage();
  if (!store) return;
  const other = key === AFFILIATE_KEY ? REFERRAL_KEY : AFFILIATE_KEY;
  try {
    store.removeItem(other);
    store.setItem(key, JSON.stringify({ value, expiresAt: now + ATTRIBUTION_DAYS * DAY_MS } satisfies Stored));
  } catch {
    // Quota or privacy settings: attribution is best effort.
  }
}

function read(key: string, now: number): string | null {
  const store = storage();
  const raw = store?.getItem(key);
  if (!store || !raw) return null;
  let stored: Stored | null = null;
  try {
    const parsed = JSON.parse(raw) as unknown;
    if (parsed && typeof parsed === "object" && typeof (parsed as Stored).value === "string" && typeof (parsed as Stored).expiresAt === "number") {
      stored = parsed as Stored;
    }
  } catch {
    // not JSON: a bare value from an older version
  }
  if (!stored) {
    const value = raw.trim();
    if (!value) return null;
    write(key, value, now);
    return value;
  }
  if (stored.expiresAt <= now || !stored.value) {
    store.removeItem(key);
    return null;
  }
  return stored.value;
}

/** Remembers the affiliate who sent this visitor (forgets any referral code). */
export function storeAffiliateId(affiliateID: string, now = Date.now()) {
  const value = affiliateID.trim();
  if (value) write(AFFILIATE_KEY, value, now);
}

/** Remembers the friend's referral code that brought this visitor (forgets any affiliate id). */
export function storeReferralCode(referralCode: string, now = Date.now()) {
  const value = referralCode.trim();
  if (value) write(REFERRAL_KEY, value, now);
}

/** The affiliate id stored within the last 30 days, if any. */
export function storedAffiliateId(now = Date.now()): string | null {
  return read(AFFILIATE_KEY, now);
}

/** The referral code stored within the last 30 days, if any. */
export function storedReferralCode(now = Date.now()): string | null {
  return read(REFERRAL_KEY, now);
}

/** The one attribution this browser holds, if any. */
export function storedAttribution(now = Date.now()): Attribution | null {
  const affiliateID = storedAffiliateId(now);
  if (affiliateID) return { kind: "affiliate", affiliateID };
  const referralCode = storedReferralCode(now);
  return referralCode ? { kind: "referral", referralCode } : null;
}

/** Forgets the stored referral code (after it was recorded or claimed). */
export function clearReferralCode() {
  storage()?.removeItem(REFERRAL_KEY);
}

/** Forgets the stored affiliate id. */
export function clearAffiliateId() {
  storage()?.removeItem(AFFILIATE_KEY);
}
