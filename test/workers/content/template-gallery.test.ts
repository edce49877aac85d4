import { PhotonImage } from "@cf-wasm/photon/workerd";
import { Resvg } from "@cf-wasm/resvg/workerd";
import { satori } from "@cf-wasm/satori/workerd";
import * as v from "valibot";
import { afterAll, describe, expect, it } from "vitest";
import { PIN_HEIGHT, PIN_WIDTH, TEMPLATE_FAMILIES, TemplateDesign, type PostContent } from "../../../contracts/content/template.ts";
import { COLOR_PALETTES } from "../../../workers/db/seed/palettes.ts";
import { STANDARD_TEMPLATES } from "../../../workers/db/seed/standard-templates.ts";
import { satoriElement, satoriFonts, type PinPlan, type PlannedText } from "../../../workers/render/layout.ts";
import { httpPictureSource } from "../../../workers/render/pictures.ts";
import { isUniform, type Bitmap } from "../../../workers/render/pixels.ts";
import { renderPin } from "../../../workers/render/render-pin.ts";
import { workerFontLoader } from "../../../workers/render/worker-fonts.ts";
import { testEnv } from "../support.ts";

/**
 * The standard template gallery: every template is rendered with realistic
 * content and must come out whole: a 1000 x 1500 picture that is not blank,
 * real photos in every picture box, and every text layer inside its box,
 * auto-fitted without an ellipsis and (for the title) large enough to read.
 */

const photo = (name: string) => `${testEnv.SANDBOX_URL}/blog-demo/images/${name}`;

/** Three realistic posts (titles of 49-64 characters, ~150-character descriptions), taken in turn. */
const POSTS: PostContent[] = [
  {
    title: "One-Pan Lemon Garlic Chicken for Busy Weeknights",
    description:
      "Juicy chicken thighs, crispy potatoes and a bright lemon garlic sauce, all roasted on one sheet pan in 35 minutes, with barely any washing up.",
    URLText: "linenandlark.com",
    brandName: "Linen & Lark",
    price: "$24",
    listItems: ["Pat the chicken dry", "Halve the potatoes", "Tuck in lemon and garlic", "Roast at 220 °C", "Finish with parsley"],
    quote: "Some dinners earn a permanent spot in the rotation because they are forgiving.",
    allImages: [
      photo("one-pan-lemon-garlic-chicken-1.jpg"),
      photo("one-pan-lemon-garlic-chicken-2.jpg"),
      photo("berry-smoothie-bowls-3.jpg"),
      photo("balcony-herb-garden-1.jpg"),
    ],
  },
  {
    title: "Amalfi Coast Itinerary: 5 Perfect Days from Positano to Ravello",
    description:
      "Where to stay, what to eat and how to get around by ferry and bus: a relaxed five-day route along Italy's most beautiful coastline, with a map.",
    URLText: "wanderlustjournal.co",
    brandName: "Wanderlust Journal",
    price: "$24",
    listItems: [
      "Arrive by ferry from Salerno",
      "Hike the Path of the Gods",
      "Ride the bus up to Ravello",
      "Take a boat to Capri",
      "Keep the last day unplanned",
    ],
    quote: "The coast rewards people who slow down to its pace.",
    allImages: [
      photo("amalfi-coast-itinerary-1.jpg"),
      photo("amalfi-coast-itinerary-2.jpg"),
      photo("golden-hour-phone-photography-1.jpg"),
      photo("mountain-cabin-weekend-packing-list-2.jpg"),
    ],
  },
  {
    title: "Cozy Small Living Room Ideas That Make Every Inch Count",
    description: "Layered textiles, clever storage and warm lighting: twelve budget-friendly ideas to make a tiny living room feel calm, bright and inviting.",
    URLText: "homebyhazel.com",
    brandName: "Home by Hazel",
    price: "$24",
    listItems: ["Choose a bigger rug", "Lift furniture off the floor", "Layer your lighting", "Hang curtains high and wide", "Edit your surfaces"],
    quote: "A calm room always feels bigger than a full one, and every object needs a home.",
    allImages: [
      photo("cozy-small-living-room-ideas-1.jpg"),
      photo("cozy-small-living-room-ideas-2.jpg"),
      photo("diy-yarn-wall-hanging-2.jpg"),
      photo("sunday-weekly-planning-routine-3.png"),
    ],
  },
];

