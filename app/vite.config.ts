import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import wasm from "vite-plugin-wasm";

// `make dev`: Vite serves the app on 3000 with hot reload and proxies the API to the server on 3002
// (the spec's local dev ports).
const apiTarget = process.env.MG_API_URL ?? "http://127.0.0.1:3002";

export default defineConfig({
  plugins: [react(), wasm()],
  build: { target: "esnext" },
  server: {
    port: 3000,
    strictPort: true,
    proxy: {
      "/api": apiTarget,
      "/health": apiTarget,
      "/db-health": apiTarget,
    },
  },
});
