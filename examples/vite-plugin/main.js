// The package's bundler build: vite-plugin-wasm instantiates the .wasm when the module loads.
import * as core from "mg-core";
import { driveMachines, fillHypercube } from "../common/check.mjs";
import { report } from "../common/report.mjs";

report(async () => [
  driveMachines(core),
  // The graphics .wasm is only downloaded when something imports the subpath.
  fillHypercube(await import("mg-core/graphics")),
]);
