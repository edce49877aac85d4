import { usd } from "../../../contracts/money.ts";
import { useMemo } from "react";
import type { ChartOptions } from "chart.js";
import type { Savings } from "../../../workers/domain/savings.ts";
import { LazyChart } from "../charts/lazy-chart.tsx";

const BY_HAND = "#5f6973";
const WITH_APP = "#267a65";
const PLAN = "#0f3d33";

const money = (value: number | string) => usd(Number(value), { cents: "none" });

const OPTIONS: ChartOptions<"bar"> = {
  responsive: true,
  maintainAspectRatio: false,
  animation: false,
  scales: {
    x: { stacked: true, grid: { display: false }, ticks: { color: "#1d2226", font: { size: 13 } } },
    y: { stacked: true, beginAtZero: true, ticks: { color: "#4b5560", callback: (value) => money(value) } },
  },
  plugins: {
    legend: { position: "bottom", labels: { color: "#1d2226" } },
    tooltip: { callbacks: { label: (item) => `${item.dataset.label}: ${money(item.parsed.y ?? 0)} a month` } },
  },
};

/**
 * The monthly cost of pins, by hand against with the product, as stacked bars.
 * The table next to it carries the same numbers for screen readers and before
 * scripts run.
 */
export function SavingsChart({ figures, describedBy }: { figures: Savings; describedBy: string }) {
  const data = useMemo(
    () => ({
      labels: ["By hand", "With Pinboard Studio"],
      datasets: [
        { label: "Your time", data: [figures.timeCostByHand, figures.timeCostWithApp], backgroundColor: [BY_HAND, WITH_APP], borderRadius: 4 },
        { label: "Plan", data: [0, figures.planPrice], backgroundColor: PLAN, borderRadius: 4 },
      ],
    }),
    [figures],
  );
  return (
    <div className="savings__chart">
      <LazyChart
        type="bar"
        data={data}
        options={OPTIONS}
        parts={({ BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip }) => [
          BarController,
          BarElement,
          CategoryScale,
          LinearScale,
          Legend,
          Tooltip,
        ]}
        label={`Cost per month: by hand ${money(figures.timeCostByHand)}; with Pinboard Studio ${money(figures.timeCostWithApp + figures.planPrice)}, of which the plan ${usd(figures.planPrice)}. Details in the table.`}
        aria-describedby={describedBy}
        data-total={String(figures.timeCostByHand)}
      />
    </div>
  );
}
