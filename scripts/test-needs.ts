// What `npm test` needs from the machine besides npm packages, checked before the first step runs, so that a
// fresh machine hears at once what is missing and how to get it (issue 40 point 14) rather than after a
// ten-minute build and a failed test. `.ci/run` installs all of it.
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";

export interface Need {
  /** The program, as the user would install it. */
  program: string;
  /** Which steps of `npm test` use it (matched like `npm test -- <word>`). */
  steps: string[];
  /** What it is for, in plain words. */
  why: string;
  /** The Debian package that brings it. */
  debianPackage: string;
  /** Where we look: an absolute path, or a name searched on PATH. */
  find(env: NodeJS.ProcessEnv): string;
}

export const NEEDS: Need[] = [
  {
    program: "Chromium",
    steps: ["end-to-end tests (Chromium)"],
    why: "the end-to-end tests drive it",
    debianPackage: "chromium",
    find: (env) => env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  },
  {
    program: "ffprobe (ffmpeg)",
    steps: ["unit tests"],
    why: "the video service's tests read the videos they make with it",
    debianPackage: "ffmpeg",
    find: () => "ffprobe",
  },
];

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Where `name` runs from: itself when it is a path, else the first match on PATH; null when nowhere. */
export function locate(name: string, env: NodeJS.ProcessEnv = process.env): string | null {
  if (name.includes("/")) return executable(name) ? name : null;
  for (const folder of (env.PATH ?? "").split(delimiter)) {
    if (folder && executable(join(folder, name))) return join(folder, name);
  }
  return null;
}

/** The needs of the steps that will run that this machine lacks. */
export function missingNeeds(stepNames: string[], env: NodeJS.ProcessEnv = process.env): Need[] {
  return NEEDS.filter((need) => need.steps.some((step) => stepNames.includes(step)) && locate(need.find(env), env) === null);
}

/** What `npm test` says before stopping, when something is missing. */
export function describeMissing(missing: Need[], env: NodeJS.ProcessEnv = process.env): string {
  const lines = missing.map((need) => `  - ${need.program}: ${need.why}; looked for ${need.find(env)}`);
  const packages = [...new Set(missing.map((need) => need.debianPackage))].join(" ");
  return [
    "npm test cannot start: this machine lacks",
    ...lines,
    "",
    `Install it (Debian or Ubuntu): sudo apt-get install ${packages}`,
    "or run .ci/run, which installs what is missing and then runs npm ci and npm test.",
    "Chromium elsewhere: set CHROMIUM_PATH to its binary. The README's 'Run it and test it' lists every need.",
  ].join("\n");
}
