import type { LegalDocument } from "./document.ts";

/**
 * The privacy policy (spec section 2: under the law of England and Wales): the text of
 * /privacy-policy and of public/privacy-policy.pdf (scripts/generate-legal-pdfs.ts).
 */
export const PRIVACY_POLICY: LegalDocument = {
  title: "Privacy policy",
  updated: "22 November 2026",
  lead: "This policy explains what personal data Pinboard Studio collects when you use our website and app, why we collect it, who helps us process it, how long we keep it and the rights you have.",
  sections: [
    {
      id: "who-we-are",
      title: "Who we are",
      blocks: [
        {
          paragraph:
            'Pinboard Studio ("we", "us") runs the Pinboard Studio web application and is the controller of the personal data described here. You can reach us about anything in this policy at [hello@pinboard.studio](mailto:hello@pinboard.studio).',
        },
      ],
    },
    {
      id: "data-we-collect",
      title: "The data we collect",
      blocks: [
        { paragraph: "We collect only what we need to run the service:" },
        {
          list: [
            "**Account details:** your name, e-mail address, handle, profile photo, where you heard of us, and your password (stored only as a one-way hash). If you sign in with Google we receive your name, e-mail address and Google account identifier, never your Google password.",
            "**What you create:** the addresses, feeds, products and files you give us, uploaded images, videos and fonts, templates, drafts, design settings, scheduled pins and your pin history.",
            "**Connected accounts:** the access tokens Pinterest and your online shops give us when you connect them, your Pinterest usernames, boards and board sections.",
            "**Plan and payments:** your plan, its status and dates, pin credits used, referral and affiliate records. Card and PayPal details are handled by our payment providers; we never see your full card number.",
            "**Technical data:** the IP address and browser of each sign-in, and counters of recent attempts per e-mail address and IP address, used to keep accounts secure and stop abuse.",
            "**Newsletter:** if you ask for the Success plan or our newsletter, your e-mail address, where you signed up and when.",
            "**Messages:** what you write to us through the contact or feedback form, and your e-mail address if you would like a response.",
          ],
        },
      ],
    },
    {
      id: "why",
      title: "Why we use it, and our legal bases",
      blocks: [
        {
          list: [
            "**To provide the service you signed up for** (performance of our contract with you): your account, generating and storing pins, posting them to Pinterest at the times you chose, billing your plan and counting your credits.",
            "**To keep the service secure and working** (our legitimate interests): sign-in sessions, limits on repeated attempts, fraud prevention, fixing faults.",
            "**To send you the Success plan and newsletter** (your consent): you can unsubscribe with the link in every e-mail.",
            "**To understand how the app is used** (your consent, given with the cookie banner): only if you accept.",
            "**To meet legal duties** (legal obligation): keeping invoices and tax records.",
          ],
        },
      ],
    },
    {
      id: "cookies",
      title: "Cookies and local storage",
      blocks: [
        {
          paragraph:
            "A session cookie keeps you signed in; your browser's local storage holds your sign-in tokens, your answer to the cookie banner and whether you asked for the Success plan. These are needed for the app to work. Anything beyond that, such as usage statistics, is used only if you choose Accept on the cookie banner; if you choose Deny, we do not use it. Clearing your browser's storage lets you choose again.",
        },
      ],
    },
    {
      id: "who-processes",
      title: "Who else processes your data",
      blocks: [
        { paragraph: "We share personal data only with the providers that help us run the service, under contracts that protect it:" },
        {
          list: [
            "Cloudflare: hosting, database and file storage;",
            "Resend: sending our e-mails;",
            "Stripe and PayPal: payments;",
            "Google: sign-in with Google, if you use it;",
            "Pinterest: posting the pins you schedule, to the profiles you connected;",
            "Etsy, Shopify and WooCommerce: reading your products, if you connect a shop;",
            "OpenAI: writing titles, descriptions and alt text when you ask for AI text (we send the text and images of the pin, not your account details).",
          ],
        },
        {
          paragraph:
            "We do not sell your personal data. We disclose it to authorities only when the law requires us to. Some of these providers process data outside the United Kingdom; where they do, the transfer is protected by an adequacy decision or by standard contractual clauses.",
        },
      ],
    },
    {
      id: "retention",
      title: "How long we keep it",
      blocks: [
        {
          list: [
            "Your account and everything you created: until you delete your account. Deleting it removes your details, uploads, templates, drafts and scheduled pins.",
            "Sign-in sessions: until they expire or you log out; limits on repeated attempts are forgotten within hours.",
            "Newsletter details: until you unsubscribe.",
            "Invoices and payment records: as long as tax law requires, usually six years.",
          ],
        },
      ],
    },
    {
      id: "your-rights",
      title: "Your rights",
      blocks: [
        {
          paragraph:
            "You have the right to ask for a copy of your personal data, to have it corrected or erased, to restrict or object to how we use it, to receive it in a portable format, and to withdraw consent at any time (this does not affect what we did before). Most details you can change or delete yourself on your [profile](/profile); for anything else write to [hello@pinboard.studio](mailto:hello@pinboard.studio). We answer within one month.",
        },
        {
          paragraph:
            "If you are unhappy with how we handle your data, please tell us first. You may also complain to the Information Commissioner's Office (ico.org.uk) or to the data protection authority where you live.",
        },
      ],
    },
    {
      id: "security",
      title: "Security",
      blocks: [
        {
          paragraph:
            "Data travels encrypted (HTTPS), passwords are stored as salted hashes, sign-in tokens are short-lived and can be revoked, and access to our systems is limited to the people who need it.",
        },
      ],
    },
    {
      id: "children",
      title: "Children",
      blocks: [{ paragraph: "Pinboard Studio is a business tool and is not meant for children under 16. We do not knowingly collect their data." }],
    },
    {
      id: "changes",
      title: "Changes to this policy",
      blocks: [
        {
          paragraph:
            "When we change this policy we update the date at the top, and we tell signed-in users by e-mail about any change that matters to them before it takes effect.",
        },
      ],
    },
    {
      id: "law",
      title: "Governing law",
      blocks: [
        {
          paragraph:
            "This privacy policy is governed by the law of England and Wales, including the UK General Data Protection Regulation and the Data Protection Act 2018. Our [terms and conditions](/terms-and-conditions) cover the rest of your use of Pinboard Studio.",
        },
      ],
    },
  ],
};
