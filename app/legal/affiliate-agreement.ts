import { ATTRIBUTION_WINDOW_DAYS, COMMISSION_RATE, HOLD_MONTHS, MINIMUM_PAYOUT_CENTS, PAYOUT_DAY_OF_MONTH } from "../../workers/domain/affiliates.ts";
import type { LegalDocument } from "./document.ts";

const RATE = `${Math.round(COMMISSION_RATE * 100)}%`;
const MINIMUM = `$${MINIMUM_PAYOUT_CENTS / 100}`;
const DAY = `${PAYOUT_DAY_OF_MONTH}th`;
const HOLD = `${HOLD_MONTHS} month${HOLD_MONTHS === 1 ? "" : "s"}`;

/**
 * The affiliate programme's agreement (spec section 9), public/affiliate-agreement.pdf, linked
 * from the terms. Its numbers are the ones the programme computes with (workers/domain/affiliates.ts).
 */
export const AFFILIATE_AGREEMENT: LegalDocument = {
  title: "Affiliate agreement",
  updated: "26 November 2026",
  lead: "The terms of the Pinboard Studio affiliate programme: what you earn for the customers you send us, when and how we pay you, and the rules that keep the programme fair.",
  sections: [
    {
      id: "parties",
      title: "1. Who this agreement is between",
      blocks: [
        {
          paragraph:
            'This agreement is between Pinboard Studio ("we", "us") and you, the affiliate. You accept it when you create an affiliate profile on the affiliate page of the app. It adds to our [terms and conditions](/terms-and-conditions), which also apply to you; where the two differ about the affiliate programme, this agreement wins.',
        },
        { paragraph: "Anyone with a Pinboard Studio account can join; you do not need a paid plan." },
      ],
    },
    {
      id: "link",
      title: "2. Your link and who counts as your customer",
      blocks: [
        {
          list: [
            "You get a personal affiliate link. Share it on your own website, blog, newsletter, videos and social profiles.",
            `When someone opens your link, we remember it in their browser for **${ATTRIBUTION_WINDOW_DAYS} days**. If they sign up or start a paid plan within those ${ATTRIBUTION_WINDOW_DAYS} days, they become your customer.`,
            "If they later open another affiliate's link or a referral link before signing up, the later link counts instead of yours.",
            "Opening your own link, or sending customers who are you under another name, does not count.",
          ],
        },
      ],
    },
    {
      id: "commission",
      title: "3. What you earn",
      blocks: [
        {
          list: [
            `**${RATE} commission** of every payment your customer makes for a monthly or yearly plan, **including recurring payments**: every renewal earns you ${RATE} again, for as long as they stay subscribed.`,
            "Commission is counted on what your customer actually paid, after any discount.",
            "**No commission on lifetime deals:** one-off payments for the Lifetime plan do not earn commission.",
            "Free months, referral credits and redeem codes are not payments and earn nothing.",
          ],
        },
      ],
    },
    {
      id: "payment",
      title: "4. When and how we pay you",
      blocks: [
        {
          list: [
            `**Hold:** each commission is held for ${HOLD} after the payment it comes from, then becomes payable.`,
            `**Minimum payout:** we pay once at least **${MINIMUM}** of commission is payable. Smaller amounts carry over to the following months until they reach ${MINIMUM}.`,
            `**Payout date:** we pay what is payable **on or before the ${DAY} of the month**.`,
            "**How:** to the Wise account you name with your Wise tag on the affiliate page. Keep it up to date; we cannot pay without it, and payments to a tag you gave us are final.",
            "Amounts are in US dollars. You are responsible for any tax due on what you earn.",
          ],
        },
        {
          paragraph:
            "Pinboard Studio does not offer refunds to its customers, so a commission that has been paid is not taken back. We may withhold or cancel commission that comes from fraud, a payment that was charged back, or a breach of section 5.",
        },
      ],
    },
    {
      id: "rules",
      title: "5. Promoting Pinboard Studio fairly",
      blocks: [
        { paragraph: "You agree to:" },
        {
          list: [
            "describe Pinboard Studio honestly, and not promise results, prices or features it does not have;",
            "make clear to your audience that you earn a commission, as the law where you publish requires (for example with a disclosure next to your link);",
            "not send spam, and not use your link in paid search ads on our brand name or in ads that look like they come from us;",
            "not offer cash back, coupons or other rewards for using your link unless we agree in writing;",
            "not use our name or logo in a way that suggests you are Pinboard Studio or speak for us.",
          ],
        },
      ],
    },
    {
      id: "ending",
      title: "6. Changes and ending the agreement",
      blocks: [
        {
          paragraph:
            "You can leave the programme at any time by writing to us; commission that is payable when you leave is still paid under section 4. We may end your participation with 30 days' notice, or straight away for a serious breach of section 5. We may change this agreement with 30 days' notice by e-mail; changes never reduce commission already earned.",
        },
      ],
    },
    {
      id: "liability",
      title: "7. Liability",
      blocks: [
        {
          paragraph:
            "You are an independent partner, not our employee or agent. As far as the law allows, neither of us is liable to the other for indirect loss, and our total liability under this agreement is limited to the commission paid to you in the twelve months before the claim.",
        },
      ],
    },
    {
      id: "law",
      title: "8. Governing law",
      blocks: [
        {
          paragraph:
            "This agreement is governed by the law of the Netherlands. Disputes go to the competent court in Amsterdam. Questions about the programme: write to [hello@pinboard.studio](mailto:hello@pinboard.studio).",
        },
      ],
    },
  ],
};
