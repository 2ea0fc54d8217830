// webpack 5 with its built-in async WebAssembly: the package's bundler build.
import * as core from "mg-core";
import { driveMachines, fillHypercube } from "../common/check.mjs";
import { report } from "../common/report.mjs";

report(async () => [driveMachines(core), fillHypercube(await import("mg-core/graphics"))]);
