import { brand, ellipse, path, PATHS, photo, rect, small, template, title, url, type StandardTemplateSeed } from "./kit.ts";

/** Two to four of the post's photos together (imageSlots says how many). */

const DARK = "#1d2226";
const CREAM = "#fbf7f0";

export const COLLAGE_TEMPLATES: StandardTemplateSeed[] = [
  template("std-collage-two-band-01", "collage", "Two photos with middle band", ["Blog", "Recipes"], "#ffffff", [
    photo("photo-1", "Photo 1", [0, 0, 1000, 600]),
    photo("photo-2", "Photo 2", [0, 900, 1000, 600], { index: 1 }),
    rect("band", "Band", [0, 600, 1000, 300], "pin"),
    title([70, 625, 860, 250], { lineHeight: 1.05 }),
    url([300, 1395, 400, 64], small("Montserrat", 22, DARK, { background: { shape: "pill", fill: "#ffffff", padding: 14 } })),
  ]),

  template("std-collage-side-by-side-02", "collage", "Two tall photos", ["Home", "Minimal"], "#ffffff", [
    photo("photo-1", "Photo 1", [0, 0, 496, 960]),
    photo("photo-2", "Photo 2", [504, 0, 496, 960], { index: 1 }),
    rect("stripe", "Stripe", [0, 960, 1000, 14], "pin"),
    brand([80, 1015, 840, 34], small("Raleway", 20, "pin-dark", { letterSpacing: 0.4 })),
    title([80, 1065, 840, 280], { fontFamily: "Raleway", uppercase: true, color: DARK, lineHeight: 1.12 }),
    url([80, 1390, 840, 40], small("Raleway", 22, "#666666", { letterSpacing: 0.25 })),
  ]),

  template("std-collage-hero-three-03", "collage", "Hero photo and two below", ["Recipes", "Bold"], "#ffffff", [
    photo("photo-1", "Photo 1", [0, 0, 1000, 760]),
    photo("photo-2", "Photo 2", [0, 1060, 496, 440], { index: 1 }),
    photo("photo-3", "Photo 3", [504, 1060, 496, 440], { index: 2 }),
    rect("band", "Band", [0, 760, 1000, 300], "pin-dark"),
    title([70, 785, 860, 250], { color: "#ffffff", lineHeight: 1.05 }),
    brand([320, 60, 360, 60], small("Montserrat", 20, DARK, { background: { shape: "pill", fill: "#ffffff", padding: 14 }, letterSpacing: 0.25 })),
  ]),

  template("std-collage-grid-badge-04", "collage", "Four-photo grid with round badge", ["Home", "Bold"], "#ffffff", [
    photo("photo-1", "Photo 1", [0, 0, 496, 746]),
    photo("photo-2", "Photo 2", [504, 0, 496, 746], { index: 1 }),
    photo("photo-3", "Photo 3", [0, 754, 496, 746], { index: 2 }),
    photo("photo-4", "Photo 4", [504, 754, 496, 746], { index: 3 }),
    ellipse("badge-ring", "Badge ring", [180, 430, 640, 640], "#ffffff"),
    ellipse("badge", "Badge", [200, 450, 600, 600], "pin"),
    title([275, 590, 450, 300], { lineHeight: 1.05 }),
    url([300, 905, 400, 36], small("Montserrat", 20, "auto", { letterSpacing: 0.1 })),
  ]),

  template("std-collage-grid-band-05", "collage", "Four-photo grid with white band", ["Minimal", "Home"], "#ffffff", [
    photo("photo-1", "Photo 1", [0, 0, 500, 750]),
    photo("photo-2", "Photo 2", [500, 0, 500, 750], { index: 1 }),
    photo("photo-3", "Photo 3", [0, 750, 500, 750], { index: 2 }),
    photo("photo-4", "Photo 4", [500, 750, 500, 750], { index: 3 }),
    rect("band", "Band", [0, 570, 1000, 360], "#ffffff"),
    rect("band-line", "Band line", [0, 570, 1000, 12], "pin"),
    title([70, 610, 860, 230], { fontFamily: "Archivo Black", fontWeight: 400, uppercase: true, color: DARK, lineHeight: 1.08 }),
    url([70, 862, 860, 36], small("Montserrat", 22, "pin-dark", { letterSpacing: 0.25 })),
  ]),

  template("std-collage-three-strips-06", "collage", "Three photo strips", ["Travel", "Bold"], "pin-dark", [
    photo("photo-1", "Photo 1", [0, 0, 330, 1000]),
    photo("photo-2", "Photo 2", [335, 0, 330, 1000], { index: 1 }),
    photo("photo-3", "Photo 3", [670, 0, 330, 1000], { index: 2 }),
    title([70, 1050, 860, 290], { color: "#ffffff", lineHeight: 1.05 }),
    url([70, 1385, 860, 44], small("Montserrat", 24, "pin-light", { letterSpacing: 0.25 })),
  ]),

  template("std-collage-mosaic-07", "collage", "Mosaic of three", ["Recipes", "Blog"], "#ffffff", [
    photo("photo-1", "Photo 1", [0, 0, 594, 1080]),
    photo("photo-2", "Photo 2", [602, 0, 398, 536], { index: 1 }),
    photo("photo-3", "Photo 3", [602, 544, 398, 536], { index: 2 }),
    rect("panel", "Panel", [0, 1080, 1000, 420], "pin"),
    title([70, 1110, 860, 275], { lineHeight: 1.05 }),
    url([70, 1405, 860, 44], small("Nunito", 24, "auto", { letterSpacing: 0.15 })),
  ]),

  template("std-collage-overlap-08", "collage", "Two overlapping photos", ["Elegant", "Home"], "pin-light", [
    title([70, 70, 860, 320], { fontFamily: "Playfair Display", uppercase: false, color: "pin-dark", lineHeight: 1.16 }),
    rect("frame-1", "Frame 1", [70, 420, 560, 690], "#ffffff"),
    photo("photo-1", "Photo 1", [86, 436, 528, 658]),
    rect("frame-2", "Frame 2", [370, 680, 560, 690], "#ffffff"),
    photo("photo-2", "Photo 2", [386, 696, 528, 658], { index: 1 }),
    url([70, 1405, 860, 44], small("Lato", 22, "pin-dark", { letterSpacing: 0.3 })),
  ]),

  template("std-collage-rounded-four-09", "collage", "Headline and four rounded photos", ["Blog", "Lists"], "#ffffff", [
    rect("header", "Header", [0, 0, 1000, 700], "pin"),
    title([70, 60, 860, 340], { lineHeight: 1.05 }),
    url([70, 425, 860, 40], small("Montserrat", 22, "auto", { letterSpacing: 0.2 })),
    photo("photo-1", "Photo 1", [60, 520, 430, 430], { radius: 24 }),
    photo("photo-2", "Photo 2", [510, 520, 430, 430], { index: 1, radius: 24 }),
    photo("photo-3", "Photo 3", [60, 970, 430, 430], { index: 2, radius: 24 }),
    photo("photo-4", "Photo 4", [510, 970, 430, 430], { index: 3, radius: 24 }),
    brand([70, 1425, 860, 40], small("Montserrat", 22, "pin-dark", { letterSpacing: 0.3 })),
  ]),

  template("std-collage-circles-10", "collage", "Three round photos", ["Elegant", "Recipes"], CREAM, [
    ellipse("ring-1", "Ring 1", [185, 45, 630, 630], "pin"),
    photo("photo-1", "Photo 1", [200, 60, 600, 600], { radius: 300 }),
    ellipse("ring-2", "Ring 2", [75, 555, 410, 410], CREAM),
    photo("photo-2", "Photo 2", [90, 570, 380, 380], { index: 1, radius: 190 }),
    ellipse("ring-3", "Ring 3", [515, 555, 410, 410], CREAM),
    photo("photo-3", "Photo 3", [530, 570, 380, 380], { index: 2, radius: 190 }),
    title([80, 1020, 840, 310], { fontFamily: "Playfair Display", uppercase: false, color: "pin-dark", lineHeight: 1.16 }),
    url([80, 1375, 840, 40], small("Lato", 22, "pin-dark", { letterSpacing: 0.3 })),
  ]),

  template("std-collage-film-11", "collage", "Hero with photo strip", ["Travel", "Bold"], DARK, [
    photo("photo-1", "Photo 1", [0, 0, 1000, 880]),
    photo("photo-2", "Photo 2", [40, 920, 293, 230], { index: 1, radius: 10 }),
    photo("photo-3", "Photo 3", [353, 920, 294, 230], { index: 2, radius: 10 }),
    photo("photo-4", "Photo 4", [667, 920, 293, 230], { index: 3, radius: 10 }),
    title([60, 1185, 880, 225], { fontFamily: "Oswald", uppercase: true, color: "#ffffff", lineHeight: 1.15 }),
    url([60, 1425, 880, 40], small("Oswald", 24, "pin", { fontWeight: 400, letterSpacing: 0.3 })),
  ]),

  template("std-collage-inset-12", "collage", "Photo with inset photo", ["Home", "Blog"], "#ffffff", [
    photo("photo-1", "Photo 1", [0, 0, 1000, 1500]),
    rect("inset-frame", "Inset frame", [560, 80, 380, 500], "#ffffff"),
    photo("photo-2", "Photo 2", [576, 96, 348, 468], { index: 1 }),
    rect("panel", "Panel", [0, 1060, 1000, 440], "pin", { opacity: 0.95 }),
    brand([70, 1100, 860, 36], small("Poppins", 20, "auto", { letterSpacing: 0.3 })),
    title([70, 1150, 860, 240], { lineHeight: 1.05 }),
    url([70, 1410, 860, 40], small("Poppins", 22, "auto", { letterSpacing: 0.1 })),
  ]),

  template("std-collage-scrapbook-13", "collage", "Scrapbook collage", ["Home", "Elegant"], "#f4efe8", [
    rect("frame-1", "Frame 1", [60, 80, 520, 700], "#ffffff"),
    photo("photo-1", "Photo 1", [76, 96, 488, 668]),
    rect("frame-2", "Frame 2", [610, 80, 330, 330], "#ffffff"),
    photo("photo-2", "Photo 2", [626, 96, 298, 298], { index: 1 }),
    rect("frame-3", "Frame 3", [610, 450, 330, 330], "#ffffff"),
    photo("photo-3", "Photo 3", [626, 466, 298, 298], { index: 2 }),
    rect("tape-1", "Tape", [240, 56, 170, 46], "pin", { rotation: -6, opacity: 0.8 }),
    rect("tape-2", "Tape", [860, 60, 110, 40], "pin-light", { rotation: 38, opacity: 0.9 }),
    title([70, 850, 860, 400], { fontFamily: "Dancing Script", uppercase: false, color: "pin-dark", lineHeight: 1.3 }),
    path("heart", "Heart", [480, 1290, 40, 36], PATHS.heart, "pin"),
    url([70, 1360, 860, 44], small("Lato", 22, DARK, { letterSpacing: 0.3 })),
  ]),
];
