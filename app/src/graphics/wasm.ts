// The only module that imports the graphics part of the wasm package (`mg-core/graphics`, built from
// core-wasm with `--features graphics`): the widgets' geometry. It is a separate .wasm from the
// state machines (`mg-core`, src/lib/wasm/) so that the decorative canvases, which load after first
// paint, never weigh on a page's first load, and pages without a canvas never download them.
export {
  HelixWidget,
  HypercubeWidget,
  IcosahedronWidget,
  MoleculeWidget,
  vertexStride,
  wasmMemory,
} from "mg-core/graphics";
