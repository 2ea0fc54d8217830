// esbuild with no configuration (`esbuild main.js --bundle`): it has no .wasm loader, and it gets the
// package's inlined build (the `browser` condition without `development`/`production`).
import * as core from "mg-core";
import { driveMachines, fillHypercube } from "../common/check.mjs";
import { report } from "../common/report.mjs";

report(async () => [driveMachines(core), fillHypercube(await import("mg-core/graphics"))]);
