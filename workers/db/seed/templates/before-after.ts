import {
  body,
  description,
  ellipse,
  label,
  path,
  PATHS,
  photo,
  rect,
  small,
  template,
  title,
  url,
  type Box,
  type ColorInput,
  type FillInput,
  type LayerInput,
  type StandardTemplateSeed,
  type TextStyleInput,
} from "./kit.ts";

/** Before and after: the post's first photo is "before", the second "after". */

const DARK = "#1d2226";

const before = (box: Box, options: { radius?: number } = {}) => photo("before", "Before photo", box, { index: 0, ...options });
const after = (box: Box, options: { radius?: number } = {}) => photo("after", "After photo", box, { index: 1, ...options });

/** The "Before" / "After" words on a pill. */
function tag(which: "before" | "after", box: Box, fill: FillInput, color: ColorInput = "auto", font = "Montserrat", extra: TextStyleInput = {}): LayerInput {
  const words = which === "before" ? "Before" : "After";
  return label(
    `${which}-label`,
    `${words} label`,
    words,
    box,
    small(font, 24, color, { background: { shape: "pill", fill, padding: 16 }, letterSpacing: 0.25, ...extra }),
  );
}

/** The round slider handle on a before/after divide. */
function handle(cx: number, cy: number, size = 120): LayerInput[] {
  const r = size / 2;
  return [
    ellipse("handle", "Slider handle", [cx - r, cy - r, size, size], "#ffffff"),
    path("handle-left", "Handle arrow", [cx - r * 0.62, cy - r * 0.32, r * 0.5, r * 0.64], "M100 0 L0 50 L100 100 Z", "pin-dark"),
    path("handle-right", "Handle arrow", [cx + r * 0.12, cy - r * 0.32, r * 0.5, r * 0.64], "M0 0 L100 50 L0 100 Z", "pin-dark"),
  ];
}

