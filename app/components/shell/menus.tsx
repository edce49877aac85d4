import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { Link, useLocation } from "@remix-run/react";
import type { ReactNode } from "react";
import { useAuth } from "../../lib/auth.tsx";
import { accountLinks, HELP_LINK, isCurrent, loginHref, MAIN_LINKS } from "./nav-links.ts";

/**
 * The navbar's menus themselves (Radix dropdown menus). Loaded only once a visitor reaches for a
 * menu (app/components/shell/deferred-menu.tsx), so that pages do not ship them up front (issue 17's
 * JavaScript budget).
 */

export interface LoadedMenuProps {
  /** Open as soon as it mounts: the visitor pressed the trigger while the menu was loading. */
  defaultOpen: boolean;
  triggerClassName: string;
  triggerLabel?: string;
  /** What the trigger shows. */
  children: ReactNode;
}

/**
 * The account items of a menu (spec section 2): the account pages and Log out
 * when signed in, Login and Sign Up otherwise. Shared by the account menu and
 * the narrow layout's single menu.
 */
function AccountMenuItems() {
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

function MenuLink({ to, label, current }: { to: string; label: string; current: boolean }) {
  return (
    <DropdownMenu.Item asChild className="menu__item">
      <Link to={to} aria-current={current ? "page" : undefined}>
        {label}
      </Link>
    </DropdownMenu.Item>
  );
}

/** The wide layout's account menu. */
export function AccountDropdown({ defaultOpen, triggerClassName, triggerLabel, children }: LoadedMenuProps) {
  return (
    <DropdownMenu.Root defaultOpen={defaultOpen}>
      <DropdownMenu.Trigger className={triggerClassName} aria-label={triggerLabel}>
        {children}
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align="end" sideOffset={8}>
          <AccountMenuItems />
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

/** The narrow layout's single menu: the main links, the help centre and the account items. */
export function NarrowDropdown({ defaultOpen, triggerClassName, triggerLabel, children }: LoadedMenuProps) {
  const location = useLocation();
  return (
    <DropdownMenu.Root defaultOpen={defaultOpen}>
      <DropdownMenu.Trigger className={triggerClassName} aria-label={triggerLabel}>
        {children}
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu menu--wide" align="end" sideOffset={8}>
          {[...MAIN_LINKS, HELP_LINK].map((link) => (
            <MenuLink key={link.to} to={link.to} label={link.label} current={isCurrent(link.to, location)} />
          ))}
          <DropdownMenu.Separator className="menu__separator" />
          <AccountMenuItems />
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
