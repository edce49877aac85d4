/**
 * Local and session storage for the shell's remembered choices (spec section 3).
 * Reading never throws: storage can be missing (server rendering) or blocked
 * (private browsing, strict cookie settings), and then nothing is remembered.
 */

/** "true" or "false": the visitor's answer to the cookie consent banner. */
export const COOKIES_CONSENT_KEY = "cookiesConsent";
/** "true" once the visitor asked for the Success plan (spelled as the spec spells it). */
export const NEWSLETTER_SUBSCRIBER_KEY = "isNewletterSubscriber";
/** Session storage: the visitor closed the newsletter popup in this browser session. */
export const NEWSLETTER_DISMISSED_KEY = "newsletterPopupDismissed";

type Area = "local" | "session";

function area(which: Area): Storage | null {
  try {
    if (typeof window === "undefined") return null;
    return which === "local" ? window.localStorage : window.sessionStorage;
  } catch {
    return null;
  }
}

export function readStored(which: Area, key: string): string | null {
  try {
    return area(which)?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeStored(which: Area, key: string, value: string) {
  try {
    area(which)?.setItem(key, value);
  } catch {
    // Storage full or blocked: the choice lasts until the page is left.
  }
}
