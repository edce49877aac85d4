// Proves the worker bundles for deployment (`wrangler deploy --dry-run`) and prints its size.
import { readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { readFileSync } from "node:fs";
import { ROOT, run } from "./process.ts";

const outdir = join(ROOT, ".wrangler", "dry-run");
rmSync(outdir, { recursive: true, force: true });
// --containers-rollout=none: the container's configuration is still checked, but its image is not built (that needs a
// Docker daemon; `wrangler deploy` builds and pushes it, decision 095).
const output = await run(join(ROOT, "node_modules", ".bin", "wrangler"), ["deploy", "--dry-run", "--containers-rollout=none", "--outdir", outdir], {
  quiet: true,
});

let raw = 0;
let gzip = 0;
for (const file of readdirSync(outdir, { recursive: true }) as string[]) {
  const path = join(outdir, file);
  if (!statSync(path).isFile() || file.endsWith(".map")) continue;
  raw += statSync(path).size;
  gzip += gzipSync(readFileSync(path)).length;
}
const reported = /Total Upload: ([^\n]+)/.exec(output)?.[1];
console.log(
  `deploy dry run: ok. Worker bundle ${(raw / 1024).toFixed(0)} KiB, ${(gzip / 1024).toFixed(0)} KiB gzipped${reported ? ` (wrangler: ${reported.trim()})` : ""}.`,
);
// Workers paid plan limit: 10 MiB compressed; free plan: 3 MiB.
if (gzip > 10 * 1024 * 1024) {
  console.error("The worker bundle is over the 10 MiB compressed limit.");
  process.exit(1);
}
