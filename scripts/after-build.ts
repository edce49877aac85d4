// Runs after `remix vite:build`: static assets are served by Cloudflare before the
// worker runs, so their headers come from build/client/_headers (APP_BUILD_DIR/client/_headers for the
// benchmarks' own build).
import { readFileSync, writeFileSync } from "node:fs";

const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };

const headers = `/*
  x-app-version: ${version}
  X-Content-Type-Options: nosniff
  X-Frame-Options: DENY
  Referrer-Policy: strict-origin-when-cross-origin

/assets/*
  Cache-Control: public, max-age=31536000, immutable
`;
const buildDir = process.env.APP_BUILD_DIR ?? "build";
writeFileSync(new URL(`../${buildDir}/client/_headers`, import.meta.url), headers);
console.log(`build: wrote ${buildDir}/client/_headers (x-app-version ${version})`);
