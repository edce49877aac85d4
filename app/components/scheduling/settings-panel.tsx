import { useId, useMemo, useState, type FormEvent } from "react";
import { SchedulingSettings } from "../../../contracts/pinterest/scheduling.ts";
import { saveSchedulingSettings } from "../../lib/pinterest/scheduling-api.ts";
import { clockOf, dailyTimes, secondsOfClock, timeZoneLabel, timeZoneOptions } from "../../lib/pinterest/times.ts";
import { Spinner } from "../spinner.tsx";
import { BestTimesSuggestion } from "./best-times.tsx";
import { useToast } from "../shell/toast.tsx";
import { failureText } from "./use-pinterest.tsx";
import { validateInput } from "../../lib/forms.ts";

interface Draft {
  pinsPerDay: string;
  oneStart: string;
  oneEnd: string;
  useTwo: boolean;
  twoStart: string;
  twoEnd: string;
  zone: string;
  minutes: string;
}

function draftOf(settings: SchedulingSettings): Draft {
  const two = settings.windowTwoTimes ?? [7_200, 14_400];
  return {
    pinsPerDay: String(settings.numberOfPinsPerDay),
    oneStart: clockOf(settings.windowOneTimes[0] % 86_400),
    oneEnd: clockOf(settings.windowOneTimes[1] % 86_400),
    useTwo: settings.windowTwoTimes !== null,
    twoStart: clockOf(two[0] % 86_400),
    twoEnd: clockOf(two[1] % 86_400),
    zone: settings.timezone.value,
    minutes: String(Math.round(settings.postingIntervalInSeconds / 60)),
  };
}

type FieldName = "pinsPerDay" | "windowOne" | "windowTwo" | "zone" | "minutes";

/** The draft as settings, or the fields that are wrong. */
function settingsOf(draft: Draft, base: SchedulingSettings): { settings: SchedulingSettings } | { errors: Partial<Record<FieldName, string>> } {
  const errors: Partial<Record<FieldName, string>> = {};
  const window = (start: string, end: string, field: FieldName): [number, number] | null => {
    const a = secondsOfClock(start);
    const b = secondsOfClock(end);
    if (a === null || b === null) errors[field] = "Enter a start and an end time";
    else if (a === b) errors[field] = "The window must not be empty: pick different start and end times";
    return a === null || b === null ? null : [a, b];
  };
  const one = window(draft.oneStart, draft.oneEnd, "windowOne");
  const two = draft.useTwo ? window(draft.twoStart, draft.twoEnd, "windowTwo") : null;
  const candidate = {
    ...base,
    numberOfPinsPerDay: Number(draft.pinsPerDay),
    windowOneTimes: one,
    windowTwoTimes: two,
    timezone: { label: timeZoneLabel(draft.zone), value: draft.zone },
    postingIntervalInSeconds: Math.round(Number(draft.minutes) * 60),
  };
  const parsed = validateInput(SchedulingSettings, candidate);
  if (parsed.errors) {
    for (const [key, message] of Object.entries(parsed.errors)) {
      if (key.startsWith("numberOfPinsPerDay")) errors.pinsPerDay ??= "Pins per day must be a whole number from 1 to 100";
      else if (key.startsWith("postingIntervalInSeconds")) errors.minutes ??= "Minutes between pins must be a whole number from 1 to 1440";
      else if (key.startsWith("timezone")) errors.zone ??= message;
      else if (key.startsWith("windowOne")) errors.windowOne ??= message;
      else if (key.startsWith("windowTwo")) errors.windowTwo ??= message;
    }
  }
  if (Object.keys(errors).length > 0 || parsed.errors) return { errors };
  return { settings: parsed.output };
}

/**
 * The edit-settings panel of /scheduling: pins per day, the two posting
 * windows, the time zone and the posting interval, with the daily times they
 * give. Save sends saveSchedulingSettings for the active profile.
 */
