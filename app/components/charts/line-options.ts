import type { ChartOptions } from "chart.js";

type LineScale = NonNullable<NonNullable<ChartOptions<"line">["scales"]>["y"]>;

/**
 * The site's line charts: sized by their box, drawn at once (no animation), one tooltip for every line at the
 * hovered point, the time axis without grid lines and thinned to `xTicks` labels; the value axis and the legend and
 * tooltip are each chart's own.
 */
export function lineChartOptions(xTicks: number, y: LineScale, plugins: ChartOptions<"line">["plugins"]): ChartOptions<"line"> {
  return {
    responsive: true,
    maintainAspectRatio: false,
    animation: false,
    interaction: { mode: "index", intersect: false },
    scales: { x: { grid: { display: false }, ticks: { color: "#1d2226", maxTicksLimit: xTicks, autoSkip: true } }, y },
    plugins,
  };
}
