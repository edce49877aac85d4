import * as Dialog from "@radix-ui/react-dialog";
import { DialogActions } from "../dialog-actions.tsx";

/** A question asked once before a billing change: what will happen, in the server's words, then go on or not. */
export interface BillingQuestion {
  title: string;
  text: string;
  confirmLabel: string;
  /** The button that leaves everything as it is. */
  keepLabel: string;
}

/**
 * The billing confirmation (decision 082): before a checkout, a switch, a redeemed code or a cancellation, says
 * what happens to the current plan and its credits. Loaded when first asked (not with the page).
 */
export default function ConfirmDialog({ question, onAnswer }: { question: BillingQuestion; onAnswer: (goOn: boolean) => void }) {
  return (
    <Dialog.Root open onOpenChange={(open) => !open && onAnswer(false)}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog" role="alertdialog">
          <Dialog.Title className="dialog__title">{question.title}</Dialog.Title>
          <Dialog.Description className="dialog__text" data-testid="billing-confirm-text">
            {question.text}
          </Dialog.Description>
          <DialogActions close={question.keepLabel}>
            <button type="button" className="button button--primary" onClick={() => onAnswer(true)}>
              {question.confirmLabel}
            </button>
          </DialogActions>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
