// The site-wide stylesheets as text, for app/lib/inline-styles.tsx. Server code only: Vite inlines the
// processed (minified) CSS into the server bundle, and no client bundle imports this module.
import appCss from "../styles/app.css?inline";
import homeCss from "../styles/home.css?inline";
import referralCss from "../styles/referrals.css?inline";
import shellCss from "../styles/shell.css?inline";

/** In cascade order, as the <link> tags were: app, shell, referrals, then the home page's own. */
export const SITE_STYLES = [appCss, shellCss, referralCss, homeCss].join("\n");
