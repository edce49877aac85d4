import * as Dialog from "@radix-ui/react-dialog";
import { useNavigate } from "@remix-run/react";
import { useState } from "react";
import { apiJson, ApiError } from "../../lib/api-client.ts";
import { useAuth } from "../../lib/auth.tsx";
import { FormAlert, SubmitButton, TextField } from "../auth/form-controls.tsx";
import { problemMessage } from "../auth/use-account-form.ts";
import { useToast } from "../shell/toast.tsx";

const CONFIRMATION = "DELETE";
const NOT_DELETED = "Unable to delete user account";

/** The danger zone: deleting the account, confirmed by typing DELETE; then a full logout (spec section 4). */
export function DeleteAccount() {
  const { logOut } = useAuth();
  const { toast } = useToast();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState("");
  const [pending, setPending] = useState(false);
  const [problem, setProblem] = useState<{ reason: string | null } | null>(null);

  function openChange(next: boolean) {
    if (pending) return;
    setOpen(next);
    if (!next) {
      setTyped("");
      setProblem(null);
    }
  }

  async function remove() {
    setPending(true);
    setProblem(null);
    try {
      await apiJson("/api/user/deleteUserAccount", { method: "DELETE" });
    } catch (error) {
      setProblem({ reason: error instanceof ApiError && error.message === NOT_DELETED ? null : problemMessage(error) });
      setPending(false);
      return;
    }
    await logOut();
    setPending(false);
    setOpen(false);
    toast({ title: "Your account has been deleted.", kind: "success" });
    navigate("/", { replace: true });
  }

  return (
    <section className="card profile-block danger-zone" aria-labelledby="danger-title">
      <h2 id="danger-title">Danger zone</h2>
      <p>Deleting your account removes your profile, pins, templates and uploads for good. It cannot be undone.</p>
      <Dialog.Root open={open} onOpenChange={openChange}>
        <Dialog.Trigger asChild>
          <button type="button" className="button button--danger">
            Delete account
          </button>
        </Dialog.Trigger>
        <Dialog.Portal>
          <Dialog.Overlay className="dialog-overlay" />
          <Dialog.Content className="dialog">
            <Dialog.Title className="dialog__title">Delete your account?</Dialog.Title>
            <Dialog.Description className="dialog__text">
              Your profile, pins, templates and uploads will be deleted for good. Type {CONFIRMATION} to confirm.
            </Dialog.Description>
            <form
              noValidate
              onSubmit={(event) => {
                event.preventDefault();
                if (typed === CONFIRMATION && !pending) void remove();
              }}
            >
              {problem ? (
                <FormAlert>
                  {NOT_DELETED}
                  {problem.reason ? <span className="notice__detail">{problem.reason}</span> : null}
                </FormAlert>
              ) : null}
              <TextField
                label={`Type ${CONFIRMATION} to confirm`}
                name="confirmation"
                autoComplete="off"
                autoCapitalize="characters"
                spellCheck={false}
                value={typed}
                onChange={(event) => setTyped(event.target.value)}
              />
              <div className="dialog__actions">
                <Dialog.Close asChild>
                  <button type="button" className="button button--ghost" disabled={pending}>
                    Cancel
                  </button>
                </Dialog.Close>
                <SubmitButton variant="danger" pending={pending} disabled={typed !== CONFIRMATION}>
                  Delete my account
                </SubmitButton>
              </div>
            </form>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
    </section>
  );
}
