import * as Dialog from "@radix-ui/react-dialog";
import { useEffect, useState } from "react";
import { useAuth } from "../../lib/auth.tsx";
import { ACTION_FINISHED_EVENT, lastActionFinishedAt } from "../shell/toast-options.ts";
import { inviteLinkFor, REFERRAL_MODAL_DELAY_MS, referralModalDue, rememberReferralModalShown } from "../../lib/referrals.ts";
import { useReferralCode } from "./use-referral-code.ts";
import { ReferralCard } from "./referral-card.tsx";

/**
 * Something on the page is still at work, or asks for the user's attention: a dialog, or a part that says it is
 * busy (the generator while it schedules or downloads, a page being replaced). Meters such as the credits bar are
 * not work.
 */
function workInProgress(): boolean {
  return document.querySelector('[role="dialog"], [role="alertdialog"], [aria-busy="true"]') !== null;
}

/**
 * The referral modal (spec section 2): for a signed-in user whose
 * usedPinCredits is 20 or more, and not again for 21 days after it was shown
 * in this browser (docs/decisions/038-referral-modal.md). Never on /referral,
 * where the card is on the page. It comes after a finished action (a success
 * toast), never on a page's load and never over work in progress: a dialog
 * or a busy part waits for the next finished action (issue 40
 * point 8).
 */
export function ReferralModal({ allowedHere }: { allowedHere: boolean }) {
  const { user } = useAuth();
  const referralCode = useReferralCode(user);
  const [open, setOpen] = useState(false);

  useEffect(() => {
    if (!user || !referralCode || !allowedHere) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onFinished = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (!referralModalDue(user) || workInProgress()) return;
        rememberReferralModalShown(user.userId);
        setOpen(true);
      }, REFERRAL_MODAL_DELAY_MS);
    };
    window.addEventListener(ACTION_FINISHED_EVENT, onFinished);
    // An action that finished just before this was ready to listen (its code, or the user's code, still loading) counts.
    if (lastActionFinishedAt() > 0 && Date.now() - lastActionFinishedAt() < 10_000) onFinished();
    return () => {
      window.removeEventListener(ACTION_FINISHED_EVENT, onFinished);
      clearTimeout(timer);
    };
  }, [user, referralCode, allowedHere]);

  // Rendered in the browser only, once due (it needs the page's origin for the link).
  if (!user || !referralCode || !open) return null;
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog referral-modal" aria-describedby={undefined}>
          <Dialog.Title className="dialog__title">Enjoying Pinboard Studio, {user.firstName}?</Dialog.Title>
          <ReferralCard inviteLink={inviteLinkFor(window.location.origin, referralCode)} referralCode={referralCode} headingLevel={3} />
          <div className="dialog__actions">
            <Dialog.Close className="button button--ghost">Maybe later</Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
