import type { LinksFunction, MetaFunction } from "@remix-run/cloudflare";
import billingStyles from "../components/billing/billing.css?url";
import { PricingPage } from "../components/billing/pricing-page.tsx";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: billingStyles }];
export const meta: MetaFunction = () => [{ title: "Pricing | Pinboard Studio" }];

/** /pricing: plans, Stripe Checkout and Manage subscription (#manage). */
export default PricingPage;
