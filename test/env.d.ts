// Bindings the workers tests add on top of the worker's own (see vitest.config.ts).
declare namespace Cloudflare {
  interface Env {
    TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
    SANDBOX_URL: string;
  }
}
