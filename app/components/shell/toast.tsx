import * as RadixToast from "@radix-ui/react-toast";
import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from "react";

export type ToastKind = "success" | "error" | "info";

export interface ToastOptions {
  title: string;
  description?: string;
  kind: ToastKind;
  /** One button that undoes or follows up what the toast reports ("Undo"); such toasts stay longer. */
  action?: { label: string; onAction(): void };
}

/**
 * Shows a toast. Call it directly (`const toast = useToast(); toast({...})`)
 * or destructure it (`const { toast } = useToast()`): both are the same function.
 */
export interface Toaster {
  (options: ToastOptions): void;
  toast(options: ToastOptions): void;
}

interface ShownToast extends ToastOptions {
  id: number;
}

/** Errors stay longer: the user may need to read them twice; so do toasts with a button to press. */
const DURATION_MS: Record<ToastKind, number> = { success: 5000, info: 5000, error: 10000 };
const ACTION_DURATION_MS = 12000;

const ToastContext = createContext<Toaster | null>(null);

/** Toasts for the whole app: a polite live region bottom right, swipe or Escape to dismiss. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<ShownToast[]>([]);
  const nextId = useRef(0);

  const show = useCallback((options: ToastOptions) => {
    nextId.current += 1;
    const id = nextId.current;
    setToasts((shown) => [...shown, { ...options, id }]);
  }, []);

  const toaster = useMemo<Toaster>(() => Object.assign((options: ToastOptions) => show(options), { toast: show }), [show]);

  const forget = (id: number) => setToasts((shown) => shown.filter((toast) => toast.id !== id));

  return (
    <ToastContext.Provider value={toaster}>
      <RadixToast.Provider swipeDirection="right">
        {children}
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
    </ToastContext.Provider>
  );
}

export function useToast(): Toaster {
  const toaster = useContext(ToastContext);
  if (!toaster) throw new Error("useToast outside ToastProvider (the SiteShell mounts it)");
  return toaster;
}
