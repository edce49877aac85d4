import type { LinksFunction, MetaFunction } from "@remix-run/cloudflare";
import rssStyles from "../components/rss/rss.css?url";
import schedulingStyles from "../components/scheduling/scheduling.css?url";
import { RssFeedsPage } from "../components/rss/rss-feeds-page.tsx";
import accountStyles from "../styles/account.css?url";
import templateStyles from "../styles/templates.css?url";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: accountStyles },
  { rel: "stylesheet", href: templateStyles },
  { rel: "stylesheet", href: schedulingStyles },
  { rel: "stylesheet", href: rssStyles },
];
export const meta: MetaFunction = () => [{ title: "Pinterest RSS feeds | Pinboard Studio" }];

/** /pinterest-rss-feeds: blog posts turned into pins that Pinterest publishes from an RSS feed (issue 18). */
export default RssFeedsPage;
