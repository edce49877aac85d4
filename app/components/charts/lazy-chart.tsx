import type { ChartComponentLike, ChartData, ChartOptions, ChartType } from "chart.js";
import { useEffect, useRef, type CanvasHTMLAttributes } from "react";

type ChartModule = typeof import("chart.js");
type ChartInstance = import("chart.js").Chart;

export interface LazyChartProps<TType extends ChartType> extends Omit<CanvasHTMLAttributes<HTMLCanvasElement>, "children"> {
  type: TType;
  data: ChartData<TType, number[], string>;
  options: ChartOptions<TType>;
  /** What this chart needs registered with Chart.js (controllers, elements, scales, plugins). */
  parts: (chartjs: ChartModule) => ChartComponentLike[];
  /** What the chart shows, for screen readers (a table or text beside it carries the figures too). */
  label: string;
}

/**
 * A Chart.js chart loaded after the page (a dynamic import), so the library
 * never weighs on the first load or delays the figures around it. The canvas
 * says `data-ready="true"` once drawn; new data redraws the same chart.
 */
export function LazyChart<TType extends ChartType>({ type, data, options, parts, label, ...canvasProps }: LazyChartProps<TType>) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const chart = useRef<ChartInstance | null>(null);
  const latest = useRef({ data, options });
  latest.current = { data, options };

  // biome-ignore lint/correctness/useExhaustiveDependencies: the chart is made once per mount; data and options changes are applied below.
  useEffect(() => {
    let cancelled = false;
    void import("chart.js").then((chartjs) => {
      if (cancelled || !canvas.current) return;
      chartjs.Chart.register(...parts(chartjs));
      chart.current = new chartjs.Chart(canvas.current, { type, data: latest.current.data, options: latest.current.options } as never);
      canvas.current.dataset.ready = "true";
    });
    return () => {
      cancelled = true;
      chart.current?.destroy();
      chart.current = null;
    };
  }, [type]);

  useEffect(() => {
    if (!chart.current) return;
    chart.current.data = data as ChartData;
    chart.current.options = options as ChartOptions;
    chart.current.update();
  }, [data, options]);

  return <canvas ref={canvas} role="img" aria-label={label} {...canvasProps} />;
}
