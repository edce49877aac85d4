import { createContext, useContext } from "react";
import { useHydrated } from "../components/auth/use-hydrated.ts";
import siteStylesUrl from "../styles/site.css?url";

/**
 * The site-wide stylesheets, written into every document's <head> on the server (decision 056): a first
 * visit paints without waiting for a stylesheet request (Lighthouse counted ~0.4 s of render-blocking CSS on a
 * phone). The text comes from app/entry.server.tsx, so no script bundle carries it. In the browser the context
 * is empty: hydration keeps the server's <style> (React does not compare `dangerouslySetInnerHTML` when
 * hydrating, and never rewrites it while its value stays the same), and the root layout is never remounted,
 * so the styles stay for every client-side navigation.
 *
 * A page kept in the edge cache carries only the rules its own markup uses (workers/http/site-styles-subset.ts,
 * decision 064); SiteStylesLink brings the rest.
 */
const InlineStylesContext = createContext("");
export const InlineStylesProvider = InlineStylesContext.Provider;

export function InlineStyles() {
  const css = useContext(InlineStylesContext);
  // biome-ignore lint/security/noDangerouslySetInnerHtml: the site's own stylesheet, from the build, not user input (above).
  return <style data-site-styles="" dangerouslySetInnerHTML={{ __html: css }} suppressHydrationWarning />;
}

/**
 * The whole site stylesheet, for what scripts show after the first paint (menus, dialogs, toasts, the pages a
 * client-side navigation reaches). It never blocks the first paint: the server sends it for print, which the
 * browser fetches at low priority without waiting for it, and once React runs it applies to the screen. It sits
 * between the inline styles and the route stylesheets, so the cascade is the one the whole file always had.
 */
export function SiteStylesLink() {
  const hydrated = useHydrated();
  return <link rel="stylesheet" href={siteStylesUrl} media={hydrated ? "all" : "print"} data-site-styles-full="" />;
}
