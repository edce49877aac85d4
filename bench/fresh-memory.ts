// `npm run bench:fresh-memory`: what memory touched for the first time costs a
// fresh isolate, and whether a runtime process that has already run other
// isolates makes it cheaper. Each run starts one workerd process holding two
// Workers (two isolates): the first does nothing, or uses and drops memory of
// its own (48 MB of JavaScript buffers, or 40 MB of WebAssembly memory), as a
// long-running process's other Workers would have; then the second touches
// 10 MB of fresh memory of the same kind, as a cold render does (the canvas,
// the decoded photo, the pixel module's growth). Prints the second isolate's
// times and their medians. (Decision 073: unlike ICU's set-up, decision 069,
// this cost is paid again by every fresh isolate, so bench:render's fresh
// workerd per cold run models it as the edge pays it.)
import { inOneProcess, median } from "./two-isolates.ts";

const runs = Number(process.env.BENCH_MEMORY_RUNS ?? 7);
const NOTHING = `0`;
const JS_NEIGHBOUR = `{ let kept = []; for (let i = 0; i < 8; i++) { const a = new Uint8Array(6 << 20); a.fill(i + 1); kept.push(a); } kept = null; }`;
const WASM_NEIGHBOUR = `{ const m = new WebAssembly.Memory({ initial: 1, maximum: 4096 }); m.grow(640); new Uint8Array(m.buffer).fill(3); }`;
const JS_10MB = `{ const a = new Uint8Array(6 << 20); a.fill(7); const b = new Uint8Array(4 << 20); b.fill(9); }`;
const WASM_10MB = `{ const m = new WebAssembly.Memory({ initial: 1, maximum: 4096 }); m.grow(160); new Uint8Array(m.buffer).fill(3); }`;
const JS_10MB_TWICE = `{ const a = new Uint8Array(6 << 20); a.fill(7); const b = new Uint8Array(4 << 20); b.fill(9); a.fill(8); b.fill(10); }`;

const cases: [string, string, string][] = [
  ["10 MB of JavaScript buffers, first touch and a second pass, after a first isolate that did nothing", NOTHING, JS_10MB_TWICE],
  ["10 MB of JavaScript buffers, after a first isolate that did nothing", NOTHING, JS_10MB],
  ["10 MB of JavaScript buffers, after a first isolate that used and dropped 48 MB", JS_NEIGHBOUR, JS_10MB],
  ["10 MB of WebAssembly memory, after a first isolate that did nothing", NOTHING, WASM_10MB],
  ["10 MB of WebAssembly memory, after a first isolate that used and dropped 40 MB", WASM_NEIGHBOUR, WASM_10MB],
];
console.log(`Fresh memory in a second isolate, ${runs} fresh workerd processes per case (ms):`);
for (const [label, first, then] of cases) {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push((await inOneProcess(first, then))[1]);
  console.log(`  ${label}: median ${median(times).toFixed(0)} (${times.join(", ")})`);
}
