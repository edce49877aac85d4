import { describe, expect, it } from "vitest";
import { linksIn } from "../../../sandbox/providers/email.ts";
import * as builders from "../../../workers/services/accounts/emails.ts";
import type { OutgoingEmail } from "../../../workers/integrations/email-message.ts";

/**
 * Every e-mail the app sends has a plain-text part that carries the same links as its HTML part (issue 42,
 * decision 097), and every marketing e-mail has a working unsubscribe: its link and one-click headers. The
 * builders are read from emails.ts, so a new one without an example here fails the first test.
 */

const to = "reader@example.com";
const link = (path: string) => `https://app.pinboard.studio${path}`;

/** One example of each builder, with links in every slot that takes one. */
const EXAMPLES: Record<string, () => OutgoingEmail> = {
  verificationEmail: () => builders.verificationEmail(to, "Maya", link("/verify-email?uid=u1&token=t1")),
  existingAccountEmail: () => builders.existingAccountEmail(to, "Maya", link("/login"), link("/forgot-password")),
  passwordResetEmail: () => builders.passwordResetEmail(to, "Maya", link("/reset-password?token=t2")),
  successPlanEmail: () =>
    builders.successPlanEmail(to, link("/success-plan.pdf"), {
      page: link("/unsubscribe?token=n1"),
      oneClick: link("/api/user/unsubscribe/oneClick?token=n1"),
    }),
  referralInviteEmail: () => builders.referralInviteEmail(to, "Sam <b>Rivers</b>", link("/r/ABC123")),
  feedbackEmail: () => builders.feedbackEmail(to, "Could boards be sorted by name? See https://example.org/boards", "asker@example.com", new Date(0)),
  trendAlertDigestEmail: () =>
    builders.trendAlertDigestEmail(
      to,
      "Maya",
      "Linen napkins is on the move",
      [
        {
          sentence: "linen napkins rose 40% in the US this week.",
          chart: { url: link("/media/charts/c1.png"), alt: "A rising line" },
          researchLink: link("/pinterest-keyword-research?q=linen"),
          researchLabel: "Research linen napkins",
        },
      ],
      {
        alertsPage: link("/pinterest-trend-alerts"),
        unsubscribePage: link("/unsubscribe?token=a1"),
        oneClickUnsubscribe: link("/api/trendAlerts/unsubscribe?token=a1"),
      },
    ),
  rssFeedPausedEmail: () => builders.rssFeedPausedEmail(to, "Maya", "Kitchen blog", link("/pinterest-rss-feeds")),
  reviewerInviteEmail: () => builders.reviewerInviteEmail(to, "Sam", "linenhouse", link("/post-approvals?access=x")),
  reviewBatchEmail: () =>
    builders.reviewBatchEmail(
      to,
      "Maya",
      "linenhouse",
      "reviewer@example.com",
      [
        { title: "Napkins", decision: "approved", comment: "", moved: false, creditsReturned: 0 },
        { title: "Runner", decision: "rejected", comment: "Too dark", moved: false, creditsReturned: 1 },
      ],
      link("/post-approvals"),
    ),
  receiptEmail: () =>
    builders.receiptEmail(
      to,
      "Maya",
      {
        planName: "Pro",
        billing: "monthly",
        creditsPerMonth: 1000,
        amount: "$29.99",
        paidOn: "3 December 2026",
        paidUntil: "3 January 2027",
        paidWith: "a card (Stripe)",
        paymentReference: "in_123",
      },
      link("/pricing#manage"),
    ),
  cancellationEmail: () =>
    builders.cancellationEmail(
      to,
      "Maya",
      { planName: "Pro", endsOn: "3 January 2027", freeCreditsPerMonth: 10, canReactivate: true },
      link("/pricing#manage"),
    ),
  weeklySummaryEmail: () =>
    builders.weeklySummaryEmail(
      to,
      "Maya",
      [{ username: "linenhouse", pins: 12, totals: { impressions: 1200, saves: 30, outboundClicks: 14, engagementRate: 0.031 } }],
      {
        insightsPage: link("/analytics"),
        unsubscribePage: link("/unsubscribe?token=w1"),
        oneClickUnsubscribe: link("/api/user/unsubscribe/oneClick?token=w1"),
      },
    ),
};

/** Mail that is not about one request of the reader's (decision 097): it carries an unsubscribe link and the one-click headers. */
const MARKETING = ["successPlanEmail", "trendAlertDigestEmail", "weeklySummaryEmail"];

const builderNames = Object.entries(builders)
  .filter(([name, value]) => typeof value === "function" && name.endsWith("Email"))
  .map(([name]) => name)
  .sort();

/** The http(s) links of the text part: every bare URL. */
const textLinks = (text: string) => linksIn("", text).sort();
/** The links a reader finds in the HTML part: every href, and every address shown as text (a mail app links those too). */
const htmlLinks = (html: string) =>
  linksIn(
    html,
    html
      .replace(/<head>[\s\S]*<\/head>/i, " ")
      .replace(/<[^>]*>/g, " ")
      .replace(/&amp;/g, "&")
      .replace(/&quot;/g, '"'),
  ).sort();

describe("every e-mail the app sends", () => {
  it("has an example here for each builder of emails.ts", () => {
    expect(builderNames).toEqual(Object.keys(EXAMPLES).sort());
  });

  for (const [name, build] of Object.entries(EXAMPLES)) {
    it(`${name}: a plain-text part with the same links as the HTML part`, () => {
      const email = build();
      expect(email.text.trim().length).toBeGreaterThan(40);
      // Plain text: no markup of ours (a link is its address, not an anchor).
      expect(email.text).not.toMatch(/<a\s|<p[\s>]|<br|<table/i);
      const links = htmlLinks(email.html);
      expect(links.length).toBeGreaterThan(0);
      expect(textLinks(email.text)).toEqual(links);
    });
  }

  for (const name of MARKETING) {
    it(`${name} (marketing): an unsubscribe link in both parts and one-click List-Unsubscribe headers`, () => {
      const email = EXAMPLES[name]();
      const unsubscribe = textLinks(email.text).find((address) => new URL(address).pathname === "/unsubscribe");
      expect(unsubscribe).toBeDefined();
      expect(htmlLinks(email.html)).toContain(unsubscribe);
      expect(email.headers?.["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
      const oneClick = /^<(https:\/\/[^>]+)>$/.exec(email.headers?.["List-Unsubscribe"] ?? "")?.[1];
      expect(oneClick).toBeDefined();
      // The same signed token in the page's link and the one-click address.
      expect(new URL(oneClick!).searchParams.get("token")).toBe(new URL(unsubscribe!).searchParams.get("token"));
    });
  }

  it("transactional e-mail carries no List-Unsubscribe header", () => {
    for (const [name, build] of Object.entries(EXAMPLES)) {
      if (!MARKETING.includes(name)) expect(build().headers?.["List-Unsubscribe"], name).toBeUndefined();
    }
  });
});
