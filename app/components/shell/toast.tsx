import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from "react";
import { LazyPart, lazyWithTimeout } from "../lazy-part.tsx";

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

export interface ShownToast extends ToastOptions {
  id: number;
}

/** Errors stay longer: the user may need to read them twice; so do toasts with a button to press. */
export const DURATION_MS: Record<ToastKind, number> = { success: 5000, info: 5000, error: 10000 };
export const ACTION_DURATION_MS = 12000;

const ToastContext = createContext<Toaster | null>(null);

/**
 * The Radix toasts themselves (app/components/shell/toast-region.tsx): their code loads with the
 * first toast, not with every page (issue 17's JavaScript budget). Toasts asked for meanwhile wait
 * in the state below and show once it is there.
 */
const ToastRegion = lazyWithTimeout(() => import("./toast-region.tsx"));

/** Toasts for the whole app: a polite live region bottom right, swipe or Escape to dismiss. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<ShownToast[]>([]);
  const [used, setUsed] = useState(false);
  const nextId = useRef(0);

  const show = useCallback((options: ToastOptions) => {
    nextId.current += 1;
    const id = nextId.current;
    setUsed(true);
    setToasts((shown) => [...shown, { ...options, id }]);
  }, []);

  const toaster = useMemo<Toaster>(() => Object.assign((options: ToastOptions) => show(options), { toast: show }), [show]);

  const forget = useCallback((id: number) => setToasts((shown) => shown.filter((toast) => toast.id !== id)), []);

  return (
    <ToastContext.Provider value={toaster}>
      {children}
      {used ? (
        <LazyPart quiet>
          <ToastRegion toasts={toasts} forget={forget} />
        </LazyPart>
      ) : null}
    </ToastContext.Provider>
  );
}

export function useToast(): Toaster {
  const toaster = useContext(ToastContext);
  if (!toaster) throw new Error("useToast outside ToastProvider (the SiteShell mounts it)");
  return toaster;
}
