import { brand, label, path, PATHS, photo, rect, small, template, title, url, video, type StandardTemplateSeed } from "./kit.ts";

/** Video-ready pins: a Video box where the video plays (a still pin shows the post's photo there). */

const DARK = "#1d2226";

export const VIDEO_TEMPLATES: StandardTemplateSeed[] = [
  template("std-video-full-01", "video", "Full video", ["Video", "Bold"], "#000000", [
    video("video", "Video", [0, 0, 1000, 1500]),
    rect("fade", "Shade", [0, 860, 1000, 640], { from: "#00000000", to: "#000000e0", angle: 180 }),
    title([70, 1070, 860, 280], { fontFamily: "Montserrat", uppercase: false, align: "left", color: "#ffffff", lineHeight: 1.1 }),
    url([70, 1390, 860, 44], small("Montserrat", 24, "pin", { align: "left", letterSpacing: 0.25 })),
  ]),

  template("std-video-panel-02", "video", "Video over colour panel", ["Video", "Blog"], "pin", [
    video("video", "Video", [0, 0, 1000, 900]),
    title([70, 950, 860, 300], { lineHeight: 1.05 }),
    label(
      "watch",
      "Watch button",
      "Watch now",
      [320, 1300, 360, 90],
      small("Montserrat", 24, "#ffffff", { background: { shape: "pill", fill: DARK, padding: 20 }, letterSpacing: 0.2 }),
    ),
  ]),

  template("std-video-phone-03", "video", "Video in a phone", ["Video", "Minimal"], "pin", [
    title([70, 50, 860, 250], { lineHeight: 1.05 }),
    rect("phone", "Phone", [230, 330, 540, 1110], DARK, { radius: 64 }),
    video("video", "Video", [250, 350, 500, 1070], { radius: 46 }),
    rect("notch", "Notch", [420, 350, 160, 34], DARK, { radius: 17 }),
  ]),

  template("std-video-cinema-04", "video", "Cinema letterbox", ["Video", "Bold"], "#0b0b0b", [
    label("kicker", "Kicker", "Now playing", [70, 110, 860, 40], small("Montserrat", 26, "pin", { letterSpacing: 0.5 })),
    title([70, 170, 860, 340], { fontFamily: "Bebas Neue", fontWeight: 400, uppercase: true, color: "#ffffff", lineHeight: 1 }),
    video("video", "Video", [0, 580, 1000, 563]),
    url([70, 1260, 860, 44], small("Montserrat", 24, "#ffffff", { letterSpacing: 0.35 })),
    rect("rule", "Rule", [460, 1340, 80, 4], "pin"),
  ]),

  template("std-video-card-05", "video", "Rounded video card", ["Video", "Recipes"], "pin-light", [
    video("video", "Video", [60, 60, 880, 1000], { radius: 40 }),
    title([80, 1100, 840, 260], { color: "pin-dark", lineHeight: 1.05 }),
    url([80, 1390, 840, 44], small("Nunito", 24, "pin-dark", { letterSpacing: 0.2 })),
  ]),

  template("std-video-badge-06", "video", "Video with label", ["Video", "Travel"], "#000000", [
    video("video", "Video", [0, 0, 1000, 1500]),
    rect("label-pill", "Video label", [50, 50, 230, 72], DARK, { radius: 36, opacity: 0.8 }),
    path("label-play", "Label play", [82, 70, 28, 32], PATHS.play, "pin"),
    label("label-text", "Video label text", "Video", [122, 62, 140, 48], small("Montserrat", 26, "#ffffff", { align: "left", letterSpacing: 0.2 })),
    rect("fade", "Shade", [0, 760, 1000, 740], { from: "#00000000", to: "#000000eb", angle: 180 }),
    rect("accent", "Accent", [70, 1080, 10, 260], "pin"),
    title([110, 1080, 820, 260], { align: "left", color: "#ffffff", lineHeight: 1.08 }),
    url([110, 1395, 820, 40], small("Montserrat", 22, "#ffffff", { align: "left", letterSpacing: 0.25 })),
  ]),

  template("std-video-headline-07", "video", "Headline over video", ["Video", "Home"], "#ffffff", [
    title([70, 60, 860, 330], { color: "pin-dark", lineHeight: 1.05 }),
    rect("rule", "Rule", [440, 420, 120, 6], "pin", { radius: 3 }),
    video("video", "Video", [0, 470, 1000, 1030]),
    url([290, 1380, 420, 68], small("Poppins", 22, DARK, { background: { shape: "pill", fill: "#ffffff", padding: 16 }, letterSpacing: 0.1 })),
  ]),

  template("std-video-tutorial-08", "video", "Video tutorial", ["Video", "Lists"], "pin-dark", [
    label(
      "kicker",
      "Kicker",
      "Video tutorial",
      [300, 60, 400, 70],
      small("Montserrat", 22, "auto", { background: { shape: "pill", fill: "pin", padding: 18 }, letterSpacing: 0.2 }),
    ),
    title([70, 170, 860, 330], { color: "#ffffff", lineHeight: 1.05 }),
    video("video", "Video", [100, 550, 800, 800], { radius: 24 }),
    url([70, 1395, 860, 44], small("Montserrat", 24, "pin-light", { letterSpacing: 0.3 })),
  ]),

  template("std-video-progress-09", "video", "Video with caption", ["Video", "Minimal"], "#000000", [
    video("video", "Video", [0, 0, 1000, 1500]),
    rect("fade", "Shade", [0, 950, 1000, 550], { from: "#00000000", to: "#000000d9", angle: 180 }),
    title([70, 1110, 860, 230], { fontFamily: "Poppins", uppercase: false, align: "left", color: "#ffffff", lineHeight: 1.2 }),
    rect("rule", "Rule", [70, 1392, 120, 8], "pin", { radius: 4 }),
    url([70, 1420, 860, 40], small("Poppins", 22, "#ffffff", { align: "left", uppercase: false, letterSpacing: 0.02, fontWeight: 400 })),
  ]),

  template("std-video-film-10", "video", "Film strip", ["Video", "Travel"], DARK, [
    title([70, 50, 860, 230], { fontFamily: "Oswald", uppercase: true, color: "#ffffff", lineHeight: 1.15 }),
    rect("strip", "Film strip", [80, 310, 840, 980], "#000000"),
    video("video", "Video", [160, 330, 680, 940]),
    ...[0, 1, 2, 3, 4, 5, 6, 7, 8].flatMap((i) => [
      rect(`hole-l-${i}`, "Sprocket", [104, 350 + i * 102, 32, 52], "#ffffff", { radius: 6, opacity: 0.9 }),
      rect(`hole-r-${i}`, "Sprocket", [864, 350 + i * 102, 32, 52], "#ffffff", { radius: 6, opacity: 0.9 }),
    ]),
    url([70, 1340, 860, 44], small("Oswald", 26, "pin", { fontWeight: 400, letterSpacing: 0.35 })),
    brand([70, 1400, 860, 40], small("Oswald", 22, "#ffffff", { fontWeight: 400, letterSpacing: 0.35 })),
  ]),

  template(
    "std-video-with-still-11",
    "video",
    "Video with still photo",
    ["Video", "Recipes"],
    "pin",
    [
      video("video", "Video", [0, 0, 1000, 1000]),
      rect("still-frame", "Photo frame", [590, 800, 360, 360], "#ffffff"),
      photo("photo", "Photo", [605, 815, 330, 330], { index: 1 }),
      title([60, 1040, 500, 380], { align: "left", lineHeight: 1.05 }),
      url([60, 1430, 880, 40], small("Montserrat", 22, "auto", { align: "left", letterSpacing: 0.25 })),
    ],
    2,
  ),

  template("std-video-reel-12", "video", "Vertical reel", ["Video", "Bold"], "pin-dark", [
    rect("glow", "Colour wash", [0, 0, 1000, 1000], { from: "pin", to: "pin-dark", angle: 180 }),
    rect("reel-border", "Reel border", [236, 46, 528, 918], "#ffffff", { radius: 44 }),
    video("video", "Video", [250, 60, 500, 890], { radius: 32 }),
    title([70, 1010, 860, 300], { color: "#ffffff", lineHeight: 1.05 }),
    url([290, 1360, 420, 68], small("Montserrat", 22, DARK, { background: { shape: "pill", fill: "#ffffff", padding: 16 }, letterSpacing: 0.15 })),
  ]),
];
