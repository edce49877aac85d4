import { priceTag } from "../../contracts/money.ts";
import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { FREE_PLAN_ID, planButtonLabel } from "../../workers/domain/plans.ts";
import { adjustedPrice } from "../../workers/domain/pricing-parity.ts";
import { listPlans } from "../../workers/services/billing/lifetime.ts";
import { examplePins, OG_HEIGHT, OG_WIDTH } from "../../workers/services/content/showcase-catalog.ts";
import { useAuth } from "../lib/auth.tsx";
import { loginToStart } from "../lib/plan-links.ts";
import { priceHeaders, priceVaryHeaders, visitorParity } from "../lib/pricing.server.ts";
import { canonicalUrl, seoMeta } from "../lib/seo.ts";

const TITLE = "Pinboard Studio: pins from every post, scheduled for you";
const DESCRIPTION =
  "Turn blog posts, RSS feeds and shop products into on-brand Pinterest pins, let AI write titles, descriptions and alt text, and bulk-schedule them to your boards.";

/**
 * The home page, whole on the server (issue 17): example pins rendered by our
 * engine, the plans with the visitor's pricing parity (so the page varies by
 * country: x-page-vary, decision 042), everything else static.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const env = context.cloudflare.env;
  const [plans, examples] = await Promise.all([listPlans(env), examplePins(env)]);
  const parity = visitorParity(request, context);
  const monthly = plans.filter((plan) => plan.billingPeriod === "month" || plan.billingPeriod === "none");
  const lifetime = plans.find((plan) => plan.billingPeriod === "once");
  return data(
    {
      canonical: canonicalUrl(env.APP_URL, "/"),
      ogImage: canonicalUrl(env.APP_URL, "/og-image.png"),
      // From the loader, not imported: the page's client code then carries nothing of the render services.
      ogSize: { width: OG_WIDTH, height: OG_HEIGHT },
      examples,
      parity,
      plans: monthly.map((plan) => ({
        planId: plan.planId,
        name: plan.planName,
        credits: plan.creditsPerMonth,
        price: plan.amount,
        charged: parity ? adjustedPrice(plan.amount, parity) : plan.amount,
        // The card's button, as /pricing's for a visitor (spec section 4's rule): the page is the same for everyone.
        action: plan.planId === FREE_PLAN_ID ? "Sign up free" : planButtonLabel(plan, null),
        href: plan.planId === FREE_PLAN_ID ? "/signup" : loginToStart(plan.planId),
      })),
      lifetime: lifetime
        ? { price: lifetime.amount, charged: parity ? adjustedPrice(lifetime.amount, parity) : lifetime.amount, credits: lifetime.creditsPerMonth }
        : null,
    },
    { headers: priceVaryHeaders() },
  );
}

export const headers = priceHeaders;

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  ...seoMeta({
    title: TITLE,
    description: DESCRIPTION,
    url: data?.canonical ?? "/",
    image: data?.ogImage ?? null,
    imageAlt: "Three pins made with Pinboard Studio: a recipe, a product and a list, side by side",
  }),
  // The largest pin of the hero (the page's largest paint) is asked for with the stylesheets, not after the scripts.
  ...(data?.examples[1]
    ? [
        {
          tagName: "link",
          rel: "preload",
          as: "image",
          href: data.examples[1].src,
          imageSrcSet: data.examples[1].srcSet,
          imageSizes: HERO_SIZES,
          fetchpriority: "high",
        },
      ]
    : []),
  { property: "og:image:type", content: "image/png" },
  ...(data
    ? [
        { property: "og:image:width", content: String(data.ogSize.width) },
        { property: "og:image:height", content: String(data.ogSize.height) },
      ]
    : []),
];

/** The hero pins' displayed width, for the browser's choice among their widths. */
const HERO_SIZES = "(min-width: 1200px) 220px, (min-width: 800px) 18vw, 36vw";

