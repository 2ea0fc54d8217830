import react from "@vitejs/plugin-react";
import wasm from "vite-plugin-wasm";
import { defineConfig } from "vitest/config";
import { docsMarkdown } from "./vite/docs-markdown";

export default defineConfig({
  plugins: [react(), wasm(), docsMarkdown()],
  test: {
    environment: "jsdom",
    include: ["src/**/*.test.{ts,tsx}"],
    restoreMocks: true,
  },
});
