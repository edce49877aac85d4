/**
 * The 18 colour palettes a user picks the pin colour from (spec section 9).
 * Five colours each, darkest or most saturated first where it reads well; the
 * colour index is the position in `colors`. The first palette, Seafoam, holds
 * the default pin colour (81, 195, 166) at index 1, the default colour index.
 * Every colour works as a pin colour: templates draw with "pin" and its
 * darker and lighter shades, and text switches to black or white for contrast.
 */

export interface PaletteColor {
  r: number;
  g: number;
  b: number;
  a: number;
}

export interface ColorPalette {
  /** Stable slug. */
  id: string;
  name: string;
  colors: PaletteColor[];
}

export const COLOR_PALETTES: ColorPalette[] = [
  {
    id: "seafoam",
    name: "Seafoam",
    colors: [
      { r: 42, g: 111, b: 97, a: 1 }, // #2a6f61
      { r: 81, g: 195, b: 166, a: 1 }, // #51c3a6
      { r: 159, g: 224, b: 207, a: 1 }, // #9fe0cf
      { r: 232, g: 247, b: 242, a: 1 }, // #e8f7f2
      { r: 246, g: 193, b: 119, a: 1 }, // #f6c177
    ],
  },
  {
    id: "sunset",
    name: "Sunset",
    colors: [
      { r: 248, g: 177, b: 149, a: 1 }, // #f8b195
      { r: 246, g: 114, b: 128, a: 1 }, // #f67280
      { r: 192, g: 108, b: 132, a: 1 }, // #c06c84
      { r: 108, g: 91, b: 123, a: 1 }, // #6c5b7b
      { r: 53, g: 92, b: 125, a: 1 }, // #355c7d
    ],
  },
  {
    id: "blush",
    name: "Blush",
    colors: [
      { r: 249, g: 224, b: 227, a: 1 }, // #f9e0e3
      { r: 244, g: 182, b: 194, a: 1 }, // #f4b6c2
      { r: 228, g: 143, b: 163, a: 1 }, // #e48fa3
      { r: 194, g: 106, b: 132, a: 1 }, // #c26a84
      { r: 125, g: 60, b: 90, a: 1 }, // #7d3c5a
    ],
  },
  {
    id: "forest",
    name: "Forest",
    colors: [
      { r: 27, g: 58, b: 45, a: 1 }, // #1b3a2d
      { r: 47, g: 93, b: 70, a: 1 }, // #2f5d46
      { r: 78, g: 138, b: 100, a: 1 }, // #4e8a64
      { r: 163, g: 201, b: 168, a: 1 }, // #a3c9a8
      { r: 228, g: 239, b: 230, a: 1 }, // #e4efe6
    ],
  },
  {
    id: "ocean",
    name: "Ocean",
    colors: [
      { r: 3, g: 37, b: 108, a: 1 }, // #03256c
      { r: 37, g: 65, b: 178, a: 1 }, // #2541b2
      { r: 23, g: 104, b: 172, a: 1 }, // #1768ac
      { r: 6, g: 190, b: 225, a: 1 }, // #06bee1
      { r: 205, g: 239, b: 250, a: 1 }, // #cdeffa
    ],
  },
  {
    id: "terracotta",
    name: "Terracotta",
    colors: [
      { r: 122, g: 62, b: 43, a: 1 }, // #7a3e2b
      { r: 194, g: 96, b: 63, a: 1 }, // #c2603f
      { r: 224, g: 142, b: 109, a: 1 }, // #e08e6d
      { r: 242, g: 198, b: 168, a: 1 }, // #f2c6a8
      { r: 250, g: 238, b: 228, a: 1 }, // #faeee4
    ],
  },
  {
    id: "lavender",
    name: "Lavender",
    colors: [
      { r: 75, g: 63, b: 114, a: 1 }, // #4b3f72
      { r: 123, g: 107, b: 176, a: 1 }, // #7b6bb0
      { r: 169, g: 155, b: 212, a: 1 }, // #a99bd4
      { r: 214, g: 205, b: 240, a: 1 }, // #d6cdf0
      { r: 243, g: 239, b: 251, a: 1 }, // #f3effb
    ],
  },
  {
    id: "mono",
    name: "Mono",
    colors: [
      { r: 17, g: 17, b: 17, a: 1 }, // #111111
      { r: 61, g: 61, b: 61, a: 1 }, // #3d3d3d
      { r: 122, g: 122, b: 122, a: 1 }, // #7a7a7a
      { r: 196, g: 196, b: 196, a: 1 }, // #c4c4c4
      { r: 242, g: 242, b: 242, a: 1 }, // #f2f2f2
    ],
  },
  {
    id: "citrus",
    name: "Citrus",
    colors: [
      { r: 245, g: 166, b: 35, a: 1 }, // #f5a623
      { r: 255, g: 210, b: 63, a: 1 }, // #ffd23f
      { r: 155, g: 197, b: 61, a: 1 }, // #9bc53d
      { r: 90, g: 160, b: 44, a: 1 }, // #5aa02c
      { r: 255, g: 246, b: 214, a: 1 }, // #fff6d6
    ],
  },
  {
    id: "berry",
    name: "Berry",
    colors: [
      { r: 91, g: 26, b: 58, a: 1 }, // #5b1a3a
      { r: 142, g: 44, b: 92, a: 1 }, // #8e2c5c
      { r: 194, g: 64, b: 122, a: 1 }, // #c2407a
      { r: 232, g: 137, b: 176, a: 1 }, // #e889b0
      { r: 249, g: 220, b: 232, a: 1 }, // #f9dce8
    ],
  },
  {
    id: "earth",
    name: "Earth",
    colors: [
      { r: 74, g: 59, b: 44, a: 1 }, // #4a3b2c
      { r: 125, g: 98, b: 71, a: 1 }, // #7d6247
      { r: 166, g: 138, b: 100, a: 1 }, // #a68a64
      { r: 201, g: 183, b: 156, a: 1 }, // #c9b79c
      { r: 237, g: 224, b: 212, a: 1 }, // #ede0d4
    ],
  },
  {
    id: "pastel",
    name: "Pastel",
    colors: [
      { r: 255, g: 214, b: 224, a: 1 }, // #ffd6e0
      { r: 255, g: 239, b: 181, a: 1 }, // #ffefb5
      { r: 193, g: 240, b: 220, a: 1 }, // #c1f0dc
      { r: 189, g: 224, b: 254, a: 1 }, // #bde0fe
      { r: 215, g: 198, b: 244, a: 1 }, // #d7c6f4
    ],
  },
  {
    id: "bold",
    name: "Bold",
    colors: [
      { r: 17, g: 17, b: 17, a: 1 }, // #111111
      { r: 230, g: 57, b: 70, a: 1 }, // #e63946
      { r: 241, g: 196, b: 15, a: 1 }, // #f1c40f
      { r: 29, g: 53, b: 87, a: 1 }, // #1d3557
      { r: 0, g: 166, b: 251, a: 1 }, // #00a6fb
    ],
  },
  {
    id: "vintage",
    name: "Vintage",
    colors: [
      { r: 217, g: 164, b: 65, a: 1 }, // #d9a441
      { r: 181, g: 101, b: 74, a: 1 }, // #b5654a
      { r: 107, g: 143, b: 113, a: 1 }, // #6b8f71
      { r: 62, g: 92, b: 118, a: 1 }, // #3e5c76
      { r: 241, g: 227, b: 198, a: 1 }, // #f1e3c6
    ],
  },
  {
    id: "nordic",
    name: "Nordic",
    colors: [
      { r: 46, g: 52, b: 64, a: 1 }, // #2e3440
      { r: 76, g: 86, b: 106, a: 1 }, // #4c566a
      { r: 136, g: 192, b: 208, a: 1 }, // #88c0d0
      { r: 216, g: 222, b: 233, a: 1 }, // #d8dee9
      { r: 236, g: 239, b: 244, a: 1 }, // #eceff4
    ],
  },
  {
    id: "coral",
    name: "Coral",
    colors: [
      { r: 38, g: 70, b: 83, a: 1 }, // #264653
      { r: 255, g: 127, b: 110, a: 1 }, // #ff7f6e
      { r: 255, g: 180, b: 162, a: 1 }, // #ffb4a2
      { r: 42, g: 157, b: 143, a: 1 }, // #2a9d8f
      { r: 255, g: 241, b: 236, a: 1 }, // #fff1ec
    ],
  },
  {
    id: "midnight",
    name: "Midnight",
    colors: [
      { r: 11, g: 19, b: 43, a: 1 }, // #0b132b
      { r: 28, g: 37, b: 65, a: 1 }, // #1c2541
      { r: 58, g: 80, b: 107, a: 1 }, // #3a506b
      { r: 91, g: 192, b: 190, a: 1 }, // #5bc0be
      { r: 224, g: 251, b: 252, a: 1 }, // #e0fbfc
    ],
  },
  {
    id: "sage",
    name: "Sage",
    colors: [
      { r: 95, g: 113, b: 97, a: 1 }, // #5f7161
      { r: 135, g: 160, b: 135, a: 1 }, // #87a087
      { r: 181, g: 199, b: 165, a: 1 }, // #b5c7a5
      { r: 223, g: 232, b: 212, a: 1 }, // #dfe8d4
      { r: 247, g: 245, b: 238, a: 1 }, // #f7f5ee
    ],
  },
];
