import type { AppLoadContext } from "@remix-run/cloudflare";
import type { UserCredentials } from "../../contracts/accounts/user.ts";
import { sessionCookieFrom } from "../../workers/auth/session-cookie.ts";
import { authenticateCookie, type User } from "../../workers/services/accounts/accounts.ts";
import { currentCredentials } from "../../workers/services/accounts/users.ts";
import { socialLinksFrom } from "../../workers/domain/social-links.ts";
import { APP_VERSION } from "../../workers/version.ts";
import type { PublicEnv } from "./public-env.ts";

/** The account signed in on a page request (from the session cookie), or null. */
export async function signedInAccount(request: Request, context: AppLoadContext): Promise<User | null> {
  const cookie = sessionCookieFrom(request.headers.get("cookie"));
  if (!cookie) return null;
  return (await authenticateCookie(context.cloudflare.env, cookie))?.user ?? null;
}

/** The signed-in user's credentials of a page request, or null. */
export async function currentUser(request: Request, context: AppLoadContext): Promise<UserCredentials | null> {
  const user = await signedInAccount(request, context);
  return user ? currentCredentials(context.cloudflare.env, user) : null;
}

export function publicEnv(context: AppLoadContext): PublicEnv {
  const env = context.cloudflare.env;
  return {
    appVersion: APP_VERSION,
    appEnv: env.APP_ENV,
    googleClientId: env.GOOGLE_CLIENT_ID,
    googleAuthUrl: env.GOOGLE_AUTH_URL,
    contact: { email: env.CONTACT_EMAIL, phone: env.CONTACT_PHONE, socialLinks: socialLinksFrom(env.SOCIAL_LINKS) },
  };
}
