import * as Dialog from "@radix-ui/react-dialog";
import { useId, useRef, useState } from "react";
import type { WordPressKeyResponse, WordPressKeySummary, WordPressNewKeyResponse } from "../../../contracts/shops/wordpress.ts";
import { apiJson, ApiError } from "../../lib/api-client.ts";
import { useApiCache, useApiQuery } from "../../lib/query.ts";
import { DialogActions } from "../dialog-actions.tsx";
import { useToast } from "../shell/toast.tsx";

/**
 * The WordPress access key on /profile (issue 20, docs/decisions/054): create,
 * copy, rotate and revoke. The whole key is shown once, right after it is made
 * or rotated; afterwards only its first characters ("pbwp_abcd…"). The signed-in
 * user's credentials say at once whether there is a key; its dates are read after.
 */

const KEY_KEY = ["wordpress", "accessKey"];

type Change = "rotate" | "revoke";

const CONFIRM: Record<Change, { title: string; text: string; action: string }> = {
  rotate: {
    title: "Rotate your WordPress access key?",
    text: "You get a new key, and the current one stops working at once. Paste the new key into the plugin's settings on your WordPress site.",
    action: "Rotate key",
  },
  revoke: {
    title: "Revoke your WordPress access key?",
    text: "The key stops working at once: your WordPress site can no longer send posts here until you create a new key.",
    action: "Revoke key",
  },
};

/** A time in the user's own time zone, in plain words. */
function when(iso: string): string {
  return new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));
}

function problemOf(error: unknown): string {
  return error instanceof ApiError ? error.message : "We could not reach the server. Please check your connection and try again.";
}

export function WordPressKeyCard({ shownKey }: { shownKey: string | null }) {
  const { toast } = useToast();
  const titleId = useId();
  const keyFieldId = useId();
  const keyInput = useRef<HTMLInputElement>(null);
  const cache = useApiCache();
  const query = useApiQuery<WordPressKeyResponse>(KEY_KEY, () => apiJson<WordPressKeyResponse>("/api/wordpress/accessKey"));
  // Until the key is read (or when it cannot be: the dates are extra), the credentials say whether there is one.
  const summary: WordPressKeySummary | null = query.data
    ? query.data.wordpressAccessKey
    : shownKey
      ? { shown: shownKey, createdAt: "", lastUsedAt: null }
      : null;
  const setSummary = (next: WordPressKeySummary | null) => cache.set<WordPressKeyResponse>(KEY_KEY, () => ({ wordpressAccessKey: next }));
  const [newKey, setNewKey] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [confirming, setConfirming] = useState<Change | null>(null);

  async function issue(kind: "create" | "rotate") {
    setPending(true);
    try {
      const answer = await apiJson<WordPressNewKeyResponse>(kind === "create" ? "/api/wordpress/accessKey" : "/api/wordpress/accessKey/rotate", {
        method: "POST",
      });
      setSummary(answer.wordpressAccessKey);
      setNewKey(answer.key);
      setConfirming(null);
      toast({
        title: kind === "create" ? "Your WordPress access key is ready. Copy it now." : "Your WordPress access key was rotated. The old key no longer works.",
        kind: "success",
      });
    } catch (error) {
      toast({ title: kind === "create" ? "Unable to create the access key" : "Unable to rotate the access key", description: problemOf(error), kind: "error" });
    } finally {
      setPending(false);
    }
  }

  async function revoke() {
    setPending(true);
    try {
      await apiJson<WordPressKeyResponse>("/api/wordpress/accessKey", { method: "DELETE" });
      setSummary(null);
      setNewKey(null);
      setConfirming(null);
      toast({ title: "Your WordPress access key was revoked.", kind: "success" });
    } catch (error) {
      toast({ title: "Unable to revoke the access key", description: problemOf(error), kind: "error" });
    } finally {
      setPending(false);
    }
  }

  async function copy() {
    if (!newKey) return;
    try {
      await navigator.clipboard.writeText(newKey);
      toast({ title: "Access key copied.", kind: "success" });
    } catch {
      // No clipboard access: leave the key selected to copy by hand.
      keyInput.current?.select();
      toast({ title: "Press Ctrl+C (or ⌘C on a Mac) to copy the selected key.", kind: "info" });
    }
  }

  const dialog = confirming ? CONFIRM[confirming] : null;
  return (
    <section className="card profile-block wordpress-key" aria-labelledby={titleId} aria-busy={pending}>
      <h2 id={titleId}>WordPress</h2>
      <p>
        Send your blog posts here from WordPress: the plugin turns each post into pins with your current design settings, as a draft or straight into a board's
        queue.
      </p>
      {newKey ? (
        <div className="field wordpress-key__new">
          <label className="field__label" htmlFor={keyFieldId}>
            Your new access key
          </label>
          <div className="copy-field">
            <input
              ref={keyInput}
              className="field__input"
              id={keyFieldId}
              type="text"
              readOnly
              value={newKey}
              spellCheck={false}
              autoComplete="off"
              onFocus={(event) => event.currentTarget.select()}
              aria-describedby={`${keyFieldId}-note`}
            />
            <button type="button" className="button button--primary" onClick={() => void copy()}>
              Copy key
            </button>
          </div>
          <p className="muted" id={`${keyFieldId}-note`}>
            Copy it now and paste it into the plugin&apos;s settings: for your safety it will not be shown again.
          </p>
        </div>
      ) : null}
      {summary ? (
        <>
          <dl className="facts">
            <div>
              <dt>Access key</dt>
              <dd data-testid="wordpress-key-shown" className="wordpress-key__shown">
                {summary.shown}
              </dd>
            </div>
            {summary.createdAt ? (
              <div>
                <dt>Created</dt>
                <dd>{when(summary.createdAt)}</dd>
              </div>
            ) : null}
            {summary.createdAt ? (
              <div>
                <dt>Last used</dt>
                <dd>{summary.lastUsedAt ? when(summary.lastUsedAt) : "Not used yet"}</dd>
              </div>
            ) : null}
          </dl>
          <div className="wordpress-key__actions">
            <button type="button" className="button button--ghost" disabled={pending} onClick={() => setConfirming("rotate")}>
              Rotate key
            </button>
            <button type="button" className="button button--danger" disabled={pending} onClick={() => setConfirming("revoke")}>
              Revoke key
            </button>
          </div>
        </>
      ) : (
        <>
          <p className="muted">You have no access key yet.</p>
          <button type="button" className="button button--primary" disabled={pending} onClick={() => void issue("create")}>
            {pending ? "Creating…" : "Create access key"}
          </button>
        </>
      )}
      <Dialog.Root open={dialog !== null} onOpenChange={(open) => !open && !pending && setConfirming(null)}>
        <Dialog.Portal>
          <Dialog.Overlay className="dialog-overlay" />
          <Dialog.Content className="dialog">
            <Dialog.Title className="dialog__title">{dialog?.title}</Dialog.Title>
            <Dialog.Description className="dialog__text">{dialog?.text}</Dialog.Description>
            <DialogActions>
              <button
                type="button"
                className={`button ${confirming === "revoke" ? "button--danger" : "button--primary"}`}
                disabled={pending}
                onClick={() => void (confirming === "revoke" ? revoke() : issue("rotate"))}
              >
                {pending ? "Working…" : dialog?.action}
              </button>
            </DialogActions>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
    </section>
  );
}
