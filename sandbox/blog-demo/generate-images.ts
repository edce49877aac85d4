/**
 * Generates the demo blog's images into ./images/ (deterministically: the same
 * input always produces the same bytes).
 *
 *   ./node_modules/.bin/node sandbox/blog-demo/generate-images.ts
 *
 * Each post image is an illustrated scene drawn as SVG (gradients and shapes,
 * no text, so no fonts are needed), rasterised with resvg (WebAssembly) and,
 * for .jpg files, encoded as JPEG (quality 80) with photon (WebAssembly). Both
 * come from the project's own dependencies, so nothing is downloaded.
 * Also writes the page furniture a pin generator must skip: a 32x32 favicon,
 * a 32x32 author avatar and a 1x1 tracking GIF.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Resvg } from "@cf-wasm/resvg/node";
import { PhotonImage } from "@cf-wasm/photon/node";
import { type Random, seededRandom, stableSeed } from "../../workers/domain/random.ts";
import { DEMO_POSTS, type DemoImage } from "./posts.ts";

export const IMAGES_DIR = fileURLToPath(new URL("./images/", import.meta.url));
export const JPEG_QUALITY = 80;

/** 1x1 transparent GIF (the classic 43-byte tracking pixel). */
export const PIXEL_GIF = Uint8Array.from([
  0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0x01, 0x00, 0x01, 0x00, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0x21, 0xf9, 0x04, 0x01, 0x00, 0x00, 0x00,
  0x00, 0x2c, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3b,
]);

// ---------------------------------------------------------------------------
// Drawing context and primitives
// ---------------------------------------------------------------------------

type Rng = Random;

interface Ctx {
  w: number;
  h: number;
  /** min(w, h): the unit sizes are expressed in. */
  u: number;
  rng: Rng;
  defs: string[];
  next: number;
  filters: Map<string, string>;
}

const f = (n: number) => String(Math.round(n * 10) / 10);
const rnd = (c: Ctx, a: number, b: number) => a + (b - a) * c.rng();
const pick = <T>(c: Ctx, items: readonly T[]): T => items[Math.floor(c.rng() * items.length)]!;

type Stop = [offset: number, color: string, opacity?: number];

function stopsXml(stops: Stop[]) {
  return stops.map(([o, col, op]) => `<stop offset="${o}" stop-color="${col}"${op === undefined ? "" : ` stop-opacity="${op}"`}/>`).join("");
}

/** Linear gradient in the shape's bounding box; returns a paint reference. */
function lin(c: Ctx, stops: Stop[], x1 = 0, y1 = 0, x2 = 0, y2 = 1): string {
  const id = `g${c.next++}`;
  c.defs.push(`<linearGradient id="${id}" x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}">${stopsXml(stops)}</linearGradient>`);
  return `url(#${id})`;
}

/** Radial gradient in the shape's bounding box; returns a paint reference. */
function rad(c: Ctx, stops: Stop[], cx = 0.5, cy = 0.5, r = 0.5, fx = cx, fy = cy): string {
  const id = `g${c.next++}`;
  c.defs.push(`<radialGradient id="${id}" cx="${cx}" cy="${cy}" r="${r}" fx="${fx}" fy="${fy}">${stopsXml(stops)}</radialGradient>`);
  return `url(#${id})`;
}

/** A Gaussian blur filter attribute (cached per deviation). */
function blur(c: Ctx, sd: number): string {
  const key = f(sd);
  let id = c.filters.get(key);
  if (!id) {
    id = `b${c.next++}`;
    c.filters.set(key, id);
    c.defs.push(`<filter id="${id}" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="${key}"/></filter>`);
  }
  return `filter="url(#${id})"`;
}

function rect(x: number, y: number, w: number, h: number, fill: string, extra = "") {
  return `<rect x="${f(x)}" y="${f(y)}" width="${f(w)}" height="${f(h)}" fill="${fill}" ${extra}/>`;
}
function rrect(x: number, y: number, w: number, h: number, r: number, fill: string, extra = "") {
  return `<rect x="${f(x)}" y="${f(y)}" width="${f(w)}" height="${f(h)}" rx="${f(r)}" fill="${fill}" ${extra}/>`;
}
function circle(cx: number, cy: number, r: number, fill: string, extra = "") {
  return `<circle cx="${f(cx)}" cy="${f(cy)}" r="${f(r)}" fill="${fill}" ${extra}/>`;
}
function ellipse(cx: number, cy: number, rx: number, ry: number, fill: string, extra = "") {
  return `<ellipse cx="${f(cx)}" cy="${f(cy)}" rx="${f(rx)}" ry="${f(ry)}" fill="${fill}" ${extra}/>`;
}
function path(d: string, fill: string, extra = "") {
  return `<path d="${d}" fill="${fill}" ${extra}/>`;
}
function poly(points: [number, number][], fill: string, extra = "") {
  return `<polygon points="${points.map(([x, y]) => `${f(x)},${f(y)}`).join(" ")}" fill="${fill}" ${extra}/>`;
}
function line(x1: number, y1: number, x2: number, y2: number, stroke: string, width: number, extra = "") {
  return `<line x1="${f(x1)}" y1="${f(y1)}" x2="${f(x2)}" y2="${f(y2)}" stroke="${stroke}" stroke-width="${f(width)}" stroke-linecap="round" ${extra}/>`;
}
function group(content: string, transform: string, extra = "") {
  return `<g transform="${transform}" ${extra}>${content}</g>`;
}
const at = (x: number, y: number, rot = 0, scale = 1) => `translate(${f(x)} ${f(y)}) rotate(${f(rot)}) scale(${scale})`;

/** A smooth closed blob around (cx, cy). */
function blobPath(c: Ctx, cx: number, cy: number, rx: number, ry: number, rot = 0, jitter = 0.12, points = 9): string {
  const pts: [number, number][] = [];
  const cr = Math.cos((rot * Math.PI) / 180);
  const sr = Math.sin((rot * Math.PI) / 180);
  for (let i = 0; i < points; i++) {
    const a = (i / points) * Math.PI * 2;
    const k = 1 + (c.rng() * 2 - 1) * jitter;
    const x = Math.cos(a) * rx * k;
    const y = Math.sin(a) * ry * k;
    pts.push([cx + x * cr - y * sr, cy + x * sr + y * cr]);
  }
  const mid = (p: [number, number], q: [number, number]) => [(p[0] + q[0]) / 2, (p[1] + q[1]) / 2] as const;
  const first = mid(pts[points - 1]!, pts[0]!);
  let d = `M${f(first[0])} ${f(first[1])}`;
  for (let i = 0; i < points; i++) {
    const p = pts[i]!;
    const m = mid(p, pts[(i + 1) % points]!);
    d += `Q${f(p[0])} ${f(p[1])} ${f(m[0])} ${f(m[1])}`;
  }
  return `${d}Z`;
}

/** A pointed leaf from its base at (x, y), pointing at `angle` degrees. */
function leaf(x: number, y: number, len: number, wid: number, angle: number, fill: string, vein?: string) {
  const body = path(`M0 0Q${f(len * 0.45)} ${f(-wid)} ${f(len)} 0Q${f(len * 0.45)} ${f(wid)} 0 0Z`, fill);
  const rib = vein ? line(len * 0.05, 0, len * 0.85, 0, vein, Math.max(1, wid * 0.08), `opacity="0.6"`) : "";
  return group(body + rib, at(x, y, angle));
}

function softShadow(c: Ctx, cx: number, cy: number, rx: number, ry: number, opacity = 0.3, sd = 0) {
  return ellipse(cx, cy, rx, ry, "#000", `opacity="${opacity}" ${blur(c, sd || Math.max(4, rx * 0.12))}`);
}

function vignette(c: Ctx, strength = 0.28) {
  return rect(
    0,
    0,
    c.w,
    c.h,
    rad(
      c,
      [
        [0.55, "#000", 0],
        [1, "#000", strength],
      ],
      0.5,
      0.5,
      0.75,
    ),
  );
}

/** Subtle film grain so the flat illustrations read a little more like photos. */
function grain(c: Ctx, opacity = 0.06) {
  const id = `n${c.next++}`;
  c.defs.push(
    `<filter id="${id}" x="0" y="0" width="100%" height="100%"><feTurbulence type="fractalNoise" baseFrequency="0.9" numOctaves="2" seed="${Math.floor(c.rng() * 1000)}"/><feColorMatrix type="saturate" values="0"/></filter>`,
  );
  return rect(0, 0, c.w, c.h, "#fff", `filter="url(#${id})" opacity="${opacity}"`);
}

function glow(c: Ctx, cx: number, cy: number, r: number, color: string, opacity = 0.6) {
  return circle(
    cx,
    cy,
    r,
    rad(c, [
      [0, color, opacity],
      [1, color, 0],
    ]),
  );
}

// ---------------------------------------------------------------------------
// Reusable objects
// ---------------------------------------------------------------------------

function woodTable(c: Ctx, base: string, dark: string, vertical = false, y0 = 0, h = c.h) {
  let out = rect(
    0,
    y0,
    c.w,
    h,
    lin(
      c,
      [
        [0, base],
        [1, dark],
      ],
      0,
      0,
      1,
      1,
    ),
  );
  const plank = c.u * 0.16;
  const span = vertical ? c.w : h;
  for (let p = 0; p < span; p += plank) {
    const shade = c.rng() * 0.12;
    if (vertical) out += rect(p, y0, plank, h, "#000", `opacity="${f(shade)}"`);
    else out += rect(0, y0 + p, c.w, plank, "#000", `opacity="${f(shade)}"`);
    for (let k = 0; k < 5; k++) {
      const off = p + rnd(c, 0.1, 0.9) * plank;
      const amp = rnd(c, 2, 7);
      const len = vertical ? h : c.w;
      let d = "";
      for (let s = 0; s <= 12; s++) {
        const t = (s / 12) * len;
        const o = off + Math.sin(s * rnd(c, 0.6, 1.4)) * amp;
        d += `${s === 0 ? "M" : "L"}${vertical ? `${f(o)} ${f(y0 + t)}` : `${f(t)} ${f(y0 + o)}`}`;
      }
      out += `<path d="${d}" fill="none" stroke="${dark}" stroke-width="${f(rnd(c, 1, 3))}" opacity="${f(rnd(c, 0.15, 0.35))}"/>`;
    }
    out += vertical ? line(p, y0, p, y0 + h, "#000", 3, `opacity="0.25"`) : line(0, y0 + p, c.w, y0 + p, "#000", 3, `opacity="0.25"`);
  }
  return out;
}

function marble(c: Ctx) {
  let out = rect(
    0,
    0,
    c.w,
    c.h,
    lin(
      c,
      [
        [0, "#f7f5f2"],
        [1, "#e4e1dc"],
      ],
      0,
      0,
      1,
      1,
    ),
  );
  for (let i = 0; i < 9; i++) {
    let x = rnd(c, -0.2, 1) * c.w;
    let y = rnd(c, 0, 1) * c.h;
    let d = `M${f(x)} ${f(y)}`;
    for (let s = 0; s < 6; s++) {
      x += rnd(c, 40, 160);
      y += rnd(c, -90, 90);
      d += `L${f(x)} ${f(y)}`;
    }
    out += `<path d="${d}" fill="none" stroke="#a9a39b" stroke-width="${f(rnd(c, 1, 4))}" opacity="${f(rnd(c, 0.2, 0.45))}" ${blur(c, 1.5)}/>`;
  }
  return out;
}

function linenCloth(c: Ctx, x: number, y: number, w: number, h: number, rot: number, color: string, stripe: string) {
  let inner = rrect(0, 0, w, h, 6, color);
  for (let i = 1; i < 4; i++) inner += rect(0, h * 0.08 + i * 14, w, 5, stripe, `opacity="0.8"`);
  inner += rect(
    0,
    0,
    w,
    h,
    lin(
      c,
      [
        [0, "#fff", 0.25],
        [1, "#000", 0.12],
      ],
      0,
      0,
      1,
      1,
    ),
  );
  return (
    softShadow(c, x + w / 2, y + h / 2 + 10, w * 0.55, h * 0.55, 0.18) + group(inner, `translate(${f(x)} ${f(y)}) rotate(${f(rot)} ${f(w / 2)} ${f(h / 2)})`)
  );
}

function potato(c: Ctx, x: number, y: number, r: number) {
  const d = blobPath(c, x, y, r, r * rnd(c, 0.7, 0.9), rnd(c, 0, 180), 0.12, 7);
  let out = path(
    d,
    rad(
      c,
      [
        [0, "#f6d48a"],
        [0.6, "#e2a247"],
        [1, "#a8612a"],
      ],
      0.4,
      0.35,
      0.7,
    ),
  );
  for (let i = 0; i < 3; i++) out += circle(x + rnd(c, -0.5, 0.5) * r, y + rnd(c, -0.5, 0.5) * r, r * 0.08, "#7a3f17", `opacity="0.5"`);
  return out;
}

function chickenThigh(c: Ctx, x: number, y: number, r: number, rot: number) {
  const d = blobPath(c, x, y, r, r * 0.72, rot, 0.14, 10);
  let out =
    softShadow(c, x + 6, y + 8, r, r * 0.7, 0.35) +
    path(
      d,
      rad(
        c,
        [
          [0, "#f0b76a"],
          [0.55, "#cf7c33"],
          [1, "#7c3a14"],
        ],
        0.45,
        0.35,
        0.75,
      ),
    );
  for (let i = 0; i < 6; i++) {
    out += path(
      blobPath(c, x + rnd(c, -0.6, 0.6) * r, y + rnd(c, -0.4, 0.4) * r, r * rnd(c, 0.08, 0.2), r * rnd(c, 0.06, 0.14), rnd(c, 0, 180)),
      "#6b2d0e",
      `opacity="${f(rnd(c, 0.25, 0.5))}"`,
    );
  }
  out += ellipse(x - r * 0.25, y - r * 0.25, r * 0.35, r * 0.15, "#fff", `opacity="0.25" transform="rotate(${f(rot)} ${f(x)} ${f(y)})"`);
  return out;
}

function lemonSlice(_c: Ctx, x: number, y: number, r: number, roasted = true) {
  let out = circle(x, y, r, "#f2c92f") + circle(x, y, r * 0.86, "#fdf3c4") + circle(x, y, r * 0.78, "#f9dc5c");
  for (let i = 0; i < 9; i++) {
    const a = (i / 9) * Math.PI * 2;
    out += line(x, y, x + Math.cos(a) * r * 0.78, y + Math.sin(a) * r * 0.78, "#fdf3c4", r * 0.07);
  }
  if (roasted) out += circle(x, y, r, "none", `stroke="#a8701c" stroke-width="${f(r * 0.08)}" opacity="0.6"`);
  return out;
}

function herbSprig(_c: Ctx, x: number, y: number, len: number, angle: number, color = "#4e8a3a") {
  let out = line(0, 0, len, 0, "#3d6b2c", Math.max(1.5, len * 0.03));
  for (let i = 1; i <= 4; i++) {
    const t = (i / 5) * len;
    out += leaf(t, 0, len * 0.28, len * 0.09, -40, color) + leaf(t, 0, len * 0.28, len * 0.09, 40, color);
  }
  out += leaf(len, 0, len * 0.3, len * 0.1, 0, color);
  return group(out, at(x, y, angle));
}

function potPlant(
  c: Ctx,
  x: number,
  baseY: number,
  potW: number,
  potColor: string,
  leafColors: string[],
  kind: "round" | "spiky" | "tall" | "sprout" | "monstera",
) {
  const potH = potW * 0.85;
  let out = softShadow(c, x, baseY, potW * 0.6, potW * 0.1, 0.25);
  const leaves: string[] = [];
  const top = baseY - potH;
  if (kind === "round") {
    for (let i = 0; i < 26; i++) {
      const a = rnd(c, -160, -20);
      const dist = rnd(c, 0.1, 0.9) * potW * 0.75;
      const lx = x + Math.cos((a * Math.PI) / 180) * dist;
      const ly = top - 4 + Math.sin((a * Math.PI) / 180) * dist * 0.9;
      leaves.push(leaf(lx, ly, potW * rnd(c, 0.28, 0.4), potW * rnd(c, 0.13, 0.18), a + rnd(c, -30, 30), pick(c, leafColors), "#d8f0c0"));
    }
  } else if (kind === "spiky") {
    for (let i = 0; i < 9; i++) {
      const a = -90 + rnd(c, -35, 35);
      const len = potW * rnd(c, 0.9, 1.5);
      let stem = line(0, 0, len, 0, "#5b6e45", 2.5);
      for (let k = 1; k < 14; k++) stem += leaf((k / 14) * len, 0, potW * 0.12, potW * 0.018, k % 2 ? -55 : 55, pick(c, leafColors));
      leaves.push(group(stem, at(x + rnd(c, -0.25, 0.25) * potW, top + 6, a)));
    }
  } else if (kind === "tall") {
    for (let i = 0; i < 7; i++) {
      const a = -90 + rnd(c, -28, 28);
      const len = potW * rnd(c, 0.7, 1.2);
      let stem = line(0, 0, len, 0, "#4d7a36", 3);
      for (let k = 1; k <= 4; k++) {
        const t = (k / 4.5) * len;
        stem +=
          leaf(t, 0, potW * 0.22, potW * 0.1, -60, pick(c, leafColors), "#cfe8b6") + leaf(t, 0, potW * 0.22, potW * 0.1, 60, pick(c, leafColors), "#cfe8b6");
      }
      leaves.push(group(stem, at(x + rnd(c, -0.2, 0.2) * potW, top + 4, a)));
    }
  } else if (kind === "sprout") {
    for (let i = 0; i < 3; i++) {
      const sx = x + (i - 1) * potW * 0.22;
      const sh = potW * rnd(c, 0.35, 0.55);
      leaves.push(line(sx, top + 4, sx, top - sh, "#6a9a45", 3));
      leaves.push(
        leaf(sx, top - sh, potW * 0.22, potW * 0.1, -35, pick(c, leafColors)),
        leaf(sx, top - sh, potW * 0.22, potW * 0.1, -145, pick(c, leafColors)),
      );
    }
  } else {
    for (let i = 0; i < 8; i++) {
      const a = -90 + (i - 3.5) * 16 + rnd(c, -6, 6);
      const len = potW * rnd(c, 1.0, 1.6);
      const rad2 = (a * Math.PI) / 180;
      const ex = x + Math.cos(rad2) * len;
      const ey = top + Math.sin(rad2) * len;
      leaves.push(line(x, top, ex, ey, "#3f6b35", 3));
      leaves.push(leaf(ex, ey, potW * rnd(c, 0.55, 0.75), potW * rnd(c, 0.3, 0.4), a + rnd(c, -40, 40), pick(c, leafColors), "#a9d18e"));
    }
  }
  out += leaves.join("");
  out += poly(
    [
      [x - potW / 2, top],
      [x + potW / 2, top],
      [x + potW * 0.38, baseY],
      [x - potW * 0.38, baseY],
    ],
    lin(
      c,
      [
        [0, potColor],
        [1, shade(potColor, -0.25)],
      ],
      0,
      0,
      1,
      0,
    ),
  );
  out += rrect(
    x - potW * 0.55,
    top - potW * 0.04,
    potW * 1.1,
    potW * 0.16,
    4,
    lin(
      c,
      [
        [0, shade(potColor, 0.1)],
        [1, shade(potColor, -0.2)],
      ],
      0,
      0,
      1,
      0,
    ),
  );
  return out;
}

