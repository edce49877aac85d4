import * as Dialog from "@radix-ui/react-dialog";
import { useCallback, useState, type FormEvent } from "react";
import { MAX_ADMIN_GRANT, type AdminUserDetail, type AuditLogPage } from "../../../contracts/admin/admin-users.ts";
import { serverMessage } from "../../lib/api-client.ts";
import { readFailure, useApiCache, useApiQuery } from "../../lib/query.ts";
import { DialogActions } from "../dialog-actions.tsx";
import { LoadStatus } from "../load-status.tsx";
import { useToast } from "../shell/toast.tsx";
import { AUDIT_LOG_KEY, auditLogKey, changeUserRole, getAuditLog, getUserDetail, grantUserCredits, localTime, setUserBlocked } from "./admin-api.ts";

type Pending = { kind: "grant"; amount: number; reason: string } | { kind: "role"; role: "user" | "admin" } | { kind: "block" } | { kind: "unblock" };

const newReference = () => `grant-${crypto.randomUUID()}`;
const signed = (amount: number) => (amount > 0 ? `+${amount}` : `−${Math.abs(amount)}`);

/**
 * One account in the admin's users section: what it has and did, and the admin's actions on it, each confirmed
 * first. Its history is the audit log's read for this account, so the audit log section sees each action too.
 */
