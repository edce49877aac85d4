import { satori } from "@cf-wasm/satori/workerd";
import { describe, expect, it } from "vitest";
import { BUNDLED_FONTS } from "../../workers/render/font-catalog.ts";
import { flattenPathData, type FlatPath } from "../../workers/render/pixel-module.ts";
import { flattenPath, LineSink } from "../../workers/render/vector.ts";
import { workerFontLoader } from "../../workers/render/worker-fonts.ts";
import { testEnv } from "./support.ts";

// The pixel module flattens the path data of satori's text (paths.c) so that a
// fresh isolate does not run flattenPath in V8's interpreter. Its lines must be
// flattenPath's bit for bit, or pins would change: these compare the two.

const TOLERANCE = 0.05;

/** flattenPath's answer for `d`: false, or its lines and bounds. */
function byScript(d: string, dx: number, dy: number): FlatPath | false {
  const sink = new LineSink();
  if (!flattenPath(d, sink, dx, dy)) return false;
  return { lines: sink.lines(), minX: sink.minX, minY: sink.minY, maxX: sink.maxX, maxY: sink.maxY };
}

/** The module's answer is flattenPath's, bit for bit (null: it left the path to flattenPath). */
function expectSame(d: string, dx = 0, dy = 0): "same" | "left to the script" {
  const module = flattenPathData(d, dx, dy, TOLERANCE);
  if (module === null) return "left to the script";
  const script = byScript(d, dx, dy);
  if (script === false || module === false) {
    expect({ d, module }).toEqual({ d, module: script });
    return "same";
  }
  // Compared as bits, so that -0 and 0, or any last-bit difference, would show.
  expect({ d, bits: [...new Uint32Array(module.lines.buffer, module.lines.byteOffset, module.lines.length)] }).toEqual({
    d,
    bits: [...new Uint32Array(script.lines.buffer, script.lines.byteOffset, script.lines.length)],
  });
  expect({ d, bounds: [module.minX, module.minY, module.maxX, module.maxY] }).toEqual({ d, bounds: [script.minX, script.minY, script.maxX, script.maxY] });
  return "same";
}

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("the pixel module's path flattening", () => {
  it("gives flattenPath's lines for the outlines satori writes in every bundled font", async () => {
    const loader = workerFontLoader(testEnv);
    const texts = ["15 cozy fall decor ideas", "Linen & Lark — $24.99!", "WQ gjpy @ 100% ÀÉÎõü ﬁ"];
    let paths = 0;
    for (const font of BUNDLED_FONTS) {
      for (const weight of font.weights) {
        const loaded = await loader.load({ family: font.family, weight });
        for (const [i, size] of [13, 37.5, 96, 211].entries()) {
          const svg = await satori(
            {
              type: "div",
              props: {
                style: { display: "flex", fontFamily: font.family, fontWeight: weight, fontSize: size, color: "#222", width: 1000 },
                children: texts[i % texts.length],
              },
            } as never,
            { width: 1000, height: 900, fonts: [{ name: font.family, data: loaded.data, weight, style: "normal" }] },
          );
          for (const match of svg.matchAll(/ d="([^"]*)"/g)) {
            // Offsets as text frames have them (whole and fractional).
            expect(expectSame(match[1], 80, 212.5)).toBe("same");
            paths++;
          }
        }
      }
    }
    expect(paths).toBeGreaterThan(100);
  });

  it("gives flattenPath's answer for thousands of made-up paths, in every way numbers and commands are written", () => {
    const next = random(20261127);
    const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)];
    const number = () => {
      const magnitude = pick([1, 10, 1000, 0.001, 1e6]) * next();
      const text = pick([
        () => String(Math.round(magnitude)),
        () => magnitude.toFixed(pick([1, 2, 3, 6])),
        () => magnitude.toFixed(2).replace(/^0\./, "."),
        () => `${Math.round(magnitude)}.`,
        () => magnitude.toExponential(3),
        () => `${magnitude.toFixed(1)}E+${pick([0, 1, 2])}`,
        () => `${magnitude.toFixed(4)}e-${next() < 0.03 ? 30 : pick([1, 5, 12])}`,
      ])();
      return (next() < 0.4 ? pick(["-", "+"]) : "") + text;
    };
    const separator = () => pick([" ", ",", ", ", "", "\n", " \t"]);
    const counts: Record<string, number> = { M: 2, L: 2, H: 1, V: 1, Q: 4, T: 2, C: 6, S: 4, Z: 0 };
    const outcomes = { same: 0, "left to the script": 0 };
    for (let n = 0; n < 3000; n++) {
      let d = "";
      const commands = 1 + Math.floor(next() * 14);
      for (let c = 0; c < commands; c++) {
        const letter = c === 0 && next() < 0.9 ? "M" : pick(Object.keys(counts));
        d += (next() < 0.5 ? letter.toLowerCase() : letter) + separator();
        // Now and then one number too few or too many, a repeated set, or junk between tokens.
        const wanted = counts[letter] * (next() < 0.2 ? 2 : 1) + (next() < 0.05 ? pick([-1, 1]) : 0);
        for (let k = 0; k < wanted; k++) d += number() + separator();
        if (next() < 0.03) d += pick(["x", "-", ".", "e", "1e", "--2", "#"]);
      }
      outcomes[expectSame(d, next() * 300, next() * 300)]++;
    }
    // It leaves only numbers beyond its exact reading (e-30; exponents such as e+51 where numbers run together).
    expect(outcomes.same).toBeGreaterThan(2000);
    expect(outcomes["left to the script"]).toBeGreaterThan(0);
  });

  it("answers malformed data as flattenPath does, and leaves arcs and inexact numbers to it", () => {
    for (const d of [
      "",
      "   ",
      "M1 2",
      "M1 2 3 4 5 6Z",
      "L1 2",
      "1 2",
      "M1 2Z 3 4",
      "M1",
      "M1 2Q3",
      "M 1 2 L",
      "M1,2l3-4h5v-6z",
      "M.5.5L1.5.5",
      "M1e2 2E-1L3. 4.",
      "m10 10q5 5 10 0t10 0",
      "M0 0C1 2 3 4 5 6S7 8 9 10",
      "M-0 -0L5 5",
    ]) {
      expect(expectSame(d, 3.25, -7.5)).toBe("same");
    }
    expect(flattenPathData("M0 0A5 5 0 0 1 10 0Z", 0, 0, TOLERANCE)).toBeNull();
    expect(flattenPathData("M0 0L1e-30 5L5 5Z", 0, 0, TOLERANCE)).toBeNull();
    expect(flattenPathData("M0 0L12345678901234567 5L5 5Z", 0, 0, TOLERANCE)).toBeNull();
    expect(flattenPathData("M1 2L3", 0, 0, TOLERANCE)).toBe(false);
    expect(flattenPathData("M0 0L10 0L10 10Z", 0.5, 0, TOLERANCE)).toMatchObject({ minX: 0.5, minY: 0, maxX: 10.5, maxY: 10 });
  });
});
