import type { MetaFunction } from "@remix-run/cloudflare";

/** /template-builder shows the templates page (spec section 2). */
export { default, links } from "./templates.tsx";

export const meta: MetaFunction = () => [{ title: "Template builder | Pinboard Studio" }];
