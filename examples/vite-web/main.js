// Vite with no wasm plugin: the web build with its explicit init (Vite emits the .wasm the glue
// points at), and the slim graphics given its .wasm's URL.
import initCore, * as core from "mg-core/web";
import * as graphics from "mg-core/graphics/slim";
import graphicsWasm from "mg-core/graphics/mg_core_graphics_bg.wasm?url";
import { driveMachines, fillHypercube } from "../common/check.mjs";
import { report } from "../common/report.mjs";

report(async () => {
  await initCore();
  await graphics.initialize(graphicsWasm);
  return [driveMachines(core), fillHypercube(graphics)];
});
