import { PhotonImage } from "@cf-wasm/photon/workerd";
import { satori } from "@cf-wasm/satori/workerd";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { TemplateDesign } from "../../../contracts/content/template.ts";
import { STANDARD_TEMPLATES } from "../../../workers/db/seed/standard-templates.ts";
import { woffToSfnt } from "../../../workers/media/fonts.ts";
import { BUNDLED_FONT_FILES, bundledFontBytes } from "../../../workers/render/bundled-font-files.ts";
import { BUNDLED_FONTS, bundledFontPath } from "../../../workers/render/font-catalog.ts";
import { FontLoader } from "../../../workers/render/fonts.ts";
import { fontsNeeded, paintedFrame, planPin, satoriElement, satoriFonts } from "../../../workers/render/layout.ts";
import { decodeJpeg, resizeRegion } from "../../../workers/render/pixel-module.ts";
import { clearPictureCache, decodedPicture, drawResizedPicture, resizedPicture, WORKING_SIZE } from "../../../workers/render/pictures.ts";
import { createBitmap, drawBitmap, type Bitmap } from "../../../workers/render/pixels.ts";
import full444Url from "../../fixtures/jpeg/full-444.jpg?inline";
import greyUrl from "../../fixtures/jpeg/grey.jpg?inline";
import progressiveUrl from "../../fixtures/jpeg/progressive.jpg?inline";
import restartUrl from "../../fixtures/jpeg/restart-420.jpg?inline";
import sub420Url from "../../fixtures/jpeg/subsampled-420-odd.jpg?inline";
import sub422Url from "../../fixtures/jpeg/subsampled-422-odd.jpg?inline";
import sub440Url from "../../fixtures/jpeg/subsampled-440-odd.jpg?inline";
import { testEnv } from "../support.ts";

/**
 * The cold-render work of decision 061: photos decoded by the pixel module
 * instead of photon (the same pixels within one level, photon still taking
 * what the module does not decode), and WOFF fonts unpacked before they are
 * parsed (the same layout, so the preview, which reads the WOFF, still equals
 * the download). The fixtures were made from a sandbox photo with ImageMagick
 * (chroma subsampling 4:2:2, 4:4:0 and 4:2:0 at odd sizes, 4:4:4, greyscale,
 * progressive) and ffmpeg (restart markers, from its sliced encoder).
 */

const fromDataUrl = (url: string) => Uint8Array.from(atob(url.slice(url.indexOf(",") + 1)), (c) => c.charCodeAt(0));
const photo = async (name: string) => new Uint8Array(await (await fetch(`${testEnv.SANDBOX_URL}/blog-demo/images/${name}`)).arrayBuffer());

function photonPixels(bytes: Uint8Array) {
  const image = PhotonImage.new_from_byteslice(bytes);
  try {
    return { width: image.get_width(), height: image.get_height(), data: image.get_raw_pixels() };
  } finally {
    image.free();
  }
}

/** The largest difference of any colour channel, and whether every pixel is opaque. */
function compare(ours: { width: number; height: number; data: Uint8Array | Uint8ClampedArray }, theirs: { width: number; height: number; data: Uint8Array }) {
  expect([ours.width, ours.height]).toEqual([theirs.width, theirs.height]);
  let largest = 0;
  let opaque = true;
  for (let i = 0; i < theirs.data.length; i += 4) {
    for (let c = 0; c < 3; c++) largest = Math.max(largest, Math.abs(ours.data[i + c] - theirs.data[i + c]));
    if (ours.data[i + 3] !== 255) opaque = false;
  }
  return { largest, opaque };
}

