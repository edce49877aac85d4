import { describe, expect, it } from "vitest";
import {
  commissionCents,
  commissionTotals,
  isBotAgent,
  lastMonths,
  nextPayoutDay,
  payableAt,
  payoutDayOnOrAfter,
  payoutDue,
  withinAttributionWindow,
} from "../../../workers/domain/affiliates.ts";

// The affiliate programme's rules (spec section 9, Affiliate): 25% of every charge, none on lifetime
// deals, 30 days from the click, a month's hold, $100 minimum, paid on or before the 5th.

const DAY = 24 * 60 * 60 * 1000;
const at = (iso: string) => Date.parse(iso);

describe("attribution window", () => {
  const click = at("2026-03-01T10:00:00Z");
  it.each([
    [0, true],
    [1, true],
    [29, true],
    [30, true],
    [31, false],
    [45, false],
  ])("a sign-up %i days after the click counts: %s", (days, counts) => {
    expect(withinAttributionWindow(click, click + days * DAY)).toBe(counts);
  });
  it("a click recorded after the sign-up does not attribute it", () => {
    expect(withinAttributionWindow(click, click - 1000)).toBe(false);
  });
});

describe("commission arithmetic", () => {
  it.each([
    ["Starter monthly", 1699, 425],
    ["Starter annual", 16900, 4225],
    ["Pro monthly renewal", 2999, 750],
    ["Agency annual", 69900, 17475],
    ["Growth monthly at 40% parity", 2999, 750],
  ])("%s: 25%% of %i cents is %i", (_, amount, expected) => {
    expect(commissionCents({ amountCents: amount, lifetime: false })).toBe(expected);
  });
  it("earns nothing on a lifetime deal, a free (trial) invoice or a credit", () => {
    expect(commissionCents({ amountCents: 24900, lifetime: true })).toBe(0);
    expect(commissionCents({ amountCents: 0, lifetime: false })).toBe(0);
    expect(commissionCents({ amountCents: -500, lifetime: false })).toBe(0);
  });
  it("a renewal earns as much as the first charge: every charge counts", () => {
    const charges = [1699, 1699, 1699];
    expect(charges.reduce((sum, amount) => sum + commissionCents({ amountCents: amount, lifetime: false }), 0)).toBe(1275);
  });
});

describe("payout eligibility", () => {
  it("holds a commission for a calendar month", () => {
    expect(payableAt(at("2026-01-31T08:00:00Z"))).toBe(at("2026-02-28T08:00:00Z"));
    expect(payableAt(at("2026-03-15T08:00:00Z"))).toBe(at("2026-04-15T08:00:00Z"));
  });

  it("splits pending, payable and paid", () => {
    const now = at("2026-05-10T00:00:00Z");
    const rows = [
      { commissionCents: 4225, payableAt: at("2026-05-09T00:00:00Z"), paid: false },
      { commissionCents: 425, payableAt: at("2026-05-11T00:00:00Z"), paid: false },
      { commissionCents: 1000, payableAt: at("2026-04-01T00:00:00Z"), paid: true },
    ];
    expect(commissionTotals(rows, now)).toEqual({ pendingCents: 425, payableCents: 4225, paidCents: 1000 });
  });

  it("needs $100 payable", () => {
    expect(payoutDue(9999)).toBe(false);
    expect(payoutDue(10000)).toBe(true);
  });

  it("pays on or before the 5th: the 5th itself is still this month's payout day", () => {
    expect(payoutDayOnOrAfter(at("2026-06-03T12:00:00Z"))).toBe(at("2026-06-05T00:00:00Z"));
    expect(payoutDayOnOrAfter(at("2026-06-05T23:00:00Z"))).toBe(at("2026-06-05T00:00:00Z"));
    expect(payoutDayOnOrAfter(at("2026-06-06T00:00:00Z"))).toBe(at("2026-07-05T00:00:00Z"));
    expect(payoutDayOnOrAfter(at("2026-12-20T00:00:00Z"))).toBe(at("2027-01-05T00:00:00Z"));
  });

  it("the next payout day is the first 5th after $100 is out of its hold", () => {
    const now = at("2026-06-10T00:00:00Z");
    // $60 payable now, $50 more payable on 20 June: $110 from 20 June, paid by 5 July.
    const rows = [
      { commissionCents: 6000, payableAt: at("2026-06-01T00:00:00Z"), paid: false },
      { commissionCents: 5000, payableAt: at("2026-06-20T00:00:00Z"), paid: false },
    ];
    expect(nextPayoutDay(rows, now)).toBe(at("2026-07-05T00:00:00Z"));
    // Already $100 payable on the 3rd: this month's 5th.
    expect(nextPayoutDay([{ commissionCents: 10000, payableAt: at("2026-06-01T00:00:00Z"), paid: false }], at("2026-06-03T00:00:00Z"))).toBe(
      at("2026-06-05T00:00:00Z"),
    );
    // Under $100 even when all is out of its hold: no payout day yet; paid rows do not count.
    expect(
      nextPayoutDay(
        [
          { commissionCents: 9000, payableAt: now, paid: false },
          { commissionCents: 5000, payableAt: now, paid: true },
        ],
        now,
      ),
    ).toBeNull();
  });
});

describe("monthly table", () => {
  it("names the last six months, oldest first, across a new year", () => {
    expect(lastMonths(at("2026-02-14T00:00:00Z"), 6)).toEqual(["2025-09", "2025-10", "2025-11", "2025-12", "2026-01", "2026-02"]);
  });
});

describe("bots", () => {
  it.each([
    ["Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36", false],
    ["Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1", false],
    ["Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", true],
    ["facebookexternalhit/1.1", true],
    ["curl/8.5.0", true],
    ["", true],
  ])("%s is a bot: %s", (agent, bot) => {
    expect(isBotAgent(agent)).toBe(bot);
  });
});
