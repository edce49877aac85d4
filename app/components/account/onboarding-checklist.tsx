import { Link } from "@remix-run/react";
import { useRef, useState } from "react";
import type { OnboardingStepView } from "../../../contracts/accounts/user.ts";
import { apiJson } from "../../lib/api-client.ts";
import { useAuth } from "../../lib/auth.tsx";
import { problemMessage } from "../auth/use-account-form.ts";
import { useHydrated } from "../auth/use-hydrated.ts";
import { useToast } from "../shell/toast.tsx";

/**
 * The onboarding checklist (spec section 2: 8 steps) with its progress. A tick
 * shows at once and is saved in the background; if saving fails it is undone.
 */
export function OnboardingChecklist({ steps: saved }: { steps: OnboardingStepView[] }) {
  const { reloadUser } = useAuth();
  const { toast } = useToast();
  const [steps, setSteps] = useState(saved);
  /** Ticks being saved: counted here for the saves themselves, and in `saving` for rendering. */
  const inFlight = useRef(0);
  const [saving, setSaving] = useState(0);
  const hydrated = useHydrated();

  // Fresh credentials (another tab, a step done elsewhere) win, unless a tick is still being saved (during render).
  const [seen, setSeen] = useState(saved);
  if (seen !== saved) {
    setSeen(saved);
    if (saving === 0) setSteps(saved);
  }

  const mark = (name: string, isChecked: boolean) => setSteps((current) => current.map((step) => (step.name === name ? { ...step, isChecked } : step)));

  async function toggle(name: string, isChecked: boolean) {
    mark(name, isChecked);
    inFlight.current += 1;
    setSaving(inFlight.current);
    try {
      const answer = await apiJson<{ onboardingChecklist: OnboardingStepView[] }>("/api/user/setOnboardingChecklist", {
        json: { onboardingChecklist: [{ name, isChecked }] },
      });
      inFlight.current -= 1;
      setSaving(inFlight.current);
      if (inFlight.current === 0) {
        setSteps(answer.onboardingChecklist);
        reloadUser();
      }
    } catch (error) {
      inFlight.current -= 1;
      setSaving(inFlight.current);
      mark(name, !isChecked);
      toast({ title: "Your checklist was not saved.", description: problemMessage(error), kind: "error" });
    }
  }

  const done = steps.filter((step) => step.isChecked).length;
  return (
    <section className="card onboarding" aria-labelledby="checklist-title">
      <h2 id="checklist-title">Your checklist</h2>
      <div className="progress">
        <p className="progress__label" id="checklist-progress">
          {done} of {steps.length} steps done
        </p>
        <div
          className="progress__track"
          role="progressbar"
          aria-labelledby="checklist-progress"
          aria-valuemin={0}
          aria-valuemax={steps.length}
          aria-valuenow={done}
        >
          <span className="progress__fill" style={{ width: `${steps.length ? (done / steps.length) * 100 : 0}%` }} />
        </div>
      </div>
      <ol className="checklist">
        {steps.map((step) => {
          const id = `onboarding-step-${step.name}`;
          return (
            <li key={step.name} className={step.isChecked ? "checklist__step checklist__step--done" : "checklist__step"}>
              <input
                className="checklist__box"
                type="checkbox"
                id={id}
                checked={step.isChecked}
                disabled={!hydrated}
                onChange={(event) => void toggle(step.name, event.target.checked)}
              />
              <label className="checklist__label" htmlFor={id}>
                {step.label}
              </label>
              <Link className="checklist__link" to={step.link}>
                {step.isChecked ? "Open" : "Start"}
                <span className="visually-hidden">: {step.label}</span>
              </Link>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
