// The cold first render (bench/render-cold-run.workerd.ts) as a vitest file in a fresh workerd: used for the
// profile (bench/render-cold-profile.ts attaches V8's profiler through vitest's inspector). Module
// loading through vitest is slower than in a deployed worker (each module is fetched from vitest's
// Node process), so bench:render's cold figures come from bench/render-cold-worker.workerd.ts.
import { env } from "cloudflare:test";
import { it } from "vitest";
import { coldRun, type ColdEnv } from "./render-cold-run.workerd.ts";

it("renders a pin in a fresh isolate", () => coldRun(env as unknown as ColdEnv));
