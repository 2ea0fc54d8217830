// Node, ES modules, no bundler: `import` is all it takes (the package reads its .wasm from disk).
//   npm install mg-core-<version>.tgz && node main.mjs
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import * as core from "mg-core";
import * as graphics from "mg-core/graphics";
import * as graphicsSimd from "mg-core/graphics/simd";
import * as slim from "mg-core/slim";
import { StatusPageMachine } from "mg-core/status";
import { driveMachines, fillHypercube } from "../common/check.mjs";

console.log(driveMachines(core));
console.log(fillHypercube(graphics));
console.log(`simd128: ${fillHypercube(graphicsSimd)}`);

// The status page's machine, its own .wasm: its first round asks for the two checks and the page.
const status = new StatusPageMachine(false, false, undefined);
try {
  const plan = status.poll(0);
  if (!plan?.checkApi || !plan.checkDb || plan.statusPath === null)
    throw new Error(`status: unexpected first round ${JSON.stringify(plan)}`);
  console.log(`status: first round asks ${plan.statusPath}`);
} finally {
  status.free();
}

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
