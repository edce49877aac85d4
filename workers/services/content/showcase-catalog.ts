import { and, eq, inArray } from "drizzle-orm";
import * as v from "valibot";
import { TemplateDesign, type PostContent } from "../../../contracts/content/template.ts";
import { database } from "../../db/client.ts";
import { templates } from "../../db/schema.ts";
import type { Env } from "../../env.ts";

/**
 * The home page's example pins (issue 17; decision 042): which standard
 * templates, filled with which real demo content. Rendered by
 * workers/services/content/showcase.ts; this half has no rendering code, so the home
 * page's loader can list the pictures without loading the engine.
 */

/** Bump when the demo content or the picture sizes below change. */
export const SHOWCASE_VERSION = 1;

/** The example pins' widths (2:3): the browser picks one for the size it shows and the screen's density. */
export const EXAMPLE_WIDTHS = [240, 320, 400] as const;
export type ExampleWidth = (typeof EXAMPLE_WIDTHS)[number];
export const EXAMPLE_WIDTH: ExampleWidth = 400;
export const EXAMPLE_HEIGHT = 600;
/** The Open Graph picture: the size Facebook, LinkedIn and X show large. */
export const OG_WIDTH = 1200;
export const OG_HEIGHT = 630;

export interface ExamplePin {
  /** The standard template it uses. */
  templateId: string;
  /** Who it is for (shown under the pin). */
  audience: string;
  /** What the pin shows, for its alt text. */
  alt: string;
  post: PostContent;
}

const sample = (name: string) => `/samples/${name}.jpg`;
const product = (name: string) => `/demo-products/${name}.jpg`;

/** Four pins, one per kind of user, with the demo blog's and demo shop's own photos. */
export const EXAMPLE_PINS: ExamplePin[] = [
  {
    templateId: "std-full-bleed-banner-01",
    audience: "A food blogger's recipe",
    alt: "Pin for a one-pan lemon garlic chicken recipe: a photo of the dish under a rounded title banner",
    post: {
      title: "One-pan lemon garlic chicken for busy weeknights",
      description: "Crispy chicken, golden potatoes and bright lemon, roasted together on one pan in 45 minutes.",
      URLText: "linenandlark.com",
      brandName: "Linen & Lark",
      allImages: [sample("one-pan-lemon-garlic-chicken-1"), sample("one-pan-lemon-garlic-chicken-2")],
      color: { r: 196, g: 92, b: 38, a: 1 },
    },
  },
  {
    templateId: "std-product-card-01",
    audience: "A shop owner's product",
    alt: "Product pin for a speckled stoneware mug in sage with its price badge",
    post: {
      title: "Speckled stoneware mug in sage",
      description: "Hand-thrown, dishwasher safe, holds a generous 350 ml.",
      URLText: "fernandkiln.shop",
      brandName: "Fern & Kiln",
      price: "$28",
      allImages: [product("speckled-stoneware-mug-in-sage-1"), product("speckled-stoneware-mug-in-sage-2")],
      color: { r: 86, g: 120, b: 98, a: 1 },
    },
  },
  {
    templateId: "std-list-numbered-grid-01",
    audience: "An affiliate's round-up",
    alt: "List pin: 5 ways to make a small room feel bigger, with four numbered living room photos",
    post: {
      title: "5 ways to make a small room feel bigger",
      description: "Layered lighting, leggy furniture, mirrors and a smarter rug size for a warm, open room.",
      URLText: "homebyhazel.com",
      brandName: "Home by Hazel",
      listItems: ["Choose a bigger rug", "Lift furniture off the floor", "Layer your lighting", "Hang curtains high", "Edit your surfaces"],
      allImages: [
        sample("cozy-small-living-room-ideas-1"),
        sample("cozy-small-living-room-ideas-2"),
        sample("balcony-herb-garden-1"),
        sample("diy-yarn-wall-hanging-1"),
      ],
      color: { r: 46, g: 74, b: 120, a: 1 },
    },
  },
  {
    templateId: "std-full-bleed-magazine-09",
    audience: "An agency client's travel guide",
    alt: "Magazine-cover pin for a five-day Amalfi Coast itinerary over a photo of the coast",
    post: {
      title: "A slow 5-day Amalfi Coast itinerary without a car",
      description: "Ferries, buses and footpaths: where to stay, swim, eat and hike on an unhurried trip.",
      URLText: "wanderlustjournal.co",
      brandName: "Wanderlust Journal",
      allImages: [sample("amalfi-coast-itinerary-1"), sample("amalfi-coast-itinerary-2")],
      color: { r: 24, g: 96, b: 130, a: 1 },
    },
  },
];

export interface Versioned {
  design: TemplateDesign;
  version: number;
}

/** The example templates as stored (an admin may have edited a standard template); an unpublished one is left out. */
export async function exampleDesigns(env: Pick<Env, "DB">): Promise<Map<string, Versioned>> {
  const rows = await database(env.DB)
    .select()
    .from(templates)
    .where(
      and(
        eq(templates.isStandard, true),
        eq(templates.isPublished, true),
        inArray(
          templates.id,
          EXAMPLE_PINS.map((pin) => pin.templateId),
        ),
      ),
    );
  return new Map(
    rows.map((row) => [
      row.id,
      { design: v.parse(TemplateDesign, { ...(row.design as object), title: row.title, categories: row.categories }), version: row.updatedAt },
    ]),
  );
}

/** The address of an example pin's picture (its key names the template's version, so browsers may keep it for good). */
export async function examplePins(
  env: Pick<Env, "DB">,
): Promise<{ src: string; srcSet: string; alt: string; audience: string; width: number; height: number }[]> {
  const designs = await exampleDesigns(env);
  return EXAMPLE_PINS.filter((pin) => designs.has(pin.templateId)).map((pin) => {
    const address = (width: number) => `/example-pins/${pin.templateId}?v=${SHOWCASE_VERSION}.${designs.get(pin.templateId)!.version}&w=${width}`;
    return {
      src: address(EXAMPLE_WIDTH),
      srcSet: EXAMPLE_WIDTHS.map((width) => `${address(width)} ${width}w`).join(", "),
      alt: pin.alt,
      audience: pin.audience,
      width: EXAMPLE_WIDTH,
      height: EXAMPLE_HEIGHT,
    };
  });
}
