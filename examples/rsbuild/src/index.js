// Rsbuild with no configuration (src/index.js is its default entry).
import * as core from "mg-core";
import { driveMachines, fillHypercube } from "../../common/check.mjs";
import { report } from "../../common/report.mjs";

report(async () => [driveMachines(core), fillHypercube(await import("mg-core/graphics"))]);
