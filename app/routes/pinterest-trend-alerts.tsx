import type { LinksFunction, MetaFunction } from "@remix-run/cloudflare";
import { TrendAlertsPage } from "../components/trend-alerts/trend-alerts-page.tsx";
import accountStyles from "../styles/account.css?url";
import trendAlertStyles from "../styles/trend-alerts.css?url";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: accountStyles },
  { rel: "stylesheet", href: trendAlertStyles },
];
export const meta: MetaFunction = () => [
  { title: "Pinterest trend alerts | Pinboard Studio" },
  { name: "description", content: "Get an e-mail when your Pinterest keywords rise or new trends appear in your interests, daily or weekly." },
];

/** /pinterest-trend-alerts: create, edit, pause and delete trend alerts; the e-mails they sent (decision 047). */
export default TrendAlertsPage;
