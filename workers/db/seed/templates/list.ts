import {
  body,
  brand,
  description,
  ellipse,
  frame,
  label,
  listItem,
  path,
  PATHS,
  photo,
  rect,
  small,
  template,
  title,
  url,
  type ColorInput,
  type FillInput,
  type LayerInput,
  type StandardTemplateSeed,
} from "./kit.ts";

/** List posts: numbered photos, steps and checklists around the headline. */

const DARK = "#1d2226";
const CREAM = "#fbf7f0";

/** A round number marker: a disc with the digit centred on it. */
function numberBadge(n: number, x: number, y: number, size: number, fill: FillInput, font = "Montserrat", color: ColorInput = "auto"): LayerInput[] {
  return [
    ellipse(`number-${n}-disc`, `Number ${n} disc`, [x, y, size, size], fill),
    label(`number-${n}`, `Number ${n}`, String(n), [x, y + size * 0.1, size, size * 0.8], {
      fontFamily: font,
      fontSize: Math.round(size * 0.5),
      fontWeight: 700,
      color,
      lineHeight: 1,
    }),
  ];
}

/** A checklist row: a box (ticked or not) and the post's list item `n` written on a line. */
function checkRow(
  n: number,
  y: number,
  ticked: boolean,
  x = 100,
  line = "#d9d9d9",
  box: ColorInput = "pin-dark",
  font = "Lato",
  color: ColorInput = DARK,
): LayerInput[] {
  return [
    frame(`box-${n}`, `Checkbox ${n}`, [x, y, 64, 64], box, 4, 12),
    ...(ticked ? [path(`tick-${n}`, `Tick ${n}`, [x + 6, y + 2, 60, 54], PATHS.check, "pin")] : []),
    rect(`line-${n}`, `Line ${n}`, [x + 100, y + 60, 900 - x - 100, 3], line),
    listItem(n, [x + 100, y, 900 - x - 100, 56], {
      fontFamily: font,
      fontSize: 38,
      fontWeight: 700,
      color,
      uppercase: false,
      align: "left",
      verticalAlign: "bottom",
      lineHeight: 1.2,
    }),
  ];
}

