import { useId, useRef } from "react";
import { referralEarnings } from "../../../workers/domain/referrals.ts";
import { usd } from "../../../contracts/money.ts";
import { useApiQuery } from "../../lib/query.ts";
import { fetchReferralProfile } from "../../lib/referrals.ts";
import { useToast } from "../shell/toast.tsx";
import { GiftDialog } from "./gift-dialog.tsx";

/**
 * The referral card (spec section 2): "Gift a month, get a month", with the
 * user's invite link, Copy invite link and Send gift via email, and what the
 * programme has earned them (16.99 x referredSales). On /profile, on /referral
 * and in the referral modal. Copying the link does not tick the onboarding
 * step: a sent gift does, on the server (docs/decisions/037).
 */
export function ReferralCard({ inviteLink, referralCode, headingLevel = 2 }: { inviteLink: string; referralCode: string; headingLevel?: 2 | 3 }) {
  const { toast } = useToast();
  const linkId = useId();
  const titleId = useId();
  const input = useRef<HTMLInputElement>(null);
  // The earnings line is extra: the card works without it (no profile, or one that could not be read).
  const profile = useApiQuery(["referrals", "profile", referralCode], () => fetchReferralProfile(referralCode));
  const referredSales = profile.data?.referredSales ?? null;

  async function copy() {
    try {
      await navigator.clipboard.writeText(inviteLink);
      toast({ title: "Invite link copied.", kind: "success" });
    } catch {
      // No clipboard access (permission refused, insecure context): leave the link selected to copy by hand.
      input.current?.select();
      toast({ title: "Press Ctrl+C (or ⌘C on a Mac) to copy the selected link.", kind: "info" });
    }
  }

  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <section className="card profile-block referral-card" aria-labelledby={titleId}>
      <Heading id={titleId}>Gift a month, get a month</Heading>
      <p>Give a friend a free month of the Starter plan. When they subscribe, you get $16.99 off your next payment.</p>
      <div className="field">
        <label className="field__label" htmlFor={linkId}>
          Your invite link
        </label>
        <div className="copy-field">
          <input ref={input} className="field__input" id={linkId} type="text" readOnly value={inviteLink} onFocus={(event) => event.currentTarget.select()} />
          <button type="button" className="button button--primary" onClick={() => void copy()}>
            Copy invite link
          </button>
        </div>
      </div>
      <div className="referral-card__actions">
        <GiftDialog referralCode={referralCode} />
      </div>
      {referredSales !== null ? (
        <p className="referral-card__earnings" data-testid="referral-earnings">
          {referredSales === 0
            ? "No friend has subscribed yet: your first $16.99 is one invite away."
            : `${referredSales} ${referredSales === 1 ? "friend has" : "friends have"} subscribed: you have earned ${usd(referralEarnings(referredSales))}.`}
        </p>
      ) : null}
    </section>
  );
}
