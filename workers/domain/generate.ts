import type { DesignSettings, RgbaColor } from "../../contracts/content/design-settings.ts";
import { MAX_POSTS, type Post } from "../../contracts/content/post.ts";
import type { RenderTemplateImageBody } from "../../contracts/content/render.ts";
import type { Source } from "../../contracts/content/scrape.ts";
import type { PinOrigin, PinSource } from "../../contracts/pinterest/analytics.ts";
import { DEFAULT_FONT_FAMILY, DEFAULT_PIN_COLOR, type PostContent, type Template, type TemplateDesign } from "../../contracts/content/template.ts";
import { pinFileName } from "./file-names.ts";
import { distinctPictures, samePicture } from "./picture-identity.ts";
import { canFill, fittingVariant, postOffer, templateNeeds, type PostOffer } from "./template-fit.ts";
import { designFields } from "./templates.ts";
import { randomIndex, randomOtherIndex, shuffled, weightedIndex, weightedShuffled, type Random } from "./random.ts";

/**
 * The generator's rules, as pure functions (spec sections 3 and 4): sources x
 * design settings -> posts, and every later change to the grid (regenerate,
 * duplicate, bulk design changes, edits). Nothing here does I/O: randomness
 * and ids come in, plain values go out.
 */

export interface GenerationContext {
  settings: DesignSettings;
  /** The templates to generate with (see templatePool), in order. */
  templates: Template[];
  /** Where a post that fits none of `templates` finds a variant it can fill (the standard templates). */
  fallbacks?: readonly Template[];
  random: Random;
  newId: () => string;
  /** Pins for each source by position, where the user chose them per source (products); else the settings' pinsPerSource. */
  pinCounts?: readonly number[];
  /** Where the sources came from: one kind for all, or one per source by position (absent: "other"). */
  from?: PinSource | readonly PinSource[];
  /**
   * How much more often a random template choice takes each template family (issue 41, "Templates that perform"):
   * weights by family, from the user's own figures; a family without one weighs as the mean. Absent: all alike.
   */
  familyWeights?: Readonly<Record<string, number>>;
}

/** The flags a new generation starts from (spec section 4: reset on every generation). */
const GENERATION_FLAGS = { isDownloading: false, isDownloaded: false, isScheduling: false, isScheduled: false, error: "" } as const;
/** What a duplicate starts from (pinning, downloading and scheduling reset). */
const DUPLICATE_FLAGS = { ...GENERATION_FLAGS, isPinning: false, isPinned: false } as const;

/**
 * The templates a generation draws from: the selected ones that exist, in the
 * order chosen; none selected means the standard templates. A selected
 * template that is missing (deleted, no longer shared) falls back to the
 * others, and to the standard templates when none is left (spec section 8).
 */
export function templatePool(selectedIds: readonly string[], found: readonly Template[], standard: readonly Template[]): Template[] {
  if (selectedIds.length === 0) return [...standard];
  const byId = new Map(found.map((template) => [template.templateId, template]));
  const chosen = [...new Set(selectedIds)].map((id) => byId.get(id)).filter((template): template is Template => Boolean(template));
  return chosen.length > 0 ? chosen : [...standard];
}

/** Only the design of a stored template: what a post keeps as its template copy. */
export function templateCopy(template: TemplateDesign): TemplateDesign {
  return structuredClone(designFields(template));
}

/** How many different pictures a design shows from the post's images. */
export function imageSlotCount(design: TemplateDesign | undefined): number {
  if (!design) return 0;
  if (design.imageSlots !== undefined) return design.imageSlots;
  let slots = 0;
  for (const layer of design.layers) {
    if (
      (layer.type === "Image" || layer.type === "Video") &&
      !layer.hidden &&
      !layer.useLogoImage &&
      (layer.source ?? "detected") !== "logo" &&
      layer.source !== "url"
    ) {
      slots = Math.max(slots, (layer.imageIndex ?? 0) + 1);
    }
  }
  return slots;
}

