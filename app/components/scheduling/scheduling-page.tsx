import { useLocation, useNavigate } from "@remix-run/react";
import { useEffect, useMemo, useRef, useState } from "react";
import type { ActivateResponse } from "../../../contracts/pinterest/pinterest-connection.ts";
import type { SchedulingSettings } from "../../../contracts/pinterest/scheduling.ts";
import { useAuth } from "../../lib/auth.tsx";
import { dayKeyOf, pinsOnDay } from "../../lib/pinterest/calendar.ts";
import { oauthOutcome, withoutOauthOutcome } from "../../lib/pinterest/connection.ts";
import { GMT } from "../../lib/pinterest/times.ts";
import { failureOf, useApiCache, useApiQuery, useFailureToast } from "../../lib/query.ts";
import { SignInPage } from "../shell/login-prompt.tsx";
import { useToast } from "../shell/toast.tsx";
import { Spinner } from "../spinner.tsx";
import { CalendarPanel, dayLabel, monthOfDay, useMonthPins } from "./calendar-panel.tsx";
import { ProfileBar } from "./profile-bar.tsx";
import { QueuePanel } from "./queue-panel.tsx";
import { schedulingKeys } from "./reads.ts";
import { RepeatingPanel } from "./repeating-panel.tsx";
import { SettingsPanel } from "./settings-panel.tsx";
import { failureText, type Pinterest, usePinterest } from "./use-pinterest.tsx";

/**
 * /scheduling (spec section 2): the connected profiles, the edit-settings
 * panel, and two panels side by side (stacked on a phone): the queue list
 * and a calendar of scheduled and posted pins, then the repeating pins.
 */
export function SchedulingPage() {
  const { user } = useAuth();
  if (!user) {
    return <SignInPage title="Scheduling" action="edit scheduling settings" />;
  }
  return <Scheduling />;
}

function Scheduling() {
  const pinterest = usePinterest();
  const { profiles, activeProfile } = pinterest;
  const toast = useToast();
  const location = useLocation();
  const navigate = useNavigate();
  const [chosen, setChosen] = useState<string | null>(activeProfile?.username ?? null);
  // A removed profile cannot stay the one shown.
  const active = chosen && profiles.some((profile) => profile.username === chosen) ? chosen : (activeProfile?.username ?? null);

  // Back from Pinterest's consent page: say how it went, use the new profile, tidy the address.
  const handledOutcome = useRef<string | null>(null);
  useEffect(() => {
    const outcome = oauthOutcome(location.search);
    if (!outcome.connected && !outcome.error) return;
    // Once per return from Pinterest, however often the page renders before the address is tidied.
    if (handledOutcome.current === location.search) return;
    handledOutcome.current = location.search;
    if (outcome.connected) {
      toast({ title: `Pinterest profile ${outcome.connected} connected`, kind: "success" });
      setChosen(outcome.connected);
    }
    if (outcome.error) toast({ title: "Unable to connect your Pinterest profile", description: outcome.error, kind: "error" });
    navigate({ pathname: location.pathname, search: withoutOauthOutcome(location.search) }, { replace: true, preventScrollReset: true });
  }, [location.search, location.pathname, navigate, toast]);

  return (
    <main className="page scheduling-page">
      <header className="scheduling-page__header">
        <h1>Scheduling</h1>
        <p className="muted">Your pins go out on their own, at the times set for each Pinterest profile.</p>
      </header>

      <ProfileBar pinterest={pinterest} active={active} onChoose={setChosen} />

      {/* Keyed by the profile: another one starts with its own lists and no day chosen (spec section 4). */}
      {active ? <ActiveProfile key={active} username={active} pinterest={pinterest} /> : null}
      {pinterest.reauthorizeDialog}
    </main>
  );
}

/**
 * The settings, queue, calendar and repeating pins of the profile shown. Showing it activates the profile
 * (its settings come with the answer): every time it is chosen or the page opens, never on its own when the
 * window regains focus; meanwhile the settings last read are shown. The answer is kept under the profile's
 * key, so an answer for a profile no longer shown never lands here.
 */
function ActiveProfile({ username, pinterest }: { username: string; pinterest: Pinterest }) {
  const { profiles, activate, reloadUser, connect } = pinterest;
  const toast = useToast();
  const cache = useApiCache();
  const [day, setDay] = useState<string | null>(null);

  const wasActive = profiles.find((profile) => profile.username === username)?.isActive ?? false;
  const activation = useApiQuery<ActivateResponse>(
    schedulingKeys.activation(username),
    async () => {
      const answer = await activate(username);
      if (!wasActive) reloadUser();
      return answer;
    },
    { staleTime: 0, refetchOnWindowFocus: false, refetchOnReconnect: false },
  );
  useFailureToast(activation, (error) => ({ title: failureText(error), description: `Pinterest profile ${username}`, kind: "error" }));
  const failure = failureOf(activation);
  const status = (failure as { status?: number } | null)?.status;
  // A failed activation shows its failure alone (and the lists in GMT), even when settings were read before.
  const settings = failure ? null : (activation.data?.schedulingSettings ?? null);
  const zone = settings?.timezone.value ?? GMT.value;

  // The day's pins come from the calendar's answer for its month (read there; this only looks at it).
  const monthPins = useMonthPins(username, zone, monthOfDay(day ?? dayKeyOf(Date.now(), zone)), { enabled: false });
  const calendarPins = monthPins.data?.pins;
  const dayFilter = useMemo(() => (day ? { key: day, label: dayLabel(day), pins: pinsOnDay(calendarPins ?? [], day, zone) } : null), [day, calendarPins, zone]);

  const saved = (next: SchedulingSettings) =>
    cache.set<ActivateResponse>(schedulingKeys.activation(username), (current) => current && { ...current, schedulingSettings: next });

  return (
    <>
      {settings ? (
        <SettingsPanel username={username} settings={settings} onSaved={saved} />
      ) : failure ? (
        <section className="card settings-panel" aria-label="Scheduling settings">
          <p className="notice notice--error" role="alert">
            {failureText(failure)}
            <span className="notice__detail">The settings of {username} show once Pinterest accepts the profile again. Its queue is below.</span>
          </p>
          {status === 401 || status === 423 ? (
            <button
              type="button"
              className="button button--primary"
              onClick={() =>
                void connect().catch((error: unknown) => toast({ title: "Unable to open Pinterest", description: failureText(error), kind: "error" }))
              }
            >
              Reconnect {username}
            </button>
          ) : (
            <button type="button" className="button button--ghost" onClick={() => void activation.refetch()}>
              Try again
            </button>
          )}
        </section>
      ) : (
        <section className="card settings-panel" aria-label="Scheduling settings">
          <p className="loading">
            <Spinner label="Loading the scheduling settings" /> Loading the scheduling settings…
          </p>
        </section>
      )}

      <div className="scheduling-panels">
        <QueuePanel username={username} zone={zone} pinterest={pinterest} day={dayFilter} onClearDay={() => setDay(null)} />
        <CalendarPanel username={username} zone={zone} selectedDay={day} onSelectDay={setDay} />
        <RepeatingPanel username={username} zone={zone} />
      </div>
    </>
  );
}
