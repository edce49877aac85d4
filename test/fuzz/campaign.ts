import { caseSeed, mutate, Random, type Mutator } from "./mutations.ts";

/**
 * The campaign runner (decision 078): feeds a parser of untrusted bytes its
 * mutated inputs, case by case, and judges each by the oracle of issue 37. A
 * case fails on a trap (a WebAssembly RuntimeError), on any exception other
 * than the parser's clear refusal, on more than a second for one input
 * (the CPU time of the process that parses where the target can tell it, and
 * measured again on a replay, so a busy machine is not counted against the
 * parser; by the wall clock, also slow for its size beside the run's other
 * cases: WALL_CLOCK_SLOW_FACTOR), or when memory keeps growing from checkpoint
 * to checkpoint. No
 * Node API: runs in Node and in workerd alike.
 */

/** A parser's verdict on an input: used (a picture, a font, rows) or clearly refused (a 400, a skipped picture). */
export type Outcome = "accepted" | "refused";

export interface Target {
  name: string;
  seeds: Uint8Array[];
  mutators: Mutator[];
  /** Runs the production code on the input; throws only where the service would fail (a 500, a trap). */
  run(bytes: Uint8Array): Outcome | Promise<Outcome>;
  /** Cuts an input to the largest the product is measured at (where its time is its size, not a blow-up). */
  fit?(bytes: Uint8Array): Uint8Array;
  /** Memories to watch (the JavaScript heap after a collection, WebAssembly modules, a process), in bytes. */
  memory?(): Record<string, number> | Promise<Record<string, number>>;
  /** Milliseconds of CPU time of the process that runs the parser; the clock's time when not given. */
  clock?(): number;
}

export interface CaseFailure {
  seed: number;
  kind: "trap" | "exception" | "slow" | "memory";
  message: string;
  bytes: number;
}

export interface MemoryTrend {
  name: string;
  /** At each checkpoint after the warm-up (the first fifth of the cases), in bytes. */
  checkpoints: number[];
  /** Last checkpoint minus the first. */
  growth: number;
  growing: boolean;
}

export interface CampaignResult {
  parser: string;
  cases: number;
  accepted: number;
  refused: number;
  failures: number;
  /** The first failures in full (a few dozen), each replayable from its seed. */
  examples: CaseFailure[];
  slowest: { seed: number; ms: number; bytes: number };
  memory: MemoryTrend[];
  seconds: number;
  /** CPU seconds of the process that parses, over the whole campaign (making the cases too, in Node); null when not known. */
  cpuSeconds: number | null;
}

export const TIME_LIMIT_MS = 1000;
/**
 * Measured by the wall clock (a target without a CPU clock: the suite's workerd campaigns), a case over the limit
 * fails only when its time per kilobyte is also this many times the median of the run's cases (judged once they
 * have all run): a parser gone superlinear, not a machine busy with other work (the suite runs beside the
 * end-to-end tests, decision 090).
 */
export const WALL_CLOCK_SLOW_FACTOR = 20;
/** Growth past this from the first checkpoint to the last, rising at every checkpoint, is memory that keeps growing. */
export const GROWTH_LIMIT_BYTES = 16 * 1024 * 1024;
const CHECKPOINTS = 5;

/** The input of case `seed`: a seed file picked and mutated, all from the seed. */
export function mutantOf(target: Target, seed: number): Uint8Array {
  const random = new Random(seed);
  const bytes = mutate(random.pick(target.seeds), random, target.mutators);
  return target.fit ? target.fit(bytes) : bytes;
}

function describe(error: unknown): { kind: "trap" | "exception"; message: string } {
  if (error instanceof WebAssembly.RuntimeError) return { kind: "trap", message: `${error.message}` };
  if (error instanceof Error) return { kind: "exception", message: `${error.name}: ${error.message}`.slice(0, 300) };
  return { kind: "exception", message: String(error).slice(0, 300) };
}

const quiet = () => {};

async function timed(target: Target, bytes: Uint8Array, wallClock: () => number): Promise<{ ms: number; outcome?: Outcome; error?: unknown }> {
  // opentype.js reports each table it skips on the console: thousands of lines over a campaign.
  const { log, warn, error: report } = console;
  console.log = console.warn = console.error = quiet;
  const clock = target.clock ?? wallClock;
  const started = clock();
  try {
    const outcome = await target.run(bytes);
    return { ms: clock() - started, outcome };
  } catch (error) {
    return { ms: clock() - started, error };
  } finally {
    Object.assign(console, { log, warn, error: report });
  }
}