/** Lighten (amount > 0) or darken (amount < 0) a #rrggbb colour. */
function shade(hex: string, amount: number): string {
  const n = parseInt(hex.slice(1), 16);
  const ch = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((v) => {
    const t = amount > 0 ? v + (255 - v) * amount : v * (1 + amount);
    return Math.max(0, Math.min(255, Math.round(t)));
  });
  return `#${ch.map((v) => v.toString(16).padStart(2, "0")).join("")}`;
}

function mugTop(c: Ctx, x: number, y: number, r: number, color: string, drink = "#6b3e22") {
  return (
    softShadow(c, x + r * 0.15, y + r * 0.2, r * 1.05, r * 1.05, 0.3) +
    rrect(x + r * 0.7, y - r * 0.22, r * 0.75, r * 0.44, r * 0.2, "none", `stroke="${color}" stroke-width="${f(r * 0.18)}"`) +
    circle(
      x,
      y,
      r,
      lin(
        c,
        [
          [0, shade(color, 0.2)],
          [1, shade(color, -0.15)],
        ],
        0,
        0,
        1,
        1,
      ),
    ) +
    circle(
      x,
      y,
      r * 0.82,
      rad(
        c,
        [
          [0, shade(drink, 0.25)],
          [1, drink],
        ],
        0.45,
        0.4,
        0.6,
      ),
    ) +
    ellipse(x - r * 0.25, y - r * 0.3, r * 0.25, r * 0.1, "#fff", `opacity="0.35" transform="rotate(-30 ${f(x)} ${f(y)})"`)
  );
}

function pineTree(x: number, baseY: number, h: number, color: string) {
  const w = h * 0.42;
  let out = rect(x - h * 0.03, baseY - h * 0.12, h * 0.06, h * 0.12, "#3b2a1e");
  for (let i = 0; i < 4; i++) {
    const ty = baseY - h * 0.1 - i * h * 0.22;
    const tw = w * (1 - i * 0.2);
    out += poly(
      [
        [x, ty - h * 0.38],
        [x + tw / 2, ty],
        [x - tw / 2, ty],
      ],
      color,
    );
  }
  return out;
}

function mountains(c: Ctx, baseY: number, peaks: number, minH: number, maxH: number, color: string, snow = false) {
  const pts: [number, number][] = [[-50, baseY]];
  const step = (c.w + 100) / peaks;
  const snowCaps: string[] = [];
  for (let i = 0; i <= peaks; i++) {
    const px = -50 + i * step + rnd(c, -0.2, 0.2) * step;
    const py = baseY - rnd(c, minH, maxH);
    pts.push([px - step * 0.5, baseY - rnd(c, minH * 0.3, minH * 0.7)]);
    pts.push([px, py]);
    if (snow) {
      const sh = (baseY - py) * 0.22;
      snowCaps.push(
        poly(
          [
            [px, py],
            [px + sh * 0.8, py + sh],
            [px + sh * 0.35, py + sh * 0.8],
            [px, py + sh * 1.1],
            [px - sh * 0.4, py + sh * 0.75],
            [px - sh * 0.8, py + sh],
          ],
          "#f4f7fb",
          `opacity="0.92"`,
        ),
      );
    }
  }
  pts.push([c.w + 50, baseY]);
  return poly(pts, color) + snowCaps.join("");
}

function bokeh(c: Ctx, n: number, colors: string[], minR: number, maxR: number, x0 = 0, y0 = 0, w = c.w, h = c.h) {
  let out = "";
  for (let i = 0; i < n; i++) {
    const r = rnd(c, minR, maxR);
    out += circle(x0 + rnd(c, 0, 1) * w, y0 + rnd(c, 0, 1) * h, r, pick(c, colors), `opacity="${f(rnd(c, 0.25, 0.7))}" ${blur(c, Math.round(r * 0.15))}`);
  }
  return out;
}

function flower(c: Ctx, x: number, y: number, r: number, color: string, center = "#f4d06f") {
  let out = "";
  const petals = 6;
  const rot = rnd(c, 0, 60);
  for (let i = 0; i < petals; i++) {
    const a = rot + (i * 360) / petals;
    out += group(ellipse(r * 0.55, 0, r * 0.55, r * 0.32, color), at(x, y, a));
  }
  return out + circle(x, y, r * 0.28, center);
}

function rose(c: Ctx, x: number, y: number, r: number, color: string) {
  let out =
    circle(x, y, r, color) +
    circle(
      x,
      y,
      r,
      rad(
        c,
        [
          [0, "#fff", 0.2],
          [1, "#000", 0.2],
        ],
        0.4,
        0.35,
        0.7,
      ),
    );
  for (let i = 0; i < 4; i++) {
    const rr = r * (0.85 - i * 0.2);
    out += path(
      `M${f(x - rr)} ${f(y)}A${f(rr)} ${f(rr)} 0 0 1 ${f(x + rr * 0.6)} ${f(y - rr * 0.8)}`,
      "none",
      `stroke="${shade(color, -0.25)}" stroke-width="${f(r * 0.07)}" transform="rotate(${f(i * 95 + rnd(c, 0, 40))} ${f(x)} ${f(y)})"`,
    );
  }
  return out;
}

function stringLights(c: Ctx, x1: number, y1: number, x2: number, y2: number, sag: number, bulbs: number) {
  const mx = (x1 + x2) / 2;
  const my = (y1 + y2) / 2 + sag;
  let out = path(`M${f(x1)} ${f(y1)}Q${f(mx)} ${f(my + sag)} ${f(x2)} ${f(y2)}`, "none", `stroke="#2b2a33" stroke-width="2"`);
  for (let i = 1; i < bulbs; i++) {
    const t = i / bulbs;
    const bx = (1 - t) * (1 - t) * x1 + 2 * (1 - t) * t * mx + t * t * x2;
    const by = (1 - t) * (1 - t) * y1 + 2 * (1 - t) * t * (my + sag) + t * t * y2;
    out += glow(c, bx, by + 8, 26, "#ffd98a", 0.5) + ellipse(bx, by + 8, 5, 8, "#fff3c4");
  }
  return out;
}

function yarnBall(c: Ctx, x: number, y: number, r: number, color: string) {
  let out =
    softShadow(c, x, y + r * 0.9, r * 0.9, r * 0.2, 0.3) +
    circle(
      x,
      y,
      r,
      rad(
        c,
        [
          [0, shade(color, 0.25)],
          [1, shade(color, -0.25)],
        ],
        0.4,
        0.35,
        0.7,
      ),
    );
  for (let i = 0; i < 7; i++) {
    const a = rnd(c, 0, 180);
    const k = rnd(c, 0.3, 0.95);
    out += path(
      `M${f(-r * k)} 0A${f(r * k)} ${f(r * 0.45)} 0 0 1 ${f(r * k)} 0`,
      "none",
      `stroke="${shade(color, -0.3)}" stroke-width="${f(r * 0.05)}" opacity="0.6" transform="translate(${f(x)} ${f(y)}) rotate(${f(a)})"`,
    );
  }
  return out;
}

function scissors(c: Ctx, x: number, y: number, s: number, rot: number, color: string) {
  const body =
    poly(
      [
        [0, -s * 0.06],
        [s * 1.3, -s * 0.02],
        [0, s * 0.05],
      ],
      "#c9cdd3",
    ) +
    poly(
      [
        [0, s * 0.06],
        [s * 1.25, s * 0.1],
        [0, -s * 0.03],
      ],
      "#aeb3ba",
    ) +
    circle(-s * 0.28, -s * 0.16, s * 0.2, "none", `stroke="${color}" stroke-width="${f(s * 0.09)}"`) +
    circle(-s * 0.28, s * 0.2, s * 0.2, "none", `stroke="${color}" stroke-width="${f(s * 0.09)}"`) +
    circle(0, 0, s * 0.04, "#555");
  return softShadow(c, x + 6, y + 8, s * 0.9, s * 0.25, 0.2) + group(body, at(x, y, rot));
}

function dumbbell(c: Ctx, x: number, y: number, s: number, rot: number, color: string) {
  const plate = (px: number) =>
    rrect(
      px - s * 0.14,
      -s * 0.3,
      s * 0.28,
      s * 0.6,
      s * 0.06,
      lin(c, [
        [0, shade(color, 0.25)],
        [0.5, color],
        [1, shade(color, -0.35)],
      ]),
    ) + rect(px - s * 0.14, -s * 0.3, s * 0.28, s * 0.08, "#fff", `opacity="0.15"`);
  const body =
    rrect(
      -s * 0.6,
      -s * 0.06,
      s * 1.2,
      s * 0.12,
      s * 0.05,
      lin(c, [
        [0, "#d9dde2"],
        [0.5, "#8c939b"],
        [1, "#5d636b"],
      ]),
    ) +
    plate(-s * 0.6) +
    plate(s * 0.6);
  return softShadow(c, x, y + s * 0.32, s * 0.85, s * 0.1, 0.35) + group(body, at(x, y, rot));
}

function windowFrame(c: Ctx, x: number, y: number, w: number, h: number, sky: string, frame = "#f5f1ea") {
  let out = rect(x, y, w, h, sky);
  out += rect(x, y, w, h, "none", `stroke="${frame}" stroke-width="${f(c.u * 0.025)}"`);
  out += line(x + w / 2, y, x + w / 2, y + h, frame, c.u * 0.015) + line(x, y + h / 2, x + w, y + h / 2, frame, c.u * 0.015);
  out += rect(x - c.u * 0.02, y + h, w + c.u * 0.04, c.u * 0.025, shade(frame, -0.1));
  return out;
}

function lightBeam(c: Ctx, x: number, y: number, w: number, h: number, drop: number, slant: number) {
  return poly(
    [
      [x, y],
      [x + w, y],
      [x + w + slant, y + h + drop],
      [x + slant, y + h + drop],
    ],
    lin(c, [
      [0, "#fff8e0", 0.35],
      [1, "#fff8e0", 0],
    ]),
    blur(c, 12),
  );
}

function frameArt(c: Ctx, x: number, y: number, w: number, h: number, colors: string[]) {
  let out =
    softShadow(c, x + w / 2 + 6, y + h / 2 + 10, w * 0.52, h * 0.52, 0.2) +
    rect(x, y, w, h, "#2f2a26") +
    rect(x + w * 0.08, y + w * 0.08, w * 0.84, h - w * 0.16, "#f6efe4");
  const ix = x + w * 0.08;
  const iy = y + w * 0.08;
  const iw = w * 0.84;
  const ih = h - w * 0.16;
  out += circle(ix + iw * 0.5, iy + ih * 0.42, iw * 0.22, colors[0]!);
  out += path(
    `M${f(ix)} ${f(iy + ih)}L${f(ix)} ${f(iy + ih * 0.7)}Q${f(ix + iw * 0.3)} ${f(iy + ih * 0.5)} ${f(ix + iw * 0.55)} ${f(iy + ih * 0.72)}T${f(ix + iw)} ${f(iy + ih * 0.6)}L${f(ix + iw)} ${f(iy + ih)}Z`,
    colors[1]!,
  );
  out += path(
    `M${f(ix)} ${f(iy + ih)}Q${f(ix + iw * 0.5)} ${f(iy + ih * 0.75)} ${f(ix + iw)} ${f(iy + ih * 0.88)}L${f(ix + iw)} ${f(iy + ih)}Z`,
    colors[2] ?? shade(colors[1]!, -0.2),
  );
  return out;
}

function sun(c: Ctx, x: number, y: number, r: number, color = "#ffd36b") {
  return glow(c, x, y, r * 4, color, 0.45) + glow(c, x, y, r * 2, "#fff2c2", 0.5) + circle(x, y, r, color);
}

function cloud(_c: Ctx, x: number, y: number, s: number, color = "#ffffff", opacity = 0.85) {
  return group(
    ellipse(0, 0, s, s * 0.35, color) + circle(-s * 0.35, -s * 0.15, s * 0.35, color) + circle(s * 0.15, -s * 0.28, s * 0.42, color),
    at(x, y),
    `opacity="${opacity}"`,
  );
}

// ---------------------------------------------------------------------------
// Scenes, one per post; `v` is the 1-based image number within the post
// ---------------------------------------------------------------------------

type Scene = (c: Ctx, v: number) => string;

