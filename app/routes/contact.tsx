import type { LinksFunction, MetaFunction } from "@remix-run/cloudflare";
import { FeedbackDialog } from "../components/contact/feedback-dialog.tsx";
import { useRootData } from "../lib/auth.tsx";
import accountStyles from "../styles/account.css?url";
import contactStyles from "../styles/contact.css?url";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: accountStyles },
  { rel: "stylesheet", href: contactStyles },
];
export const meta: MetaFunction = () => [
  { title: "Contact us | Pinboard Studio" },
  { name: "description", content: "E-mail, phone and social profiles of Pinboard Studio, and a form to send us feedback." },
];

/** /contact (spec section 2): the e-mail, phone and social links from configuration, and the feedback dialog. */
export default function ContactPage() {
  const { contact } = useRootData().env;
  return (
    <main className="page contact">
      <h1>Contact us</h1>
      <p className="lead">Questions about your account, your plan or Pinterest marketing: we answer every message, usually within one working day.</p>
      <ul className="contact__grid">
        <li className="contact__card">
          <h2>E-mail</h2>
          <p>
            <a href={`mailto:${contact.email}`}>{contact.email}</a>
          </p>
        </li>
        <li className="contact__card">
          <h2>Phone</h2>
          <p>
            <a href={`tel:${contact.phone.replace(/[^+\d]/g, "")}`}>{contact.phone}</a>
          </p>
        </li>
        {contact.socialLinks.length > 0 ? (
          <li className="contact__card">
            <h2>Follow us</h2>
            <ul className="contact__social">
              {contact.socialLinks.map((link) => (
                <li key={link.url}>
                  <a href={link.url} rel="noopener noreferrer" target="_blank">
                    {link.name}
                    <span className="visually-hidden"> (opens in a new tab)</span>
                  </a>
                </li>
              ))}
            </ul>
          </li>
        ) : null}
      </ul>
      <section className="contact__feedback" aria-labelledby="feedback-title">
        <h2 id="feedback-title">Tell us what you think</h2>
        <p>Found a bug, missing a feature or have an idea? Send it in a few words; leave your e-mail if you would like an answer.</p>
        <FeedbackDialog />
      </section>
    </main>
  );
}
