import type { LinksFunction, MetaFunction } from "@remix-run/cloudflare";
import { CatalogsPage } from "../components/catalogs/catalogs-page.tsx";
import catalogsStyles from "../components/catalogs/catalogs.css?url";
import accountStyles from "../styles/account.css?url";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: accountStyles },
  { rel: "stylesheet", href: catalogsStyles },
];
export const meta: MetaFunction = () => [{ title: "Pinterest catalogs | Pinboard Studio" }];

/** /pinterest-catalogs: catalogs of products published to Pinterest as product feeds (spec section 2, issue 18). */
export default CatalogsPage;
