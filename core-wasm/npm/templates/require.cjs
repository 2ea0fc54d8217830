// require("__PKG__"): the package is ES modules only (the wasm is instantiated when the module loads).
// Node versions that can require() an ES module (20.19+, 22.12+) get it; older ones get a message
// that says what to do.
"use strict";
if (process.features && process.features.require_module) {
  module.exports = require("./index.js");
} else {
  throw new Error(
    '__PKG__ is an ES module package. Use `import { ... } from "__PKG__"`, or from CommonJS ' +
      '`const core = await import("__PKG__")` (require() of ES modules needs Node 20.19, 22.12 or later).',
  );
}