const lemonChicken: Scene = (c, v) => {
  const { w, h, u } = c;
  let out = woodTable(c, "#a8744a", "#5e3b22", v === 2);
  if (v === 1) {
    out += linenCloth(c, w * 0.02, h * 0.58, u * 0.55, u * 0.38, -12, "#efe6d6", "#b65a3c");
    const cx = w * 0.47;
    const cy = h * 0.5;
    const R = u * 0.38;
    out += softShadow(c, cx + 18, cy + 24, R * 1.05, R * 1.05, 0.45);
    out += group(
      rrect(
        0,
        -u * 0.035,
        u * 0.42,
        u * 0.07,
        u * 0.03,
        lin(c, [
          [0, "#3a3a3a"],
          [1, "#151515"],
        ]),
      ),
      at(cx + R * 0.92, cy - R * 0.3, -20),
    );
    out +=
      circle(
        cx,
        cy,
        R,
        lin(
          c,
          [
            [0, "#4a4a4a"],
            [1, "#101010"],
          ],
          0,
          0,
          1,
          1,
        ),
      ) +
      circle(
        cx,
        cy,
        R * 0.9,
        rad(c, [
          [0, "#5a3a20"],
          [1, "#2a1c12"],
        ]),
      );
    for (let i = 0; i < 16; i++) {
      const a = rnd(c, 0, Math.PI * 2);
      const d = rnd(c, 0.1, 0.75) * R;
      out += potato(c, cx + Math.cos(a) * d, cy + Math.sin(a) * d, u * rnd(c, 0.045, 0.06));
    }
    for (let i = 0; i < 5; i++) {
      const a = (i / 5) * Math.PI * 2 + 0.4;
      out += chickenThigh(c, cx + Math.cos(a) * R * 0.48, cy + Math.sin(a) * R * 0.48, u * 0.11, rnd(c, 0, 180));
    }
    out += chickenThigh(c, cx, cy, u * 0.1, 30);
    for (let i = 0; i < 5; i++) {
      const a = (i / 5) * Math.PI * 2 + 1;
      out += lemonSlice(c, cx + Math.cos(a) * R * 0.75, cy + Math.sin(a) * R * 0.75, u * 0.045);
    }
    for (let i = 0; i < 7; i++)
      out += ellipse(cx + rnd(c, -0.7, 0.7) * R, cy + rnd(c, -0.7, 0.7) * R, u * 0.018, u * 0.012, "#f3e6c4", `stroke="#c9b68a" stroke-width="1.5"`);
    for (let i = 0; i < 30; i++)
      out += leaf(cx + rnd(c, -0.75, 0.75) * R, cy + rnd(c, -0.75, 0.75) * R, u * 0.03, u * 0.012, rnd(c, 0, 360), pick(c, ["#3f7d2c", "#5a9a3c"]));
    // lemons and garlic beside the pan
    out +=
      softShadow(c, w * 0.86, h * 0.8, u * 0.09, u * 0.07, 0.3) +
      ellipse(
        w * 0.86,
        h * 0.78,
        u * 0.085,
        u * 0.065,
        rad(
          c,
          [
            [0, "#ffe98a"],
            [1, "#e0b21c"],
          ],
          0.4,
          0.35,
          0.7,
        ),
      );
    out += lemonSlice(c, w * 0.78, h * 0.9, u * 0.06, false);
    out += herbSprig(c, w * 0.82, h * 0.18, u * 0.22, 160);
    out += herbSprig(c, w * 0.1, h * 0.2, u * 0.2, 20);
  } else {
    const cx = w * 0.48;
    const cy = h * 0.46;
    const R = u * 0.42;
    out += linenCloth(c, w * 0.08, cy - R * 0.9, u * 0.84, u * 1.0, 4, "#dfe7e4", "#5f8f86");
    out += softShadow(c, cx + 14, cy + 22, R, R, 0.35);
    out +=
      circle(
        cx,
        cy,
        R,
        lin(
          c,
          [
            [0, "#ffffff"],
            [1, "#d9d6d0"],
          ],
          0,
          0,
          1,
          1,
        ),
      ) +
      circle(
        cx,
        cy,
        R * 0.78,
        rad(c, [
          [0, "#ffffff"],
          [1, "#ece8e1"],
        ]),
      );
    for (let i = 0; i < 7; i++) out += potato(c, cx + rnd(c, -0.5, 0.5) * R, cy + rnd(c, 0.05, 0.55) * R, u * 0.06);
    out += chickenThigh(c, cx - R * 0.2, cy - R * 0.2, u * 0.15, 20) + chickenThigh(c, cx + R * 0.3, cy - R * 0.05, u * 0.14, -30);
    out += lemonSlice(c, cx + R * 0.45, cy + R * 0.35, u * 0.06) + lemonSlice(c, cx - R * 0.5, cy + R * 0.1, u * 0.055);
    for (let i = 0; i < 24; i++)
      out += leaf(cx + rnd(c, -0.6, 0.6) * R, cy + rnd(c, -0.6, 0.6) * R, u * 0.035, u * 0.014, rnd(c, 0, 360), pick(c, ["#3f7d2c", "#5a9a3c"]));
    // fork
    const fx = cx + R * 1.12;
    out += softShadow(c, fx + 8, cy + 10, u * 0.03, R * 0.9, 0.25);
    out += rrect(
      fx - u * 0.018,
      cy - R * 0.1,
      u * 0.036,
      R * 0.95,
      u * 0.018,
      lin(
        c,
        [
          [0, "#e8eaed"],
          [1, "#9aa0a8"],
        ],
        0,
        0,
        1,
        0,
      ),
    );
    for (let i = 0; i < 4; i++) out += rrect(fx - u * 0.03 + i * u * 0.02, cy - R * 0.55, u * 0.009, R * 0.4, 3, "#c6cad0");
    out += rrect(fx - u * 0.032, cy - R * 0.2, u * 0.064, R * 0.14, 8, "#c6cad0");
    // glass of water and a small bowl of lemons
    out +=
      softShadow(c, w * 0.8, h * 0.1, u * 0.1, u * 0.1, 0.2) +
      circle(w * 0.78, h * 0.08, u * 0.09, "#dfeef5", `opacity="0.85" stroke="#ffffff" stroke-width="6"`);
    const bx = w * 0.28;
    const by = h * 0.85;
    out += softShadow(c, bx + 10, by + 14, u * 0.16, u * 0.16, 0.35) + circle(bx, by, u * 0.15, "#2f4f6f") + circle(bx, by, u * 0.125, "#3e6a91");
    out +=
      ellipse(
        bx - u * 0.04,
        by - u * 0.03,
        u * 0.06,
        u * 0.045,
        rad(c, [
          [0, "#ffe98a"],
          [1, "#e0b21c"],
        ]),
      ) +
      ellipse(
        bx + u * 0.05,
        by + u * 0.02,
        u * 0.06,
        u * 0.045,
        rad(c, [
          [0, "#ffe98a"],
          [1, "#e0b21c"],
        ]),
      ) +
      lemonSlice(c, bx - u * 0.01, by + u * 0.06, u * 0.04, false);
    out += herbSprig(c, w * 0.75, h * 0.88, u * 0.25, -150);
  }
  return out + vignette(c, 0.3);
};

const smoothieBowl = (c: Ctx, cx: number, cy: number, R: number, base: string) => {
  let out = softShadow(c, cx + R * 0.08, cy + R * 0.12, R * 1.02, R * 1.02, 0.3);
  out +=
    circle(
      cx,
      cy,
      R,
      lin(
        c,
        [
          [0, "#ffffff"],
          [1, "#cfd8dc"],
        ],
        0,
        0,
        1,
        1,
      ),
    ) +
    circle(
      cx,
      cy,
      R * 0.86,
      rad(
        c,
        [
          [0, shade(base, 0.2)],
          [1, shade(base, -0.15)],
        ],
        0.45,
        0.4,
        0.6,
      ),
    );
  const rows: ((x: number, y: number) => string)[] = [
    (x, y) => circle(x, y, R * 0.1, "#f7eab8", `stroke="#e7d08a" stroke-width="2"`) + circle(x, y, R * 0.02, "#b8a060"),
    (x, y) =>
      circle(
        x,
        y,
        R * 0.055,
        rad(
          c,
          [
            [0, "#5a66b8"],
            [1, "#222a66"],
          ],
          0.35,
          0.3,
          0.7,
        ),
      ) + circle(x - R * 0.015, y - R * 0.015, R * 0.012, "#fff", `opacity="0.6"`),
    (x, y) =>
      path(
        `M${f(x)} ${f(y + R * 0.09)}C${f(x - R * 0.14)} ${f(y - R * 0.02)} ${f(x - R * 0.06)} ${f(y - R * 0.11)} ${f(x)} ${f(y - R * 0.05)}C${f(x + R * 0.06)} ${f(y - R * 0.11)} ${f(x + R * 0.14)} ${f(y - R * 0.02)} ${f(x)} ${f(y + R * 0.09)}Z`,
        "#e0364b",
      ) + circle(x, y - R * 0.01, R * 0.03, "#f7a3ad"),
    (x, y) => path(blobPath(c, x, y, R * 0.035, R * 0.025, rnd(c, 0, 180), 0.3, 6), pick(c, ["#b5793d", "#d19a55", "#8c5a2b"])),
  ];
  const bands = [-0.5, -0.2, 0.1, 0.4];
  bands.forEach((by, i) => {
    const y0 = cy + by * R;
    const half = Math.sqrt(Math.max(0, 0.7 * 0.7 - by * by)) * R;
    const draw = rows[i % rows.length]!;
    const step = i === 3 ? R * 0.06 : i === 0 ? R * 0.2 : R * 0.12;
    for (let x = cx - half; x <= cx + half; x += step) out += draw(x + rnd(c, -3, 3), y0 + rnd(c, -R * 0.05, R * 0.05));
    if (i === 3) for (let x = cx - half; x <= cx + half; x += step) out += draw(x + rnd(c, -6, 6), y0 + R * 0.08 + rnd(c, -8, 8));
  });
  out +=
    leaf(cx + R * 0.2, cy - R * 0.62, R * 0.2, R * 0.08, -20, "#3f9a4a", "#bfe6b8") +
    leaf(cx + R * 0.2, cy - R * 0.62, R * 0.18, R * 0.07, -80, "#4aab55", "#bfe6b8");
  return out;
};

const berrySmoothie: Scene = (c, v) => {
  const { w, h, u } = c;
  let out = marble(c);
  if (v === 1) {
    out += linenCloth(c, w * 0.62, h * 0.05, u * 0.55, u * 0.9, 8, "#f3d9dc", "#d98c99");
    out += smoothieBowl(c, w * 0.45, h * 0.5, u * 0.4, "#7b2f7a");
    out += group(
      rrect(0, -u * 0.03, u * 0.45, u * 0.06, u * 0.03, "#c89a6a") + ellipse(u * 0.5, 0, u * 0.08, u * 0.055, "#c89a6a"),
      at(w * 0.8, h * 0.75, -30),
    );
  } else if (v === 2) {
    out += smoothieBowl(c, w * 0.42, h * 0.26, u * 0.33, "#7b2f7a");
    out += smoothieBowl(c, w * 0.56, h * 0.73, u * 0.33, "#c2416a");
    out += group(rrect(0, -u * 0.03, u * 0.45, u * 0.06, u * 0.03, "#c89a6a") + ellipse(u * 0.5, 0, u * 0.08, u * 0.055, "#c89a6a"), at(w * 0.9, h * 0.06, 95));
  } else {
    const fruit = Array.from({ length: 48 }, () => ({
      x: rnd(c, 0.05, 0.95) * w,
      y: rnd(c, 0.05, 0.95) * h,
      r: u * rnd(c, 0.025, 0.04),
      kind: pick(c, ["banana", "straw", "rasp", "blue", "blue"]),
    }));
    const order = ["banana", "straw", "rasp", "blue"];
    fruit.sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind));
    for (const { x, y, r, kind } of fruit) {
      out += softShadow(c, x + r * 0.2, y + r * 0.3, r * 1.1, r * 1.1, 0.2);
      if (kind === "blue")
        out +=
          circle(
            x,
            y,
            r,
            rad(
              c,
              [
                [0, "#5a66b8"],
                [1, "#222a66"],
              ],
              0.35,
              0.3,
              0.7,
            ),
          ) + circle(x - r * 0.3, y - r * 0.3, r * 0.2, "#fff", `opacity="0.5"`);
      else if (kind === "rasp") {
        for (let k = 0; k < 7; k++)
          out += circle(x + Math.cos(k) * r * 0.5, y + Math.sin(k) * r * 0.5, r * 0.45, "#c5284b", `stroke="#8f1533" stroke-width="1"`);
      } else if (kind === "straw") out += path(blobPath(c, x, y, r * 1.3, r, rnd(c, 0, 180), 0.1, 6), "#e0364b") + leaf(x, y - r, r, r * 0.4, -90, "#3f9a4a");
      else {
        out += circle(x, y, r * 1.5, "#f1d37a") + circle(x, y, r * 1.32, "#faeebd");
        for (let k = 0; k < 3; k++) out += circle(x + Math.cos(k * 2.1) * r * 0.3, y + Math.sin(k * 2.1) * r * 0.3, r * 0.1, "#9c8450");
      }
    }
  }
  return out + vignette(c, 0.2);
};

const livingRoom: Scene = (c, v) => {
  const { w, h, u } = c;
  const floorY = h * (v === 1 ? 0.74 : 0.78);
  let out = rect(
    0,
    0,
    w,
    floorY,
    lin(c, [
      [0, "#b9c7ae"],
      [1, "#97a88b"],
    ]),
  );
  out += woodTable(c, "#c79a6a", "#8a5f3b", false, floorY, h - floorY);
  out += rect(0, floorY - u * 0.02, w, u * 0.025, "#f2ede4");
  if (v === 1) {
    out += windowFrame(
      c,
      w * 0.05,
      h * 0.12,
      w * 0.16,
      h * 0.42,
      lin(c, [
        [0, "#cfe6f5"],
        [1, "#fbeede"],
      ]),
    );
    out += lightBeam(c, w * 0.05, h * 0.54, w * 0.16, h * 0.05, h * 0.25, w * 0.2);
    out += poly(
      [
        [w * 0.2, h * 0.97],
        [w * 0.86, h * 0.97],
        [w * 0.78, floorY + u * 0.06],
        [w * 0.28, floorY + u * 0.06],
      ],
      "#e8dcc8",
    );
    for (let i = 1; i < 6; i++) out += line(w * (0.24 + i * 0.09), floorY + u * 0.07, w * (0.2 + i * 0.11), h * 0.96, "#c7b394", 3, `opacity="0.6"`);
    out +=
      frameArt(c, w * 0.36, h * 0.14, u * 0.2, u * 0.26, ["#e9a23b", "#3f6e5d", "#2c4d43"]) +
      frameArt(c, w * 0.52, h * 0.17, u * 0.18, u * 0.22, ["#d9674a", "#c8b08c", "#8d6e4f"]);
    const sx = w * 0.3;
    const sw = w * 0.42;
    const sy = h * 0.48;
    const mustard = "#d49b2c";
    out += softShadow(c, sx + sw / 2, floorY + u * 0.04, sw * 0.55, u * 0.03, 0.35);
    out += rrect(
      sx,
      sy,
      sw,
      h * 0.16,
      u * 0.03,
      lin(c, [
        [0, shade(mustard, 0.1)],
        [1, shade(mustard, -0.15)],
      ]),
    );
    out += rrect(
      sx + sw * 0.04,
      sy + h * 0.13,
      sw * 0.92,
      h * 0.1,
      u * 0.025,
      lin(c, [
        [0, shade(mustard, 0.05)],
        [1, shade(mustard, -0.25)],
      ]),
    );
    out +=
      rrect(sx - u * 0.03, sy + h * 0.07, u * 0.08, h * 0.17, u * 0.03, shade(mustard, -0.1)) +
      rrect(sx + sw - u * 0.05, sy + h * 0.07, u * 0.08, h * 0.17, u * 0.03, shade(mustard, -0.1));
    out += line(sx + sw / 2, sy + h * 0.14, sx + sw / 2, sy + h * 0.22, shade(mustard, -0.3), 2);
    for (const lx of [sx + u * 0.02, sx + sw - u * 0.02]) out += line(lx, sy + h * 0.24, lx + (lx < sx + sw / 2 ? -6 : 6), floorY, "#4a3626", 6);
    out += group(
      rrect(-u * 0.07, -u * 0.07, u * 0.14, u * 0.14, u * 0.03, "#f1e8da") + line(-u * 0.06, 0, u * 0.06, 0, "#c9b79c", 3),
      at(sx + sw * 0.2, sy + h * 0.07, -10),
    );
    out += group(
      rrect(-u * 0.065, -u * 0.065, u * 0.13, u * 0.13, u * 0.03, "#3f6e5d") + circle(0, 0, u * 0.025, "#e9a23b"),
      at(sx + sw * 0.78, sy + h * 0.075, 8),
    );
    // floor lamp
    const lx = w * 0.8;
    out += glow(c, lx, h * 0.3, u * 0.35, "#ffe2a6", 0.55);
    out += line(lx, h * 0.3, lx, floorY, "#2d2a26", 5) + ellipse(lx, floorY, u * 0.05, u * 0.012, "#2d2a26");
    out += poly(
      [
        [lx - u * 0.06, h * 0.22],
        [lx + u * 0.06, h * 0.22],
        [lx + u * 0.1, h * 0.33],
        [lx - u * 0.1, h * 0.33],
      ],
      lin(c, [
        [0, "#fbf1dc"],
        [1, "#e9d7b3"],
      ]),
    );
    out += potPlant(c, w * 0.92, floorY + u * 0.02, u * 0.14, "#e8e2d8", ["#2f6b3f", "#3d8450", "#24563a"], "monstera");
    out += potPlant(c, w * 0.2, floorY + u * 0.01, u * 0.08, "#c8734f", ["#4d8a3f", "#66a356"], "round");
  } else {
    out += windowFrame(
      c,
      w * 0.08,
      h * 0.1,
      w * 0.36,
      h * 0.36,
      lin(c, [
        [0, "#d7ebf7"],
        [1, "#fff1dc"],
      ]),
    );
    out += lightBeam(c, w * 0.08, h * 0.46, w * 0.36, h * 0.02, h * 0.34, w * 0.3);
    // bookshelf
    const bx = w * 0.56;
    const bw = w * 0.38;
    out += rect(bx, h * 0.08, bw, floorY - h * 0.08, "#f1ebe0", `stroke="#d8cdb9" stroke-width="6"`);
    for (let s = 0; s < 5; s++) {
      const sy = h * 0.08 + ((s + 1) * (floorY - h * 0.08)) / 5;
      out += rect(bx, sy - 8, bw, 10, "#d8cdb9");
      let x = bx + 12;
      const limit = bx + bw - 12 - (s % 2 ? bw * 0.35 : 0);
      while (x < limit) {
        const bwid = rnd(c, 14, 30);
        const bh = rnd(c, 0.55, 0.85) * ((floorY - h * 0.08) / 5);
        out += rect(x, sy - 8 - bh, bwid, bh, pick(c, ["#c4553c", "#2f5d62", "#e0b354", "#7a8f6b", "#3b3f58", "#d9c7a3", "#8e4b5f"]));
        x += bwid + 3;
      }
      if (s % 2) out += potPlant(c, bx + bw * 0.8, sy - 8, u * 0.09, "#f0e6d6", ["#4d8a3f", "#3a7a33"], s === 1 ? "round" : "tall");
    }
    // armchair
    const ax = w * 0.1;
    const ay = h * 0.56;
    const aw = w * 0.4;
    const col = "#b4583f";
    out += softShadow(c, ax + aw / 2, floorY + 6, aw * 0.55, u * 0.025, 0.35);
    out += rrect(
      ax + aw * 0.1,
      ay,
      aw * 0.8,
      h * 0.15,
      u * 0.08,
      lin(c, [
        [0, shade(col, 0.1)],
        [1, shade(col, -0.2)],
      ]),
    );
    out +=
      rrect(ax, ay + h * 0.08, aw * 0.22, h * 0.14, u * 0.05, shade(col, -0.08)) +
      rrect(ax + aw * 0.78, ay + h * 0.08, aw * 0.22, h * 0.14, u * 0.05, shade(col, -0.08));
    out += rrect(ax + aw * 0.16, ay + h * 0.12, aw * 0.68, h * 0.08, u * 0.03, shade(col, 0.05));
    out +=
      line(ax + aw * 0.15, ay + h * 0.22, ax + aw * 0.12, floorY, "#4a3626", 7) + line(ax + aw * 0.85, ay + h * 0.22, ax + aw * 0.88, floorY, "#4a3626", 7);
    out += group(
      rrect(-u * 0.07, -u * 0.07, u * 0.14, u * 0.14, u * 0.035, "#efe4cf") + circle(0, 0, u * 0.03, "#d49b2c"),
      at(ax + aw * 0.68, ay + h * 0.1, 12),
    );
    out += ellipse(w * 0.35, h * 0.92, w * 0.32, h * 0.05, "#e7d7bf", `opacity="0.9"`);
  }
  return out + vignette(c, 0.25);
};

