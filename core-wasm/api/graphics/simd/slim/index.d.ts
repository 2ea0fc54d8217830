// The same API as every other entry, plus `initialize` (and `initSync`), which must run before any
// class is used.
export * from "../web/mg_core_graphics_simd.js";

/** What `initialize` accepts: the .wasm's URL, a Response (or its promise), its bytes, or a compiled module. */
export type WasmSource =
  | string
  | URL
  | Response
  | Promise<Response>
  | BufferSource
  | WebAssembly.Module;

/** Instantiates the wasm from `source`; resolves when the classes can be used. Never fetches by itself. */
export function initialize(source: WasmSource): Promise<void>;
