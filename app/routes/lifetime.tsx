import { data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import billingStyles from "../components/billing/billing.css?url";
import { LifetimePage } from "../components/billing/lifetime-page.tsx";
import { loadLifetimePlans, priceHeaders, priceVaryHeaders, visitorParity } from "../lib/pricing.server.ts";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: billingStyles }];
export const meta: MetaFunction = () => [
  { title: "Lifetime plan | Pinboard Studio" },
  { name: "description", content: "Pay once and keep your monthly Pinterest pin credits for good." },
];

/** The lifetime plans and the visitor's pricing parity, rendered on the server (issue 17). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return data({ plans: await loadLifetimePlans(context), parity: visitorParity(request, context) }, { headers: priceVaryHeaders() });
}

export const headers = priceHeaders;

/** /lifetime: the lifetime plans (spec section 2). */
export default LifetimePage;
