import { Link } from "@remix-run/react";
import { useId, useState, type FormEvent, type KeyboardEvent } from "react";
import {
  PINTEREST_INTERESTS,
  PINTEREST_TREND_REGIONS,
  type PinterestInterest,
  type PinterestTrendRegion,
} from "../../../contracts/pinterest/pinterest-trends.ts";
import {
  NewTrendAlertSettings,
  TREND_ALERT_LIMITS,
  TrendAlertKeywords,
  type TrendAlertFrequency,
  type TrendAlertResult,
  type TrendAlertView,
  type TrendDigestView,
  type TrendFinding,
  type UserTrendAlerts,
} from "../../../contracts/growth/trend-alerts.ts";
import { findingInWords } from "../../../workers/domain/trend-alerts.ts";
import { ApiError, apiJson } from "../../lib/api-client.ts";
import { useAuth } from "../../lib/auth.tsx";
import { formatInZone } from "../../lib/pinterest/times.ts";
import { useApiCache, useApiQuery } from "../../lib/query.ts";
import { VerifyFirstNotice } from "../auth/email-verification.tsx";
import { LoginPrompt } from "../shell/login-prompt.tsx";
import { useToast } from "../shell/toast.tsx";
import { Spinner } from "../spinner.tsx";
import { firstError, validateInput } from "../../lib/forms.ts";

const KEYWORD_TOOL = "/pinterest-keyword-research-tool";
/** The user's alerts (GET /api/trendAlerts/userTrendAlerts): each change answers the alert, put in here. */
const ALERTS_KEY = ["trendAlerts", "alerts"];
/** The digests sent (GET /api/trendAlerts/history). */
const HISTORY_KEY = ["trendAlerts", "history"];
const REGIONS = Object.entries(PINTEREST_TREND_REGIONS) as Array<[PinterestTrendRegion, string]>;
const INTERESTS = Object.entries(PINTEREST_INTERESTS) as Array<[PinterestInterest, string]>;
const regionName = (region: PinterestTrendRegion) => PINTEREST_TREND_REGIONS[region] ?? region;
const interestName = (interest: PinterestInterest) => PINTEREST_INTERESTS[interest] ?? interest;

interface Draft {
  keywords: string[];
  regions: PinterestTrendRegion[];
  interests: PinterestInterest[];
  frequency: TrendAlertFrequency;
}
const EMPTY_DRAFT: Draft = { keywords: [], regions: ["US"], interests: [], frequency: "weekly" };

type FieldName = "keywords" | "regions" | "interests" | "frequency";

/** The field a server or schema problem is about ("newTrendAlertSettings.regions.0" -> "regions"). */
function fieldOf(path: string | undefined): FieldName | null {
  const name = path?.replace(/^newTrendAlertSettings\.?/, "").split(".")[0];
  return name === "keywords" || name === "regions" || name === "interests" || name === "frequency" ? name : null;
}

function userZone() {
  return Intl.DateTimeFormat().resolvedOptions().timeZone ?? "UTC";
}

function when(iso: string) {
  return formatInZone(Date.parse(iso), userZone(), { weekday: "long", day: "numeric", month: "long", hour: "2-digit", minute: "2-digit" });
}

function researchHref(finding: Pick<TrendFinding, "keyword" | "region">) {
  return `${KEYWORD_TOOL}?${new URLSearchParams({ keyword: finding.keyword, region: finding.region })}`;
}

/** /pinterest-trend-alerts (issue 19, decision 047): the signed-in user's trend alerts and the digests they sent. */
export function TrendAlertsPage() {
  const { user } = useAuth();
  return (
    <main className="page trend-alerts">
      <header className="trend-alerts__header">
        <h1>Pinterest trend alerts</h1>
        <p className="muted">
          Follow keywords and interests on Pinterest. We check Pinterest's trends daily or weekly and e-mail you when a keyword of yours rises or something new
          starts trending in your interests.
        </p>
      </header>
      {user && !user.isEmailVerified ? (
        <VerifyFirstNotice>
          Trend alert e-mails go only to a verified address. Open the link we e-mailed to {user.email} to start getting them.
        </VerifyFirstNotice>
      ) : null}
      {user ? <TrendAlerts /> : <LoginPrompt action="set up trend alerts" />}
    </main>
  );
}

