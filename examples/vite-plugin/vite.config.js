import { defineConfig } from "vite";
import wasm from "vite-plugin-wasm";

export default defineConfig({
  plugins: [wasm()],
  base: "./",
  // The bundler build instantiates with top-level await.
  build: { target: "esnext" },
  logLevel: "warn",
});
