import { useId, useRef } from "react";
import { apiJson } from "../../lib/api-client.ts";
import { useAuth } from "../../lib/auth.tsx";
import { useToast } from "../shell/toast.tsx";

/**
 * The referral card (spec section 2): "Gift a month, get a month", with the
 * user's invite link and Copy invite link. Send gift via email comes with the
 * referral calls (POST /api/referrals/sendReferralInvite). Copying the link is
 * how a user invites a friend today, so it ticks the onboarding step (issue 13).
 */
export function ReferralCard({ inviteLink }: { inviteLink: string }) {
  const { toast } = useToast();
  const { user, reloadUser } = useAuth();
  const linkId = useId();
  const input = useRef<HTMLInputElement>(null);

  async function copy() {
    try {
      await navigator.clipboard.writeText(inviteLink);
      toast({ title: "Invite link copied.", kind: "success" });
    } catch {
      // No clipboard access (permission refused, insecure context): leave the link selected to copy by hand.
      input.current?.select();
      toast({ title: "Press Ctrl+C (or ⌘C on a Mac) to copy the selected link.", kind: "info" });
    }
    void invited();
  }

  /** Ticks "Gift a month to a friend" on the checklist; the link is copied whatever becomes of this. */
  async function invited() {
    if (!user || user.onboardingChecklist.some((step) => step.name === "inviteFriend" && step.isChecked)) return;
    try {
      await apiJson("/api/user/setOnboardingChecklist", { json: { onboardingChecklist: [{ name: "inviteFriend", isChecked: true }] } });
      reloadUser();
    } catch {
      // The checklist can be ticked by hand on /onboarding.
    }
  }

  return (
    <section className="card profile-block referral-card" aria-labelledby="referral-title">
      <h2 id="referral-title">Gift a month, get a month</h2>
      <p>
        Give a friend a free month of the Starter plan. When they subscribe, you get $16.99 off your next payment.
      </p>
      <div className="field">
        <label className="field__label" htmlFor={linkId}>
          Your invite link
        </label>
        <div className="copy-field">
          <input ref={input} className="field__input" id={linkId} type="text" readOnly value={inviteLink} onFocus={(event) => event.currentTarget.select()} />
          <button type="button" className="button button--primary" onClick={copy}>
            Copy invite link
          </button>
        </div>
      </div>
    </section>
  );
}
