import { describe, expect, it } from "vitest";
import { bearer, json, signUpUser, type TestUser } from "../accounts/accounts-support.ts";
import { stripeCustomerOf } from "./billing-support.ts";
import { app, read, sandbox } from "../support.ts";

// The server-rendered price pages (issue 17): /pricing, /lifetime and /savings-calculator carry the
// plans and the visitor's parity-adjusted prices in their HTML, and checkout charges exactly the
// price the HTML shows. The country is the one the edge saw; in this test configuration the
// cf-ipcountry header names it (docs/decisions/015-pricing-parity.md). Only parity percentages
// other tests already use for coupons that are right (50 and 40) are used here.

const START = "/api/stripeSubscriptions/startStripeSubscription";
const ONCE_OFF = "/api/stripeSubscriptions/startStripeOnceOffPayment";

async function page(path: string, country: string | null) {
  const response = await app(path, { headers: country ? { "cf-ipcountry": country } : {} });
  expect(response.status).toBe(200);
  return { html: await response.text(), vary: response.headers.get("x-page-vary") };
}

/** The price a plan card shows (the amount charged, after any parity), in cents; null when the card is not in the HTML. */
function shownCents(html: string, headingId: string): number | null {
  const at = html.indexOf(`id="${headingId}"`);
  if (at < 0) return null;
  const match = /class="plan-card__amount">\$([0-9.]+)</.exec(html.slice(at));
  return match ? Math.round(Number(match[1]) * 100) : null;
}

async function checkoutTotal(user: TestUser, country: string, planId: string): Promise<number> {
  const response = await app(START, json({ planId }, bearer(user.tokens, { "cf-ipcountry": country })));
  expect(response.status).toBe(200);
  const sessions = await sandbox<{ amount_total: number; metadata?: Record<string, string> }[]>(
    `/stripe/checkout_sessions?customer=${await stripeCustomerOf(user)}`,
  );
  return sessions[0]!.amount_total;
}

describe("/pricing rendered on the server", () => {
  it("shows every plan with its price in the HTML, varying by the parity country only", async () => {
    const { html, vary } = await page("/pricing", null);
    expect(vary).toBe("country");
    expect(html).not.toContain("Loading plans");
    for (const name of ["Free", "Starter", "Pro", "Growth", "Agency"]) expect(html).toContain(`>${name}</h2>`);
    expect(shownCents(html, "plan-starter-monthly")).toBe(1699);
    expect(shownCents(html, "plan-agency-monthly")).toBe(6999);
    expect(html).not.toContain("Pricing for");
    // The annual prices with ?interval=year (the period form works without JavaScript).
    const annual = await page("/pricing?interval=year", null);
    expect(shownCents(annual.html, "plan-pro-annual")).toBe(29900);
    expect(shownCents(annual.html, "plan-pro-monthly")).toBeNull();
  });

  it("shows a parity country's prices, and checkout charges exactly the price the HTML shows", async () => {
    const monthly = await page("/pricing", "VN");
    expect(monthly.html).toMatch(/Pricing for (<!-- -->)?Vietnam(<!-- -->)?: (<!-- -->)?50(<!-- -->)?% off every plan/);
    expect(monthly.html).toContain('aria-label="Full price $69.99"');
    const annual = await page("/pricing?interval=year", "VN");
    // Agency has no free trial, so its Checkout Session charges the first payment at once.
    for (const [html, planId] of [
      [monthly.html, "agency-monthly"],
      [annual.html, "agency-annual"],
    ] as const) {
      const shown = shownCents(html, `plan-${planId}`);
      expect(shown, planId).not.toBeNull();
      const user = await signUpUser();
      expect(await checkoutTotal(user, "VN", planId), planId).toBe(shown);
    }
    expect(shownCents(monthly.html, "plan-agency-monthly")).toBe(3499);
    expect(shownCents(annual.html, "plan-agency-annual")).toBe(34950);
  });
});

describe("/lifetime rendered on the server", () => {
  it("shows the lifetime plan at the parity price, and the payment charges it", async () => {
    const { html, vary } = await page("/lifetime", "CO");
    expect(vary).toBe("country");
    expect(html).not.toContain("Loading…");
    expect(html).toContain(">Lifetime</h2>");
    const match = /class="plan-card__amount">\$([0-9.]+)</.exec(html);
    const shown = Math.round(Number(match![1]) * 100);
    expect(shown).toBe(14940);

    const user = await signUpUser();
    const start = await app(
      ONCE_OFF,
      json({ stripePriceID: "price_lifetime", planId: "lifetime", returnUrl: "/lifetime" }, bearer(user.tokens, { "cf-ipcountry": "CO" })),
    );
    expect(start.status).toBe(200);
    expect((await read(start)).redirectUrl).toBeTruthy();
    const [session] = await sandbox<{ amount_total: number }[]>(`/stripe/checkout_sessions?customer=${await stripeCustomerOf(user)}`);
    expect(session!.amount_total).toBe(shown);
  });

  it("shows the list price with no parity note to a visitor without parity", async () => {
    const { html } = await page("/lifetime", "US");
    expect(html).toContain('class="plan-card__amount">$249<');
    expect(html).not.toContain("Pricing for");
  });
});

describe("/savings-calculator rendered on the server", () => {
  it("prices the plans at the visitor's parity, and at list prices elsewhere", async () => {
    const parity = await page("/savings-calculator", "KE");
    expect(parity.vary).toBe("country");
    expect(parity.html).toContain("Starter, monthly: $8.49 a month, 150 pin credits");
    // 299 less 50 % is 149.50 a year: 12.46 a month.
    expect(parity.html).toContain("Pro, annual: $12.46 a month, 400 pin credits");
    expect(parity.html).toContain("50% off the list prices");
    const full = await page("/savings-calculator", "US");
    expect(full.html).toContain("Starter, monthly: $16.99 a month, 150 pin credits");
    expect(full.html).toContain("Prices are the list prices in US dollars");
  });
});
