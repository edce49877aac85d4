import * as Dialog from "@radix-ui/react-dialog";
import { useEffect, useState } from "react";
import { useAuth } from "../../lib/auth.tsx";
import { inviteLinkFor, referralModalDue, rememberReferralModalShown } from "../../lib/referrals.ts";
import { useReferralCode } from "./use-referral-code.ts";
import { ReferralCard } from "./referral-card.tsx";

/**
 * The referral modal (spec section 2): for a signed-in user whose
 * usedPinCredits is 20 or more, and not again for 21 days after it was shown
 * in this browser (docs/decisions/038-referral-modal.md). Never on /referral,
 * where the card is on the page.
 */
export function ReferralModal({ allowedHere }: { allowedHere: boolean }) {
  const { user } = useAuth();
  const referralCode = useReferralCode(user);
  const [open, setOpen] = useState(false);

  useEffect(() => {
    if (!user || !referralCode || !allowedHere || open) return;
    if (!referralModalDue(user)) return;
    rememberReferralModalShown(user.userId);
    setOpen(true);
  }, [user, referralCode, allowedHere, open]);

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
