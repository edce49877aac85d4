import { Link, useLocation } from "@remix-run/react";
import { AfterHydration } from "../auth/after-hydration.tsx";
import { useAuth } from "../../lib/auth.tsx";
import { AccountMenu } from "./account-menu.tsx";
import { DeferredMenu } from "./deferred-menu.tsx";
import { HELP_LINK, isCurrent, MAIN_LINKS } from "./nav-links.ts";
import { lazyWithTimeout } from "../lazy-part.tsx";

/** Signed-in users only, and filled in after hydration anyway (the count is fetched): its code is not part of the page's first load. */
const LazyNavCredits = lazyWithTimeout(() => import("./credits-meter.tsx").then((module) => ({ default: module.NavCredits })));

function NavCredits() {
  const { user } = useAuth();
  if (!user) return null;
  return (
    <AfterHydration quiet>
      <LazyNavCredits />
    </AfterHydration>
  );
}

/**
 * The navbar (spec section 2): a wide layout from 800 px with the main links,
 * the help centre and the account menu; below 800 px a single menu holding all
 * of them. Beside the account menu, the month's pin credits (issue 13). CSS shows one layout and removes the other (display: none), so only
 * one is ever in the accessibility tree.
 */
export function Navbar() {
  const location = useLocation();
  return (
    <header className="navbar">
      <div className="navbar__inner">
        <Link to="/" className="brand">
          <BrandMark />
          <span className="brand__name">Pinboard Studio</span>
        </Link>

        <nav className="navbar__wide" aria-label="Main">
          <ul className="navbar__links">
            {MAIN_LINKS.map((link) => (
              <li key={link.to}>
                <Link className="navbar__link" to={link.to} aria-current={isCurrent(link.to, location) ? "page" : undefined}>
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
          <Link
            className="navbar__link navbar__help"
            to={HELP_LINK.to}
            aria-label={HELP_LINK.label}
            aria-current={isCurrent(HELP_LINK.to, location) ? "page" : undefined}
          >
            <HelpIcon />
            <span>Help</span>
          </Link>
          <NavCredits />
          <AccountMenu />
        </nav>

        <nav className="navbar__narrow" aria-label="Main">
          <NavCredits />
          <DeferredMenu kind="narrow" className="menu-trigger">
            <MenuIcon />
            Menu
          </DeferredMenu>
        </nav>
      </div>
    </header>
  );
}

function BrandMark() {
  return (
    <svg className="brand__mark" viewBox="0 0 32 32" width="32" height="32" aria-hidden="true" focusable="false">
      <rect x="2" y="2" width="28" height="28" rx="8" fill="var(--brand)" />
      <path d="M12 24V9h5.5a4.5 4.5 0 0 1 0 9H12" fill="none" stroke="var(--brand-ink)" strokeWidth="3" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

function HelpIcon() {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
      <circle cx="12" cy="12" r="9.5" fill="none" stroke="currentColor" strokeWidth="2" />
      <path d="M9.5 9.5a2.5 2.5 0 1 1 3.5 2.3c-.6.3-1 .9-1 1.6v.6" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      <circle cx="12" cy="17" r="1.2" fill="currentColor" />
    </svg>
  );
}

function MenuIcon() {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
      <path d="M4 7h16M4 12h16M4 17h16" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}
