import type { LinksFunction, MetaFunction } from "@remix-run/cloudflare";
import { TemplatesPage } from "../components/templates/templates-page.tsx";
import accountStyles from "../styles/account.css?url";
import templateStyles from "../styles/templates.css?url";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: accountStyles },
  { rel: "stylesheet", href: templateStyles },
];
export const meta: MetaFunction = () => [{ title: "Templates | Pinboard Studio" }];

/** /templates: the template gallery (spec section 2). */
export default TemplatesPage;
