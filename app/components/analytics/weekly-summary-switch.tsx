import { useId, useState } from "react";
import { analyticsKeys, getWeeklySummary, setWeeklySummary } from "../../lib/pinterest/analytics.ts";
import { useApiCache, useApiQuery } from "../../lib/query.ts";
import { failureText } from "../scheduling/use-pinterest.tsx";
import { useToast } from "../shell/toast.tsx";

/** The opt-in weekly summary e-mail (issue 41): off until the user turns it on; every e-mail has an unsubscribe link. */
export function WeeklySummarySwitch() {
  const id = useId();
  const toast = useToast();
  const cache = useApiCache();
  const query = useApiQuery(analyticsKeys.weeklySummary(), (signal) => getWeeklySummary(signal));
  const [switching, setSwitching] = useState<boolean | null>(null);
  const enabled = switching ?? query.data?.enabled ?? false;

  const change = async (next: boolean) => {
    setSwitching(next);
    try {
      const answer = await setWeeklySummary(next);
      cache.set(analyticsKeys.weeklySummary(), () => answer);
      toast({
        title: answer.enabled ? "Weekly summary on" : "Weekly summary off",
        description: answer.enabled ? "Each Monday we e-mail you last week's figures." : "We will not e-mail you a weekly summary.",
        kind: "success",
      });
    } catch (error) {
      toast({ title: "Unable to change the weekly summary", description: failureText(error), kind: "error" });
    } finally {
      setSwitching(null);
    }
  };

  return (
    <section className="card analytics-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Weekly summary</h2>
      <label className="analytics-switch">
        <input
          type="checkbox"
          // biome-ignore lint/a11y/useAriaPropsForRole: a native checkbox: its checked state is the switch's, aria-checked would only repeat it.
          role="switch"
          checked={enabled}
          disabled={switching !== null || query.data === undefined}
          aria-busy={switching !== null}
          aria-describedby={`${id}-hint`}
          onChange={(event) => void change(event.target.checked)}
        />
        <span>E-mail me a weekly summary</span>
      </label>
      <p className="muted small" id={`${id}-hint`}>
        Last week's impressions, saves and outbound clicks, and your best pins, once a week. Every e-mail has a link to stop them.
      </p>
    </section>
  );
}
