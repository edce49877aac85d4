/** A public handle: 3-30 lowercase letters, digits, dots or underscores, starting with a letter or digit. */
export const HANDLE_PATTERN = /^[a-z0-9][a-z0-9._]{2,29}$/;

/** A handle made from a person's name, e.g. "Maya Lindqvist" -> "mayalindqvist". */
export function handleBase(firstName: string, lastName: string, email: string): string {
  const fromName = `${firstName}${lastName}`
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "");
  const fromEmail = email
    .split("@")[0]
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "");
  const base = (fromName.length >= 3 ? fromName : fromEmail.length >= 3 ? fromEmail : `pinner${fromName}`).slice(0, 24);
  return base;
}

/** Candidates to try in order: the base, then the base with random digits. */
export function handleCandidates(base: string, random: () => number = Math.random): string[] {
  return [base, ...Array.from({ length: 5 }, () => `${base}${Math.floor(1000 + random() * 9000)}`)];
}

/** A referral code: 8 characters without look-alikes (no 0/O, 1/I/L). */
export function newReferralCode(bytes: Uint8Array): string {
  const alphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
  return [...bytes.slice(0, 8)].map((b) => alphabet[b % alphabet.length]).join("");
}
