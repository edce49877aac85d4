import type { LinksFunction, MetaFunction } from "@remix-run/cloudflare";
import { SchedulingPage } from "../components/scheduling/scheduling-page.tsx";
import schedulingStyles from "../components/scheduling/scheduling.css?url";
import accountStyles from "../styles/account.css?url";
import templateStyles from "../styles/templates.css?url";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: accountStyles },
  { rel: "stylesheet", href: templateStyles },
  { rel: "stylesheet", href: schedulingStyles },
];
export const meta: MetaFunction = () => [{ title: "Scheduling | Pinboard Studio" }];

/** /scheduling: Pinterest profiles, scheduling settings, the queue and its calendar. */
export default SchedulingPage;
