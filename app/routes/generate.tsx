import type { LinksFunction, MetaFunction } from "@remix-run/cloudflare";
import { GeneratorPage } from "../components/generator/generator-page.tsx";
import generatorStyles from "../components/generator/generator.css?url";
import schedulingStyles from "../components/scheduling/scheduling.css?url";
import type { ShellHandle } from "../components/shell/handle.ts";
import accountStyles from "../styles/account.css?url";
import templateStyles from "../styles/templates.css?url";

/** Navbar, popup dialog and cookie consent, but no footer (spec section 2). */
export const handle: { shell: ShellHandle } = { shell: { footer: false } };
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: accountStyles },
  { rel: "stylesheet", href: templateStyles },
  { rel: "stylesheet", href: generatorStyles },
  // The schedule dialog's own styles.
  { rel: "stylesheet", href: schedulingStyles },
];
export const meta: MetaFunction = () => [{ title: "Pin generator | Pinboard Studio" }];

/** /generate: the pin generator, the product's main screen. */
export default GeneratorPage;
