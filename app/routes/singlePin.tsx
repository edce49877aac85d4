import type { LinksFunction, MetaFunction } from "@remix-run/cloudflare";
import generatorStyles from "../components/generator/generator.css?url";
import { SinglePostPage } from "../components/generator/single-post-page.tsx";
import type { ShellHandle } from "../components/shell/handle.ts";
import accountStyles from "../styles/account.css?url";
import templateStyles from "../styles/templates.css?url";

export const handle: { shell: ShellHandle } = { shell: { footer: false } };
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: accountStyles },
  { rel: "stylesheet", href: templateStyles },
  { rel: "stylesheet", href: generatorStyles },
];
export const meta: MetaFunction = () => [{ title: "Pin | Pinboard Studio" }];

/** /singlePin?postID=: one post of the generator with its preview and actions (spec section 2, /single{product}). */
export default function SinglePin() {
  return <SinglePostPage />;
}