function TrendAlerts() {
  const toast = useToast();
  const cache = useApiCache();
  const alertsQuery = useApiQuery(ALERTS_KEY, () => apiJson<UserTrendAlerts>("/api/trendAlerts/userTrendAlerts"));
  const historyQuery = useApiQuery(HISTORY_KEY, () => apiJson<{ history: TrendDigestView[] }>("/api/trendAlerts/history"));
  const [editing, setEditing] = useState<TrendAlertView | null>(null);
  const alerts = alertsQuery.data?.userTrendAlerts ?? [];
  const history = historyQuery.data?.history ?? [];
  // Once both are read, they stay shown: a later read that fails changes nothing on the page.
  const ready = alertsQuery.data !== undefined && historyQuery.data !== undefined;
  const failure = [alertsQuery, historyQuery].find((query) => query.data === undefined && query.error && !query.isFetching)?.error;
  const state = ready ? "ready" : failure ? "failed" : "loading";
  const loadError = failure?.message ?? "";
  const setAlerts = (update: (current: TrendAlertView[]) => TrendAlertView[]) =>
    cache.set<UserTrendAlerts>(ALERTS_KEY, (current) => current && { ...current, userTrendAlerts: update(current.userTrendAlerts) });

  const saved = (alert: TrendAlertView, created: boolean) => {
    setAlerts((current) => (created ? [...current, alert] : current.map((known) => (known.alertId === alert.alertId ? alert : known))));
    setEditing(null);
    toast({
      title: created ? "Trend alert created" : "Trend alert saved",
      description: `We will check it within a few minutes, then ${alert.frequency === "daily" ? "every day." : "every week."}`,
      kind: "success",
    });
  };

  if (state === "loading") {
    return (
      <p className="loading">
        <Spinner label="Loading your trend alerts" /> Loading your trend alerts…
      </p>
    );
  }
  if (state === "failed") {
    return (
      <p className="notice notice--error" role="alert">
        Unable to load your trend alerts: {loadError}{" "}
        <button
          type="button"
          className="link-button"
          onClick={() => {
            for (const query of [alertsQuery, historyQuery]) if (query.error) void query.refetch();
          }}
        >
          Try again
        </button>
      </p>
    );
  }
  const full = alerts.length >= TREND_ALERT_LIMITS.alerts;
  return (
    <div className="trend-alerts__layout">
      <section className="trend-alerts__form card" aria-labelledby="alert-form-title">
        <h2 id="alert-form-title">{editing ? "Edit trend alert" : "New trend alert"}</h2>
        {full && !editing ? (
          <p className="notice notice--info">You have {TREND_ALERT_LIMITS.alerts} trend alerts, the most you can keep. Delete one to add another.</p>
        ) : (
          <AlertForm key={editing?.alertId ?? "new"} editing={editing} onSaved={saved} onCancel={() => setEditing(null)} />
        )}
      </section>
      <div className="trend-alerts__lists">
        <section aria-labelledby="alerts-title">
          <h2 id="alerts-title">Your alerts</h2>
          {alerts.length === 0 ? (
            <p className="muted">No trend alerts yet. Create one to hear when your keywords rise.</p>
          ) : (
            <ul className="trend-alerts__list" aria-label="Your trend alerts">
              {alerts.map((alert) => (
                <AlertCard
                  key={alert.alertId}
                  alert={alert}
                  onEdit={() => {
                    setEditing(alert);
                    document.getElementById("alert-form-title")?.scrollIntoView({ behavior: "smooth", block: "start" });
                  }}
                  onChanged={(changed) => setAlerts((current) => current.map((known) => (known.alertId === changed.alertId ? changed : known)))}
                  onDeleted={() => {
                    setAlerts((current) => current.filter((known) => known.alertId !== alert.alertId));
                    if (editing?.alertId === alert.alertId) setEditing(null);
                  }}
                />
              ))}
            </ul>
          )}
        </section>
        <section aria-labelledby="history-title">
          <h2 id="history-title">E-mails sent</h2>
          {history.length === 0 ? (
            <p className="muted">No trend e-mails yet. When your alerts find something, the e-mail shows up here too.</p>
          ) : (
            <ol className="trend-alerts__history" aria-label="Trend e-mails sent">
              {history.map((digest) => (
                <li key={digest.digestId} className="trend-digest">
                  <h3 className="trend-digest__subject">{digest.subject}</h3>
                  <p className="trend-digest__when muted">
                    Sent <time dateTime={digest.sentAt}>{when(digest.sentAt)}</time>
                  </p>
                  <FindingList findings={digest.findings} />
                </li>
              ))}
            </ol>
          )}
        </section>
      </div>
    </div>
  );
}

