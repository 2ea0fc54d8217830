// `esbuild --bundle --platform=node` of a CommonJS file: require() matches `node` + `module` first,
// the inlined builds, so the bundle runs from anywhere (a `require` build would look for the
// package's .wasm beside the bundle).
const core = require("mg-core");
const graphics = require("mg-core/graphics");
const { driveMachines, fillHypercube } = require("../common/check.mjs");

console.log(`bundled for node: ${driveMachines(core)}; ${fillHypercube(graphics)}`);
