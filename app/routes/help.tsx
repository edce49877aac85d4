import type { MetaFunction } from "@remix-run/cloudflare";
import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { DocumentPage, type DocumentSection } from "../components/shell/document-page.tsx";

export const meta: MetaFunction = () => [
  { title: "Help centre | Pinboard Studio" },
  { name: "description", content: "Answers about generating pins, templates, scheduling, pin credits, plans and your account." },
];

interface Question {
  id: string;
  question: string;
  answer: ReactNode;
}

function Questions({ items }: { items: Question[] }) {
  return (
    <>
      {items.map((item) => (
        <div key={item.id}>
          <h3 id={item.id}>{item.question}</h3>
          {item.answer}
        </div>
      ))}
    </>
  );
}

const SECTIONS: DocumentSection[] = [
  {
    id: "getting-started",
    title: "Getting started",
    body: (
      <Questions
        items={[
          {
            id: "create-account",
            question: "How do I start?",
            answer: (
              <p>
                <Link to="/signup">Create a free account</Link> with your e-mail address or with Google. After signing up you land on the{" "}
                <Link to="/onboarding">onboarding checklist</Link>: eight short steps that take you from connecting Pinterest to your first scheduled pin.
              </p>
            ),
          },
          {
            id: "verify-email",
            question: "Why do I need to verify my e-mail address?",
            answer: (
              <p>
                We send you a link when you sign up. Generating pins needs a verified address, so we know where to reach you about your account and your
                scheduled pins. If the e-mail did not arrive, check your spam folder, then ask for a new link from the Generate page.
              </p>
            ),
          },
        ]}
      />
    ),
  },
  {
    id: "generating-pins",
    title: "Generating pins",
    body: (
      <Questions
        items={[
          {
            id: "sources",
            question: "Where can the pins come from?",
            answer: (
              <p>
                Paste the address of a blog post, a sitemap or an RSS feed, pick a product from a connected Etsy, Shopify or WooCommerce shop, or upload a CSV
                file with one row per product. We read the title, the description and the images worth pinning, and make a pin draft for each.
              </p>
            ),
          },
          {
            id: "ai-text",
            question: "What does the AI write?",
            answer: (
              <p>
                If you switch it on, AI rewrites pin titles (kept under 40 characters) and descriptions, in the language, tone and keywords you choose, and
                writes alt text for the image. If the AI cannot produce alt text, the pin keeps the text it already had.
              </p>
            ),
          },
          {
            id: "videos",
            question: "Can I make video pins?",
            answer: (
              <p>
                Yes. Templates with a video layer produce video pins, which you can download or schedule like image pins. A video pin uses more credits than an
                image pin (see <a href="#credits">pin credits</a>).
              </p>
            ),
          },
          {
            id: "lock-pins",
            question: "How do I keep a pin I like while regenerating the rest?",
            answer: (
              <p>Lock it. Locked pins are skipped when you regenerate colours, templates or images and when you change the design of all pins at once.</p>
            ),
          },
        ]}
      />
    ),
  },
  {
    id: "templates",
    title: "Templates and design",
    body: (
      <Questions
        items={[
          {
            id: "standard-templates",
            question: "Which templates can I use?",
            answer: (
              <p>
                More than 100 standard templates and 18 colour palettes, plus your own. Mark templates as favourites to find them quickly, or let us pick
                templates and images at random for variety.
              </p>
            ),
          },
          {
            id: "template-editor",
            question: "Can I design my own templates?",
            answer: (
              <p>
                Yes. The template editor lets you add and arrange text, image, SVG and video layers, use your logo and your own fonts (woff, woff2, ttf or otf),
                and undo or redo your last ten steps. Duplicate a standard template to start from a design you like.
              </p>
            ),
          },
          {
            id: "design-settings",
            question: "Can I save my brand settings?",
            answer: (
              <p>
                Your design settings (colours, fonts, templates, AI options) are saved with your account. Save several named profiles if you design for more
                than one brand.
              </p>
            ),
          },
        ]}
      />
    ),
  },
  {
    id: "scheduling",
    title: "Scheduling",
    body: (
      <Questions
        items={[
          {
            id: "how-scheduling-works",
            question: "How does scheduling work?",
            answer: (
              <p>
                Connect your Pinterest profile, choose boards, and schedule pins one by one or in bulk. Each profile has its own queue: pins are posted
                automatically at the next free time slot, even when your computer is off. You can also pick a specific date and time for a pin.
              </p>
            ),
          },
          {
            id: "default-schedule",
            question: "What is the default schedule?",
            answer: (
              <p>
                20 pins a day, at least 15 minutes apart, in two posting windows (20:00 to 23:00 and 02:00 to 04:00 GMT). Change the number of pins, the windows
                and your time zone in the scheduling settings.
              </p>
            ),
          },
          {
            id: "reconnect-pinterest",
            question: "Pinterest asks me to reconnect. Why?",
            answer: (
              <p>
                Pinterest ends a connection after a while, or when you change your Pinterest password. Reconnect the profile and your queue carries on. If
                Pinterest has blocked the profile, pins cannot be posted to it until Pinterest lifts the block.
              </p>
            ),
          },
        ]}
      />
    ),
  },
  {
    id: "credits",
    title: "Pin credits and plans",
    body: (
      <Questions
        items={[
          {
            id: "what-uses-credits",
            question: "What uses pin credits?",
            answer: (
              <>
                <p>Credits are used when a pin is pinned, downloaded or scheduled, and for AI work:</p>
                <ul>
                  <li>an image pin: 1 credit;</li>
                  <li>a video pin: 5 credits;</li>
                  <li>AI title and description: 0.5 credit;</li>
                  <li>AI alt text: 2 credits;</li>
                  <li>an AI image: 12 credits.</li>
                </ul>
                <p>Designing and previewing pins is free.</p>
              </>
            ),
          },
          {
            id: "credits-roll-over",
            question: "Do unused credits roll over?",
            answer: <p>No. Your plan's credits renew each month, and unused credits do not carry over to the next month.</p>,
          },
          {
            id: "plans",
            question: "Which plans are there?",
            answer: (
              <p>
                Free, Starter, Pro, Growth and Agency, each paid monthly or yearly, and a one-off Lifetime plan. Paid plans differ in credits per month; every
                plan has access to all features. Most plans start with a free trial; Agency plans do not.
              </p>
            ),
          },
          {
            id: "cancel",
            question: "How do I cancel or change my plan?",
            answer: (
              <p>
                Choose Manage subscription in the account menu. When you cancel, your plan stays active until the end of the period you paid for. Switching
                plans through PayPal needs your approval in PayPal and shows up after about five minutes.
              </p>
            ),
          },
        ]}
      />
    ),
  },
  {
    id: "refunds",
    title: "Refunds",
    body: (
      <p>
        Refunds are not offered. Try the free plan or a free trial first to see whether Pinboard Studio suits you; if you cancel, you keep your plan until the
        end of the period you paid for. The details are in our <Link to="/terms-and-conditions">terms and conditions</Link>.
      </p>
    ),
  },
  {
    id: "account",
    title: "Your account and data",
    body: (
      <Questions
        items={[
          {
            id: "change-details",
            question: "How do I change my name, handle or photo?",
            answer: (
              <p>
                On your <Link to="/profile">profile</Link>. Your handle is the address of your public profile.
              </p>
            ),
          },
          {
            id: "delete-account",
            question: "How do I delete my account?",
            answer: (
              <p>
                From your <Link to="/profile">profile</Link>. Deleting your account removes your details, your uploads and your pins from Pinboard Studio; pins
                already posted to Pinterest stay on Pinterest. Read how we handle your data in our <Link to="/privacy-policy">privacy policy</Link>.
              </p>
            ),
          },
          {
            id: "success-plan",
            question: "Where can I get the free Success plan?",
            answer: (
              <p>
                Ask for it on the <Link to="/email-signup">Success plan page</Link> and we e-mail you the download link.
              </p>
            ),
          },
          {
            id: "contact-us",
            question: "My question is not answered here.",
            answer: (
              <p>
                Write to us at <a href="mailto:hello@pinboard.studio">hello@pinboard.studio</a>. Paid plans get e-mail support, and the higher plans priority
                support.
              </p>
            ),
          },
        ]}
      />
    ),
  },
];

export default function Help() {
  return <DocumentPage title="Help centre" lead="Answers to the questions we hear most about generating, designing and scheduling pins." sections={SECTIONS} />;
}