function FindingList({ findings }: { findings: TrendFinding[] }) {
  return (
    <ul className="trend-findings">
      {findings.map((finding) => (
        <li key={`${finding.kind}|${finding.region}|${finding.keyword}`}>
          {findingInWords(finding, regionName(finding.region), interestName)} <Link to={researchHref(finding)}>Research “{finding.keyword}”</Link>
        </li>
      ))}
    </ul>
  );
}

function resultInWords(result: TrendAlertResult | null, paused: boolean): string {
  if (!result) return paused ? "Not checked yet." : "Not checked yet: the first check runs within a few minutes.";
  const at = `Last checked ${when(result.checkedAt)}`;
  if (result.outcome === "failed") return `${at}: Pinterest could not be reached, so we will try again shortly.`;
  if (result.outcome === "nothing") return `${at}: none of your keywords rose and nothing new is trending in your interests.`;
  const count = result.findings.length === 1 ? "1 keyword on the move" : `${result.findings.length} keywords on the move`;
  return `${at}: found ${count}${result.emailed ? ", and we e-mailed you about it" : ", but the e-mail could not be sent"}.`;
}

function AlertCard({
  alert,
  onEdit,
  onChanged,
  onDeleted,
}: {
  alert: TrendAlertView;
  onEdit(): void;
  onChanged(alert: TrendAlertView): void;
  onDeleted(): void;
}) {
  const toast = useToast();
  const [busy, setBusy] = useState<"pause" | "delete" | null>(null);
  const [confirming, setConfirming] = useState(false);
  const headingId = useId();
  const title = alert.keywords.length > 0 ? alert.keywords.join(", ") : `Trends in ${alert.interests.map(interestName).join(", ")}`;

  const pause = async () => {
    setBusy("pause");
    try {
      const { trendAlert } = await apiJson<{ trendAlert: TrendAlertView }>("/api/trendAlerts/pauseTrendAlert", {
        json: { alertId: alert.alertId, paused: !alert.paused },
      });
      onChanged(trendAlert);
      toast({ title: trendAlert.paused ? "Trend alert paused" : "Trend alert resumed", kind: "success" });
    } catch (failure) {
      toast({ title: "The alert could not be changed", description: failure instanceof Error ? failure.message : undefined, kind: "error" });
    } finally {
      setBusy(null);
    }
  };
  const remove = async () => {
    setBusy("delete");
    try {
      await apiJson(`/api/trendAlerts/deleteTrendAlert/${encodeURIComponent(alert.alertId)}`, { method: "DELETE" });
      onDeleted();
      toast({ title: "Trend alert deleted", kind: "success" });
    } catch (failure) {
      toast({ title: "The alert could not be deleted", description: failure instanceof Error ? failure.message : undefined, kind: "error" });
      setBusy(null);
    }
  };

  return (
    <li className="trend-alert card" aria-labelledby={headingId}>
      <div className="trend-alert__top">
        <h3 id={headingId} className="trend-alert__title">
          {title}
        </h3>
        <span className={alert.paused ? "trend-badge trend-badge--paused" : "trend-badge trend-badge--active"}>{alert.paused ? "Paused" : "Active"}</span>
      </div>
      <dl className="trend-alert__facts">
        <div>
          <dt>Regions</dt>
          <dd>{alert.regions.map(regionName).join(", ")}</dd>
        </div>
        {alert.interests.length > 0 ? (
          <div>
            <dt>Interests</dt>
            <dd>{alert.interests.map(interestName).join(", ")}</dd>
          </div>
        ) : null}
        <div>
          <dt>Checked</dt>
          <dd>{alert.frequency === "daily" ? "Every day" : "Every week"}</dd>
        </div>
      </dl>
      {alert.pausedReason === "unsubscribed" ? (
        <p className="notice notice--info">Paused because you unsubscribed from trend alert e-mails. Resume it to get them again.</p>
      ) : null}
      <p className="trend-alert__result">{resultInWords(alert.lastResult, alert.paused)}</p>
      {alert.lastResult && alert.lastResult.findings.length > 0 ? <FindingList findings={alert.lastResult.findings} /> : null}
      <div className="trend-alert__actions">
        <button type="button" className="button button--ghost" onClick={onEdit} disabled={busy !== null}>
          Edit<span className="visually-hidden"> alert {title}</span>
        </button>
        <button type="button" className="button button--ghost" onClick={() => void pause()} disabled={busy !== null}>
          {busy === "pause" ? <Spinner label="Saving" /> : null}
          {alert.paused ? "Resume" : "Pause"}
          <span className="visually-hidden"> alert {title}</span>
        </button>
        {confirming ? (
          <span className="trend-alert__confirm" role="group" aria-label={`Delete alert ${title}?`}>
            <span>Delete this alert?</span>
            {/* biome-ignore lint/a11y/noAutofocus: the confirmation appears because the user pressed Delete: focus moves to its button. */}
            <button type="button" className="button button--danger" onClick={() => void remove()} disabled={busy !== null} autoFocus>
              {busy === "delete" ? <Spinner label="Deleting" /> : null} Delete alert
            </button>
            <button type="button" className="button button--ghost" onClick={() => setConfirming(false)} disabled={busy !== null}>
              Keep it
            </button>
          </span>
        ) : (
          <button type="button" className="button button--ghost" onClick={() => setConfirming(true)} disabled={busy !== null}>
            Delete<span className="visually-hidden"> alert {title}</span>
          </button>
        )}
      </div>
    </li>
  );
}

