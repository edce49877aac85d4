import type { UserCredentials } from "../../../contracts/accounts/user.ts";
import { afterLoginPath } from "../../lib/auth.tsx";

export interface NavLinkItem {
  to: string;
  label: string;
}

/** The main sections, in the navbar's order (spec section 2, Other UI; Products added with its page, decision 031). */
export const MAIN_LINKS: NavLinkItem[] = [
  { to: "/generate", label: "Generate" },
  { to: "/products", label: "Products" },
  { to: "/scheduling", label: "Schedule" },
  { to: "/templates", label: "Templates" },
  { to: "/pricing", label: "Pricing" },
];

export const HELP_LINK: NavLinkItem = { to: "/help", label: "Help centre" };

/**
 * The signed-in account menu; the admin page only for the admin role from the server, never from local storage.
 * Analytics (issue 41) sits next to Pin History: both are about the pins already made.
 */
export function accountLinks(user: UserCredentials): NavLinkItem[] {
  return [
    { to: "/pin-history", label: "Pin History" },
    { to: "/analytics", label: "Analytics" },
    { to: "/onboarding", label: "Onboarding" },
    { to: "/profile", label: "Profile" },
    { to: "/pricing#manage", label: "Manage subscription" },
    ...(user.role === "admin" ? [{ to: "/admin", label: "Admin page" }] : []),
  ];
}

/** /login, remembering the page to come back to (unless that is the home page or a sign-in page). */
export function loginHref(location: { pathname: string; search: string }): string {
  const back = afterLoginPath(location.pathname + location.search);
  return back === "/" ? "/login" : `/login?redirectTo=${encodeURIComponent(back)}`;
}

/** Whether a link points at the current page (for aria-current in menus). */
export function isCurrent(to: string, location: { pathname: string; hash: string }): boolean {
  const [path, hash] = to.split("#");
  if (hash !== undefined) return location.pathname === path && location.hash === `#${hash}`;
  return location.pathname === path || location.pathname.startsWith(`${path}/`);
}
