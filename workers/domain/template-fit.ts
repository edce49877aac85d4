import type { TemplateDesign, TemplateNeeds } from "../../contracts/content/template.ts";
import { distinctPictures, samePicture } from "./picture-identity.ts";

/**
 * Which templates a post can fill (issue 13): a template declares what it
 * needs (a video, list items and how many, a price, a before and an after
 * picture, N different pictures, a quote) and a post offers what it has. A
 * pin is only ever drawn with a template whose every slot the post fills, so
 * no pin shows an empty badge, an empty list line or one photo twice.
 */

export type { TemplateNeeds } from "../../contracts/content/template.ts";

/** What a post has to fill a template with. */
export interface PostOffer {
  /** Different pictures (near-duplicates counted once). */
  pictures: number;
  listItems: number;
  price: boolean;
  video: boolean;
  /** A before and an after picture. */
  comparison: boolean;
  quote: boolean;
}

const NOTHING: Required<TemplateNeeds> = { pictures: 0, listItems: 0, price: false, video: false, comparison: false, quote: false };

/** The design's picture boxes fed by the post's own pictures. */
function postPictureLayers(design: Pick<TemplateDesign, "layers">) {
  return design.layers.filter(
    (layer) =>
      (layer.type === "Image" || layer.type === "Video") &&
      !layer.hidden &&
      !layer.useLogoImage &&
      (layer.source ?? "detected") !== "logo" &&
      layer.source !== "url",
  );
}

/**
 * What a design needs: what it declares, and at least what its layers show
 * (picture boxes, list lines, a price, a quote) and its family implies (a
 * video pin needs a video, a before-and-after pin a before and an after).
 */
export function templateNeeds(design: Pick<TemplateDesign, "layers" | "family" | "needs">): Required<TemplateNeeds> {
  const declared = { ...NOTHING, ...(design.needs ?? {}) };
  let pictures = 0;
  for (const layer of postPictureLayers(design)) {
    if (layer.type === "Image" || layer.type === "Video") pictures = Math.max(pictures, (layer.imageIndex ?? 0) + 1);
  }
  let listItems = 0;
  let price = false;
  let quote = false;
  for (const layer of design.layers) {
    if (layer.type !== "text" || layer.hidden) continue;
    if (layer.content === "listItem") listItems = Math.max(listItems, (layer.item ?? 0) + 1);
    if (layer.content === "price") price = true;
    if (layer.content === "quote") quote = true;
  }
  const comparison = declared.comparison || design.family === "before-after";
  return {
    pictures: Math.max(declared.pictures, pictures, comparison ? 2 : 0),
    listItems: Math.max(declared.listItems, listItems),
    price: declared.price || price,
    video: declared.video || design.family === "video",
    comparison,
    quote: declared.quote || quote || design.family === "quote",
  };
}

/** What a post (or a source) offers. */
export function postOffer(post: {
  allImages?: readonly string[];
  listItems?: readonly string[];
  price?: string;
  video?: string;
  comparison?: readonly string[];
  quote?: string;
}): PostOffer {
  const comparison = post.comparison ?? [];
  return {
    pictures: distinctPictures(post.allImages ?? []).length,
    listItems: (post.listItems ?? []).filter((item) => item.trim()).length,
    price: Boolean(post.price?.trim()),
    video: Boolean(post.video?.trim()),
    comparison: comparison.length === 2 && !samePicture(comparison[0]!, comparison[1]!),
    quote: Boolean(post.quote?.trim()),
  };
}

/** What the post lacks for the design, in plain words (empty when it fits). */
export function unmetNeeds(needs: Required<TemplateNeeds>, offer: PostOffer): string[] {
  const missing: string[] = [];
  if (needs.video && !offer.video) missing.push("a video");
  if (needs.comparison && !offer.comparison) missing.push("a before and an after picture");
  else if (needs.pictures > offer.pictures) missing.push(needs.pictures === 1 ? "a picture" : `${needs.pictures} different pictures`);
  if (needs.listItems > offer.listItems) missing.push(`a list of ${needs.listItems} items`);
  if (needs.price && !offer.price) missing.push("a price");
  if (needs.quote && !offer.quote) missing.push("a quote");
  return missing;
}

export function canFill(design: Pick<TemplateDesign, "layers" | "family" | "needs">, offer: PostOffer): boolean {
  return unmetNeeds(templateNeeds(design), offer).length === 0;
}

/** "Needs a price and 3 different pictures": why a post cannot use a template. */
export function unmetNeedsSentence(design: Pick<TemplateDesign, "layers" | "family" | "needs">, offer: PostOffer): string {
  const missing = unmetNeeds(templateNeeds(design), offer);
  if (missing.length === 0) return "";
  const list = missing.length === 1 ? missing[0] : `${missing.slice(0, -1).join(", ")} and ${missing.at(-1)}`;
  return `Needs ${list}`;
}

/** How many slots a design fills: the richer of two fitting variants is the closer one. */
function slotCount(needs: Required<TemplateNeeds>): number {
  return needs.pictures + needs.listItems + Number(needs.price) + Number(needs.video) + Number(needs.quote) + Number(needs.comparison);
}

/**
 * The template to draw a post with when `wanted` has a slot the post cannot
 * fill: `wanted` itself when it fits, else the fitting variant of the same
 * family with the most slots, else the fitting candidate with the most slots
 * sharing a category, else the first fitting candidate. Undefined only when
 * no candidate fits.
 */
export function fittingVariant<T extends Pick<TemplateDesign, "layers" | "family" | "needs" | "categories">>(
  wanted: T,
  candidates: readonly T[],
  offer: PostOffer,
): T | undefined {
  if (canFill(wanted, offer)) return wanted;
  const fitting = candidates.filter((candidate) => candidate !== wanted && canFill(candidate, offer));
  if (fitting.length === 0) return undefined;
  const richest = (group: T[]) => group.reduce((best, candidate) => (slotCount(templateNeeds(candidate)) > slotCount(templateNeeds(best)) ? candidate : best));
  const sameFamily = wanted.family ? fitting.filter((candidate) => candidate.family === wanted.family) : [];
  if (sameFamily.length > 0) return richest(sameFamily);
  const categories = new Set(wanted.categories ?? []);
  const related = fitting.filter((candidate) => (candidate.categories ?? []).some((category) => categories.has(category)));
  if (related.length > 0) return richest(related);
  return fitting[0];
}
