// Node module hooks so that Node runs the worker's own parsers as workerd does (bench/fuzz.ts): a .wasm import
// is a compiled WebAssembly.Module (wrangler's CompiledWasm rule), and photon's workerd entry becomes its Node
// entry (the same Rust module and JavaScript glue; only how the .wasm is loaded differs), and opentype.js is its
// ES module build (its "module" field, which the bundler takes), not the UMD one Node would.
import { readFileSync } from "node:fs";
import { registerHooks } from "node:module";

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (/^@cf-wasm\/(photon|satori)\/workerd$/.test(specifier)) return nextResolve(specifier.replace(/workerd$/, "node"), context);
    if (specifier === "opentype.js") return nextResolve("opentype.js/dist/opentype.mjs", context);
    if (specifier === "@shuding/opentype.js") return nextResolve("@shuding/opentype.js/dist/opentype.module.js", context);
    return nextResolve(specifier, context);
  },
  load(url, context, nextLoad) {
    if (url.endsWith(".wasm")) {
      const bytes = JSON.stringify(readFileSync(new URL(url)).toString("base64"));
      return { format: "module", shortCircuit: true, source: `export default new WebAssembly.Module(Buffer.from(${bytes}, "base64"));` };
    }
    return nextLoad(url, context);
  },
});
