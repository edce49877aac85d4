import { useMemo } from "react";
import { weekLabel } from "../../lib/keyword-research.ts";
import { LazyChart } from "../charts/lazy-chart.tsx";
import { lineChartOptions } from "../charts/line-options.ts";

export interface ChartedTerm {
  term: string;
  values: number[];
}

/** Line colours that stay apart for most kinds of colour blindness (Okabe-Ito), darkened to read on white. */
export const LINE_COLOURS = ["#0f6e56", "#c2410c", "#1d4ed8", "#a21caf", "#854d0e", "#0e7490", "#be123c", "#4d7c0f"];
export const MAX_CHARTED_TERMS = LINE_COLOURS.length;

/**
 * The chosen terms' weekly interest over the last year as lines (the site's LazyChart: Chart.js is
 * imported when the first results arrive, so it never weighs on other pages). The table carries the
 * same figures for screen readers.
 */
export function InterestChart({ weeks, terms, describedBy }: { weeks: string[]; terms: ChartedTerm[]; describedBy: string }) {
  const data = useMemo(() => dataOf(weeks, terms), [weeks, terms]);
  const options = useMemo(
    () =>
      lineChartOptions(
        12,
        {
          min: 0,
          max: 100,
          ticks: { color: "#4b5560", stepSize: 25 },
          title: { display: true, text: "Interest (busiest week = 100)", color: "#4b5560" },
        },
        {
          legend: { position: "bottom", labels: { color: "#1d2226", usePointStyle: true } },
          tooltip: { callbacks: { title: (items) => `Week ending ${weekLabel(weeks[items[0]?.dataIndex ?? 0] ?? "")}` } },
        },
      ),
    [weeks],
  );

  const summary =
    terms.length === 0
      ? "No terms chosen for the chart."
      : `Interest over the last year, by week: ${terms.map((term) => `${term.term} peaks in the week ending ${weekLabel(weeks[term.values.indexOf(Math.max(...term.values))] ?? weeks[0] ?? "")}`).join("; ")}.`;

  return (
    <div className="keywords__chart">
      <LazyChart
        type="line"
        data={data}
        options={options}
        parts={lineParts}
        label={summary}
        aria-describedby={describedBy}
        data-terms={terms.map((term) => term.term).join("|")}
      />
    </div>
  );
}

const lineParts = ({ LineController, LineElement, PointElement, CategoryScale, LinearScale, Legend, Tooltip }: typeof import("chart.js")) => [
  LineController,
  LineElement,
  PointElement,
  CategoryScale,
  LinearScale,
  Legend,
  Tooltip,
];

function dataOf(weeks: string[], terms: ChartedTerm[]) {
  return {
    labels: weeks.map((week) => weekLabel(week, { month: "short", day: "numeric" })),
    datasets: terms.map((term, index) => ({
      label: term.term,
      data: term.values,
      borderColor: LINE_COLOURS[index % LINE_COLOURS.length],
      backgroundColor: LINE_COLOURS[index % LINE_COLOURS.length],
      borderWidth: 2,
      pointRadius: 0,
      pointHoverRadius: 4,
      tension: 0.25,
    })),
  };
}
