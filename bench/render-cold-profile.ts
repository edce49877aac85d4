// `npm run bench:render-profile`: where the cold first render's time goes, by
// V8's own CPU profiler. Runs BENCH_PROFILE_RUNS fresh workerd processes (5);
// each waits until the profiler is attached through workerd's inspector, then
// renders one pin as its very first work (bench/render-cold.workerd.ts in
// "profile" mode) and the profile is taken. Prints, per part of the render
// (the warm-ups, font unpacking and parsing, satori's layout, our parse of its
// SVG, picture decoding, resizing, fills, text, encoding, and time the isolate
// spent idle waiting for fetches), the median over the runs of the
// milliseconds the profiler saw there. Sampling slows the render itself (each
// profiled render takes roughly a quarter longer than bench:render's cold
// figure): read the shares, not the sum. BENCH_PROFILE_SAVE=dir keeps each
// .cpuprofile (open it in Chrome's DevTools).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startSandbox } from "../sandbox/server.ts";
import { freePort, ROOT, run } from "../scripts/process.ts";
import { inspect } from "./inspector.ts";
import { runInWorkerd, startReceiver } from "./render-workerd.ts";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const runs = Number(process.env.BENCH_PROFILE_RUNS ?? 5);
const intervalUs = Number(process.env.BENCH_PROFILE_INTERVAL_US ?? 100);
const saveTo = process.env.BENCH_PROFILE_SAVE;

/** The part of the render a sample belongs to, from its stack (outermost first). */
function partOf(stack: ProfileNode[]): string {
  const names = stack.map((n) => n.callFrame.functionName);
  const urls = stack.map((n) => n.callFrame.url);
  const has = (name: string) => names.includes(name);
  const from = (pattern: RegExp) => urls.some((url) => pattern.test(url));
  if (names.at(-1) === "(idle)") return "idle (waiting for fetches)";
  if (names.at(-1) === "(garbage collector)") return "garbage collection";
  if (has("warmPixelModule")) return "warm-up: pixel module";
  if (has("warmLayout")) return "warm-up: satori";
  if (from(/render\/fonts\.ts|media\/fonts\.ts/)) return "fonts: unpack and parse";
  if (has("decodeBytes") || has("decode")) return "picture: decode";
  if (has("resizedPicture")) return "picture: resize";
  if (has("drawBitmap")) return "picture: draw";
  if (has("parseSatoriSvg")) return "text: our parse of satori's SVG";
  if (has("drawOutlines")) return "text: coverage and fill";
  if (has("drawShape")) return "shapes: fill";
  if (has("encodeJpeg")) return "encode";
  if (has("planPin")) return "plan (auto-fit)";
  // satori's layout continues in promise callbacks, whose stacks do not reach renderPin.
  if (from(/satori|opentype|linebreak|unicode-trie|css-to-react-native|postcss|emoji/) || has("textsSvg")) return "text: satori layout (its warm-up included)";
  if (has("renderPin")) return "render: other";
  return "other";
}

function parts(profile: Profile): Map<string, number> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const stackOf = new Map<number, string>();
  const totals = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    // A sample's time is the gap to the next one.
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    let part = stackOf.get(id);
    if (!part) {
      const stack: ProfileNode[] = [];
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) stack.unshift(byId.get(at)!);
      part = partOf(stack);
      stackOf.set(id, part);
    }
    totals.set(part, (totals.get(part) ?? 0) + ms);
  });
  return totals;
}

const sandbox = await startSandbox(0);
await run(join(ROOT, "node_modules", ".bin", "node"), ["scripts/copy-fonts.ts"], { quiet: true });
const all: Map<string, number>[] = [];
const wall: number[] = [];
for (let r = 0; r < runs; r++) {
  const port = await freePort();
  let session: Awaited<ReturnType<typeof inspect>> | null = null;
  let finished!: () => void;
  const done = new Promise<void>((resolve) => (finished = resolve));
  const receiver = await startReceiver(async (path, body) => {
    if (path === "ready") {
      // Until the inspector is up, this throws and the render is told to wait and ask again.
      if (!session) {
        session = await inspect(port, /runner/);
        await session.send("Profiler.enable");
        await session.send("Profiler.setSamplingInterval", { interval: intervalUs });
        await session.send("Profiler.start");
      }
      return "go";
    }
    if (path === "cold" && session) {
      const report = JSON.parse(body.toString("utf8")) as { timings: { totalMs: number } };
      const { profile } = await session.send<{ profile: Profile }>("Profiler.stop");
      session.close();
      wall.push(report.timings.totalMs);
      all.push(parts(profile));
      if (saveTo) {
        mkdirSync(saveTo, { recursive: true });
        writeFileSync(join(saveTo, `cold-${r + 1}.cpuprofile`), JSON.stringify(profile));
      }
      finished();
    }
  });
  const exited = runInWorkerd(
    "bench/render-cold.workerd.ts",
    { BENCH_SANDBOX_URL: sandbox.url, BENCH_RECEIVER_URL: receiver.url, BENCH_COLD_MODE: "profile" },
    { args: [`--inspect=${port}`, "--no-file-parallelism"] },
  );
  const outcome = await Promise.race([done.then(() => "profiled"), exited.then(() => "exited")]);
  if (outcome !== "profiled") console.error(`Profiled run ${r + 1} ended without a profile.`);
  await exited;
  receiver.close();
}
await sandbox.close();

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};
const names = [...new Set(all.flatMap((totals) => [...totals.keys()]))];
const rows = names.map((name) => ({ name, ms: median(all.map((totals) => totals.get(name) ?? 0)) })).sort((a, b) => b.ms - a.ms);
console.log(`Cold first render under V8's profiler (${all.length} fresh workerd, sampling every ${intervalUs} µs), median ms per part:`);
for (const row of rows) if (row.ms >= 0.5) console.log(`  ${row.ms.toFixed(1).padStart(6)}  ${row.name}`);
console.log(`  profiled renders took ${wall.map((ms) => ms.toFixed(0)).join(", ")} ms (the profiler's sampling slows them)`);
process.exit(all.length === runs ? 0 : 1);
