// Bindings the workers tests add on top of the worker's own (see vitest.config.ts).
declare namespace Cloudflare {
  interface Env {
    TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
    SANDBOX_URL: string;
    /** A D1 of the seed's test alone (vitest.config.ts). */
    SEED_TEST_DB: D1Database;
  }
}
