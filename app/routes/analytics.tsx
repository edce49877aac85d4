import type { LinksFunction, MetaFunction } from "@remix-run/cloudflare";
import { AnalyticsPage } from "../components/analytics/analytics-page.tsx";
import analyticsStyles from "../components/analytics/analytics.css?url";
import accountStyles from "../styles/account.css?url";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: accountStyles },
  { rel: "stylesheet", href: analyticsStyles },
];
export const meta: MetaFunction = () => [{ title: "Analytics | Pinboard Studio" }];

/** /analytics (issue 41): how the posted pins do on Pinterest, by day, pin, board, template, source and hour. */
export default AnalyticsPage;
