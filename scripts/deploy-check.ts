// `npm run deploy:check`: checks the deploy before it runs. First the configuration (decision 096): every name the
// worker code reads from Env is declared in wrangler.toml or as a secret in .dev.vars.example, and every binding,
// secret and variable has its row in the deploy guide (docs/deploy.md). Then proves the worker bundles for deployment
// (`wrangler deploy --dry-run`) and prints its size.
import { readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { gzipSync } from "node:zlib";
import { checkDeployConfig, type SourceText } from "./deploy-config.ts";
import { ROOT, run } from "./process.ts";

/** Where the worker's code lives: what wrangler bundles from this repository (tests and type declarations aside). */
const CODE_FOLDERS = ["workers", "app", "durable-objects", "contracts"];
const GUIDE = "docs/deploy.md";

const read = (path: string) => readFileSync(join(ROOT, path), "utf8");
const code: SourceText[] = CODE_FOLDERS.flatMap((folder) =>
  (readdirSync(join(ROOT, folder), { recursive: true }) as string[])
    .filter((file) => /\.tsx?$/.test(file) && !file.endsWith(".d.ts") && !/\.test\.tsx?$/.test(file))
    .map((file) => ({ path: relative(ROOT, join(ROOT, folder, file)), text: read(join(folder, file)) })),
);
const report = checkDeployConfig({
  wranglerToml: read("wrangler.toml"),
  devVarsExample: read(".dev.vars.example"),
  guide: read(GUIDE),
  guidePath: GUIDE,
  code,
});
if (report.problems.length > 0) {
  console.error(`The deploy configuration is not complete:\n${report.problems.map((problem) => `- ${problem}`).join("\n")}`);
  process.exit(1);
}
if (report.unread.length > 0)
  console.log(`Declared but not read by the worker code (left over, or read in a form the check misses): ${report.unread.join(", ")}.`);
const count = (section: string) => report.declared.filter((item) => item.section === section).length;
console.log(
  `deploy configuration: ok. ${report.used.size} names read by the code in ${code.length} files, all declared; ${count("Bindings")} bindings and queues, ${count("Secrets")} secrets and ${count("Variables")} variables, all in ${GUIDE}.`,
);

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
