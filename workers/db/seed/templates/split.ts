import { body, brand, ellipse, frame, path, PATHS, photo, rect, small, template, title, url, wave, type StandardTemplateSeed } from "./kit.ts";

/** The pin split between one photo and a panel for the words. */

const DARK = "#1d2226";
const CREAM = "#f6f1ea";

export const SPLIT_TEMPLATES: StandardTemplateSeed[] = [
  template("std-split-photo-top-01", "split", "Photo over colour panel", ["Blog", "Recipes"], "pin", [
    photo("photo", "Photo", [0, 0, 1000, 860]),
    brand([80, 915, 840, 36], small("Montserrat", 22, "auto", { letterSpacing: 0.35 })),
    title([80, 970, 840, 340], { lineHeight: 1.08 }),
    rect("rule", "Rule", [450, 1335, 100, 5], "pin-dark", { radius: 3 }),
    url([80, 1370, 840, 44], small("Montserrat", 26)),
  ]),

  template("std-split-headline-top-02", "split", "Headline over photo", ["Elegant", "Home"], "pin-light", [
    brand([80, 95, 840, 34], small("Raleway", 20, "pin-dark", { letterSpacing: 0.45 })),
    title([80, 150, 840, 370], { fontFamily: "Playfair Display", uppercase: false, color: "pin-dark", lineHeight: 1.16 }),
    rect("rule", "Rule", [440, 555, 120, 4], "pin"),
    url([80, 585, 840, 40], small("Raleway", 22, "pin-dark", { letterSpacing: 0.25 })),
    photo("photo", "Photo", [0, 680, 1000, 820]),
  ]),

  template("std-split-columns-03", "split", "Photo column and colour column", ["Home", "Bold"], "pin", [
    photo("photo", "Photo", [0, 0, 520, 1500]),
    brand([565, 130, 390, 36], small("Montserrat", 20, "auto", { letterSpacing: 0.3 })),
    rect("rule-top", "Rule", [730, 190, 60, 5], "pin-dark"),
    title([565, 300, 390, 860], { lineHeight: 1.1 }),
    rect("rule", "Rule", [730, 1270, 60, 5], "pin-dark"),
    url([565, 1310, 390, 40], small("Montserrat", 20, "auto", { letterSpacing: 0.08 })),
  ]),

  template("std-split-capsule-04", "split", "Capsule photo on cream", ["Elegant", "Home"], CREAM, [
    frame("outline", "Offset outline", [185, 115, 700, 900], "pin", 4, 350),
    photo("photo", "Photo", [150, 80, 700, 900], { radius: 350 }),
    path("sparkle", "Sparkle", [90, 150, 80, 80], PATHS.sparkle, "pin-dark"),
    title([90, 1040, 820, 290], { fontFamily: "Playfair Display", uppercase: false, color: DARK, lineHeight: 1.16 }),
    url([90, 1375, 820, 40], small("Lato", 22, "pin-dark", { letterSpacing: 0.3 })),
  ]),

  template("std-split-wedge-05", "split", "Headline wedge over photo", ["Bold", "Travel"], "#ffffff", [
    photo("photo", "Photo", [0, 440, 1000, 1060]),
    rect("panel", "Headline panel", [0, 0, 1000, 530], "pin-dark"),
    path("wedge", "Wedge", [0, 529, 1000, 170], "M0 0 L100 0 L0 100 Z", "pin-dark"),
    brand([80, 75, 840, 34], small("Oswald", 24, "pin-light", { align: "left", fontWeight: 400, letterSpacing: 0.3 })),
    title([80, 130, 840, 360], { fontFamily: "Oswald", uppercase: true, align: "left", color: "#ffffff", lineHeight: 1.15 }),
    url([80, 1380, 420, 64], small("Oswald", 24, DARK, { fontWeight: 400, background: { shape: "pill", fill: "#ffffff", padding: 14 } })),
  ]),

  template("std-split-arch-06", "split", "Arched photo window", ["Home", "Minimal"], "pin-light", [
    photo("photo", "Photo", [130, 110, 740, 880]),
    path("arch-mask", "Arch mask", [129, 109, 742, 372], PATHS.archMask, "pin-light"),
    path("sparkle-1", "Sparkle", [70, 200, 70, 70], PATHS.sparkle, "pin"),
    path("sparkle-2", "Small sparkle", [880, 820, 44, 44], PATHS.sparkle, "pin"),
    title([90, 1030, 820, 300], { color: "pin-dark", lineHeight: 1.08 }),
    url([90, 1370, 820, 44], small("Nunito", 24, "pin-dark", { letterSpacing: 0.15 })),
  ]),

  template("std-split-wave-07", "split", "Photo with wavy edge", ["Recipes", "Blog"], "pin", [
    photo("photo", "Photo", [0, 0, 1000, 960]),
    wave("wave", "Wave", [0, 780, 1000, 280], "pin"),
    title([80, 1040, 840, 290], { lineHeight: 1.06 }),
    url([80, 1375, 840, 44], small("Poppins", 24, "auto", { letterSpacing: 0.1 })),
  ]),

  template("std-split-stripe-08", "split", "Photo, stripe and headline", ["Minimal", "Blog"], "#ffffff", [
    photo("photo", "Photo", [0, 0, 1000, 890]),
    rect("stripe", "Stripe", [0, 890, 1000, 26], "pin"),
    brand([80, 975, 840, 34], small("Montserrat", 20, "pin-dark", { letterSpacing: 0.4 })),
    title([80, 1030, 840, 290], { fontFamily: "Montserrat", uppercase: true, color: DARK, lineHeight: 1.1 }),
    url([80, 1375, 840, 40], small("Montserrat", 22, "#666666", { letterSpacing: 0.2 })),
  ]),

  template("std-split-round-photo-09", "split", "Colour block with round photo", ["Recipes", "Home"], "#ffffff", [
    rect("block", "Colour block", [0, 0, 1000, 620], "pin"),
    brand([80, 95, 840, 40], small("Nunito", 26, "auto", { letterSpacing: 0.3 })),
    ellipse("ring", "Photo ring", [205, 255, 590, 590], "#ffffff"),
    photo("photo", "Photo", [230, 280, 540, 540], { radius: 270 }),
    title([80, 890, 840, 380], { color: "pin-dark", lineHeight: 1.08 }),
    url([80, 1350, 840, 44], small("Nunito", 24, "pin-dark", { letterSpacing: 0.15 })),
  ]),

  template("std-split-serif-column-10", "split", "Serif column beside photo", ["Minimal", "Blog"], "#ffffff", [
    photo("photo", "Photo", [470, 50, 480, 1400], { radius: 240 }),
    rect("rule-top", "Rule", [50, 110, 60, 6], "pin"),
    brand([50, 140, 390, 34], small("Lato", 20, "pin-dark", { align: "left", letterSpacing: 0.3 })),
    title([50, 260, 390, 940], { fontFamily: "Abril Fatface", fontWeight: 400, uppercase: false, align: "left", color: DARK, lineHeight: 1.2 }),
    rect("rule", "Rule", [50, 1290, 60, 6], "pin"),
    url([50, 1320, 390, 34], small("Lato", 18, "#666666", { align: "left", letterSpacing: 0.1 })),
  ]),

  template("std-split-dark-11", "split", "Dark headline with rounded photo", ["Bold", "Travel"], DARK, [
    title([70, 80, 860, 400], { fontFamily: "Bebas Neue", fontWeight: 400, uppercase: true, align: "left", color: "#ffffff", lineHeight: 0.98 }),
    rect("rule", "Rule", [70, 515, 140, 10], "pin"),
    photo("photo", "Photo", [70, 570, 860, 790], { radius: 30 }),
    url([70, 1395, 860, 44], small("Montserrat", 24, "pin-light", { align: "left", letterSpacing: 0.25 })),
  ]),

  template("std-split-overlap-card-12", "split", "Photo with overlapping card", ["Blog", "Home"], "pin-light", [
    photo("photo", "Photo", [0, 0, 1000, 1000]),
    rect("card", "Card", [80, 820, 840, 580], "#ffffff", { radius: 12 }),
    rect("card-bar", "Card accent", [80, 820, 16, 580], "pin"),
    brand([140, 875, 730, 34], small("Poppins", 20, "pin-dark", { align: "left", letterSpacing: 0.25 })),
    title([140, 930, 730, 330], { fontFamily: "Poppins", uppercase: false, align: "left", color: DARK, lineHeight: 1.2 }),
    url([140, 1305, 730, 40], small("Poppins", 22, "#555555", { align: "left", uppercase: false, letterSpacing: 0.02 })),
  ]),

  template("std-split-polaroid-13", "split", "Headline and polaroid", ["Blog", "Travel"], "pin", [
    title([80, 80, 840, 360], { lineHeight: 1.05 }),
    rect("polaroid", "Polaroid", [90, 490, 820, 960], "#ffffff", { radius: 6 }),
    photo("photo", "Photo", [125, 525, 750, 760]),
    url([125, 1310, 750, 100], body("Dancing Script", 52, DARK, { fontWeight: 700, lineHeight: 1.2, align: "center" })),
  ]),
];