export async function runCampaign(
  target: Target,
  options: { cases: number; seed: number; onProgress?: (done: number) => void /** For tests: the wall clock (ms). */; wallClock?: () => number },
): Promise<CampaignResult> {
  const wallClock = options.wallClock ?? (() => performance.now());
  const started = performance.now();
  const cpuStarted = target.clock?.();
  const result: CampaignResult = {
    parser: target.name,
    cases: 0,
    accepted: 0,
    refused: 0,
    failures: 0,
    examples: [],
    slowest: { seed: 0, ms: 0, bytes: 0 },
    memory: [],
    seconds: 0,
    cpuSeconds: null,
  };
  const fail = (failure: CaseFailure) => {
    result.failures += 1;
    if (result.examples.length < 25) result.examples.push(failure);
  };
  const samples: Record<string, number>[] = [];
  /** Milliseconds per kilobyte of each case that ran (wall clock: see WALL_CLOCK_SLOW_FACTOR), and the slow ones to judge. */
  const rates: number[] = [];
  const slowByTheWallClock: { seed: number; ms: number; bytes: number; perKilobyte: number; outcome: Outcome }[] = [];
  const warmUp = Math.floor(options.cases / CHECKPOINTS);
  const every = Math.max(1, Math.floor((options.cases - warmUp) / CHECKPOINTS));
  for (let index = 0; index < options.cases; index++) {
    const seed = caseSeed(options.seed, index);
    const bytes = mutantOf(target, seed);
    let run = await timed(target, bytes, wallClock);
    if (run.ms > TIME_LIMIT_MS) run = await timed(target, bytes, wallClock); // replayed: a pause of the machine is not the parser's
    result.cases += 1;
    if (run.ms > result.slowest.ms) result.slowest = { seed, ms: run.ms, bytes: bytes.length };
    const perKilobyte = run.ms / Math.max(1, bytes.length / 1024);
    const slow = run.ms > TIME_LIMIT_MS;
    if (run.error !== undefined) fail({ seed, ...describe(run.error), bytes: bytes.length });
    else if (slow && target.clock) fail({ seed, kind: "slow", message: `${Math.round(run.ms)} ms for one input`, bytes: bytes.length });
    else {
      if (slow) slowByTheWallClock.push({ seed, ms: run.ms, bytes: bytes.length, perKilobyte, outcome: run.outcome ?? "refused" });
      if (run.outcome === "accepted") result.accepted += 1;
      else result.refused += 1;
      rates.push(perKilobyte);
    }
    if (index + 1 === warmUp || (index + 1 > warmUp && (index + 1 - warmUp) % every === 0 && samples.length <= CHECKPOINTS))
      samples.push((await target.memory?.()) ?? {});
    if ((index + 1) % 1000 === 0) options.onProgress?.(index + 1);
  }
  if (slowByTheWallClock.length > 0) {
    const sorted = [...rates].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)];
    for (const slow of slowByTheWallClock.filter((slow) => slow.perKilobyte > WALL_CLOCK_SLOW_FACTOR * median)) {
      result[slow.outcome] -= 1;
      fail({ seed: slow.seed, kind: "slow", message: `${Math.round(slow.ms)} ms for one input`, bytes: slow.bytes });
    }
  }
  for (const name of Object.keys(samples[0] ?? {})) {
    const checkpoints = samples.map((sample) => sample[name] ?? 0);
    const growth = checkpoints[checkpoints.length - 1] - checkpoints[0];
    const growing = checkpoints.length > 2 && growth > GROWTH_LIMIT_BYTES && checkpoints.every((value, i) => i === 0 || value > checkpoints[i - 1]);
    result.memory.push({ name, checkpoints, growth, growing });
    if (growing) fail({ seed: 0, kind: "memory", message: `${name} grew by ${Math.round(growth / 1048576)} MB, at every checkpoint`, bytes: 0 });
  }
  result.seconds = (performance.now() - started) / 1000;
  if (target.clock && cpuStarted !== undefined) result.cpuSeconds = (target.clock() - cpuStarted) / 1000;
  return result;
}

/** One line per campaign: cases, accepted and refused, failures, the slowest case with its seed, memory growth. */
export function summary(result: CampaignResult): string {
  const megabytes = (bytes: number) => (bytes / 1048576).toFixed(1);
  const memory = result.memory
    .map((trend) => `${trend.name} ${trend.growth >= 0 ? "+" : ""}${megabytes(trend.growth)} MB (${trend.checkpoints.map(megabytes).join("/")})`)
    .join(", ");
  return (
    `${result.parser}: ${result.cases} cases (${result.accepted} accepted, ${result.refused} refused), ${result.failures} failures, ` +
    `slowest ${result.slowest.ms.toFixed(1)} ms (seed ${result.slowest.seed}, ${result.slowest.bytes} bytes), memory growth ${memory || "not measured"}, ` +
    `${result.seconds.toFixed(1)} s${result.cpuSeconds === null ? "" : ` (${result.cpuSeconds.toFixed(1)} s of CPU)`}`
  );
}
