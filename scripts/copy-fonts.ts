// Copies the bundled fonts (latin WOFF files of @fontsource packages) to
// public/fonts/<slug>-<weight>.woff, where the browser preview and the worker
// (through the ASSETS binding) load them. Runs before `vite build` and `dev`.
import { copyFileSync, existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { BUNDLED_FONTS } from "../workers/render/font-catalog.ts";
import { ROOT } from "./process.ts";

const target = join(ROOT, "public", "fonts");
mkdirSync(target, { recursive: true });
let copied = 0;
for (const font of BUNDLED_FONTS) {
  for (const weight of font.weights) {
    const source = join(ROOT, "node_modules", "@fontsource", font.slug, "files", `${font.slug}-latin-${weight}-normal.woff`);
    if (!existsSync(source)) throw new Error(`Missing font file ${source}: is @fontsource/${font.slug} installed?`);
    copyFileSync(source, join(target, `${font.slug}-${weight}.woff`));
    copied += 1;
  }
}
console.log(`fonts: ${copied} files in public/fonts`);
