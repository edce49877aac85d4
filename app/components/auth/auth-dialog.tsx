import * as Dialog from "@radix-ui/react-dialog";
import { useLocation, useNavigate } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useAuth } from "../../lib/auth.tsx";
import { Spinner } from "../spinner.tsx";
import { LoginForm } from "./login-form.tsx";
import { SIGNED_UP_STATE } from "./signup-alert.tsx";
import { DialogActions } from "../dialog-actions.tsx";
import { LazyPart, lazyWithTimeout } from "../lazy-part.tsx";

// The sign-up form is loaded only when someone asks for it (spec section 2: signup loads lazily).
const SignupForm = lazyWithTimeout(() => import("./signup-form.tsx").then((module) => ({ default: module.SignupForm })));

export type AuthMode = "login" | "signup";

/**
 * Login or sign-up in a dialog with a Cancel button, for logged-out visitors
 * (spec section 2). The same forms as /login and /signup. After logging in the
 * dialog closes and the user stays on the page (the session reloads the user);
 * a new account goes to /onboarding with the sign-up alert, as after /signup.
 * Its host route links app/styles/account.css.
 */
export function AuthDialog({ mode, open, onOpenChange }: { mode: AuthMode; open: boolean; onOpenChange(open: boolean): void }) {
  const [current, setCurrent] = useState<AuthMode>(mode);
  const location = useLocation();
  const navigate = useNavigate();
  const { reloadUser } = useAuth();
  const [openedAt, setOpenedAt] = useState(location.key);
  const [wasOpen, setWasOpen] = useState(open);

  // Each time it opens it starts on the form asked for, and notes the location it opened at; switching between the
  // forms inside stays as the user chose.
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) {
      setCurrent(mode);
      setOpenedAt(location.key);
    }
  }

  // A link inside (Forgot password?) leaves the page: the dialog goes with it.
  useEffect(() => {
    if (open && location.key !== openedAt) onOpenChange(false);
  }, [open, location.key, openedAt, onOpenChange]);

  function succeeded({ created }: { created: boolean }) {
    onOpenChange(false);
    if (created) navigate("/onboarding", { state: SIGNED_UP_STATE });
    else reloadUser();
  }

  const isLogin = current === "login";
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog auth-dialog">
          <Dialog.Title className="dialog__title">{isLogin ? "Log in" : "Create your free account"}</Dialog.Title>
          <Dialog.Description className="dialog__text">
            {isLogin ? "Welcome back! Log in to pick up where you left off." : "10 free pins a month, no card needed."}
          </Dialog.Description>
          {isLogin ? (
            <LoginForm onSuccess={succeeded} />
          ) : (
            <LazyPart fallback={<Spinner size="large" label="Loading the sign-up form" />}>
              <SignupForm onSuccess={succeeded} />
            </LazyPart>
          )}
          <p className="auth-card__switch">
            {isLogin ? "New to Pinboard Studio? " : "Already have an account? "}
            <button type="button" className="link-button" onClick={() => setCurrent(isLogin ? "signup" : "login")}>
              {isLogin ? "Sign up" : "Log in"}
            </button>
          </p>
          <DialogActions />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
