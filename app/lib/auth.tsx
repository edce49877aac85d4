import { type ShouldRevalidateFunction, useNavigate, useRevalidator, useRouteLoaderData } from "@remix-run/react";
import { createContext, useCallback, useContext, useEffect, useMemo, type ReactNode } from "react";
import type { AuthTokens, SignupBody, SignupElsewhere } from "../../contracts/accounts/auth.ts";
import { sameSitePath } from "../../contracts/paths.ts";
import type { UserCredentials } from "../../contracts/accounts/user.ts";
import { apiJson, fullLogout, LOGGED_OUT_EVENT, refreshTokens, storedTokens, storeTokens } from "./api-client.ts";
import { googleSignInPopup } from "./google-sign-in.ts";
import type { PublicEnv } from "./public-env.ts";

/** What the root loader gives every page. */
export interface RootData {
  user: UserCredentials | null;
  env: PublicEnv;
}

export interface AuthApi {
  /** The signed-in user's credentials, or null. */
  user: UserCredentials | null;
  env: PublicEnv;
  /** The sign-ins below keep the tokens; the caller then navigates (the root's user reloads with it) or calls reloadUser(). */
  logIn(email: string, password: string): Promise<void>;
  /** signedIn is false when the address already had an account: nobody is signed in, and its owner is e-mailed. */
  signUp(fields: Omit<SignupBody, "ip">): Promise<{ signedIn: boolean }>;
  /** Google popup sign-in; answers whether a new account was created. */
  signInWithGoogle(): Promise<{ created: boolean }>;
  logOut(): Promise<void>;
  /** Reloads the credentials (after the user changed something). */
  reloadUser(): void;
}

const AuthContext = createContext<AuthApi | null>(null);

/**
 * Set when the session changed (signed in, or logged out) and the root loader has not run since. A sign-in is
 * followed by the host's navigation (to /onboarding, or back where the user came from): that navigation reloads
 * the root's user too, in the same request, rather than a revalidation of the page being left that the
 * navigation would cut off half-read (and whose sign-in page's loader would send the user to / meanwhile).
 */
let sessionChanged = false;

/** The root route's rule: its loader (the signed-in user) runs again on the navigation after a change of session. */
export const rootShouldRevalidate: ShouldRevalidateFunction = ({ defaultShouldRevalidate }) => defaultShouldRevalidate || sessionChanged;

export function useRootData(): RootData {
  const data = useRouteLoaderData("root") as RootData | undefined;
  if (!data) throw new Error("useRootData outside the root route");
  return data;
}

/**
 * Sign-in state for the whole UI. The user comes from the root loader (the
 * session cookie); tokens for API calls live in local storage (spec section 3).
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const { user, env } = useRootData();
  const revalidator = useRevalidator();
  const navigate = useNavigate();

  // The root's data is fresh again: each new root answer (a new user object) came after the change.
  useEffect(() => {
    sessionChanged = false;
  }, [user]);

  // A full logout (a failed refresh, spec section 8) sends the user to /login, whose load reloads the root's user.
  useEffect(() => {
    const onLoggedOut = () => {
      sessionChanged = true;
      navigate("/login");
    };
    window.addEventListener(LOGGED_OUT_EVENT, onLoggedOut);
    return () => window.removeEventListener(LOGGED_OUT_EVENT, onLoggedOut);
  }, [navigate]);

  // Tokens but no session cookie (it expired or was cleared): a refresh restores both.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only on first load: stored tokens without a session are refreshed once, as the app starts.
  useEffect(() => {
    if (!user && storedTokens()) {
      refreshTokens().then((ok) => ok && revalidator.revalidate());
    }
  }, []);

  // The host navigates next, or calls reloadUser() to stay on the page (the AuthDialog's login).
  const signedIn = useCallback((tokens: AuthTokens) => {
    storeTokens(tokens);
    sessionChanged = true;
  }, []);

  const api = useMemo<AuthApi>(
    () => ({
      user,
      env,
      async logIn(email, password) {
        signedIn(await apiJson<AuthTokens>("/api/login", { json: { email, password } }));
      },
      async signUp(fields) {
        // 202 and no tokens: the address has an account, whose owner was e-mailed (decision 083).
        const answer = await apiJson<AuthTokens | SignupElsewhere>("/api/signup", { json: fields });
        if (!("idToken" in answer)) return { signedIn: false };
        signedIn(answer);
        return { signedIn: true };
      },
      async signInWithGoogle() {
        const idToken = await googleSignInPopup(env);
        const response = await fetch("/api/signInWithGoogle", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ idToken }),
        });
        const body = (await response.json()) as AuthTokens & { error?: string };
        if (!response.ok) throw new Error(body.error ?? "Google sign-in failed. Please try again.");
        signedIn(body);
        return { created: response.status === 201 };
      },
      async logOut() {
        await fullLogout();
      },
      reloadUser() {
        revalidator.revalidate();
      },
    }),
    [user, env, signedIn, revalidator],
  );

  return <AuthContext.Provider value={api}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthApi {
  const api = useContext(AuthContext);
  if (!api) throw new Error("useAuth outside AuthProvider");
  return api;
}

/** Where to go after logging in: the previous page, or / when that was a sign-in page (spec section 2). */
export function afterLoginPath(from: string | null | undefined): string {
  const safe = from ? sameSitePath(from, "https://this.site") : null;
  if (!safe) return "/";
  const path = safe.split(/[?#]/)[0];
  if (["/login", "/signup", "/forgot-password", "/reset-password"].includes(path) || path.startsWith("/auth/")) {
    return "/";
  }
  return safe;
}
