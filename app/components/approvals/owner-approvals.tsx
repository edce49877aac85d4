import { Link } from "@remix-run/react";
import { useId, useState, type FormEvent } from "react";
import type { ApprovalSettingsResponse, ApprovalsResponse, InviteReviewerResponse, ProfileApprovals } from "../../../contracts/pinterest/approvals.ts";
import { fetchApprovals, inviteReviewer, removeReviewer, setApprovalRequired } from "../../lib/approvals.ts";
import { failureOf, useApiCache, useApiQuery } from "../../lib/query.ts";
import { LoadStatus } from "../load-status.tsx";
import { failureText } from "../scheduling/use-pinterest.tsx";
import { useToast } from "../shell/toast.tsx";
import { goesOutText, plainTime } from "./when.ts";

/** Where the owner's approvals are cached (app/lib/query.ts). */
const APPROVALS_KEY = ["approvals", "owner"];

/**
 * /post-approvals for a signed-in owner (decision 052): per connected profile, whether pins need approval,
 * the reviewers invited by e-mail, the pins waiting, and what reviewers decided with their comments.
 * Read through the data layer; after each change the answer is read again, and stays shown meanwhile.
 */
export function OwnerApprovals() {
  const cache = useApiCache();
  const query = useApiQuery<ApprovalsResponse>(APPROVALS_KEY, () => fetchApprovals());
  const profiles = query.data?.profiles ?? null;
  const failure = failureOf(query);
  const failed = failure ? `Unable to load your post approvals: ${failureText(failure)}` : null;
  const reload = () => void cache.refresh(APPROVALS_KEY);

  return (
    <main className="page approvals-page">
      <header>
        <h1>Post approvals</h1>
        <p className="muted">
          Let a client approve pins before they go out. Turn approval on for a Pinterest profile and invite reviewers by e-mail: each gets a private link to the
          pins waiting for them, and nothing else. Pins wait until a reviewer approves them; a rejected pin leaves your queue and its credit comes back.
        </p>
      </header>
      {profiles === null ? (
        <LoadStatus failed={failed} onRetry={() => void query.refetch()} loading="Loading your post approvals…" />
      ) : profiles.length === 0 ? (
        <p className="card">
          Connect a Pinterest profile on the <Link to="/scheduling">scheduling page</Link> first: approvals belong to a profile.
        </p>
      ) : (
        <ul className="approvals-profiles">
          {profiles.map((profile) => (
            <ProfileCard key={profile.pinterestProfileUsername} profile={profile} onChanged={reload} />
          ))}
        </ul>
      )}
    </main>
  );
}