function countryName(code: string): string {
  try {
    return new Intl.DisplayNames(["en"], { type: "region" }).of(code) ?? code;
  } catch {
    return code;
  }
}

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
  { name: "Shop owners", text: "Products from Etsy, Shopify, WooCommerce or a CSV file turned into pins with their price." },
  { name: "Affiliates", text: "Quick, good-looking pins for every offer, with the link where it belongs." },
  { name: "Agencies", text: "Several Pinterest profiles, each with its own queue, boards and posting times." },
];

/** What the product does (spec section 1), each with the page where it is done. */
const FEATURES = [
  {
    title: "Pins and videos from any source",
    text: "Generate pins from a blog post, a sitemap, an RSS feed or a product, as images or short videos.",
    to: "/generate",
    link: "Generate pins",
  },
  {
    title: "AI copy and alt text",
    text: "AI rewrites titles and descriptions with your keywords and tone, and writes alt text for every pin.",
    to: "/generate",
    link: "Try it on a post",
  },
  {
    title: "Bulk scheduling and auto-posting",
    text: "Schedule pins singly or in bulk to your connected profiles and boards; they are posted at the right time.",
    to: "/scheduling",
    link: "Scheduling",
  },
  {
    title: "Your own templates",
    text: "More than 100 standard templates and 18 colour palettes, an editor for your own designs, drafts and design profiles.",
    to: "/templates",
    link: "Browse templates",
  },
  {
    title: "Products from your shop",
    text: "Import products from Etsy, Shopify or WooCommerce, or upload a CSV file, and pin them with their prices.",
    to: "/products",
    link: "Connect a shop",
  },
  { title: "Pin history", text: "Every pin you pinned, downloaded or scheduled, in one place.", to: "/pin-history", link: "Pin history" },
  {
    title: "Referral and affiliate programmes",
    text: "Gift a month and get a month, or earn as an affiliate: no paid account needed to join.",
    to: "/affiliate",
    link: "Affiliate programme",
  },
  {
    title: "Free guides",
    text: "A Pinterest mini-course, a savings calculator and a blog of practical Pinterest marketing guides.",
    to: "/pinterest-mini-course",
    link: "Start the mini-course",
  },
];

