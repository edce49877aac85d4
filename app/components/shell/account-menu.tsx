import { Avatar, initialsOf } from "../auth/avatar.tsx";
import { useAuth } from "../../lib/auth.tsx";
import { DeferredMenu } from "./deferred-menu.tsx";

/** The wide layout's account menu (its items: app/components/shell/menus.tsx); its trigger shows the user's photo or initials. */
export function AccountMenu() {
  const { user } = useAuth();
  return (
    // A name that holds the initials it shows, so that speech input ("click TM") finds it too.
    <DeferredMenu
      kind="account"
      className="account-trigger"
      label={user && !user.imageUrl ? `Account menu: ${initialsOf(user.firstName, user.lastName)}` : "Account menu"}
    >
      {user ? <Avatar imageUrl={user.imageUrl} firstName={user.firstName} lastName={user.lastName} size={36} alt="" /> : <PersonIcon />}
    </DeferredMenu>
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
