import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useEffect, useState } from "react";
import { REFERRAL_NOT_RECORDED_MESSAGE, REFERRAL_RECORDED_MESSAGE, type RecordReferralAnswer, type ReferralProfile } from "../../contracts/growth/referrals.ts";
import { FREE_PLAN_ID } from "../../workers/domain/plans.ts";
import { CLAIM_REFUSAL_TEXT } from "../../workers/domain/referrals.ts";
import { VerifyFirstNotice } from "../components/auth/email-verification.tsx";
import { ReferralCard } from "../components/referrals/referral-card.tsx";
import type { ShellHandle } from "../components/shell/handle.ts";
import { LoginPrompt } from "../components/shell/login-prompt.tsx";
import { useToast } from "../components/shell/toast.tsx";
import { Spinner } from "../components/spinner.tsx";
import { apiFetch } from "../lib/api-client.ts";
import { clearReferralCode, storedReferralCode, storeReferralCode } from "../lib/attribution.ts";
import { useAuth } from "../lib/auth.tsx";
import { useApiQuery } from "../lib/query.ts";
import { fetchReferralProfile, inviteLinkFor } from "../lib/referrals.ts";
import { useReferralCode } from "../components/referrals/use-referral-code.ts";
import accountStyles from "../styles/account.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: accountStyles }];
export const meta: MetaFunction = () => [{ title: "Gift a month, get a month | Pinboard Studio" }];
export const handle: { shell: ShellHandle } = { shell: { referralModal: false } };

const CODE = /^[A-Z0-9]{6,16}$/;

/** The code in the link (pgreferral), read the way the API reads it; the site's origin for invite links. */
export function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const code = url.searchParams.get("pgreferral")?.trim().toUpperCase() ?? "";
  return { origin: url.origin, linkCode: CODE.test(code) ? code : null };
}

type Gift = { state: "none" } | { state: "loading"; code: string } | { state: "invalid" } | { state: "ready"; profile: ReferralProfile };

/**
 * /referral?pgreferral=CODE (spec section 2): a friend's invite. The code is
 * kept 30 days in this browser (app/lib/attribution.ts), so a visitor can sign
 * up first and claim after. Signed in, the claim-free-month button gives one
 * month of Starter (POST /api/referrals/recordReferral). Without a code the
 * page is the user's own side of the programme: their card and earnings.
 */
export default function ReferralPage() {
  const { user } = useAuth();
  const { origin, linkCode } = useLoaderData<typeof loader>();
  const ownCode = useReferralCode(user);
  const [code, setCode] = useState<string | null>(linkCode);

  // The link's code is remembered for 30 days (replacing an affiliate id); without one, a remembered code is used.
  useEffect(() => {
    if (linkCode) storeReferralCode(linkCode);
    const current = linkCode ?? storedReferralCode();
    setCode(current && CODE.test(current.toUpperCase()) ? current.toUpperCase() : null);
  }, [linkCode]);

  // An unknown code and a failed read both say the link is not valid.
  const profileRead = useApiQuery(["referrals", "profile", code], () => fetchReferralProfile(code ?? ""), { enabled: Boolean(code), public: true });
  const gift: Gift = !code
    ? { state: "none" }
    : profileRead.data
      ? { state: "ready", profile: profileRead.data }
      : profileRead.data === null || profileRead.isError
        ? { state: "invalid" }
        : { state: "loading", code };

  const isOwnCode = Boolean(user && code && user.referralCode === code);
  return (
    <main className="page page--narrow account-page referral-page">
      <h1>Gift a month, get a month</h1>
      {gift.state === "loading" ? (
        <p role="status">
          <Spinner /> Opening your invite…
        </p>
      ) : null}
      {gift.state === "invalid" ? (
        <p className="lead" role="alert">
          This invite link is not valid. Ask your friend to send it again.
        </p>
      ) : null}
      {gift.state === "ready" && !isOwnCode ? <FriendsGift profile={gift.profile} /> : null}
      {isOwnCode ? <p className="lead">This is your own invite link: share it with a friend.</p> : null}
      {user && ownCode ? <ReferralCard inviteLink={inviteLinkFor(origin, ownCode)} referralCode={ownCode} /> : null}
      {!user && gift.state !== "ready" ? (
        <>
          <p className="lead">
            Invite friends to Pinboard Studio: each gets a free month of the Starter plan, and you get $16.99 off your next payment when they subscribe.
          </p>
          <LoginPrompt action="get your invite link" />
        </>
      ) : null}
    </main>
  );
}