/** How far ink may stray outside its layer box (anti-aliasing, rounding). */
const TOLERANCE = 4;
/** The smallest title size a pin can be read at in a feed. */
const MIN_TITLE_SIZE = 28;
/** Empty room around a text layer when it is drawn alone, so overflow is seen rather than clipped. */
const MARGIN = 48;

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Draws one text layer alone (no shadow, transparent background) the way the
 * renderer draws text (satori, then resvg) and returns its ink bounding box
 * in pin coordinates, or null when nothing is drawn. The layer is drawn in a
 * canvas of its own size plus a margin, which is quicker than the whole pin.
 */
async function inkBox(plan: PinPlan, planned: PlannedText): Promise<Box | null> {
  const { layer } = planned;
  const shifted = { ...layer, x: MARGIN, y: MARGIN };
  const width = Math.ceil(layer.width) + 2 * MARGIN;
  const height = Math.ceil(layer.height) + 2 * MARGIN;
  const solo: PinPlan = { ...plan, width, height, texts: new Map([[layer.id, { ...planned, layer: shifted, shadow: false }]]) };
  const svg = await satori(satoriElement(solo, [shifted], false) as never, { width, height, fonts: satoriFonts(plan) });
  const rendered = new Resvg(svg, { fitTo: { mode: "original" }, font: { loadSystemFonts: false } }).render();
  const pixels = rendered.pixels;
  rendered.free();
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      // Ink: any pixel that is not (nearly) transparent.
      if (pixels[(y * width + x) * 4 + 3] < 8) continue;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
  }
  if (x1 < 0) return null;
  return { x: x0 - MARGIN + layer.x, y: y0 - MARGIN + layer.y, width: x1 - x0 + 1, height: y1 - y0 + 1 };
}

/**
 * The spread of brightness over a grid of points inside a picture box of the
 * rendered pin, leaving out points that later layers (shapes, text, other
 * pictures) cover, so the photo itself is judged rather than what lies on it.
 */
function variation(pixels: Bitmap, box: Box, inset: number, covers: Box[]): { spread: number; colours: number; points: number } {
  const x0 = Math.max(0, box.x + inset);
  const y0 = Math.max(0, box.y + inset);
  const x1 = Math.min(pixels.width - 1, box.x + box.width - inset);
  const y1 = Math.min(pixels.height - 1, box.y + box.height - inset);
  const steps = 32;
  const grid: [number, number][] = [];
  for (let i = 0; i <= steps; i++) {
    for (let j = 0; j <= steps; j++) grid.push([Math.round(x0 + ((x1 - x0) * i) / steps), Math.round(y0 + ((y1 - y0) * j) / steps)]);
  }
  const inside = (b: Box, x: number, y: number) => x >= b.x && x < b.x + b.width && y >= b.y && y < b.y + b.height;
  const open = grid.filter(([x, y]) => !covers.some((cover) => inside(cover, x, y)));
  const points = open.length >= 40 ? open : grid;
  const values: number[] = [];
  const colours = new Set<number>();
  for (const [x, y] of points) {
    const o = (y * pixels.width + x) * 4;
    const [r, g, b] = [pixels.data[o], pixels.data[o + 1], pixels.data[o + 2]];
    values.push(0.2126 * r + 0.7152 * g + 0.0722 * b);
    colours.add(((r >> 4) << 8) | ((g >> 4) << 4) | (b >> 4));
  }
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  const spread = Math.sqrt(values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / values.length);
  return { spread, colours: colours.size, points: points.length };
}

const timings: { id: string; ms: number }[] = [];

