import { Resvg } from "@cf-wasm/resvg/workerd";
import { satori } from "@cf-wasm/satori/workerd";
import type { FontLoader } from "./fonts.ts";
import type { SatoriNode } from "./layout.ts";
import { escapeHtml } from "../../contracts/html.ts";

/**
 * A small line chart of a keyword's recent weekly interest (0-100) for trend
 * alert e-mails, drawn by the pin engine: satori lays out the words (title,
 * scale, first and last week), the line is plain SVG in the same document, and
 * resvg rasterises it to PNG (e-mail clients show PNG, not SVG).
 */

export const TREND_CHART_SIZE = { width: 560, height: 240 } as const;

const PLOT = { left: 48, top: 76, right: 24, bottom: 40 } as const;
const INK = "#1d2226";
const MUTED = "#5b6670";
const LINE = "#2f8f77";
const GRID = "#dfe5e3";

export interface TrendChartInput {
  /** The heading, e.g. "christmas nails · United States". */
  title: string;
  /** A second line, e.g. "Weekly Pinterest searches, busiest week = 100 · up 50% on the week before" (one line, cut with an ellipsis). */
  subtitle: string;
  /** Week endings as people read them ("Sep 6"), oldest first. */
  weekLabels: string[];
  /** Relative interest 0-100 per week, oldest first (at least 2). */
  values: number[];
}

const node = (type: string, props: SatoriNode["props"]): SatoriNode => ({ type, props });
const escapeXml = escapeHtml;

/** The chart's line, area and grid as SVG markup in chart coordinates. */
export function plotMarkup(values: number[]): string {
  const { width, height } = TREND_CHART_SIZE;
  const plotWidth = width - PLOT.left - PLOT.right;
  const plotHeight = height - PLOT.top - PLOT.bottom;
  const top = Math.max(100, ...values);
  const x = (index: number) => PLOT.left + (values.length === 1 ? plotWidth : (index / (values.length - 1)) * plotWidth);
  const y = (value: number) => PLOT.top + plotHeight - (Math.max(0, value) / top) * plotHeight;
  const points = values.map((value, index) => `${x(index).toFixed(1)},${y(value).toFixed(1)}`);
  const baseline = (PLOT.top + plotHeight).toFixed(1);
  const grid = [0, 50, 100]
    .map(
      (level) =>
        `<line x1="${PLOT.left}" x2="${width - PLOT.right}" y1="${y(level).toFixed(1)}" y2="${y(level).toFixed(1)}" stroke="${GRID}" stroke-width="1"/>`,
    )
    .join("");
  const area = `<polygon points="${x(0).toFixed(1)},${baseline} ${points.join(" ")} ${x(values.length - 1).toFixed(1)},${baseline}" fill="${LINE}" fill-opacity="0.12"/>`;
  const line = `<polyline points="${points.join(" ")}" fill="none" stroke="${LINE}" stroke-width="3" stroke-linejoin="round" stroke-linecap="round"/>`;
  const last = `<circle cx="${x(values.length - 1).toFixed(1)}" cy="${y(values.at(-1)!).toFixed(1)}" r="5" fill="${LINE}"/>`;
  return `<g>${grid}${area}${line}${last}</g>`;
}

function wordsElement(input: TrendChartInput): SatoriNode {
  const { width, height } = TREND_CHART_SIZE;
  const text = (content: string, style: Record<string, unknown>) =>
    node("div", { style: { position: "absolute", display: "flex", fontFamily: "Inter", ...style }, children: content });
  const plotHeight = height - PLOT.top - PLOT.bottom;
  return node("div", {
    style: { position: "relative", display: "flex", width, height, backgroundColor: "#ffffff" },
    children: [
      text(input.title, {
        left: 16,
        top: 12,
        width: width - 32,
        height: 24,
        overflow: "hidden",
        whiteSpace: "nowrap",
        textOverflow: "ellipsis",
        fontSize: 18,
        fontWeight: 700,
        color: INK,
      }),
      text(input.subtitle, {
        left: 16,
        top: 38,
        width: width - 32,
        height: 18,
        overflow: "hidden",
        whiteSpace: "nowrap",
        textOverflow: "ellipsis",
        fontSize: 13,
        color: MUTED,
      }),
      text("100", { left: 8, top: PLOT.top - 8, width: 32, fontSize: 11, color: MUTED, justifyContent: "flex-end" }),
      text("50", { left: 8, top: PLOT.top + plotHeight / 2 - 8, width: 32, fontSize: 11, color: MUTED, justifyContent: "flex-end" }),
      text("0", { left: 8, top: PLOT.top + plotHeight - 8, width: 32, fontSize: 11, color: MUTED, justifyContent: "flex-end" }),
      text(input.weekLabels[0] ?? "", { left: PLOT.left, top: height - PLOT.bottom + 10, fontSize: 12, color: MUTED }),
      text(input.weekLabels.at(-1) ?? "", { right: PLOT.right, top: height - PLOT.bottom + 10, fontSize: 12, color: MUTED }),
    ],
  });
}

/** The chart as PNG bytes. */
export async function renderTrendChart(input: TrendChartInput, fonts: FontLoader): Promise<Uint8Array> {
  if (input.values.length < 2) throw new Error("a trend chart needs at least two weeks");
  const [regular, bold] = await fonts.loadAll([
    { family: "Inter", weight: 400 },
    { family: "Inter", weight: 700 },
  ]);
  const { width, height } = TREND_CHART_SIZE;
  const words = await satori(wordsElement(input) as never, {
    width,
    height,
    fonts: [
      { name: "Inter", data: regular.data, weight: 400, style: "normal" },
      { name: "Inter", data: bold.data, weight: 700, style: "normal" },
    ],
  });
  const close = words.lastIndexOf("</svg>");
  const svg = `${words.slice(0, close)}${plotMarkup(input.values)}<title>${escapeXml(input.title)}</title></svg>`;
  const rendered = new Resvg(svg, { fitTo: { mode: "original" }, font: { loadSystemFonts: false } }).render();
  try {
    return rendered.asPng();
  } finally {
    rendered.free();
  }
}