function clampIndex(index: number, length: number): number {
  return Math.max(0, Math.min(length - 1, Math.trunc(index)));
}

function colours(settings: Pick<DesignSettings, "designColors">): RgbaColor[] {
  return settings.designColors.length > 0 ? settings.designColors : [{ ...DEFAULT_PIN_COLOR }];
}

/** The colour of the n-th post: the selected colour, or all colours in turn. */
export function colourFor(
  settings: Pick<DesignSettings, "designColors" | "selectedColorIndex" | "useAllColors">,
  postIndex: number,
): { colorIndex: number; color: RgbaColor } {
  const all = colours(settings);
  const colorIndex = settings.useAllColors ? postIndex % all.length : clampIndex(settings.selectedColorIndex, all.length);
  return { colorIndex, color: { ...all[colorIndex] } };
}

/**
 * The pictures a source's posts may use, best first: its detected images (all,
 * or those the user selected), then the uploaded images the user selected.
 * When the choice leaves nothing, the source's own images are used.
 */
export function imageCandidates(
  source: Pick<Source, "allImages">,
  settings: Pick<DesignSettings, "useAllDetectedImages" | "selectedDetectedImages" | "selectedUploadedImages">,
): string[] {
  const selected = new Set(settings.selectedDetectedImages);
  const detected = settings.useAllDetectedImages ? source.allImages : source.allImages.filter((image) => selected.has(image));
  const candidates = distinctPictures([...detected, ...settings.selectedUploadedImages]);
  return candidates.length > 0 ? candidates : distinctPictures(source.allImages);
}

function unique(items: readonly string[]): string[] {
  return [...new Set(items.filter(Boolean))];
}

function rotated<T>(items: readonly T[], start: number): T[] {
  if (items.length === 0) return [];
  const offset = ((start % items.length) + items.length) % items.length;
  return [...items.slice(offset), ...items.slice(0, offset)];
}

/**
 * Fills `slots` picture slots from an ordered list of different pictures
 * (repeating only when there are fewer pictures than slots, which the
 * template chooser avoids).
 */
export function fillSlots(ordered: readonly string[], slots: number): string[] {
  if (ordered.length === 0 || slots <= 0) return [];
  return Array.from({ length: slots }, (_, i) => ordered[i % ordered.length]);
}

/** "www.example.com" -> "example.com": what a pin shows as its URL text by default. */
export function urlTextOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, "");
  } catch {
    return "";
  }
}

/** A fresh file name for a title; keeps the random number of `previous` when given (a renamed pin stays the same file). */
export function fileNameFor(title: string, random: Random, previous?: string): string {
  const kept = previous ? /-(\d+)\.jpeg$/.exec(previous)?.[1] : undefined;
  return pinFileName(title, kept !== undefined ? Number(kept) : Math.floor(random() * 1_000_000));
}

/** What a source offers the templates, counting the pictures the settings let its posts use. */
export function sourceOffer(source: Source, pictures: readonly string[]): PostOffer {
  return postOffer({ ...source, allImages: [...pictures] });
}

/** What a post offers the templates. */
export function offerOf(post: Pick<Post, "selectedImages" | "allImages" | "listItems" | "price" | "video" | "comparison" | "quote">): PostOffer {
  return postOffer({ ...post, allImages: postImages(post) });
}

/** The templates of `pool` a post with `offer` can fill, in order. */
export function fittingTemplates(pool: readonly Template[], offer: PostOffer): Template[] {
  return pool.filter((template) => canFill(template, offer));
}

/**
 * The pictures for a template's slots, in slot order: a before-and-after
 * template shows the post's before and after first; others take the
 * different pictures in the order given.
 */