/** The friend's gift: who sent it and the claim-free-month button (or, signed out, sign-up first). */
function FriendsGift({ profile }: { profile: ReferralProfile }) {
  const { user, reloadUser } = useAuth();
  const { toast } = useToast();
  const [claiming, setClaiming] = useState(false);
  const [claimed, setClaimed] = useState<RecordReferralAnswer | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [mustVerify, setMustVerify] = useState(false);

  async function claim() {
    setClaiming(true);
    setRefusal(null);
    try {
      const response = await apiFetch("/api/referrals/recordReferral", { method: "POST", body: JSON.stringify({ referralCode: profile.referralCode }) });
      const body = (await response.json().catch(() => null)) as (RecordReferralAnswer & { error?: string; reason?: string }) | null;
      if (!response.ok || !body) {
        // Not verified after all (verified state changed elsewhere): the notice below offers the link.
        if (response.status === 403) {
          setMustVerify(true);
          reloadUser();
          return;
        }
        const reason = body?.reason ?? "Please try again in a moment.";
        setRefusal(reason);
        toast({ title: REFERRAL_NOT_RECORDED_MESSAGE, description: reason, kind: "error" });
        // A refusal that will not change (own code, already claimed, a customer): the code has done its job here.
        if (response.status === 409 || response.status === 404) clearReferralCode();
        return;
      }
      clearReferralCode();
      setClaimed(body);
      toast({ title: REFERRAL_RECORDED_MESSAGE, description: `You have the ${body.planName} plan free until ${longDate(body.freeUntil)}.`, kind: "success" });
      reloadUser();
    } catch {
      setRefusal("Please check your connection and try again.");
      toast({ title: REFERRAL_NOT_RECORDED_MESSAGE, description: "Please check your connection and try again.", kind: "error" });
    } finally {
      setClaiming(false);
    }
  }

  const alreadyOnPlan = user ? user.planId !== FREE_PLAN_ID : false;
  // The month needs a verified address (decision 079): until then the page says so and offers the link again.
  const unverified = Boolean(user && (!user.isEmailVerified || mustVerify));
  return (
    <section className="referral-gift" aria-labelledby="gift-title">
      <h2 id="gift-title">{profile.firstName} gifted you a free month of Starter</h2>
      <p>
        Design pins from your posts and products and schedule them to Pinterest with 150 pin credits a month. The month is free, and nothing renews unless you
        choose a plan.
      </p>
      {claimed ? (
        <p role="status" data-testid="referral-claimed">
          Your free month of {claimed.planName} runs until {longDate(claimed.freeUntil)}. <Link to="/generate">Start making pins</Link>
        </p>
      ) : !user ? (
        <LoginPrompt action="claim your free month" />
      ) : alreadyOnPlan ? (
        <p>The free month is for new customers, and your account already has a plan. You can still invite friends with your own link below.</p>
      ) : unverified ? (
        <VerifyFirstNotice>{CLAIM_REFUSAL_TEXT["email-not-verified"]}</VerifyFirstNotice>
      ) : (
        <div className="referral-gift__actions">
          <button type="button" className="button button--primary" onClick={() => void claim()} disabled={claiming}>
            {claiming ? <Spinner /> : null} Claim your free month
          </button>
        </div>
      )}
      {refusal && !claimed ? <p className="muted">{refusal}</p> : null}
    </section>
  );
}

/** A date in the user's own time zone, as people write it ("26 December 2026"). */
function longDate(iso: string): string {
  return new Date(iso).toLocaleDateString(undefined, { day: "numeric", month: "long", year: "numeric" });
}
