import * as RadixToast from "@radix-ui/react-toast";
import { ACTION_DURATION_MS, DURATION_MS, type ShownToast } from "./toast-options.ts";

/** The toasts on screen (Radix): loaded with the first toast of a visit (ToastProvider in ./toast.tsx). */
export default function ToastRegion({ toasts, forget }: { toasts: ShownToast[]; forget(id: number): void }) {
  return (
    <RadixToast.Provider swipeDirection="right">
      {toasts.map((toast) => (
        <RadixToast.Root
          key={toast.id}
          className={`toast toast--${toast.kind}`}
          type={toast.kind === "error" ? "foreground" : "background"}
          duration={toast.action ? ACTION_DURATION_MS : DURATION_MS[toast.kind]}
          onOpenChange={(open) => {
            if (!open) forget(toast.id);
          }}
        >
          <RadixToast.Title className="toast__title">{toast.title}</RadixToast.Title>
          {toast.description ? <RadixToast.Description className="toast__description">{toast.description}</RadixToast.Description> : null}
          {toast.action ? (
            <RadixToast.Action className="button button--ghost toast__action" altText={toast.action.label} onClick={toast.action.onAction}>
              {toast.action.label}
            </RadixToast.Action>
          ) : null}
          <RadixToast.Close className="toast__close" aria-label="Dismiss notification">
            <span aria-hidden="true">×</span>
          </RadixToast.Close>
        </RadixToast.Root>
      ))}
      <RadixToast.Viewport className="toast-viewport" />
    </RadixToast.Provider>
  );
}
