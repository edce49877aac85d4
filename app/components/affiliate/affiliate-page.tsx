import { usdFromCents } from "../../../contracts/money.ts";
import { useState, type FormEvent } from "react";
import { AFFILIATE_ID_MESSAGE, WISE_TAG_MESSAGE, type AffiliateData, type AffiliateSale } from "../../../contracts/growth/affiliate.ts";
import { useAuth } from "../../lib/auth.tsx";
import { useApiCache, useApiQuery } from "../../lib/query.ts";
import { serverMessage } from "../billing/billing-api.ts";
import { LoginPrompt } from "../shell/login-prompt.tsx";
import { useToast } from "../shell/toast.tsx";
import { Spinner } from "../spinner.tsx";
import { AffiliateMonthsChart } from "./months-chart.tsx";
import { createAffiliateProfile, getAffiliateData, localDate, monthName, payoutDate, saveWiseTag } from "./affiliate-api.ts";
import { StackTable } from "../shell/stack-table.tsx";

const STATUS_LABEL = { pending: "Held for a month", payable: "Payable", paid: "Paid" } as const;
/** A refund's (or lost dispute's) negative commission (decision 077): where it is taken off. */
const REFUND_LABEL = { pending: "Cancels the held commission", payable: "Taken off your next payout", paid: "Taken off a payout" } as const;

function saleStatus(sale: AffiliateSale): string {
  if (sale.kind === "refund") return REFUND_LABEL[sale.status];
  return sale.status === "pending" ? `Held until ${localDate(sale.payableAt)}` : STATUS_LABEL[sale.status];
}

/** /affiliate: the programme's pitch and terms for everyone; a sign-up prompt or the dashboard for signed-in users (issue 16). */
export function AffiliatePage() {
  const { user } = useAuth();
  return (
    <main className="page affiliate-page">
      <header className="affiliate-hero">
        <p className="eyebrow">Affiliate programme</p>
        <h1>Earn 25% of every payment from the people you send</h1>
        <p className="lead">
          Share your link with your audience. When someone signs up through it within 30 days and pays for a plan, you earn a quarter of every payment they
          make, renewals included, for as long as they stay. No paid plan needed to join.
        </p>
      </header>
      {!user ? <LoginPrompt action="become an affiliate" /> : <AffiliateArea />}
      <Terms />
    </main>
  );
}

const AFFILIATE_KEY = ["affiliate"];

function AffiliateArea() {
  const toast = useToast();
  const query = useApiQuery<AffiliateData>(AFFILIATE_KEY, () => getAffiliateData());
  const cache = useApiCache();
  const data = query.data ?? null;
  // Said once the call has been tried again (a dropped connection is retried first).
  const failed = query.error !== null && !query.isFetching;
  // Joining or saving the Wise tag changes the dashboard: it is read again, and stays shown meanwhile.
  const load = () => void cache.refresh(AFFILIATE_KEY);

  if (failed)
    return (
      <section className="card affiliate-card" role="alert">
        <p>We could not load your affiliate details.</p>
        <button type="button" className="button button--ghost" onClick={() => void query.refetch()}>
          Try again
        </button>
      </section>
    );
  if (!data)
    return (
      <div className="loading" role="status">
        <Spinner />
        <span>Loading your affiliate dashboard…</span>
      </div>
    );
  if (!data.affiliateProfile) return <JoinForm onJoined={load} />;
  const changed = (message: string) => {
    toast({ kind: "success", title: message });
    load();
  };
  return <Dashboard data={data} onChanged={changed} />;
}

