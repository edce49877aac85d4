import { PhotonImage } from "@cf-wasm/photon/workerd";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { TemplateDesign } from "../../../contracts/content/template.ts";
import { renderVideoLayers } from "../../../workers/services/content/video-pins.ts";
import { testEnv } from "../support.ts";

function decode(bytes: Uint8Array) {
  const image = PhotonImage.new_from_byteslice(bytes);
  const pixels = { width: image.get_width(), height: image.get_height(), data: image.get_raw_pixels() };
  image.free();
  return { ...pixels, at: (x: number, y: number) => [...pixels.data.subarray((y * pixels.width + x) * 4, (y * pixels.width + x) * 4 + 4)] };
}

const design = v.parse(TemplateDesign, {
  title: "Video with a band",
  background: "#123456",
  layers: [
    { type: "SVG", id: "frame", name: "Frame", shape: "rect", x: 80, y: 180, width: 840, height: 1140, fill: "#00ff00" },
    { type: "Video", id: "video", name: "Video", x: 100, y: 200, width: 800, height: 1100, borderRadius: 100 },
    { type: "SVG", id: "band", name: "Band", shape: "rect", x: 0, y: 600, width: 1000, height: 200, fill: "#ff0000", opacity: 0.5 },
    { type: "SVG", id: "bar", name: "Bar", shape: "rect", x: 0, y: 0, width: 1000, height: 100, fill: "#ffffff" },
  ],
});

describe("what the pin engine draws around a video", () => {
  it("draws the layers under the Video box opaque, the layers over it as a transparent PNG with their real alpha, and rounds the box's corners", async () => {
    const { base, overlay } = await renderVideoLayers(testEnv, design, 1, { title: "x" });
    const under = decode(base);
    const over = decode(overlay);
    expect([under.width, under.height, over.width, over.height]).toEqual([1000, 1500, 1000, 1500]);
    expect([overlay[1], overlay[2], overlay[3]]).toEqual([0x50, 0x4e, 0x47]); // PNG
    // Under: the background and the frame, not the band or the bar.
    const near = (actual: number[], expected: number[], tolerance = 6) => actual.every((value, i) => Math.abs(value - expected[i]) <= tolerance);
    expect(near(under.at(500, 1400).slice(0, 3), [0x12, 0x34, 0x56])).toBe(true);
    expect(near(under.at(500, 1000).slice(0, 3), [0, 255, 0])).toBe(true);
    expect(near(under.at(500, 50).slice(0, 3), [0x12, 0x34, 0x56])).toBe(true);
    // Over: clear where nothing is drawn, the white bar opaque, the red band half transparent.
    expect(over.at(500, 1000)[3]).toBe(0);
    expect(over.at(500, 50)).toEqual([255, 255, 255, 255]);
    const band = over.at(500, 700);
    expect(near(band.slice(0, 3), [255, 0, 0], 3)).toBe(true);
    expect(Math.abs(band[3] - 128)).toBeLessThanOrEqual(2);
    // The Video box's rounded corner shows what is under it (the green frame), its middle shows the video.
    expect(near(over.at(102, 1298), [0, 255, 0, 255])).toBe(true);
    expect(over.at(150, 1250)[3]).toBe(0);
  });
});
