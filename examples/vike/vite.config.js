// Vike with vike-react; nothing about mg-core.
import vike from "vike/plugin";
import { defineConfig } from "vite";

export default defineConfig({ plugins: [vike()], logLevel: "warn" });
