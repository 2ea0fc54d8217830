// Node, Deno and Bun entry of __PKG__: the web build instantiated synchronously from the package's .wasm
// file (read from disk, never fetched), so `import` is all a caller does. No bundler needed.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { initSync } from "../web/__NAME__.js";

// A path built from a string rather than `new URL(...)`: test environments such as jsdom replace the
// global URL with one node:fs does not accept.
const wasm = join(dirname(fileURLToPath(import.meta.url)), "..", "bundler", "__NAME___bg.wasm");
initSync({ module: readFileSync(wasm) });

export * from "../web/__NAME__.js";