function JoinForm({ onJoined }: { onJoined(): void }) {
  const toast = useToast();
  const [affiliateID, setAffiliateID] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const id = affiliateID.trim().toLowerCase();
    if (id && !/^[a-z0-9][a-z0-9_-]{2,39}$/.test(id)) {
      setError(AFFILIATE_ID_MESSAGE.replace("affiliateID", "Your link name"));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const { affiliateProfile } = await createAffiliateProfile(id || undefined);
      toast({ kind: "success", title: "Welcome to the affiliate programme!", description: `Your link name is ${affiliateProfile.affiliateID}.` });
      onJoined();
    } catch (failure) {
      setError(serverMessage(failure) ?? "We could not sign you up. Please try again.");
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card affiliate-card" aria-labelledby="join-title">
      <h2 id="join-title">Become an affiliate</h2>
      <p>Get your own link in one step. Choose the name it carries, or leave it empty to use your handle.</p>
      <form className="affiliate-form" onSubmit={submit} noValidate>
        <label htmlFor="affiliate-id">Link name (optional)</label>
        <input
          id="affiliate-id"
          name="affiliateID"
          value={affiliateID}
          onChange={(event) => setAffiliateID(event.target.value)}
          placeholder="e.g. janes-kitchen"
          autoComplete="off"
          spellCheck={false}
          maxLength={40}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "affiliate-id-error" : "affiliate-id-hint"}
        />
        <p id="affiliate-id-hint" className="muted small">
          3 to 40 lower-case letters, digits, - or _.
        </p>
        {error ? (
          <p id="affiliate-id-error" className="affiliate-error" role="alert">
            {error}
          </p>
        ) : null}
        <button type="submit" className="button button--primary" disabled={busy}>
          {busy ? "Signing you up…" : "Become an affiliate"}
        </button>
      </form>
    </section>
  );
}

