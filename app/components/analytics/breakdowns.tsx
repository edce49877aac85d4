import { useId } from "react";
import { BREAKDOWNS, type AnalyticsOverview, type Breakdown, type BreakdownRow } from "../../../contracts/pinterest/analytics.ts";
import { formatCount, formatRate } from "../../lib/pinterest/analytics.ts";
import { timeZoneLabel } from "../../lib/pinterest/times.ts";

const TITLES: Record<Breakdown, string> = {
  board: "By board",
  template: "By template",
  templateFamily: "By template family",
  source: "By source",
  hour: "By posting hour",
};
const FIRST_COLUMN: Record<Breakdown, string> = {
  board: "Board",
  template: "Template",
  templateFamily: "Family",
  source: "Source",
  hour: "Hour",
};

/**
 * The window's figures split by what made each pin (issue 41): board, template, template family, source and
 * posting hour, each a small table whose bars show the share of impressions.
 */
export function Breakdowns({ overview }: { overview: AnalyticsOverview }) {
  return (
    <section className="card analytics-card" aria-labelledby="analytics-breakdowns-title">
      <h2 id="analytics-breakdowns-title">What worked</h2>
      <p className="muted small">Each pin counted by its board, template, source and the hour it was posted (in {timeZoneLabel(overview.timeZone)}).</p>
      <div className="analytics-breakdowns">
        {BREAKDOWNS.map((breakdown) => (
          <BreakdownTable key={breakdown} breakdown={breakdown} rows={overview.breakdowns[breakdown] ?? []} />
        ))}
      </div>
    </section>
  );
}

function BreakdownTable({ breakdown, rows }: { breakdown: Breakdown; rows: readonly BreakdownRow[] }) {
  const id = useId();
  const most = Math.max(1, ...rows.map((row) => row.impressions));
  return (
    <div className="analytics-breakdown">
      <h3 id={`${id}-title`}>{TITLES[breakdown]}</h3>
      {rows.length === 0 ? (
        <p className="muted small">No figures.</p>
      ) : (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard to scroll it.
        <div className="analytics-table-scroll" tabIndex={0} role="region" aria-labelledby={`${id}-title`}>
          <table className="analytics-table analytics-table--breakdown" data-breakdown={breakdown}>
            <thead>
              <tr>
                <th scope="col">{FIRST_COLUMN[breakdown]}</th>
                <th scope="col">Pins</th>
                <th scope="col">Impressions</th>
                <th scope="col">Saves</th>
                <th scope="col">Outbound clicks</th>
                <th scope="col">Engagement</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.key}>
                  <th scope="row">{row.label}</th>
                  <td data-label="Pins">{formatCount(row.pins)}</td>
                  <td data-label="Impressions">
                    <span className="analytics-bar">
                      <span className="analytics-bar__fill" style={{ width: `${Math.round((row.impressions / most) * 100)}%` }} aria-hidden="true" />
                      <span className="analytics-bar__value">{formatCount(row.impressions)}</span>
                    </span>
                  </td>
                  <td data-label="Saves">{formatCount(row.saves)}</td>
                  <td data-label="Outbound clicks">{formatCount(row.outboundClicks)}</td>
                  <td data-label="Engagement">{formatRate(row.engagementRate)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
