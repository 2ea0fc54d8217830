import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import wasm from "vite-plugin-wasm";
import { defineConfig } from "vitest/config";
import { appAliases, appDedupe } from "./vite/aliases";
import { docsMarkdown } from "./vite/docs-markdown";

export default defineConfig({
  plugins: [react(), wasm(), docsMarkdown()],
  resolve: { alias: appAliases, dedupe: appDedupe },
  // src/lib/wasm/load-core.ts imports the machines' .wasm as a URL (to preload it); the file lives
  // in the linked package (../pkg), outside this folder.
  server: {
    fs: {
      allow: [
        fileURLToPath(new URL(".", import.meta.url)),
        fileURLToPath(new URL("../pkg", import.meta.url)),
      ],
    },
  },
  test: {
    environment: "jsdom",
    // One jsdom per worker, shared by the files it runs, each file starting from a reset document
    // and storage (vite/test-setup.ts): a fresh jsdom for each file cost most of the suite's time.
    isolate: false,
    // Rendering a whole reference page in jsdom takes seconds while the Rust lane of `make test`
    // compiles beside it.
    testTimeout: 20_000,
    setupFiles: ["vite/test-setup.ts"],
    include: ["src/**/*.test.{ts,tsx}", "vite/**/*.test.ts", "common/**/*.test.ts"],
    restoreMocks: true,
  },
});
