import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import wasm from "vite-plugin-wasm";
import { docsMarkdown } from "./vite/docs-markdown";

// `make dev`: Vite serves the app on 3000 with hot reload and proxies the API to the server on 3002
// (the spec's local dev ports).
const apiTarget = process.env.MG_API_URL ?? "http://127.0.0.1:3002";

export default defineConfig({
  plugins: [react(), wasm(), docsMarkdown()],
  build: {
    target: "esnext",
    // graphics.html: the graphics harness used by the e2e tests and the browser bench.
    rollupOptions: {
      input: {
        main: fileURLToPath(new URL("index.html", import.meta.url)),
        graphics: fileURLToPath(new URL("graphics.html", import.meta.url)),
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
});
