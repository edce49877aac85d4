import type { MetaFunction } from "@remix-run/cloudflare";
import { Link } from "@remix-run/react";
import { DocumentPage, type DocumentSection } from "../components/shell/document-page.tsx";
import { AFFILIATE_AGREEMENT_PDF, PRIVACY_POLICY_PDF } from "../legal/document.ts";

export const meta: MetaFunction = () => [
  { title: "Terms and conditions | Pinboard Studio" },
  {
    name: "description",
    content: "The terms for using Pinboard Studio: accounts, plans and pin credits, payments (refunds are not offered), your content and the law that applies.",
  },
];

const SECTIONS: DocumentSection[] = [
  {
    id: "agreement",
    title: "About these terms",
    body: (
      <p>
        These terms are the agreement between you and Pinboard Studio ("we", "us") for using the Pinboard Studio website and app. By creating an account or
        using the app you accept them. How we handle personal data is explained in our <Link to="/privacy-policy">privacy policy</Link> (also as a{" "}
        <a href={PRIVACY_POLICY_PDF}>PDF</a>), which forms part of these terms.
      </p>
    ),
  },
  {
    id: "account",
    title: "Your account",
    body: (
      <ul>
        <li>Give us correct details and keep your e-mail address up to date; we send account notices there.</li>
        <li>Keep your password to yourself. You are responsible for what happens under your account.</li>
        <li>You must be at least 16 and, if you use the app for a business, allowed to accept these terms for it.</li>
        <li>You can delete your account at any time from your profile.</li>
      </ul>
    ),
  },
  {
    id: "plans-and-credits",
    title: "Plans and pin credits",
    body: (
      <>
        <p>
          Each plan comes with a number of pin credits per month. Credits are used when a pin is pinned, downloaded or scheduled and for AI features, at the
          rates shown in the help centre. Unused credits do not roll over to the next month and have no cash value.
        </p>
        <p>
          Features, credit amounts and prices are shown on the pricing page when you choose a plan. We may change them for future billing periods; we tell you
          in advance, and you can cancel before the change applies to you.
        </p>
      </>
    ),
  },
  {
    id: "payments",
    title: "Payments, renewals and cancellation",
    body: (
      <>
        <p>
          Monthly and yearly plans are paid in advance and renew automatically at the end of each period until you cancel. A free trial turns into a paid plan
          at its end unless you cancel before. The Lifetime plan is paid once. Payments are handled by Stripe or PayPal.
        </p>
        <p>
          You can cancel at any time under Manage subscription. Your plan then stays active until the end of the period you have paid for and is not renewed.
        </p>
      </>
    ),
  },
  {
    id: "refunds",
    title: "No refunds",
    body: (
      <p>
        Refunds are not offered: not for the remainder of a period after you cancel, not for unused credits and not for the Lifetime plan. By starting a paid
        plan you ask us to provide the service straight away, and you accept that once it has started you lose the right to withdraw from the purchase that
        consumers would otherwise have. Try the free plan or a free trial first to see whether Pinboard Studio suits you. Nothing in these terms takes away
        rights that mandatory consumer law gives you, for example if the service is not provided as described.
      </p>
    ),
  },
  {
    id: "acceptable-use",
    title: "Using the app fairly",
    body: (
      <>
        <p>You agree not to:</p>
        <ul>
          <li>post spam, or anything unlawful, misleading or infringing someone else's rights;</li>
          <li>break the rules of Pinterest or of the shops and services you connect;</li>
          <li>try to get around credit limits, rate limits or security measures, or share one account among several people;</li>
          <li>overload, copy, resell or reverse-engineer the service.</li>
        </ul>
        <p>We may suspend an account that breaks these rules, after warning you where we reasonably can.</p>
      </>
    ),
  },
  {
    id: "your-content",
    title: "Your content",
    body: (
      <p>
        What you upload and create stays yours. You give us the permission we need to store, process, render and post it for you, and nothing more. You confirm
        you have the rights to the texts, images, videos, fonts and links you use. Templates you choose to share may be used by other users. AI-written text is
        a suggestion: check it before you publish it.
      </p>
    ),
  },
  {
    id: "third-parties",
    title: "Pinterest and other services",
    body: (
      <p>
        Pinboard Studio is not made or endorsed by Pinterest. Posting depends on Pinterest and the other services you connect; when they are unavailable, block
        a profile or end a connection, pins may be posted late or not at all. Your use of those services is governed by their own terms.
      </p>
    ),
  },
  {
    id: "referral-affiliate",
    title: "Referral and affiliate programmes",
    body: (
      <p>
        The referral programme's rewards are described on the referral page. The affiliate programme is governed by a separate{" "}
        <a href={AFFILIATE_AGREEMENT_PDF}>affiliate agreement (PDF)</a>, which you accept when you join it: 25% commission including recurring payments, a
        30-day cookie, payouts from $100 on or before the 5th of the month after a one-month hold, and no commission on lifetime deals.
      </p>
    ),
  },
  {
    id: "availability-liability",
    title: "Availability and liability",
    body: (
      <>
        <p>
          We work to keep Pinboard Studio available and your data safe, but we cannot promise the service will be uninterrupted or error-free, or that pins will
          bring a particular result.
        </p>
        <p>
          As far as the law allows, we are not liable for indirect loss such as lost profit or lost traffic, and our total liability is limited to what you paid
          us in the twelve months before the claim. Nothing limits liability that cannot be limited by law, such as for intent or gross negligence.
        </p>
      </>
    ),
  },
  {
    id: "ending",
    title: "Ending the agreement",
    body: (
      <p>
        You can stop using Pinboard Studio and delete your account at any time. We may end the agreement with 30 days' notice, or straight away for a serious
        breach of these terms. Scheduled pins are no longer posted once an account is closed.
      </p>
    ),
  },
  {
    id: "changes",
    title: "Changes to these terms",
    body: (
      <p>
        We may update these terms. We tell you by e-mail at least 30 days before a change that matters to you takes effect; if you do not agree, you can cancel
        before then.
      </p>
    ),
  },
  {
    id: "law",
    title: "Governing law and disputes",
    body: (
      <p>
        These terms are governed by the law of the Netherlands. Disputes go to the competent court in Amsterdam, unless mandatory consumer law gives you the
        right to go to the courts where you live. Questions or complaints: write to <a href="mailto:hello@pinboard.studio">hello@pinboard.studio</a>.
      </p>
    ),
  },
];

export default function TermsAndConditions() {
  return (
    <DocumentPage
      title="Terms and conditions"
      updated="22 November 2026"
      lead="The rules for using Pinboard Studio, in plain words. Please read them before you start a plan."
      sections={SECTIONS}
    />
  );
}
