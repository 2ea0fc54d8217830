// Parcel 2 with its default configuration: it reads the package's `module` field (the inlined build).
import * as core from "mg-core";
import { driveMachines, fillHypercube } from "../common/check.mjs";
import { report } from "../common/report.mjs";

report(async () => [driveMachines(core), fillHypercube(await import("mg-core/graphics"))]);
