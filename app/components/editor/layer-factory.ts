import * as v from "valibot";
import { Layer, type TemplateDesign } from "../../../contracts/content/template.ts";
import { newLayerId } from "../../lib/template-editor-state.ts";

/** New layers for the toolbar's Add buttons: sensible sizes near the middle of the pin, numbered names. */

/** "Text 1", "Text 2", ...: the first number no layer's name uses yet. */
function numbered(design: TemplateDesign, word: string): string {
  const taken = new Set(design.layers.map((layer) => layer.name));
  let number = 1;
  while (taken.has(`${word} ${number}`)) number += 1;
  return `${word} ${number}`;
}

export function newTextLayer(design: TemplateDesign): Layer {
  return v.parse(Layer, {
    type: "text",
    id: newLayerId(),
    name: numbered(design, "Text"),
    x: 150,
    y: 600,
    width: 700,
    height: 220,
    content: "custom",
    text: "Your text here",
    style: { color: "auto" },
  });
}

export function newImageLayer(design: TemplateDesign): Layer {
  return v.parse(Layer, {
    type: "Image",
    id: newLayerId(),
    name: numbered(design, "Image"),
    x: 250,
    y: 450,
    width: 500,
    height: 500,
    source: "detected",
    imageIndex: 0,
    fit: "cover",
    containsImage: true,
    useDetectedImages: true,
    useLogoImage: false,
  });
}

export function newShapeLayer(design: TemplateDesign): Layer {
  return v.parse(Layer, {
    type: "SVG",
    id: newLayerId(),
    name: numbered(design, "Shape"),
    x: 200,
    y: 550,
    width: 600,
    height: 400,
    shape: "rect",
    fill: "pin",
    borderRadius: 24,
  });
}
