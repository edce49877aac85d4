import { Avatar, initialsOf } from "../auth/avatar.tsx";
import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { Link, useLocation } from "@remix-run/react";
import type { UserCredentials } from "../../../contracts/user.ts";
import { useAuth } from "../../lib/auth.tsx";
import { accountLinks, isCurrent, loginHref } from "./nav-links.ts";

/**
 * The account items of a menu (spec section 2): the account pages and Log out
 * when signed in, Login and Sign Up otherwise. Shared by the account menu and
 * the narrow layout's single menu.
 */
export function AccountMenuItems() {
  const { user, logOut } = useAuth();
  const location = useLocation();
  if (!user) {
    return (
      <>
        <MenuLink to={loginHref(location)} label="Login" current={location.pathname === "/login"} />
        <MenuLink to="/signup" label="Sign Up" current={location.pathname === "/signup"} />
      </>
    );
  }
  return (
    <>
      <DropdownMenu.Label className="menu__label">
        {user.firstName} {user.lastName}
        <span className="menu__sublabel">{user.email}</span>
      </DropdownMenu.Label>
      {accountLinks(user).map((link) => (
        <MenuLink key={link.to} to={link.to} label={link.label} current={isCurrent(link.to, location)} />
      ))}
      <DropdownMenu.Separator className="menu__separator" />
      <DropdownMenu.Item className="menu__item" onSelect={() => void logOut()}>
        Log out
      </DropdownMenu.Item>
    </>
  );
}

export function MenuLink({ to, label, current }: { to: string; label: string; current: boolean }) {
  return (
    <DropdownMenu.Item asChild className="menu__item">
      <Link to={to} aria-current={current ? "page" : undefined}>
        {label}
      </Link>
    </DropdownMenu.Item>
  );
}

/** The wide layout's account menu; its trigger shows the user's photo or initials. */
export function AccountMenu() {
  const { user } = useAuth();
  return (
    <DropdownMenu.Root>
      {/* A name that holds the initials it shows, so that speech input ("click TM") finds it too. */}
      <DropdownMenu.Trigger className="account-trigger" aria-label={user && !user.imageUrl ? `Account menu: ${initialsOf(user.firstName, user.lastName)}` : "Account menu"}>
        {user ? <Avatar imageUrl={user.imageUrl} firstName={user.firstName} lastName={user.lastName} size={36} alt="" /> : <PersonIcon />}
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align="end" sideOffset={8}>
          <AccountMenuItems />
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}


function PersonIcon() {
  return (
    <svg className="account-trigger__icon" viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
      <circle cx="12" cy="8" r="4" fill="none" stroke="currentColor" strokeWidth="2" />
      <path d="M4 21c0-4.4 3.6-7 8-7s8 2.6 8 7" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}
