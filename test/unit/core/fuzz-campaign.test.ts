import { describe, expect, it } from "vitest";
import { runCampaign, TIME_LIMIT_MS, type Target } from "../../fuzz/campaign.ts";

// The campaign runner's time rule (decision 078): by a CPU clock, a case over the limit fails; by the wall clock
// (the suite's workerd campaigns, run beside other steps), it fails only when it is also slow for its size beside
// the run's other cases, so a busy machine does not fail a parser while a parser gone superlinear still fails.

/** A target whose inputs "take" a time the test decides, on a fake clock that the run moves forward. */
function fakeTarget(costOf: (bytes: Uint8Array) => number, cpuClock: boolean) {
  let now = 0;
  const tick = () => now;
  const target: Target = {
    name: "fake",
    seeds: [new Uint8Array(8 * 1024), new Uint8Array(64 * 1024), new Uint8Array(1024 * 1024)],
    mutators: [(bytes) => bytes],
    run(bytes) {
      now += costOf(bytes);
      return "accepted";
    },
    ...(cpuClock ? { clock: tick } : {}),
  };
  return { target, wallClock: tick };
}

describe("the campaign runner's time limit", () => {
  it("by the wall clock, does not fail a big input that is slow only because the machine is busy", async () => {
    // Every input at the same speed (1.3 ms per KB): the 1 MB seed takes 1.3 s, over the limit.
    const { target, wallClock } = fakeTarget((bytes) => (bytes.length / 1024) * 1.3, false);
    const result = await runCampaign(target, { cases: 200, seed: 7, wallClock });
    expect(result.slowest.ms).toBeGreaterThan(TIME_LIMIT_MS);
    expect(result.failures).toBe(0);
  });

  it("by the wall clock, fails an input that is slow for its size (superlinear)", async () => {
    // The 64 KB seed takes 1.5 s (about 23 ms per KB, against 0.05 for the others).
    const { target, wallClock } = fakeTarget((bytes) => (bytes.length === 64 * 1024 ? 1_500 : (bytes.length / 1024) * 0.05), false);
    const result = await runCampaign(target, { cases: 200, seed: 7, wallClock });
    expect(result.failures).toBeGreaterThan(0);
    expect(result.examples.every((failure) => failure.kind === "slow" && failure.bytes === 64 * 1024)).toBe(true);
  });

  it("by a CPU clock, fails any input over the limit", async () => {
    const { target } = fakeTarget((bytes) => (bytes.length / 1024) * 1.3, true);
    const result = await runCampaign(target, { cases: 200, seed: 7 });
    expect(result.failures).toBeGreaterThan(0);
    expect(result.examples.every((failure) => failure.kind === "slow" && failure.bytes === 1024 * 1024)).toBe(true);
  });
});
