import { SIGNUP_CHECK_EMAIL } from "../../../contracts/accounts/auth.ts";
import { useLocation } from "@remix-run/react";
import { useAuth } from "../../lib/auth.tsx";
import { FormStatus } from "./form-controls.tsx";

/** The alert shown after signing up (spec section 8). */
export const SIGNUP_ALERT = SIGNUP_CHECK_EMAIL;

/** Navigation state that tells /onboarding the user just signed up. */
export const SIGNED_UP_STATE = { signedUp: true } as const;

/** The after-signup alert, on the page a sign-up navigated to (while the e-mail still needs verifying). */
export function SignupAlert() {
  const location = useLocation();
  const { user } = useAuth();
  const signedUp = (location.state as { signedUp?: boolean } | null)?.signedUp === true;
  if (!signedUp || !user || user.isEmailVerified) return null;
  return <FormStatus kind="info">{SIGNUP_ALERT}</FormStatus>;
}