export const BEFORE_AFTER_TEMPLATES: StandardTemplateSeed[] = [
  template(
    "std-before-after-stacked-01",
    "before-after",
    "Before and after with middle band",
    ["Home", "Bold"],
    "#ffffff",
    [
      before([0, 0, 1000, 600]),
      after([0, 900, 1000, 600]),
      rect("band", "Band", [0, 600, 1000, 300], "pin"),
      title([70, 625, 860, 250], { lineHeight: 1.05 }),
      tag("before", [40, 40, 220, 64], "#ffffff", DARK),
      tag("after", [40, 1396, 220, 64], "pin-dark", "#ffffff"),
    ],
    2,
  ),

  template(
    "std-before-after-slider-02",
    "before-after",
    "Side by side with slider",
    ["Home", "Minimal"],
    "#ffffff",
    [
      before([0, 0, 500, 1050]),
      after([500, 0, 500, 1050]),
      rect("divide", "Divide", [496, 0, 8, 1050], "#ffffff"),
      ...handle(500, 525),
      tag("before", [30, 30, 200, 60], "#000000a6", "#ffffff"),
      tag("after", [770, 30, 200, 60], "#000000a6", "#ffffff"),
      title([70, 1100, 860, 270], { color: "pin-dark", lineHeight: 1.05 }),
      url([70, 1400, 860, 44], small("Montserrat", 24, "pin-dark", { letterSpacing: 0.25 })),
    ],
    2,
  ),

  template(
    "std-before-after-header-03",
    "before-after",
    "Headline over before and after",
    ["Home", "Bold"],
    "#ffffff",
    [
      rect("header", "Header", [0, 0, 1000, 420], "pin-dark"),
      title([70, 50, 860, 320], { fontFamily: "Bebas Neue", fontWeight: 400, uppercase: true, color: "#ffffff", lineHeight: 1 }),
      before([0, 420, 1000, 540]),
      after([0, 966, 1000, 534]),
      label("before-label", "Before label", "Before", [0, 460, 250, 84], {
        fontFamily: "Bebas Neue",
        fontWeight: 400,
        fontSize: 52,
        color: "#ffffff",
        background: { shape: "rect", fill: DARK, padding: 14 },
        letterSpacing: 0.1,
        lineHeight: 1,
      }),
      label("after-label", "After label", "After", [0, 1006, 250, 84], {
        fontFamily: "Bebas Neue",
        fontWeight: 400,
        fontSize: 52,
        color: "auto",
        background: { shape: "rect", fill: "pin", padding: 14 },
        letterSpacing: 0.1,
        lineHeight: 1,
      }),
    ],
    2,
  ),

  template(
    "std-before-after-cards-04",
    "before-after",
    "Before and after cards",
    ["Home", "Elegant"],
    "pin-light",
    [
      title([70, 70, 860, 290], { fontFamily: "Playfair Display", uppercase: false, color: "pin-dark", lineHeight: 1.16 }),
      label("before-label", "Before label", "Before", [60, 400, 430, 50], small("Raleway", 26, "pin-dark", { letterSpacing: 0.5 })),
      label("after-label", "After label", "After", [510, 400, 430, 50], small("Raleway", 26, "pin-dark", { letterSpacing: 0.5 })),
      rect("before-frame", "Before frame", [60, 470, 430, 640], "#ffffff", { radius: 20 }),
      before([74, 484, 402, 612], { radius: 12 }),
      rect("after-frame", "After frame", [510, 470, 430, 640], "#ffffff", { radius: 20 }),
      after([524, 484, 402, 612], { radius: 12 }),
      ellipse("arrow-disc", "Arrow disc", [445, 735, 110, 110], "pin"),
      path("arrow", "Arrow", [470, 765, 60, 50], PATHS.arrow, "#ffffff"),
      description([100, 1160, 800, 190], body("Raleway", 30, DARK, { align: "center" })),
      url([70, 1400, 860, 40], small("Raleway", 22, "pin-dark", { letterSpacing: 0.35 })),
    ],
    2,
  ),

  template(
    "std-before-after-full-05",
    "before-after",
    "Full-height halves",
    ["Home", "Bold"],
    "#000000",
    [
      before([0, 0, 500, 1500]),
      after([500, 0, 500, 1500]),
      rect("divide", "Divide", [497, 0, 6, 880], "#ffffff"),
      rect("fade", "Shade", [0, 900, 1000, 600], { from: "#00000000", to: "#000000e6", angle: 180 }),
      tag("before", [40, 40, 210, 64], "#ffffff", DARK, "Oswald", { fontWeight: 400 }),
      tag("after", [750, 40, 210, 64], "pin", "auto", "Oswald", { fontWeight: 400 }),
      title([70, 1120, 860, 260], { fontFamily: "Oswald", uppercase: true, color: "#ffffff", lineHeight: 1.15 }),
      url([70, 1400, 860, 44], small("Oswald", 24, "pin-light", { fontWeight: 400, letterSpacing: 0.3 })),
    ],
    2,
  ),

  template(
    "std-before-after-polaroids-06",
    "before-after",
    "Before and after polaroids",
    ["Home", "Blog"],
    "pin",
    [
      rect("before-frame", "Before frame", [60, 50, 540, 560], "#ffffff", { radius: 6 }),
      before([80, 70, 500, 420]),
      label("before-label", "Before label", "Before", [100, 498, 300, 90], {
        fontFamily: "Dancing Script",
        fontSize: 60,
        color: DARK,
        uppercase: false,
        align: "left",
        lineHeight: 1.25,
      }),
      path("arrow", "Arrow", [110, 720, 230, 120], PATHS.arrow, "pin-dark", { rotation: 30 }),
      rect("after-frame", "After frame", [400, 540, 540, 560], "#ffffff", { radius: 6 }),
      after([420, 560, 500, 420]),
      label("after-label", "After label", "After", [600, 988, 300, 90], {
        fontFamily: "Dancing Script",
        fontSize: 60,
        color: "pin-dark",
        uppercase: false,
        align: "right",
        lineHeight: 1.25,
      }),
      title([60, 1140, 880, 270], { lineHeight: 1.05 }),
      url([60, 1430, 880, 36], small("Montserrat", 22, "auto", { letterSpacing: 0.25 })),
    ],
    2,
  ),

  template(
    "std-before-after-dark-07",
    "before-after",
    "Before and after on dark",
    ["Home", "Bold"],
    DARK,
    [
      title([60, 60, 880, 250], { fontFamily: "Bebas Neue", fontWeight: 400, uppercase: true, align: "left", color: "#ffffff", lineHeight: 1 }),
      before([60, 350, 560, 520]),
      label("before-label", "Before label", "Before", [640, 560, 300, 100], {
        fontFamily: "Bebas Neue",
        fontWeight: 400,
        fontSize: 96,
        color: "#ffffff",
        align: "left",
        lineHeight: 1,
      }),
      after([380, 900, 560, 520]),
      label("after-label", "After label", "After", [60, 1110, 300, 100], {
        fontFamily: "Bebas Neue",
        fontWeight: 400,
        fontSize: 96,
        color: "pin",
        align: "right",
        lineHeight: 1,
      }),
      rect("rule", "Rule", [640, 670, 90, 8], "#ffffff"),
      rect("rule-after", "Rule", [270, 1220, 90, 8], "pin"),
      url([60, 1445, 880, 36], small("Montserrat", 22, "pin-light", { align: "left", letterSpacing: 0.3 })),
    ],
    2,
  ),

  template(
    "std-before-after-inset-08",
    "before-after",
    "After photo with before inset",
    ["Home", "Minimal"],
    "#ffffff",
    [
      after([0, 0, 1000, 1160]),
      ellipse("before-ring", "Before ring", [50, 50, 400, 400], "#ffffff"),
      before([65, 65, 370, 370], { radius: 185 }),
      tag("before", [130, 460, 240, 64], "#ffffff", DARK),
      tag("after", [720, 60, 220, 64], "pin", "auto"),
      rect("panel", "Panel", [0, 1160, 1000, 340], "#ffffff"),
      rect("panel-line", "Panel line", [0, 1160, 1000, 10], "pin"),
      title([70, 1195, 860, 220], { fontFamily: "Montserrat", uppercase: true, color: DARK, lineHeight: 1.1 }),
      url([70, 1430, 860, 40], small("Montserrat", 22, "pin-dark", { letterSpacing: 0.25 })),
    ],
    2,
  ),

  template(
    "std-before-after-arrow-09",
    "before-after",
    "Stacked with arrow",
    ["Home", "Blog"],
    "#ffffff",
    [
      title([60, 50, 880, 240], { fontFamily: "Archivo Black", fontWeight: 400, uppercase: true, color: DARK, lineHeight: 1.08 }),
      before([60, 320, 880, 520], { radius: 24 }),
      after([60, 880, 880, 520], { radius: 24 }),
      ellipse("arrow-ring", "Arrow ring", [420, 780, 160, 160], "#ffffff"),
      ellipse("arrow-disc", "Arrow disc", [432, 792, 136, 136], "pin"),
      path("arrow", "Arrow", [470, 825, 60, 70], "M38 0 L62 0 L62 58 L90 58 L50 100 L10 58 L38 58 Z", "#ffffff"),
      tag("before", [90, 350, 200, 60], "#ffffff", DARK),
      tag("after", [90, 1310, 200, 60], "pin-dark", "#ffffff"),
      url([60, 1430, 880, 40], small("Montserrat", 22, "pin-dark", { letterSpacing: 0.25 })),
    ],
    2,
  ),

  template(
    "std-before-after-bars-10",
    "before-after",
    "Before and after with label bars",
    ["Home", "Elegant"],
    "#ffffff",
    [
      before([0, 0, 497, 820]),
      after([503, 0, 497, 820]),
      rect("before-bar", "Before bar", [0, 740, 497, 80], DARK),
      rect("after-bar", "After bar", [503, 740, 497, 80], "pin"),
      label("before-label", "Before label", "Before", [0, 755, 497, 50], small("Raleway", 30, "#ffffff", { letterSpacing: 0.5 })),
      label("after-label", "After label", "After", [503, 755, 497, 50], small("Raleway", 30, "auto", { letterSpacing: 0.5 })),
      title([80, 880, 840, 330], { fontFamily: "Playfair Display", uppercase: false, color: DARK, lineHeight: 1.16 }),
      rect("rule", "Rule", [450, 1245, 100, 3], "pin"),
      url([80, 1280, 840, 40], small("Raleway", 22, "pin-dark", { letterSpacing: 0.35 })),
      description([120, 1340, 760, 120], body("Raleway", 26, "#555555", { align: "center" })),
    ],
    2,
  ),
];
