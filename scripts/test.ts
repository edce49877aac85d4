// `npm test`: build, typecheck, lint and format check (Biome), unit tests, workers tests (in workerd), end-to-end
// tests (Chromium against the built app), then the deploy check (configuration, dry run). Steps run side by side, two
// at a time unless TEST_PARALLEL says otherwise, once what they need is done (decision 090): the end-to-end step in
// one lane, the others in the other, so the suite takes about as long as its longest chain. Each step's output is
// printed whole when it ends. Stops at the first failure: the steps still running are stopped.
import { spawn, type ChildProcess } from "node:child_process";
import { childEnv, ROOT } from "./process.ts";
import { localSecrets } from "./stack.ts";
import { describeMissing, missingNeeds } from "./test-needs.ts";

interface Step {
  name: string;
  command: string;
  args: string[];
  env?: Record<string, string>;
  /** Steps that must have passed first. */
  needs?: string[];
}

/**
 * Steps at once (TEST_PARALLEL, default 2: two lanes, decision 090). The end-to-end step waits on Chromium, on its
 * stack and on pins coming due about a third of its time, which the other lane (typecheck, unit, workers) fills.
 */
const PARALLEL = Math.max(1, Number(process.env.TEST_PARALLEL ?? 2));
/** With more than two steps at once, the end-to-end files run in two halves, each with its own app, sandbox and Chromium. */
const E2E_SHARDS = PARALLEL > 2 ? 2 : 1;

const steps: Step[] = [
  { name: "build", command: "npm", args: ["run", "build"] },
  { name: "pixel module up to date", command: "node", args: ["scripts/check-pixels-wasm.ts"] },
  // After the build, in the other lane: beside the build it slowed the build, which the end-to-end lane waits for.
  { name: "typecheck", command: "npm", args: ["run", "typecheck"], needs: ["build"] },
  // The end-to-end step first once the build is done: it is the longest chain.
  ...Array.from({ length: E2E_SHARDS }, (_, index) => ({
    name: E2E_SHARDS > 1 ? `end-to-end tests (Chromium) ${index + 1}/${E2E_SHARDS}` : "end-to-end tests (Chromium)",
    command: "npx",
    args: ["vitest", "run", "--project", "e2e", ...(E2E_SHARDS > 1 ? [`--shard=${index + 1}/${E2E_SHARDS}`] : [])],
    env: { E2E_SKIP_BUILD: "1" },
    needs: ["build"],
  })),
  { name: "lint and format", command: "npm", args: ["run", "lint"] },
  { name: "workers tests (workerd)", command: "npx", args: ["vitest", "run", "--project", "workers"], needs: ["build"] },
  // The JS budget's test reads the build.
  { name: "unit tests", command: "npx", args: ["vitest", "run", "--project", "unit"], needs: ["build"] },
  { name: "deploy check", command: "node", args: ["scripts/deploy-check.ts"], needs: ["build"] },
];

const only = process.argv.slice(2);
const chosen = steps.filter((step) => only.length === 0 || only.some((word) => step.name.startsWith(word)));
const missing = missingNeeds(chosen.map((step) => step.name.replace(/ \d+\/\d+$/, "")));
if (missing.length > 0) {
  console.error(describeMissing(missing));
  process.exit(1);
}

// The local secrets (.dev.vars) are made once here, before the end-to-end halves start a stack each side by side.
localSecrets();

const names = new Set(chosen.map((step) => step.name));
const passed = new Set<string>();
const running = new Map<string, ChildProcess>();
const timings: string[] = [];
const suiteStarted = Date.now();
let failure: string | null = null;

/** A step may start once each of its needs that was chosen has passed. */
const ready = (step: Step) => (step.needs ?? []).every((need) => !names.has(need) || passed.has(need));

function runStep(step: Step): Promise<void> {
  console.log(`--- ${step.name}: started at ${elapsed()}`);
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(step.command, step.args, {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      env: childEnv({ FORCE_COLOR: "0", ...step.env }),
      detached: true,
    });
    running.set(step.name, child);
    const output: Buffer[] = [];
    child.stdout?.on("data", (chunk: Buffer) => output.push(chunk));
    child.stderr?.on("data", (chunk: Buffer) => output.push(chunk));
    child.on("close", (exitCode, signal) => {
      running.delete(step.name);
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const stopped = signal !== null && failure !== null;
      console.log(`\n=== ${step.name} ===\n${Buffer.concat(output).toString()}`);
      if (exitCode === 0) passed.add(step.name);
      else if (!stopped && failure === null) failure = step.name;
      timings.push(`  ${exitCode === 0 ? "ok  " : stopped ? "stop" : "FAIL"}  ${step.name.padEnd(34)} ${seconds} s`);
      if (failure !== null) stopAll();
      resolve();
    });
  });
}

function stopAll() {
  for (const child of running.values()) {
    try {
      if (child.pid) process.kill(-child.pid, "SIGTERM"); // the whole group: vitest, its workerd, Chromium
    } catch {
      // already gone
    }
  }
}

function elapsed() {
  return `${((Date.now() - suiteStarted) / 1000).toFixed(0)} s`;
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    failure ??= `interrupted (${signal})`;
    stopAll();
    process.exit(1);
  });
}

const waiting = [...chosen];
const inFlight = new Set<Promise<void>>();
while ((waiting.length > 0 || inFlight.size > 0) && failure === null) {
  for (const step of [...waiting]) {
    if (inFlight.size >= PARALLEL || !ready(step)) continue;
    waiting.splice(waiting.indexOf(step), 1);
    const run = runStep(step).then(() => {
      inFlight.delete(run);
    });
    inFlight.add(run);
  }
  if (inFlight.size === 0) break; // nothing can start: a need failed
  await Promise.race(inFlight);
}
await Promise.all(inFlight);

const summary = `${timings.join("\n")}\n  total ${elapsed()}`;
if (failure !== null) {
  console.error(`\n${summary}\n\n${failure} failed.`);
  process.exit(1);
}
console.log(`\nAll checks passed:\n${summary}`);
