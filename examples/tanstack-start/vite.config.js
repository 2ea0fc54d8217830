// TanStack Start's Vite plugin and React's (its dev server needs React Refresh); nothing about mg-core.
import { tanstackStart } from "@tanstack/react-start/plugin/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

export default defineConfig({ plugins: [tanstackStart(), react()], logLevel: "warn" });
