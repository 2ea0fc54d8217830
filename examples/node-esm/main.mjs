// Node, ES modules, no bundler: `import` is all it takes (the package reads its .wasm from disk).
//   npm install mg-core-<version>.tgz && node main.mjs
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import * as core from "mg-core";
import * as graphics from "mg-core/graphics";
import * as graphicsSimd from "mg-core/graphics/simd";
import * as slim from "mg-core/slim";
import { driveMachines, fillHypercube } from "../shared/check.mjs";

console.log(driveMachines(core));
console.log(fillHypercube(graphics));
console.log(`simd128: ${fillHypercube(graphicsSimd)}`);

// The slim entry: nothing loads until the caller hands over the .wasm (here its bytes).
let refused = false;
try {
  new slim.ThemeMachine(undefined);
} catch {
  refused = true;
}
if (!refused) throw new Error("slim: a class worked before initialize()");
await slim.initialize(readFileSync(fileURLToPath(import.meta.resolve("mg-core/mg_core_bg.wasm"))));
console.log(`slim: ${driveMachines(slim)}`);
