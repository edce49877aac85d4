// The site-wide stylesheet as text, for app/lib/inline-styles.tsx. Server code only: Vite inlines the
// processed (minified) CSS into the server bundle, and no client bundle imports this module.
import siteCss from "../styles/site.css?inline";

/** app, shell, referrals, then the home page's own: the cascade order the <link> tags had (decision 056). */
export const SITE_STYLES = siteCss;