describe("JPEG decoding in the pixel module", () => {
  const fixtures: [string, string][] = [
    ["4:4:4", full444Url],
    ["4:2:0 at an odd size", sub420Url],
    ["4:2:2 at an odd size", sub422Url],
    ["4:4:0 at an odd size", sub440Url],
    ["greyscale", greyUrl],
    ["restart markers", restartUrl],
  ];
  for (const [kind, url] of fixtures) {
    it(`decodes a ${kind} JPEG to photon's pixels, within one level`, () => {
      const bytes = fromDataUrl(url);
      const ours = decodeJpeg(bytes);
      if (typeof ours === "string") throw new Error(`${kind}: ${ours}`);
      const { largest, opaque } = compare(ours, photonPixels(bytes));
      expect(largest, kind).toBeLessThanOrEqual(1);
      expect(opaque).toBe(true);
    });
  }

  it("decodes the sample photos as photon does, within one level", async () => {
    for (const name of ["amalfi-coast-itinerary-1.jpg", "cozy-small-living-room-ideas-2.jpg", "berry-smoothie-bowls-3.jpg"]) {
      const bytes = await photo(name);
      const ours = decodeJpeg(bytes);
      if (typeof ours === "string") throw new Error(`${name}: ${ours}`);
      expect(compare(ours, photonPixels(bytes)).largest, name).toBeLessThanOrEqual(1);
    }
  });

  it("leaves progressive files to photon, and refuses cut-short ones as damaged", async () => {
    expect(decodeJpeg(fromDataUrl(progressiveUrl))).toBe("unsupported");
    const bytes = await photo("amalfi-coast-itinerary-1.jpg");
    expect(decodeJpeg(bytes.subarray(0, Math.floor(bytes.length * 0.6)))).toBe("damaged");
    expect(decodeJpeg(new Uint8Array([0xff, 0xd8, 0xff, 0xd9]))).toBe("damaged");
  });

  it("shrinks a picture longer than the working size as the resampler does", async () => {
    const bytes = await photo("amalfi-coast-itinerary-1.jpg"); // 1200 x 800
    const small = decodeJpeg(bytes, 600) as Bitmap;
    expect([small.width, small.height]).toEqual([600, 400]);
    const full = photonPixels(bytes);
    // Each output pixel averages a 2x2 block of the full picture.
    const at = (x: number, y: number, c: number) => full.data[(y * full.width + x) * 4 + c];
    for (const [x, y] of [
      [10, 10],
      [300, 200],
      [599, 399],
    ]) {
      for (let c = 0; c < 3; c++) {
        const mean = (at(2 * x, 2 * y, c) + at(2 * x + 1, 2 * y, c) + at(2 * x, 2 * y + 1, c) + at(2 * x + 1, 2 * y + 1, c)) / 4;
        expect(Math.abs(small.data[(y * 600 + x) * 4 + c] - mean)).toBeLessThanOrEqual(2);
      }
    }
    expect(WORKING_SIZE).toBeGreaterThanOrEqual(1000);
  });

  it("gives the renderer a progressive photo through photon, as before", async () => {
    clearPictureCache();
    const bytes = fromDataUrl(progressiveUrl);
    const bitmap = await decodedPicture({ fetch: async () => bytes }, "https://pictures.invalid/progressive.jpg");
    expect(bitmap).not.toBeNull();
    expect(compare(bitmap!, photonPixels(bytes)).largest).toBe(0);
  });
});

describe("photos drawn into the pin", () => {
  it("enlarges an opaque photo within one level of the float filter, shrinks it with that filter, and draws a cut straight into the pin the first time with the same pixels as its kept copy later", async () => {
    clearPictureCache();
    const bytes = await photo("amalfi-coast-itinerary-1.jpg");
    const source = { fetch: async () => bytes };
    const image = (await decodedPicture(source, "amalfi"))!;
    expect(image.opaque).toBe(true);
    // Enlarged both ways: the integer path, against the float path (the same photo not marked opaque).
    const translucent = { ...image, data: image.data.slice(), opaque: false };
    const crop = { x: 333.3, y: 0, width: 533.3, height: 800 };
    const fast = resizeRegion(image, crop, 1000, 1500);
    const float = resizeRegion(translucent, crop, 1000, 1500);
    let largest = 0;
    for (let i = 0; i < fast.data.length; i++) if ((i & 3) !== 3) largest = Math.max(largest, Math.abs(fast.data[i] - float.data[i]));
    expect(largest).toBeLessThanOrEqual(1);
    // A cut drawn partly outside the pin: straight into it the first time, from the kept copy the second.
    const cut = { crop: { x: 10.5, y: 3.25, width: 300.5, height: 200 }, width: 640, height: 430 };
    const first = createBitmap(600, 400);
    const second = createBitmap(600, 400);
    const expected = createBitmap(600, 400);
    drawResizedPicture(source, "amalfi", image, cut, first, -20, 15);
    drawResizedPicture(source, "amalfi", image, cut, second, -20, 15);
    drawBitmap(expected, resizeRegion(image, cut.crop, cut.width, cut.height), -20, 15);
    expect(first.data.every((value, i) => value === expected.data[i])).toBe(true);
    expect(second.data.every((value, i) => value === expected.data[i])).toBe(true);
    // Seen twice, the cut is kept.
    expect(resizedPicture(source, "amalfi", image, cut)).toBe(resizedPicture(source, "amalfi", image, cut));
    // A cut shrunk one way and enlarged the other (the float path), taller than the pin: made a band at a time,
    // only its rows on the pin, with the rows of the whole resized picture.
    const tall = { crop: { x: 0, y: 100.5, width: 1200, height: 690 }, width: 410, height: 1900 };
    const banded = createBitmap(600, 1500);
    const whole = createBitmap(600, 1500);
    drawResizedPicture(source, "amalfi", image, tall, banded, 37, -211);
    drawBitmap(whole, resizeRegion(image, tall.crop, tall.width, tall.height), 37, -211);
    expect(banded.data.some((value, i) => (i & 3) !== 3 && value !== 0)).toBe(true);
    expect(banded.data.every((value, i) => value === whole.data[i])).toBe(true);
  });
});

