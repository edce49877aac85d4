import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { TemplateDesign } from "../../../contracts/content/template.ts";
import { STANDARD_TEMPLATES } from "../../../workers/db/seed/standard-templates.ts";
import { httpPictureSource } from "../../../workers/render/pictures.ts";
import { fontsNeeded, planPin } from "../../../workers/render/layout.ts";
import { renderPin } from "../../../workers/render/render-pin.ts";
import { workerFontLoader } from "../../../workers/render/worker-fonts.ts";
import { testEnv } from "../support.ts";
import { samplePost } from "./render-support.ts";

// Issue 40 point 4: with the design's Uppercase on, a split template showed mixed case. Every standard template,
// laid out as the renderer lays it out, puts every text in capitals; with Uppercase off, the templates that
// choose normal case keep it (so the check can fail).

const post = {
  ...samplePost,
  listItems: ["Layer soft throws", "Add warm lighting", "Bring in plants"],
  quote: "A small room asks for fewer, better things.",
};

const fonts = workerFontLoader(testEnv);

async function textsOf(design: TemplateDesign, useUpperCaseFont: boolean): Promise<string[]> {
  const content = { ...post, useUpperCaseFont };
  const plan = planPin(design, content, await fonts.loadAll(fontsNeeded(design, content)));
  return [...plan.texts.values()].map((text) => text.metrics.lines.join(" ").trim()).filter(Boolean);
}

describe("Uppercase on every standard template", () => {
  it("puts every text of every standard template in capitals when the design asks for it", async () => {
    const mixed: string[] = [];
    for (const template of STANDARD_TEMPLATES) {
      const design = v.parse(TemplateDesign, template.design);
      for (const text of await textsOf(design, true)) if (text !== text.toUpperCase()) mixed.push(`${template.id}: "${text}"`);
    }
    expect(mixed).toEqual([]);
  });

  it("leaves normal case where a template chooses it and Uppercase is off", async () => {
    const split = STANDARD_TEMPLATES.find((template) => template.id === "std-split-headline-top-02")!;
    const texts = await textsOf(v.parse(TemplateDesign, split.design), false);
    expect(texts).toContain("15 cozy fall decor ideas for a small living room");
  });

  it("draws the split template's title in capitals in the finished pin too", async () => {
    const split = v.parse(TemplateDesign, STANDARD_TEMPLATES.find((template) => template.id === "std-split-headline-top-02")!.design);
    const deps = { fonts, pictures: httpPictureSource(testEnv) };
    const upper = await renderPin(split, { ...post, useUpperCaseFont: true }, deps);
    const lower = await renderPin(split, { ...post, useUpperCaseFont: false }, deps);
    // The same template and words, drawn differently: the capitals reach the pixels.
    expect(Buffer.from(upper.pixels.data).equals(Buffer.from(lower.pixels.data))).toBe(false);
  });
});
