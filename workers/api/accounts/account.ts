import type { Context } from "hono";
import * as v from "valibot";
import {
  ForgotPasswordBody,
  GoogleSignInBody,
  LoginBody,
  LogoutBody,
  ResetPasswordBody,
  SIGNUP_CHECK_EMAIL,
  SignupBody,
  type SignupElsewhere,
  TokenRefreshBody,
  VerifyEmailBody,
} from "../../../contracts/accounts/auth.ts";
import {
  CookiesConsentBody,
  NewsletterSignupBody,
  OnboardingChecklistBody,
  UnsubscribeBody,
  UnsubscribeQuery,
  UserUpdatesBody,
} from "../../../contracts/accounts/user.ts";
import { cameFromOurSite, NOT_FROM_OUR_SITE, requestMeta, requireUser } from "../../auth/middleware.ts";
import { clearSessionCookie, readDeviceCookie, readSessionCookie, setDeviceCookie, setSessionCookie } from "../../auth/session-cookie.ts";
import {
  authenticateBearer,
  authenticateCookie,
  deviceTokenFor,
  logIn,
  refreshSignIn,
  requestPasswordReset,
  resendVerificationEmail,
  resetPassword,
  revokeSession,
  sessionOfRefreshToken,
  signInWithGoogle,
  signUp,
  verifyEmail,
  type SignIn,
} from "../../services/accounts/accounts.ts";
import { setProfileImage } from "../../services/content/media-library.ts";
import { subscribeToNewsletter } from "../../services/growth/newsletter.ts";
import { unsubscribeByToken } from "../../services/growth/unsubscribe.ts";
import {
  credentialsOf,
  currentCredentials,
  deleteAccount,
  publicPictureKey,
  publicProfile,
  setCookiesConsent,
  setOnboardingChecklist,
  updateProfile,
} from "../../services/accounts/users.ts";
import { ProviderError } from "../../integrations/http.ts";
import { serveMedia } from "../../media/store.ts";
import { apiError } from "../core/errors.ts";
import { attachAnonymousShopify } from "../shops/shopify-shop.ts";
import { router, type AppBindings } from "../core/hono.ts";
import { valid } from "../core/validation.ts";

/** Account calls of spec section 7: sign-up, sign-in, tokens, verification, the user's own record. */
export const account = router();

async function answerSignIn(c: Context<AppBindings>, signIn: SignIn, status: 200 | 201 = 200) {
  setSessionCookie(c, signIn.cookie);
  // A Shopify store installed from Shopify's side in this browser before signing in joins the account (decision 029).
  await attachAnonymousShopify(c, signIn.user.id);
  return c.json(signIn.tokens, status);
}

// ---------------------------------------------------------------- public

account.post("/signup", valid("json", SignupBody), async (c) => {
  const signIn = await signUp(c.env, c.req.valid("json"), requestMeta(c));
  if ("existing" in signIn) return c.json({ message: SIGNUP_CHECK_EMAIL } satisfies SignupElsewhere, 202);
  setDeviceCookie(c, await deviceTokenFor(c.env, signIn.user.email));
  return answerSignIn(c, signIn, 201);
});

account.post("/login", valid("json", LoginBody), async (c) => {
  const { email, password } = c.req.valid("json");
  const signIn = await logIn(c.env, email, password, requestMeta(c), readDeviceCookie(c));
  setDeviceCookie(c, signIn.device);
  return answerSignIn(c, signIn);
});

account.post("/auth/token", valid("json", TokenRefreshBody), async (c) => {
  try {
    const refreshed = await refreshSignIn(c.env, c.req.valid("json").refresh_token, readSessionCookie(c));
    if (refreshed.cookie) setSessionCookie(c, refreshed.cookie);
    return c.json(refreshed.tokens);
  } catch (error) {
    clearSessionCookie(c);
    throw error;
  }
});

/** Ends this sign-in: the refresh-token family and the cookie both stop working. */
account.post("/logout", async (c) => {
  const sessions = new Set<string>();
  const input = v.safeParse(LogoutBody, await c.req.json().catch(() => ({})));
  const refreshToken = input.success ? input.output.refreshToken : undefined;
  if (refreshToken) {
    const session = await sessionOfRefreshToken(c.env, refreshToken);
    if (session) sessions.add(session);
  }
  const bearer = /^Bearer\s+(\S+)$/i.exec(c.req.header("authorization") ?? "")?.[1];
  if (bearer) {
    const auth = await authenticateBearer(c.env, bearer);
    if (auth) sessions.add(auth.sessionId);
  }
  const cookie = readSessionCookie(c);
  // The cookie alone is not proof that the user asked: another site can send it.
  if (cookie && sessions.size === 0 && !cameFromOurSite(c)) return apiError(c, 403, NOT_FROM_OUR_SITE);
  if (cookie) {
    const auth = await authenticateCookie(c.env, cookie);
    if (auth) sessions.add(auth.sessionId);
  }
  for (const session of sessions) await revokeSession(c.env, session, "logout");
  clearSessionCookie(c);
  return c.json({ message: "Logged out" });
});

