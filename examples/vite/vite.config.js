// Nothing about mg-core or wasm: the relative base lets the matrix serve the build from a subfolder.
import { defineConfig } from "vite";

export default defineConfig({ base: "./", logLevel: "warn" });