describe("standard templates", () => {
  it("are many, spread over every family, with unique ids and valid designs", () => {
    expect(STANDARD_TEMPLATES.length).toBeGreaterThanOrEqual(100);
    const ids = STANDARD_TEMPLATES.map((template) => template.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const family of TEMPLATE_FAMILIES) {
      expect(STANDARD_TEMPLATES.filter((template) => template.design.family === family).length, family).toBeGreaterThanOrEqual(8);
    }
    for (const { id, design } of STANDARD_TEMPLATES) {
      const parsed = v.safeParse(TemplateDesign, design);
      expect(parsed.success ? [] : parsed.issues.map((issue) => issue.message), id).toEqual([]);
      const layerIds = design.layers.map((layer) => layer.id);
      expect(new Set(layerIds).size, `${id}: layer ids are unique`).toBe(layerIds.length);
      // Quote pins show the post's quotation in the title's place (issue 13).
      const headline = design.family === "quote" ? "quote" : "title";
      expect(
        design.layers.some((layer) => layer.type === "text" && layer.content === headline && !layer.hidden),
        `${id}: shows the ${headline}`,
      ).toBe(true);
      expect(design.categories?.length ?? 0, `${id}: 1-3 categories`).toBeGreaterThanOrEqual(1);
      expect(design.categories?.length ?? 0, `${id}: 1-3 categories`).toBeLessThanOrEqual(3);
    }
  });

  it("come with 18 palettes of five colours, Seafoam first with the default pin colour at index 1", () => {
    expect(COLOR_PALETTES).toHaveLength(18);
    expect(new Set(COLOR_PALETTES.map((palette) => palette.id)).size).toBe(18);
    for (const palette of COLOR_PALETTES) expect(palette.colors, palette.name).toHaveLength(5);
    expect(COLOR_PALETTES[0].name).toBe("Seafoam");
    expect(COLOR_PALETTES[0].colors[1]).toEqual({ r: 81, g: 195, b: 166, a: 1 });
  });

  const deps = { fonts: workerFontLoader(testEnv), pictures: httpPictureSource(testEnv) };

  STANDARD_TEMPLATES.forEach(({ id, design: input }, index) => {
    it(`${id} renders whole`, async () => {
      const design = v.parse(TemplateDesign, input);
      const post = POSTS[index % POSTS.length];
      const started = performance.now();
      const pin = await renderPin(design, post, deps);
      timings.push({ id, ms: performance.now() - started });

      // A real 1000 x 1500 picture, not a blank one.
      const decoded = PhotonImage.new_from_byteslice(pin.jpeg);
      const size = [decoded.get_width(), decoded.get_height()];
      decoded.free();
      expect(size).toEqual([PIN_WIDTH, PIN_HEIGHT]);
      expect(isUniform(pin.pixels), "the pin is one flat colour").toBe(false);

      // Every picture box shows a photo (a flat box means the picture went missing).
      const visible = design.layers.filter((layer) => !layer.hidden);
      visible.forEach((layer, position) => {
        if (layer.type !== "Image" && layer.type !== "Video") return;
        expect(pin.plan.pictures.get(layer.id)?.url, `${layer.name}: has a picture`).toBeTruthy();
        const inset = Math.min((layer.borderRadius ?? 0) * 0.3 + 4, layer.width / 4, layer.height / 4);
        const { spread, colours } = variation(pin.pixels, layer, inset, visible.slice(position + 1));
        expect(spread, `${layer.name}: brightness varies inside the box`).toBeGreaterThan(6);
        expect(colours, `${layer.name}: several colours inside the box`).toBeGreaterThan(8);
      });

      // Every text layer stays inside its box, fitted without an ellipsis.
      const problems: string[] = [];
      for (const planned of pin.plan.texts.values()) {
        const { layer, metrics } = planned;
        if (metrics.lines.length === 0) continue;
        const auto = (layer.style?.fontSize ?? "auto") === "auto";
        if (auto && metrics.truncated) problems.push(`${layer.name}: cut short at ${metrics.fontSize}px`);
        if (layer.content === "title" && metrics.fontSize < MIN_TITLE_SIZE) problems.push(`${layer.name}: ${metrics.fontSize}px is too small to read`);
        expect(layer.rotation ?? 0, `${layer.name}: text is not rotated`).toBe(0);
        const ink = await inkBox(pin.plan, planned);
        if (!ink) {
          problems.push(`${layer.name}: draws nothing`);
          continue;
        }
        const outside = [layer.x - ink.x, layer.y - ink.y, ink.x + ink.width - (layer.x + layer.width), ink.y + ink.height - (layer.y + layer.height)];
        const by = Math.max(...outside);
        if (by > TOLERANCE) {
          // Ink reaching the margin's edge was clipped there: it strays at least that far.
          const amount = by >= MARGIN ? `at least ${MARGIN}px` : `${by}px`;
          problems.push(
            `${layer.name}: ink ${ink.x},${ink.y} ${ink.width}x${ink.height} leaves its box ${layer.x},${layer.y} ${layer.width}x${layer.height} by ${amount}`,
          );
        }
      }
      expect(problems).toEqual([]);
    });
  });

  afterAll(() => {
    if (timings.length === 0) return;
    const slowest = timings.reduce((a, b) => (b.ms > a.ms ? b : a));
    const families = TEMPLATE_FAMILIES.map((family) => `${family} ${STANDARD_TEMPLATES.filter((t) => t.design.family === family).length}`).join(", ");
    console.log(
      `template gallery: ${timings.length}/${STANDARD_TEMPLATES.length} rendered (${families}); slowest ${slowest.id} ${Math.round(slowest.ms)} ms; average ${Math.round(timings.reduce((sum, t) => sum + t.ms, 0) / timings.length)} ms`,
    );
  });
});
