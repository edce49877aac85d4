import { dictionary } from "@zxcvbn-ts/language-common";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "../../contracts/fields.ts";

/**
 * The most common passwords (zxcvbn-ts's ranked list of leaked passwords, about
 * 49,000 entries), lowercased. Those shorter than the minimum length fail the
 * length rule anyway, so only the longer ones are kept.
 */
let commonPasswords: Set<string> | null = null;

function commonPasswordSet(): Set<string> {
  commonPasswords ??= new Set((dictionary["passwords-common"] as string[]).map((p) => p.toLowerCase()).filter((p) => p.length >= PASSWORD_MIN_LENGTH));
  return commonPasswords;
}

export function isCommonPassword(password: string): boolean {
  return commonPasswordSet().has(password.toLowerCase());
}

/** How many common passwords the policy rejects. */
export function commonPasswordCount(): number {
  return commonPasswordSet().size;
}

/** Answers why a new password is not acceptable, or null when it is. */
export function passwordProblem(password: string, email?: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) return `Password must be at least ${PASSWORD_MIN_LENGTH} characters.`;
  if (password.length > PASSWORD_MAX_LENGTH) return `Password must be at most ${PASSWORD_MAX_LENGTH} characters.`;
  if (isCommonPassword(password)) return "This password is too common. Please choose a less guessable one.";
  if (email && password.toLowerCase() === email.toLowerCase()) return "Your password must not be your e-mail address.";
  return null;
}
