// webpack 5 with nothing to configure: the `webpack` condition gives the package's inlined build.
import * as core from "mg-core";
import { driveMachines, fillHypercube } from "../common/check.mjs";
import { report } from "../common/report.mjs";

report(async () => [driveMachines(core), fillHypercube(await import("mg-core/graphics"))]);
