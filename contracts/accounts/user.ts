import type { ShopProfileView } from "../shops/shops.ts";
import type { AuthorizedPinterestProfile } from "../pinterest/pinterest-connection.ts";
import * as v from "valibot";
import { body, Email, NamePart } from "../fields.ts";

/** The fields a user may change with POST /api/user {updates}; anything else is refused. */
export const UserUpdatesBody = body({
  updates: v.strictObject(
    {
      firstName: v.optional(NamePart("firstName")),
      lastName: v.optional(NamePart("lastName")),
      handle: v.optional(
        v.pipe(
          v.string("handle must be text"),
          v.trim(),
          v.toLowerCase(),
          v.regex(/^[a-z0-9][a-z0-9._]{2,29}$/, "handle must be 3-30 letters, digits, dots or underscores"),
          v.check((handle) => !RESERVED_HANDLES.has(handle), "This handle is reserved; please choose another."),
        ),
      ),
    },
    // An unknown key arrives as the issue's input, with "never" expected.
    (issue) => (issue.expected === "never" ? `${String(issue.input)} cannot be changed` : "updates must be an object"),
  ),
});

export const OnboardingChecklistBody = body({
  onboardingChecklist: v.pipe(
    v.array(
      body({
        name: v.pipe(v.string("name is required"), v.maxLength(40, "name is invalid")),
        isChecked: v.boolean("isChecked must be true or false"),
      }),
      "onboardingChecklist must be a list of steps",
    ),
    v.maxLength(20, "onboardingChecklist has too many steps"),
  ),
});

/** Profile images: these types (checked from the file's bytes on the server), at most 5 MB. */
export const PROFILE_IMAGE_TYPES = ["image/jpeg", "image/png", "image/gif", "image/webp"] as const;
export const PROFILE_IMAGE_MAX_BYTES = 5 * 1024 * 1024;

export const CookiesConsentBody = body({
  cookiesConsent: v.boolean("cookiesConsent must be true (accept) or false (deny)"),
});

export const NewsletterSignupBody = body({
  email: v.pipe(v.string("email is required"), v.trim(), v.email("Please enter a valid email address"), v.toLowerCase()),
  source: v.optional(v.picklist(["popup", "email-signup", "profile"], "source is invalid")),
});

export const UnsubscribeBody = body({
  token: v.pipe(v.string("token is required"), v.nonEmpty("token is required"), v.maxLength(2048, "token is invalid")),
});

/** The one-click unsubscribe's query (RFC 8058: the token rides in the List-Unsubscribe address). */
export const UnsubscribeQuery = v.object({
  token: v.pipe(v.string("token is required"), v.nonEmpty("token is required"), v.maxLength(2048, "token is invalid")),
});

/** One step of the onboarding checklist as the client receives it. */
export interface OnboardingStepView {
  name: string;
  label: string;
  link: string;
  isChecked: boolean;
}

/** The user credentials of spec section 3, as GET /api/user answers them. */
export interface UserCredentials {
  userId: string;
  role: "user" | "admin";
  imageUrl: string | null;
  email: string;
  firstName: string;
  lastName: string;
  handle: string;
  createdAt: string;
  referralCode: string;
  planId: string;
  planStatus: string;
  cancelSubscriptionDate: string | null;
  usedFreeTrial: boolean;
  isEmailVerified: boolean;
  cookiesConsent: boolean | null;
  usedPinCredits: number;
  authorizedPinterestProfiles: AuthorizedPinterestProfile[];
  /** Connected shops (spec: authorizedShops); tokens stay on the server. */
  authorizedShops: ShopProfileView[];
  stripeCheckoutSessionID: string | null;
  wordpressAccessKey: string | null;
  onboardingChecklist: OnboardingStepView[];
}

/**
 * Handles that would shadow our own single-segment paths under /api/user/ and
 * /users/ (GET /api/user/{handle} must not meet GET /api/user/credits).
 */
export const RESERVED_HANDLES: ReadonlySet<string> = new Set([
  "credits",
  "media",
  "drafts",
  "templates",
  "image",
  "admin",
  "settings",
  "support",
  "help",
  "pinboard",
  "pinboardstudio",
]);

/** What anyone may see of a user (GET /api/user/{handle}). */
export interface PublicUser {
  handle: string;
  firstName: string;
  lastName: string;
  imageUrl: string | null;
  createdAt: string;
}

export { Email };