function picturesFor(template: TemplateDesign, ordered: readonly string[], comparison: readonly string[]): string[] {
  const slots = imageSlotCount(template);
  if (templateNeeds(template).comparison && comparison.length === 2) {
    const rest = ordered.filter((image) => !comparison.some((pair) => samePicture(pair, image)));
    return fillSlots([...comparison, ...rest], Math.max(slots, 2));
  }
  return fillSlots(distinctPictures(ordered), slots);
}

interface PostParts {
  source: Source;
  from: PinSource;
  template: Template;
  images: string[];
  colour: { colorIndex: number; color: RgbaColor };
}

function buildPost(parts: PostParts, context: GenerationContext): Post {
  const { settings, random } = context;
  const overrides = settings.pinOverrides;
  const { source, template } = parts;
  const title = overrides.title || source.title;
  return {
    id: context.newId(),
    templateType: template.templateId,
    colorIndex: parts.colour.colorIndex,
    color: parts.colour.color,
    title,
    date: source.date,
    description: overrides.description || source.description,
    altText: title,
    allImages: distinctPictures(source.allImages).slice(0, 40),
    selectedImages: parts.images.slice(0, 40),
    url: overrides.url || source.url,
    URLText: overrides.URLText || urlTextOf(source.url),
    brandName: overrides.brandName || source.siteName,
    logoImage: overrides.logoImage,
    price: source.price ?? "",
    listItems: (source.listItems ?? []).slice(0, 30),
    quote: source.quote ?? "",
    video: source.video ?? "",
    comparison: source.comparison ? [...source.comparison] : [],
    fontFamily: settings.fontFamily || DEFAULT_FONT_FAMILY,
    fontUrl: settings.fontUrl,
    fontColor: settings.fontColor,
    useUpperCaseFont: settings.useUpperCaseFont,
    fixLowContrastText: settings.fixLowContrastText,
    template: templateCopy(template),
    textDesignOverrides: {},
    imageDesignOverrides: {},
    fileName: fileNameFor(title, random),
    origin: pinOriginOf(template, parts.from),
    selectedBoards: [],
    isLocked: false,
    isPinning: false,
    isPinned: false,
    ...GENERATION_FLAGS,
  };
}

/** What made a pin (issue 41): its template and where its content came from. Sent with the pin when it is scheduled. */
export function pinOriginOf(template: Pick<Template, "templateId" | "title" | "family">, source: PinSource): PinOrigin {
  return {
    templateId: template.templateId.slice(0, 100),
    ...(template.title ? { templateTitle: template.title.slice(0, 200) } : {}),
    ...(template.family ? { templateFamily: template.family } : {}),
    source,
  };
}

/** A template's weight in a random choice by its family's weight (the mean for a family without one); null: all alike. */
export function templateWeight(familyWeights: Readonly<Record<string, number>> | undefined): ((template: Pick<Template, "family">) => number) | null {
  const weights = Object.values(familyWeights ?? {}).filter((weight) => Number.isFinite(weight) && weight > 0);
  if (!familyWeights || weights.length === 0) return null;
  const mean = weights.reduce((sum, weight) => sum + weight, 0) / weights.length;
  return (template) => {
    const own = template.family ? familyWeights[template.family] : undefined;
    return own !== undefined && Number.isFinite(own) && own > 0 ? own : mean;
  };
}

function sourceKindOf(from: GenerationContext["from"], index: number): PinSource {
  if (from === undefined) return "other";
  return typeof from === "string" ? from : (from[index] ?? "other");
}

/**
 * Sources x design settings -> posts. Each source gives pinsPerSource posts
 * (or its own count from `pinCounts`)
 * with different templates, or one per template (useOneOfEachTemplate)
 * and/or one per picture (useOneOfEachImage).
 * Templates are picked at random or in turn among those the source can fill
 * (issue 13); a source that fits none of them gets the closest variant it can
 * fill from the fallbacks. Colours are the selected one or all in turn;
 * picture slots are filled in order, or shuffled (isRandomImages).
 * At most MAX_POSTS posts.
 */
