import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { describeMissing, locate, missingNeeds } from "../../../scripts/test-needs.ts";

// A folder with a fake ffprobe and a fake chromium, to stand for a machine that has them.
const folder = mkdtempSync(join(tmpdir(), "test-needs-"));
for (const name of ["ffprobe", "chromium"]) {
  writeFileSync(join(folder, name), "#!/bin/sh\n");
  chmodSync(join(folder, name), 0o755);
}
writeFileSync(join(folder, "not-executable"), "");
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const EMPTY = join(folder, "nothing-here");
const ALL_STEPS = ["build", "unit tests", "end-to-end tests (Chromium)"];

describe("npm test's check of the machine (issue 40 point 14)", () => {
  it("finds a program on PATH or at its path, and not one that cannot run", () => {
    expect(locate("ffprobe", { PATH: `${EMPTY}:${folder}` })).toBe(join(folder, "ffprobe"));
    expect(locate("ffprobe", { PATH: EMPTY })).toBeNull();
    expect(locate(join(folder, "chromium"), { PATH: "" })).toBe(join(folder, "chromium"));
    expect(locate(join(folder, "not-executable"), { PATH: folder })).toBeNull();
  });

  it("names what is missing, why, and the command that installs it, before anything runs", () => {
    const bare = { PATH: EMPTY, CHROMIUM_PATH: join(EMPTY, "chromium") };
    const missing = missingNeeds(ALL_STEPS, bare);
    expect(missing.map((need) => need.program)).toEqual(["Chromium", "ffprobe (ffmpeg)"]);
    const said = describeMissing(missing, bare);
    expect(said).toContain("sudo apt-get install chromium ffmpeg");
    expect(said).toContain(`looked for ${join(EMPTY, "chromium")}`);
    expect(said).toContain(".ci/run");
  });

  it("asks only for what the chosen steps use, and nothing on a machine that has it all", () => {
    const bare = { PATH: EMPTY, CHROMIUM_PATH: join(EMPTY, "chromium") };
    expect(missingNeeds(["build", "typecheck", "lint and format"], bare)).toEqual([]);
    expect(missingNeeds(["unit tests"], bare).map((need) => need.program)).toEqual(["ffprobe (ffmpeg)"]);
    expect(missingNeeds(ALL_STEPS, { PATH: folder, CHROMIUM_PATH: join(folder, "chromium") })).toEqual([]);
  });
});
