import { useId, useState, type FormEvent } from "react";
import type { RedeemBatchDetail, RedeemBatchSummary, RedeemCodeRow } from "../../../contracts/admin/admin-redeem-codes.ts";
import type { PlanInfo } from "../../../contracts/billing/plans-api.ts";
import { ApiError } from "../../lib/api-client.ts";
import { readFailure, useApiCache, useApiQuery } from "../../lib/query.ts";
import { getPlans, serverMessage, toastedCall } from "../billing/billing-api.ts";
import { LoadStatus } from "../load-status.tsx";
import { useToast } from "../shell/toast.tsx";
import { Spinner } from "../spinner.tsx";
import {
  createBatch,
  disableBatch,
  disableCode,
  downloadBatchCsv,
  endOfLocalDay,
  getBatch,
  grantText,
  listBatches,
  localDateTime,
} from "./redeem-codes-api.ts";
import { StackTable } from "../shell/stack-table.tsx";

const STATUS_WORDS: Record<RedeemCodeRow["status"], string> = { unused: "Not used", used: "Used", disabled: "Disabled", expired: "Expired" };
/** Every redeem-code read (the batches, a batch's codes) starts with this: a change refreshes them all. */
const REDEEM_CODES_KEY = ["admin", "redeemCodes"];

function batchState(batch: RedeemBatchSummary): { label: string; live: boolean } {
  if (batch.disabledAt !== null) return { label: "Disabled", live: false };
  if (batch.expiresAt !== null && batch.expiresAt <= Date.now()) return { label: "Expired", live: false };
  return { label: "Active", live: true };
}

/**
 * The admin page's "Redeem codes" section (issue 20, decision 053): make a
 * batch of codes for a plan, see each batch's use (who redeemed which code,
 * when), download it as CSV, disable a batch or a single code. The server
 * checks the admin role on every call.
 */
export function RedeemCodesSection() {
  const toast = useToast();
  const query = useApiQuery(REDEEM_CODES_KEY, () => listBatches());
  const cache = useApiCache();
  const batches = query.data?.batches ?? null;
  const failed = readFailure(query, "We could not load the redeem codes.");
  const [open, setOpen] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [confirmDisable, setConfirmDisable] = useState<string | null>(null);

  // The batches and the codes shown are read again (a code used or disabled changes both).
  const changed = () => void cache.refresh(REDEEM_CODES_KEY);

  async function download(batch: RedeemBatchSummary) {
    setBusy(`csv-${batch.batchId}`);
    await toastedCall(
      toast,
      () => downloadBatchCsv(batch.batchId),
      () => ({ title: "The CSV file is downloading" }),
      "The CSV file was not downloaded",
    );
    setBusy(null);
  }

  async function disable(batch: RedeemBatchSummary) {
    setBusy(`disable-${batch.batchId}`);
    await toastedCall(
      toast,
      () => disableBatch(batch.batchId),
      () => ({ title: "Batch disabled", description: "Its unused codes can no longer be redeemed." }),
      "The batch was not disabled",
    );
    setBusy(null);
    setConfirmDisable(null);
    changed();
  }

  return (
    <section className="card admin-section" aria-labelledby="redeem-codes-title">
      <h2 id="redeem-codes-title">Redeem codes</h2>
      <NewBatchForm
        onCreated={(batchId) => {
          setOpen(batchId);
          changed();
        }}
      />
      <h3>Batches</h3>
      {failed || !batches ? (
        <LoadStatus failed={failed} onRetry={() => void query.refetch()} loading="Loading the redeem codes…" />
      ) : batches.length === 0 ? (
        <p className="muted">No redeem codes yet. Make a batch above.</p>
      ) : (
        <StackTable label="Batches of redeem codes" columns={["Batch", "Used", "Expires", "State"]} action="Actions" className="redeem-batches">
          {batches.map((batch) => {
            const state = batchState(batch);
            const name = `${grantText(batch.planName, batch.months)}${batch.note ? ` (${batch.note})` : ""}`;
            return (
              <tr key={batch.batchId}>
                <th scope="row">
                  {name}
                  <span className="muted small admin-section__who">
                    {batch.count} {batch.count === 1 ? "code" : "codes"}, made {localDateTime(batch.createdAt)}
                    {batch.createdBy ? ` by ${batch.createdBy}` : ""}
                  </span>
                </th>
                <td data-label="Used">
                  {batch.used} of {batch.count}
                </td>
                <td data-label="Expires">{batch.expiresAt === null ? "Never" : localDateTime(batch.expiresAt)}</td>
                <td data-label="State">
                  <span className={state.live ? "badge badge--live" : "badge"}>{state.label}</span>
                </td>
                <td>
                  <div className="content-admin__actions">
                    <button
                      type="button"
                      className="button button--ghost"
                      aria-expanded={open === batch.batchId}
                      onClick={() => setOpen(open === batch.batchId ? null : batch.batchId)}
                    >
                      {open === batch.batchId ? "Hide codes" : "Show codes"}
                      <span className="visually-hidden"> of {name}</span>
                    </button>
                    <button type="button" className="button button--ghost" disabled={busy !== null} onClick={() => download(batch)}>
                      {busy === `csv-${batch.batchId}` ? <Spinner /> : null}
                      Download CSV<span className="visually-hidden"> of {name}</span>
                    </button>
                    {batch.disabledAt !== null ? null : confirmDisable === batch.batchId ? (
                      <>
                        <button type="button" className="button button--danger" disabled={busy !== null} onClick={() => disable(batch)}>
                          Disable {batch.count - batch.used} unused {batch.count - batch.used === 1 ? "code" : "codes"}
                          <span className="visually-hidden"> of {name}</span>
                        </button>
                        <button type="button" className="button button--ghost" onClick={() => setConfirmDisable(null)}>
                          Keep them
                        </button>
                      </>
                    ) : (
                      <button type="button" className="button button--ghost" onClick={() => setConfirmDisable(batch.batchId)}>
                        Disable batch<span className="visually-hidden"> {name}</span>
                      </button>
                    )}
                  </div>
                </td>
              </tr>
            );
          })}
        </StackTable>
      )}
      {open ? <BatchCodes key={open} batchId={open} onChanged={changed} /> : null}
    </section>
  );
}

