import type { MetaFunction } from "@remix-run/cloudflare";
import { Link } from "@remix-run/react";

export const meta: MetaFunction = () => [
  { title: "Pinboard Studio: pins from every post, scheduled for you" },
  {
    name: "description",
    content:
      "Turn blog posts, RSS feeds and shop products into on-brand Pinterest pins, let AI write titles, descriptions and alt text, and bulk-schedule them to your boards.",
  },
];

const STEPS = [
  {
    title: "Paste a link",
    text: "A blog post, a sitemap, an RSS feed or a product. We pick up the title, description and the images worth pinning.",
  },
  {
    title: "Pick your look",
    text: "More than 100 templates and 18 colour palettes, or your own designs from the template editor. Every preview is the final pin.",
  },
  {
    title: "Let AI write",
    text: "Fresh titles, keyword-rich descriptions and alt text in your language and tone, within Pinterest's limits.",
  },
  {
    title: "Schedule in bulk",
    text: "Queue dozens of pins across your boards; they are posted one by one at the times that suit your audience.",
  },
];

const AUDIENCES = [
  { name: "Bloggers", text: "Every post becomes a set of fresh pins, so old content keeps bringing readers." },
  { name: "Shop owners", text: "Products from Etsy, Shopify, WooCommerce or a CSV file turned into pins and catalogs." },
  { name: "Affiliates", text: "Quick, good-looking pins for every offer, with the link where it belongs." },
  { name: "Agencies", text: "Several Pinterest profiles, each with its own queue, boards and posting times." },
];

export default function Home() {
  return (
    <main className="home">
      <section className="hero" aria-labelledby="hero-title">
        <div className="hero__text">
          <p className="eyebrow">Pinterest marketing, done for you</p>
          <h1 id="hero-title">Pins from every post, scheduled while you sleep</h1>
          <p className="lead">
            Pinboard Studio turns your blog posts, feeds and products into on-brand pin images and videos, writes the
            copy with AI, and posts them to your boards at the right time.
          </p>
          <div className="hero__actions">
            <Link className="button button--primary button--large" to="/generate">
              Generate pins
            </Link>
            <Link className="button button--ghost button--large" to="/pricing">
              See plans
            </Link>
          </div>
        </div>
        <div className="hero__pins" aria-hidden="true">
          <div className="pin-card pin-card--one">
            <span>10 easy weeknight dinners</span>
          </div>
          <div className="pin-card pin-card--two">
            <span>Spring garden checklist</span>
          </div>
          <div className="pin-card pin-card--three">
            <span>Budget travel in Portugal</span>
          </div>
        </div>
      </section>

      <section className="section" aria-labelledby="how-title">
        <h2 id="how-title">How it works</h2>
        <ol className="steps">
          {STEPS.map((step, index) => (
            <li key={step.title} className="steps__item">
              <span className="steps__number">{index + 1}</span>
              <h3>{step.title}</h3>
              <p>{step.text}</p>
            </li>
          ))}
        </ol>
      </section>

      <section className="section section--tinted" aria-labelledby="who-title">
        <h2 id="who-title">Made for people who sell with Pinterest</h2>
        <ul className="audiences">
          {AUDIENCES.map((audience) => (
            <li key={audience.name} className="audiences__item">
              <h3>{audience.name}</h3>
              <p>{audience.text}</p>
            </li>
          ))}
        </ul>
      </section>

      <section className="section cta" aria-labelledby="cta-title">
        <h2 id="cta-title">Start with 10 free pins a month</h2>
        <p>No card needed. Upgrade when your pins start bringing traffic.</p>
        <Link className="button button--primary button--large" to="/signup">
          Create your free account
        </Link>
      </section>
    </main>
  );
}
