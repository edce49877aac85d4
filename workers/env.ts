/**
 * The worker's bindings: what wrangler.toml declares plus the secrets listed in
 * .dev.vars.example, generated into worker-configuration.d.ts by
 * `npm run cf-typegen` (and checked by `npm run typecheck`). Secrets live in
 * `.dev.vars` locally and in `wrangler secret put` in production.
 */
export type Env = CloudflareBindings;
