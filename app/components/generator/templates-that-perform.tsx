import { useCallback, useId, useMemo, useSyncExternalStore } from "react";
import { type FamilyPerformance, TEMPLATE_FAMILY_LABELS } from "../../../contracts/pinterest/analytics.ts";
import { analyticsKeys, getFamilyPerformance } from "../../lib/pinterest/analytics.ts";
import { useApiQuery } from "../../lib/query.ts";
import { readStored, writeStored } from "../shell/browser-storage.ts";

/**
 * "Templates that perform" (issue 41): once the user's own figures are enough (GET /api/analytics/families), the
 * generator's random template choice leans towards their best template families. On unless the user turns it off in
 * the design drawer; the choice is remembered in this browser.
 */

const KEY = "pinboard:templatesThatPerform";
const listeners = new Set<() => void>();

function subscribe(listener: () => void) {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => event.key === KEY && listener();
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}

const isOn = () => readStored("local", KEY) !== "off";

/** A family as people read it ("Full picture"), in a sentence. */
const familyName = (family: string) => (TEMPLATE_FAMILY_LABELS[family as keyof typeof TEMPLATE_FAMILY_LABELS] ?? family.replace(/-/g, " ")).toLowerCase();

export function useTemplatesThatPerform() {
  const query = useApiQuery(analyticsKeys.families(), (signal) => getFamilyPerformance(signal), { staleTime: 10 * 60_000 });
  const on = useSyncExternalStore(subscribe, isOn, () => true);
  const setOn = useCallback((next: boolean) => {
    writeStored("local", KEY, next ? "on" : "off");
    for (const listener of listeners) listener();
  }, []);
  const performance: FamilyPerformance | undefined = query.data;
  const familyWeights = useMemo(
    () => (on && performance?.enough ? Object.fromEntries(performance.families.map((entry) => [entry.family, entry.weight])) : undefined),
    [on, performance],
  );
  return { performance, on, setOn, familyWeights };
}

/** The drawer's sentence and off switch; nothing until there are enough figures to lean on. */
export function TemplatesThatPerform() {
  const id = useId();
  const { performance, on, setOn } = useTemplatesThatPerform();
  if (!performance?.enough || performance.families.length === 0) return null;
  const best = [...performance.families]
    .sort((a, b) => b.weight - a.weight)
    .slice(0, 2)
    .map((entry) => familyName(entry.family));
  return (
    <div className="check-field templates-that-perform">
      <input
        id={id}
        type="checkbox"
        // biome-ignore lint/a11y/useAriaPropsForRole: a native checkbox: its checked state is the switch's, aria-checked would only repeat it.
        role="switch"
        checked={on}
        onChange={(event) => setOn(event.target.checked)}
        aria-describedby={`${id}-hint`}
      />
      <label htmlFor={id}>Lean towards templates that perform</label>
      <p id={`${id}-hint`} className="field__hint">
        Random templates favour the families your pins do best with on Pinterest ({best.join(" and ")}).
      </p>
    </div>
  );
}
