import type { LinksFunction, MetaFunction } from "@remix-run/cloudflare";
import { PinHistoryPage } from "../components/scheduling/pin-history-page.tsx";
import schedulingStyles from "../components/scheduling/scheduling.css?url";
import accountStyles from "../styles/account.css?url";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: accountStyles },
  { rel: "stylesheet", href: schedulingStyles },
];
export const meta: MetaFunction = () => [{ title: "Pin history | Pinboard Studio" }];

/** /pin-history: posted, scheduled and downloaded pins with the credits they used. */
export default PinHistoryPage;
