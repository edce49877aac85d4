import { brand, ellipse, frame, path, PATHS, photo, rect, small, template, title, url, wave, type StandardTemplateSeed } from "./kit.ts";

/** One photo filling the pin, with the words on a banner, card or band over it. */

const FULL = [0, 0, 1000, 1500] as const;
const DARK = "#1d2226";

export const FULL_BLEED_TEMPLATES: StandardTemplateSeed[] = [
  template("std-full-bleed-banner-01", "full-bleed", "Photo with rounded banner", ["Blog", "Bold"], "#ffffff", [
    photo("photo", "Photo", FULL),
    rect("banner", "Banner", [60, 930, 880, 480], "pin", { radius: 36, opacity: 0.96 }),
    brand([110, 975, 780, 36], small("Montserrat", 24, "auto", { letterSpacing: 0.3 })),
    title([110, 1030, 780, 260]),
    rect("rule", "Rule", [460, 1306, 80, 5], "pin-dark", { radius: 3 }),
    url([110, 1330, 780, 44], small("Montserrat", 26)),
  ]),

  template("std-full-bleed-card-02", "full-bleed", "Photo with centred card", ["Blog", "Elegant"], "#ffffff", [
    photo("photo", "Photo", FULL),
    rect("card", "Card", [110, 480, 780, 600], "#ffffff", { radius: 6 }),
    rect("accent", "Accent", [110, 480, 780, 16], "pin"),
    brand([160, 545, 680, 36], small("Lato", 22, "pin-dark", { letterSpacing: 0.35 })),
    title([160, 600, 680, 330], { fontFamily: "Playfair Display", uppercase: false, color: DARK, lineHeight: 1.16 }),
    rect("rule", "Rule", [470, 955, 60, 3], "pin"),
    url([160, 985, 680, 40], small("Lato", 22, "#555555", { letterSpacing: 0.2, uppercase: false, fontWeight: 400 })),
  ]),

  template("std-full-bleed-top-band-03", "full-bleed", "Photo under a headline band", ["Bold", "Travel"], "#ffffff", [
    photo("photo", "Photo", FULL),
    rect("band", "Headline band", [0, 0, 1000, 540], "pin-dark"),
    title([70, 80, 860, 350], { fontFamily: "Bebas Neue", fontWeight: 400, uppercase: true, lineHeight: 1, color: "#ffffff" }),
    rect("rule", "Rule", [430, 455, 140, 10], "pin"),
    url([280, 1360, 440, 76], small("Montserrat", 24, DARK, { background: { shape: "pill", fill: "#ffffff", padding: 18 } })),
  ]),

  template("std-full-bleed-fade-04", "full-bleed", "Photo fading to a headline", ["Travel", "Minimal"], "#ffffff", [
    photo("photo", "Photo", FULL),
    rect("fade", "Shade", [0, 640, 1000, 860], { from: "#00000000", to: "#000000e0", angle: 180 }),
    rect("accent", "Accent", [80, 1000, 90, 10], "pin"),
    title([80, 1035, 840, 300], { fontFamily: "Montserrat", uppercase: false, align: "left", verticalAlign: "top", color: "#ffffff", lineHeight: 1.1 }),
    url([80, 1385, 840, 40], small("Montserrat", 24, "pin-light", { align: "left", letterSpacing: 0.2 })),
  ]),

  template("std-full-bleed-panel-05", "full-bleed", "Photo with floating title panel", ["Blog", "Bold"], "#ffffff", [
    photo("photo", "Photo", FULL),
    title([90, 570, 820, 400], { background: { shape: "rect", fill: "pin", padding: 56, radius: 44 } }),
    brand([330, 485, 340, 60], small("Poppins", 20, DARK, { background: { shape: "pill", fill: "#ffffff", padding: 14 } })),
    url([290, 1380, 420, 64], small("Poppins", 22, DARK, { background: { shape: "pill", fill: "#ffffff", padding: 14 }, letterSpacing: 0.08 })),
  ]),

  template("std-full-bleed-slant-06", "full-bleed", "Photo with slanted panel", ["Bold", "Recipes"], "#ffffff", [
    photo("photo", "Photo", FULL),
    path("slant-back", "Slant accent", [0, 840, 1000, 660], PATHS.slantUp, "pin-light", { opacity: 0.9 }),
    path("slant", "Slanted panel", [0, 890, 1000, 610], PATHS.slantUp, "pin"),
    title([70, 1085, 860, 270], { align: "left", lineHeight: 1.08 }),
    url([70, 1395, 860, 44], small("Oswald", 26, "auto", { align: "left", fontWeight: 400, letterSpacing: 0.15 })),
  ]),

  template("std-full-bleed-frame-07", "full-bleed", "Framed photo with caption label", ["Home", "Elegant"], "#ffffff", [
    photo("photo", "Photo", [40, 40, 920, 1420]),
    frame("inner-line", "Inner line", [70, 70, 860, 1360], "#ffffff", 3),
    rect("label", "Caption label", [140, 1030, 720, 360], "#ffffff"),
    brand([180, 1068, 640, 34], small("Raleway", 20, "pin-dark", { letterSpacing: 0.4 })),
    title([180, 1115, 640, 205], { fontFamily: "Playfair Display", fontWeight: 400, uppercase: false, color: DARK, lineHeight: 1.16 }),
    url([180, 1335, 640, 34], small("Raleway", 20, "#666666", { letterSpacing: 0.25 })),
  ]),

  template("std-full-bleed-circle-08", "full-bleed", "Photo with round title badge", ["Recipes", "Bold"], "#ffffff", [
    photo("photo", "Photo", FULL),
    ellipse("badge-ring", "Badge ring", [100, 680, 800, 800], "#ffffff", { opacity: 0.55 }),
    ellipse("badge", "Badge", [125, 705, 750, 750], "pin"),
    title([215, 880, 570, 340], { lineHeight: 1.05 }),
    rect("rule", "Rule", [465, 1250, 70, 5], "pin-dark", { radius: 3 }),
    url([215, 1275, 570, 40], small("Nunito", 24, "auto", { letterSpacing: 0.1 })),
  ]),

  template("std-full-bleed-magazine-09", "full-bleed", "Magazine cover", ["Travel", "Elegant"], "#ffffff", [
    photo("photo", "Photo", FULL),
    rect("tint", "Tint", [0, 0, 1000, 1500], "#000000", { opacity: 0.2 }),
    rect("top-shade", "Top shade", [0, 0, 1000, 900], { from: "#000000eb", to: "#00000000", angle: 180 }),
    rect("bottom-shade", "Bottom shade", [0, 1240, 1000, 260], { from: "#00000000", to: "#000000a0", angle: 180 }),
    brand([80, 80, 840, 40], small("Montserrat", 24, "#ffffff", { align: "left", letterSpacing: 0.4 })),
    rect("rule", "Rule", [80, 138, 840, 3], "#ffffff", { opacity: 0.85 }),
    title([80, 175, 840, 400], {
      fontFamily: "Abril Fatface",
      fontWeight: 400,
      uppercase: false,
      align: "left",
      verticalAlign: "top",
      color: "#ffffff",
      lineHeight: 1.2,
    }),
    url([80, 1400, 840, 44], small("Montserrat", 24, "#ffffff", { align: "left", letterSpacing: 0.25 })),
  ]),

  template("std-full-bleed-side-panel-10", "full-bleed", "Photo with side panel", ["Home", "Bold"], "#ffffff", [
    photo("photo", "Photo", FULL),
    rect("panel", "Side panel", [0, 0, 560, 1500], "pin-dark", { opacity: 0.9 }),
    brand([60, 110, 440, 36], small("Montserrat", 22, "pin-light", { align: "left", letterSpacing: 0.3 })),
    rect("rule-top", "Rule", [60, 170, 60, 6], "pin"),
    title([60, 330, 440, 760], { align: "left", color: "#ffffff", lineHeight: 1.1 }),
    rect("rule", "Rule", [60, 1200, 60, 6], "pin"),
    url([60, 1235, 440, 40], small("Montserrat", 22, "pin-light", { align: "left", letterSpacing: 0.15 })),
  ]),

  template("std-full-bleed-wave-11", "full-bleed", "Photo with wave footer", ["Recipes", "Home"], "#ffffff", [
    photo("photo", "Photo", FULL),
    wave("wave-accent", "Wave accent", [0, 820, 1000, 680], "pin"),
    wave("wave", "Wave", [0, 870, 1000, 630], "#ffffff"),
    title([80, 1160, 840, 210], { color: "pin-dark", lineHeight: 1.05 }),
    url([80, 1395, 840, 44], small("Nunito", 24, "pin-dark", { letterSpacing: 0.15 })),
  ]),

  template("std-full-bleed-stamp-12", "full-bleed", "Photo with outlined label", ["Blog", "Minimal"], "#ffffff", [
    photo("photo", "Photo", FULL),
    rect("label", "Label", [60, 940, 640, 500], "#ffffff"),
    frame("label-line", "Label outline", [78, 958, 604, 464], "pin", 4),
    brand([115, 1000, 530, 34], small("Lato", 20, "pin-dark", { align: "left", letterSpacing: 0.3 })),
    title([115, 1050, 530, 280], { fontFamily: "Merriweather", uppercase: false, align: "left", color: DARK, lineHeight: 1.2 }),
    url([115, 1355, 530, 34], small("Lato", 20, "#555555", { align: "left", letterSpacing: 0.2 })),
  ]),

  template("std-full-bleed-band-13", "full-bleed", "Photo with shaded headline band", ["Bold", "Travel"], "#ffffff", [
    photo("photo", "Photo", FULL),
    rect("band", "Shaded band", [0, 540, 1000, 430], "#000000", { opacity: 0.58 }),
    rect("line-top", "Top line", [0, 540, 1000, 10], "pin"),
    rect("line-bottom", "Bottom line", [0, 960, 1000, 10], "pin"),
    title([70, 595, 860, 320], { fontFamily: "Anton", fontWeight: 400, uppercase: true, color: "#ffffff", lineHeight: 1.08 }),
    url([310, 1370, 380, 70], small("Oswald", 26, "auto", { fontWeight: 400, background: { shape: "pill", fill: "pin", padding: 16 } })),
  ]),

  template("std-full-bleed-corner-14", "full-bleed", "Photo with corner headline", ["Blog", "Minimal"], "#ffffff", [
    photo("photo", "Photo", FULL),
    rect("box", "Headline box", [0, 0, 740, 660], "#ffffff", { opacity: 0.95 }),
    brand([70, 70, 320, 56], small("Poppins", 18, "auto", { background: { shape: "pill", fill: "pin", padding: 14 } })),
    title([70, 160, 620, 380], { fontFamily: "Poppins", uppercase: false, align: "left", color: DARK, lineHeight: 1.2 }),
    url([70, 565, 620, 36], small("Poppins", 22, "pin-dark", { align: "left", uppercase: false, letterSpacing: 0.02 })),
  ]),

  template("std-full-bleed-glass-15", "full-bleed", "Photo with frosted card", ["Home", "Minimal"], "#ffffff", [
    photo("photo", "Photo", FULL),
    rect("card", "Frosted card", [80, 1000, 840, 420], "#ffffff", { radius: 40, opacity: 0.86 }),
    ellipse("icon-disc", "Icon disc", [440, 940, 120, 120], "pin"),
    path("icon", "Sparkle", [470, 970, 60, 60], PATHS.sparkle, "#ffffff"),
    title([130, 1085, 740, 220], { fontFamily: "Nunito", uppercase: false, color: DARK, lineHeight: 1.1 }),
    url([130, 1330, 740, 40], small("Nunito", 24, "pin-dark", { letterSpacing: 0.12 })),
  ]),

  template("std-full-bleed-ribbon-16", "full-bleed", "Photo with ribbon banner", ["Bold", "Blog"], "#ffffff", [
    photo("photo", "Photo", FULL),
    path("ribbon-shadow", "Ribbon shadow", [30, 640, 940, 300], PATHS.ribbon, "pin-dark"),
    path("ribbon", "Ribbon", [30, 620, 940, 300], PATHS.ribbon, "pin"),
    title([130, 650, 740, 240], { lineHeight: 1.05 }),
    brand([260, 90, 480, 64], small("Montserrat", 22, DARK, { background: { shape: "pill", fill: "#ffffff", padding: 16 }, letterSpacing: 0.25 })),
    url([290, 1370, 420, 64], small("Montserrat", 22, "#ffffff", { background: { shape: "pill", fill: DARK, padding: 16 } })),
  ]),
];
