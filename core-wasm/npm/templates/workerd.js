// Cloudflare Workers (workerd) entry of __PKG__: the package's .wasm imported as a module, which the
// runtime compiles when the Worker is uploaded or started (Wrangler's default rule for `*.wasm`, a
// `wasm` module in a workerd config). Workers refuse to compile wasm from bytes at run time ("Wasm code
// generation disallowed by embedder"), so the inlined build cannot run there. Ready once imported.
import module from "../bundler/__NAME___bg.wasm";
import { initSync } from "../slim/__NAME__.js";

initSync({ module });

export * from "../slim/__NAME__.js";
