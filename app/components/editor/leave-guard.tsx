import * as Dialog from "@radix-ui/react-dialog";
import { useBlocker } from "@remix-run/react";
import { useEffect, type MutableRefObject } from "react";

/**
 * Warns before leaving with unsaved changes: the browser's own prompt when the
 * tab closes or reloads, and a dialog for links inside the app. `allow` lets a
 * navigation the editor starts on purpose through (e.g. to a copy it made).
 */
export function LeaveGuard({ when, allow }: { when: boolean; allow: MutableRefObject<boolean> }) {
  const blocker = useBlocker(({ currentLocation, nextLocation }) => when && !allow.current && currentLocation.pathname !== nextLocation.pathname);

  useEffect(() => {
    if (!when) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => window.removeEventListener("beforeunload", onBeforeUnload);
  }, [when]);

  return (
    <Dialog.Root open={blocker.state === "blocked"} onOpenChange={(open) => !open && blocker.state === "blocked" && blocker.reset()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog" role="alertdialog">
          <Dialog.Title className="dialog__title">Leave without saving?</Dialog.Title>
          <Dialog.Description className="dialog__text">Your changes to this template are not saved yet.</Dialog.Description>
          <div className="dialog__actions">
            <button type="button" className="button button--ghost" onClick={() => blocker.state === "blocked" && blocker.reset()}>
              Stay
            </button>
            <button type="button" className="button button--danger" onClick={() => blocker.state === "blocked" && blocker.proceed()}>
              Leave without saving
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
