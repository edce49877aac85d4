import * as Dialog from "@radix-ui/react-dialog";
import type { ReactNode } from "react";

/**
 * A dialog's row of buttons: the button that closes it (Cancel by default)
 * and the dialog's own actions after it.
 */
export function DialogActions({ close = "Cancel", closeKind = "ghost", children }: { close?: string; closeKind?: "ghost" | "primary"; children?: ReactNode }) {
  return (
    <div className="dialog__actions">
      <Dialog.Close asChild>
        <button type="button" className={`button button--${closeKind}`}>
          {close}
        </button>
      </Dialog.Close>
      {children}
    </div>
  );
}