export function generatePosts(sources: readonly Source[], context: GenerationContext): Post[] {
  const { settings, templates, random } = context;
  if (templates.length === 0) throw new Error("There are no templates to generate with");
  const posts: Post[] = [];
  for (const [index, source] of sources.entries()) {
    const candidates = imageCandidates(source, settings);
    const offer = sourceOffer(source, candidates);
    const pool = usableTemplates(templates, context.fallbacks ?? [], offer);
    const starts = settings.useOneOfEachImage && candidates.length > 0 ? candidates.map((_, i) => i) : [0];
    const variants = settings.useOneOfEachTemplate || settings.useOneOfEachImage ? 1 : (context.pinCounts?.[index] ?? settings.pinsPerSource);
    const chosenTemplates = settings.useOneOfEachTemplate
      ? pool
      : pickTemplates(pool, variants, settings.isRandomTemplates, posts.length, random, templateWeight(context.familyWeights));
    for (const [variant, template] of chosenTemplates.entries()) {
      for (const start of starts) {
        if (posts.length >= MAX_POSTS) return posts;
        // Variants of one source lead with different pictures, as far as there are pictures.
        const lead = settings.useOneOfEachImage ? start : variant;
        const ordered = settings.isRandomImages
          ? settings.useOneOfEachImage
            ? [
                candidates[start],
                ...shuffled(
                  candidates.filter((_, i) => i !== start),
                  random,
                ),
              ]
            : shuffled(candidates, random)
          : rotated(candidates, lead);
        const images = picturesFor(template, ordered, source.comparison ?? []);
        posts.push(buildPost({ source, from: sourceKindOf(context.from, index), template, images, colour: colourFor(settings, posts.length) }, context));
      }
    }
  }
  return posts;
}

/**
 * The templates a post may be drawn with: those of `pool` it can fill; when
 * none, the closest variant it can fill (same family first) among the pool
 * and the fallbacks; when not even one exists, the pool as it is.
 */
function usableTemplates(pool: readonly Template[], fallbacks: readonly Template[], offer: PostOffer): Template[] {
  const fitting = fittingTemplates(pool, offer);
  if (fitting.length > 0) return fitting;
  const everything = [...pool, ...fallbacks.filter((template) => !pool.some((own) => own.templateId === template.templateId))];
  const variant = fittingVariant(pool[0], everything, offer);
  return variant ? [variant] : [...pool];
}

/**
 * `count` templates for one source, all different while the pool lasts: at
 * random, or in turn continuing from `offset` (the posts made so far).
 */
function pickTemplates(
  pool: readonly Template[],
  count: number,
  isRandom: boolean,
  offset: number,
  random: Random,
  weightOf: ((template: Template) => number) | null,
): Template[] {
  if (count === 1) {
    if (!isRandom) return [pool[offset % pool.length]];
    return [pool[weightOf ? weightedIndex(pool.map(weightOf), random) : randomIndex(pool.length, random)]];
  }
  const picked: Template[] = [];
  while (picked.length < count) {
    const round = isRandom ? (weightOf ? weightedShuffled(pool, weightOf, random) : shuffled(pool, random)) : rotated(pool, offset + picked.length);
    picked.push(...round.slice(0, count - picked.length));
  }
  return picked;
}

/** A post's flags as a new generation leaves them. */
export function resetGenerationFlags(post: Post): Post {
  return { ...post, ...GENERATION_FLAGS };
}

/**
 * The grid after a new generation: locked posts stay (first, their flags
 * reset like every post of the new generation), the others make way for the
 * new posts. At most MAX_POSTS.
 */
export function startGeneration(existing: readonly Post[], fresh: readonly Post[]): Post[] {
  return [...existing.filter((post) => post.isLocked).map(resetGenerationFlags), ...fresh.map(resetGenerationFlags)].slice(0, MAX_POSTS);
}

