import type { LinksFunction, MetaFunction } from "@remix-run/cloudflare";
import billingStyles from "../components/billing/billing.css?url";
import { LifetimePage } from "../components/billing/lifetime-page.tsx";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: billingStyles }];
export const meta: MetaFunction = () => [{ title: "Lifetime plan | Pinboard Studio" }];

/** /lifetime: the lifetime plans (spec section 2). */
export default LifetimePage;
