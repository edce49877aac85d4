import { vitePlugin as remix, cloudflareDevProxyVitePlugin } from "@remix-run/dev";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [
    cloudflareDevProxyVitePlugin(),
    remix({
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_singleFetch: true,
        v3_lazyRouteDiscovery: true,
      },
    }),
  ],
  // No PostCSS plugins. Said inline, so Vite never searches for a PostCSS config: that search
  // (postcss-load-config) sets process.env.NODE_ENV to "development" when it is unset, and modules
  // transformed after it were then built with React's development build (StrictMode mounting every
  // effect twice), depending on the order the build happened to take.
  css: { postcss: {} },
  // Pin previews draw in module workers (app/lib/preview-worker.ts) that load satori as a separate chunk.
  worker: { format: "es" },
  build: {
    // Pages are server-rendered at the edge; the client bundle only hydrates them.
    sourcemap: false,
  },
  ssr: {
    resolve: {
      conditions: ["workerd", "worker", "browser"],
      externalConditions: ["workerd", "worker"],
    },
  },
});
