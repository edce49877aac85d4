import { useCallback, useState, type ReactNode } from "react";
import { LazyPart, lazyWithTimeout } from "../lazy-part.tsx";
import { getPlanChangePreview } from "./billing-api.ts";
import type { BillingQuestion } from "./confirm-dialog.tsx";

const ConfirmDialog = lazyWithTimeout(() => import("./confirm-dialog.tsx"));

/**
 * Asking before a billing change (decision 082): `ask` shows the question and answers whether the person went on;
 * `askPlanChange` first asks the server what taking a plan or redeeming a code would do, and asks only when it
 * changes something of the current plan or carries credits used this month (a Free user with nothing used goes
 * straight on). Render `dialog` in the page.
 */
export function useBillingConfirm(): {
  ask: (question: BillingQuestion) => Promise<boolean>;
  askPlanChange: (target: { planId: string } | { redemptionCode: string }, confirmLabel: string) => Promise<boolean>;
  dialog: ReactNode;
} {
  const [pending, setPending] = useState<{ question: BillingQuestion; resolve: (goOn: boolean) => void } | null>(null);
  const ask = useCallback((question: BillingQuestion) => new Promise<boolean>((resolve) => setPending({ question, resolve })), []);
  const askPlanChange = useCallback(
    async (target: { planId: string } | { redemptionCode: string }, confirmLabel: string) => {
      const preview = await getPlanChangePreview(target);
      if (!preview.confirm) return true;
      return ask({ title: "What happens to your plan", text: preview.message, confirmLabel, keepLabel: "Go back" });
    },
    [ask],
  );
  const answer = (goOn: boolean) => {
    pending?.resolve(goOn);
    setPending(null);
  };
  const dialog = pending ? (
    <LazyPart>
      <ConfirmDialog question={pending.question} onAnswer={answer} />
    </LazyPart>
  ) : null;
  return { ask, askPlanChange, dialog };
}
