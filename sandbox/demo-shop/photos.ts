/**
 * Product photos for the demo shop: drawn as SVG (a backdrop, a surface, a soft
 * shadow and the product in its colour, a different view for each photo
 * number), rasterised with resvg and encoded as JPEG with photon, the
 * project's own WebAssembly dependencies. Deterministic, made on first request
 * and kept in memory.
 */
import { PhotonImage } from "@cf-wasm/photon/node";
import { Resvg } from "@cf-wasm/resvg/node";
import type { DemoProduct } from "./catalog.ts";

/** The sizes the stand-ins offer (Etsy's url_fullxfull / url_570xN / url_170x135 and the like). */
export const PHOTO_SIZES = { full: 1200, medium: 570, small: 170 } as const;
export type PhotoSize = keyof typeof PHOTO_SIZES;

function shade(hex: string, amount: number): string {
  const n = Number.parseInt(hex.slice(1), 16);
  const channel = (value: number) => Math.max(0, Math.min(255, Math.round(amount < 0 ? value * (1 + amount) : value + (255 - value) * amount)));
  const [r, g, b] = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map(channel);
  return `#${((1 << 24) | (r! << 16) | (g! << 8) | b!).toString(16).slice(1)}`;
}

const BACKDROPS = [
  ["#f4efe8", "#e6ddd0"],
  ["#eef2f0", "#d9e2dc"],
  ["#f6ece9", "#e8d5cf"],
  ["#eceef3", "#d6dae4"],
];

/** The product itself, centred on (0, 0), about 400 units tall. */
function productShape(product: DemoProduct): string {
  const c = product.colour.hex;
  const dark = shade(c, -0.25);
  const light = shade(c, 0.3);
  switch (product.kind) {
    case "mug":
      return `<path d="M-120,-150 h240 v260 q0,40 -40,40 h-160 q-40,0 -40,-40 z" fill="${c}"/><path d="M120,-90 q90,0 90,90 q0,90 -90,90" fill="none" stroke="${dark}" stroke-width="34"/><ellipse cx="0" cy="-150" rx="120" ry="22" fill="${light}"/><ellipse cx="0" cy="-150" rx="100" ry="15" fill="#5b3a26"/>`;
    case "vase":
      return `<path d="M-50,-200 h100 v40 q90,70 90,200 q0,130 -70,150 h-140 q-70,-20 -70,-150 q0,-130 90,-200 z" fill="${c}"/><path d="M-30,-190 v60" stroke="${light}" stroke-width="14" stroke-linecap="round"/><path d="M0,-200 q-20,-90 -70,-140 M0,-200 q30,-110 80,-130" stroke="#5d7a4a" stroke-width="8" fill="none"/><circle cx="-70" cy="-340" r="26" fill="#f2d16b"/><circle cx="80" cy="-330" r="22" fill="#f4f0e6"/>`;
    case "candle":
      return `<rect x="-120" y="-140" width="240" height="290" rx="24" fill="${c}"/><rect x="-120" y="-40" width="240" height="110" fill="${light}"/><ellipse cx="0" cy="-140" rx="120" ry="20" fill="${shade(c, 0.45)}"/><path d="M0,-150 v-40" stroke="#333" stroke-width="5"/><path d="M0,-250 q24,30 0,62 q-24,-32 0,-62 z" fill="#f5b942"/>`;
    case "tote":
      return `<path d="M-170,-90 h340 l30,280 h-400 z" fill="${c}"/><path d="M-90,-90 q0,-170 90,-170 q90,0 90,170" fill="none" stroke="${dark}" stroke-width="22"/><rect x="-70" y="10" width="140" height="90" rx="8" fill="${light}"/>`;
    case "print":
      return `<rect x="-170" y="-230" width="340" height="440" fill="#3b3630"/><rect x="-150" y="-210" width="300" height="400" fill="#fbf8f2"/><circle cx="40" cy="-90" r="60" fill="${c}"/><path d="M-150,100 q80,-120 160,-40 q60,-70 140,20 v110 h-300 z" fill="${dark}"/><path d="M-150,140 q100,-70 300,0 v50 h-300 z" fill="${light}"/>`;
    case "pillow":
      return `<path d="M-200,-170 q200,-40 400,0 q30,170 0,340 q-200,40 -400,0 q-30,-170 0,-340 z" fill="${c}"/><path d="M-200,-170 q200,-40 400,0" fill="none" stroke="${dark}" stroke-width="8"/><path d="M-120,-60 h240 M-120,0 h240 M-120,60 h240" stroke="${light}" stroke-width="10" stroke-dasharray="18 14"/>`;
    case "planter":
      return `<path d="M-150,-60 h300 l-40,230 h-220 z" fill="${c}"/><rect x="-165" y="-80" width="330" height="36" rx="8" fill="${dark}"/><path d="M0,-80 q-10,-150 -110,-210 M0,-80 q20,-170 120,-220 M0,-80 q-40,-90 -170,-110 M0,-80 q50,-80 170,-90" stroke="#4e7a3c" stroke-width="16" fill="none" stroke-linecap="round"/><ellipse cx="-110" cy="-290" rx="44" ry="20" fill="#5f9448" transform="rotate(-35 -110 -290)"/><ellipse cx="120" cy="-300" rx="44" ry="20" fill="#5f9448" transform="rotate(30 120 -300)"/>`;
  }
}

