import type { PostContent, TemplateDesign } from "../../contracts/content/template.ts";
import type { PreviewSteps } from "./pin-preview.ts";

/** What the page asks of a preview worker (app/lib/preview-worker.ts). */
export type PreviewRequest =
  | { type: "render"; id: number; design: TemplateDesign; post?: PostContent }
  | { type: "warm"; id: number; designs: TemplateDesign[] }
  | { type: "preload"; urls: string[] };

/**
 * A worker's answer: a render's SVG (as a Blob made in the worker, which
 * crosses to the page without the page copying or parsing its text) or why
 * there is none, or (svg and error absent) that it is warm.
 */
export type PreviewReply =
  | { id: number; svg: Blob; steps: PreviewSteps; error?: undefined }
  | { id: number; error: string; svg?: undefined }
  | { id: number; svg?: undefined; error?: undefined; steps?: PreviewSteps };