const herbGarden: Scene = (c, v) => {
  const { w, h, u } = c;
  let out = "";
  if (v === 1) {
    out += rect(
      0,
      0,
      w,
      h,
      lin(c, [
        [0, "#8fc3e8"],
        [0.7, "#e9f2f4"],
        [1, "#fbe3c2"],
      ]),
    );
    out += sun(c, w * 0.82, h * 0.18, u * 0.07);
    out += cloud(c, w * 0.25, h * 0.15, u * 0.12) + cloud(c, w * 0.55, h * 0.25, u * 0.09, "#ffffff", 0.7);
    // distant rooftops
    let x = -10;
    while (x < w) {
      const bw = rnd(c, 60, 140);
      const bh = rnd(c, 0.1, 0.25) * h;
      out += rect(x, h * 0.55 - bh, bw, bh + h * 0.1, pick(c, ["#c7b7a8", "#b9a99b", "#d3c4b4"]), `opacity="0.8"`);
      x += bw;
    }
    out += rect(
      0,
      h * 0.55,
      w,
      h * 0.45,
      lin(c, [
        [0, "#d9cbbd"],
        [1, "#bba792"],
      ]),
    );
    // railing
    out += rect(0, h * 0.42, w, u * 0.025, "#3b3f45");
    for (let rx = 10; rx < w; rx += u * 0.06) out += rect(rx, h * 0.42, 6, h * 0.4, "#3b3f45");
    out += rect(
      0,
      h * 0.8,
      w,
      h * 0.2,
      lin(c, [
        [0, "#c46e4e"],
        [1, "#9a5138"],
      ]),
    );
    for (let tx = 0; tx < w; tx += u * 0.14) out += line(tx, h * 0.8, tx - u * 0.08, h, "#7f3f2b", 2, `opacity="0.5"`);
    const kinds: ["round" | "spiky" | "tall" | "sprout", string[]][] = [
      ["round", ["#4f9a3a", "#63b04a", "#3d842d"]],
      ["spiky", ["#5f7d52", "#6e8c5f"]],
      ["tall", ["#5aa36b", "#73b97f"]],
      ["round", ["#2f7a34", "#3f8f40"]],
      ["spiky", ["#7c9a6a", "#8aa877"]],
    ];
    kinds.forEach(([kind, colors], i) => {
      out += potPlant(c, w * (0.12 + i * 0.19), h * 0.9, u * rnd(c, 0.16, 0.2), pick(c, ["#c8734f", "#d08660", "#b9653f"]), colors, kind);
    });
  } else {
    out += rect(
      0,
      0,
      w,
      h,
      lin(c, [
        [0, "#fce9c8"],
        [1, "#f3c89b"],
      ]),
    );
    out += glow(c, w * 0.85, h * 0.1, u * 0.6, "#fff6d8", 0.8);
    out += lightBeam(c, w * 0.5, 0, w * 0.5, h * 0.05, h * 0.9, -w * 0.4);
    for (let s = 0; s < 3; s++) {
      const sy = h * (0.3 + s * 0.24);
      out +=
        rect(
          0,
          sy,
          w,
          u * 0.045,
          lin(c, [
            [0, "#b07a4f"],
            [1, "#7d5234"],
          ]),
        ) + softShadow(c, w / 2, sy + u * 0.06, w * 0.5, u * 0.015, 0.25);
      const n = 4;
      for (let i = 0; i < n; i++) {
        const kind = pick(c, ["sprout", "round", "tall", "sprout"] as const);
        out += potPlant(
          c,
          w * (0.14 + i * 0.24) + rnd(c, -20, 20),
          sy,
          u * rnd(c, 0.13, 0.16),
          pick(c, ["#c8734f", "#e6dccf", "#d08660", "#8fb3a5"]),
          ["#5aa041", "#6fb553", "#4a8c37"],
          kind,
        );
      }
    }
    // watering can
    const wx = w * 0.7;
    const wy = h * 0.96;
    out += softShadow(c, wx, wy + 10, u * 0.16, u * 0.03, 0.3);
    out += rrect(
      wx - u * 0.12,
      wy - u * 0.2,
      u * 0.24,
      u * 0.2,
      u * 0.03,
      lin(
        c,
        [
          [0, "#6fa7a0"],
          [1, "#3f7a73"],
        ],
        0,
        0,
        1,
        0,
      ),
    );
    out += poly(
      [
        [wx + u * 0.1, wy - u * 0.08],
        [wx + u * 0.3, wy - u * 0.26],
        [wx + u * 0.32, wy - u * 0.24],
        [wx + u * 0.12, wy - u * 0.03],
      ],
      "#4f8a83",
    );
    out += path(
      `M${f(wx - u * 0.1)} ${f(wy - u * 0.2)}Q${f(wx)} ${f(wy - u * 0.36)} ${f(wx + u * 0.1)} ${f(wy - u * 0.2)}`,
      "none",
      `stroke="#3f7a73" stroke-width="${f(u * 0.025)}"`,
    );
  }
  return out + grain(c, 0.04) + vignette(c, 0.22);
};

function house(c: Ctx, x: number, baseY: number, w: number, h: number) {
  const color = pick(c, ["#f4c9a0", "#f7e0a6", "#f2b8a2", "#fbf1e1", "#e9d3c0", "#f6d37c", "#f0a98f"]);
  let out = rect(x, baseY - h, w, h, color) + rect(x + w * 0.75, baseY - h, w * 0.25, h, "#000", `opacity="0.08"`);
  out += rect(x - 2, baseY - h - 4, w + 4, 6, shade(color, -0.25));
  const cols = Math.max(1, Math.floor(w / 22));
  const rows = Math.max(1, Math.floor(h / 28));
  for (let r = 0; r < rows; r++) {
    for (let k = 0; k < cols; k++) {
      if (c.rng() < 0.75)
        out += rect(
          x + (k + 0.3) * (w / cols),
          baseY - h + 8 + r * (h / rows),
          (w / cols) * 0.4,
          (h / rows) * 0.45,
          pick(c, ["#3a5a72", "#5f7f8f", "#2f4858"]),
        );
    }
  }
  return out;
}

const amalfi: Scene = (c, v) => {
  const { w, h, u } = c;
  let out = "";
  if (v === 1) {
    const horizon = h * 0.45;
    out += rect(
      0,
      0,
      w,
      horizon,
      lin(c, [
        [0, "#5fa8d8"],
        [1, "#d6eef7"],
      ]),
    );
    out += sun(c, w * 0.18, h * 0.14, u * 0.06, "#fff2b0");
    out += cloud(c, w * 0.45, h * 0.12, u * 0.1, "#fff", 0.8);
    out += rect(
      0,
      horizon,
      w,
      h - horizon,
      lin(c, [
        [0, "#3fb3c4"],
        [0.5, "#1f8aa8"],
        [1, "#0f5a80"],
      ]),
    );
    out += path(`M0 ${f(horizon)}L${f(w * 0.2)} ${f(horizon - h * 0.06)}L${f(w * 0.35)} ${f(horizon)}Z`, "#7d9db0", `opacity="0.7"`);
    for (let i = 0; i < 70; i++) {
      const y = horizon + rnd(c, 0.05, 1) * (h - horizon);
      const x = rnd(c, 0, 0.6) * w;
      out += line(x, y, x + rnd(c, 10, 40), y, "#ffffff", 2, `opacity="${f(rnd(c, 0.2, 0.6))}"`);
    }
    // cliff
    const cliff = `M${f(w * 0.45)} ${f(h)}C${f(w * 0.52)} ${f(h * 0.7)} ${f(w * 0.55)} ${f(h * 0.3)} ${f(w * 0.7)} ${f(h * 0.12)}L${f(w * 0.85)} ${f(h * 0.02)}L${f(w)} 0L${f(w)} ${f(h)}Z`;
    out += path(
      cliff,
      lin(
        c,
        [
          [0, "#8a6e55"],
          [1, "#5d4a3a"],
        ],
        0,
        0,
        1,
        0,
      ),
    );
    for (let i = 0; i < 12; i++) out += circle(rnd(c, 0.62, 1) * w, rnd(c, 0.05, 0.5) * h, u * rnd(c, 0.03, 0.06), pick(c, ["#4f7a3a", "#5f8c45", "#3f6b30"]));
    for (let row = 0; row < 8; row++) {
      const baseY = h * (0.98 - row * 0.1);
      const startX = w * (0.53 + row * 0.035);
      let x = startX;
      while (x < w) {
        const bw = rnd(c, 50, 95);
        out += house(c, x, baseY, bw, rnd(c, 50, 90));
        x += bw + rnd(c, 2, 10);
      }
    }
    // dome
    out +=
      rect(w * 0.74, h * 0.4, u * 0.1, u * 0.12, "#f6efe4") +
      path(
        `M${f(w * 0.74)} ${f(h * 0.4)}A${f(u * 0.05)} ${f(u * 0.06)} 0 0 1 ${f(w * 0.74 + u * 0.1)} ${f(h * 0.4)}Z`,
        lin(
          c,
          [
            [0, "#f2c14e"],
            [0.5, "#2e8b6e"],
            [1, "#1f5e7a"],
          ],
          0,
          0,
          1,
          0,
        ),
      );
    // boat
    const bx = w * 0.25;
    const by = h * 0.78;
    out +=
      path(
        `M${f(bx - u * 0.12)} ${f(by)}L${f(bx + u * 0.14)} ${f(by)}L${f(bx + u * 0.09)} ${f(by + u * 0.04)}L${f(bx - u * 0.09)} ${f(by + u * 0.04)}Z`,
        "#fbfbfb",
      ) + rect(bx - u * 0.12, by - 2, u * 0.26, 6, "#2a6db5");
    out += rect(bx - u * 0.03, by - u * 0.04, u * 0.07, u * 0.04, "#f3e2c7");
    out += path(
      `M${f(bx + u * 0.12)} ${f(by + u * 0.03)}Q${f(bx + u * 0.3)} ${f(by + u * 0.06)} ${f(bx + u * 0.45)} ${f(by + u * 0.02)}`,
      "none",
      `stroke="#ffffff" stroke-width="4" opacity="0.6"`,
    );
  } else {
    const horizon = h * 0.42;
    out += rect(
      0,
      0,
      w,
      horizon,
      lin(c, [
        [0, "#f6a36b"],
        [0.6, "#fbd08a"],
        [1, "#ffe7b8"],
      ]),
    );
    out += sun(c, w * 0.5, horizon - u * 0.05, u * 0.09, "#fff0b8");
    out += rect(
      0,
      horizon,
      w,
      h - horizon,
      lin(c, [
        [0, "#f0b27d"],
        [0.2, "#4f93a6"],
        [1, "#1f4f70"],
      ]),
    );
    out += path(`M0 ${f(horizon - h * 0.08)}Q${f(w * 0.2)} ${f(horizon - h * 0.12)} ${f(w * 0.35)} ${f(horizon)}L0 ${f(horizon)}Z`, "#a6727d", `opacity="0.8"`);
    out += path(
      `M0 ${f(h * 0.65)}C${f(w * 0.2)} ${f(h * 0.42)} ${f(w * 0.35)} ${f(h * 0.48)} ${f(w * 0.45)} ${f(h * 0.62)}L${f(w * 0.45)} ${f(h)}L0 ${f(h)}Z`,
      lin(c, [
        [0, "#7a5a6a"],
        [1, "#4a3a48"],
      ]),
    );
    // the headland's top edge is the cubic (0, .65h) (.2w, .42h) (.35w, .48h) (.45w, .62h)
    const ridgeAt = (t: number): [number, number] => {
      const b = (p0: number, p1: number, p2: number, p3: number) => (1 - t) ** 3 * p0 + 3 * (1 - t) ** 2 * t * p1 + 3 * (1 - t) * t * t * p2 + t ** 3 * p3;
      return [b(0, w * 0.2, w * 0.35, w * 0.45), b(h * 0.65, h * 0.42, h * 0.48, h * 0.62)];
    };
    for (let row = 0; row < 5; row++) {
      for (let t = 0.04; t < 0.9; t += rnd(c, 0.05, 0.08)) {
        const [hx, hy] = ridgeAt(t);
        out += house(c, hx - 15, hy + 40 + row * 34 + rnd(c, 0, 10), rnd(c, 26, 40), rnd(c, 24, 34));
      }
    }
    for (let i = 0; i < 4; i++) {
      const sx = w * rnd(c, 0.5, 0.9);
      const sy = horizon + rnd(c, 0.05, 0.35) * (h - horizon);
      const s = u * rnd(c, 0.04, 0.07);
      out +=
        poly(
          [
            [sx, sy - s * 1.6],
            [sx + s * 0.9, sy],
            [sx, sy],
          ],
          "#fffaf0",
        ) +
        poly(
          [
            [sx - 3, sy - s * 1.2],
            [sx - 3, sy],
            [sx - s * 0.6, sy],
          ],
          "#f3e6d0",
        ) +
        path(`M${f(sx - s * 0.8)} ${f(sy)}L${f(sx + s)} ${f(sy)}L${f(sx + s * 0.7)} ${f(sy + s * 0.25)}L${f(sx - s * 0.6)} ${f(sy + s * 0.25)}Z`, "#3b3340");
    }
    for (let i = 0; i < 50; i++) {
      const y = horizon + rnd(c, 0.02, 0.6) * (h - horizon);
      const x = rnd(c, 0.4, 0.7) * w;
      out += line(x, y, x + rnd(c, 10, 40), y, "#ffe2a8", 2, `opacity="${f(rnd(c, 0.3, 0.8))}"`);
    }
    // lemon branch in the foreground
    out += path(`M${f(w)} ${f(h * 0.05)}Q${f(w * 0.75)} ${f(h * 0.12)} ${f(w * 0.55)} ${f(h * 0.08)}`, "none", `stroke="#4a3524" stroke-width="10"`);
    for (let i = 0; i < 14; i++)
      out += leaf(
        w * rnd(c, 0.58, 1),
        h * rnd(c, 0.02, 0.14),
        u * rnd(c, 0.12, 0.18),
        u * 0.045,
        rnd(c, 100, 260),
        pick(c, ["#2f6b2f", "#3f8440", "#285a2a"]),
        "#8fc27a",
      );
    for (let i = 0; i < 3; i++) {
      const lx = w * (0.65 + i * 0.11);
      const ly = h * (0.16 + (i % 2) * 0.04);
      out += ellipse(
        lx,
        ly,
        u * 0.055,
        u * 0.075,
        rad(
          c,
          [
            [0, "#fff08a"],
            [1, "#e2b51c"],
          ],
          0.35,
          0.3,
          0.7,
        ),
      );
    }
  }
  return out + grain(c, 0.04) + vignette(c, 0.22);
};

