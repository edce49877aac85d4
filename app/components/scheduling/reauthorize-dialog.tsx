import * as Dialog from "@radix-ui/react-dialog";
import { useState } from "react";
import { reauthorizePrompt } from "../../lib/pinterest/connection.ts";
import { Spinner } from "../spinner.tsx";

/**
 * The re-authorisation prompt (spec section 8): 'We were unable to connect to
 * your Pinterest profile ... Would you like to reauthorize it now?'.
 * Reauthorize leaves for Pinterest's consent page; Cancel aborts what was
 * being done.
 */
export function ReauthorizeDialog({
  username,
  onReauthorize,
  onCancel,
}: {
  username: string | null;
  onReauthorize(username: string): Promise<void>;
  onCancel(): void;
}) {
  const [leaving, setLeaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <Dialog.Root
      open={username !== null}
      onOpenChange={(open) => {
        if (!open && !leaving) {
          setError(null);
          onCancel();
        }
      }}
    >
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog" role="alertdialog">
          <Dialog.Title className="dialog__title">Reconnect Pinterest</Dialog.Title>
          <Dialog.Description className="dialog__text">{username ? reauthorizePrompt(username) : ""}</Dialog.Description>
          {error ? (
            <p className="notice notice--error" role="alert">
              {error}
            </p>
          ) : null}
          <div className="dialog__actions">
            <Dialog.Close asChild>
              <button type="button" className="button button--ghost" disabled={leaving}>
                Cancel
              </button>
            </Dialog.Close>
            <button
              type="button"
              className="button button--primary"
              disabled={leaving}
              onClick={async () => {
                if (!username) return;
                setLeaving(true);
                setError(null);
                try {
                  await onReauthorize(username);
                } catch (failure) {
                  setError(failure instanceof Error ? failure.message : "Please try again.");
                  setLeaving(false);
                }
              }}
            >
              {leaving ? <Spinner label="Opening Pinterest" /> : null} Reauthorize
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
