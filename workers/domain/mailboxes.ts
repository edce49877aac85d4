/**
 * Which inbox an e-mail address delivers to (docs/decisions/079). Two
 * addresses with the same canonical mailbox reach the same person: a free
 * month is given once per mailbox, nobody refers or earns commission from
 * their own mailbox, and the daily limit of mail to an address a user typed
 * counts per mailbox (decision 080). Pure: shared by the worker and tests.
 *
 * - Case does not matter, in either part.
 * - `+tag` is cut from the local part for every domain: Gmail, Outlook and
 *   Hotmail, iCloud, Fastmail, Proton and most hosted mail deliver `me+x` to
 *   `me`. A provider that does not would only merge two people whose names
 *   differ after a `+`, which nobody picks.
 * - Gmail ignores dots in the local part, and googlemail.com is gmail.com.
 *   No other large provider ignores dots, so elsewhere `m.e` and `me` differ.
 * - Yahoo's `-` addresses are not cut: the part before the `-` is a separate
 *   base name the user chose, not their mailbox, and `-` is an ordinary
 *   character of many real names (mary-jane@...).
 * - The domain is lower-cased, written in its ASCII (punycode) form so an
 *   internationalised domain has one spelling, and loses a trailing dot.
 */

const GMAIL = "gmail.com";
const GMAIL_ALIASES = new Set([GMAIL, "googlemail.com"]);

/** Characters that cannot be in a domain name; such a domain is kept as written (lower-cased). */
const NOT_A_HOST = /[\s/\\?#:@[\]%]/u;

function canonicalDomain(domain: string): string | null {
  const written = domain.trim().toLowerCase().replace(/\.+$/, "");
  if (!written) return null;
  if (NOT_A_HOST.test(written)) return written;
  try {
    const host = new URL(`http://${written}/`).hostname.replace(/\.+$/, "");
    return host || written;
  } catch {
    return written;
  }
}

/** The canonical mailbox of an address (`local@domain`), or null when it is not an address. */
export function canonicalMailbox(address: string): string | null {
  const trimmed = address.trim();
  const at = trimmed.lastIndexOf("@");
  if (at <= 0 || at === trimmed.length - 1) return null;
  let domain = canonicalDomain(trimmed.slice(at + 1));
  if (!domain) return null;
  let local = trimmed.slice(0, at).normalize("NFC").toLowerCase();
  const plus = local.indexOf("+");
  // "+tag@..." alone names no mailbox of its own: kept whole.
  if (plus > 0) local = local.slice(0, plus);
  if (GMAIL_ALIASES.has(domain)) {
    domain = GMAIL;
    local = local.replaceAll(".", "");
    if (!local) return null;
  }
  return `${local}@${domain}`;
}

/** Whether two addresses deliver to the same mailbox (false when either is not an address). */
export function sameMailbox(a: string, b: string): boolean {
  const first = canonicalMailbox(a);
  return first !== null && first === canonicalMailbox(b);
}
