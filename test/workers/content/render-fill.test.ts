import { describe, expect, it } from "vitest";
import { fillBox } from "../../../workers/render/pixel-module.ts";
import { createBitmap } from "../../../workers/render/pixels.ts";

const at = (data: Uint8Array | Uint8ClampedArray, width: number, x: number, y: number) => [...data.slice((y * width + x) * 4, (y * width + x) * 4 + 4)];

describe("rounded boxes of one colour", () => {
  it("fill the middle with the colour, shade only the corners' edge, and leave what lies outside the corners", () => {
    const canvas = createBitmap(200, 120);
    fillBox(canvas, { x: 0, y: 0, width: 200, height: 120 }, { r: 10, g: 20, b: 30, a: 1 });
    fillBox(canvas, { x: 20, y: 10, width: 150, height: 90 }, { r: 250, g: 200, b: 100, a: 1 }, { radius: 24 });
    const d = canvas.data;
    // Inside, including the stretches between the corners and next to them.
    for (const [x, y] of [
      [95, 55],
      [20, 55],
      [169, 55],
      [95, 10],
      [95, 99],
      [45, 11],
      [145, 98],
    ])
      expect(at(d, 200, x, y), `${x},${y}`).toEqual([250, 200, 100, 255]);
    // Outside the rounding of each corner: the background.
    for (const [x, y] of [
      [20, 10],
      [169, 10],
      [20, 99],
      [169, 99],
    ])
      expect(at(d, 200, x, y), `${x},${y}`).toEqual([10, 20, 30, 255]);
    // The four corners are mirror images, with anti-aliased steps along the curve.
    let shaded = 0;
    for (let dy = 0; dy < 26; dy++) {
      for (let dx = 0; dx < 26; dx++) {
        const topLeft = at(d, 200, 20 + dx, 10 + dy);
        expect(at(d, 200, 169 - dx, 10 + dy)).toEqual(topLeft);
        expect(at(d, 200, 20 + dx, 99 - dy)).toEqual(topLeft);
        expect(at(d, 200, 169 - dx, 99 - dy)).toEqual(topLeft);
        if (topLeft[0] > 10 && topLeft[0] < 250) shaded++;
      }
    }
    expect(shaded).toBeGreaterThan(20);
  });

  it("blend a translucent colour the same way inside as along the straight edges", () => {
    const canvas = createBitmap(100, 100);
    fillBox(canvas, { x: 0, y: 0, width: 100, height: 100 }, { r: 200, g: 100, b: 0, a: 1 });
    fillBox(canvas, { x: 10, y: 10, width: 80, height: 80 }, { r: 0, g: 0, b: 255, a: 0.5 }, { radius: 12, opacity: 0.8 });
    // 40% blue over the background, within a level of rounding.
    const expected = [200 * 0.6, 100 * 0.6, 255 * 0.4];
    for (const [x, y] of [
      [50, 50],
      [10, 50],
      [89, 50],
      [50, 10],
      [50, 89],
    ]) {
      at(canvas.data, 100, x, y)
        .slice(0, 3)
        .forEach((value, channel) => {
          expect(Math.abs(value - expected[channel]), `${x},${y} channel ${channel}`).toBeLessThanOrEqual(1);
        });
    }
  });

  it("blend a translucent colour over any background with the same 16-bit arithmetic, pixel for pixel", () => {
    const canvas = createBitmap(64, 48);
    let seed = 7;
    for (let i = 0; i < canvas.data.length; i++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      canvas.data[i] = (i & 3) === 3 ? 255 : seed >>> 24;
    }
    const before = canvas.data.slice();
    const colour = { r: 37, g: 201, b: 118, a: 0.7 };
    fillBox(canvas, { x: 5, y: 4, width: 50, height: 40 }, colour, { opacity: 0.9 });
    const k = Math.round(colour.a * 0.9 * 65536);
    const mix = (under: number, level: number) => (under * (65536 - k) + Math.round(level * k) + 32768) >>> 16;
    for (let y = 0; y < 48; y++) {
      for (let x = 0; x < 64; x++) {
        const o = (y * 64 + x) * 4;
        const inside = x >= 5 && x < 55 && y >= 4 && y < 44;
        const expected = inside ? [mix(before[o], colour.r), mix(before[o + 1], colour.g), mix(before[o + 2], colour.b), 255] : [...before.slice(o, o + 4)];
        expect([...canvas.data.slice(o, o + 4)], `${x},${y}`).toEqual(expected);
      }
    }
  });
});
