import { vitePlugin as remix, cloudflareDevProxyVitePlugin } from "@remix-run/dev";
import { defineConfig, type Rollup } from "vite";

/**
 * Every module of the app (not of node_modules) that root.tsx imports statically, directly or
 * not, goes into one "shell" chunk. Every page loads all of them anyway; one file instead of a
 * dozen under 1 KB each is fewer requests and compresses better (issue 17's JavaScript budget,
 * docs/decisions/041-server-rendered-prices.md). Modules imported lazily are not followed.
 * The money formatter joins it too: / and /pricing both need it, and a chunk of its own cost them more than its bytes.
 */
function shellChunk(): Rollup.GetManualChunk {
  let shell: Set<string> | null = null;
  return (id, { getModuleIds, getModuleInfo }) => {
    if (!shell) {
      shell = new Set();
      const root = [...getModuleIds()].find((candidate) => /[\\/]app[\\/]root\.tsx$/.test(candidate));
      const queue = root ? [...(getModuleInfo(root)?.importedIds ?? [])] : [];
      while (queue.length > 0) {
        const next = queue.pop()!;
        if (shell.has(next) || next.includes("node_modules") || next.startsWith("\0") || /\.css(\?|$)/.test(next)) continue;
        shell.add(next);
        queue.push(...(getModuleInfo(next)?.importedIds ?? []));
      }
    }
    return shell.has(id) || /[\\/]contracts[\\/]money\.ts$/.test(id) ? "shell" : undefined;
  };
}

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [
    cloudflareDevProxyVitePlugin(),
    remix({
      // The benchmarks build elsewhere (scripts/stack.ts BENCH_BUILD_DIR), never over the build `npm start` serves.
      buildDirectory: process.env.APP_BUILD_DIR ?? "build",
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
    // terser for the browser's bundle: about 2% smaller gzipped than esbuild's minifier, which keeps / and /pricing
    // under issue 17's 100 KB (decision 041); the server bundle keeps esbuild's, for speed.
    minify: isSsrBuild ? "esbuild" : "terser",
    rollupOptions: isSsrBuild ? {} : { output: { manualChunks: shellChunk() } },
  },
  ssr: {
    resolve: {
      conditions: ["workerd", "worker", "browser"],
      externalConditions: ["workerd", "worker"],
    },
  },
}));
