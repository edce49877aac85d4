// Copies the bundled fonts (latin WOFF files of @fontsource packages) to
// public/fonts/<slug>-<weight>.woff, where the browser preview loads them, and
// writes the sfnt inside each one to workers/render/fonts/<slug>-<weight>.bin,
// which the worker imports as a data module when a pin first uses that font
// (workers/render/bundled-font-files.ts, decision 074). Runs before `vite build` and `dev`.
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { woffToSfnt } from "../workers/media/sfnt.ts";
import { BUNDLED_FONTS } from "../workers/render/font-catalog.ts";
import { ROOT } from "./process.ts";

const browser = join(ROOT, "public", "fonts");
const worker = join(ROOT, "workers", "render", "fonts");
mkdirSync(browser, { recursive: true });
mkdirSync(worker, { recursive: true });
let copied = 0;
for (const font of BUNDLED_FONTS) {
  for (const weight of font.weights) {
    const source = join(ROOT, "node_modules", "@fontsource", font.slug, "files", `${font.slug}-latin-${weight}-normal.woff`);
    if (!existsSync(source)) throw new Error(`Missing font file ${source}: is @fontsource/${font.slug} installed?`);
    copyFileSync(source, join(browser, `${font.slug}-${weight}.woff`));
    // With the checksums the WOFF states, as the worker's loader unpacked it at run time before (decision 074).
    writeFileSync(join(worker, `${font.slug}-${weight}.bin`), woffToSfnt(new Uint8Array(readFileSync(source)), true));
    copied += 1;
  }
}
console.log(`fonts: ${copied} files in public/fonts, their sfnt in workers/render/fonts`);