const mountainCabin: Scene = (c, v) => {
  const { w, h, u } = c;
  let out = "";
  if (v === 1) {
    out += rect(
      0,
      0,
      w,
      h,
      lin(c, [
        [0, "#1d2447"],
        [0.5, "#5b4b7a"],
        [0.8, "#e0897a"],
        [1, "#f5c08a"],
      ]),
    );
    for (let i = 0; i < 90; i++) out += circle(rnd(c, 0, 1) * w, rnd(c, 0, 0.4) * h, rnd(c, 0.8, 2.2), "#ffffff", `opacity="${f(rnd(c, 0.3, 0.9))}"`);
    out += glow(c, w * 0.78, h * 0.15, u * 0.15, "#fff6d6", 0.4) + circle(w * 0.78, h * 0.15, u * 0.045, "#fbf3dc");
    out += mountains(c, h * 0.7, 4, h * 0.25, h * 0.5, "#6a6391", true);
    out += mountains(c, h * 0.75, 6, h * 0.1, h * 0.25, "#3f4069", false);
    for (let x = -20; x < w + 20; x += rnd(c, 18, 40)) out += pineTree(x, h * 0.82 + rnd(c, -10, 10), rnd(c, 70, 140), "#1f2b3a");
    out += rect(
      0,
      h * 0.82,
      w,
      h * 0.18,
      lin(c, [
        [0, "#c9d3e8"],
        [1, "#8f9cc0"],
      ]),
    );
    // cabin
    const cx = w * 0.42;
    const cy = h * 0.86;
    const cw = u * 0.42;
    const ch = u * 0.2;
    out += softShadow(c, cx, cy + 8, cw * 0.65, 16, 0.35);
    out += rect(
      cx - cw / 2,
      cy - ch,
      cw,
      ch,
      lin(c, [
        [0, "#7a4a2e"],
        [1, "#4f2f1d"],
      ]),
    );
    for (let k = 1; k < 6; k++) out += line(cx - cw / 2, cy - ch + k * (ch / 6), cx + cw / 2, cy - ch + k * (ch / 6), "#3a2215", 2, `opacity="0.5"`);
    out += poly(
      [
        [cx - cw * 0.62, cy - ch],
        [cx, cy - ch - u * 0.2],
        [cx + cw * 0.62, cy - ch],
      ],
      "#2e2a33",
    );
    out += poly(
      [
        [cx - cw * 0.62, cy - ch],
        [cx, cy - ch - u * 0.2],
        [cx + cw * 0.62, cy - ch],
        [cx + cw * 0.55, cy - ch - 8],
        [cx, cy - ch - u * 0.2 + 12],
        [cx - cw * 0.55, cy - ch - 8],
      ],
      "#eef2fa",
    );
    out += rect(cx + cw * 0.22, cy - ch - u * 0.17, u * 0.04, u * 0.1, "#5a4a44");
    for (let i = 0; i < 4; i++)
      out += circle(cx + cw * 0.25 + i * 14, cy - ch - u * 0.2 - i * 22, 10 + i * 5, "#d8d4e6", `opacity="${f(0.5 - i * 0.1)}" ${blur(c, 4)}`);
    for (const wx of [cx - cw * 0.3, cx + cw * 0.18])
      out +=
        glow(c, wx + u * 0.03, cy - ch * 0.55, u * 0.12, "#ffcf6a", 0.55) +
        rect(wx, cy - ch * 0.75, u * 0.06, u * 0.06, "#ffd77a") +
        line(wx + u * 0.03, cy - ch * 0.75, wx + u * 0.03, cy - ch * 0.75 + u * 0.06, "#4f2f1d", 2);
    out += rect(cx - u * 0.03, cy - ch * 0.7, u * 0.05, ch * 0.7, "#3a2215");
    for (let x = -20; x < w + 20; x += rnd(c, 80, 160)) if (Math.abs(x - cx) > cw * 0.7) out += pineTree(x, h + 20, rnd(c, 180, 300), "#142030");
  } else {
    const shore = h * 0.5;
    out += rect(
      0,
      0,
      w,
      shore,
      lin(c, [
        [0, "#9fb8e0"],
        [0.6, "#f2c6d0"],
        [1, "#fde2c0"],
      ]),
    );
    const ridge = mountains(c, shore, 3, h * 0.15, h * 0.3, "#7d7fae", true);
    const ridge2 = mountains(c, shore, 5, h * 0.04, h * 0.1, "#4e5c7d", false);
    let trees = "";
    for (let x = -20; x < w + 20; x += rnd(c, 16, 34)) trees += pineTree(x, shore + 4, rnd(c, 60, 120), "#22343a");
    out += ridge + ridge2 + trees;
    out += rect(
      0,
      shore,
      w,
      h - shore,
      lin(c, [
        [0, "#c8b8d6"],
        [1, "#31507a"],
      ]),
    );
    out += group(ridge + ridge2 + trees, `translate(0 ${f(shore * 2)}) scale(1 -1)`, `opacity="0.35"`);
    for (let i = 0; i < 40; i++) {
      const y = shore + rnd(c, 0.02, 1) * (h - shore);
      const x = rnd(c, 0, 1) * w;
      out += line(x, y, x + rnd(c, 20, 80), y, "#ffffff", 2, `opacity="${f(rnd(c, 0.1, 0.35))}"`);
    }
    out += path(`M0 ${f(h * 0.82)}Q${f(w * 0.3)} ${f(h * 0.78)} ${f(w * 0.5)} ${f(h * 0.86)}T${f(w)} ${f(h * 0.88)}L${f(w)} ${f(h)}L0 ${f(h)}Z`, "#2c3a2e");
    for (let x = -30; x < w + 30; x += rnd(c, 60, 120)) out += pineTree(x, h + 30, rnd(c, 220, 360), "#16221b");
  }
  return out + grain(c, 0.04) + vignette(c, 0.3);
};

function coinStack(c: Ctx, x: number, baseY: number, r: number, count: number) {
  let out = softShadow(c, x, baseY, r * 1.1, r * 0.25, 0.3);
  for (let i = 0; i < count; i++) {
    const y = baseY - i * r * 0.16 + rnd(c, -1, 1);
    const dx = rnd(c, -2, 2);
    out += rect(
      x - r + dx,
      y - r * 0.16,
      r * 2,
      r * 0.16,
      lin(
        c,
        [
          [0, "#c8922a"],
          [0.5, "#f2cf5e"],
          [1, "#a8761e"],
        ],
        0,
        0,
        1,
        0,
      ),
    );
    out += ellipse(x + dx, y, r, r * 0.3, "#b8841f");
  }
  const topY = baseY - count * r * 0.16;
  return (
    out +
    ellipse(
      x,
      topY,
      r,
      r * 0.3,
      lin(
        c,
        [
          [0, "#ffe9a0"],
          [1, "#d9a93a"],
        ],
        0,
        0,
        1,
        1,
      ),
    ) +
    ellipse(x, topY, r * 0.72, r * 0.2, "none", `stroke="#c8922a" stroke-width="2"`)
  );
}

const budget: Scene = (c, v) => {
  const { w, h, u } = c;
  const deskY = h * (v === 1 ? 0.66 : 0.4);
  let out = rect(
    0,
    0,
    w,
    deskY,
    lin(c, [
      [0, "#cfe3dd"],
      [1, "#a9c9c0"],
    ]),
  );
  out += rect(
    0,
    deskY,
    w,
    h - deskY,
    lin(c, [
      [0, "#e9d3b5"],
      [1, "#c9a57e"],
    ]),
  );
  out += rect(0, deskY, w, 8, "#fff", `opacity="0.4"`);
  if (v === 1) {
    // chart board
    const bx = w * 0.52;
    const by = h * 0.1;
    const bw = w * 0.4;
    const bh = h * 0.46;
    out += softShadow(c, bx + bw / 2 + 10, by + bh / 2 + 12, bw * 0.52, bh * 0.52, 0.2) + rrect(bx, by, bw, bh, 12, "#fdfbf6");
    const bars = [0.25, 0.38, 0.33, 0.52, 0.66, 0.82];
    bars.forEach((b, i) => {
      const bwid = bw * 0.1;
      const x = bx + bw * 0.1 + i * bw * 0.14;
      out += rrect(x, by + bh * 0.9 - bh * 0.75 * b, bwid, bh * 0.75 * b, 6, i === bars.length - 1 ? "#2f8f6b" : "#8cc7b0");
    });
    out += path(
      `M${f(bx + bw * 0.12)} ${f(by + bh * 0.65)}L${f(bx + bw * 0.4)} ${f(by + bh * 0.5)}L${f(bx + bw * 0.55)} ${f(by + bh * 0.55)}L${f(bx + bw * 0.85)} ${f(by + bh * 0.15)}`,
      "none",
      `stroke="#e0793a" stroke-width="6" stroke-linejoin="round"`,
    );
    out += poly(
      [
        [bx + bw * 0.88, by + bh * 0.1],
        [bx + bw * 0.8, by + bh * 0.14],
        [bx + bw * 0.87, by + bh * 0.2],
      ],
      "#e0793a",
    );
    out += line(bx + bw * 0.08, by + bh * 0.9, bx + bw * 0.92, by + bh * 0.9, "#9aa", 3);
    // piggy bank
    const px = w * 0.28;
    const py = deskY + (h - deskY) * 0.35;
    const pr = u * 0.17;
    out += softShadow(c, px, py + pr * 0.85, pr * 1.1, pr * 0.15, 0.35);
    out += rect(px - pr * 0.55, py + pr * 0.3, pr * 0.2, pr * 0.55, "#e88ea2") + rect(px + pr * 0.35, py + pr * 0.3, pr * 0.2, pr * 0.55, "#e88ea2");
    out += ellipse(
      px,
      py,
      pr * 1.15,
      pr * 0.85,
      rad(
        c,
        [
          [0, "#ffc6d2"],
          [1, "#e57b93"],
        ],
        0.4,
        0.35,
        0.7,
      ),
    );
    out +=
      ellipse(px + pr * 1.1, py + pr * 0.05, pr * 0.22, pr * 0.28, "#f29bb0") +
      circle(px + pr * 1.12, py, pr * 0.04, "#b84f68") +
      circle(px + pr * 1.12, py + pr * 0.12, pr * 0.04, "#b84f68");
    out += poly(
      [
        [px + pr * 0.45, py - pr * 0.7],
        [px + pr * 0.7, py - pr * 1.05],
        [px + pr * 0.8, py - pr * 0.6],
      ],
      "#e57b93",
    );
    out += circle(px + pr * 0.75, py - pr * 0.2, pr * 0.06, "#3b2a30") + rrect(px - pr * 0.3, py - pr * 0.8, pr * 0.5, pr * 0.07, 4, "#b84f68");
    out += path(`M${f(px - pr * 1.15)} ${f(py)}q${f(-pr * 0.25)} ${f(-pr * 0.1)} ${f(-pr * 0.2)} ${f(-pr * 0.3)}`, "none", `stroke="#e57b93" stroke-width="5"`);
    out += group(
      circle(
        0,
        0,
        pr * 0.2,
        lin(
          c,
          [
            [0, "#ffe9a0"],
            [1, "#d9a93a"],
          ],
          0,
          0,
          1,
          1,
        ),
      ),
      at(px - pr * 0.05, py - pr * 1.1),
    );
    out +=
      coinStack(c, w * 0.55, deskY + (h - deskY) * 0.75, u * 0.07, 6) +
      coinStack(c, w * 0.67, deskY + (h - deskY) * 0.8, u * 0.07, 10) +
      coinStack(c, w * 0.79, deskY + (h - deskY) * 0.72, u * 0.07, 14);
    out += potPlant(c, w * 0.08, deskY + (h - deskY) * 0.3, u * 0.12, "#f1ede6", ["#3f8450", "#2f6b3f"], "tall");
  } else {
    // jar of coins
    const jx = w * 0.3;
    const jy = deskY + (h - deskY) * 0.3;
    const jw = u * 0.34;
    const jh = u * 0.44;
    out += softShadow(c, jx, jy, jw * 0.6, jw * 0.08, 0.35);
    for (let i = 0; i < 60; i++) {
      const cy2 = jy - rnd(c, 0.03, 0.6) * jh;
      out += ellipse(
        jx + rnd(c, -0.42, 0.42) * jw,
        cy2,
        u * 0.035,
        u * 0.012,
        pick(c, ["#e8b84a", "#d9a93a", "#c9cdd3", "#b9874a"]),
        `stroke="#8a6a20" stroke-width="1" transform="rotate(${f(rnd(c, -25, 25))} ${f(jx)} ${f(cy2)})"`,
      );
    }
    out += rrect(jx - jw / 2, jy - jh, jw, jh, jw * 0.15, "#dff1f4", `opacity="0.35" stroke="#ffffff" stroke-width="5"`);
    out += rect(jx - jw * 0.38, jy - jh * 0.9, jw * 0.08, jh * 0.7, "#fff", `opacity="0.4"`);
    out += rrect(
      jx - jw * 0.42,
      jy - jh - u * 0.06,
      jw * 0.84,
      u * 0.07,
      8,
      lin(c, [
        [0, "#c2c8cf"],
        [1, "#7c858f"],
      ]),
    );
    // envelopes
    const colors = ["#f4c7b8", "#bfe0d2", "#f7e2a1", "#cbd6f0"];
    colors.forEach((col, i) => {
      const ew = w * 0.42;
      const eh = u * 0.24;
      let env = softShadow(c, ew / 2, eh / 2 + 10, ew * 0.52, eh * 0.55, 0.22) + rect(0, 0, ew, eh, col);
      env += poly(
        [
          [0, 0],
          [ew / 2, eh * 0.55],
          [ew, 0],
        ],
        shade(col, -0.08),
      );
      env += rrect(ew * 0.35, eh * 0.68, ew * 0.3, eh * 0.16, 4, "#fffdf8") + rect(ew * 0.06, -u * 0.02, ew * 0.25, u * 0.03, "#5fa37a", `opacity="0.85"`);
      out += group(env, at(w * 0.5 + i * u * 0.03, h * 0.6 + i * u * 0.07, -14 + i * 8));
    });
    for (let i = 0; i < 7; i++) out += coinStack(c, w * rnd(c, 0.45, 0.95), h * rnd(c, 0.45, 0.55), u * 0.04, 1 + Math.floor(rnd(c, 0, 3)));
    // calculator
    const kx = w * 0.1;
    const ky = h * 0.72;
    const kw = u * 0.26;
    const kh = u * 0.34;
    out +=
      softShadow(c, kx + kw / 2, ky + kh, kw * 0.55, 12, 0.3) +
      rrect(kx, ky, kw, kh, 16, "#39404a") +
      rrect(kx + kw * 0.1, ky + kh * 0.07, kw * 0.8, kh * 0.2, 6, "#b7d3b0");
    for (let r = 0; r < 4; r++)
      for (let k = 0; k < 4; k++)
        out += rrect(kx + kw * (0.1 + k * 0.205), ky + kh * (0.35 + r * 0.155), kw * 0.16, kh * 0.11, 5, k === 3 ? "#e0793a" : "#5d6672");
  }
  return out + grain(c, 0.035) + vignette(c, 0.25);
};

const yarnCraft: Scene = (c, v) => {
  const { w, h, u } = c;
  const palette = ["#c8603d", "#e3a83b", "#efe3cf", "#d99aa0", "#7a9a86"];
  let out = "";
  if (v === 1) {
    const shelfY = h * 0.78;
    out += rect(
      0,
      0,
      w,
      shelfY,
      lin(c, [
        [0, "#f4e6db"],
        [1, "#e8d3c4"],
      ]),
    );
    out += rect(
      0,
      shelfY,
      w,
      h - shelfY,
      lin(c, [
        [0, "#b88a62"],
        [1, "#8a6444"],
      ]),
    );
    out += lightBeam(c, w * 0.7, 0, w * 0.2, 0, h * 0.7, -w * 0.3);
    const dx = w * 0.28;
    const dw = w * 0.44;
    const dy = h * 0.16;
    out +=
      path(`M${f(dx + 10)} ${f(dy)}L${f(dx + dw / 2)} ${f(h * 0.04)}L${f(dx + dw - 10)} ${f(dy)}`, "none", `stroke="#c8603d" stroke-width="3"`) +
      circle(dx + dw / 2, h * 0.04, 6, "#6b5b4e");
    const strands = 36;
    for (let i = 0; i < strands; i++) {
      const sx = dx + 18 + (i / (strands - 1)) * (dw - 36);
      const t = Math.abs(i - (strands - 1) / 2) / ((strands - 1) / 2);
      const len = h * (0.5 - t * 0.28);
      const col = palette[Math.floor(i / 6) % palette.length]!;
      out +=
        line(sx, dy + 6, sx + rnd(c, -3, 3), dy + len, col, 9) +
        line(sx + 3, dy + 6, sx + 3 + rnd(c, -3, 3), dy + len - 4, shade(col, -0.15), 3, `opacity="0.6"`);
      out += circle(sx, dy + 12, 7, shade(col, -0.1));
    }
    out +=
      softShadow(c, dx + dw / 2, dy + 20, dw * 0.5, 12, 0.15) +
      rrect(
        dx - 16,
        dy - 9,
        dw + 32,
        18,
        9,
        lin(c, [
          [0, "#d3a270"],
          [1, "#8e6239"],
        ]),
      );
    for (let i = 0; i < 5; i++) out += yarnBall(c, w * (0.12 + i * 0.19), shelfY + (h - shelfY) * 0.4 - (i % 2) * 8, u * rnd(c, 0.07, 0.09), palette[i]!);
    out += potPlant(c, w * 0.88, shelfY - 2, u * 0.1, "#efe3cf", ["#4d8a3f", "#3a7a33"], "spiky");
  } else {
    out += rect(
      0,
      0,
      w,
      h,
      lin(
        c,
        [
          [0, "#cfe5dc"],
          [1, "#a9cfc1"],
        ],
        0,
        0,
        1,
        1,
      ),
    );
    for (let i = 0; i < 40; i++) {
      const x = rnd(c, 0.05, 0.95) * w;
      const y = rnd(c, 0.05, 0.95) * h;
      const s = u * rnd(c, 0.015, 0.035);
      const col = pick(c, ["#f2b33d", "#e2574c", "#ffffff", "#5d8fcf", "#f08fb0"]);
      out +=
        c.rng() < 0.5
          ? circle(x, y, s, col)
          : poly(
              [
                [x, y - s],
                [x + s, y + s],
                [x - s, y + s],
              ],
              col,
              `transform="rotate(${f(rnd(c, 0, 120))} ${f(x)} ${f(y)})"`,
            );
    }
    const spots: [number, number][] = [
      [0.25, 0.14],
      [0.7, 0.2],
      [0.3, 0.42],
      [0.75, 0.62],
      [0.28, 0.72],
    ];
    spots.forEach(([sx, sy], i) => {
      out += yarnBall(c, (sx + rnd(c, -0.04, 0.04)) * w, (sy + rnd(c, -0.03, 0.03)) * h, u * rnd(c, 0.1, 0.13), palette[i % palette.length]!);
    });
    out += scissors(c, w * 0.62, h * 0.42, u * 0.3, -35, "#d2463b");
    // ruler and pencil
    out += group(
      rrect(0, 0, u * 0.7, u * 0.06, 4, "#f5d06b") +
        Array.from({ length: 20 }, (_, i) => line(u * 0.03 + i * u * 0.033, 0, u * 0.03 + i * u * 0.033, i % 5 ? u * 0.015 : u * 0.03, "#7a5a1a", 2)).join(""),
      at(w * 0.1, h * 0.9, -8),
    );
    out += group(
      rect(0, -u * 0.012, u * 0.4, u * 0.024, "#3f7fc0") +
        poly(
          [
            [u * 0.4, -u * 0.012],
            [u * 0.45, 0],
            [u * 0.4, u * 0.012],
          ],
          "#e8c9a0",
        ) +
        rect(-u * 0.03, -u * 0.012, u * 0.03, u * 0.024, "#e88ea2"),
      at(w * 0.35, h * 0.05, 5),
    );
  }
  return out + grain(c, 0.035) + vignette(c, 0.2);
};

