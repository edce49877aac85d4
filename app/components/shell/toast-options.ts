// What a toast is and how long it stays: shared by the provider (./toast.tsx) and the lazily
// loaded Radix region (./toast-region.tsx), which would otherwise import each other.
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

/**
 * Fired on window with each success toast: an action the user asked for has finished. What waits for a calm
 * moment (the referral modal, decision 038) waits for this, never for a page load.
 */
export const ACTION_FINISHED_EVENT = "pinboard:action-finished";

let lastActionFinished = 0;

/** Says that an action finished: the event now, and its time for what starts listening a moment later. */
export function actionFinished() {
  lastActionFinished = Date.now();
  window.dispatchEvent(new Event(ACTION_FINISHED_EVENT));
}

/** When the last action finished (epoch ms; 0 for none in this page). */
export const lastActionFinishedAt = () => lastActionFinished;
