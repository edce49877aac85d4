// The npm registry reachable here lags behind on some platform builds (workerd and
// rollup for macOS/Windows/ARM), so `npm install` leaves their optional entries
// out of package-lock.json, and `npm ci` then refuses the lockfile as out of
// sync. This adds an entry for each missing optional platform package, marked
// with its os/cpu so npm skips it on other platforms. Run after `npm install`
// (npm runs it as the `postinstall` of this package).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./process.ts";

interface LockEntry {
  version?: string;
  optional?: boolean;
  dev?: boolean;
  os?: string[];
  cpu?: string[];
  optionalDependencies?: Record<string, string>;
}

const path = join(ROOT, "package-lock.json");
const lock = JSON.parse(readFileSync(path, "utf8")) as { packages: Record<string, LockEntry> };

const OS: [RegExp, string][] = [
  [/darwin/, "darwin"],
  [/win32|windows/, "win32"],
  [/linux/, "linux"],
  [/freebsd/, "freebsd"],
  [/openbsd/, "openbsd"],
  [/android/, "android"],
  [/sunos/, "sunos"],
  [/aix/, "aix"],
  [/openharmony/, "openharmony"],
];
const CPU: [RegExp, string][] = [
  [/arm64|aarch64/, "arm64"],
  [/arm(?!64)/, "arm"],
  [/x64|64(?!-)/, "x64"],
  [/ia32|x86(?!_64)/, "ia32"],
  [/ppc64/, "ppc64"],
  [/riscv64/, "riscv64"],
  [/s390x/, "s390x"],
  [/loong64/, "loong64"],
];

let added = 0;
for (const [location, entry] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const base = location === "" ? "node_modules" : `${location}/node_modules`;
    const candidates = [`${base}/${name}`, `node_modules/${name}`];
    if (candidates.some((candidate) => lock.packages[candidate])) continue;
    const os = OS.find(([pattern]) => pattern.test(name))?.[1];
    const cpu = CPU.find(([pattern]) => pattern.test(name.replace(/^@[^/]+\//, "")))?.[1];
    if (!os) continue; // not a platform package: leave it to npm
    lock.packages[`node_modules/${name}`] = {
      version,
      ...(entry.dev ? { dev: true } : {}),
      optional: true,
      os: [os],
      ...(cpu ? { cpu: [cpu] } : {}),
    };
    added += 1;
  }
}

if (added > 0) {
  lock.packages = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))));
  writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
  console.log(`complete-lockfile: added ${added} optional platform entries missing from the registry snapshot`);
}