const homeWorkout: Scene = (c, v) => {
  const { w, h, u } = c;
  const floorY = h * (v === 1 ? 0.55 : 0.6);
  let out = rect(
    0,
    0,
    w,
    floorY,
    lin(c, [
      [0, "#dfe7ee"],
      [1, "#c7d3dd"],
    ]),
  );
  out += woodTable(c, "#e3c7a2", "#b58e63", false, floorY, h - floorY);
  out += rect(0, floorY - 6, w, 10, "#f6f3ee");
  if (v === 1) {
    out += windowFrame(
      c,
      w * 0.08,
      h * 0.08,
      w * 0.22,
      h * 0.38,
      lin(c, [
        [0, "#bfe0f5"],
        [1, "#f7f4e8"],
      ]),
    );
    out += lightBeam(c, w * 0.08, h * 0.46, w * 0.22, 0, h * 0.5, w * 0.35);
    // rolled mat
    const mx = w * 0.18;
    const my = floorY + (h - floorY) * 0.45;
    out += softShadow(c, mx + u * 0.2, my + u * 0.1, u * 0.3, u * 0.04, 0.3);
    out += rect(
      mx,
      my - u * 0.09,
      u * 0.4,
      u * 0.18,
      lin(c, [
        [0, "#6fc2b5"],
        [1, "#2f8578"],
      ]),
    );
    out += ellipse(mx + u * 0.4, my, u * 0.05, u * 0.09, "#3a9a8c");
    out += path(`M${f(mx + u * 0.4)} ${f(my)}m-8 0a8 8 0 1 1 16 0a16 16 0 1 1 -32 0a24 24 0 1 1 48 0`, "none", `stroke="#236b60" stroke-width="3"`);
    out +=
      dumbbell(c, w * 0.55, floorY + (h - floorY) * 0.55, u * 0.2, -8, "#3b4a5c") + dumbbell(c, w * 0.62, floorY + (h - floorY) * 0.8, u * 0.2, 6, "#3b4a5c");
    // bottle
    const bx = w * 0.8;
    const by = floorY + (h - floorY) * 0.5;
    out +=
      softShadow(c, bx, by, u * 0.06, u * 0.015, 0.3) +
      rrect(
        bx - u * 0.045,
        by - u * 0.28,
        u * 0.09,
        u * 0.28,
        u * 0.03,
        lin(
          c,
          [
            [0, "#f5a35c"],
            [1, "#d9702a"],
          ],
          0,
          0,
          1,
          0,
        ),
      ) +
      rrect(bx - u * 0.03, by - u * 0.32, u * 0.06, u * 0.05, 6, "#2d2d2d") +
      rect(bx - u * 0.03, by - u * 0.22, u * 0.015, u * 0.16, "#fff", `opacity="0.3"`);
    // towel
    out += group(
      rrect(0, 0, u * 0.3, u * 0.12, 10, "#f0e6d8") + rect(0, u * 0.02, u * 0.3, u * 0.015, "#d2a77a") + rect(0, u * 0.085, u * 0.3, u * 0.015, "#d2a77a"),
      at(w * 0.78, floorY + (h - floorY) * 0.7, -4),
    );
    out += potPlant(c, w * 0.92, floorY + 4, u * 0.13, "#e8e2d8", ["#2f6b3f", "#3d8450"], "monstera");
  } else {
    out += windowFrame(
      c,
      w * 0.5,
      h * 0.08,
      w * 0.4,
      h * 0.4,
      lin(c, [
        [0, "#bfe0f5"],
        [1, "#f7f4e8"],
      ]),
    );
    out += lightBeam(c, w * 0.5, h * 0.48, w * 0.4, 0, h * 0.45, -w * 0.35);
    out += poly(
      [
        [w * 0.2, floorY + (h - floorY) * 0.1],
        [w * 0.8, floorY + (h - floorY) * 0.1],
        [w * 1.0, h * 0.98],
        [w * 0.0, h * 0.98],
      ],
      lin(c, [
        [0, "#48a89a"],
        [1, "#2f8578"],
      ]),
    );
    // kettlebell
    const kx = w * 0.35;
    const ky = floorY + (h - floorY) * 0.5;
    const kr = u * 0.12;
    out += softShadow(c, kx, ky + kr * 0.9, kr * 1.1, kr * 0.2, 0.4);
    out += path(
      `M${f(kx - kr * 0.6)} ${f(ky - kr * 0.6)}C${f(kx - kr * 0.7)} ${f(ky - kr * 1.7)} ${f(kx + kr * 0.7)} ${f(ky - kr * 1.7)} ${f(kx + kr * 0.6)} ${f(ky - kr * 0.6)}`,
      "none",
      `stroke="#2a2f36" stroke-width="${f(kr * 0.28)}"`,
    );
    out +=
      circle(
        kx,
        ky,
        kr,
        rad(
          c,
          [
            [0, "#6c7682"],
            [1, "#1f242a"],
          ],
          0.38,
          0.35,
          0.7,
        ),
      ) + rect(kx - kr * 0.6, ky + kr * 0.72, kr * 1.2, kr * 0.22, "#1f242a");
    // sneakers
    for (let i = 0; i < 2; i++) {
      const sx = w * (0.58 + i * 0.16);
      const sy = floorY + (h - floorY) * (0.72 + i * 0.06);
      const s = u * 0.12;
      out += softShadow(c, sx, sy + s * 0.1, s * 1.1, s * 0.15, 0.3);
      out += path(
        `M${f(sx - s)} ${f(sy)}L${f(sx - s * 1.02)} ${f(sy - s * 0.62)}Q${f(sx - s * 0.85)} ${f(sy - s * 0.72)} ${f(sx - s * 0.6)} ${f(sy - s * 0.62)}L${f(sx - s * 0.3)} ${f(sy - s * 0.85)}L${f(sx - s * 0.15)} ${f(sy - s * 0.72)}Q${f(sx + s * 0.4)} ${f(sy - s * 0.5)} ${f(sx + s * 0.85)} ${f(sy - s * 0.35)}Q${f(sx + s * 1.1)} ${f(sy - s * 0.25)} ${f(sx + s * 1.05)} ${f(sy)}Z`,
        lin(c, [
          [0, "#f58a7c"],
          [1, "#d94f3f"],
        ]),
      );
      out +=
        rrect(sx - s * 1.05, sy - s * 0.12, s * 2.15, s * 0.16, s * 0.06, "#f6f3ee") +
        path(
          `M${f(sx - s * 0.95)} ${f(sy - s * 0.62)}Q${f(sx - s * 0.75)} ${f(sy - s * 0.45)} ${f(sx - s * 0.55)} ${f(sy - s * 0.6)}`,
          "none",
          `stroke="#8f2f25" stroke-width="3"`,
        );
      for (let k = 0; k < 3; k++)
        out += line(sx - s * (0.1 - k * 0.18), sy - s * (0.68 - k * 0.07), sx + s * (0.02 + k * 0.18), sy - s * (0.58 - k * 0.07), "#fff", 3);
    }
    out += potPlant(c, w * 0.12, floorY + 4, u * 0.15, "#c8734f", ["#2f6b3f", "#3d8450"], "tall");
  }
  return out + grain(c, 0.035) + vignette(c, 0.22);
};

const rainyDay: Scene = (c, v) => {
  const { w, h, u } = c;
  const blockColors = ["#e2574c", "#f2b33d", "#5d8fcf", "#6dbb7a", "#f08fb0", "#9a78c9"];
  let out = "";
  if (v === 1) {
    const floorY = h * 0.68;
    out += rect(
      0,
      0,
      w,
      floorY,
      lin(c, [
        [0, "#f6ecd0"],
        [1, "#ecdcb4"],
      ]),
    );
    out += rect(
      0,
      floorY,
      w,
      h - floorY,
      lin(c, [
        [0, "#b58d6a"],
        [1, "#8d6a4c"],
      ]),
    );
    const wx = w * 0.6;
    const wy = h * 0.08;
    const ww = w * 0.32;
    const wh = h * 0.46;
    out += windowFrame(
      c,
      wx,
      wy,
      ww,
      wh,
      lin(c, [
        [0, "#7f93a6"],
        [1, "#b6c3cf"],
      ]),
      "#fbf7ef",
    );
    for (let i = 0; i < 70; i++) {
      const x = wx + rnd(c, 0.03, 0.97) * ww;
      const y = wy + rnd(c, 0.03, 0.92) * wh;
      out += line(x, y, x - 4, y + rnd(c, 10, 24), "#e8f0f7", 2, `opacity="0.7"`);
    }
    out += ellipse(w * 0.45, h * 0.9, w * 0.4, h * 0.08, "#e8b7a8");
    // fort
    const fx = w * 0.3;
    out += poly(
      [
        [fx - w * 0.26, floorY + h * 0.2],
        [fx, h * 0.28],
        [fx + w * 0.24, floorY + h * 0.2],
      ],
      lin(
        c,
        [
          [0, "#f4d6a0"],
          [1, "#dcb070"],
        ],
        0,
        0,
        1,
        0,
      ),
    );
    for (let i = -3; i <= 3; i++) out += line(fx, h * 0.28, fx + i * w * 0.07, floorY + h * 0.2, "#e07a5f", 6, `opacity="0.55"`);
    out += poly(
      [
        [fx - w * 0.07, floorY + h * 0.2],
        [fx, h * 0.45],
        [fx + w * 0.07, floorY + h * 0.2],
      ],
      "#4a3a33",
    );
    out += glow(c, fx, floorY + h * 0.1, u * 0.12, "#ffd98a", 0.5);
    for (let i = 0; i <= 10; i++) {
      const t = i / 10;
      for (const side of [-1, 1]) {
        const x = fx + side * t * w * 0.25;
        const y = h * 0.28 + t * (floorY + h * 0.2 - h * 0.28);
        out += glow(c, x, y, 14, "#ffe9a8", 0.6) + circle(x, y, 4, "#fff6d0");
      }
    }
    // blocks and crayons
    let by = h * 0.92;
    for (let i = 0; i < 4; i++) {
      const s = u * 0.09;
      const bx = w * 0.66 + rnd(c, -5, 5);
      out += rect(bx, by - s, s, s, blockColors[i]!) + rect(bx + s * 0.2, by - s * 0.8, s * 0.6, s * 0.6, "#fff", `opacity="0.35"`);
      by -= s;
    }
    for (let i = 0; i < 5; i++)
      out += group(
        rect(0, -6, u * 0.12, 12, blockColors[i]!) +
          poly(
            [
              [u * 0.12, -6],
              [u * 0.15, 0],
              [u * 0.12, 6],
            ],
            shade(blockColors[i]!, -0.2),
          ),
        at(w * 0.78 + i * 18, h * 0.88, -20 + i * 12),
      );
    out += potPlant(c, w * 0.95, floorY + 4, u * 0.1, "#f0e6d6", ["#4d8a3f", "#3a7a33"], "round");
  } else {
    out += woodTable(c, "#d6b48c", "#a98258", true);
    out +=
      circle(w * 0.5, h * 0.5, u * 0.62, "#f2d3c4") +
      circle(w * 0.5, h * 0.5, u * 0.55, "none", `stroke="#e8b7a8" stroke-width="14"`) +
      circle(w * 0.5, h * 0.5, u * 0.4, "none", `stroke="#f7e3d8" stroke-width="10"`);
    // stacking rings (seen from the side, standing on the rug)
    const rx = w * 0.27;
    let ry = h * 0.42;
    out += softShadow(c, rx, ry + 8, u * 0.17, u * 0.03, 0.3);
    for (let i = 0; i < 5; i++) {
      const rw = u * (0.16 - i * 0.025);
      out += ellipse(rx, ry - u * 0.03, rw, u * 0.035, blockColors[i]!);
      ry -= u * 0.06;
    }
    out += circle(rx, ry - u * 0.02, u * 0.035, "#f6d37c");
    // rainbow drawing on paper
    const px = w * 0.68;
    const py = h * 0.24;
    out += group(
      rect(-u * 0.22, -u * 0.16, u * 0.44, u * 0.32, "#fffdf8") +
        [0, 1, 2, 3, 4]
          .map((i) =>
            path(
              `M${f(-u * (0.18 - i * 0.025))} ${f(u * 0.1)}A${f(u * (0.18 - i * 0.025))} ${f(u * (0.18 - i * 0.025))} 0 0 1 ${f(u * (0.18 - i * 0.025))} ${f(u * 0.1)}`,
              "none",
              `stroke="${blockColors[i]!}" stroke-width="${f(u * 0.022)}"`,
            ),
          )
          .join(""),
      at(px, py, 8),
    );
    // blocks
    for (let i = 0; i < 8; i++) {
      const s = u * 0.09;
      const bx = w * rnd(c, 0.15, 0.85);
      const by = h * rnd(c, 0.62, 0.88);
      out += group(
        softShadow(c, 4, 6, s * 0.6, s * 0.6, 0.25) +
          rect(-s / 2, -s / 2, s, s, blockColors[i % blockColors.length]!) +
          circle(0, 0, s * 0.25, "#fff", `opacity="0.5"`),
        at(bx, by, rnd(c, -30, 30)),
      );
    }
    // ball and toy car
    out += circle(
      w * 0.78,
      h * 0.48,
      u * 0.08,
      rad(
        c,
        [
          [0, "#ffd36b"],
          [1, "#e2574c"],
        ],
        0.35,
        0.3,
        0.7,
      ),
    );
    out += group(
      rrect(-u * 0.1, -u * 0.05, u * 0.2, u * 0.08, 10, "#5d8fcf") +
        rrect(-u * 0.05, -u * 0.09, u * 0.1, u * 0.05, 6, "#7fb0e8") +
        circle(-u * 0.06, u * 0.035, u * 0.028, "#333") +
        circle(u * 0.06, u * 0.035, u * 0.028, "#333"),
      at(w * 0.4, h * 0.68, -12),
    );
  }
  return out + grain(c, 0.035) + vignette(c, 0.25);
};

function garment(c: Ctx, kind: "coat" | "sweater" | "shirt" | "dress", x: number, top: number, s: number, color: string) {
  let out = path(`M${f(x)} ${f(top - s * 0.15)}q${f(s * 0.06)} ${f(-s * 0.08)} 0 ${f(-s * 0.12)}`, "none", `stroke="#6b5b4e" stroke-width="3"`);
  out += path(
    `M${f(x - s * 0.3)} ${f(top + s * 0.02)}L${f(x)} ${f(top - s * 0.15)}L${f(x + s * 0.3)} ${f(top + s * 0.02)}`,
    "none",
    `stroke="#6b5b4e" stroke-width="4"`,
  );
  const len = kind === "coat" ? s * 1.6 : kind === "dress" ? s * 1.5 : s * 0.9;
  const flare = kind === "dress" ? s * 0.15 : 0;
  const paint = lin(
    c,
    [
      [0, shade(color, 0.1)],
      [1, shade(color, -0.2)],
    ],
    0,
    0,
    1,
    0,
  );
  out += path(
    `M${f(x - s * 0.28)} ${f(top)}L${f(x + s * 0.28)} ${f(top)}L${f(x + s * 0.3 + flare)} ${f(top + len)}L${f(x - s * 0.3 - flare)} ${f(top + len)}Z`,
    paint,
  );
  if (kind !== "dress") {
    const sl = kind === "coat" ? s * 1.0 : s * 0.8;
    out += path(
      `M${f(x - s * 0.28)} ${f(top)}L${f(x - s * 0.38)} ${f(top + sl)}L${f(x - s * 0.28)} ${f(top + sl)}L${f(x - s * 0.24)} ${f(top + s * 0.3)}Z`,
      shade(color, -0.12),
    );
    out += path(
      `M${f(x + s * 0.28)} ${f(top)}L${f(x + s * 0.38)} ${f(top + sl)}L${f(x + s * 0.28)} ${f(top + sl)}L${f(x + s * 0.24)} ${f(top + s * 0.3)}Z`,
      shade(color, -0.18),
    );
  }
  if (kind === "coat")
    out +=
      line(x, top + s * 0.1, x, top + len, shade(color, -0.3), 2) + circle(x + 8, top + s * 0.4, 4, "#4a3626") + circle(x + 8, top + s * 0.7, 4, "#4a3626");
  if (kind === "sweater")
    for (let k = 0; k < 6; k++)
      out += line(x - s * 0.26, top + s * (0.15 + k * 0.12), x + s * 0.26, top + s * (0.15 + k * 0.12), shade(color, -0.2), 2, `opacity="0.5"`);
  if (kind === "shirt")
    out +=
      poly(
        [
          [x - s * 0.1, top],
          [x, top + s * 0.12],
          [x + s * 0.1, top],
        ],
        "#ffffff",
      ) + line(x, top + s * 0.12, x, top + len, shade(color, -0.15), 2);
  if (kind === "dress") out += rect(x - s * 0.29, top + s * 0.4, s * 0.58, s * 0.06, shade(color, -0.3));
  return out;
}

