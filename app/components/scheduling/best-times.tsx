import { useState } from "react";
import type { BestTimes } from "../../../contracts/pinterest/analytics.ts";
import type { SchedulingSettings } from "../../../contracts/pinterest/scheduling.ts";
import { analyticsKeys, getBestTimes, sameWindows, type Windows, windowsText } from "../../lib/pinterest/analytics.ts";
import { saveSchedulingSettings } from "../../lib/pinterest/scheduling-api.ts";
import { timeZoneLabel } from "../../lib/pinterest/times.ts";
import { failureOf, useApiQuery } from "../../lib/query.ts";
import { useToast } from "../shell/toast.tsx";
import { Spinner } from "../spinner.tsx";
import { failureText } from "./use-pinterest.tsx";

/**
 * The posting times suggested from the profile's own audience (issue 41; GET /api/analytics/bestTimes), beside the
 * daily posting times: the best hours, the note when they are the defaults, and "Use these times", which saves them
 * as the profile's posting windows. Nothing shows while they load or when they cannot be read.
 */
export function BestTimesSuggestion({
  username,
  settings,
  onSaved,
}: {
  username: string;
  settings: SchedulingSettings;
  onSaved(settings: SchedulingSettings): void;
}) {
  const toast = useToast();
  const query = useApiQuery(analyticsKeys.bestTimes(username), (signal) => getBestTimes(username, signal));
  const [saving, setSaving] = useState(false);
  const best = query.data;
  if (!best || failureOf(query)) return null;

  const suggested: Windows = { windowOneTimes: best.windowOneTimes, windowTwoTimes: best.windowTwoTimes };
  const inUse = sameWindows(suggested, settings);

  async function use(best: BestTimes) {
    const next: SchedulingSettings = { ...settings, windowOneTimes: best.windowOneTimes, windowTwoTimes: best.windowTwoTimes };
    setSaving(true);
    try {
      await saveSchedulingSettings(next, username);
      onSaved(next);
      toast({
        title: "Posting times changed",
        description: `${username} now posts from ${windowsText(next)} (was ${windowsText(settings)}). New pins take the new times; Reset times moves the queued ones.`,
        kind: "success",
      });
    } catch (error) {
      toast({ title: "Unable to use these times", description: failureText(error), kind: "error" });
    } finally {
      setSaving(false);
    }
  }

  return (
    <section className="best-times" aria-labelledby="best-times-title">
      <h3 id="best-times-title" className="best-times__title">
        Suggested posting times
      </h3>
      <p className="best-times__text">
        Post from <strong data-suggested>{windowsText(suggested)}</strong> ({timeZoneLabel(best.timeZone)}).
      </p>
      {best.note ? (
        <p className="field__hint" data-based-on={best.basedOn}>
          {best.note}
        </p>
      ) : null}
      <button type="button" className="button button--ghost" disabled={saving || inUse} onClick={() => void use(best)}>
        {saving ? <Spinner label="Saving" /> : null} {inUse ? "These times are in use" : "Use these times"}
      </button>
    </section>
  );
}
