import { useId, useMemo, useState } from "react";
import type { AnalyticsOverview, DailyMetrics } from "../../../contracts/pinterest/analytics.ts";
import { dayLabel, formatCount, formatRate } from "../../lib/pinterest/analytics.ts";
import { LazyChart } from "../charts/lazy-chart.tsx";
import { lineChartOptions } from "../charts/line-options.ts";

type Metric = "impressions" | "saves" | "outboundClicks" | "engagementRate";

const METRICS: { key: Metric; label: string; colour: string }[] = [
  { key: "impressions", label: "Impressions", colour: "#1d4ed8" },
  { key: "saves", label: "Saves", colour: "#0f6e56" },
  { key: "outboundClicks", label: "Outbound clicks", colour: "#c2410c" },
  { key: "engagementRate", label: "Engagement rate", colour: "#a21caf" },
];

const show = (metric: Metric, value: number) => (metric === "engagementRate" ? formatRate(value) : formatCount(value));

/**
 * The window's figures day by day: one metric at a time as a line (Chart.js, loaded after the page), and all four
 * in a table that a button shows and hides.
 */
export function DailyFigures({ overview }: { overview: AnalyticsOverview }) {
  const id = useId();
  const [metric, setMetric] = useState<Metric>("impressions");
  const [tableShown, setTableShown] = useState(false);
  const chosen = METRICS.find((candidate) => candidate.key === metric)!;
  const { daily } = overview;

  const data = useMemo(
    () => ({
      labels: daily.map((day) => dayLabel(day.date)),
      datasets: [
        {
          label: chosen.label,
          data: daily.map((day) => day[metric]),
          borderColor: chosen.colour,
          backgroundColor: chosen.colour,
          borderWidth: 2,
          pointRadius: daily.length > 31 ? 0 : 2,
          pointHoverRadius: 4,
          tension: 0.25,
        },
      ],
    }),
    [daily, metric, chosen],
  );
  const options = useMemo(
    () =>
      lineChartOptions(
        10,
        {
          beginAtZero: true,
          ticks: {
            color: "#4b5560",
            precision: metric === "engagementRate" ? undefined : 0,
            callback: (value) => show(metric, Number(value)),
          },
        },
        {
          legend: { display: false },
          tooltip: { callbacks: { label: (item) => `${chosen.label}: ${show(metric, Number(item.raw))}` } },
        },
      ),
    [metric, chosen],
  );

  return (
    <section className="card analytics-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Day by day</h2>
      <fieldset className="analytics-metric">
        <legend className="visually-hidden">Figure to chart</legend>
        <div className="segmented">
          {METRICS.map((candidate) => (
            <label key={candidate.key} className="segmented__option">
              <input type="radio" name={`${id}-metric`} value={candidate.key} checked={metric === candidate.key} onChange={() => setMetric(candidate.key)} />
              <span>{candidate.label}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <div className="analytics-chart">
        <LazyChart
          type="line"
          data={data}
          options={options}
          parts={lineParts}
          label={summaryOf(chosen.label, metric, daily)}
          data-metric={metric}
          data-days={String(daily.length)}
        />
      </div>
      <button
        type="button"
        className="button button--ghost"
        aria-expanded={tableShown}
        aria-controls={`${id}-table`}
        onClick={() => setTableShown((shown) => !shown)}
      >
        {tableShown ? "Hide the table" : "Show as a table"}
      </button>
      <div id={`${id}-table`} hidden={!tableShown}>
        {tableShown ? <DailyTable daily={daily} /> : null}
      </div>
    </section>
  );
}

/** What the chart shows, in words: its total (or mean rate) and its best day. */
function summaryOf(label: string, metric: Metric, daily: readonly DailyMetrics[]): string {
  if (daily.length === 0) return `${label} by day: no days in this period.`;
  const best = daily.reduce((top, day) => (day[metric] > top[metric] ? day : top), daily[0]!);
  return `${label} by day from ${dayLabel(daily[0]!.date)} to ${dayLabel(daily[daily.length - 1]!.date)}; the best day is ${dayLabel(best.date)} with ${show(metric, best[metric])}. The table has every day.`;
}

function DailyTable({ daily }: { daily: readonly DailyMetrics[] }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard to scroll it.
    <div className="analytics-table-scroll" tabIndex={0} role="region" aria-label="Figures by day">
      <table className="analytics-table">
        <caption className="visually-hidden">Impressions, saves, outbound clicks and engagement rate by day (UTC days, as Pinterest reports them)</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Impressions</th>
            <th scope="col">Saves</th>
            <th scope="col">Outbound clicks</th>
            <th scope="col">Engagement rate</th>
          </tr>
        </thead>
        <tbody>
          {daily.map((day) => (
            <tr key={day.date}>
              <th scope="row">{dayLabel(day.date, { weekday: "short", day: "numeric", month: "short" })}</th>
              <td data-label="Impressions">{formatCount(day.impressions)}</td>
              <td data-label="Saves">{formatCount(day.saves)}</td>
              <td data-label="Outbound clicks">{formatCount(day.outboundClicks)}</td>
              <td data-label="Engagement rate">{formatRate(day.engagementRate)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const lineParts = ({ LineController, LineElement, PointElement, CategoryScale, LinearScale, Tooltip }: typeof import("chart.js")) => [
  LineController,
  LineElement,
  PointElement,
  CategoryScale,
  LinearScale,
  Tooltip,
];
