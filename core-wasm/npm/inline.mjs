// Two builds of one .wasm that need no .wasm loader (build.sh runs this for each part of the package):
//   inline/<name>_wasm.js  the .wasm as a base64 string, an ES module (templates/inline.js, the
//                          inline/index.js entry, decodes and compiles it): for bundlers that cannot
//                          load a .wasm file
//   node/index.cjs         CommonJS: wasm-bindgen's nodejs glue, reading the package's .wasm from disk
//                          (require() in Node, Jest's CommonJS and jsdom environments)
//   node inline.mjs <.wasm> <nodejs glue .js> <package part dir> <name>
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const [wasmPath, gluePath, dir, name] = process.argv.slice(2);
const base64 = readFileSync(wasmPath).toString("base64");
writeFileSync(join(dir, "inline", `${name}_wasm.js`), `export default "${base64}";\n`);

let glue = readFileSync(gluePath, "utf8").replace(/^\/\* @ts-self-types=.*\n/, "");
const load = /^const wasmPath = .*$/m;
if (!load.test(glue) || !glue.includes("require('fs').readFileSync(wasmPath)"))
  throw new Error(`inline.mjs: the nodejs glue of ${name} no longer reads its .wasm as expected; update it`);
glue = glue.replace(load, () => `const wasmPath = require("node:path").join(__dirname, "..", "bundler", "${name}_bg.wasm");`);
const header =
  '"use strict";\n' +
  "// The CommonJS build: wasm-bindgen's nodejs glue, reading the package's .wasm from disk.\n" +
  "// Jest's jsdom environment has no TextDecoder/TextEncoder globals; Node's util has both.\n" +
  'const { TextDecoder, TextEncoder } = typeof globalThis.TextDecoder === "function" && typeof globalThis.TextEncoder === "function" ? globalThis : require("node:util");\n';
// The memory for node/init.cjs's init() result; not enumerable, so never one of the module's exports.
const memory = '\nObject.defineProperty(exports, "__mgMemory", { value: () => wasm.memory });\n';
writeFileSync(join(dir, "node", "index.cjs"), header + glue + memory);
