import { data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import billingStyles from "../components/billing/billing.css?url";
import { PricingPage } from "../components/billing/pricing-page.tsx";
import { loadPlans, priceHeaders, priceVaryHeaders, visitorParity } from "../lib/pricing.server.ts";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: billingStyles }];
export const meta: MetaFunction = () => [
  { title: "Pricing | Pinboard Studio" },
  {
    name: "description",
    content: "Plans with monthly pin credits for generating and scheduling Pinterest pins: Free, Starter, Pro, Growth and Agency, monthly or annual.",
  },
];

/** The plans and the visitor's pricing parity, rendered on the server (issue 17): the HTML varies by the parity country only. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const plans = await loadPlans(context);
  return data({ ...plans, parity: visitorParity(request, context) }, { headers: priceVaryHeaders() });
}

export const headers = priceHeaders;

/** /pricing: plans, Stripe Checkout and Manage subscription (#manage). */
export default PricingPage;
