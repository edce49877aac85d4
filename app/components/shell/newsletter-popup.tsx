import { useEffect, useState } from "react";
import { useAuth } from "../../lib/auth.tsx";
import { NEWSLETTER_DISMISSED_KEY, NEWSLETTER_SUBSCRIBER_KEY, readStored, writeStored } from "./browser-storage.ts";
import { LazyPart, lazyWithTimeout } from "../lazy-part.tsx";

/** The dialog and its form load when the popup is due, not with every page (issue 17's JavaScript budget). */
const NewsletterDialog = lazyWithTimeout(() => import("./newsletter-dialog.tsx"));

/** Spec section 9: the newsletter popup comes after 60 s. */
export const NEWSLETTER_POPUP_DELAY_MS = 60_000;

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

  useEffect(() => {
    if (due && allowedHere && !user && !alreadyAnswered()) {
      setDue(false);
      setOpen(true);
    }
  }, [due, allowedHere, user]);

  // Signing in (in another tab, or through a dialog) ends the offer.
  useEffect(() => {
    if (user) setOpen(false);
  }, [user]);

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
