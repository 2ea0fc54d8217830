import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig, type UserConfig } from "vite";
import wasm from "vite-plugin-wasm";
import { appAliases, appDedupe } from "./vite/aliases";
import { docsMarkdown } from "./vite/docs-markdown";
import { precompress } from "./vite/precompress";

// `make dev`: Vite serves the app on 3000 with hot reload and proxies the API to the server on 3002
// (the spec's local dev ports).
const apiTarget = process.env.MG_API_URL ?? "http://127.0.0.1:3002";
const page = (file: string): string => fileURLToPath(new URL(file, import.meta.url));

// `vite build` is the production build (app/dist): the app alone. `vite build --mode harness` builds
// the graphics harness page (graphics.html, for the e2e graphics tests) into app/dist-harness, so the
// test page never ships with the app.
export default defineConfig(({ mode, isSsrBuild }) => {
  if (isSsrBuild) return ssrBuild();
  const harness = mode === "harness";
  const input: Record<string, string> = harness
    ? { graphics: page("graphics.html") }
    : { main: page("index.html") };
  return {
    plugins: harness ? [react(), wasm()] : [react(), wasm(), docsMarkdown(), precompress()],
    resolve: { alias: appAliases, dedupe: appDedupe },
    build: {
      outDir: harness ? "dist-harness" : "dist",
      target: "esnext",
      // Which chunks and stylesheets each page needs, for the prerendered pages' <link>s
      // (scripts/prerender.mjs reads it, then deletes it: it is never served).
      manifest: !harness,
      // Every browser that runs this build supports <link rel="modulepreload">; the polyfill would be
      // one more request on every first visit.
      modulePreload: { polyfill: false },
      rollupOptions: {
        input,
        output: {
          // Vendor chunks named for what they hold (rolldown would otherwise name React DOM after the
          // first app module it meets, e.g. `styles-*.js`); every page needs both at once. `app` keeps
          // the app's first-load modules in one chunk: without it, each module the lazy pages share
          // with it (paths, env, the API client, ...) becomes its own few-hundred-byte request on the
          // first visit. main.tsx (it renders) and the graphics modules stay out: the graphics load
          // after first paint.
          codeSplitting: {
            groups: [
              { name: "react", test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
              { name: "router", test: /node_modules[\\/](react-router|react-router-dom)[\\/]/ },
              {
                name: "app",
                tags: ["$initial"],
                test: (id) =>
                  (/[\\/]app[\\/]src[\\/]/.test(id) &&
                    !/[\\/]src[\\/](graphics[\\/]|main\.tsx)/.test(id)) ||
                  id.includes("vite/preload-helper"),
              },
            ],
          },
        },
      },
    },
    server: {
      port: 3000,
      strictPort: true,
      proxy: {
        "/api": apiTarget,
        "/health": apiTarget,
        "/db-health": apiTarget,
        // The local identity emulator lives in the server too.
        "/v1": apiTarget,
        "/v2": apiTarget,
        "/emulator": apiTarget,
      },
    },
  };
});

/**
 * `vite build --ssr src/entry-server.tsx`: the app, React's server renderer and the wasm core (inlined
 * by vite-plugin-wasm and instantiated in Node) in one self-contained module in app/dist-ssr, which
 * scripts/prerender.mjs loads once per configuration variant (one file, so each load is a fresh copy of
 * the app's module state). Never served.
 */
function ssrBuild(): UserConfig {
  return {
    plugins: [react(), wasm(), docsMarkdown()],
    resolve: { alias: appAliases, dedupe: appDedupe },
    // React's production build, as in the browser (its development build renders several times slower).
    define: { "process.env.NODE_ENV": JSON.stringify("production") },
    ssr: { noExternal: true, target: "node" },
    build: {
      outDir: "dist-ssr",
      target: "node20",
      emptyOutDir: true,
      copyPublicDir: false,
      minify: false,
      rollupOptions: { output: { codeSplitting: false, entryFileNames: "entry-server.mjs" } },
    },
    logLevel: "warn",
  };
}