account.post("/signInWithGoogle", valid("json", GoogleSignInBody), async (c) => {
  const { idToken, leadSource } = c.req.valid("json");
  const signIn = await signInWithGoogle(c.env, idToken, leadSource ?? null, requestMeta(c));
  return answerSignIn(c, signIn, signIn.created ? 201 : 200);
});

account.post("/user/forgotPassword", valid("json", ForgotPasswordBody), async (c) => {
  await requestPasswordReset(c.env, c.req.valid("json").email, requestMeta(c));
  return c.json({ message: "Password reset requested for this email." });
});

account.post("/user/resetPassword", valid("json", ResetPasswordBody), async (c) => {
  const { token, password } = c.req.valid("json");
  setDeviceCookie(c, (await resetPassword(c.env, token, password)).device);
  return c.json({ message: "Your password has been changed. Please log in with your new password." });
});

account.post("/user/verifyUserEmail", valid("json", VerifyEmailBody), async (c) => {
  const { uid, token } = c.req.valid("json");
  await verifyEmail(c.env, uid, token);
  return c.json({ message: "Email verified" });
});

account.post("/user/newsletterSignup", valid("json", NewsletterSignupBody), async (c) => {
  const { email, source } = c.req.valid("json");
  await subscribeToNewsletter(c.env, email, source ?? "popup", requestMeta(c));
  return c.json({ message: "Please check your email for the download link." });
});

/** /unsubscribe's call: a newsletter link, a trend alert digest's (decision 047) or the weekly summary's; `kind` says which. */
account.post("/user/unsubscribe", valid("json", UnsubscribeBody), async (c) => c.json(await unsubscribeByToken(c.env, c.req.valid("json").token)));

/**
 * The List-Unsubscribe-Post target of the marketing e-mails (RFC 8058, decision 097): a mail app POSTs
 * "List-Unsubscribe=One-Click" here, without cookies; the signed token in the query names the list and the user.
 */
account.post("/user/unsubscribe/oneClick", valid("query", UnsubscribeQuery), async (c) => c.json(await unsubscribeByToken(c.env, c.req.valid("query").token)));

// ---------------------------------------------------------------- the signed-in user

account.get("/user", requireUser, async (c) => c.json({ credentials: await currentCredentials(c.env, c.var.auth.user) }));

account.post("/user", requireUser, valid("json", UserUpdatesBody), async (c) => {
  const user = await updateProfile(c.env, c.var.auth.user, c.req.valid("json").updates);
  return c.json({ credentials: await currentCredentials(c.env, user) });
});

account.post("/user/image", requireUser, async (c) => {
  let form: FormData;
  try {
    form = await c.req.formData();
  } catch {
    return apiError(c, 400, "Please send the image as multipart form data.", "image");
  }
  const file = form.get("image");
  if (!(file instanceof File)) return apiError(c, 400, "Please choose an image to upload.", "image");
  return c.json({ imageUrl: await setProfileImage(c.env, c.var.auth.user, file) });
});

account.post("/user/sendEmailVerificationLink", requireUser, async (c) => {
  try {
    await resendVerificationEmail(c.env, c.var.auth.user, requestMeta(c));
  } catch (error) {
    if (error instanceof ProviderError) {
      console.error("verification e-mail failed", error);
      return apiError(c, 502, "Unable to send email verification link");
    }
    throw error;
  }
  return c.json({ message: "Email verification link sent" });
});

account.post("/user/setOnboardingChecklist", requireUser, valid("json", OnboardingChecklistBody), async (c) => {
  const user = await setOnboardingChecklist(c.env, c.var.auth.user, c.req.valid("json").onboardingChecklist);
  return c.json({ onboardingChecklist: credentialsOf(c.env, user).onboardingChecklist });
});

account.post("/user/cookiesConsent", requireUser, valid("json", CookiesConsentBody), async (c) => {
  await setCookiesConsent(c.env, c.var.auth.user, c.req.valid("json").cookiesConsent);
  return c.json({ cookiesConsent: c.req.valid("json").cookiesConsent });
});

account.delete("/user/deleteUserAccount", requireUser, async (c) => {
  try {
    await deleteAccount(c.env, c.var.auth.user);
  } catch (error) {
    console.error("account deletion failed", error);
    return apiError(c, 500, "Unable to delete user account");
  }
  clearSessionCookie(c);
  return c.json({ message: "Your account has been deleted." });
});

const isHandle = (handle: string) => v.is(v.pipe(v.string(), v.regex(/^[A-Za-z0-9._]{1,30}$/)), handle);

// Registered last: every other single-segment /user/... path above wins over a handle.
account.get("/user/:handle", async (c) => {
  const handle = c.req.param("handle");
  if (!isHandle(handle)) return apiError(c, 404, "No such user");
  const user = await publicProfile(c.env, handle);
  return user ? c.json({ user }) : apiError(c, 404, "No such user");
});

/** A public profile's picture, by handle (its media key names the user's id, which public answers never show). */
account.get("/user/:handle/picture", async (c) => {
  const handle = c.req.param("handle");
  const key = isHandle(handle) ? await publicPictureKey(c.env, handle) : null;
  if (!key) return apiError(c, 404, "No such picture");
  return serveMedia(c.env, key, c.req.raw);
});
