import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

// The render benchmark's workerd half as vitest files (bench/render.ts starts it
// for the warm renders; bench:render-parts and bench:render-profile for their
// runs; the cold runs of bench:render use the bundled bench/render-cold-worker.workerd.ts).
// It needs no app bindings: fonts are data modules (workers/render/fonts, written
// by scripts/copy-fonts.ts), results go to the orchestrator's HTTP receiver,
// sample photos come from the sandbox.
export default defineConfig({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: "./bench/wrangler.bench.toml" },
      miniflare: {
        bindings: {
          BENCH_SANDBOX_URL: process.env.BENCH_SANDBOX_URL ?? "",
          BENCH_RECEIVER_URL: process.env.BENCH_RECEIVER_URL ?? "",
          BENCH_ROUNDS: process.env.BENCH_ROUNDS ?? "5",
          BENCH_COLD_MODE: process.env.BENCH_COLD_MODE ?? "whole",
          BENCH_COLD_TEMPLATE: process.env.BENCH_COLD_TEMPLATE ?? "",
        },
      },
    }),
  ],
  test: { include: [process.env.BENCH_FILE ?? "bench/render.workerd.ts"], testTimeout: 30 * 60_000 },
});
