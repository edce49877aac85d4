import * as v from "valibot";
import { body, Email, NamePart, NewPassword, OptionalText } from "../fields.ts";

/** Where a new user heard of us (the sign-up form's choices). */
export const LEAD_SOURCES = ["Google", "Pinterest", "YouTube", "Facebook", "Instagram", "TikTok", "A friend", "A blog or podcast", "Other"] as const;

export const SignupBody = body({
  email: Email,
  password: NewPassword,
  firstName: NamePart("firstName"),
  lastName: NamePart("lastName"),
  leadSource: v.optional(v.picklist(LEAD_SOURCES, "leadSource must be one of the listed choices")),
  leadSourceOther: OptionalText("leadSourceOther", 200),
  /** Sent by the spec's client; the server uses the address the request came from instead. */
  ip: v.optional(v.string()),
});
export type SignupBody = v.InferOutput<typeof SignupBody>;

export const LoginBody = body({
  email: Email,
  password: v.pipe(v.string("password is required"), v.nonEmpty("password is required"), v.maxLength(1024, "password is too long")),
});

export const TokenRefreshBody = body({
  grant_type: v.literal("refresh_token", 'grant_type must be "refresh_token"'),
  refresh_token: v.pipe(v.string("refresh_token is required"), v.nonEmpty("refresh_token is required"), v.maxLength(200, "refresh_token is invalid")),
});

/** Logout may come with no body at all. */
export const LogoutBody = v.object({
  refreshToken: v.optional(v.pipe(v.string("refreshToken must be text"), v.maxLength(200, "refreshToken is invalid"))),
});

export const GoogleSignInBody = body({
  idToken: v.pipe(v.string("idToken is required"), v.nonEmpty("idToken is required"), v.maxLength(8192, "idToken is too long")),
  leadSource: v.optional(v.picklist(LEAD_SOURCES, "leadSource must be one of the listed choices")),
  ip: v.optional(v.string()),
});

export const ForgotPasswordBody = body({ email: Email });

export const ResetPasswordBody = body({
  token: v.pipe(v.string("token is required"), v.nonEmpty("token is required"), v.maxLength(200, "token is invalid")),
  password: NewPassword,
});

export const VerifyEmailBody = body({
  uid: v.pipe(v.string("uid is required"), v.nonEmpty("uid is required"), v.maxLength(64, "uid is invalid")),
  token: v.pipe(v.string("token is required"), v.nonEmpty("token is required"), v.maxLength(2048, "token is invalid")),
});

/** What sign-in and token refresh answer (spec section 7). */
/**
 * What POST /api/signup answers (202) for an address that already has an account: the words a new account is shown,
 * and no session. The owner is e-mailed instead (decision 083).
 */
export const SIGNUP_CHECK_EMAIL = "Please check your email to verify your account.";
export interface SignupElsewhere {
  message: typeof SIGNUP_CHECK_EMAIL;
}

export interface AuthTokens {
  idToken: string;
  refreshToken: string;
}
