import { brand, ellipse, frame, path, PATHS, photo, quote, rect, small, template, url, type StandardTemplateSeed } from "./kit.ts";

/** Quotes: the post's quotation (a blockquote on the page), never its headline; the brand signs it. Quote marks are shapes, so they keep their colour. */

const DARK = "#1d2226";
const CREAM = "#fbf7f0";
/** Attribution: the brand after a dash. */
const SIGNED = { text: "— " };

export const QUOTE_TEMPLATES: StandardTemplateSeed[] = [
  template(
    "std-quote-colour-01",
    "quote",
    "Quote on colour",
    ["Quotes", "Bold"],
    "pin",
    [
      path("marks", "Quote marks", [410, 170, 180, 150], PATHS.quote, "pin-dark"),
      quote([100, 400, 800, 700], { lineHeight: 1.1 }),
      rect("rule", "Rule", [450, 1160, 100, 5], "pin-dark", { radius: 3 }),
      brand([100, 1200, 800, 44], small("Montserrat", 26, "auto", { letterSpacing: 0.3 }), SIGNED),
      url([100, 1380, 800, 40], small("Montserrat", 22, "auto", { letterSpacing: 0.2, fontWeight: 400 })),
    ],
    0,
  ),

  template(
    "std-quote-editorial-02",
    "quote",
    "Editorial quote",
    ["Quotes", "Elegant"],
    CREAM,
    [
      path("marks", "Quote marks", [90, 130, 230, 190], PATHS.quote, "pin"),
      quote([90, 380, 820, 700], { fontFamily: "Playfair Display", fontWeight: 400, uppercase: false, align: "left", color: DARK, lineHeight: 1.2 }),
      rect("rule", "Rule", [90, 1150, 100, 4], "pin"),
      brand([90, 1185, 820, 40], small("Lato", 24, "pin-dark", { align: "left", letterSpacing: 0.35 }), SIGNED),
      url([90, 1390, 820, 36], small("Lato", 20, "#777777", { align: "left", letterSpacing: 0.25 })),
    ],
    0,
  ),

  template("std-quote-photo-03", "quote", "Quote over photo", ["Quotes", "Travel"], "#000000", [
    photo("photo", "Photo", [0, 0, 1000, 1500]),
    rect("shade", "Shade", [0, 0, 1000, 1500], "#000000", { opacity: 0.5 }),
    path("marks", "Quote marks", [420, 250, 160, 134], PATHS.quote, "pin"),
    quote([100, 440, 800, 640], { color: "#ffffff", lineHeight: 1.1 }),
    brand([100, 1130, 800, 44], small("Montserrat", 26, "pin-light", { letterSpacing: 0.3 }), SIGNED),
    url([100, 1390, 800, 40], small("Montserrat", 22, "#ffffff", { letterSpacing: 0.25 })),
  ]),

  template(
    "std-quote-card-04",
    "quote",
    "Quote card",
    ["Quotes", "Minimal"],
    "pin-light",
    [
      rect("card", "Card", [90, 220, 820, 1060], "#ffffff", { radius: 24 }),
      rect("card-bar", "Card accent", [90, 300, 12, 900], "pin"),
      ellipse("marks-disc", "Quote disc", [430, 150, 140, 140], "pin"),
      path("marks", "Quote marks", [462, 190, 76, 62], PATHS.quote, "#ffffff"),
      quote([160, 360, 690, 700], { fontFamily: "Merriweather", uppercase: false, color: DARK, lineHeight: 1.25 }),
      brand([160, 1120, 690, 40], small("Lato", 22, "pin-dark", { letterSpacing: 0.35 }), SIGNED),
      url([90, 1350, 820, 40], small("Lato", 22, "pin-dark", { letterSpacing: 0.25 })),
    ],
    0,
  ),

  template(
    "std-quote-script-05",
    "quote",
    "Script quote",
    ["Quotes", "Elegant"],
    "pin-dark",
    [
      path("marks", "Quote marks", [390, 160, 220, 184], PATHS.quote, "pin-light", { opacity: 0.9 }),
      quote([100, 410, 800, 680], { fontFamily: "Dancing Script", uppercase: false, color: "#ffffff", lineHeight: 1.3 }),
      path("sparkle", "Sparkle", [480, 1130, 40, 40], PATHS.sparkle, "pin"),
      brand([100, 1200, 800, 40], small("Raleway", 24, "pin-light", { letterSpacing: 0.45 })),
      url([100, 1380, 800, 40], small("Raleway", 20, "#ffffff", { letterSpacing: 0.3 })),
    ],
    0,
  ),

  template("std-quote-bubble-06", "quote", "Speech bubble", ["Quotes", "Blog"], "#ffffff", [
    path("bubble", "Speech bubble", [70, 120, 860, 1040], PATHS.bubble, "pin"),
    path("marks", "Quote marks", [140, 190, 110, 92], PATHS.quote, "pin-dark"),
    quote([140, 300, 720, 560], { lineHeight: 1.08 }),
    ellipse("avatar-ring", "Avatar ring", [60, 1180, 170, 170], "pin"),
    photo("photo", "Avatar", [70, 1190, 150, 150], { radius: 75 }),
    brand([260, 1215, 680, 44], small("Poppins", 26, DARK, { align: "left", letterSpacing: 0.1 })),
    url([260, 1270, 680, 40], small("Poppins", 22, "pin-dark", { align: "left", uppercase: false, letterSpacing: 0.02, fontWeight: 400 })),
  ]),

  template("std-quote-photo-top-07", "quote", "Photo and quote", ["Quotes", "Home"], "#ffffff", [
    photo("photo", "Photo", [0, 0, 1000, 700]),
    ellipse("marks-disc", "Quote disc", [420, 620, 160, 160], "pin"),
    path("marks", "Quote marks", [457, 667, 86, 72], PATHS.quote, "#ffffff"),
    quote([100, 830, 800, 430], { fontFamily: "Playfair Display", uppercase: false, color: DARK, lineHeight: 1.2 }),
    brand([100, 1300, 800, 40], small("Lato", 22, "pin-dark", { letterSpacing: 0.35 }), SIGNED),
    url([100, 1400, 800, 36], small("Lato", 20, "#777777", { letterSpacing: 0.25 })),
  ]),

  template(
    "std-quote-minimal-08",
    "quote",
    "Minimal quote",
    ["Quotes", "Minimal"],
    "#ffffff",
    [
      rect("rule-top", "Top rule", [430, 230, 140, 3], "pin-dark"),
      path("marks", "Quote marks", [462, 290, 76, 62], PATHS.quote, DARK),
      quote([120, 420, 760, 660], { fontFamily: "Raleway", fontWeight: 400, uppercase: false, color: DARK, lineHeight: 1.25 }),
      rect("rule-bottom", "Bottom rule", [430, 1140, 140, 3], "pin-dark"),
      brand([120, 1180, 760, 40], small("Raleway", 22, "pin-dark", { letterSpacing: 0.45 })),
      url([120, 1380, 760, 36], small("Raleway", 20, "#888888", { letterSpacing: 0.3 })),
    ],
    0,
  ),

  template(
    "std-quote-block-09",
    "quote",
    "Offset block quote",
    ["Quotes", "Bold"],
    "#f2eee6",
    [
      rect("shadow", "Block shadow", [110, 230, 830, 1000], DARK),
      rect("block", "Block", [70, 190, 830, 1000], "pin"),
      path("marks", "Quote marks", [120, 250, 150, 124], PATHS.quote, DARK),
      quote([120, 410, 730, 620], { fontFamily: "Archivo Black", fontWeight: 400, uppercase: true, align: "left", color: DARK, lineHeight: 1.12 }),
      brand([120, 1075, 730, 44], small("Montserrat", 26, DARK, { align: "left", letterSpacing: 0.25 }), SIGNED),
      url([70, 1330, 860, 40], small("Montserrat", 24, DARK, { align: "left", letterSpacing: 0.25 })),
    ],
    0,
  ),

  template("std-quote-portrait-10", "quote", "Quote with portrait", ["Quotes", "Elegant"], "pin-light", [
    ellipse("portrait-ring", "Portrait ring", [370, 110, 260, 260], "pin"),
    photo("photo", "Portrait", [380, 120, 240, 240], { radius: 120 }),
    path("marks", "Quote marks", [455, 420, 90, 74], PATHS.quote, "pin-dark"),
    quote([100, 530, 800, 620], { fontFamily: "Merriweather", fontWeight: 400, uppercase: false, color: DARK, lineHeight: 1.3 }),
    brand([100, 1200, 800, 44], small("Lato", 24, "pin-dark", { letterSpacing: 0.35 }), SIGNED),
    url([100, 1390, 800, 36], small("Lato", 20, "pin-dark", { letterSpacing: 0.25 })),
  ]),

  template(
    "std-quote-framed-11",
    "quote",
    "Framed quote on dark",
    ["Quotes", "Elegant"],
    DARK,
    [
      frame("frame", "Frame", [60, 60, 880, 1380], "pin-light", 2),
      path("marks-open", "Opening marks", [120, 140, 150, 124], PATHS.quote, "pin"),
      path("marks-close", "Closing marks", [730, 1010, 150, 124], PATHS.quoteClose, "pin"),
      quote([150, 320, 700, 680], { fontFamily: "Playfair Display", uppercase: false, color: "#ffffff", lineHeight: 1.2 }),
      brand([150, 1190, 700, 40], small("Raleway", 22, "pin-light", { letterSpacing: 0.45 }), SIGNED),
      url([150, 1330, 700, 36], small("Raleway", 20, "#ffffff", { letterSpacing: 0.3 })),
    ],
    0,
  ),

  template(
    "std-quote-gradient-12",
    "quote",
    "Gradient quote",
    ["Quotes", "Minimal"],
    { from: "pin", to: "pin-light", angle: 180 },
    [
      path("marks-big", "Big quote marks", [60, 90, 560, 466], PATHS.quote, "#ffffff", { opacity: 0.35 }),
      quote([110, 440, 780, 640], { fontFamily: "Oswald", uppercase: true, color: DARK, lineHeight: 1.15 }),
      rect("rule", "Rule", [110, 1120, 80, 6], DARK),
      brand([110, 1150, 780, 40], small("Oswald", 26, DARK, { align: "left", fontWeight: 400, letterSpacing: 0.3 })),
      url([110, 1390, 780, 40], small("Oswald", 24, DARK, { fontWeight: 400, letterSpacing: 0.3 })),
    ],
    0,
  ),
];
