import {
  brand,
  ellipse,
  frame,
  label,
  path,
  PATHS,
  photo,
  price,
  rect,
  small,
  template,
  title,
  url,
  type StandardTemplateSeed,
  type TextStyleInput,
} from "./kit.ts";

/** Product pins: the photo, the name and the price on a badge, tag or bar. */

const DARK = "#1d2226";
const CREAM = "#f7f4ef";

/** A price set to fill its badge. */
const priceStyle = (font: string, color: TextStyleInput["color"] = "auto", extra: TextStyleInput = {}): TextStyleInput => ({
  fontFamily: font,
  fontSize: "auto",
  fontWeight: 700,
  color,
  uppercase: false,
  lineHeight: 1.05,
  ...extra,
});

/** A "Shop now" button. */
const button = (box: readonly [number, number, number, number], fill: TextStyleInput["color"] = DARK, font = "Montserrat", words = "Shop now") =>
  label("button", "Shop button", words, box, small(font, 24, "auto", { background: { shape: "pill", fill: fill ?? DARK, padding: 20 }, letterSpacing: 0.2 }));

export const PRODUCT_TEMPLATES: StandardTemplateSeed[] = [
  template("std-product-card-01", "product", "Product card with price badge", ["Shop", "Minimal"], "#efefec", [
    rect("card", "Card", [60, 60, 880, 1380], "#ffffff", { radius: 36 }),
    photo("photo", "Photo", [100, 100, 800, 800], { radius: 26 }),
    ellipse("badge", "Price badge", [690, 40, 240, 240], "pin"),
    price([715, 105, 190, 110], priceStyle("Montserrat")),
    brand([120, 950, 760, 36], small("Montserrat", 22, "#777777", { letterSpacing: 0.3 })),
    title([120, 1000, 760, 240], { fontFamily: "Poppins", uppercase: false, color: DARK, lineHeight: 1.2 }),
    button([310, 1290, 380, 90]),
  ]),

  template("std-product-full-02", "product", "Full photo with price pill", ["Shop", "Bold"], "#ffffff", [
    photo("photo", "Photo", [0, 0, 1000, 1500]),
    price([60, 60, 300, 120], priceStyle("Poppins", "auto", { background: { shape: "pill", fill: "pin", padding: 24 } })),
    rect("panel", "Panel", [0, 1120, 1000, 380], "#ffffff"),
    rect("panel-line", "Panel line", [0, 1120, 1000, 12], "pin"),
    brand([70, 1170, 860, 36], small("Poppins", 22, "pin-dark", { align: "left", letterSpacing: 0.3 })),
    title([70, 1220, 860, 200], { fontFamily: "Poppins", uppercase: false, align: "left", color: DARK, lineHeight: 1.2 }),
    url([70, 1430, 860, 36], small("Poppins", 22, "#666666", { align: "left", letterSpacing: 0.1 })),
  ]),

  template("std-product-matte-03", "product", "Matted product on soft colour", ["Shop", "Elegant"], "pin-light", [
    rect("matte", "Matte", [100, 100, 800, 800], "#ffffff"),
    photo("photo", "Photo", [135, 135, 730, 730]),
    brand([100, 950, 800, 36], small("Raleway", 22, "pin-dark", { letterSpacing: 0.45 })),
    title([100, 1000, 800, 230], { fontFamily: "Playfair Display", uppercase: false, color: DARK, lineHeight: 1.16 }),
    rect("rule", "Rule", [450, 1255, 100, 3], "pin-dark"),
    price([300, 1280, 400, 110], priceStyle("Playfair Display", "pin-dark", { fontSize: 80, lineHeight: 1.2 })),
  ]),

  template("std-product-burst-04", "product", "Price burst", ["Shop", "Bold"], "#ffffff", [
    photo("photo", "Photo", [0, 0, 1000, 1000]),
    path("burst", "Price burst", [640, 780, 320, 320], PATHS.burst, "pin"),
    price([700, 870, 200, 140], priceStyle("Archivo Black", "auto", { fontWeight: 400 })),
    title([70, 1110, 860, 250], { fontFamily: "Archivo Black", fontWeight: 400, uppercase: true, align: "left", color: DARK, lineHeight: 1.08 }),
    url([70, 1400, 860, 40], small("Montserrat", 24, "pin-dark", { align: "left", letterSpacing: 0.25 })),
  ]),

  template("std-product-split-05", "product", "Photo with shop column", ["Shop", "Bold"], "pin-dark", [
    photo("photo", "Photo", [0, 0, 560, 1500]),
    brand([600, 110, 360, 64], small("Montserrat", 20, "pin-light", { letterSpacing: 0.3, lineHeight: 1.35 })),
    title([600, 260, 360, 620], { fontFamily: "Montserrat", uppercase: true, color: "#ffffff", lineHeight: 1.1 }),
    rect("rule", "Rule", [740, 930, 80, 5], "pin"),
    price([600, 980, 360, 160], priceStyle("Montserrat", "#ffffff", { fontSize: 110 })),
    button([620, 1240, 320, 90], "pin"),
  ]),

  template("std-product-tag-06", "product", "Price tag", ["Shop", "Home"], "#ffffff", [
    photo("photo", "Photo", [0, 0, 1000, 980]),
    path("tag", "Price tag", [600, 890, 360, 180], PATHS.tag, "pin"),
    ellipse("tag-hole", "Tag hole", [650, 968, 24, 24], "#ffffff"),
    price([700, 920, 240, 120], priceStyle("Montserrat")),
    brand([70, 1030, 500, 36], small("Montserrat", 22, "pin-dark", { align: "left", letterSpacing: 0.3 })),
    title([70, 1100, 860, 300], { fontFamily: "Montserrat", uppercase: false, align: "left", color: DARK, lineHeight: 1.1 }),
    url([70, 1430, 860, 36], small("Montserrat", 22, "#777777", { align: "left", letterSpacing: 0.1 })),
  ]),

  template("std-product-luxe-07", "product", "Dark luxe product", ["Shop", "Elegant"], "#121212", [
    photo("photo", "Photo", [100, 100, 800, 880]),
    frame("line", "Fine frame", [76, 76, 848, 928], "pin-light", 2),
    brand([100, 1050, 800, 36], small("Raleway", 22, "pin-light", { letterSpacing: 0.55 })),
    title([100, 1105, 800, 200], { fontFamily: "Playfair Display", fontWeight: 400, uppercase: false, color: "#ffffff", lineHeight: 1.16 }),
    price([300, 1320, 400, 110], priceStyle("Playfair Display", "pin", { fontWeight: 400, fontSize: 76, lineHeight: 1.25 })),
  ]),

  template("std-product-duo-08", "product", "Two product photos", ["Shop", "Minimal"], CREAM, [
    photo("photo-1", "Photo 1", [40, 40, 450, 700], { radius: 20 }),
    photo("photo-2", "Photo 2", [510, 40, 450, 700], { index: 1, radius: 20 }),
    ellipse("badge-ring", "Badge ring", [390, 610, 220, 220], CREAM),
    ellipse("badge", "Price badge", [405, 625, 190, 190], "pin"),
    price([425, 675, 150, 90], priceStyle("Poppins")),
    brand([80, 880, 840, 36], small("Poppins", 22, "pin-dark", { letterSpacing: 0.35 })),
    title([80, 935, 840, 290], { fontFamily: "Poppins", uppercase: false, color: DARK, lineHeight: 1.2 }),
    button([320, 1290, 360, 90], "pin-dark", "Poppins"),
  ]),

  template("std-product-new-09", "product", "New-in seal", ["Shop", "Bold"], "#ffffff", [
    photo("photo", "Photo", [0, 0, 1000, 1180]),
    path("seal", "Seal", [50, 50, 210, 210], PATHS.seal, "pin-dark"),
    label("seal-text", "Seal text", "New", [85, 110, 140, 90], { fontFamily: "Bebas Neue", fontWeight: 400, fontSize: 72, color: "#ffffff", lineHeight: 1 }),
    rect("panel", "Panel", [0, 1180, 1000, 320], "pin"),
    title([60, 1215, 620, 250], { align: "left", lineHeight: 1.08 }),
    rect("divider", "Divider", [720, 1230, 3, 220], "pin-dark"),
    price([750, 1260, 200, 160], priceStyle("Bebas Neue", "auto", { fontWeight: 400, lineHeight: 1 })),
  ]),

  template("std-product-bar-10", "product", "Price bar", ["Shop", "Recipes"], DARK, [
    photo("photo", "Photo", [0, 0, 1000, 1140]),
    rect("bar", "Bar", [0, 1140, 1000, 360], DARK),
    rect("price-block", "Price block", [700, 1140, 300, 360], "pin"),
    brand([60, 1180, 600, 36], small("Oswald", 24, "pin", { align: "left", fontWeight: 400, letterSpacing: 0.3 })),
    title([60, 1230, 600, 230], { fontFamily: "Oswald", uppercase: true, align: "left", color: "#ffffff", lineHeight: 1.15 }),
    label("price-label", "Price label", "Only", [720, 1195, 260, 40], small("Oswald", 28, "auto", { fontWeight: 400, letterSpacing: 0.3 })),
    price([720, 1250, 260, 180], priceStyle("Oswald", "auto", { lineHeight: 1.2 })),
  ]),

  template("std-product-round-11", "product", "Round product photo", ["Shop", "Home"], "pin", [
    ellipse("ring", "Photo ring", [100, 170, 800, 800], "#ffffff"),
    photo("photo", "Photo", [130, 200, 740, 740], { radius: 370 }),
    ellipse("badge", "Price badge", [690, 130, 240, 240], "pin-dark"),
    price([715, 195, 190, 110], priceStyle("Nunito", "#ffffff")),
    title([80, 1030, 840, 270], { lineHeight: 1.05 }),
    url([290, 1360, 420, 70], small("Nunito", 22, DARK, { background: { shape: "pill", fill: "#ffffff", padding: 16 } })),
  ]),

  template("std-product-catalog-12", "product", "Catalogue page", ["Shop", "Minimal"], "#ffffff", [
    brand([80, 60, 840, 50], small("Raleway", 28, DARK, { letterSpacing: 0.6 })),
    rect("rule", "Rule", [80, 130, 840, 2], DARK),
    photo("photo", "Photo", [80, 170, 840, 980]),
    title([80, 1190, 600, 190], { fontFamily: "Raleway", uppercase: false, align: "left", verticalAlign: "top", color: DARK, lineHeight: 1.15 }),
    price([700, 1190, 220, 100], priceStyle("Raleway", "pin-dark", { align: "right", verticalAlign: "top", fontSize: 70, lineHeight: 1.2 })),
    rect("rule-bottom", "Rule", [80, 1400, 840, 2], DARK),
    url([80, 1420, 840, 40], small("Raleway", 22, "#666666", { align: "left", letterSpacing: 0.3 })),
  ]),
];
