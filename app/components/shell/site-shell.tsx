import { createPath, useNavigation } from "@remix-run/react";
import { useEffect, type ReactNode } from "react";
import { AfterHydration } from "../auth/after-hydration.tsx";
import { useAuth } from "../../lib/auth.tsx";
import { AffiliateLanding } from "./affiliate-landing.tsx";
import { CookieBanner } from "./cookie-banner.tsx";
import { Footer } from "./footer.tsx";
import { useShellOptions } from "./handle.ts";
import { Navbar } from "./navbar.tsx";
import { NewsletterPopup } from "./newsletter-popup.tsx";
import { ToastProvider } from "./toast.tsx";
import { UpdateNotice } from "./update-notice.tsx";
import { LAZY_LOAD_TIMEOUT_MS } from "../lazy-load.ts";
import { lazyWithTimeout } from "../lazy-part.tsx";

/**
 * The frame around every page: navbar, update notice, the page, footer, cookie
 * banner, newsletter popup, referral modal and toasts. A route switches parts off with its
 * `handle` (see ShellHandle). Pages render their own <main>.
 */
export function SiteShell({ children }: { children: ReactNode }) {
  const shell = useShellOptions();

  // Marks the page as interactive (React has hydrated), for tests and CSS.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  useScreenLoadTimeout();

  return (
    <ToastProvider>
      <div className="site">
        <a className="skip-link" href="#content">
          Skip to content
        </a>
        <Navbar />
        <UpdateNotice />
        <div id="content" className="site__content" tabIndex={-1}>
          {children}
        </div>
        {shell.footer ? <Footer /> : null}
        {shell.cookieBanner ? <CookieBanner /> : null}
        <NewsletterPopup allowedHere={shell.newsletterPopup} />
        <AffiliateLanding />
        <SignedInReferralModal allowedHere={shell.referralModal} />
      </div>
    </ToastProvider>
  );
}

/**
 * Spec section 4: lazy screen loading times out after 120 seconds. Moving to another page loads its code
 * (and data) in the browser; when that has not finished after 120 s, the browser loads the page itself
 * instead, as Remix does when a page's code fails to load. Only for following a link: a form being
 * sent is never sent again.
 */
function useScreenLoadTimeout() {
  const navigation = useNavigation();
  const target = navigation.state === "loading" && !navigation.formMethod ? createPath(navigation.location) : null;
  useEffect(() => {
    if (!target) return;
    const timer = setTimeout(() => window.location.assign(target), LAZY_LOAD_TIMEOUT_MS);
    // The page is being replaced: assistive technology may wait for the next one (and a test knows the limit runs).
    document.body.setAttribute("aria-busy", "true");
    return () => {
      clearTimeout(timer);
      document.body.removeAttribute("aria-busy");
    };
  }, [target]);
}

/** Signed-in users only, and only in the browser: its code (dialog, referral card) is not part of a page's first load (issue 17). */
const ReferralModal = lazyWithTimeout(() => import("../referrals/referral-modal.tsx").then((module) => ({ default: module.ReferralModal })));

function SignedInReferralModal({ allowedHere }: { allowedHere: boolean }) {
  const { user } = useAuth();
  if (!user) return null;
  return (
    <AfterHydration quiet>
      <ReferralModal allowedHere={allowedHere} />
    </AfterHydration>
  );
}