const capsuleWardrobe: Scene = (c, v) => {
  const { w, h, u } = c;
  const palette = ["#c2703d", "#d6b48c", "#efe6d6", "#6b7a4a", "#7a2f3a", "#3f5876"];
  let out = "";
  if (v === 1) {
    const floorY = h * 0.82;
    out += rect(
      0,
      0,
      w,
      floorY,
      lin(c, [
        [0, "#f3e4dc"],
        [1, "#e6cfc2"],
      ]),
    );
    out += rect(
      0,
      floorY,
      w,
      h - floorY,
      lin(c, [
        [0, "#c9a07a"],
        [1, "#9e7653"],
      ]),
    );
    out += lightBeam(c, 0, 0, w * 0.2, 0, h * 0.8, w * 0.35);
    const rx = w * 0.2;
    const rw = w * 0.6;
    const ry = h * 0.14;
    out +=
      line(rx, ry, rx + rw, ry, "#2e2a28", 8) +
      line(rx + 6, ry, rx + 6, floorY, "#2e2a28", 7) +
      line(rx + rw - 6, ry, rx + rw - 6, floorY, "#2e2a28", 7) +
      line(rx - 30, floorY, rx + 40, floorY, "#2e2a28", 7) +
      line(rx + rw - 40, floorY, rx + rw + 30, floorY, "#2e2a28", 7);
    const items: ["coat" | "sweater" | "shirt" | "dress", string][] = [
      ["coat", "#c9955f"],
      ["sweater", "#c2703d"],
      ["shirt", "#f1eadf"],
      ["dress", "#6b7a4a"],
      ["sweater", "#7a2f3a"],
      ["shirt", "#a9bcd6"],
      ["coat", "#3f4a5a"],
    ];
    items.forEach(([kind, col], i) => {
      out += garment(c, kind, rx + rw * (0.1 + i * 0.135), ry + u * 0.1, u * 0.3, col);
    });
    // boots
    for (let i = 0; i < 2; i++) {
      const bx = rx + rw * (0.25 + i * 0.1);
      out += path(
        `M${f(bx)} ${f(floorY)}L${f(bx)} ${f(floorY - u * 0.12)}L${f(bx + u * 0.05)} ${f(floorY - u * 0.12)}L${f(bx + u * 0.05)} ${f(floorY - u * 0.04)}L${f(bx + u * 0.1)} ${f(floorY - u * 0.02)}L${f(bx + u * 0.1)} ${f(floorY)}Z`,
        "#5a3a28",
      );
    }
    // bag
    const bgx = rx + rw * 0.7;
    out +=
      path(`M${f(bgx)} ${f(floorY - u * 0.1)}q${f(u * 0.05)} ${f(-u * 0.08)} ${f(u * 0.1)} 0`, "none", `stroke="#8a5a3a" stroke-width="5"`) +
      rrect(bgx - u * 0.02, floorY - u * 0.1, u * 0.14, u * 0.1, 8, "#a86a42");
    out += potPlant(c, w * 0.9, floorY + 4, u * 0.14, "#f0e6d6", ["#3d7a4a", "#2f6b3f"], "monstera");
  } else {
    out += rect(
      0,
      0,
      w,
      h,
      lin(
        c,
        [
          [0, "#efe7db"],
          [1, "#e2d6c4"],
        ],
        0,
        0,
        1,
        1,
      ),
    );
    for (let i = 0; i < 60; i++) out += line(0, i * (h / 60), w, i * (h / 60) + rnd(c, -4, 4), "#d8ccb8", 1, `opacity="0.5"`);
    for (let i = 0; i < 8; i++)
      out += leaf(
        rnd(c, 0.05, 0.95) * w,
        rnd(c, 0.05, 0.95) * h,
        u * 0.07,
        u * 0.035,
        rnd(c, 0, 360),
        pick(c, palette.slice(0, 2).concat(["#b5432a", "#e0a03a"])),
      );
    // sweater
    const sx = w * 0.42;
    const sy = h * 0.2;
    const s = u * 0.4;
    out += softShadow(c, sx + 10, sy + s * 0.4, s * 0.6, s * 0.45, 0.2);
    out += path(
      `M${f(sx - s * 0.35)} ${f(sy - s * 0.3)}L${f(sx - s * 0.1)} ${f(sy - s * 0.35)}Q${f(sx)} ${f(sy - s * 0.25)} ${f(sx + s * 0.1)} ${f(sy - s * 0.35)}L${f(sx + s * 0.35)} ${f(sy - s * 0.3)}L${f(sx + s * 0.8)} ${f(sy + s * 0.3)}L${f(sx + s * 0.65)} ${f(sy + s * 0.38)}L${f(sx + s * 0.35)} ${f(sy)}L${f(sx + s * 0.35)} ${f(sy + s * 0.45)}L${f(sx - s * 0.35)} ${f(sy + s * 0.45)}L${f(sx - s * 0.35)} ${f(sy)}L${f(sx - s * 0.65)} ${f(sy + s * 0.38)}L${f(sx - s * 0.8)} ${f(sy + s * 0.3)}Z`,
      lin(
        c,
        [
          [0, "#d0804a"],
          [1, "#a9562a"],
        ],
        0,
        0,
        1,
        1,
      ),
    );
    for (let k = 0; k < 7; k++)
      out += line(sx - s * 0.33, sy - s * 0.2 + k * s * 0.09, sx + s * 0.33, sy - s * 0.2 + k * s * 0.09, "#8f4520", 2, `opacity="0.4"`);
    // jeans
    const jx = w * 0.3;
    const jy = h * 0.45;
    const j = u * 0.42;
    out +=
      softShadow(c, jx + 10, jy + j * 0.7, j * 0.5, j * 0.7, 0.2) +
      path(
        `M${f(jx - j * 0.3)} ${f(jy)}L${f(jx + j * 0.3)} ${f(jy)}L${f(jx + j * 0.38)} ${f(jy + j * 1.4)}L${f(jx + j * 0.06)} ${f(jy + j * 1.4)}L${f(jx)} ${f(jy + j * 0.35)}L${f(jx - j * 0.06)} ${f(jy + j * 1.4)}L${f(jx - j * 0.38)} ${f(jy + j * 1.4)}Z`,
        lin(
          c,
          [
            [0, "#5577a8"],
            [1, "#324c78"],
          ],
          0,
          0,
          1,
          1,
        ),
      );
    out += rect(jx - j * 0.3, jy, j * 0.6, j * 0.08, "#2f4670") + circle(jx, jy + j * 0.04, 5, "#d6b36a");
    // boots
    for (let i = 0; i < 2; i++) {
      const bx = w * (0.64 + i * 0.15);
      const by = h * 0.55;
      out +=
        softShadow(c, bx + 6, by + u * 0.18, u * 0.07, u * 0.2, 0.2) +
        path(
          `M${f(bx - u * 0.05)} ${f(by)}L${f(bx + u * 0.05)} ${f(by)}L${f(bx + u * 0.05)} ${f(by + u * 0.22)}Q${f(bx + u * 0.06)} ${f(by + u * 0.36)} ${f(bx)} ${f(by + u * 0.36)}Q${f(bx - u * 0.06)} ${f(by + u * 0.36)} ${f(bx - u * 0.05)} ${f(by + u * 0.22)}Z`,
          lin(
            c,
            [
              [0, "#7a4a2e"],
              [1, "#4f2f1d"],
            ],
            0,
            0,
            1,
            0,
          ),
        );
    }
    // scarf
    out += group(
      rect(0, 0, u * 0.16, u * 0.7, "#7a2f3a") +
        [0, 1, 2, 3, 4, 5].map((i) => rect(0, u * (0.05 + i * 0.11), u * 0.16, u * 0.03, "#e3c7a0", `opacity="0.8"`)).join(""),
      at(w * 0.8, h * 0.06, 4),
    );
    // sunglasses
    const gx = w * 0.72;
    const gy = h * 0.85;
    out +=
      circle(gx - u * 0.06, gy, u * 0.05, "#2b2522") +
      circle(gx + u * 0.06, gy, u * 0.05, "#2b2522") +
      line(gx - u * 0.015, gy - 4, gx + u * 0.015, gy - 4, "#2b2522", 4);
    out +=
      ellipse(gx - u * 0.075, gy - u * 0.015, u * 0.015, u * 0.008, "#fff", `opacity="0.4"`) +
      ellipse(gx + u * 0.045, gy - u * 0.015, u * 0.015, u * 0.008, "#fff", `opacity="0.4"`);
  }
  return out + grain(c, 0.035) + vignette(c, 0.22);
};

const backyardWedding: Scene = (c, v) => {
  const { w, h, u } = c;
  let out = "";
  if (v === 1) {
    out += rect(
      0,
      0,
      w,
      h,
      lin(c, [
        [0, "#2b3260"],
        [0.45, "#8a6a96"],
        [0.7, "#f1a88a"],
        [1, "#f7d3a3"],
      ]),
    );
    for (let x = -40; x < w + 40; x += rnd(c, 60, 120)) out += circle(x, h * 0.52, rnd(c, 50, 110), "#2c3b32");
    out += rect(
      0,
      h * 0.55,
      w,
      h * 0.45,
      lin(c, [
        [0, "#4f7a48"],
        [1, "#2f5233"],
      ]),
    );
    out += stringLights(c, -20, h * 0.04, w * 0.55, h * 0.2, h * 0.04, 9) + stringLights(c, w * 0.45, h * 0.2, w + 20, h * 0.03, h * 0.04, 9);
    out += stringLights(c, -20, h * 0.22, w + 20, h * 0.12, h * 0.06, 16) + stringLights(c, -20, h * 0.08, w + 20, h * 0.26, h * 0.05, 16);
    // arch
    const ax = w * 0.5;
    const ay = h * 0.62;
    const ar = u * 0.26;
    out += path(
      `M${f(ax - ar)} ${f(ay)}L${f(ax - ar)} ${f(ay - ar * 0.7)}A${f(ar)} ${f(ar)} 0 0 1 ${f(ax + ar)} ${f(ay - ar * 0.7)}L${f(ax + ar)} ${f(ay)}`,
      "none",
      `stroke="#f3ede4" stroke-width="10"`,
    );
    for (let i = 0; i < 40; i++) {
      const t = rnd(c, Math.PI * 1.05, Math.PI * 1.95);
      const fx = ax + Math.cos(t) * ar;
      const fy = ay - ar * 0.7 + Math.sin(t) * ar;
      out +=
        i % 3 === 0
          ? leaf(fx, fy, u * 0.05, u * 0.02, rnd(c, 0, 360), "#5f8f5a")
          : rose(c, fx, fy, u * rnd(c, 0.018, 0.028), pick(c, ["#f4c6c8", "#ffffff", "#e99aa4", "#f7e1d0"]));
    }
    // tables
    for (let i = 0; i < 3; i++) {
      const tx = w * (0.15 + i * 0.35);
      const ty = h * (0.8 + (i % 2) * 0.05);
      out += softShadow(c, tx, ty + u * 0.09, u * 0.18, u * 0.03, 0.35);
      out +=
        ellipse(tx, ty - u * 0.02, u * 0.16, u * 0.04, "#ffffff") +
        path(
          `M${f(tx - u * 0.16)} ${f(ty - u * 0.02)}L${f(tx - u * 0.18)} ${f(ty + u * 0.09)}L${f(tx + u * 0.18)} ${f(ty + u * 0.09)}L${f(tx + u * 0.16)} ${f(ty - u * 0.02)}Z`,
          lin(
            c,
            [
              [0, "#f4f1ec"],
              [1, "#d6d0c8"],
            ],
            0,
            0,
            1,
            0,
          ),
        );
      for (let k = -1; k <= 1; k++)
        out += glow(c, tx + k * u * 0.07, ty - u * 0.05, u * 0.05, "#ffd98a", 0.6) + rect(tx + k * u * 0.07 - 4, ty - u * 0.06, 8, u * 0.04, "#fff8e6");
      out += rose(c, tx, ty - u * 0.035, u * 0.02, "#f4c6c8");
    }
  } else {
    out += rect(
      0,
      0,
      w,
      h,
      lin(c, [
        [0, "#f7e3e1"],
        [1, "#e9c9c6"],
      ]),
    );
    out += bokeh(c, 30, ["#ffffff", "#fbd9d0", "#f6e7c8"], u * 0.03, u * 0.09);
    const tableY = h * 0.84;
    out += rect(
      0,
      tableY,
      w,
      h - tableY,
      lin(c, [
        [0, "#f5efe8"],
        [1, "#d9cfc4"],
      ]),
    );
    const cx = w * 0.5;
    out +=
      ellipse(cx, tableY, u * 0.38, u * 0.05, "#c9c2bb") +
      rect(cx - u * 0.04, tableY - u * 0.1, u * 0.08, u * 0.1, "#e6e0d8") +
      ellipse(cx, tableY - u * 0.1, u * 0.36, u * 0.04, "#f1ece6");
    const tiers = [
      [0.34, 0.26],
      [0.26, 0.24],
      [0.18, 0.22],
    ] as const;
    let y = tableY - u * 0.12;
    tiers.forEach(([rw, th]) => {
      const tw = u * rw;
      const tH = u * th;
      out += rect(
        cx - tw,
        y - tH,
        tw * 2,
        tH,
        lin(
          c,
          [
            [0, "#e9e4dd"],
            [0.35, "#ffffff"],
            [1, "#d8d1c8"],
          ],
          0,
          0,
          1,
          0,
        ),
      );
      out += ellipse(cx, y - tH, tw, u * 0.03, "#fbf9f6");
      for (let k = 0; k < 14; k++) out += circle(cx - tw + (k + 0.5) * ((tw * 2) / 14), y - 6, 5, "#f3efe9", `stroke="#ddd5cb" stroke-width="1"`);
      y -= tH;
    });
    // flowers cascading
    const flowers: [number, number][] = [];
    for (let i = 0; i < 18; i++) {
      const t = i / 17;
      flowers.push([cx + u * 0.18 - t * u * 0.4 + Math.sin(t * 6) * u * 0.08, y + t * (tableY - y - u * 0.15)]);
    }
    for (const [fx, fy] of flowers) out += leaf(fx, fy, u * 0.06, u * 0.022, rnd(c, 0, 360), "#6f9a6a", "#cfe3c6");
    for (const [fx, fy] of flowers)
      out += rose(c, fx + rnd(c, -10, 10), fy + rnd(c, -10, 10), u * rnd(c, 0.025, 0.04), pick(c, ["#f2b8bd", "#ffffff", "#e99aa4", "#f7dccf"]));
    out +=
      rose(c, cx, y - u * 0.02, u * 0.05, "#f2b8bd") + rose(c, cx - u * 0.05, y, u * 0.035, "#ffffff") + rose(c, cx + u * 0.05, y + 4, u * 0.035, "#e99aa4");
    for (let i = 0; i < 6; i++) out += flower(c, w * rnd(c, 0.05, 0.95), tableY + rnd(c, 0.2, 0.8) * (h - tableY), u * 0.03, "#ffffff");
  }
  return out + grain(c, 0.035) + vignette(c, 0.25);
};

