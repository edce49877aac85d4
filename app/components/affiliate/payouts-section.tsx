import { usdFromCents } from "../../../contracts/money.ts";
import { useState } from "react";
import type { AffiliatePayoutReport, AffiliatePayoutRow } from "../../../contracts/growth/affiliate.ts";
import { readFailure, useApiCache, useApiQuery } from "../../lib/query.ts";
import { toastedCall } from "../billing/billing-api.ts";
import { useToast } from "../shell/toast.tsx";
import { LoadStatus } from "../load-status.tsx";
import { getPayoutReport, markPayoutPaid, payoutDate } from "./affiliate-api.ts";
import { StackTable } from "../shell/stack-table.tsx";

/**
 * The admin page's "Affiliate payouts" section (issue 16, decision 036):
 * affiliates with at least $100 payable, their Wise tags, and "Mark paid"
 * once the money is sent. The server checks the admin role on every call.
 */
export function AffiliatePayoutsSection() {
  const toast = useToast();
  const key = ["admin", "affiliatePayouts"];
  const query = useApiQuery<AffiliatePayoutReport>(key, () => getPayoutReport());
  const cache = useApiCache();
  const report = query.data ?? null;
  const failed = readFailure(query, "We could not load the payout report.");
  const [busy, setBusy] = useState<string | null>(null);

  async function markPaid(row: AffiliatePayoutRow) {
    setBusy(row.affiliateID);
    await toastedCall(
      toast,
      () => markPayoutPaid(row.affiliateID, row.payableCents),
      (result) => ({ title: result.message }),
      "The payout was not marked paid",
    );
    setBusy(null);
    // Paid or not, the report is read again: the server says what is still payable.
    void cache.refresh(key);
  }

  return (
    <section className="card admin-section" aria-labelledby="payouts-title">
      <h2 id="payouts-title">Affiliate payouts</h2>
      {failed || !report ? (
        <LoadStatus failed={failed} onRetry={() => void query.refetch()} loading="Loading the payout report…" />
      ) : report.payouts.length === 0 ? (
        <p className="muted">No affiliate has $100 or more payable. Nothing to pay this month.</p>
      ) : (
        <>
          <p className="muted">Pay these on or before {payoutDate(report.payBy)} through Wise, then mark each one paid.</p>
          <StackTable label="Payable affiliates" columns={["Affiliate", "Wise tag", "Sales", "Payable"]} action="Action">
            {report.payouts.map((row) => (
              <tr key={row.affiliateID}>
                <th scope="row">
                  {row.affiliateID}
                  <span className="muted small admin-section__who">
                    {row.name} · {row.email}
                  </span>
                </th>
                <td data-label="Wise tag">{row.wiseTag ?? <span className="muted">No Wise tag yet</span>}</td>
                <td data-label="Sales">{row.sales}</td>
                <td data-label="Payable">
                  <span>{usdFromCents(row.payableCents)}</span>
                  {row.refundedCents > 0 ? (
                    <span className="muted small admin-section__who">{`after ${usdFromCents(row.refundedCents)} of refunded sales`}</span>
                  ) : null}
                </td>
                <td>
                  <button
                    type="button"
                    className="button button--primary"
                    disabled={busy !== null}
                    onClick={() => markPaid(row)}
                    aria-label={`Mark paid: ${usdFromCents(row.payableCents)} to ${row.affiliateID}`}
                  >
                    {busy === row.affiliateID ? "Marking…" : "Mark paid"}
                  </button>
                </td>
              </tr>
            ))}
          </StackTable>
        </>
      )}
    </section>
  );
}
