import { afterAll, describe, expect, it } from "vitest";
import * as v from "valibot";
import { TemplateDesign } from "../../../contracts/content/template.ts";
import { STANDARD_TEMPLATES } from "../../../workers/db/seed/standard-templates.ts";
import { httpPictureSource } from "../../../workers/render/pictures.ts";
import { renderPin } from "../../../workers/render/render-pin.ts";
import { parseSatoriSvg } from "../../../workers/render/vector.ts";
import { workerFontLoader } from "../../../workers/render/worker-fonts.ts";
import { testEnv } from "../support.ts";
import { samplePost } from "./render-support.ts";

const post = samplePost;

function psnr(a: Uint8Array | Uint8ClampedArray, b: Uint8Array | Uint8ClampedArray): number {
  let sum = 0;
  for (let i = 0; i < a.length; i += 4) for (let c = 0; c < 3; c++) sum += (a[i + c] - b[i + c]) ** 2;
  const mse = sum / ((a.length / 4) * 3);
  return mse === 0 ? Infinity : 10 * Math.log10((255 * 255) / mse);
}

const whiteOnGreen = v.parse(TemplateDesign, {
  title: "White title on a flat colour",
  background: "#2d6b5b",
  layers: [
    {
      type: "text",
      id: "title",
      name: "Title",
      content: "title",
      x: 80,
      y: 200,
      width: 840,
      height: 600,
      rotation: 0,
      opacity: 1,
      hidden: false,
      style: { fontSize: "auto", align: "center", color: "#ffffff" },
    },
  ],
  categories: [],
});

describe("text drawn by the renderer's own rasteriser", () => {
  const deps = { fonts: workerFontLoader(testEnv), pictures: httpPictureSource(testEnv) };

  const scores: { id: string; db: number }[] = [];
  STANDARD_TEMPLATES.forEach((template) => {
    it(`${template.id}: the same pixels as resvg's, within anti-aliasing`, async () => {
      const design = v.parse(TemplateDesign, template.design);
      const own = await renderPin(design, post, deps);
      const resvg = await renderPin(design, post, { ...deps, textRasteriser: "resvg" });
      const db = psnr(own.pixels.data, resvg.pixels.data);
      scores.push({ id: template.id, db });
      expect(db).toBeGreaterThan(40);
    });
  });
  afterAll(() => {
    scores.sort((a, b) => a.db - b.db);
    console.log(
      "lowest PSNR, own rasteriser vs resvg:",
      scores
        .slice(0, 5)
        .map((s) => `${s.id} ${s.db.toFixed(1)} dB`)
        .join(", "),
    );
  });

  it("gives white text on a colour soft edges, never a dark fringe, with either rasteriser", async () => {
    for (const textRasteriser of ["own", "resvg"] as const) {
      const pin = await renderPin(whiteOnGreen, post, { ...deps, textRasteriser });
      const d = pin.pixels.data;
      let darker = 0;
      let edges = 0;
      for (let i = 0; i < d.length; i += 4) {
        // Between the background (45, 107, 91) and white: every channel at least the background's.
        if (d[i] < 45 || d[i + 1] < 107 || d[i + 2] < 91) darker++;
        else if (d[i] > 60 && d[i] < 240) edges++;
      }
      expect(darker, `${textRasteriser}: pixels darker than the background`).toBe(0);
      expect(edges, `${textRasteriser}: anti-aliased edge pixels`).toBeGreaterThan(500);
    }
  });

  it("leaves SVG beyond plain filled shapes to resvg", () => {
    const plain =
      '<svg width="10" height="10" viewBox="0 0 10 10" xmlns="http://www.w3.org/2000/svg"><mask id="m"><rect x="0" y="0" width="10" height="10" fill="#fff"/></mask><g  ><path fill="#111111" d="M1 1L9 1L9 9Z"/></g></svg>';
    expect(parseSatoriSvg(plain, 0, 0)).toHaveLength(1);
    expect(parseSatoriSvg(plain.replace("<g  >", '<g mask="url(#m)">'), 0, 0)).toBeNull();
    expect(parseSatoriSvg(plain.replace('fill="#111111"', 'fill="url(#g)"'), 0, 0)).toBeNull();
    expect(parseSatoriSvg(plain.replace("<g  >", '<g transform="rotate(5)">'), 0, 0)).toBeNull();
    expect(parseSatoriSvg(plain.replace("</svg>", '<image href="x.png" width="4" height="4"/></svg>'), 0, 0)).toBeNull();
    expect(parseSatoriSvg(plain.replace('d="M1 1L9 1L9 9Z"', 'd="M1 1L9 1L9 9Z" stroke="#000"'), 0, 0)).toBeNull();
  });
});