export const LIST_TEMPLATES: StandardTemplateSeed[] = [
  template("std-list-numbered-grid-01", "list", "Numbered photo grid", ["Lists", "Home"], "#ffffff", [
    rect("header", "Header", [0, 0, 1000, 440], "pin"),
    title([70, 50, 860, 300], { lineHeight: 1.05 }),
    url([70, 370, 860, 36], small("Montserrat", 22, "auto", { letterSpacing: 0.25 })),
    photo("photo-1", "Photo 1", [30, 470, 462, 485], { radius: 16 }),
    photo("photo-2", "Photo 2", [508, 470, 462, 485], { index: 1, radius: 16 }),
    photo("photo-3", "Photo 3", [30, 971, 462, 485], { index: 2, radius: 16 }),
    photo("photo-4", "Photo 4", [508, 971, 462, 485], { index: 3, radius: 16 }),
    ...numberBadge(1, 50, 490, 84, "pin-dark"),
    ...numberBadge(2, 528, 490, 84, "pin-dark"),
    ...numberBadge(3, 50, 991, 84, "pin-dark"),
    ...numberBadge(4, 528, 991, 84, "pin-dark"),
  ]),

  template("std-list-numbered-strips-02", "list", "Numbered photo strips", ["Lists", "Travel"], "pin-dark", [
    title([70, 50, 860, 290], { color: "#ffffff", lineHeight: 1.05 }),
    url([70, 358, 860, 36], small("Montserrat", 22, "pin-light", { letterSpacing: 0.25 })),
    photo("photo-1", "Photo 1", [0, 420, 1000, 355]),
    photo("photo-2", "Photo 2", [0, 781, 1000, 355], { index: 1 }),
    photo("photo-3", "Photo 3", [0, 1142, 1000, 358], { index: 2 }),
    ...numberBadge(1, 40, 450, 110, "pin", "Poppins"),
    ...numberBadge(2, 40, 811, 110, "pin", "Poppins"),
    ...numberBadge(3, 40, 1172, 110, "pin", "Poppins"),
  ]),

  template("std-list-printable-03", "list", "Printable checklist", ["Lists", "Minimal"], "#ffffff", [
    rect("header", "Header", [0, 0, 1000, 500], "pin-dark"),
    label("kicker", "Kicker", "The checklist", [80, 70, 840, 40], small("Montserrat", 26, "pin-light", { letterSpacing: 0.45 })),
    title([80, 135, 840, 320], { color: "#ffffff", lineHeight: 1.05 }),
    ...checkRow(1, 590, true),
    ...checkRow(2, 740, true),
    ...checkRow(3, 890, true),
    ...checkRow(4, 1040, false),
    ...checkRow(5, 1190, false),
    url([80, 1390, 840, 44], small("Montserrat", 24, "pin-dark", { letterSpacing: 0.25 })),
  ]),

  template("std-list-steps-04", "list", "Step by step", ["Lists", "Recipes"], "#ffffff", [
    rect("column", "Column", [0, 0, 420, 1500], "pin"),
    brand([45, 100, 340, 36], small("Montserrat", 20, "auto", { letterSpacing: 0.3 })),
    title([45, 260, 340, 960], { lineHeight: 1.08 }),
    url([45, 1360, 340, 40], small("Montserrat", 18, "auto", { letterSpacing: 0.08 })),
    photo("photo-1", "Photo 1", [450, 36, 515, 460], { radius: 16 }),
    photo("photo-2", "Photo 2", [450, 520, 515, 460], { index: 1, radius: 16 }),
    photo("photo-3", "Photo 3", [450, 1004, 515, 460], { index: 2, radius: 16 }),
    label("step-1", "Step 1", "Step 1", [470, 56, 170, 56], small("Montserrat", 20, "#ffffff", { background: { shape: "pill", fill: DARK, padding: 14 } })),
    label("step-2", "Step 2", "Step 2", [470, 540, 170, 56], small("Montserrat", 20, "#ffffff", { background: { shape: "pill", fill: DARK, padding: 14 } })),
    label("step-3", "Step 3", "Step 3", [470, 1024, 170, 56], small("Montserrat", 20, "#ffffff", { background: { shape: "pill", fill: DARK, padding: 14 } })),
  ]),

  template("std-list-top-tips-05", "list", "Top tips with photo", ["Lists", "Bold"], "pin", [
    photo("photo", "Photo", [0, 0, 1000, 780]),
    label("kicker", "Kicker", "Top tips", [280, 715, 440, 130], {
      fontFamily: "Anton",
      fontWeight: 400,
      uppercase: true,
      color: "#ffffff",
      letterSpacing: 0.06,
      background: { shape: "rect", fill: "pin-dark", padding: 22, radius: 6 },
    }),
    title([80, 880, 840, 380], { lineHeight: 1.05 }),
    url([80, 1370, 840, 44], small("Montserrat", 24, "auto", { letterSpacing: 0.25 })),
  ]),

  template("std-list-ranked-06", "list", "Ranked picks", ["Lists", "Elegant"], CREAM, [
    title([60, 50, 880, 270], { fontFamily: "Archivo Black", fontWeight: 400, uppercase: true, align: "left", color: DARK, lineHeight: 1.08 }),
    url([60, 335, 880, 34], small("Montserrat", 22, "pin-dark", { align: "left", letterSpacing: 0.3 })),
    ...[0, 1, 2, 3].flatMap((i) => [
      label(`number-${i + 1}`, `Number ${i + 1}`, `0${i + 1}`, [50, 410 + i * 270, 170, 250], {
        fontFamily: "Bebas Neue",
        fontWeight: 400,
        fontSize: 150,
        color: "pin-dark",
        lineHeight: 1,
      }),
      photo(`photo-${i + 1}`, `Photo ${i + 1}`, [240, 410 + i * 270, 700, 250], { index: i, radius: 18 }),
    ]),
  ]),

  template("std-list-guide-07", "list", "The ultimate guide", ["Lists", "Blog"], DARK, [
    label("kicker", "Kicker", "The ultimate guide", [80, 90, 840, 40], small("Montserrat", 26, "pin", { letterSpacing: 0.45 })),
    title([80, 150, 840, 420], { fontFamily: "Oswald", uppercase: true, color: "#ffffff", lineHeight: 1.15 }),
    photo("photo", "Photo", [80, 610, 840, 540], { radius: 20 }),
    ellipse("check-disc", "Check disc", [830, 560, 120, 120], "pin"),
    path("check", "Check", [858, 592, 66, 58], PATHS.check, "#ffffff"),
    description([80, 1185, 840, 180], body("Lato", 30, "#ffffff", { align: "center" })),
    url([80, 1400, 840, 44], small("Montserrat", 24, "pin", { letterSpacing: 0.3 })),
  ]),

  template("std-list-circles-08", "list", "Numbered round photos", ["Lists", "Recipes"], "#ffffff", [
    title([70, 80, 860, 420], { color: "pin-dark", lineHeight: 1.05 }),
    rect("rule", "Rule", [440, 540, 120, 6], "pin", { radius: 3 }),
    ...[0, 1, 2].flatMap((i) => [
      photo(`photo-${i + 1}`, `Photo ${i + 1}`, [50 + i * 310, 620, 280, 280], { index: i, radius: 140 }),
      ...numberBadge(i + 1, 150 + i * 310, 860, 80, "pin"),
    ]),
    description([100, 1000, 800, 240], body("Lato", 32, "#444444", { align: "center" })),
    url([100, 1350, 800, 44], small("Lato", 24, "pin-dark", { letterSpacing: 0.3 })),
  ]),

  template("std-list-top-picks-09", "list", "Top picks", ["Lists", "Shop"], "pin-light", [
    photo("photo-1", "Photo 1", [0, 0, 1000, 640]),
    ...numberBadge(1, 40, 40, 110, "pin", "Poppins"),
    path("ribbon", "Ribbon", [140, 590, 720, 110], PATHS.ribbon, "pin-dark"),
    label("kicker", "Kicker", "Our top picks", [200, 605, 600, 80], small("Poppins", 30, "#ffffff", { letterSpacing: 0.3 })),
    title([70, 730, 860, 300], { fontFamily: "Poppins", uppercase: false, color: "pin-dark", lineHeight: 1.2 }),
    ...[1, 2, 3].flatMap((n, i) => [
      photo(`photo-${n + 1}`, `Photo ${n + 1}`, [40 + i * 313, 1070, 294, 300], { index: n, radius: 16 }),
      ...numberBadge(n + 1, 60 + i * 313, 1090, 70, "pin", "Poppins"),
    ]),
    url([70, 1400, 860, 44], small("Poppins", 24, "pin-dark", { letterSpacing: 0.2 })),
  ]),

  template("std-list-timeline-10", "list", "Timeline", ["Lists", "Travel"], "#ffffff", [
    title([70, 50, 860, 290], { fontFamily: "Poppins", uppercase: false, color: DARK, lineHeight: 1.2 }),
    rect("line", "Timeline", [497, 380, 6, 1060], "pin"),
    ...[0, 1, 2].flatMap((i) => {
      const y = 410 + i * 345;
      const left = i % 2 === 0;
      return [
        photo(`photo-${i + 1}`, `Photo ${i + 1}`, [left ? 60 : 540, y, 400, 300], { index: i, radius: 16 }),
        ellipse(`dot-${i + 1}`, `Dot ${i + 1}`, [478, y + 128, 44, 44], "pin-dark"),
        label(`step-${i + 1}`, `Step ${i + 1}`, `Step ${i + 1}`, [left ? 540 : 60, y + 110, 400, 80], {
          fontFamily: "Bebas Neue",
          fontWeight: 400,
          fontSize: 72,
          color: "pin-dark",
          align: left ? "left" : "right",
          lineHeight: 1,
        }),
      ];
    }),
    url([70, 1445, 860, 36], small("Poppins", 22, "pin-dark", { letterSpacing: 0.2 })),
  ]),

  template("std-list-notebook-11", "list", "Notebook to-do list", ["Lists", "Home"], "pin", [
    rect("paper", "Paper", [70, 80, 860, 1340], "#ffffff", { radius: 8 }),
    rect("margin", "Margin line", [170, 80, 3, 1340], "#f28b82"),
    rect("tape", "Tape", [400, 50, 200, 60], "pin-light", { rotation: -4, opacity: 0.9 }),
    title([200, 150, 680, 430], { fontFamily: "Dancing Script", uppercase: false, color: DARK, lineHeight: 1.3 }),
    ...[0, 1, 2, 3, 4].flatMap((i) => checkRow(i + 1, 650 + i * 120, i < 2, 210, "#c9d8e8", DARK, "Dancing Script")),
    url([200, 1290, 680, 60], body("Dancing Script", 40, "pin-dark", { fontWeight: 700, lineHeight: 1.2 })),
  ]),

  template("std-list-save-12", "list", "Save this list", ["Lists", "Bold"], "pin-dark", [
    label(
      "kicker",
      "Kicker",
      "Save this list",
      [300, 70, 400, 70],
      small("Montserrat", 22, "auto", { background: { shape: "pill", fill: "pin", padding: 18 }, letterSpacing: 0.2 }),
    ),
    title([70, 175, 860, 380], { color: "#ffffff", lineHeight: 1.05 }),
    ...[0, 1, 2].flatMap((i) => [
      photo(`photo-${i + 1}`, `Photo ${i + 1}`, [40 + i * 313, 640, 294, 540], { index: i, radius: 16 }),
      ...numberBadge(i + 1, 147 + i * 313, 600, 80, "#ffffff", "Montserrat", "pin-dark"),
    ]),
    description([90, 1215, 820, 150], body("Lato", 28, "pin-light", { align: "center" })),
    url([70, 1400, 860, 44], small("Montserrat", 24, "#ffffff", { letterSpacing: 0.25 })),
  ]),

  template("std-list-short-checklist-13", "list", "Three-point checklist", ["Lists", "Minimal"], "#ffffff", [
    rect("header", "Header", [0, 0, 1000, 560], "pin-dark"),
    label("kicker", "Kicker", "The checklist", [80, 80, 840, 40], small("Montserrat", 26, "pin-light", { letterSpacing: 0.45 })),
    title([80, 150, 840, 360], { color: "#ffffff", lineHeight: 1.05 }),
    ...checkRow(1, 700, true),
    ...checkRow(2, 900, true),
    ...checkRow(3, 1100, false),
    url([80, 1370, 840, 44], small("Montserrat", 24, "pin-dark", { letterSpacing: 0.25 })),
  ]),

  template("std-list-photo-checklist-14", "list", "Photo with checklist", ["Lists", "Home"], "#ffffff", [
    photo("photo", "Photo", [0, 0, 1000, 560]),
    rect("band", "Band", [0, 520, 1000, 300], "pin"),
    title([70, 545, 860, 250], { lineHeight: 1.05 }),
    ...[0, 1, 2, 3].flatMap((i) => checkRow(i + 1, 880 + i * 120, i < 1)),
    url([80, 1400, 840, 44], small("Montserrat", 24, "pin-dark", { letterSpacing: 0.25 })),
  ]),
];