function NewBatchForm({ onCreated }: { onCreated(batchId: string): void }) {
  const toast = useToast();
  const id = useId();
  const plansQuery = useApiQuery<PlanInfo[]>(["billing", "plans"], () => getPlans());
  // Codes are made for paid plans only.
  const plans = plansQuery.data?.filter((plan) => plan.billingPeriod !== "none") ?? null;
  const plansFailed = readFailure(plansQuery, "We could not load the plans.");
  /** The plan chosen; until the admin chooses, the first paid plan. */
  const [chosenPlanId, setPlanId] = useState("");
  const planId = chosenPlanId || plans?.[0]?.planId || "";
  const [count, setCount] = useState("10");
  const [months, setMonths] = useState("1");
  const [expires, setExpires] = useState("");
  const [note, setNote] = useState("");
  const [saving, setSaving] = useState(false);
  const [problem, setProblem] = useState<{ message: string; field?: string } | null>(null);

  const plan = plans?.find((candidate) => candidate.planId === planId);
  const forGood = plan?.billingPeriod === "once";
  const today = new Date();
  const minDate = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, "0")}-${String(today.getDate()).padStart(2, "0")}`;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSaving(true);
    setProblem(null);
    try {
      const created = await createBatch({
        planId,
        count: Number(count),
        months: forGood ? null : Number(months),
        expiresAt: expires ? endOfLocalDay(expires) : null,
        note: note.trim(),
      });
      toast({
        kind: "success",
        title: `${created.codes.length} ${created.codes.length === 1 ? "code" : "codes"} created`,
        description: "Download them as CSV from the batch list.",
      });
      setNote("");
      onCreated(created.batchId);
    } catch (error) {
      setProblem({
        message: serverMessage(error) ?? "The codes were not created. Please try again.",
        field: error instanceof ApiError ? error.field : undefined,
      });
    } finally {
      setSaving(false);
    }
  }

  if (plansFailed || !plans) return <LoadStatus failed={plansFailed} onRetry={() => void plansQuery.refetch()} loading="Loading the plans…" />;

  const invalid = (field: string) => (problem?.field === field ? { "aria-invalid": true, "aria-describedby": `${id}-problem` } : {});
  return (
    <form className="content-admin__form code-batch-form" onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>New batch of codes</h3>
      <div className="code-batch-form__grid">
        <label htmlFor={`${id}-plan`}>
          Plan
          <select id={`${id}-plan`} value={planId} onChange={(event) => setPlanId(event.target.value)} required {...invalid("planId")}>
            {plans.map((candidate) => (
              <option key={candidate.planId} value={candidate.planId}>
                {candidate.planName} ({candidate.billingPeriod === "once" ? "lifetime" : candidate.billingPeriod === "year" ? "yearly" : "monthly"})
              </option>
            ))}
          </select>
        </label>
        {forGood ? (
          <p className="muted small code-batch-form__hint">Codes for a lifetime plan give it for good.</p>
        ) : (
          <label htmlFor={`${id}-months`}>
            Months each code gives
            <input
              id={`${id}-months`}
              type="number"
              inputMode="numeric"
              min={1}
              max={60}
              step={1}
              value={months}
              onChange={(event) => setMonths(event.target.value)}
              required
              {...invalid("months")}
            />
          </label>
        )}
        <label htmlFor={`${id}-count`}>
          Number of codes
          <input
            id={`${id}-count`}
            type="number"
            inputMode="numeric"
            min={1}
            max={500}
            step={1}
            value={count}
            onChange={(event) => setCount(event.target.value)}
            required
            {...invalid("count")}
          />
        </label>
        <label htmlFor={`${id}-expires`}>
          Last day to redeem (optional)
          <input
            id={`${id}-expires`}
            type="date"
            min={minDate}
            value={expires}
            onChange={(event) => setExpires(event.target.value)}
            {...invalid("expiresAt")}
          />
        </label>
        <label htmlFor={`${id}-note`} className="code-batch-form__wide">
          Note for admins (optional)
          <input
            id={`${id}-note`}
            value={note}
            maxLength={120}
            onChange={(event) => setNote(event.target.value)}
            placeholder="e.g. Podcast giveaway"
            {...invalid("note")}
          />
        </label>
      </div>
      {problem ? (
        <p id={`${id}-problem`} role="alert" className="notice notice--error">
          {problem.message}
        </p>
      ) : null}
      <div className="content-admin__actions">
        <button type="submit" className="button button--primary" disabled={saving || !planId}>
          {saving ? <Spinner /> : null}
          {saving ? "Creating codes…" : "Create codes"}
        </button>
      </div>
    </form>
  );
}

function BatchCodes({ batchId, onChanged }: { batchId: string; onChanged(): void }) {
  const toast = useToast();
  const query = useApiQuery<{ batch: RedeemBatchDetail }>([...REDEEM_CODES_KEY, batchId], () => getBatch(batchId));
  const batch = query.data?.batch ?? null;
  const failed = readFailure(query, "We could not load the codes of this batch.");
  const [busy, setBusy] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<string | null>(null);

  async function disable(code: string) {
    setBusy(code);
    await toastedCall(
      toast,
      () => disableCode(code),
      () => ({ title: `Code ${code} disabled` }),
      "The code was not disabled",
    );
    setBusy(null);
    setConfirm(null);
    onChanged();
  }

  if (failed || !batch) return <LoadStatus failed={failed} onRetry={() => void query.refetch()} loading="Loading the codes…" />;
  return (
    <div className="redeem-codes" aria-live="polite">
      <h3>
        Codes: {grantText(batch.planName, batch.months)}
        {batch.note ? ` (${batch.note})` : ""}
      </h3>
      <StackTable label="Codes of the batch" columns={["Code", "State", "Redeemed by", "Redeemed"]} action="Action">
        {batch.codes.map((code) => (
          <tr key={code.code}>
            <th scope="row">
              <code>{code.code}</code>
            </th>
            <td data-label="State">{STATUS_WORDS[code.status]}</td>
            <td data-label="Redeemed by">
              {code.redeemedBy ? `${code.redeemedBy.name} (${code.redeemedBy.email})` : <span className="muted">No one yet</span>}
            </td>
            <td data-label="Redeemed">{code.redeemedAt === null ? <span className="muted">Not yet</span> : localDateTime(code.redeemedAt)}</td>
            <td>
              {code.status !== "unused" ? null : confirm === code.code ? (
                <div className="content-admin__actions">
                  <button type="button" className="button button--danger" disabled={busy !== null} onClick={() => disable(code.code)}>
                    Disable for good<span className="visually-hidden"> {code.code}</span>
                  </button>
                  <button type="button" className="button button--ghost" onClick={() => setConfirm(null)}>
                    Keep it
                  </button>
                </div>
              ) : (
                <button type="button" className="button button--ghost" onClick={() => setConfirm(code.code)}>
                  Disable<span className="visually-hidden"> {code.code}</span>
                </button>
              )}
            </td>
          </tr>
        ))}
      </StackTable>
    </div>
  );
}
