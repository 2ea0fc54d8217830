// The browser bench page's script: one frame of each widget's math, wasm against plain JS.

import { HelixWidget, HypercubeWidget, IcosahedronWidget, MoleculeWidget } from "mg-core/graphics";
import {
  HelixJs,
  HypercubeJs,
  IcosahedronJs,
  MoleculeJs,
} from "../src/features/bench/js-scenes.js";

const SCENES = [
  { name: "icosahedron", wasm: () => new IcosahedronWidget(7), js: () => new IcosahedronJs() },
  { name: "hypercube", wasm: () => new HypercubeWidget(), js: () => new HypercubeJs() },
  { name: "helix", wasm: () => new HelixWidget(), js: () => new HelixJs() },
  { name: "molecule", wasm: () => new MoleculeWidget(), js: () => new MoleculeJs() },
];

/** Nanoseconds per frame for `frames` calls of `scene.step()`. */
function time(scene, frames) {
  const start = performance.now();
  for (let i = 0; i < frames; i += 1) scene.step();
  return ((performance.now() - start) * 1e6) / frames;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Warms both paths up, then alternates timed rounds and reports each path's median. */
window.runGraphicsBench = ({ frames = 20_000, rounds = 7 } = {}) =>
  SCENES.map(({ name, wasm, js }) => {
    const wasmScene = wasm();
    const jsScene = js();
    time(wasmScene, frames);
    time(jsScene, frames);
    const wasmTimes = [];
    const jsTimes = [];
    for (let round = 0; round < rounds; round += 1) {
      wasmTimes.push(time(wasmScene, frames));
      jsTimes.push(time(jsScene, frames));
    }
    wasmScene.free();
    const wasmNs = median(wasmTimes);
    const jsNs = median(jsTimes);
    return { scene: name, wasmNs, jsNs, ratio: jsNs / wasmNs };
  });

window.graphicsBenchReady = true;
