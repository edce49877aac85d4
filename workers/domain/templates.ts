import type { Layer, TemplateDesign } from "../../contracts/content/template.ts";

/** Duplicated layers sit this far right and down of the original (spec section 9). */
export const DUPLICATE_LAYER_OFFSET = 20;
/** Undo history of the template editor (spec section 9). */
export const TEMPLATE_UNDO_STEPS = 10;

/** A copy of a layer: offset by 20 px in x and y, named "name (copy)", with a new id. */
export function duplicateLayer<L extends Layer>(layer: L, newId: string): L {
  return { ...structuredClone(layer), id: newId, name: `${layer.name} (copy)`, x: layer.x + DUPLICATE_LAYER_OFFSET, y: layer.y + DUPLICATE_LAYER_OFFSET };
}

/** A copy of a template's design: "title (copy)", no categories (it is the user's own, never standard). */
export function duplicateTemplateDesign(design: TemplateDesign): TemplateDesign {
  return { ...structuredClone(design), title: `${design.title} (copy)`.slice(0, 120), categories: [] };
}

/** Keeps the spec's layer flags in step with a picture layer's source. */
export function withLayerFlags(layer: Layer): Layer {
  if (layer.type !== "Image" && layer.type !== "Video") return layer;
  const source = layer.source ?? "detected";
  return { ...layer, containsImage: true, useDetectedImages: source === "detected", useLogoImage: source === "logo" };
}

/** A design with every layer's flags set consistently. */
export function normalizeDesign(design: TemplateDesign): TemplateDesign {
  return { ...design, layers: design.layers.map(withLayerFlags) };
}

/** What a template row's design column holds (title and categories have columns of their own). */
export function storedDesign(design: TemplateDesign): Pick<TemplateDesign, "background" | "layers" | "family" | "imageSlots" | "needs"> {
  return { background: design.background, layers: design.layers, family: design.family, imageSlots: design.imageSlots, needs: design.needs };
}

/** Only the design fields of a template (a stored template also carries its id, owner flags and dates). */
export function designFields(template: TemplateDesign): TemplateDesign {
  const { title, background, layers, categories, family, imageSlots, needs } = template;
  return {
    title,
    background,
    layers,
    categories,
    ...(family ? { family } : {}),
    ...(imageSlots === undefined ? {} : { imageSlots }),
    ...(needs ? { needs } : {}),
  };
}
