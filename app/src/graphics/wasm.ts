// The only module the widgets import the graphics part of the wasm package through: their geometry,
// from one of two builds of core-wasm's `graphics` feature, a separate .wasm from the state machines
// (`mg-core`, src/lib/wasm/) so that the decorative canvases, which load after first paint, never
// weigh on a page's first load, and pages without a canvas never download either build.
// - `mg-core/graphics/simd`: built with `+simd128`, so glam's math runs on 128-bit SIMD; taken where
//   the browser validates a SIMD module (every current engine);
// - `mg-core/graphics`: the scalar build, for the others.
// The two export the same API; the /bench page times both.
import type * as GraphicsModule from "mg-core/graphics";
import { simdSupported } from "./simd-probe";

/** Which build the widgets run on. */
export const graphicsBuild: "simd128" | "scalar" = simdSupported() ? "simd128" : "scalar";

const graphics: typeof GraphicsModule =
  graphicsBuild === "simd128"
    ? await import("mg-core/graphics/simd")
    : await import("mg-core/graphics");

export const {
  HelixWidget,
  HypercubeWidget,
  IcosahedronWidget,
  MoleculeWidget,
  vertexStride,
  wasmMemory,
} = graphics;