function Dashboard({ data, onChanged }: { data: AffiliateData; onChanged(message: string): void }) {
  const toast = useToast();
  const link = data.link!;
  const figures = [
    { label: "Clicks", value: data.clicks },
    { label: "Sign-ups", value: data.signUps },
    { label: "Paying customers", value: data.payingCustomers },
    { label: "Sales", value: data.sales },
  ];
  const money = [
    { label: "Commission pending", value: data.commission.pendingCents, note: "held for a month after each payment" },
    { label: "Commission payable", value: data.commission.payableCents, note: "out of its hold, not yet paid" },
    { label: "Commission paid", value: data.commission.paidCents, note: "sent to your Wise account" },
  ];

  async function copy() {
    try {
      await navigator.clipboard.writeText(link);
      toast({ kind: "success", title: "Link copied" });
    } catch {
      toast({ kind: "error", title: "Could not copy the link", description: "Select the link and copy it yourself." });
    }
  }

  return (
    <div className="affiliate-dashboard">
      <section className="card affiliate-card" aria-labelledby="link-title">
        <h2 id="link-title">Share your link</h2>
        <div className="affiliate-link">
          <input id="affiliate-link" aria-label="Your affiliate link" value={link} readOnly onFocus={(event) => event.currentTarget.select()} />
          <button type="button" className="button button--primary" onClick={copy}>
            Copy link
          </button>
        </div>
      </section>

      <section aria-labelledby="figures-title">
        <h2 id="figures-title" className="visually-hidden">
          Your figures
        </h2>
        <dl className="affiliate-figures">
          {figures.map((figure) => (
            <div key={figure.label} className="affiliate-figure card">
              <dt>{figure.label}</dt>
              <dd className="affiliate-figure__value">{figure.value.toLocaleString("en-US")}</dd>
            </div>
          ))}
        </dl>
        <dl className="affiliate-figures">
          {money.map((figure) => (
            <div key={figure.label} className="affiliate-figure card">
              <dt>{figure.label}</dt>
              <dd className="affiliate-figure__value">{usdFromCents(figure.value)}</dd>
              <dd className="affiliate-figure__note muted small">{figure.note}</dd>
            </div>
          ))}
        </dl>
        <p className="affiliate-payout" data-testid="next-payout">
          {data.nextPayoutDate !== null ? `Next payout: on or before ${payoutDate(data.nextPayoutDate)}.` : "Payouts start once $100 of commission is payable."}
        </p>
      </section>

      <section className="card affiliate-card" aria-labelledby="months-title">
        <h2 id="months-title">Clicks and sign-ups by month</h2>
        <AffiliateMonthsChart months={data.months} describedBy="months-table" />
        <div className="table-scroll">
          <table className="affiliate-table" id="months-table">
            <thead>
              <tr>
                <th scope="col">Month</th>
                <th scope="col">Clicks</th>
                <th scope="col">Sign-ups</th>
              </tr>
            </thead>
            <tbody>
              {[...data.months].reverse().map((row) => (
                <tr key={row.month}>
                  <th scope="row">{monthName(row.month)}</th>
                  <td>{row.clicks}</td>
                  <td>{row.signUps}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      <section className="card affiliate-card" aria-labelledby="sales-title">
        <h2 id="sales-title">Latest sales</h2>
        {data.recentSales.length === 0 ? (
          <p className="muted">No sales yet. When someone you sent pays, the payment and your commission appear here.</p>
        ) : (
          <StackTable label="Latest sales" columns={["Date", "Payment", "Your commission", "Status"]}>
            {data.recentSales.map((sale) => (
              <tr key={`${sale.kind}-${sale.chargedAt}-${sale.amountCents}-${sale.commissionCents}`}>
                <td data-label="Date">{localDate(sale.chargedAt)}</td>
                <td data-label="Payment">{sale.kind === "refund" ? `Refunded ${usdFromCents(-sale.amountCents)}` : usdFromCents(sale.amountCents)}</td>
                <td data-label="Your commission">{usdFromCents(sale.commissionCents)}</td>
                <td data-label="Status">{saleStatus(sale)}</td>
              </tr>
            ))}
          </StackTable>
        )}
      </section>

      <WiseTagForm current={data.affiliateProfile!.wiseTag} onSaved={onChanged} />
    </div>
  );
}

function WiseTagForm({ current, onSaved }: { current: string | null; onSaved(message: string): void }) {
  const [wiseTag, setWiseTag] = useState(current ?? "");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!/^@?[A-Za-z0-9._-]{2,40}$/.test(wiseTag.trim())) {
      setError(WISE_TAG_MESSAGE.replace("wiseTag", "Your Wise tag"));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const result = await saveWiseTag(wiseTag.trim());
      setWiseTag(result.affiliateProfile.wiseTag ?? "");
      onSaved(result.message);
    } catch (failure) {
      setError(serverMessage(failure) ?? "We could not save your Wise tag. Please try again.");
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card affiliate-card" aria-labelledby="wise-title">
      <h2 id="wise-title">Where we send your payouts</h2>
      <p className="muted">Payouts go to your Wise account. Enter your Wise tag, the @name Wise shows in your profile.</p>
      <form className="affiliate-form" onSubmit={submit} noValidate>
        <label htmlFor="wise-tag">Wise tag</label>
        <input
          id="wise-tag"
          name="wiseTag"
          value={wiseTag}
          onChange={(event) => setWiseTag(event.target.value)}
          placeholder="@janedoe"
          autoComplete="off"
          spellCheck={false}
          maxLength={41}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "wise-tag-error" : undefined}
        />
        {error ? (
          <p id="wise-tag-error" className="affiliate-error" role="alert">
            {error}
          </p>
        ) : null}
        <button type="submit" className="button button--primary" disabled={busy}>
          {busy ? "Saving…" : "Save Wise tag"}
        </button>
      </form>
    </section>
  );
}

const FAQ: { question: string; answer: string }[] = [
  {
    question: "How much do I earn?",
    answer: "25% of every payment a customer you sent makes, including every monthly or yearly renewal, for as long as they stay subscribed.",
  },
  { question: "Is there anything I do not earn on?", answer: "Lifetime deals earn no commission." },
  {
    question: "How long does my link count?",
    answer:
      "30 days. When someone clicks your link and signs up or subscribes within 30 days, they are your customer. A later link from someone else replaces yours.",
  },
  {
    question: "When is a commission paid?",
    answer: "We do not offer refunds, so each commission is held for one month after the payment and then becomes payable.",
  },
  { question: "When do payouts happen?", answer: "Once at least $100 is payable, we pay it on or before the 5th of the month, to your Wise account." },
  { question: "Do I need a paid plan?", answer: "No. Any account can join the affiliate programme." },
];

function Terms() {
  return (
    <section className="affiliate-faq" aria-labelledby="faq-title">
      <h2 id="faq-title">Questions and terms</h2>
      {FAQ.map((item) => (
        <details key={item.question} className="affiliate-faq__item">
          <summary>{item.question}</summary>
          <p>{item.answer}</p>
        </details>
      ))}
    </section>
  );
}