/** A copy of a post with a new id and file name; its pinning, downloading and scheduling flags reset. */
export function duplicatePost(post: Post, newId: string, random: Random): Post {
  return { ...structuredClone(post), id: newId, fileName: fileNameFor(post.title, random), ...DUPLICATE_FLAGS };
}

/** Every picture a post can show: its current ones first, then the rest of its source's. */
export function postImages(post: Pick<Post, "selectedImages" | "allImages">): string[] {
  return distinctPictures([...post.selectedImages, ...post.allImages]);
}

function withTemplate(post: Post, template: Template): Post {
  return {
    ...post,
    templateType: template.templateId,
    origin: pinOriginOf(template, post.origin?.source ?? "other"),
    template: templateCopy(template),
    selectedImages: picturesFor(template, postImages(post), post.comparison),
  };
}

/**
 * Unlocked posts get another template (at random, leaning on `familyWeights` when given, or the next one in turn)
 * among those of the pool they can fill; a post that fits none gets the
 * closest variant it can fill from the fallbacks. Locked posts are skipped.
 */
export function regenerateTemplates(
  posts: readonly Post[],
  templates: readonly Template[],
  options: { random: Random; isRandom: boolean; fallbacks?: readonly Template[]; familyWeights?: GenerationContext["familyWeights"] },
): Post[] {
  if (templates.length === 0) return [...posts];
  const weightOf = templateWeight(options.familyWeights);
  return posts.map((post) => {
    if (post.isLocked) return post;
    const pool = usableTemplates(templates, options.fallbacks ?? [], offerOf(post));
    const current = pool.findIndex((template) => template.templateId === post.templateType);
    const next = !options.isRandom
      ? (current + 1) % pool.length
      : weightOf && pool.length > 1
        ? weightedIndex(
            pool.map((template, index) => (index === current ? 0 : weightOf(template))),
            options.random,
          )
        : randomOtherIndex(pool.length, current, options.random);
    return withTemplate(post, pool[next]);
  });
}

/** Unlocked posts get another of the design colours; locked posts are skipped. */
export function regenerateColors(posts: readonly Post[], settings: Pick<DesignSettings, "designColors">, random: Random): Post[] {
  const all = colours(settings);
  return posts.map((post) => {
    if (post.isLocked) return post;
    const colorIndex = randomOtherIndex(all.length, post.colorIndex < all.length ? post.colorIndex : -1, random);
    return { ...post, colorIndex, color: { ...all[colorIndex] } };
  });
}

/** Unlocked posts show their pictures in another order (a different lead picture when there is one); locked posts are skipped. */
export function regenerateImages(posts: readonly Post[], random: Random): Post[] {
  return posts.map((post) => {
    if (post.isLocked) return post;
    const images = postImages(post);
    const slots = Math.max(post.selectedImages.length, imageSlotCount(post.template));
    // A before-and-after keeps its before and after where they are.
    if (images.length < 2 || slots === 0 || (post.template && templateNeeds(post.template).comparison)) return post;
    const lead = randomOtherIndex(images.length, 0, random);
    const rest = shuffled(
      images.filter((_, i) => i !== lead),
      random,
    );
    return { ...post, selectedImages: fillSlots([images[lead], ...rest], slots) };
  });
}

/**
 * Applies the design settings' look (font, font colour, uppercase, contrast,
 * colour, pin overrides) to the unlocked posts: a bulk design change skips
 * locked posts.
 */
export function applyDesignToPosts(posts: readonly Post[], settings: DesignSettings, random: Random): Post[] {
  const overrides = settings.pinOverrides;
  let index = 0;
  return posts.map((post) => {
    if (post.isLocked) return post;
    const colour = colourFor(settings, index++);
    const title = overrides.title || post.title;
    return {
      ...post,
      ...colour,
      fontFamily: settings.fontFamily || DEFAULT_FONT_FAMILY,
      fontUrl: settings.fontUrl,
      fontColor: settings.fontColor,
      useUpperCaseFont: settings.useUpperCaseFont,
      fixLowContrastText: settings.fixLowContrastText,
      title,
      fileName: title === post.title ? post.fileName : fileNameFor(title, random, post.fileName),
      description: overrides.description || post.description,
      URLText: overrides.URLText || post.URLText,
      url: overrides.url || post.url,
      brandName: overrides.brandName || post.brandName,
      logoImage: overrides.logoImage || post.logoImage,
    };
  });
}