/** Photo `n` (1-based) of a product as SVG: front, close-up, styled with props, and from above. */
export function productPhotoSvg(product: DemoProduct, n: number, size: number = PHOTO_SIZES.full): string {
  const [top, bottom] = BACKDROPS[(product.number + n) % BACKDROPS.length]!;
  const view = ((n - 1) % 4) as 0 | 1 | 2 | 3;
  const scale = [1, 1.55, 0.8, 1.1][view]!;
  const cx = [500, 520, 430, 500][view]!;
  const cy = [560, 600, 600, 520][view]!;
  const props =
    view === 2
      ? `<circle cx="800" cy="300" r="90" fill="${shade(product.colour.hex, 0.55)}" opacity="0.7"/><rect x="720" y="640" width="180" height="120" rx="10" fill="#cdb894"/><path d="M790,640 q-30,-120 -10,-200 M810,640 q40,-110 10,-220" stroke="#5d8a4a" stroke-width="10" fill="none"/>`
      : view === 3
        ? `<rect x="120" y="150" width="760" height="760" rx="20" fill="none" stroke="${shade(top, -0.08)}" stroke-width="6"/>`
        : "";
  const surface = view === 3 ? "" : `<rect x="0" y="700" width="1000" height="300" fill="${shade(bottom, -0.06)}"/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 1000 1000">
<defs><linearGradient id="bg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${top}"/><stop offset="1" stop-color="${bottom}"/></linearGradient>
<filter id="soft" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="18"/></filter></defs>
<rect width="1000" height="1000" fill="url(#bg)"/>${surface}${props}
<ellipse cx="${cx}" cy="${cy + 190 * scale}" rx="${210 * scale}" ry="${34 * scale}" fill="#000" opacity="0.18" filter="url(#soft)"/>
<g transform="translate(${cx} ${cy}) scale(${scale})">${productShape(product)}</g>
</svg>`;
}

const cache = new Map<string, Uint8Array>();

/** Photo `n` of a product as JPEG bytes at one of the offered sizes; null when it has no such photo. */
export async function productPhotoJpeg(product: DemoProduct, n: number, size: PhotoSize = "full"): Promise<Uint8Array | null> {
  if (!Number.isInteger(n) || n < 1 || n > product.photoCount) return null;
  const key = `${product.number}/${n}/${size}`;
  const known = cache.get(key);
  if (known) return known;
  const pixels = (await Resvg.async(productPhotoSvg(product, n, PHOTO_SIZES[size]))).render();
  const image = new PhotonImage(pixels.pixels, pixels.width, pixels.height);
  try {
    const jpeg = image.get_bytes_jpeg(82);
    cache.set(key, jpeg);
    return jpeg;
  } finally {
    image.free();
    pixels.free();
  }
}
