// `virtual:remix-build` is the server build written by `remix vite:build` to
// build/server/index.js; wrangler.toml and vitest.config.ts alias it there.
declare module "virtual:remix-build" {
  import type { ServerBuild } from "@remix-run/cloudflare";
  const build: ServerBuild;
  export = build;
}
