import { useEffect, useRef } from "react";
import type { Savings } from "../../../workers/domain/savings.ts";

type ChartInstance = import("chart.js").Chart<"bar", number[], string>;

const BY_HAND = "#5f6973";
const WITH_APP = "#267a65";
const PLAN = "#0f3d33";

/**
 * The monthly cost of pins, by hand against with the product, as stacked bars
 * (Chart.js, loaded after the page so it never delays the figures). The table
 * next to it carries the same numbers for screen readers and before scripts run.
 */
export function SavingsChart({ figures, describedBy }: { figures: Savings; describedBy: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const chart = useRef<ChartInstance | null>(null);
  const latest = useRef(figures);
  latest.current = figures;

  useEffect(() => {
    let cancelled = false;
    void import("chart.js").then(({ Chart, BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip }) => {
      if (cancelled || !canvas.current) return;
      Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip);
      const money = (value: number | string) => `$${Number(value).toLocaleString("en-US", { maximumFractionDigits: 0 })}`;
      chart.current = new Chart(canvas.current, {
        type: "bar",
        data: { labels: ["By hand", "With Pinboard Studio"], datasets: datasets(latest.current) },
        options: {
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
        },
      });
      canvas.current.dataset.ready = "true";
    });
    return () => {
      cancelled = true;
      chart.current?.destroy();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    if (!chart.current) return;
    chart.current.data.datasets = datasets(figures);
    chart.current.update();
    if (canvas.current) canvas.current.dataset.total = String(figures.timeCostByHand);
  }, [figures]);

  return (
    <div className="savings__chart">
      <canvas
        ref={canvas}
        role="img"
        aria-label={`Cost per month: by hand $${figures.timeCostByHand.toFixed(0)}; with Pinboard Studio $${(figures.timeCostWithApp + figures.planPrice).toFixed(0)}, of which the plan $${figures.planPrice.toFixed(2)}. Details in the table.`}
        aria-describedby={describedBy}
        data-total={String(figures.timeCostByHand)}
      />
    </div>
  );
}

function datasets(figures: Savings) {
  return [
    { label: "Your time", data: [figures.timeCostByHand, figures.timeCostWithApp], backgroundColor: [BY_HAND, WITH_APP], borderRadius: 4 },
    { label: "Plan", data: [0, figures.planPrice], backgroundColor: PLAN, borderRadius: 4 },
  ];
}
