import { createContext, useContext } from "react";

/**
 * The site-wide stylesheets, written into every document's <head> on the server (decision 056): a first
 * visit paints without waiting for a stylesheet request (Lighthouse counted ~0.4 s of render-blocking CSS on a
 * phone). The text comes from app/entry.server.tsx, so no script bundle carries it. In the browser the context
 * is empty: hydration keeps the server's <style> (React does not compare `dangerouslySetInnerHTML` when
 * hydrating, and never rewrites it while its value stays the same), and the root layout is never remounted,
 * so the styles stay for every client-side navigation.
 */
const InlineStylesContext = createContext("");
export const InlineStylesProvider = InlineStylesContext.Provider;

export function InlineStyles() {
  const css = useContext(InlineStylesContext);
  return <style data-site-styles="" dangerouslySetInnerHTML={{ __html: css }} suppressHydrationWarning />;
}
