"use strict";
// require() of the web and slim entries: the CommonJS build, ready once required (it reads the
// package's .wasm from disk). init(), initSync() and initialize() have nothing left to do, and are
// kept so that code written for those entries runs unchanged under require() (Jest, for one).
// `default` is init(), as an ES module's default export compiled to CommonJS (`__esModule`).
const glue = require("./index.cjs");

const output = () => ({ memory: glue.__mgMemory() });
Object.defineProperty(exports, "__esModule", { value: true });
Object.assign(exports, glue);
exports.default = async () => output();
exports.initSync = () => output();
exports.initialize = async () => {};
