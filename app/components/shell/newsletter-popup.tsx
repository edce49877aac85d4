import { useEffect, useState } from "react";
import { useAuth } from "../../lib/auth.tsx";
import { NEWSLETTER_DISMISSED_KEY, NEWSLETTER_SUBSCRIBER_KEY, readStored, writeStored } from "./browser-storage.ts";
import { LazyPart, lazyWithTimeout } from "../lazy-part.tsx";

/** The dialog and its form load when the popup is due, not with every page (issue 17's JavaScript budget). */
const NewsletterDialog = lazyWithTimeout(() => import("./newsletter-dialog.tsx"));

/** Spec section 9: the newsletter popup comes after 60 s. */
export const NEWSLETTER_POPUP_DELAY_MS = 60_000;

/** How often a due popup looks again whether the visitor's other dialog has closed. */
const DIALOG_RECHECK_MS = 1_000;

/** Whether a dialog (the login dialog, the referral modal…) is open over the page. */
function anotherDialogOpen(): boolean {
  return document.querySelector('[role="dialog"], [role="alertdialog"]') !== null;
}

function alreadyAnswered(): boolean {
  return readStored("local", NEWSLETTER_SUBSCRIBER_KEY) === "true" || readStored("session", NEWSLETTER_DISMISSED_KEY) !== null;
}

/**
 * The newsletter popup (spec section 2): 60 s into a visit, an unauthenticated
 * visitor who has not subscribed is offered the free Success plan. "No thanks"
 * keeps it away for the rest of the browser session. The clock runs from the
 * first page; if that moment falls on a page without the popup, it waits for
 * the next page that has one.
 */
export function NewsletterPopup({ allowedHere }: { allowedHere: boolean }) {
  const { user } = useAuth();
  const [due, setDue] = useState(false);
  const [open, setOpen] = useState(false);
  const [opened, setOpened] = useState(false);

  useEffect(() => {
    if (alreadyAnswered()) return;
    const timer = setTimeout(() => setDue(true), NEWSLETTER_POPUP_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);

  // Due while the visitor is in another dialog (logging in, say): it waits until that dialog has closed.
  const [waits, setWaits] = useState(0);
  useEffect(() => {
    if (!due || !allowedHere || user || alreadyAnswered()) return;
    if (anotherDialogOpen()) {
      const timer = setTimeout(() => setWaits((count) => count + 1), DIALOG_RECHECK_MS);
      return () => clearTimeout(timer);
    }
    setDue(false);
    setOpen(true);
  }, [due, allowedHere, user, waits]);

  // Signing in (in another tab, or through a dialog) ends the offer.
  if (user && open) setOpen(false);

  function onOpenChange(next: boolean) {
    if (!next) writeStored("session", NEWSLETTER_DISMISSED_KEY, "true");
    setOpen(next);
  }

  // Once opened it stays mounted, so that closing it is the dialog's own (focus goes back, any exit animation runs).
  if (open && !opened) setOpened(true);
  if (!opened) return null;
  return (
    <LazyPart quiet>
      <NewsletterDialog open={open} onOpenChange={onOpenChange} />
    </LazyPart>
  );
}