const weeklyPlanning: Scene = (c, v) => {
  const { w, h, u } = c;
  let out = "";
  if (v === 1) {
    out += rect(
      0,
      0,
      w,
      h,
      lin(
        c,
        [
          [0, "#f4efe8"],
          [1, "#e2d9cc"],
        ],
        0,
        0,
        1,
        1,
      ),
    );
    // laptop corner
    out += group(
      rrect(0, 0, u * 0.7, u * 0.45, 18, "#b9bec6") +
        rrect(u * 0.04, u * 0.04, u * 0.62, u * 0.3, 8, "#8e949c") +
        Array.from({ length: 24 }, (_, i) =>
          rrect(u * 0.06 + (i % 8) * u * 0.075, u * 0.06 + Math.floor(i / 8) * u * 0.08, u * 0.06, u * 0.06, 4, "#d7dbe0"),
        ).join(""),
      at(w * 0.78, -u * 0.12, 18),
    );
    // planner
    const px = w * 0.22;
    const py = h * 0.2;
    const pw = w * 0.48;
    const ph = h * 0.62;
    out += softShadow(c, px + pw / 2 + 12, py + ph / 2 + 16, pw * 0.52, ph * 0.52, 0.3);
    out += group(
      rrect(0, 0, pw, ph, 10, "#fffdf8") +
        rect(pw / 2 - 3, 0, 6, ph, "#e5ddd0") +
        rect(
          pw / 2 - 20,
          0,
          40,
          ph,
          lin(
            c,
            [
              [0, "#000", 0],
              [0.5, "#000", 0.08],
              [1, "#000", 0],
            ],
            0,
            0,
            1,
            0,
          ),
        ) +
        [0, 1]
          .map((side) => {
            let page = rect((side * pw) / 2 + pw * 0.05, ph * 0.06, pw * 0.2, ph * 0.04, side ? "#8cc7b0" : "#f2b8bd");
            for (let i = 0; i < 9; i++) {
              const ly = ph * (0.16 + i * 0.085);
              const x0 = (side * pw) / 2 + pw * 0.05;
              page += rrect(x0, ly - ph * 0.022, ph * 0.04, ph * 0.04, 4, "none", `stroke="#b9ad9a" stroke-width="2"`);
              if (c.rng() < 0.55)
                page += path(
                  `M${f(x0 + 4)} ${f(ly)}l${f(ph * 0.012)} ${f(ph * 0.014)}l${f(ph * 0.02)} ${f(-ph * 0.028)}`,
                  "none",
                  `stroke="#2f8f6b" stroke-width="3"`,
                );
              page += line(x0 + ph * 0.06, ly, x0 + ph * 0.06 + rnd(c, 0.2, 0.34) * pw, ly, "#cfc6b8", 4);
            }
            return page;
          })
          .join(""),
      at(px, py, -4),
    );
    out += group(
      rect(0, -6, u * 0.32, 12, "#2f3d5c") +
        poly(
          [
            [u * 0.32, -6],
            [u * 0.36, 0],
            [u * 0.32, 6],
          ],
          "#c9a36a",
        ) +
        rect(-u * 0.04, -6, u * 0.04, 12, "#c9a36a"),
      at(w * 0.6, h * 0.88, -30),
    );
    out += mugTop(c, w * 0.1, h * 0.75, u * 0.1, "#e9e4dc");
    for (let i = 0; i < 3; i++)
      out += group(
        softShadow(c, 4, 6, u * 0.07, u * 0.07, 0.15) + rect(-u * 0.07, -u * 0.07, u * 0.14, u * 0.14, pick(c, ["#fff08a", "#ffc2d1", "#b9e6ff", "#c8f0c0"])),
        at(w * (0.82 + (i % 2) * 0.06), h * (0.55 + i * 0.14), rnd(c, -15, 15)),
      );
    for (let i = 0; i < 7; i++) out += leaf(w * 0.06, h * 0.1, u * rnd(c, 0.14, 0.2), u * 0.06, i * 51, pick(c, ["#3f8450", "#2f6b3f", "#4d9a5a"]), "#bfe0c0");
    out += circle(w * 0.06, h * 0.1, u * 0.03, "#c8734f");
  } else if (v === 2) {
    const deskY = h * 0.7;
    out += rect(
      0,
      0,
      w,
      deskY,
      lin(c, [
        [0, "#f6f1ea"],
        [1, "#e9e0d4"],
      ]),
    );
    out += rect(
      0,
      deskY,
      w,
      h - deskY,
      lin(c, [
        [0, "#c89b6d"],
        [1, "#9a7048"],
      ]),
    );
    // calendar
    const cx0 = w * 0.18;
    const cy0 = h * 0.08;
    const cw = w * 0.64;
    const ch = h * 0.4;
    out +=
      softShadow(c, cx0 + cw / 2 + 8, cy0 + ch / 2 + 10, cw * 0.52, ch * 0.52, 0.18) +
      rect(cx0, cy0, cw, ch, "#fffdf8") +
      rect(cx0, cy0, cw, ch * 0.14, "#c2703d");
    for (let r = 0; r < 5; r++) {
      for (let k = 0; k < 7; k++) {
        const bx = cx0 + cw * 0.04 + k * cw * 0.133;
        const by = cy0 + ch * 0.2 + r * ch * 0.155;
        out += rect(bx, by, cw * 0.12, ch * 0.13, "#f3ede3");
        if (c.rng() < 0.3) out += rect(bx + 4, by + ch * 0.07, cw * 0.1, ch * 0.035, pick(c, ["#8cc7b0", "#f2b8bd", "#f5d06b", "#a9bcd6"]));
      }
    }
    // lamp
    const lx = w * 0.8;
    out +=
      glow(c, lx, deskY - u * 0.3, u * 0.3, "#ffe2a6", 0.5) +
      line(lx, deskY, lx - u * 0.1, deskY - u * 0.3, "#2e2a28", 6) +
      line(lx - u * 0.1, deskY - u * 0.3, lx + u * 0.02, deskY - u * 0.42, "#2e2a28", 6);
    out +=
      poly(
        [
          [lx - u * 0.02, deskY - u * 0.48],
          [lx + u * 0.12, deskY - u * 0.4],
          [lx + u * 0.06, deskY - u * 0.32],
          [lx - u * 0.06, deskY - u * 0.4],
        ],
        "#2e2a28",
      ) + ellipse(lx, deskY, u * 0.07, u * 0.015, "#2e2a28");
    // notebook and mug
    out +=
      poly(
        [
          [w * 0.25, deskY + u * 0.05],
          [w * 0.6, deskY + u * 0.05],
          [w * 0.65, deskY + u * 0.18],
          [w * 0.2, deskY + u * 0.18],
        ],
        "#3f5876",
      ) + rect(w * 0.2, deskY + u * 0.18, w * 0.45, 8, "#f3ede3");
    out +=
      rrect(w * 0.08, deskY - u * 0.04, u * 0.12, u * 0.14, 10, "#e9e4dc") +
      path(`M${f(w * 0.08 + u * 0.12)} ${f(deskY - u * 0.01)}q${f(u * 0.06)} ${f(u * 0.03)} 0 ${f(u * 0.07)}`, "none", `stroke="#e9e4dc" stroke-width="8"`);
    out += potPlant(c, w * 0.7, deskY + u * 0.1, u * 0.1, "#8fb3a5", ["#3f8450", "#2f6b3f"], "round");
  } else {
    // Flat colours only: this one is a PNG, and gradients would make it large.
    out += rect(0, 0, w, h, "#b98c5d");
    for (let i = 0; i < 120; i++) out += circle(rnd(c, 0, 1) * w, rnd(c, 0, 1) * h, rnd(c, 1, 3), pick(c, ["#8a5f36", "#d9b283"]), `opacity="0.5"`);
    const cols = 5;
    const rows = 4;
    const cellW = w / (cols + 0.5);
    const cellH = h / (rows + 0.6);
    for (let r = 0; r < rows; r++) {
      for (let k = 0; k < cols; k++) {
        const x = cellW * (0.75 + k);
        const y = cellH * (0.8 + r);
        const s = Math.min(cellW, cellH) * 0.8;
        const col = pick(c, ["#fff08a", "#ffc2d1", "#b9e6ff", "#c8f0c0", "#ffd8a8"]);
        let note =
          rect(-s / 2 + 6, -s / 2 + 8, s, s, "#000", `opacity="0.18"`) +
          rect(-s / 2, -s / 2, s, s, col) +
          rect(-s / 2, -s / 2, s, s * 0.18, "#000", `opacity="0.05"`);
        for (let l = 0; l < 3; l++)
          note += line(-s * 0.35, -s * 0.1 + l * s * 0.18, -s * 0.35 + rnd(c, 0.3, 0.7) * s, -s * 0.1 + l * s * 0.18, shade(col, -0.4), 4, `opacity="0.6"`);
        note += circle(0, -s * 0.4, s * 0.06, pick(c, ["#e2574c", "#3f7fc0", "#2f8f6b"]));
        out += group(note, at(x, y, rnd(c, -6, 6)));
      }
    }
    return out;
  }
  return out + vignette(c, 0.2);
};

const goldenHour: Scene = (c, v) => {
  const { w, h, u } = c;
  let out = "";
  if (v === 1) {
    out += rect(
      0,
      0,
      w,
      h,
      lin(c, [
        [0, "#f6b26b"],
        [0.45, "#fbd38d"],
        [0.62, "#fde7b5"],
        [1, "#c76b3a"],
      ]),
    );
    out += sun(c, w * 0.62, h * 0.56, u * 0.09, "#fff4c8");
    for (let i = 0; i < 5; i++) out += cloud(c, w * rnd(c, 0.05, 0.95), h * rnd(c, 0.08, 0.3), u * rnd(c, 0.06, 0.12), "#ffe3c2", 0.5);
    const hills = [
      ["#d98a55", 0.6],
      ["#b8643a", 0.68],
      ["#8a4527", 0.78],
      ["#5e2f1e", 0.88],
    ] as const;
    hills.forEach(([col, y], i) => {
      let d = `M0 ${f(h)}L0 ${f(h * y)}`;
      const segs = 4;
      for (let s = 0; s < segs; s++) {
        const x1 = (w * (s + 0.5)) / segs;
        const x2 = (w * (s + 1)) / segs;
        d += `Q${f(x1)} ${f(h * y + rnd(c, -0.06, 0.04) * h)} ${f(x2)} ${f(h * y + rnd(c, -0.02, 0.02) * h)}`;
      }
      out += path(`${d}L${f(w)} ${f(h)}Z`, col, `opacity="${i === 0 ? 0.85 : 1}"`);
    });
    for (let i = 0; i < 4; i++) {
      const tx = w * rnd(c, 0.05, 0.95);
      const ty = h * rnd(c, 0.7, 0.8);
      const tr = u * rnd(c, 0.05, 0.09);
      out +=
        line(tx, ty, tx, ty - tr * 1.6, "#3b1f14", tr * 0.18) +
        circle(tx, ty - tr * 2, tr, "#3b1f14") +
        circle(tx - tr * 0.6, ty - tr * 1.6, tr * 0.7, "#3b1f14") +
        circle(tx + tr * 0.6, ty - tr * 1.7, tr * 0.7, "#3b1f14");
    }
    for (let i = 0; i < 140; i++) {
      const gx = rnd(c, 0, 1) * w;
      out += line(gx, h, gx + rnd(c, -12, 12), h - rnd(c, 20, 70), "#2e1810", 2.5);
    }
    for (let i = 0; i < 5; i++) {
      const bx = w * rnd(c, 0.2, 0.8);
      const by = h * rnd(c, 0.15, 0.35);
      const s = rnd(c, 8, 16);
      out += path(
        `M${f(bx - s)} ${f(by)}Q${f(bx - s / 2)} ${f(by - s / 2)} ${f(bx)} ${f(by)}Q${f(bx + s / 2)} ${f(by - s / 2)} ${f(bx + s)} ${f(by)}`,
        "none",
        `stroke="#4a2a20" stroke-width="2.5"`,
      );
    }
    out += rect(
      0,
      0,
      w,
      h,
      rad(
        c,
        [
          [0, "#fff2c2", 0.35],
          [1, "#fff2c2", 0],
        ],
        0.62,
        0.56,
        0.6,
      ),
    );
  } else {
    out += rect(
      0,
      0,
      w,
      h,
      lin(c, [
        [0, "#3a1f14"],
        [1, "#1a0f0c"],
      ]),
    );
    out += bokeh(c, 45, ["#ffb347", "#ffd27a", "#ff8c42", "#fff0c0"], u * 0.03, u * 0.12);
    const cx = w * 0.5;
    const cy = h * 0.58;
    const bw = u * 0.78;
    const bh = u * 0.5;
    out += softShadow(c, cx, cy + bh * 0.6, bw * 0.6, u * 0.04, 0.6);
    out += rrect(cx - bw * 0.35, cy - bh * 0.72, bw * 0.3, bh * 0.2, 10, "#2a2a2e");
    out += rrect(
      cx - bw / 2,
      cy - bh / 2,
      bw,
      bh,
      28,
      lin(c, [
        [0, "#3c3c42"],
        [1, "#18181c"],
      ]),
    );
    out += rect(cx - bw / 2, cy - bh * 0.1, bw, bh * 0.5, "#222226");
    for (let i = 0; i < 40; i++) out += circle(cx - bw / 2 + rnd(c, 0.02, 0.98) * bw, cy - bh * 0.08 + rnd(c, 0, 0.45) * bh, 2, "#111", `opacity="0.6"`);
    out += rrect(cx + bw * 0.28, cy - bh * 0.62, bw * 0.14, bh * 0.14, 8, "#4a4a52") + circle(cx + bw * 0.38, cy - bh * 0.32, bw * 0.035, "#c9c9d1");
    out += rrect(cx - bw * 0.5, cy - bh * 0.4, bw * 0.12, bh * 0.82, 20, "#141416");
    const lr = u * 0.22;
    out += circle(
      cx + bw * 0.05,
      cy + bh * 0.05,
      lr * 1.15,
      lin(
        c,
        [
          [0, "#5a5a62"],
          [1, "#1a1a1e"],
        ],
        0,
        0,
        1,
        1,
      ),
    );
    out += circle(cx + bw * 0.05, cy + bh * 0.05, lr, "#0d0d10");
    for (let i = 0; i < 3; i++) out += circle(cx + bw * 0.05, cy + bh * 0.05, lr * (0.95 - i * 0.12), "none", `stroke="#3a3a42" stroke-width="3"`);
    out += circle(
      cx + bw * 0.05,
      cy + bh * 0.05,
      lr * 0.55,
      rad(
        c,
        [
          [0, "#3b5a9a"],
          [0.5, "#1c2a4a"],
          [1, "#07090f"],
        ],
        0.4,
        0.4,
        0.6,
      ),
    );
    out += ellipse(
      cx + bw * 0.05 - lr * 0.2,
      cy + bh * 0.05 - lr * 0.22,
      lr * 0.18,
      lr * 0.09,
      "#ffffff",
      `opacity="0.5" transform="rotate(-35 ${f(cx + bw * 0.05)} ${f(cy + bh * 0.05)})"`,
    );
    out += circle(cx + bw * 0.05 + lr * 0.22, cy + bh * 0.05 + lr * 0.18, lr * 0.06, "#ffb347", `opacity="0.6"`);
    out += path(
      `M${f(cx - bw * 0.5)} ${f(cy - bh * 0.35)}Q${f(cx - bw * 0.8)} ${f(cy - bh * 1.2)} ${f(cx - bw * 0.2)} ${f(h * 0.05)}`,
      "none",
      `stroke="#5a3a28" stroke-width="14"`,
    );
  }
  return out + grain(c, 0.05) + vignette(c, 0.35);
};

export const SCENES: Record<string, Scene> = {
  "one-pan-lemon-garlic-chicken": lemonChicken,
  "berry-smoothie-bowls": berrySmoothie,
  "cozy-small-living-room-ideas": livingRoom,
  "balcony-herb-garden": herbGarden,
  "amalfi-coast-itinerary": amalfi,
  "mountain-cabin-weekend-packing-list": mountainCabin,
  "zero-based-budget-beginners": budget,
  "diy-yarn-wall-hanging": yarnCraft,
  "20-minute-dumbbell-workout": homeWorkout,
  "rainy-day-activities-for-toddlers": rainyDay,
  "fall-capsule-wardrobe": capsuleWardrobe,
  "backyard-wedding-on-a-budget": backyardWedding,
  "sunday-weekly-planning-routine": weeklyPlanning,
  "golden-hour-phone-photography": goldenHour,
};

// ---------------------------------------------------------------------------
// Page furniture (should be skipped by a pin generator)
// ---------------------------------------------------------------------------

function avatarSvg(): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32" viewBox="0 0 32 32">
<defs><clipPath id="r"><circle cx="16" cy="16" r="16"/></clipPath></defs>
<g clip-path="url(#r)"><rect width="32" height="32" fill="#f3d9c6"/>
<path d="M4 32c0-8 5-12 12-12s12 4 12 12z" fill="#c2703d"/>
<circle cx="16" cy="13" r="6.5" fill="#e9b99a"/>
<path d="M9 13c0-6 4-8.5 7-8.5s7 2.5 7 8.5c-1.5-3-4-4.5-7-4.5s-5.5 1.5-7 4.5z" fill="#6b4a35"/>
</g></svg>`;
}

function faviconSvg(): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32" viewBox="0 0 32 32">
<rect width="32" height="32" rx="7" fill="#2f5d52"/>
<path d="M16 6c6 4 8 10 0 20C8 16 10 10 16 6z" fill="#f3d9a4"/>
<path d="M16 9v15" stroke="#2f5d52" stroke-width="1.5"/>
</svg>`;
}

// ---------------------------------------------------------------------------
// Rendering
// ---------------------------------------------------------------------------

export function sceneSvg(slug: string, index: number, width: number, height: number): string {
  const scene = SCENES[slug];
  if (!scene) throw new Error(`No scene for post ${slug}`);
  const ctx: Ctx = {
    w: width,
    h: height,
    u: Math.min(width, height),
    rng: seededRandom(stableSeed(`${slug}#${index}`)),
    defs: [],
    next: 0,
    filters: new Map(),
  };
  const body = scene(ctx, index);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><defs>${ctx.defs.join("")}</defs>${body}</svg>`;
}

async function rasterise(svg: string, width: number, background?: string): Promise<Uint8Array> {
  const resvg = await Resvg.async(svg, { fitTo: { mode: "width", value: width }, ...(background ? { background } : {}) });
  return resvg.render().asPng();
}

function toJpeg(png: Uint8Array): Uint8Array {
  const image = PhotonImage.new_from_byteslice(png);
  try {
    return image.get_bytes_jpeg(JPEG_QUALITY);
  } finally {
    image.free();
  }
}

async function renderPostImage(slug: string, index: number, img: DemoImage): Promise<Uint8Array> {
  const png = await rasterise(sceneSvg(slug, index, img.width, img.height), img.width, "#ffffff");
  return img.file.endsWith(".png") ? png : toJpeg(png);
}

async function main() {
  mkdirSync(IMAGES_DIR, { recursive: true });
  let total = 0;
  const write = (file: string, bytes: Uint8Array) => {
    writeFileSync(IMAGES_DIR + file, bytes);
    total += bytes.length;
    console.log(`${file.padEnd(48)} ${(bytes.length / 1024).toFixed(1).padStart(7)} KB`);
  };
  const only = process.argv[2];
  for (const post of DEMO_POSTS) {
    if (only && post.slug !== only) continue;
    for (const [i, img] of post.images.entries()) write(img.file, await renderPostImage(post.slug, i + 1, img));
  }
  if (!only) {
    write("avatar.png", await rasterise(avatarSvg(), 32));
    write("favicon.png", await rasterise(faviconSvg(), 32));
    write("pixel.gif", PIXEL_GIF);
  }
  console.log(`total ${(total / 1024 / 1024).toFixed(2)} MB`);
}

// Run only when executed directly, so the helpers can be imported without side effects.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await main();
}