export function SettingsPanel({
  username,
  settings,
  onSaved,
}: {
  username: string;
  settings: SchedulingSettings;
  onSaved(settings: SchedulingSettings): void;
}) {
  const id = useId();
  const toast = useToast();
  const [draft, setDraft] = useState<Draft>(() => draftOf(settings));
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [saving, setSaving] = useState(false);
  const zones = useMemo(() => timeZoneOptions(settings.timezone.value), [settings.timezone.value]);

  // Settings saved, or read again, start a fresh draft: set while rendering, so the old draft never shows with them.
  const [draftFrom, setDraftFrom] = useState(settings);
  if (draftFrom !== settings) {
    setDraftFrom(settings);
    setDraft(draftOf(settings));
    setErrors({});
  }

  const change = (patch: Partial<Draft>) => setDraft((current) => ({ ...current, ...patch }));
  const result = settingsOf(draft, settings);
  const preview = "settings" in result ? dailyTimes(result.settings) : null;
  const wanted = Number(draft.pinsPerDay);

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!("settings" in result)) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    setSaving(true);
    try {
      await saveSchedulingSettings(result.settings, username);
      onSaved(result.settings);
      toast({ title: "Scheduling settings saved", description: "New pins take the new times; Reset times moves the queued ones.", kind: "success" });
    } catch (error) {
      toast({ title: "Unable to save the scheduling settings", description: failureText(error), kind: "error" });
    } finally {
      setSaving(false);
    }
  }

  const fieldClass = (name: FieldName) => (errors[name] ? "field field--invalid" : "field");
  const errorOf = (name: FieldName) =>
    errors[name] ? (
      <p className="field__error" id={`${id}-${name}-error`}>
        {errors[name]}
      </p>
    ) : null;
  const described = (name: FieldName) => (errors[name] ? `${id}-${name}-error` : undefined);

  return (
    <section className="card settings-panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Scheduling settings</h2>
      <p className="muted small">For {username}: when its queue posts each day.</p>
      <form onSubmit={save} noValidate>
        <div className="settings-panel__grid">
          <div className={fieldClass("pinsPerDay")}>
            <label className="field__label" htmlFor={`${id}-pins`}>
              Pins per day
            </label>
            <input
              id={`${id}-pins`}
              className="field__input"
              type="number"
              inputMode="numeric"
              min={1}
              max={100}
              value={draft.pinsPerDay}
              aria-invalid={errors.pinsPerDay ? true : undefined}
              aria-describedby={described("pinsPerDay")}
              onChange={(event) => change({ pinsPerDay: event.target.value })}
            />
            {errorOf("pinsPerDay")}
          </div>
          <div className={fieldClass("minutes")}>
            <label className="field__label" htmlFor={`${id}-minutes`}>
              Minutes between pins
            </label>
            <input
              id={`${id}-minutes`}
              className="field__input"
              type="number"
              inputMode="numeric"
              min={1}
              max={1440}
              value={draft.minutes}
              aria-invalid={errors.minutes ? true : undefined}
              aria-describedby={described("minutes")}
              onChange={(event) => change({ minutes: event.target.value })}
            />
            {errorOf("minutes")}
          </div>
          <div className={fieldClass("zone")}>
            <label className="field__label" htmlFor={`${id}-zone`}>
              Time zone
            </label>
            <select
              id={`${id}-zone`}
              className="field__input field__select"
              value={draft.zone}
              aria-invalid={errors.zone ? true : undefined}
              aria-describedby={described("zone")}
              onChange={(event) => change({ zone: event.target.value })}
            >
              {zones.map((zone) => (
                <option key={zone.value} value={zone.value}>
                  {zone.label}
                </option>
              ))}
            </select>
            {errorOf("zone")}
          </div>
        </div>

        <fieldset className={`settings-panel__window ${fieldClass("windowOne")}`} aria-describedby={described("windowOne")}>
          <legend className="field__label">First posting window</legend>
          <label className="settings-panel__time">
            <span>From</span>
            <input className="field__input" type="time" value={draft.oneStart} onChange={(event) => change({ oneStart: event.target.value })} />
          </label>
          <label className="settings-panel__time">
            <span>To</span>
            <input className="field__input" type="time" value={draft.oneEnd} onChange={(event) => change({ oneEnd: event.target.value })} />
          </label>
          {errorOf("windowOne")}
        </fieldset>

        <label className="check">
          <input type="checkbox" checked={draft.useTwo} onChange={(event) => change({ useTwo: event.target.checked })} />
          Use a second posting window
        </label>
        {draft.useTwo ? (
          <fieldset className={`settings-panel__window ${fieldClass("windowTwo")}`} aria-describedby={described("windowTwo")}>
            <legend className="field__label">Second posting window</legend>
            <label className="settings-panel__time">
              <span>From</span>
              <input className="field__input" type="time" value={draft.twoStart} onChange={(event) => change({ twoStart: event.target.value })} />
            </label>
            <label className="settings-panel__time">
              <span>To</span>
              <input className="field__input" type="time" value={draft.twoEnd} onChange={(event) => change({ twoEnd: event.target.value })} />
            </label>
            {errorOf("windowTwo")}
          </fieldset>
        ) : null}
        <p className="field__hint">A window may run past midnight (from 22:00 to 02:00).</p>

        <div className="settings-panel__preview" aria-live="polite">
          {preview ? (
            <>
              <p className="settings-panel__preview-title">
                {preview.length} {preview.length === 1 ? "pin" : "pins"} a day at ({timeZoneLabel(draft.zone)}):
              </p>
              <ul className="time-list" aria-label="Daily posting times">
                {preview.map((time) => (
                  <li key={time}>{time}</li>
                ))}
              </ul>
              {Number.isInteger(wanted) && preview.length < wanted ? (
                <p className="field__hint">Only {preview.length} fit in these windows with this many minutes between pins.</p>
              ) : null}
            </>
          ) : (
            <p className="field__hint">Fix the fields above to see the daily times.</p>
          )}
        </div>

        <BestTimesSuggestion username={username} settings={settings} onSaved={onSaved} />

        <div className="settings-panel__actions">
          <button type="submit" className="button button--primary" disabled={saving}>
            {saving ? <Spinner label="Saving" /> : null} Save settings
          </button>
        </div>
      </form>
    </section>
  );
}
