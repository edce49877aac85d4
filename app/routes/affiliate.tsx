import type { LinksFunction, MetaFunction } from "@remix-run/cloudflare";
import { AffiliatePage } from "../components/affiliate/affiliate-page.tsx";
import affiliateStyles from "../components/affiliate/affiliate.css?url";
import accountStyles from "../styles/account.css?url";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: accountStyles },
  { rel: "stylesheet", href: affiliateStyles },
];
export const meta: MetaFunction = () => [{ title: "Affiliate programme | Pinboard Studio" }];

/** /affiliate: the affiliate programme (spec section 2; issue 16). */
export default AffiliatePage;
