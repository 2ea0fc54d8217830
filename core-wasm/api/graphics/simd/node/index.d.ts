// The same API as every other entry; the module is ready once imported.
export * from "../bundler/mg_core_graphics_simd.js";
