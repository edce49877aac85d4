import type { MetaFunction } from "@remix-run/cloudflare";
import { Link } from "@remix-run/react";
import { DocumentPage, type DocumentSection } from "../components/shell/document-page.tsx";

export const meta: MetaFunction = () => [
  { title: "Privacy policy | Pinboard Studio" },
  { name: "description", content: "What personal data Pinboard Studio collects, why, who processes it, how long we keep it and your rights." },
];

const CONTACT = (
  <a href="mailto:hello@pinboard.studio">hello@pinboard.studio</a>
);

const SECTIONS: DocumentSection[] = [
  {
    id: "who-we-are",
    title: "Who we are",
    body: (
      <p>
        Pinboard Studio ("we", "us") runs the Pinboard Studio web application and is the controller of the personal data
        described here. You can reach us about anything in this policy at {CONTACT}.
      </p>
    ),
  },
  {
    id: "data-we-collect",
    title: "The data we collect",
    body: (
      <>
        <p>We collect only what we need to run the service:</p>
        <ul>
          <li>
            <strong>Account details:</strong> your name, e-mail address, handle, profile photo, where you heard of us, and
            your password (stored only as a one-way hash). If you sign in with Google we receive your name, e-mail address
            and Google account identifier, never your Google password.
          </li>
          <li>
            <strong>What you create:</strong> the addresses, feeds, products and files you give us, uploaded images,
            videos and fonts, templates, drafts, design settings, scheduled pins and your pin history.
          </li>
          <li>
            <strong>Connected accounts:</strong> the access tokens Pinterest and your online shops give us when you
            connect them, your Pinterest usernames, boards and board sections.
          </li>
          <li>
            <strong>Plan and payments:</strong> your plan, its status and dates, pin credits used, referral and affiliate
            records. Card and PayPal details are handled by our payment providers; we never see your full card number.
          </li>
          <li>
            <strong>Technical data:</strong> the IP address and browser of each sign-in, and counters of recent attempts
            per e-mail address and IP address, used to keep accounts secure and stop abuse.
          </li>
          <li>
            <strong>Newsletter:</strong> if you ask for the Success plan or our newsletter, your e-mail address, where
            you signed up and when.
          </li>
          <li>
            <strong>Messages:</strong> what you write to us through the contact or feedback form, and your e-mail
            address if you would like a response.
          </li>
        </ul>
      </>
    ),
  },
  {
    id: "why",
    title: "Why we use it, and our legal bases",
    body: (
      <ul>
        <li>
          <strong>To provide the service you signed up for</strong> (performance of our contract with you): your account,
          generating and storing pins, posting them to Pinterest at the times you chose, billing your plan and counting
          your credits.
        </li>
        <li>
          <strong>To keep the service secure and working</strong> (our legitimate interests): sign-in sessions, limits on
          repeated attempts, fraud prevention, fixing faults.
        </li>
        <li>
          <strong>To send you the Success plan and newsletter</strong> (your consent): you can unsubscribe with the link
          in every e-mail.
        </li>
        <li>
          <strong>To understand how the app is used</strong> (your consent, given with the cookie banner): only if you
          accept.
        </li>
        <li>
          <strong>To meet legal duties</strong> (legal obligation): keeping invoices and tax records.
        </li>
      </ul>
    ),
  },
  {
    id: "cookies",
    title: "Cookies and local storage",
    body: (
      <>
        <p>
          A session cookie keeps you signed in; your browser's local storage holds your sign-in tokens, your answer to the
          cookie banner and whether you asked for the Success plan. These are needed for the app to work. Anything beyond
          that, such as usage statistics, is used only if you choose Accept on the cookie banner; if you choose Deny, we
          do not use it. Clearing your browser's storage lets you choose again.
        </p>
      </>
    ),
  },
  {
    id: "who-processes",
    title: "Who else processes your data",
    body: (
      <>
        <p>We share personal data only with the providers that help us run the service, under contracts that protect it:</p>
        <ul>
          <li>Cloudflare: hosting, database and file storage;</li>
          <li>Resend: sending our e-mails;</li>
          <li>Stripe and PayPal: payments;</li>
          <li>Google: sign-in with Google, if you use it;</li>
          <li>Pinterest: posting the pins you schedule, to the profiles you connected;</li>
          <li>Etsy, Shopify and WooCommerce: reading your products, if you connect a shop;</li>
          <li>OpenAI: writing titles, descriptions and alt text when you ask for AI text (we send the text and images of the pin, not your account details).</li>
        </ul>
        <p>
          We do not sell your personal data. We disclose it to authorities only when the law requires us to. Some of
          these providers process data outside the United Kingdom; where they do, the transfer is protected by an
          adequacy decision or by standard contractual clauses.
        </p>
      </>
    ),
  },
  {
    id: "retention",
    title: "How long we keep it",
    body: (
      <ul>
        <li>Your account and everything you created: until you delete your account. Deleting it removes your details, uploads, templates, drafts and scheduled pins.</li>
        <li>Sign-in sessions: until they expire or you log out; limits on repeated attempts are forgotten within hours.</li>
        <li>Newsletter details: until you unsubscribe.</li>
        <li>Invoices and payment records: as long as tax law requires, usually six years.</li>
      </ul>
    ),
  },
  {
    id: "your-rights",
    title: "Your rights",
    body: (
      <>
        <p>
          You have the right to ask for a copy of your personal data, to have it corrected or erased, to restrict or object
          to how we use it, to receive it in a portable format, and to withdraw consent at any time (this does not affect
          what we did before). Most details you can change or delete yourself on your <Link to="/profile">profile</Link>;
          for anything else write to {CONTACT}. We answer within one month.
        </p>
        <p>
          If you are unhappy with how we handle your data, please tell us first. You may also complain to the Information
          Commissioner's Office (ico.org.uk) or to the data protection authority where you live.
        </p>
      </>
    ),
  },
  {
    id: "security",
    title: "Security",
    body: (
      <p>
        Data travels encrypted (HTTPS), passwords are stored as salted hashes, sign-in tokens are short-lived and can be
        revoked, and access to our systems is limited to the people who need it.
      </p>
    ),
  },
  {
    id: "children",
    title: "Children",
    body: <p>Pinboard Studio is a business tool and is not meant for children under 16. We do not knowingly collect their data.</p>,
  },
  {
    id: "changes",
    title: "Changes to this policy",
    body: (
      <p>
        When we change this policy we update the date at the top, and we tell signed-in users by e-mail about any change
        that matters to them before it takes effect.
      </p>
    ),
  },
  {
    id: "law",
    title: "Governing law",
    body: (
      <p>
        This privacy policy is governed by the law of England and Wales, including the UK General Data Protection
        Regulation and the Data Protection Act 2018. Our <Link to="/terms-and-conditions">terms and conditions</Link>{" "}
        cover the rest of your use of Pinboard Studio.
      </p>
    ),
  },
];

export default function PrivacyPolicy() {
  return (
    <DocumentPage
      title="Privacy policy"
      updated="22 November 2026"
      lead="This policy explains what personal data Pinboard Studio collects when you use our website and app, why we collect it, who helps us process it, how long we keep it and the rights you have."
      sections={SECTIONS}
    />
  );
}
