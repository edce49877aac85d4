import * as v from "valibot";

/** A standard e-mail address, trimmed and lowercased (login lowercases the e-mail, spec section 5). */
export const Email = v.pipe(
  v.string("email is required"),
  v.trim(),
  v.nonEmpty("email is required"),
  v.maxLength(254, "email is too long"),
  v.email("Please enter a valid email address."),
  v.toLowerCase(),
);

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

/** Length rules only; the common-password check runs on the server (workers/domain/password-policy.ts). */
export const NewPassword = v.pipe(
  v.string("password is required"),
  v.minLength(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters.`),
  v.maxLength(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters.`),
);

/** A person's name part: trimmed, 1-60 characters. */
/**
 * User text is stripped of what can hide or disguise it: control characters
 * (NUL and friends) and bidirectional overrides and isolates (U+202A-U+202E,
 * U+2066-U+2069, which can make "gpj.exe" read "exe.jpg"). `plainText` keeps
 * tabs and line breaks for text that may span lines; `plainLine` is for names.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this strips from user text (see above).
const HIDDEN_IN_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this strips from names (see above).
const HIDDEN_IN_LINE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
export const plainText = v.transform((value: string) => value.replace(HIDDEN_IN_TEXT, ""));
export const plainLine = v.transform((value: string) => value.replace(HIDDEN_IN_LINE, ""));

export const NamePart = (field: string) =>
  v.pipe(v.string(`${field} is required`), plainLine, v.trim(), v.nonEmpty(`${field} is required`), v.maxLength(60, `${field} is too long`));

export const OptionalText = (field: string, max: number) =>
  v.optional(v.pipe(v.string(`${field} must be text`), plainText, v.trim(), v.maxLength(max, `${field} is too long`)));

/** Our plan ids (starter-monthly, pro-annual, lifetime-tier-2): the one schema every call naming a plan checks. */
export const PlanId = (field: string) =>
  v.pipe(
    v.string(`${field} is required`),
    v.trim(),
    v.nonEmpty(`${field} is required`),
    v.maxLength(64, `${field} is too long`),
    v.regex(/^[a-z0-9-]+$/, `${field} must be a plan id such as starter-monthly`),
  );

/**
 * A request body object whose missing fields are reported as "<field> is
 * required" (valibot reports a missing key on the object, not on the field).
 */
export function body<const TEntries extends v.ObjectEntries>(entries: TEntries) {
  return v.object(entries, (issue) =>
    issue.expected && /^".*"$/.test(issue.expected) ? `${issue.expected.slice(1, -1)} is required` : "The request body must be a JSON object",
  );
}

/** An idempotency key chosen by the client: it names one request (docs/decisions/017-idempotency-keys.md). */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9:_.-]{8,120}$/;
export const IdempotencyReference = v.pipe(
  v.string("reference must be text"),
  v.regex(IDEMPOTENCY_KEY_PATTERN, "reference must be 8-120 letters, digits or :_.-"),
);

/** An IANA time zone the runtime knows, such as Europe/Paris (the browser's, for times shown in the user's zone). */
export const TimeZoneName = v.pipe(
  v.string("timeZone must be text"),
  v.maxLength(64, "timeZone is too long"),
  v.check((zone) => {
    try {
      new Intl.DateTimeFormat("en-US", { timeZone: zone });
      return true;
    } catch {
      return false;
    }
  }, "timeZone must be a time zone such as Europe/Paris"),
);