export default function Home() {
  const { examples, plans, parity, lifetime } = useLoaderData<typeof loader>();
  const { user } = useAuth();
  const free = plans.find((plan) => plan.price === 0);
  // Signed-in visitors (never served from the shared cache) start generating instead.
  const start = user ? { to: "/generate", label: "Generate pins" } : { to: "/signup", label: "Create your free account" };
  const hero = examples.slice(0, 3);

  return (
    <main className="home">
      <section className="hero" aria-labelledby="hero-title">
        <div className="hero__text">
          <p className="eyebrow">Pinterest marketing, done for you</p>
          <h1 id="hero-title">Pins from every post, scheduled while you sleep</h1>
          <p className="lead">
            Pinboard Studio turns your blog posts, feeds and products into on-brand pin images and videos, writes the copy with AI, and posts them to your
            boards at the right time.
          </p>
          <div className="hero__actions">
            <Link className="button button--primary button--large" to={start.to}>
              {start.label}
            </Link>
            <Link className="button button--ghost button--large" to="/pricing">
              See plans
            </Link>
          </div>
        </div>
        {hero.length > 0 ? (
          <figure className="hero__showcase">
            <div className="hero__pins">
              {hero.map((pin, index) => (
                <img
                  key={pin.src}
                  className={`hero__pin hero__pin--${index + 1}`}
                  src={pin.src}
                  srcSet={pin.srcSet}
                  sizes={HERO_SIZES}
                  alt={pin.alt}
                  width={pin.width}
                  height={pin.height}
                  // React 18 knows no fetchPriority prop: the attribute as HTML spells it.
                  {...(index === 1 ? { fetchpriority: "high" } : {})}
                  decoding="async"
                />
              ))}
            </div>
            <figcaption className="hero__caption">Real pins, made by Pinboard Studio from a recipe post, a shop product and a list.</figcaption>
          </figure>
        ) : null}
      </section>

      <section className="section" aria-labelledby="how-title">
        <h2 id="how-title">How it works</h2>
        <ol className="steps">
          {STEPS.map((step, index) => (
            <li key={step.title} className="steps__item">
              <span className="steps__number" aria-hidden="true">
                {index + 1}
              </span>
              <h3>{step.title}</h3>
              <p>{step.text}</p>
            </li>
          ))}
        </ol>
      </section>

      <section className="section section--tinted" aria-labelledby="who-title">
        <h2 id="who-title">Made for people who sell with Pinterest</h2>
        <ul className="audiences">
          {AUDIENCES.map((audience, index) => {
            const example = examples[index];
            return (
              <li key={audience.name} className="audiences__item">
                {example ? (
                  <img
                    className="audiences__pin"
                    src={example.src}
                    srcSet={example.srcSet}
                    sizes="(min-width: 800px) 120px, 96px"
                    alt={example.alt}
                    width={example.width}
                    height={example.height}
                    loading="lazy"
                    decoding="async"
                  />
                ) : null}
                <div>
                  <h3>{audience.name}</h3>
                  <p>{audience.text}</p>
                  {example ? <p className="audiences__example">{`Example: ${example.audience.toLowerCase()}.`}</p> : null}
                </div>
              </li>
            );
          })}
        </ul>
      </section>

      <section className="section" aria-labelledby="features-title">
        <h2 id="features-title">Everything you need to grow on Pinterest</h2>
        <ul className="features">
          {FEATURES.map((feature) => (
            <li key={feature.title} className="features__item">
              <h3>{feature.title}</h3>
              <p>{feature.text}</p>
              <Link to={feature.to}>{feature.link}</Link>
            </li>
          ))}
        </ul>
      </section>

      {plans.length > 0 ? (
        <section className="section section--tinted" aria-labelledby="plans-title">
          <h2 id="plans-title">Plans for every stage</h2>
          {parity ? (
            <p className="home-plans__parity">
              {`Pricing for ${countryName(parity.countryCode)}: ${parity.percentageAdjustment}% off every plan, applied at checkout.`}
            </p>
          ) : null}
          <ul className="home-plans" aria-label="Monthly plans">
            {plans.map((plan) => (
              <li key={plan.planId} className="home-plans__item">
                <h3>{plan.name}</h3>
                <p className="home-plans__price">
                  {plan.charged < plan.price ? (
                    <>
                      {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: the struck-through price is named in words ("Full price $69.99"), as on /pricing. */}
                      <s aria-label={`Full price ${priceTag(plan.price)}`}>{priceTag(plan.price)}</s>{" "}
                    </>
                  ) : null}
                  <strong>{priceTag(plan.charged)}</strong>
                  {plan.price > 0 ? <span className="home-plans__period">/month</span> : null}
                </p>
                <p>{`${plan.credits.toLocaleString("en-US")} pin credits a month`}</p>
                <Link
                  className={`button ${plan.price > 0 ? "button--primary" : "button--ghost"} home-plans__button`}
                  to={plan.href}
                  aria-label={`${plan.action}: ${plan.name}`}
                >
                  {plan.action}
                </Link>
              </li>
            ))}
          </ul>
          <p className="home-plans__more">
            {lifetime ? (
              <>
                Or pay once: <Link to="/lifetime">the Lifetime plan</Link>
                {` is ${priceTag(lifetime.charged)} for ${lifetime.credits} pin credits every month. `}
              </>
            ) : null}
            <Link to="/pricing">Compare all plans</Link>
          </p>
        </section>
      ) : null}

      <section className="section cta" aria-labelledby="cta-title">
        <h2 id="cta-title">{free ? `Start with ${free.credits} free pins a month` : "Start for free"}</h2>
        <p>No card needed. Upgrade when your pins start bringing traffic.</p>
        <Link className="button button--primary button--large" to={start.to}>
          {start.label}
        </Link>
      </section>
    </main>
  );
}