/** What the user can edit on a post in the grid. */
export type PostTextEdit = Partial<Pick<Post, "title" | "description" | "altText" | "url" | "URLText" | "price">>;

/** A post with the user's edits; a new title renames the file (same random number). */
export function editPost(post: Post, edit: PostTextEdit, random: Random): Post {
  const next = { ...post, ...edit };
  if (edit.title !== undefined && edit.title !== post.title) next.fileName = fileNameFor(edit.title, random, post.fileName);
  return next;
}

/** A post drawn with another template (its pictures re-slotted). */
export function changeTemplate(post: Post, template: Template): Post {
  return withTemplate(post, template);
}

/** A post in another of the design colours. */
export function changeColor(post: Post, settings: Pick<DesignSettings, "designColors">, colorIndex: number): Post {
  const all = colours(settings);
  const index = clampIndex(colorIndex, all.length);
  return { ...post, colorIndex: index, color: { ...all[index] } };
}

/** A post whose picture slot `slot` shows `image`; the slot that showed it before takes this slot's picture, so no photo shows twice. */
export function changeImage(post: Post, slot: number, image: string): Post {
  const slots = Math.max(post.selectedImages.length, imageSlotCount(post.template), slot + 1);
  const current = post.selectedImages.length >= slots ? [...post.selectedImages] : fillSlots(postImages(post), slots);
  const previous = current[slot];
  const other = current.findIndex((shown, index) => index !== slot && samePicture(shown, image));
  if (other >= 0 && previous !== undefined) current[other] = previous;
  current[slot] = image;
  return { ...post, selectedImages: current };
}

/** Replaces posts by id (unknown ids are ignored). */
export function replacePosts(posts: readonly Post[], changed: readonly Post[]): Post[] {
  const byId = new Map(changed.map((post) => [post.id, post]));
  return posts.map((post) => byId.get(post.id) ?? post);
}

const HEX_COLOR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;

/**
 * What the engine draws for a post (the preview and the download alike): its
 * chosen pictures feed the image slots in order; pictures that are not among
 * the source's own are the uploaded ones.
 */
export function postContent(post: Post): PostContent {
  const detected = new Set(post.allImages);
  const images = post.selectedImages.length > 0 ? post.selectedImages : post.allImages;
  return {
    title: post.title,
    description: post.description,
    URLText: post.URLText,
    brandName: post.brandName,
    price: post.price,
    listItems: post.listItems.slice(0, 30),
    quote: post.quote,
    allImages: images.slice(0, 40),
    uploadedImages: unique(post.selectedImages.filter((image) => !detected.has(image))).slice(0, 40),
    ...(post.logoImage ? { logoImage: post.logoImage } : {}),
    color: { ...post.color, a: post.color.a ?? 1 },
    fontFamily: post.fontFamily || DEFAULT_FONT_FAMILY,
    fontColor: HEX_COLOR.test(post.fontColor) ? post.fontColor : "",
    useUpperCaseFont: post.useUpperCaseFont,
    fixLowContrastText: post.fixLowContrastText,
  };
}

/** The body of POST /highMemLimitApi/scraping/renderTemplateImage for a post. */
export function renderPostBody(post: Post, options: { bypassResize?: boolean } = {}): RenderTemplateImageBody["post"] {
  if (!post.template) throw new Error("The post has no template");
  return { ...postContent(post), template: post.template, fileName: post.fileName.slice(0, 100), bypassResize: options.bypassResize ?? false };
}
