import { describe, expect, it } from "vitest";
import * as v from "valibot";
import { TemplateDesign } from "../../../contracts/content/template.ts";
import { contrastRatio, parseHex, readableOn, resolveColor, textColor, WHITE_TEXT } from "../../../workers/render/colors.ts";
import { pinFileName, videoFileName } from "../../../workers/domain/file-names.ts";
import { duplicateLayer, duplicateTemplateDesign, withLayerFlags } from "../../../workers/domain/templates.ts";
import { fitGeometry } from "../../../workers/render/pixels.ts";

describe("generated file names", () => {
  it("replace non-alphanumerics with dashes, drop emoji, add a random number and end in .jpeg", () => {
    expect(pinFileName("10 Easy Weeknight Dinners 🍝🔥 (Kid-Approved!)", 4821)).toBe("10-Easy-Weeknight-Dinners-Kid-Approved-4821.jpeg");
    expect(pinFileName("Café & Crème: A Guide", 7)).toBe("Caf-Cr-me-A-Guide-7.jpeg");
    expect(pinFileName("🎉🎉", 1)).toBe("pin-1.jpeg");
  });

  it("are at most 100 characters", () => {
    const name = pinFileName("A".repeat(300), 123456);
    expect(name).toHaveLength(100);
    expect(name.endsWith("-123456.jpeg")).toBe(true);
    expect(pinFileName("word ".repeat(60)).length).toBeLessThanOrEqual(100);
  });

  it("carry a random number when none is given", () => {
    expect(pinFileName("Same title")).toMatch(/^Same-title-\d+\.jpeg$/);
  });

  it("name a video pin after its pin, with .mp4 for the picture's extension and the same random number (issue 40 point 5)", () => {
    expect(videoFileName("Seven-days-on-the-Amalfi-coast-357704.jpeg", "ignored")).toBe("Seven-days-on-the-Amalfi-coast-357704.mp4");
    expect(videoFileName("Cozy-Living-Room-12.JPG", "ignored")).toBe("Cozy-Living-Room-12.mp4");
    // A name the user typed without a number gets one; no file name at all falls back to the title.
    expect(videoFileName("my summer video.png", "ignored", 55)).toBe("my-summer-video-55.mp4");
    expect(videoFileName(undefined, "Ten Soups 🍲", 8)).toBe("Ten-Soups-8.mp4");
    expect(videoFileName("", "Ten Soups", 8)).toBe("Ten-Soups-8.mp4");
    const long = videoFileName(`${"A".repeat(120)}-42.jpeg`, "x");
    expect(long.endsWith("-42.mp4")).toBe(true);
    expect(long.length).toBeLessThanOrEqual(100);
    expect(long).not.toMatch(/jpeg/);
  });
});

describe("text colour and contrast", () => {
  it("computes WCAG contrast ratios", () => {
    expect(contrastRatio(parseHex("#000"), parseHex("#fff"))).toBeCloseTo(21, 5);
    expect(contrastRatio(parseHex("#777"), parseHex("#fff"))).toBeCloseTo(4.48, 1);
  });

  it("picks black or white for auto text, whichever reads better", () => {
    expect(readableOn(parseHex("#51c3a6"))).not.toEqual(WHITE_TEXT);
    expect(readableOn(parseHex("#1d2226"))).toEqual(WHITE_TEXT);
  });

  it("fixLowContrastText switches a colour below WCAG AA, and leaves it when off", () => {
    const paleOnWhite = textColor(parseHex("#dddddd"), parseHex("#ffffff"), true);
    expect(contrastRatio(paleOnWhite, parseHex("#ffffff"))).toBeGreaterThanOrEqual(4.5);
    expect(textColor(parseHex("#dddddd"), parseHex("#ffffff"), false)).toEqual(parseHex("#dddddd"));
    expect(textColor(parseHex("#1d2226"), parseHex("#ffffff"), true)).toEqual(parseHex("#1d2226"));
  });

  it("resolves the pin colour roles from the post's colour", () => {
    const pin = { r: 81, g: 195, b: 166, a: 1 };
    expect(resolveColor("pin", pin)).toEqual(pin);
    const dark = resolveColor("pin-dark", pin) as typeof pin;
    const light = resolveColor("pin-light", pin) as typeof pin;
    expect(dark.r + dark.g + dark.b).toBeLessThan(81 + 195 + 166);
    expect(light.r + light.g + light.b).toBeGreaterThan(81 + 195 + 166);
  });
});

describe("template operations", () => {
  const design = v.parse(TemplateDesign, {
    title: "Bold banner",
    categories: ["Blog"],
    layers: [{ type: "text", id: "t1", name: "Title", content: "title", x: 100, y: 200, width: 800, height: 300 }],
  });

  it("duplicating a layer offsets it by 20 and names it 'name (copy)'", () => {
    const copy = duplicateLayer(design.layers[0], "t2");
    expect(copy).toMatchObject({ id: "t2", name: "Title (copy)", x: 120, y: 220, width: 800 });
    expect(design.layers[0].x).toBe(100);
  });

  it("duplicating a template titles it 'title (copy)' with no categories", () => {
    expect(duplicateTemplateDesign(design)).toMatchObject({ title: "Bold banner (copy)", categories: [] });
  });

  it("keeps a picture layer's spec flags in step with its source", () => {
    const logo = v.parse(TemplateDesign, { title: "x", layers: [{ type: "Image", id: "l", name: "Logo", x: 0, y: 0, width: 10, height: 10, source: "logo" }] })
      .layers[0];
    expect(withLayerFlags(logo)).toMatchObject({ containsImage: true, useLogoImage: true, useDetectedImages: false });
  });

  it("refuses layers that are not Image, SVG, Video or text", () => {
    const result = v.safeParse(TemplateDesign, { title: "x", layers: [{ type: "Sticker", id: "s", name: "S", x: 0, y: 0, width: 1, height: 1 }] });
    expect(result.success).toBe(false);
  });
});

describe("object-fit geometry", () => {
  it("cover crops the middle of the picture to fill the box", () => {
    // Scale 1500 / 800 = 1.875: a 533.3 x 800 slice from the middle of the 1200 px width.
    const g = fitGeometry({ width: 1200, height: 800 }, { width: 1000, height: 1500 }, "cover");
    expect(g.crop.x).toBeCloseTo(333.33, 1);
    expect(g.crop.width).toBeCloseTo(533.33, 1);
    expect([g.crop.y, g.crop.height, g.width, g.height]).toEqual([0, 800, 1000, 1500]);
  });

  it("contain shows the whole picture centred in the box", () => {
    const g = fitGeometry({ width: 1200, height: 800 }, { width: 1000, height: 1500 }, "contain");
    expect([g.width, g.height, g.offsetX, g.offsetY]).toEqual([1000, 667, 0, 416.5]);
  });
});
