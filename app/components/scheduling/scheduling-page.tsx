import { useLocation, useNavigate } from "@remix-run/react";
import { useEffect, useMemo, useRef, useState } from "react";
import type { ScheduledPin } from "../../../contracts/pinterest/scheduling-api.ts";
import type { SchedulingSettings } from "../../../contracts/pinterest/scheduling.ts";
import { useAuth } from "../../lib/auth.tsx";
import { pinsOnDay } from "../../lib/pinterest/calendar.ts";
import { oauthOutcome, withoutOauthOutcome } from "../../lib/pinterest/connection.ts";
import { GMT } from "../../lib/pinterest/times.ts";
import { SignInPage } from "../shell/login-prompt.tsx";
import { useToast } from "../shell/toast.tsx";
import { Spinner } from "../spinner.tsx";
import { CalendarPanel, dayLabel } from "./calendar-panel.tsx";
import { ProfileBar } from "./profile-bar.tsx";
import { QueuePanel } from "./queue-panel.tsx";
import { RepeatingPanel } from "./repeating-panel.tsx";
import { SettingsPanel } from "./settings-panel.tsx";
import { failureText, usePinterest } from "./use-pinterest.tsx";

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

type Activation = { state: "loading" } | { state: "ready" } | { state: "failed"; error: string; status?: number };

function Scheduling() {
  const pinterest = usePinterest();
  const { profiles, activeProfile, activate, reloadUser, connect } = pinterest;
  const toast = useToast();
  const location = useLocation();
  const navigate = useNavigate();
  const [active, setActive] = useState<string | null>(activeProfile?.username ?? null);
  const [settings, setSettings] = useState<SchedulingSettings | null>(null);
  const [activation, setActivation] = useState<Activation>({ state: "loading" });
  const [revision, setRevision] = useState(0);
  const [attempt, setAttempt] = useState(0);
  const [day, setDay] = useState<string | null>(null);
  const [calendarPins, setCalendarPins] = useState<ScheduledPin[]>([]);

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
      setActive(outcome.connected);
    }
    if (outcome.error) toast({ title: "Unable to connect your Pinterest profile", description: outcome.error, kind: "error" });
    navigate({ pathname: location.pathname, search: withoutOauthOutcome(location.search) }, { replace: true, preventScrollReset: true });
  }, [location.search, location.pathname, navigate, toast]);

  // A removed profile cannot stay the one shown.
  useEffect(() => {
    if (active && profiles.some((profile) => profile.username === active)) return;
    setActive(activeProfile?.username ?? null);
  }, [profiles, active, activeProfile]);

  // Activation loads the profile's settings and resets its lists (spec section 4).
  const wasActive = profiles.find((profile) => profile.username === active)?.isActive ?? false;
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a change of profile (or a retry) activates; wasActive and reloadUser are read once for it.
  useEffect(() => {
    if (!active) return;
    let current = true;
    setSettings(null);
    setDay(null);
    setCalendarPins([]);
    setActivation({ state: "loading" });
    activate(active, true).then(
      (answer) => {
        if (!current) return;
        setSettings(answer.schedulingSettings);
        setActivation({ state: "ready" });
        if (!wasActive) reloadUser();
      },
      (error: unknown) => {
        if (!current) return;
        const status = (error as { status?: number }).status;
        setActivation({ state: "failed", error: failureText(error), status });
        toast({ title: failureText(error), description: `Pinterest profile ${active}`, kind: "error" });
      },
    );
    return () => {
      current = false;
    };
  }, [active, attempt, activate, toast]);

  const zone = settings?.timezone.value ?? GMT.value;
  const dayFilter = useMemo(() => (day ? { key: day, label: dayLabel(day), pins: pinsOnDay(calendarPins, day, zone) } : null), [day, calendarPins, zone]);
  const changed = () => setRevision((n) => n + 1);

  return (
    <main className="page scheduling-page">
      <header className="scheduling-page__header">
        <h1>Scheduling</h1>
        <p className="muted">Your pins go out on their own, at the times set for each Pinterest profile.</p>
      </header>

      <ProfileBar pinterest={pinterest} active={active} onChoose={setActive} />

      {active ? (
        <>
          {settings ? (
            <SettingsPanel username={active} settings={settings} onSaved={setSettings} />
          ) : activation.state === "failed" ? (
            <section className="card settings-panel" aria-label="Scheduling settings">
              <p className="notice notice--error" role="alert">
                {activation.error}
                <span className="notice__detail">The settings of {active} show once Pinterest accepts the profile again. Its queue is below.</span>
              </p>
              {activation.status === 401 || activation.status === 423 ? (
                <button
                  type="button"
                  className="button button--primary"
                  onClick={() =>
                    void connect().catch((error: unknown) => toast({ title: "Unable to open Pinterest", description: failureText(error), kind: "error" }))
                  }
                >
                  Reconnect {active}
                </button>
              ) : (
                <button type="button" className="button button--ghost" onClick={() => setAttempt((n) => n + 1)}>
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
            <QueuePanel
              key={`queue-${active}`}
              username={active}
              zone={zone}
              pinterest={pinterest}
              revision={revision}
              onChanged={changed}
              day={dayFilter}
              onClearDay={() => setDay(null)}
            />
            <CalendarPanel
              key={`calendar-${active}`}
              username={active}
              zone={zone}
              revision={revision}
              selectedDay={day}
              onSelectDay={setDay}
              onPins={setCalendarPins}
            />
            <RepeatingPanel key={`repeating-${active}`} username={active} zone={zone} revision={revision} />
          </div>
        </>
      ) : null}
      {pinterest.reauthorizeDialog}
    </main>
  );
}