describe("fonts unpacked before parsing", () => {
  /** The WOFF files the browser loads (the static assets), as fetched. */
  const woffLoader = () =>
    new FontLoader({
      async fetchFont(url, signal) {
        const response = await testEnv.ASSETS.fetch(new Request(`https://assets.invalid${url}`, { signal }));
        if (!response.ok) throw new Error(`${url}: ${response.status}`);
        return response.arrayBuffer();
      },
    });

  it("gives the worker every bundled font as a data module holding its WOFF unpacked, byte for byte", async () => {
    for (const font of BUNDLED_FONTS) {
      for (const weight of font.weights) {
        const path = bundledFontPath(font, weight);
        const response = await testEnv.ASSETS.fetch(new Request(`https://assets.invalid${path}`));
        const fromWoff = woffToSfnt(new Uint8Array(await response.arrayBuffer()), true);
        const fromModule = new Uint8Array(await bundledFontBytes(path));
        expect(new DataView(fromModule.buffer).getUint32(0), path).toBe(0x00010000);
        expect(fromModule.length, path).toBe(fromWoff.length);
        expect(
          fromModule.every((byte, i) => byte === fromWoff[i]),
          path,
        ).toBe(true);
      }
    }
    // One module per file of the catalog, and no path outside it reaches a module.
    expect(Object.keys(BUNDLED_FONT_FILES).length).toBe(BUNDLED_FONTS.reduce((sum, font) => sum + font.weights.length, 0));
    for (const path of ["/fonts/inter-500.woff", "/fonts/constructor", "/fonts/../inter-400", "/media/inter-400.woff"]) {
      await expect(bundledFontBytes(path), path).rejects.toThrow("is not a bundled font");
    }
  });

  it("lays out every text of a template exactly as from the WOFF: same fit, same outlines", async () => {
    const post = {
      title: "15 cozy fall decor ideas for a small living room",
      URLText: "linenandlark.com",
      brandName: "Linen & Lark",
      price: "$24",
      allImages: [],
    };
    // The worker's fonts (data modules of the sfnt) against the WOFF files as fetched.
    const unpacked = new FontLoader({ fetchFont: bundledFontBytes });
    const asFetched = woffLoader();
    for (const template of STANDARD_TEMPLATES.filter((t) => ["std-full-bleed-banner-01", "std-full-bleed-card-02", "std-quote-gradient-12"].includes(t.id))) {
      const design = v.parse(TemplateDesign, template.design);
      const sfntFonts = await unpacked.loadAll(fontsNeeded(design, post));
      const woffFonts = await asFetched.loadAll(fontsNeeded(design, post));
      for (const font of sfntFonts) expect(new DataView(font.data).getUint32(0), template.id).toBe(0x00010000);
      for (const font of woffFonts) expect(new DataView(font.data).getUint32(0), template.id).toBe(0x774f4646);
      const a = planPin(design, post, sfntFonts);
      const b = planPin(design, post, woffFonts);
      for (const [id, text] of a.texts) expect(text.metrics, `${template.id} ${id}`).toEqual(b.texts.get(id)!.metrics);
      const texts = design.layers.filter((layer) => layer.type === "text" && !layer.hidden);
      const frame = paintedFrame(a, texts as never)!;
      const svg = (plan: typeof a) =>
        satori(satoriElement(plan, texts as never, false, frame, { omitShadows: true }) as never, {
          width: frame.width,
          height: frame.height,
          fonts: satoriFonts(plan),
        });
      expect(await svg(a), template.id).toBe(await svg(b));
    }
  });

  it("unpacks every bundled WOFF with the checksums the WOFF states, not computed again: every table the same, only checksums may differ", async () => {
    const HEAD = 0x68656164;
    for (const font of BUNDLED_FONTS) {
      for (const weight of font.weights) {
        const name = `${font.family} ${weight}`;
        const response = await testEnv.ASSETS.fetch(new Request(`https://assets.invalid${bundledFontPath(font, weight)}`));
        const woff = new Uint8Array(await response.arrayBuffer());
        const stated = woffToSfnt(woff, true);
        const computed = woffToSfnt(woff);
        expect(stated.length, name).toBe(computed.length);
        const a = new DataView(stated.buffer);
        const b = new DataView(computed.buffer);
        const tables = b.getUint16(4);
        expect(a.getUint16(4), name).toBe(tables);
        // The offset table, then each table record's tag, offset and length, then each table's bytes.
        expect([...stated.subarray(0, 12)], name).toEqual([...computed.subarray(0, 12)]);
        for (let i = 0; i < tables; i++) {
          const record = 12 + 16 * i;
          const [tag, offset, length] = [0, 8, 12].map((at) => b.getUint32(record + at));
          expect(
            [0, 8, 12].map((at) => a.getUint32(record + at)),
            name,
          ).toEqual([tag, offset, length]);
          const same = stated.subarray(offset, offset + length).every((byte, k) => byte === computed[offset + k] || (tag === HEAD && k >= 8 && k < 12));
          expect(same, `${name} table ${tag.toString(16)}`).toBe(true);
        }
      }
    }
  });

  it("refuses a damaged WOFF rather than writing a broken sfnt", () => {
    const damaged = new Uint8Array([0x77, 0x4f, 0x46, 0x46, 0, 1, 0, 0, 0, 0, 0, 9, 0, 1]);
    expect(() => woffToSfnt(damaged, true)).toThrow();
  });
});
