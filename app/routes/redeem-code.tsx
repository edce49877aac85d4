import type { LinksFunction, MetaFunction } from "@remix-run/cloudflare";
import billingStyles from "../components/billing/billing.css?url";
import { RedeemCodePage } from "../components/billing/redeem-code-page.tsx";
import accountStyles from "../styles/account.css?url";

export const links: LinksFunction = () => [
  // account.css: the login prompt's dialog (its forms) for logged-out visitors.
  { rel: "stylesheet", href: accountStyles },
  { rel: "stylesheet", href: billingStyles },
];
export const meta: MetaFunction = () => [{ title: "Redeem a code | Pinboard Studio" }];

/** /redeem-code: redeem a code for a plan (spec section 2). */
export default RedeemCodePage;
