import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  AFFILIATE_KEY,
  REFERRAL_KEY,
  storeAffiliateId,
  storedAffiliateId,
  storedAttribution,
  storedReferralCode,
  storeReferralCode,
} from "../../../app/lib/attribution.ts";

/** The browser's local storage, as the page sees it. */
class MemoryStorage {
  items = new Map<string, string>();
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.items.set(key, String(value));
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
}

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.UTC(2026, 10, 26, 9, 0, 0);
let storage: MemoryStorage;

beforeEach(() => {
  storage = new MemoryStorage();
  (globalThis as { window?: unknown }).window = { localStorage: storage };
});
afterEach(() => {
  delete (globalThis as { window?: unknown }).window;
});

describe("who sent this visitor (affiliate id or referral code, spec sections 3 and 9)", () => {
  it("keeps an affiliate id for 30 days, then forgets it", () => {
    storeAffiliateId("earnyourhappy", NOW);
    expect(storedAffiliateId(NOW + 29 * DAY)).toBe("earnyourhappy");
    expect(storedAttribution(NOW + 29 * DAY)).toEqual({ kind: "affiliate", affiliateID: "earnyourhappy" });
    expect(storedAffiliateId(NOW + 30 * DAY + 1)).toBeNull();
    expect(storage.getItem(AFFILIATE_KEY)).toBeNull();
  });

  it("holds one of the two: the later link replaces the earlier", () => {
    storeAffiliateId("convertkit", NOW);
    storeReferralCode("INES2026", NOW + DAY);
    expect(storedAffiliateId(NOW + DAY)).toBeNull();
    expect(storedAttribution(NOW + DAY)).toEqual({ kind: "referral", referralCode: "INES2026" });
    storeAffiliateId("earnyourhappy", NOW + 2 * DAY);
    expect(storedReferralCode(NOW + 2 * DAY)).toBeNull();
    expect(storedAttribution(NOW + 2 * DAY)).toEqual({ kind: "affiliate", affiliateID: "earnyourhappy" });
    // A new link restarts the 30 days.
    expect(storedAffiliateId(NOW + 31 * DAY)).toBe("earnyourhappy");
  });

  it("reads a bare value an older version stored, and gives it 30 days from now", () => {
    storage.setItem(REFERRAL_KEY, "OLDCODE1");
    expect(storedReferralCode(NOW)).toBe("OLDCODE1");
    expect(storedReferralCode(NOW + 31 * DAY)).toBeNull();
  });

  it("ignores empty values and works without storage", () => {
    storeAffiliateId("   ", NOW);
    expect(storedAttribution(NOW)).toBeNull();
    delete (globalThis as { window?: unknown }).window;
    expect(() => storeReferralCode("INES2026", NOW)).not.toThrow();
    expect(storedAttribution(NOW)).toBeNull();
  });
});
