import { describe, expect, it } from "vitest";
import { ApiError } from "../../../app/lib/api-client.ts";
import { loadReferralCode, REFERRAL_CODE_MAX_ATTEMPTS, REFERRAL_CODE_RETRY_MS } from "../../../app/lib/referrals.ts";
import { claimRefusal, referralEarnings, shouldShowReferralModal } from "../../../workers/domain/referrals.ts";

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.UTC(2026, 10, 26, 12);

describe("the referral modal rule (20 used credits, then 21 quiet days)", () => {
  it("shows from 20 used credits, never below", () => {
    expect(shouldShowReferralModal({ usedPinCredits: 19, lastShownAt: null }, NOW)).toBe(false);
    expect(shouldShowReferralModal({ usedPinCredits: 20, lastShownAt: null }, NOW)).toBe(true);
    expect(shouldShowReferralModal({ usedPinCredits: 150, lastShownAt: null }, NOW)).toBe(true);
    expect(shouldShowReferralModal({ usedPinCredits: Number.NaN, lastShownAt: null }, NOW)).toBe(false);
  });

  it("does not show again for 21 days after it was shown", () => {
    expect(shouldShowReferralModal({ usedPinCredits: 40, lastShownAt: NOW }, NOW)).toBe(false);
    expect(shouldShowReferralModal({ usedPinCredits: 40, lastShownAt: NOW - 20 * DAY }, NOW)).toBe(false);
    expect(shouldShowReferralModal({ usedPinCredits: 40, lastShownAt: NOW - 21 * DAY + 1 }, NOW)).toBe(false);
    expect(shouldShowReferralModal({ usedPinCredits: 40, lastShownAt: NOW - 21 * DAY }, NOW)).toBe(true);
    // A showing "in the future" (the clock was set back) counts as recent.
    expect(shouldShowReferralModal({ usedPinCredits: 40, lastShownAt: NOW + DAY }, NOW)).toBe(false);
    // Past the quiet days but below 20 used credits (a new month began): not shown.
    expect(shouldShowReferralModal({ usedPinCredits: 3, lastShownAt: NOW - 30 * DAY }, NOW)).toBe(false);
  });
});

describe("referral earnings and claims", () => {
  it("shows 16.99 x referredSales, counted in cents", () => {
    expect(referralEarnings(0)).toBe(0);
    expect(referralEarnings(1)).toBe(16.99);
    expect(referralEarnings(2)).toBe(33.98);
    expect(referralEarnings(7)).toBe(118.93);
  });

  it("refuses one's own code, a second claim and an account that had a plan", () => {
    const fine = { isOwnCode: false, alreadyReferred: false, hasPlanHistory: false, emailVerified: true, isOwnMailbox: false, mailboxClaimed: false };
    expect(claimRefusal(fine)).toBeNull();
    expect(claimRefusal({ ...fine, isOwnCode: true })).toBe("own-code");
    expect(claimRefusal({ ...fine, alreadyReferred: true, hasPlanHistory: true })).toBe("already-referred");
    expect(claimRefusal({ ...fine, hasPlanHistory: true })).toBe("already-customer");
  });

  it("needs a verified address, then refuses an alias of the referrer's mailbox and a mailbox that had its month (decision 079)", () => {
    const fine = { isOwnCode: false, alreadyReferred: false, hasPlanHistory: false, emailVerified: true, isOwnMailbox: false, mailboxClaimed: false };
    expect(claimRefusal({ ...fine, emailVerified: false })).toBe("email-not-verified");
    expect(claimRefusal({ ...fine, isOwnMailbox: true })).toBe("own-code");
    expect(claimRefusal({ ...fine, mailboxClaimed: true })).toBe("mailbox-already-claimed");
    // An unverified account is told nothing about mailboxes: whose inbox a code or a claim belongs to is not a stranger's to learn.
    expect(claimRefusal({ ...fine, emailVerified: false, isOwnMailbox: true, mailboxClaimed: true })).toBe("email-not-verified");
    // The account's own facts come first: they do not change by verifying.
    expect(claimRefusal({ ...fine, emailVerified: false, hasPlanHistory: true })).toBe("already-customer");
    expect(claimRefusal({ ...fine, emailVerified: false, isOwnCode: true })).toBe("own-code");
  });
});

describe("loading the referral code (spec section 8)", () => {
  it("uses the known code without asking", async () => {
    let asked = 0;
    expect(
      await loadReferralCode("ABCD2345", async () => {
        asked += 1;
        return { referralCode: "OTHER234" };
      }),
    ).toBe("ABCD2345");
    expect(asked).toBe(0);
  });

  it("retries a 400 every 5 s and answers the code once it comes", async () => {
    const waits: number[] = [];
    let attempts = 0;
    const code = await loadReferralCode(
      null,
      async () => {
        attempts += 1;
        if (attempts < 3) throw new ApiError(400, "not ready");
        return { referralCode: "ABCD2345" };
      },
      async (ms) => void waits.push(ms),
    );
    expect(code).toBe("ABCD2345");
    expect(waits).toEqual([REFERRAL_CODE_RETRY_MS, REFERRAL_CODE_RETRY_MS]);
    expect(REFERRAL_CODE_RETRY_MS).toBe(5_000);
  });

  it("gives up after 20 attempts, and at once on anything but a 400", async () => {
    let attempts = 0;
    const waits: number[] = [];
    const fail400 = async () => {
      attempts += 1;
      throw new ApiError(400, "not ready");
    };
    expect(await loadReferralCode(undefined, fail400, async (ms) => void waits.push(ms))).toBeNull();
    expect(attempts).toBe(REFERRAL_CODE_MAX_ATTEMPTS);
    expect(attempts).toBe(20);
    expect(waits).toHaveLength(19);

    attempts = 0;
    const fail500 = async () => {
      attempts += 1;
      throw new ApiError(500, "down");
    };
    expect(await loadReferralCode(null, fail500, async () => undefined)).toBeNull();
    expect(attempts).toBe(1);
  });
});