export function UserDetailDialog({ userId, onClose, onChanged }: { userId: string; onClose(): void; onChanged(): void }) {
  const toast = useToast();
  const cache = useApiCache();
  const detailQuery = useApiQuery<AdminUserDetail>(["admin", "user", userId], () => getUserDetail(userId));
  const historyFilter = { targetKind: "user", targetId: userId };
  const historyQuery = useApiQuery<AuditLogPage>(auditLogKey(historyFilter), () => getAuditLog(historyFilter));
  const detail = detailQuery.data ?? null;
  const history = historyQuery.data?.entries ?? null;
  const failed = readFailure(detailQuery, "We could not load this account.") ?? readFailure(historyQuery, "We could not load this account.");
  const [pending, setPending] = useState<Pending | null>(null);
  const [busy, setBusy] = useState(false);
  const [amount, setAmount] = useState("");
  const [reason, setReason] = useState("");
  const [reference, setReference] = useState(newReference);
  // The question's Confirm button takes the focus as it appears (a ref called once per mount of the button).
  const focusOnMount = useCallback((button: HTMLButtonElement | null) => button?.focus(), []);

  function retry() {
    if (detailQuery.error) void detailQuery.refetch();
    if (historyQuery.error) void historyQuery.refetch();
  }

  function askGrant(event: FormEvent) {
    event.preventDefault();
    const credits = Number(amount);
    if (!Number.isInteger(credits) || credits < 1 || credits > MAX_ADMIN_GRANT) {
      toast({ kind: "error", title: "Credits were not granted", description: `Enter a whole number of credits from 1 to ${MAX_ADMIN_GRANT}.` });
      return;
    }
    if (!reason.trim()) {
      toast({ kind: "error", title: "Credits were not granted", description: "Please say why: the reason is kept in the credit history." });
      return;
    }
    setPending({ kind: "grant", amount: credits, reason: reason.trim() });
  }

  async function confirm() {
    if (!pending || !detail) return;
    setBusy(true);
    const who = detail.user.email;
    try {
      if (pending.kind === "grant") {
        const result = await grantUserCredits(userId, { amount: pending.amount, reason: pending.reason, reference });
        toast({
          kind: "success",
          title: result.granted ? `Granted ${pending.amount} credits to ${who}` : "These credits were already granted",
          description: `${result.remaining} credits left this month.`,
        });
        setAmount("");
        setReason("");
        setReference(newReference());
      } else if (pending.kind === "role") {
        await changeUserRole(userId, pending.role);
        toast({ kind: "success", title: pending.role === "admin" ? `${who} is now an admin` : `${who} is now a regular user` });
      } else {
        await setUserBlocked(userId, pending.kind === "block");
        toast({
          kind: "success",
          title: pending.kind === "block" ? `${who} is blocked` : `${who} is unblocked`,
          description: pending.kind === "block" ? "Their sessions have ended." : "They can log in again.",
        });
      }
      setPending(null);
      void cache.refresh(["admin", "user", userId]);
      void cache.refresh(AUDIT_LOG_KEY);
      onChanged();
    } catch (error) {
      toast({ kind: "error", title: "Nothing was changed", description: serverMessage(error) ?? "Please try again." });
    } finally {
      setBusy(false);
    }
  }

  const user = detail?.user;
  const question =
    !pending || !user
      ? ""
      : pending.kind === "grant"
        ? `Grant ${pending.amount} credits to ${user.email} for this month? Reason: ${pending.reason}`
        : pending.kind === "role"
          ? pending.role === "admin"
            ? `Make ${user.email} an admin? They will be able to do everything on this page.`
            : `Make ${user.email} a regular user? They will no longer reach this page.`
          : pending.kind === "block"
            ? `Block ${user.email}? They are logged out everywhere at once, cannot log in, and their scheduled pins wait until they are unblocked.`
            : `Unblock ${user.email}? They can log in again and their scheduled pins resume.`;

  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog admin-user-dialog" aria-describedby={undefined}>
          <Dialog.Title className="dialog__title">{user ? user.name || user.email : "Account"}</Dialog.Title>
          {failed || !detail || !user || !history ? (
            <LoadStatus failed={failed} onRetry={retry} loading="Loading the account…" />
          ) : (
            <>
              <dl className="admin-facts">
                <dt>E-mail</dt>
                <dd>
                  {user.email} {user.isEmailVerified ? "(verified)" : "(not verified)"}
                </dd>
                <dt>Handle</dt>
                <dd>{user.handle}</dd>
                <dt>Plan</dt>
                <dd>
                  {detail.user.planName} ({user.planStatus})
                </dd>
                <dt>Role</dt>
                <dd>{user.role === "admin" ? "Admin" : "User"}</dd>
                <dt>Status</dt>
                <dd>{user.blockedAt ? `Blocked since ${localTime(user.blockedAt)}` : "Active"}</dd>
                <dt>Joined</dt>
                <dd>{localTime(user.createdAt)}</dd>
                <dt>Credits</dt>
                <dd>
                  {detail.credits.remaining} left of {detail.credits.creditsPerMonth} this month (until {localTime(detail.credits.periodEnd)})
                </dd>
              </dl>

              {pending ? (
                <div className="admin-confirm" role="group" aria-labelledby="admin-confirm-question">
                  <p id="admin-confirm-question">{question}</p>
                  <div className="dialog__actions">
                    <button type="button" className="button button--ghost" disabled={busy} onClick={() => setPending(null)}>
                      Cancel
                    </button>
                    <button
                      ref={focusOnMount}
                      type="button"
                      className={`button ${pending.kind === "block" ? "button--danger" : "button--primary"}`}
                      disabled={busy}
                      onClick={confirm}
                    >
                      {busy ? "Working…" : "Confirm"}
                    </button>
                  </div>
                </div>
              ) : (
                <div className="admin-actions">
                  <form className="admin-grant" onSubmit={askGrant} aria-labelledby="admin-grant-title">
                    <h3 id="admin-grant-title">Grant credits</h3>
                    <div className="field">
                      <label className="field__label" htmlFor="admin-grant-amount">
                        Credits
                      </label>
                      <input
                        id="admin-grant-amount"
                        className="field__input"
                        type="number"
                        inputMode="numeric"
                        min={1}
                        max={MAX_ADMIN_GRANT}
                        step={1}
                        required
                        value={amount}
                        onChange={(event) => setAmount(event.target.value)}
                      />
                    </div>
                    <div className="field">
                      <label className="field__label" htmlFor="admin-grant-reason">
                        Reason
                      </label>
                      <input
                        id="admin-grant-reason"
                        className="field__input"
                        type="text"
                        maxLength={300}
                        required
                        value={reason}
                        onChange={(event) => setReason(event.target.value)}
                      />
                    </div>
                    <button type="submit" className="button button--primary">
                      Grant credits
                    </button>
                  </form>
                  <div className="admin-actions__row">
                    <button
                      type="button"
                      className="button button--ghost"
                      onClick={() => setPending({ kind: "role", role: user.role === "admin" ? "user" : "admin" })}
                    >
                      {user.role === "admin" ? "Make regular user" : "Make admin"}
                    </button>
                    {user.role === "user" &&
                      (user.blocked ? (
                        <button type="button" className="button button--ghost" onClick={() => setPending({ kind: "unblock" })}>
                          Unblock
                        </button>
                      ) : (
                        <button type="button" className="button button--danger" onClick={() => setPending({ kind: "block" })}>
                          Block
                        </button>
                      ))}
                  </div>
                </div>
              )}

              <h3>Credit history</h3>
              {detail.ledger.length === 0 ? (
                <p className="muted">No credits granted or spent yet.</p>
              ) : (
                <ul className="admin-list">
                  {detail.ledger.map((entry) => (
                    <li key={entry.id}>
                      <strong>{signed(entry.amount)}</strong> {entry.reason} <span className="muted small">{localTime(entry.createdAt)}</span>
                    </li>
                  ))}
                </ul>
              )}
              <h3>Pinterest profiles and shops</h3>
              {detail.pinterestProfiles.length + detail.shops.length === 0 ? (
                <p className="muted">Nothing connected.</p>
              ) : (
                <ul className="admin-list">
                  {detail.pinterestProfiles.map((profile) => (
                    <li key={profile.username}>
                      Pinterest: {profile.username}
                      {profile.isActive ? " (active)" : ""}
                      {profile.status !== "ok" ? ` (${profile.status === "blocked" ? "blocked by Pinterest" : "needs reconnecting"})` : ""}
                    </li>
                  ))}
                  {detail.shops.map((shop) => (
                    <li key={`${shop.shopType}-${shop.shopName}`}>
                      {shop.shopType}: {shop.shopName}
                      {shop.status !== "ok" ? " (needs reconnecting)" : ""}
                    </li>
                  ))}
                </ul>
              )}
              <h3>Recent pins</h3>
              {detail.pins.length === 0 ? (
                <p className="muted">No pins yet.</p>
              ) : (
                <ul className="admin-list">
                  {detail.pins.map((pin) => (
                    <li key={pin.id}>
                      {pin.action[0].toUpperCase() + pin.action.slice(1)}: {pin.title || "Untitled pin"}
                      {pin.pinterestProfile ? ` on ${pin.pinterestProfile}` : ""} <span className="muted small">{localTime(pin.createdAt)}</span>
                    </li>
                  ))}
                </ul>
              )}
              <h3>Recent sign-ins</h3>
              <ul className="admin-list">
                {detail.signIns.map((signIn) => (
                  <li key={signIn.createdAt}>
                    {localTime(signIn.createdAt)}, last seen {localTime(signIn.lastUsedAt)}
                    {signIn.ended ? " (ended)" : ""}
                    {signIn.userAgent ? <span className="muted small admin-section__who">{signIn.userAgent}</span> : null}
                  </li>
                ))}
              </ul>
              <h3>Admin actions on this account</h3>
              {history.length === 0 ? (
                <p className="muted">None yet.</p>
              ) : (
                <ul className="admin-list">
                  {history.map((entry) => (
                    <li key={entry.id}>
                      {entry.summary} <span className="muted small">{`${localTime(entry.createdAt)} by ${entry.adminEmail}`}</span>
                    </li>
                  ))}
                </ul>
              )}
            </>
          )}
          <DialogActions close="Close" />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
