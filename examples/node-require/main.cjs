// Node, CommonJS: require("mg-core") gives the package's CommonJS build on every supported Node (the
// `require` condition), with or without require() of ES modules.
const core = require("mg-core");
const graphics = require("mg-core/graphics");
const cube = new graphics.HypercubeWidget();
cube.step();
const floats = cube.verticesLen();
cube.free();
import("../common/check.mjs").then(({ driveMachines }) =>
  console.log(`require(): ${driveMachines(core)}; hypercube ${floats} floats`),
);
