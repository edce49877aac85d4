import { Link } from "@remix-run/react";
import { useId, useState } from "react";
import { ANALYTICS_WINDOWS, type AnalyticsOverview, type AnalyticsWindow } from "../../../contracts/pinterest/analytics.ts";
import { useAuth } from "../../lib/auth.tsx";
import { analyticsKeys, dayLabel, downloadAnalyticsCsv, formatCount, formatRate, getOverview } from "../../lib/pinterest/analytics.ts";
import { formatInZone, timeZoneLabel } from "../../lib/pinterest/times.ts";
import { readFailure, useApiQuery } from "../../lib/query.ts";
import { LoadStatus } from "../load-status.tsx";
import { ProfileField } from "../scheduling/profile-select.tsx";
import { failureText } from "../scheduling/use-pinterest.tsx";
import { SignInPage } from "../shell/login-prompt.tsx";
import { useToast } from "../shell/toast.tsx";
import { Spinner } from "../spinner.tsx";
import { Breakdowns } from "./breakdowns.tsx";
import { DailyFigures } from "./daily-figures.tsx";
import { TopPins } from "./top-pins.tsx";
import { WeeklySummarySwitch } from "./weekly-summary-switch.tsx";

/**
 * /analytics (issue 41): how the pins this product posted did on Pinterest, for one connected profile over 7, 30
 * or 90 days: totals, a daily chart (with its table), the top pins, breakdowns by what made each pin, a CSV export
 * and the weekly summary e-mail.
 */
export function AnalyticsPage() {
  const { user } = useAuth();
  if (!user) {
    return <SignInPage title="Analytics" action="see your pin analytics" />;
  }
  return <Analytics />;
}

function Analytics() {
  const { user } = useAuth();
  const profiles = user?.authorizedPinterestProfiles ?? [];
  const active = profiles.find((profile) => profile.isActive) ?? profiles[0] ?? null;
  const [chosen, setChosen] = useState<string | null>(null);
  const username = chosen && profiles.some((profile) => profile.username === chosen) ? chosen : (active?.username ?? null);
  const [days, setDays] = useState<AnalyticsWindow>(30);

  return (
    <main className="page analytics-page">
      <header className="analytics-page__header">
        <h1>Analytics</h1>
        <p className="muted">How the pins you posted with Pinboard Studio do on Pinterest: what people saw, saved and clicked.</p>
      </header>
      {username === null ? (
        <section className="card analytics-card" aria-label="No Pinterest profile">
          <p>
            Your analytics show here once a Pinterest profile is connected. <Link to="/scheduling">Connect a Pinterest profile on the scheduling page</Link>.
          </p>
        </section>
      ) : (
        <>
          <Controls profiles={profiles} username={username} onProfile={setChosen} days={days} onDays={setDays} />
          <ProfileAnalytics key={`${username}|${days}`} username={username} days={days} />
          <WeeklySummarySwitch />
        </>
      )}
    </main>
  );
}

function Controls({
  profiles,
  username,
  onProfile,
  days,
  onDays,
}: {
  profiles: readonly { username: string }[];
  username: string;
  onProfile(username: string): void;
  days: AnalyticsWindow;
  onDays(days: AnalyticsWindow): void;
}) {
  const id = useId();
  return (
    <section className="card analytics-controls" aria-label="What to show">
      <ProfileField id={`${id}-profile`} profiles={profiles} value={username} onChange={onProfile} />
      <fieldset className="analytics-window">
        <legend className="field__label">Period</legend>
        <div className="segmented">
          {ANALYTICS_WINDOWS.map((window) => (
            <label key={window} className="segmented__option">
              <input type="radio" name={`${id}-days`} value={window} checked={days === window} onChange={() => onDays(window)} />
              <span>Last {window} days</span>
            </label>
          ))}
        </div>
      </fieldset>
    </section>
  );
}

/** The figures of one profile and window: read once per choice (the page keys it by both). */
function ProfileAnalytics({ username, days }: { username: string; days: AnalyticsWindow }) {
  const overview = useApiQuery(analyticsKeys.overview(username, days), (signal) => getOverview(username, days, signal));
  const failed = readFailure(overview, "Unable to load your analytics.");
  const data = overview.data;

  if (!data) {
    return (
      <section className="card analytics-card" aria-busy={!failed}>
        <LoadStatus failed={failed} onRetry={() => void overview.refetch()} loading="Loading your analytics…" />
      </section>
    );
  }
  if (data.syncedAt === null) {
    return (
      <section className="card analytics-card" aria-label="No figures yet">
        <p className="analytics-empty">
          No figures yet for {username}: they arrive within a day of your first pin posted with Pinboard Studio.{" "}
          <Link to="/generate">Make and schedule pins</Link>.
        </p>
        <ExportButton username={username} days={days} disabled />
      </section>
    );
  }
  return (
    <>
      <Totals overview={data} />
      {data.pins === 0 ? (
        <section className="card analytics-card" aria-label="No pins in this period">
          <p className="analytics-empty">
            No pins posted with Pinboard Studio to {username} have figures in the last {days} days.
          </p>
        </section>
      ) : (
        <>
          <DailyFigures overview={data} />
          <TopPins username={username} days={days} timeZone={data.timeZone} />
          <Breakdowns overview={data} />
        </>
      )}
    </>
  );
}

const LONG_DAY: Intl.DateTimeFormatOptions = { day: "numeric", month: "short", year: "numeric" };

function Totals({ overview }: { overview: AnalyticsOverview }) {
  const { totals } = overview;
  const figures = [
    { label: "Impressions", value: formatCount(totals.impressions) },
    { label: "Saves", value: formatCount(totals.saves) },
    { label: "Outbound clicks", value: formatCount(totals.outboundClicks) },
    { label: "Engagement rate", value: formatRate(totals.engagementRate) },
  ];
  return (
    <section className="card analytics-card" aria-labelledby="analytics-totals-title">
      <div className="analytics-card__head">
        <h2 id="analytics-totals-title">Last {overview.days} days</h2>
        <ExportButton username={overview.username} days={overview.days} />
      </div>
      <p className="muted small">
        {formatCount(overview.pins)} {overview.pins === 1 ? "pin" : "pins"}, {dayLabel(overview.from, LONG_DAY)} to {dayLabel(overview.to, LONG_DAY)}.
        {overview.syncedAt !== null ? ` Read from Pinterest ${formatInZone(overview.syncedAt, overview.timeZone)} (${timeZoneLabel(overview.timeZone)}).` : ""}
      </p>
      <dl className="analytics-totals">
        {figures.map((figure) => (
          <div key={figure.label} className="analytics-total">
            <dt>{figure.label}</dt>
            <dd data-figure={figure.label}>{figure.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function ExportButton({ username, days, disabled = false }: { username: string; days: AnalyticsWindow; disabled?: boolean }) {
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      const fileName = await downloadAnalyticsCsv(username, days);
      toast({ title: "Analytics downloaded", description: `Saved as ${fileName}.`, kind: "success" });
    } catch (error) {
      toast({ title: "Unable to download your analytics", description: failureText(error), kind: "error" });
    } finally {
      setBusy(false);
    }
  };
  return (
    <button type="button" className="button button--ghost" disabled={disabled || busy} onClick={() => void download()}>
      {busy ? <Spinner label="Downloading" /> : null} Export CSV
    </button>
  );
}
