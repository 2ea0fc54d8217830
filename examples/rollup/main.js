// Rollup with @rollup/plugin-node-resolve and nothing else (`rollup main.js -p @rollup/plugin-node-resolve`):
// the package's inlined build (the `default` condition).
import * as core from "mg-core";
import { driveMachines, fillHypercube } from "../common/check.mjs";
import { report } from "../common/report.mjs";

report(async () => [driveMachines(core), fillHypercube(await import("mg-core/graphics"))]);
