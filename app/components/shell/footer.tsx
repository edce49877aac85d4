import { Link } from "@remix-run/react";
import type { NavLinkItem } from "./nav-links.ts";

interface FooterColumn {
  title: string;
  links: NavLinkItem[];
}

// Only pages that exist are listed; the product pages (Generate, Schedule,
// Templates, Pricing) join a "Product" column when their routes land.
const COLUMNS: FooterColumn[] = [
  {
    title: "Get started",
    links: [
      { to: "/signup", label: "Create a free account" },
      { to: "/onboarding", label: "Onboarding checklist" },
    ],
  },
  {
    title: "Pinterest tools",
    links: [
      { to: "/pinterest-keyword-research-tool", label: "Pinterest keyword research tool" },
      { to: "/pinterest-trend-alerts", label: "Pinterest trend alerts" },
      { to: "/pinterest-catalogs", label: "Pinterest catalogs" },
      { to: "/pinterest-rss-feeds", label: "RSS feeds for auto-publish" },
      { to: "/post-approvals", label: "Post approvals" },
    ],
  },
  {
    title: "Resources",
    links: [
      { to: "/blog", label: "Blog" },
      { to: "/page/about", label: "About us" },
      { to: "/help", label: "Help centre" },
      { to: "/email-signup", label: "Free Pinterest Success plan" },
      { to: "/pinterest-mini-course", label: "Free Pinterest mini-course" },
      { to: "/savings-calculator", label: "Savings calculator" },
      { to: "/contact", label: "Contact us" },
    ],
  },
  {
    title: "Legal",
    links: [
      { to: "/privacy-policy", label: "Privacy policy" },
      { to: "/terms-and-conditions", label: "Terms and conditions" },
    ],
  },
];

export function Footer() {
  return (
    <footer className="footer">
      <div className="footer__inner">
        <div className="footer__about">
          <p className="footer__brand">Pinboard Studio</p>
          <p>Pins from every post, scheduled for you.</p>
        </div>
        {COLUMNS.map((column) => (
          <nav key={column.title} className="footer__column" aria-label={column.title}>
            <h2 className="footer__title">{column.title}</h2>
            <ul>
              {column.links.map((link) => (
                <li key={link.to}>
                  <Link to={link.to}>{link.label}</Link>
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <p className="footer__legal">© {new Date().getFullYear()} Pinboard Studio. Refunds are not offered.</p>
    </footer>
  );
}
