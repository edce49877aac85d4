// Checks that the committed WebAssembly pixel module was built from the current
// source: rebuilds it with clang (when clang is installed) and compares bytes.
import { readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, run } from "./process.ts";

const committed = join(ROOT, "workers", "render", "wasm", "pixels.wasm");
const rebuilt = join(tmpdir(), `pixels-${process.pid}.wasm`);
try {
  await run(join(ROOT, "scripts", "build-pixels-wasm.sh"), [rebuilt], { quiet: true });
} catch (error) {
  if (/clang or wasm-ld not found/.test(String(error))) {
    console.log("pixels.wasm: clang not installed here, so the committed module is used as it is (CI rebuilds it).");
    process.exit(0);
  }
  throw error;
}
const same = Buffer.compare(readFileSync(committed), readFileSync(rebuilt)) === 0;
rmSync(rebuilt, { force: true });
if (!same) {
  console.error("pixels.wasm is out of date with workers/render/wasm/pixels.c and fills.c: run scripts/build-pixels-wasm.sh and commit the result.");
  process.exit(1);
}
console.log("pixels.wasm: up to date with its source.");
