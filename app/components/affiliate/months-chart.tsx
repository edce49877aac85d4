import { useMemo } from "react";
import type { ChartOptions } from "chart.js";
import type { AffiliateData } from "../../../contracts/growth/affiliate.ts";
import { LazyChart } from "../charts/lazy-chart.tsx";
import { monthName } from "./affiliate-api.ts";

const CLICKS = "#5f6973";
const SIGN_UPS = "#267a65";

const OPTIONS: ChartOptions<"bar"> = {
  responsive: true,
  maintainAspectRatio: false,
  animation: false,
  scales: {
    x: { grid: { display: false }, ticks: { color: "#1d2226" } },
    y: { beginAtZero: true, ticks: { color: "#4b5560", precision: 0 } },
  },
  plugins: { legend: { position: "bottom", labels: { color: "#1d2226" } } },
};

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? "" : "s"}`;

/** Clicks and sign-ups of the last six months as grouped bars; the table below carries the same figures. */
export function AffiliateMonthsChart({ months, describedBy }: { months: AffiliateData["months"]; describedBy: string }) {
  const data = useMemo(
    () => ({
      labels: months.map((row) => monthName(row.month).split(" ")[0]),
      datasets: [
        { label: "Clicks", data: months.map((row) => row.clicks), backgroundColor: CLICKS, borderRadius: 4 },
        { label: "Sign-ups", data: months.map((row) => row.signUps), backgroundColor: SIGN_UPS, borderRadius: 4 },
      ],
    }),
    [months],
  );
  const clicks = months.reduce((sum, row) => sum + row.clicks, 0);
  const signUps = months.reduce((sum, row) => sum + row.signUps, 0);
  return (
    <div className="affiliate-chart">
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
        label={`Clicks and sign-ups by month over the last ${months.length} months: ${plural(clicks, "click")}, ${plural(signUps, "sign-up")}. Details in the table.`}
        aria-describedby={describedBy}
        data-clicks={String(clicks)}
      />
    </div>
  );
}
