import { Link } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState } from "react";
import { apiJson } from "../../lib/api-client.ts";
import { useAuth } from "../../lib/auth.tsx";
import { COOKIES_CONSENT_KEY, readStored, writeStored } from "./browser-storage.ts";
import { useToast } from "./toast.tsx";

function saveOnAccount(cookiesConsent: boolean) {
  return apiJson<{ cookiesConsent: boolean }>("/api/user/cookiesConsent", { json: { cookiesConsent } });
}

/**
 * Cookie consent with Accept and Deny (spec section 2), shown unless a choice is
 * stored: in this browser, or on the signed-in user's account. Storage is read
 * after hydration, so the server and the first client render agree (no banner).
 */
export function CookieBanner() {
  const { user } = useAuth();
  const toast = useToast();
  const [asking, setAsking] = useState(false);
  const accountConsent = user ? user.cookiesConsent : null;
  const signedIn = user !== null;

  useEffect(() => {
    const stored = readStored("local", COOKIES_CONSENT_KEY);
    if (stored === null && accountConsent !== null) writeStored("local", COOKIES_CONSENT_KEY, String(accountConsent));
    // A choice made before signing in belongs on the account too.
    if (stored !== null && signedIn && accountConsent === null) saveOnAccount(stored === "true").catch(() => undefined);
    setAsking(stored === null && accountConsent === null);
  }, [signedIn, accountConsent]);

  // The page keeps room at its end for the bar's height, whatever the words wrap to (shell.css): a callback ref
  // watches the bar while it is on the page and takes the room back when it goes.
  const observer = useRef<ResizeObserver | null>(null);
  const bar = useCallback((element: HTMLElement | null) => {
    const root = document.documentElement;
    observer.current?.disconnect();
    observer.current = null;
    if (!element) {
      root.style.removeProperty("--cookie-bar-height");
      return;
    }
    const measure = () => root.style.setProperty("--cookie-bar-height", `${Math.ceil(element.getBoundingClientRect().height) + 16}px`);
    measure();
    observer.current = new ResizeObserver(measure);
    observer.current.observe(element);
  }, []);

  async function choose(consent: boolean) {
    writeStored("local", COOKIES_CONSENT_KEY, String(consent));
    setAsking(false);
    if (!signedIn) return;
    try {
      await saveOnAccount(consent);
    } catch (error) {
      toast({
        kind: "error",
        title: "Your cookie choice is saved in this browser only.",
        description: error instanceof Error ? error.message : undefined,
      });
    }
  }

  if (!asking) return null;
  return (
    <section ref={bar} className="cookie-banner" aria-label="Cookie consent">
      <div className="cookie-banner__inner">
        <p className="cookie-banner__text">
          We use cookies to keep you signed in and, if you accept, to understand how Pinboard Studio is used so we can improve it. Read our{" "}
          <Link to="/privacy-policy">privacy policy</Link>.
        </p>
        <div className="cookie-banner__actions">
          <button type="button" className="button button--ghost" onClick={() => void choose(false)}>
            Deny
          </button>
          <button type="button" className="button button--primary" onClick={() => void choose(true)}>
            Accept
          </button>
        </div>
      </div>
    </section>
  );
}
