import { arch, body, brand, description, ellipse, frame, path, PATHS, rect, small, template, title, url, type StandardTemplateSeed } from "./kit.ts";

/** Words only: no photo, the headline is the picture. */

const DARK = "#1d2226";
const CREAM = "#fbf7f0";
const STRIPES_TOP_LEFT = "M0 22 L22 0 L36 0 L0 36 Z M0 52 L52 0 L66 0 L0 66 Z M0 82 L82 0 L96 0 L0 96 Z";
const STRIPES_BOTTOM_RIGHT = "M100 78 L78 100 L64 100 L100 64 Z M100 48 L48 100 L34 100 L100 34 Z M100 18 L18 100 L4 100 L100 4 Z";

export const TEXT_ONLY_TEMPLATES: StandardTemplateSeed[] = [
  template(
    "std-text-only-bold-01",
    "text-only",
    "Bold colour headline",
    ["Bold", "Blog"],
    "pin",
    [
      brand([80, 170, 840, 40], small("Montserrat", 26, "auto", { letterSpacing: 0.4 })),
      rect("rule-top", "Top rule", [80, 240, 840, 5], "pin-dark"),
      title([80, 320, 840, 800], { lineHeight: 1.05 }),
      rect("rule-bottom", "Bottom rule", [80, 1190, 840, 5], "pin-dark"),
      url([80, 1245, 840, 50], small("Montserrat", 30, "auto", { letterSpacing: 0.2 })),
    ],
    0,
  ),

  template(
    "std-text-only-gradient-02",
    "text-only",
    "Gradient headline",
    ["Bold", "Minimal"],
    { from: "pin-light", to: "pin", angle: 180 },
    [
      title([90, 230, 820, 660], { fontFamily: "Anton", fontWeight: 400, uppercase: true, color: DARK, lineHeight: 1.08 }),
      rect("rule", "Rule", [440, 945, 120, 8], DARK, { radius: 4 }),
      description([130, 1000, 740, 220], body("Lato", 32, DARK, { align: "center" })),
      url([280, 1290, 440, 76], small("Lato", 24, "#ffffff", { background: { shape: "pill", fill: DARK, padding: 18 } })),
    ],
    0,
  ),

  template(
    "std-text-only-editorial-03",
    "text-only",
    "Editorial headline",
    ["Elegant", "Blog"],
    CREAM,
    [
      brand([100, 120, 800, 34], small("Lato", 22, "pin-dark", { align: "left", letterSpacing: 0.4 })),
      rect("rule-top", "Rule", [100, 180, 800, 2], DARK),
      title([100, 240, 800, 620], { fontFamily: "Playfair Display", uppercase: false, align: "left", verticalAlign: "top", color: DARK, lineHeight: 1.16 }),
      description([100, 920, 800, 300], body("Merriweather", 30, "#444444", { align: "left", lineHeight: 1.55 })),
      rect("rule", "Accent", [100, 1300, 80, 6], "pin"),
      url([100, 1335, 800, 40], small("Lato", 22, "pin-dark", { align: "left", letterSpacing: 0.3 })),
    ],
    0,
  ),

  template(
    "std-text-only-blobs-04",
    "text-only",
    "Playful blobs",
    ["Blog", "Home"],
    "pin-light",
    [
      path("blob-1", "Blob", [-140, -120, 560, 520], PATHS.blob, "pin"),
      path("blob-2", "Blob", [600, 1100, 560, 520], PATHS.blob, "pin"),
      ellipse("dot-1", "Dot", [820, 210, 70, 70], "pin-dark"),
      ellipse("dot-2", "Dot", [120, 1210, 44, 44], "pin-dark"),
      path("sparkle", "Sparkle", [760, 320, 50, 50], PATHS.sparkle, "pin"),
      title([110, 430, 780, 560], { color: "pin-dark", lineHeight: 1.05 }),
      url([300, 1050, 400, 64], small("Nunito", 22, "auto", { background: { shape: "pill", fill: "pin", padding: 14 } })),
    ],
    0,
  ),

  template(
    "std-text-only-card-05",
    "text-only",
    "Headline card",
    ["Blog", "Minimal"],
    "pin",
    [
      rect("card", "Card", [80, 200, 840, 1100], "#ffffff", { radius: 40 }),
      ellipse("icon-disc", "Icon disc", [440, 140, 120, 120], "pin-dark"),
      path("icon", "Heart", [472, 176, 56, 50], PATHS.heart, "#ffffff"),
      brand([140, 300, 720, 36], small("Nunito", 22, "pin-dark", { letterSpacing: 0.35 })),
      title([140, 370, 720, 560], { color: DARK, lineHeight: 1.05 }),
      description([150, 960, 700, 210], body("Nunito", 30, "#555555", { align: "center" })),
      url([140, 1200, 720, 44], small("Nunito", 24, "pin-dark", { letterSpacing: 0.15 })),
    ],
    0,
  ),

  template(
    "std-text-only-stripes-06",
    "text-only",
    "Block headline with stripes",
    ["Bold", "Lists"],
    DARK,
    [
      path("stripes-1", "Stripes", [0, 0, 460, 460], STRIPES_TOP_LEFT, "pin"),
      path("stripes-2", "Stripes", [540, 1040, 460, 460], STRIPES_BOTTOM_RIGHT, "pin"),
      brand([440, 90, 470, 40], small("Montserrat", 24, "pin-light", { align: "right", letterSpacing: 0.3 })),
      rect("block", "Headline block", [90, 400, 820, 700], "#ffffff"),
      title([140, 450, 720, 480], { fontFamily: "Archivo Black", fontWeight: 400, uppercase: true, align: "left", color: DARK, lineHeight: 1.08 }),
      rect("rule", "Rule", [140, 965, 90, 8], "pin"),
      url([140, 1000, 720, 40], small("Montserrat", 24, DARK, { align: "left", letterSpacing: 0.2 })),
    ],
    0,
  ),

  template(
    "std-text-only-neon-07",
    "text-only",
    "Dark with glowing outline",
    ["Bold", "Minimal"],
    "#141414",
    [
      frame("frame-outer", "Outer frame", [50, 50, 900, 1400], "pin", 5),
      frame("frame-inner", "Inner frame", [72, 72, 856, 1356], "pin", 2),
      path("sparkle-1", "Sparkle", [120, 120, 60, 60], PATHS.sparkle, "pin"),
      path("sparkle-2", "Sparkle", [820, 1320, 60, 60], PATHS.sparkle, "pin"),
      brand([120, 250, 760, 36], small("Montserrat", 22, "#ffffff", { letterSpacing: 0.45 })),
      title([120, 320, 760, 780], { fontFamily: "Bebas Neue", fontWeight: 400, uppercase: true, color: "pin", lineHeight: 1 }),
      url([120, 1180, 760, 44], small("Montserrat", 24, "#ffffff", { letterSpacing: 0.25 })),
    ],
    0,
  ),

  template(
    "std-text-only-block-08",
    "text-only",
    "Colour block and summary",
    ["Blog", "Recipes"],
    "#ffffff",
    [
      rect("block", "Colour block", [0, 0, 1000, 820], "pin-dark"),
      title([80, 100, 840, 600], { color: "#ffffff", lineHeight: 1.05 }),
      brand([250, 775, 500, 90], small("Poppins", 22, "auto", { background: { shape: "pill", fill: "pin", padding: 24 }, letterSpacing: 0.15 })),
      description([110, 920, 780, 330], body("Poppins", 36, DARK, { align: "center", lineHeight: 1.5 })),
      rect("rule", "Rule", [460, 1290, 80, 5], "pin", { radius: 3 }),
      url([110, 1330, 780, 44], small("Poppins", 24, "pin-dark", { letterSpacing: 0.15 })),
    ],
    0,
  ),

  template(
    "std-text-only-classic-frame-09",
    "text-only",
    "Classic framed headline",
    ["Elegant", "Quotes"],
    "pin-light",
    [
      frame("frame-outer", "Outer frame", [60, 60, 880, 1380], "pin-dark", 3),
      frame("frame-inner", "Inner frame", [82, 82, 836, 1336], "pin-dark", 1),
      path("ornament-top", "Ornament", [470, 170, 60, 60], PATHS.sparkle, "pin"),
      brand([130, 270, 740, 36], small("Raleway", 22, "pin-dark", { letterSpacing: 0.45 })),
      title([140, 340, 720, 640], { fontFamily: "Playfair Display", fontWeight: 400, uppercase: false, color: "pin-dark", lineHeight: 1.16 }),
      rect("rule", "Rule", [440, 1030, 120, 2], "pin-dark"),
      description([160, 1070, 680, 170], body("Raleway", 28, "pin-dark", { align: "center" })),
      path("ornament-bottom", "Ornament", [480, 1290, 40, 40], PATHS.sparkle, "pin"),
    ],
    0,
  ),

  template(
    "std-text-only-circle-10",
    "text-only",
    "Big circle headline",
    ["Bold", "Blog"],
    "pin",
    [
      brand([80, 110, 840, 40], small("Montserrat", 26, "auto", { letterSpacing: 0.45 })),
      ellipse("circle", "Circle", [60, 300, 880, 880], "#ffffff"),
      title([210, 500, 580, 420], { color: DARK, lineHeight: 1.05 }),
      rect("rule", "Rule", [460, 960, 80, 6], "pin", { radius: 3 }),
      url([80, 1320, 840, 50], small("Montserrat", 28, "auto", { letterSpacing: 0.2 })),
    ],
    0,
  ),

  template(
    "std-text-only-two-tone-11",
    "text-only",
    "Two-tone headline",
    ["Minimal", "Blog"],
    "pin-dark",
    [
      rect("top", "Top colour", [0, 0, 1000, 880], "pin"),
      title([80, 110, 840, 680], { lineHeight: 1.05 }),
      path("arrow", "Arrow", [470, 830, 60, 100], "M0 0 L100 0 L100 60 L50 100 L0 60 Z", "pin"),
      description([110, 990, 780, 260], body("Lato", 32, "#ffffff", { align: "center" })),
      url([110, 1330, 780, 44], small("Lato", 24, "pin-light", { letterSpacing: 0.3 })),
    ],
    0,
  ),

  template(
    "std-text-only-arch-12",
    "text-only",
    "Arch headline",
    ["Home", "Elegant"],
    CREAM,
    [
      arch("arch", "Arch", [110, 170, 780, 780], "pin"),
      rect("arch-base", "Arch base", [110, 948, 780, 352], "pin"),
      path("sparkle", "Sparkle", [470, 250, 60, 60], PATHS.sparkle, "pin-light"),
      title([170, 400, 660, 620], { lineHeight: 1.05 }),
      url([170, 1140, 660, 44], small("Nunito", 24, "auto", { letterSpacing: 0.2 })),
      brand([110, 1360, 780, 40], small("Nunito", 24, "pin-dark", { letterSpacing: 0.35 })),
    ],
    0,
  ),
];
