import * as v from "valibot";
import { TemplateDesign, type TemplateDesignInput } from "../../../contracts/content/template.ts";

/** A new template is not blank: the post's photo, a band in the pin colour and the title on it. */
const STARTER: TemplateDesignInput = {
  title: "Untitled template",
  background: "#ffffff",
  categories: [],
  layers: [
    { type: "Image", id: "photo", name: "Photo", x: 0, y: 0, width: 1000, height: 960, source: "detected", imageIndex: 0, fit: "cover" },
    { type: "SVG", id: "band", name: "Colour band", x: 0, y: 900, width: 1000, height: 600, shape: "rect", fill: "pin" },
    {
      type: "text",
      id: "title",
      name: "Title",
      x: 80,
      y: 960,
      width: 840,
      height: 390,
      content: "title",
      style: { color: "auto", align: "center", verticalAlign: "middle" },
    },
    {
      type: "text",
      id: "website",
      name: "Website",
      x: 80,
      y: 1380,
      width: 840,
      height: 70,
      content: "urlText",
      style: { fontSize: 34, fontWeight: 400, fontFamily: "Inter", color: "auto", uppercase: false },
    },
  ],
};

export function starterTemplateDesign(): TemplateDesign {
  return v.parse(TemplateDesign, STARTER);
}
