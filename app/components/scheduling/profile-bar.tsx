import * as Dialog from "@radix-ui/react-dialog";
import { useMemo, useState } from "react";
import type { AuthorizedPinterestProfile } from "../../../contracts/pinterest/pinterest-connection.ts";
import { apiJson } from "../../lib/api-client.ts";
import { useApiQuery } from "../../lib/query.ts";
import { Spinner } from "../spinner.tsx";
import { useToast } from "../shell/toast.tsx";
import { schedulingKeys } from "./reads.ts";
import { failureText, type Pinterest } from "./use-pinterest.tsx";

const STATUS_TEXT: Record<AuthorizedPinterestProfile["status"], string | null> = {
  ok: null,
  reauth: "Needs reconnecting",
  blocked: "Blocked by Pinterest",
};

/**
 * The connected Pinterest profiles: which one is active, which need
 * reconnecting or are blocked (with Reconnect), connecting another one and
 * removing one.
 */
export function ProfileBar({ pinterest, active, onChoose }: { pinterest: Pinterest; active: string | null; onChoose(username: string): void }) {
  const toast = useToast();
  const { profiles, connect, reloadUser } = pinterest;
  const [removing, setRemoving] = useState<string | null>(null);
  const [pending, setPending] = useState<"connect" | "remove" | null>(null);
  const failing = profiles.some((profile) => profile.status !== "ok");

  // Why a profile fails (failingPinterestProfiles), shown next to its badge; read only while one does, and a failed read shows nothing.
  const failures = useApiQuery(
    schedulingKeys.failingProfiles(),
    (signal) => apiJson<{ failingPinterestProfiles: { username: string; reason: string }[] }>("/api/pinterestAPI/failingPinterestProfiles", { signal }),
    { enabled: failing },
  );
  const reasons: Record<string, string> = useMemo(
    () => Object.fromEntries((failures.data?.failingPinterestProfiles ?? []).map((entry) => [entry.username, entry.reason])),
    [failures.data],
  );

  async function startConnect() {
    setPending("connect");
    try {
      await connect();
    } catch (error) {
      toast({ title: "Unable to open Pinterest", description: failureText(error), kind: "error" });
      setPending(null);
    }
  }

  async function remove(username: string) {
    setPending("remove");
    try {
      await apiJson("/api/pinterestAPI/removeAuthorizedPinterestProfile", { json: { username } });
      toast({ title: `${username} disconnected`, description: "Its scheduled pins will not be posted.", kind: "success" });
      setRemoving(null);
      reloadUser();
    } catch (error) {
      toast({ title: `Unable to remove ${username}`, description: failureText(error), kind: "error" });
    } finally {
      setPending(null);
    }
  }

  return (
    <section className="card profile-bar" aria-labelledby="profile-bar-title">
      <h2 id="profile-bar-title" className="profile-bar__title">
        Pinterest profiles
      </h2>
      {profiles.length === 0 ? <p className="muted">Connect your Pinterest profile to schedule pins to its boards.</p> : null}
      <ul className="profile-bar__list">
        {profiles.map((profile) => {
          const isActive = profile.username === active;
          const problem = STATUS_TEXT[profile.status];
          return (
            <li key={profile.username} className={`profile-chip${isActive ? " profile-chip--active" : ""}`} aria-current={isActive ? "true" : undefined}>
              {profile.profileImage ? (
                <img className="profile-chip__avatar" src={profile.profileImage} alt="" width={40} height={40} />
              ) : (
                <span className="profile-chip__avatar profile-chip__avatar--initial" aria-hidden="true">
                  {profile.username.charAt(0).toUpperCase()}
                </span>
              )}
              <span className="profile-chip__text">
                <span className="profile-chip__name">{profile.username}</span>
                {isActive ? <span className="badge badge--success">Active</span> : null}
                {problem ? (
                  <span className="badge badge--warning" title={reasons[profile.username] || undefined}>
                    {problem}
                  </span>
                ) : null}
              </span>
              <span className="profile-chip__actions">
                {!isActive ? (
                  <button type="button" className="chip-button" onClick={() => onChoose(profile.username)} aria-label={`Use ${profile.username}`}>
                    Use
                  </button>
                ) : null}
                {problem ? (
                  <button
                    type="button"
                    className="chip-button"
                    disabled={pending !== null}
                    onClick={() => void startConnect()}
                    aria-label={`Reconnect ${profile.username}`}
                  >
                    Reconnect
                  </button>
                ) : null}
                <button
                  type="button"
                  className="chip-button chip-button--danger"
                  onClick={() => setRemoving(profile.username)}
                  aria-label={`Remove ${profile.username}`}
                >
                  Remove
                </button>
              </span>
            </li>
          );
        })}
      </ul>
      <button
        type="button"
        className={profiles.length === 0 ? "button button--primary" : "button button--ghost"}
        disabled={pending !== null}
        onClick={() => void startConnect()}
      >
        {pending === "connect" ? <Spinner label="Opening Pinterest" /> : null}
        {profiles.length === 0 ? "Connect a Pinterest profile" : "Connect another profile"}
      </button>

      <Dialog.Root open={removing !== null} onOpenChange={(open) => !open && pending === null && setRemoving(null)}>
        <Dialog.Portal>
          <Dialog.Overlay className="dialog-overlay" />
          <Dialog.Content className="dialog" role="alertdialog">
            <Dialog.Title className="dialog__title">Remove {removing}?</Dialog.Title>
            <Dialog.Description className="dialog__text">
              The profile is disconnected and the pins scheduled to it are not posted. You can connect it again later.
            </Dialog.Description>
            <div className="dialog__actions">
              <Dialog.Close asChild>
                <button type="button" className="button button--ghost" disabled={pending !== null}>
                  Cancel
                </button>
              </Dialog.Close>
              <button type="button" className="button button--danger" disabled={pending !== null} onClick={() => removing && void remove(removing)}>
                {pending === "remove" ? <Spinner label="Removing" /> : null} Remove
              </button>
            </div>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
    </section>
  );
}