function ProfileCard({ profile, onChanged }: { profile: ProfileApprovals; onChanged(): void }) {
  const toast = useToast();
  const id = useId();
  const [email, setEmail] = useState("");
  const [emailError, setEmailError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const name = profile.pinterestProfileUsername;
  // The switch shows the choice at once (in the click's own render, as a checkbox must); a refusal puts it
  // back. A new answer from the server wins: set while rendering when it differs from the last one seen.
  const [required, setRequired] = useState(profile.approvalRequired);
  const [answered, setAnswered] = useState(profile.approvalRequired);
  if (answered !== profile.approvalRequired) {
    setAnswered(profile.approvalRequired);
    setRequired(profile.approvalRequired);
  }

  const run = async (work: () => Promise<void>, failure: string) => {
    setBusy(true);
    try {
      await work();
      onChanged();
    } catch (error) {
      toast({ title: failure, description: failureText(error), kind: "error" });
    } finally {
      setBusy(false);
    }
  };

  const toggle = (on: boolean) =>
    run(async () => {
      setRequired(on);
      let answer: ApprovalSettingsResponse;
      try {
        answer = await setApprovalRequired(name, on);
      } catch (error) {
        setRequired(!on);
        throw error;
      }
      toast({
        title: on ? `Approval is now required for ${name}` : `Approval turned off for ${name}`,
        description:
          !on && answer.releasedCount > 0
            ? `${answer.releasedCount} waiting ${answer.releasedCount === 1 ? "pin joined" : "pins joined"} your queue.`
            : undefined,
        kind: "success",
      });
    }, "Unable to change approval");

  const invite = (event: FormEvent) => {
    event.preventDefault();
    setEmailError(null);
    void run(async () => {
      const address = email.trim();
      let answer: InviteReviewerResponse;
      try {
        answer = await inviteReviewer(name, address);
      } catch (error) {
        setEmailError(failureText(error));
        throw error;
      }
      // A pending invite is not e-mailed again within a day (decision 080): the one on its way still works.
      toast(
        answer.sent
          ? { title: `Invitation sent to ${address}`, kind: "success" }
          : {
              title: `An invitation is already on its way to ${address}`,
              description: `It was e-mailed on ${plainTime(Date.parse(answer.inviteSentAt))}, less than a day ago, so it was not sent again. The link in it works.`,
              kind: "info",
            },
      );
      setEmail("");
    }, "Unable to invite the reviewer");
  };

  return (
    <li className="card approvals-profile" aria-labelledby={`${id}-name`}>
      <div className="approvals-profile__header">
        <h2 id={`${id}-name`}>{name}</h2>
        <label className="approvals-switch">
          <input type="checkbox" checked={required} disabled={busy} onChange={(event) => void toggle(event.target.checked)} />
          Approval required
        </label>
      </div>

      <section aria-labelledby={`${id}-reviewers`}>
        <h3 id={`${id}-reviewers`}>Reviewers</h3>
        {profile.reviewers.length === 0 ? (
          <p className="muted">No reviewers yet.</p>
        ) : (
          <ul className="approvals-reviewers">
            {profile.reviewers.map((reviewer) => (
              <li key={reviewer.id}>
                <span className="approvals-reviewers__email">{reviewer.email}</span>
                <button
                  type="button"
                  className="button button--ghost"
                  disabled={busy}
                  onClick={() =>
                    void run(async () => {
                      await removeReviewer(reviewer.id);
                      toast({ title: `${reviewer.email} removed`, description: "Their review link no longer works.", kind: "success" });
                    }, "Unable to remove the reviewer")
                  }
                >
                  Remove<span className="visually-hidden"> {reviewer.email}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
        <form className="approvals-invite" onSubmit={invite} noValidate>
          <div className={`field${emailError ? " field--invalid" : ""}`}>
            <label className="field__label" htmlFor={`${id}-email`}>
              Reviewer's e-mail
            </label>
            <input
              id={`${id}-email`}
              className="field__input"
              type="email"
              autoComplete="off"
              value={email}
              required
              aria-invalid={emailError ? true : undefined}
              aria-describedby={emailError ? `${id}-email-error` : undefined}
              onChange={(event) => setEmail(event.target.value)}
            />
            {emailError ? (
              <p className="field__error" id={`${id}-email-error`} role="alert">
                {emailError}
              </p>
            ) : null}
          </div>
          <button type="submit" className="button button--primary" disabled={busy || email.trim() === ""}>
            Invite reviewer
          </button>
        </form>
      </section>

      <section aria-labelledby={`${id}-waiting`}>
        <h3 id={`${id}-waiting`}>Waiting for approval ({profile.awaitingPins.length})</h3>
        {profile.awaitingPins.length === 0 ? (
          <p className="muted">{required ? "No pins are waiting." : "Turn approval on to have new pins wait for a reviewer."}</p>
        ) : (
          <ul className="approvals-rows">
            {profile.awaitingPins.map((pin) => (
              <li key={pin.id} className="approvals-row">
                <span className="approvals-row__title">{pin.title || "Untitled pin"}</span>
                <span className="badge badge--warning">Awaiting approval</span>
                <span className="muted">Goes out: {goesOutText(pin.scheduledTimeUTCTimestamp)}</span>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby={`${id}-decisions`}>
        <h3 id={`${id}-decisions`}>Reviewed pins</h3>
        {profile.decisions.length === 0 ? (
          <p className="muted">No pins reviewed yet.</p>
        ) : (
          <ul className="approvals-rows">
            {profile.decisions.map((decision) => (
              <li key={decision.pinId} className="approvals-row">
                <span className="approvals-row__title">{decision.title || "Untitled pin"}</span>
                <span className={decision.decision === "approved" ? "badge badge--success" : "badge badge--danger"}>
                  {decision.decision === "approved" ? "Approved" : "Rejected"}
                </span>
                <span className="muted">
                  by {decision.reviewerEmail} on {plainTime(decision.decidedAtUTCTimestamp)}
                </span>
                {decision.comment ? <q className="approvals-row__comment">{decision.comment}</q> : null}
              </li>
            ))}
          </ul>
        )}
      </section>
    </li>
  );
}
