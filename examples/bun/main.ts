// The Node entry of the package (its `deno` / `bun` export conditions): the .wasm is read from disk.
import * as core from "mg-core";
import * as graphics from "mg-core/graphics";
import { driveMachines, fillHypercube } from "../common/check.mjs";

console.log(driveMachines(core));
console.log(fillHypercube(graphics));
