import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { resolve } from "node:path";
import { defineConfig } from "vitest/config";
import { providerVars } from "./sandbox/provider-vars.ts";

/**
 * Three projects:
 * - unit: pure rules and Node-side code (sandbox, video service), in Node.
 * - workers: the worker inside workerd (D1, R2, Durable Objects, Queues), with
 *   migrations applied in setup and providers pointing at a sandbox started by
 *   the global setup.
 * - e2e: the built app started the way `npm start` starts it, driven in Chromium.
 */
export default defineConfig({
  test: {
    // vitest's report, then one short line per failure (the CI log keeps only its tail).
    reporters: ["default", "./test/support/failure-summary.ts"],
    projects: [
      {
        // The worker's parsers of untrusted bytes run here as in workerd (test/unit/core/untrusted-bytes.test.ts): a .wasm
        // import is a compiled WebAssembly.Module, as wrangler bundles it, and the WebAssembly packages' workerd
        // entries are their Node entries (the same modules and glue, loaded from a file rather than by the bundler).
        plugins: [
          {
            name: "wasm-modules",
            enforce: "pre",
            load(id) {
              if (id.endsWith(".wasm"))
                return `import { readFileSync } from "node:fs";\nexport default new WebAssembly.Module(readFileSync(${JSON.stringify(id)}));`;
            },
          },
        ],
        resolve: {
          alias: [{ find: /^@cf-wasm\/(photon|satori)\/workerd$/, replacement: "@cf-wasm/$1/node" }],
        },
        test: {
          name: "unit",
          environment: "node",
          include: ["test/unit/**/*.test.ts"],
        },
      },
      {
        plugins: [
          cloudflareTest(async ({ inject }) => {
            const sandboxUrl = inject<string>("sandboxUrl");
            return {
              wrangler: { configPath: "./wrangler.toml" },
              miniflare: {
                bindings: {
                  ...providerVars({ appUrl: "http://app.test", sandboxUrl }),
                  APP_ENV: "test",
                  EMAIL_API_KEY: "re_test_key",
                  OPENAI_API_KEY: "sk-test-openai-key-0123456789",
                  PINTEREST_CLIENT_SECRET: "pinterest-test-client-secret",
                  STRIPE_SECRET_KEY: "sk_test_pinboard_workers_tests",
                  PAYPAL_CLIENT_SECRET: "paypal-test-client-secret",
                  // Short, so the Shopify timeout tests need not wait 15 s.
                  SHOPIFY_TIMEOUT_MS: "1500",
                  // Short, so the WooCommerce slow-store tests need not wait 15 s.
                  WOOCOMMERCE_TIMEOUT_MS: "1500",
                  // And the Etsy slow-answer tests.
                  ETSY_TIMEOUT_MS: "1500",
                  // The campaigns' lost answers land at once: a short wait keeps their runs short (decision 085).
                  PINTEREST_LATE_CREATE_SECONDS: "3",
                  META_CAPI_TOKEN: "meta-test-token",
                  TIKTOK_ACCESS_TOKEN: "tiktok-test-token",
                  AUTH_SECRET: "test-auth-secret-0123456789abcdefghijklmnop",
                  SANDBOX_URL: sandboxUrl,
                  TEST_MIGRATIONS: await readD1Migrations(resolve("migrations")),
                },
                // A database no other test file writes to, for the seed's test (the files share DB).
                d1Databases: { SEED_TEST_DB: "seed-test-db" },
                // The tests start no container (the pool runs wrangler's config with containers off): a stand-in for
                // the VideoContainer Durable Object forwards to the local video service (decision 095).
                durableObjects: { VIDEO_CONTAINER_STAND_IN: { className: "VideoContainerStandIn", scriptName: "video-container-stand-in" } },
                workers: [
                  {
                    name: "video-container-stand-in",
                    modules: true,
                    scriptPath: "./test/workers/content/video-container-stand-in.js",
                    compatibilityDate: "2026-10-01",
                    bindings: { VIDEO_SERVICE_ORIGIN: inject<string>("videoServiceUrl") },
                    durableObjects: { VIDEO_CONTAINER_STAND_IN: "VideoContainerStandIn" },
                  },
                ],
              },
            };
          }),
        ],
        resolve: {
          alias: { "virtual:remix-build": resolve("build/server/index.js") },
        },
        test: {
          name: "workers",
          include: ["test/workers/**/*.test.ts"],
          globalSetup: ["test/support/services-setup.ts"],
          setupFiles: ["test/workers/setup.ts"],
          testTimeout: 30_000,
          // One workerd for all the files, one file at a time (decision 075): a fresh workerd per file spent about
          // 9 s starting and loading the app's modules, three quarters of this project's time. So the files share
          // storage: each makes its own users, profiles and names, and none counts what it did not make. One at a
          // time because they share the sandbox too (its outbox, faults and resets).
          isolate: false,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: "e2e",
          environment: "node",
          include: ["test/e2e/**/*.test.ts"],
          globalSetup: ["test/e2e/global-setup.ts"],
          fileParallelism: false,
          // A user's journey through several pages: 60 s alone is enough for the longest (a 15-pin Shopify schedule,
          // about 30 s), but npm test runs this step beside the others (decision 090), which can double it.
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