function AlertForm({
  editing,
  onSaved,
  onCancel,
}: {
  editing: TrendAlertView | null;
  onSaved(alert: TrendAlertView, created: boolean): void;
  onCancel(): void;
}) {
  const [draft, setDraft] = useState<Draft>(
    editing ? { keywords: editing.keywords, regions: editing.regions, interests: editing.interests, frequency: editing.frequency } : EMPTY_DRAFT,
  );
  const [keywordText, setKeywordText] = useState("");
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [general, setGeneral] = useState("");
  const [saving, setSaving] = useState(false);
  const ids = { keywords: useId(), keywordsHint: useId(), regions: useId(), interests: useId(), frequency: useId() };

  const addKeywords = (text: string) => {
    const phrases = text
      .split(",")
      .map((phrase) => phrase.trim().toLowerCase().replace(/\s+/g, " "))
      .filter(Boolean);
    if (phrases.length === 0) return;
    const keywords = [...new Set([...draft.keywords, ...phrases])];
    const checked = validateInput(TrendAlertKeywords, keywords);
    if (checked.errors) {
      const message = firstError(checked.errors);
      setErrors((current) => ({ ...current, keywords: message }));
      return;
    }
    setErrors((current) => ({ ...current, keywords: undefined }));
    setDraft((current) => ({ ...current, keywords }));
    setKeywordText("");
  };
  const onKeywordKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "Enter" || event.key === ",") {
      event.preventDefault();
      addKeywords(keywordText);
    } else if (event.key === "Backspace" && keywordText === "" && draft.keywords.length > 0) {
      setDraft((current) => ({ ...current, keywords: current.keywords.slice(0, -1) }));
    }
  };
  const toggle = <K extends "regions" | "interests">(field: K, value: Draft[K][number], on: boolean) => {
    setDraft((current) => ({
      ...current,
      [field]: on ? [...(current[field] as string[]), value] : (current[field] as string[]).filter((known) => known !== value),
    }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setGeneral("");
    const pending = keywordText.trim()
      ? [
          ...new Set([
            ...draft.keywords,
            ...keywordText
              .split(",")
              .map((phrase) => phrase.trim().toLowerCase().replace(/\s+/g, " "))
              .filter(Boolean),
          ]),
        ]
      : draft.keywords;
    const settings = { ...draft, keywords: pending };
    const checked = validateInput(NewTrendAlertSettings, settings);
    if (checked.errors) {
      const found: Partial<Record<FieldName, string>> = {};
      for (const [path, message] of Object.entries(checked.errors)) found[fieldOf(path || undefined) ?? "keywords"] ??= message;
      setErrors(found);
      return;
    }
    setErrors({});
    setSaving(true);
    try {
      const answer = editing
        ? await apiJson<{ trendAlert: TrendAlertView }>("/api/trendAlerts/updateTrendAlert", {
            json: { alertId: editing.alertId, newTrendAlertSettings: settings },
          })
        : await apiJson<{ trendAlert: TrendAlertView }>("/api/trendAlerts/createTrendAlert", { json: { newTrendAlertSettings: settings } });
      setKeywordText("");
      onSaved(answer.trendAlert, !editing);
      if (!editing) setDraft(EMPTY_DRAFT);
    } catch (failure) {
      const field = failure instanceof ApiError ? fieldOf(failure.field) : null;
      if (field) setErrors({ [field]: failure instanceof Error ? failure.message : "" });
      else setGeneral(failure instanceof Error ? failure.message : "The alert could not be saved. Please try again.");
    } finally {
      setSaving(false);
    }
  };

  return (
    <form className="trend-alert-form" onSubmit={(event) => void submit(event)} noValidate>
      <div className={errors.keywords ? "field field--invalid" : "field"}>
        <label className="field__label" htmlFor={ids.keywords}>
          Keywords
        </label>
        <p className="field__hint" id={ids.keywordsHint}>
          Up to {TREND_ALERT_LIMITS.keywords}. Type a keyword and press Enter (or a comma) to add it.
        </p>
        {draft.keywords.length > 0 ? (
          <ul className="keyword-chips" aria-label="Keywords followed">
            {draft.keywords.map((keyword) => (
              <li key={keyword} className="keyword-chip">
                <span>{keyword}</span>
                <button
                  type="button"
                  className="keyword-chip__remove"
                  aria-label={`Remove keyword ${keyword}`}
                  onClick={() => setDraft((current) => ({ ...current, keywords: current.keywords.filter((known) => known !== keyword) }))}
                >
                  ×
                </button>
              </li>
            ))}
          </ul>
        ) : null}
        <div className="keyword-entry">
          <input
            id={ids.keywords}
            className="field__input"
            value={keywordText}
            onChange={(event) => setKeywordText(event.target.value)}
            onKeyDown={onKeywordKey}
            aria-describedby={`${ids.keywordsHint}${errors.keywords ? ` ${ids.keywords}-error` : ""}`}
            aria-invalid={errors.keywords ? true : undefined}
            maxLength={100}
            autoComplete="off"
            placeholder="e.g. christmas nails"
          />
          <button type="button" className="button button--ghost" onClick={() => addKeywords(keywordText)}>
            Add keyword
          </button>
        </div>
        {errors.keywords ? (
          <p className="field__error" id={`${ids.keywords}-error`} role="alert">
            {errors.keywords}
          </p>
        ) : null}
      </div>

      <CheckboxGroup
        legend={`Regions (up to ${TREND_ALERT_LIMITS.regions})`}
        options={REGIONS}
        chosen={draft.regions}
        error={errors.regions}
        errorId={`${ids.regions}-error`}
        onToggle={(code, on) => toggle("regions", code, on)}
      />
      <CheckboxGroup
        legend={`Interests to watch for new trends (optional, up to ${TREND_ALERT_LIMITS.interests})`}
        options={INTERESTS}
        chosen={draft.interests}
        error={errors.interests}
        errorId={`${ids.interests}-error`}
        onToggle={(key, on) => toggle("interests", key, on)}
      />

      <fieldset className="field choice-group">
        <legend className="field__label">How often</legend>
        <div className="choice-group__options choice-group__options--inline">
          {(["daily", "weekly"] as const).map((frequency) => (
            <label key={frequency} className="choice">
              <input
                type="radio"
                name={ids.frequency}
                value={frequency}
                checked={draft.frequency === frequency}
                onChange={() => setDraft((current) => ({ ...current, frequency }))}
              />
              {frequency === "daily" ? "Daily" : "Weekly"}
            </label>
          ))}
        </div>
      </fieldset>

      {general ? (
        <p className="notice notice--error" role="alert">
          {general}
        </p>
      ) : null}
      <div className="trend-alert-form__actions">
        <button type="submit" className="button button--primary" disabled={saving}>
          {saving ? <Spinner label="Saving" /> : null} {editing ? "Save changes" : "Create alert"}
        </button>
        {editing ? (
          <button type="button" className="button button--ghost" onClick={onCancel} disabled={saving}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}

/** A labelled group of checkboxes (regions, interests) with its error. */
function CheckboxGroup<T extends string>({
  legend,
  options,
  chosen,
  error,
  errorId,
  onToggle,
}: {
  legend: string;
  options: Array<[T, string]>;
  chosen: readonly T[];
  error: string | undefined;
  errorId: string;
  onToggle(value: T, on: boolean): void;
}) {
  return (
    <fieldset className={error ? "field choice-group field--invalid" : "field choice-group"} aria-describedby={error ? errorId : undefined}>
      <legend className="field__label">{legend}</legend>
      <div className="choice-group__options">
        {options.map(([value, name]) => (
          <label key={value} className="choice">
            <input type="checkbox" checked={chosen.includes(value)} onChange={(event) => onToggle(value, event.target.checked)} />
            {name}
          </label>
        ))}
      </div>
      {error ? (
        <p className="field__error" id={errorId} role="alert">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
