// Node, CommonJS: require() of every entry gives a CommonJS module on every supported Node (the
// `require` condition), with or without require() of ES modules: the machines, the graphics, the
// web and slim entries (ready at once, their init() and initialize() with nothing to do) and
// mg-core/react.
const core = require("mg-core");
const graphics = require("mg-core/graphics");
const web = require("mg-core/web");
const slim = require("mg-core/status/slim");
const react = require("mg-core/react");

const cube = new graphics.HypercubeWidget();
cube.step();
const floats = cube.verticesLen();
cube.free();

async function entries() {
  const { memory } = await web.default();
  if (!(memory instanceof WebAssembly.Memory)) throw new Error("require('mg-core/web'): init() gave no memory");
  await slim.initialize(new Uint8Array(0));
  new slim.StatusPageMachine().free();
  if (typeof react.useTheme !== "function" || !react.themeScript.includes("localStorage"))
    throw new Error("require('mg-core/react'): not the bindings");
  return "web init(), status/slim initialize(), react";
}

Promise.all([import("../common/check.mjs"), entries()]).then(([{ driveMachines }, more]) =>
  console.log(`require(): ${driveMachines(core)}; hypercube ${floats} floats; ${more}`),
);
