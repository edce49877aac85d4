import { PhotonImage } from "@cf-wasm/photon/workerd";
import { describe, expect, it } from "vitest";
import * as v from "valibot";
import { TemplateDesign } from "../../../contracts/content/template.ts";
import { clearPictureCache, httpPictureSource } from "../../../workers/render/pictures.ts";
import { renderPin } from "../../../workers/render/render-pin.ts";
import { workerFontLoader } from "../../../workers/render/worker-fonts.ts";
import { testEnv } from "../support.ts";

const photo = (name: string) => `${testEnv.SANDBOX_URL}/blog-demo/images/${name}`;

const fullBleed = v.parse(TemplateDesign, {
  title: "Full-bleed photo with banner",
  background: "#ffffff",
  layers: [
    {
      type: "Image",
      id: "photo",
      name: "Photo",
      x: 0,
      y: 0,
      width: 1000,
      height: 1500,
      source: "detected",
      imageIndex: 0,
      fit: "cover",
      rotation: 0,
      opacity: 1,
      hidden: false,
      borderRadius: 0,
      containsImage: true,
    },
    {
      type: "SVG",
      id: "band",
      name: "Band",
      shape: "rect",
      x: 60,
      y: 900,
      width: 880,
      height: 420,
      fill: "pin",
      borderRadius: 28,
      rotation: 0,
      opacity: 0.94,
      hidden: false,
      strokeWidth: 0,
    },
    {
      type: "text",
      id: "title",
      name: "Title",
      content: "title",
      x: 110,
      y: 940,
      width: 780,
      height: 300,
      rotation: 0,
      opacity: 1,
      hidden: false,
      style: { fontSize: "auto", align: "center", color: "auto" },
    },
    {
      type: "text",
      id: "url",
      name: "URL",
      content: "urlText",
      x: 110,
      y: 1250,
      width: 780,
      height: 50,
      rotation: 0,
      opacity: 1,
      hidden: false,
      style: { fontSize: 32, fontFamily: "Inter", fontWeight: 700, color: "auto" },
    },
  ],
  categories: [],
});

describe("renderPin", () => {
  it("renders a 1000x1500 JPEG with the photo, the banner and fitted text", async () => {
    clearPictureCache();
    const pin = await renderPin(
      fullBleed,
      { title: "One-pan lemon herb chicken for busy weeknights", URLText: "linenandlark.com", allImages: [photo("amalfi-coast-itinerary-1.jpg")] },
      { fonts: workerFontLoader(testEnv), pictures: httpPictureSource(testEnv) },
    );
    expect([pin.jpeg[0], pin.jpeg[1]]).toEqual([0xff, 0xd8]);
    const decoded = PhotonImage.new_from_byteslice(pin.jpeg);
    expect([decoded.get_width(), decoded.get_height()]).toEqual([1000, 1500]);
    decoded.free();
    const title = pin.plan.texts.get("title")!;
    expect(title.metrics.fontSize).toBeGreaterThan(40);
    expect(title.metrics.lines.join(" ")).toBe("ONE-PAN LEMON HERB CHICKEN FOR BUSY WEEKNIGHTS");
    console.log("timings", JSON.stringify(pin.timings));
  });
});
