// What each widget draws: its wasm scene, its vertex buffers, and the draw calls over each buffer.

import type { SceneName } from "./scene-names";
import {
  HelixWidget,
  HypercubeWidget,
  IcosahedronWidget,
  MoleculeWidget,
  vertexStride,
} from "./wasm";

export type { SceneName } from "./scene-names";

/** The three theme colours (CSS custom properties `--graphics-*`). */
export type ColourRole = "primary" | "secondary" | "glow";

/** A buffer in wasm memory, read each time it is drawn: its byte offset and length in elements. */
export type WasmBuffer = () => { ptr: number; len: number };

/** One draw call over a vertex buffer: indexed (`indices`) or every vertex as a point. */
export type DrawSpec = {
  mode: "lines" | "triangles" | "points";
  colour: ColourRole;
  /** Multiplies the vertex's own intensity. */
  opacity: number;
  /** Index buffer (never changes, uploaded once); none for `points`. */
  indices?: WasmBuffer;
  /** Points: `size` px wide, or the vertex's `a` is a radius in scene units (molecule atoms). */
  pointSize?: number | "radius";
};

export type VertexSet = {
  vertices: WasmBuffer;
  draws: DrawSpec[];
};

/** A live wasm scene plus the description of how to draw it. */
export type SceneBinding = {
  step(): void;
  drag(dx: number, dy: number): void;
  free(): void;
  sets: VertexSet[];
  /** Scene units from the centre that must fit in the canvas. */
  fitRadius: number;
};

export const STRIDE = vertexStride();

/** A widget's `xxxPtr`/`xxxLen` getter pair, named by `xxx`. */
function buffer<N extends string>(
  widget: { [K in `${N}Ptr` | `${N}Len`]: () => number },
  name: N,
): WasmBuffer {
  return () => ({ ptr: widget[`${name}Ptr`](), len: widget[`${name}Len`]() });
}

/** The binding of a live widget: its controls forwarded, and how to draw it. */
function bind(
  widget: { step(): void; drag(dx: number, dy: number): void; free(): void },
  fitRadius: number,
  sets: VertexSet[],
): SceneBinding {
  return {
    step: () => widget.step(),
    drag: (dx, dy) => widget.drag(dx, dy),
    free: () => widget.free(),
    fitRadius,
    sets,
  };
}

export function createScene(name: SceneName, seed: number): SceneBinding {
  switch (name) {
    case "icosahedron": {
      const w = new IcosahedronWidget(seed);
      return bind(w, 1.75, [
        {
          vertices: buffer(w, "coreVertices"),
          draws: [
            {
              mode: "triangles",
              colour: "glow",
              opacity: 0.22,
              indices: buffer(w, "coreTriangles"),
            },
          ],
        },
        {
          vertices: buffer(w, "shellVertices"),
          draws: [
            {
              mode: "triangles",
              colour: "primary",
              opacity: 0.05,
              indices: buffer(w, "shellFaces"),
            },
            { mode: "lines", colour: "primary", opacity: 0.85, indices: buffer(w, "shellEdges") },
            { mode: "points", colour: "primary", opacity: 0.9, pointSize: 4 },
          ],
        },
        {
          vertices: buffer(w, "particleVertices"),
          draws: [{ mode: "points", colour: "secondary", opacity: 1, pointSize: 7 }],
        },
      ]);
    }
    case "hypercube": {
      const w = new HypercubeWidget();
      return bind(w, 2.2, [
        {
          vertices: buffer(w, "vertices"),
          draws: [
            { mode: "triangles", colour: "glow", opacity: 0.06, indices: buffer(w, "faces") },
            { mode: "lines", colour: "primary", opacity: 0.9, indices: buffer(w, "edges") },
            { mode: "points", colour: "primary", opacity: 1, pointSize: 4 },
          ],
        },
        {
          vertices: buffer(w, "radarVertices"),
          draws: [
            { mode: "lines", colour: "secondary", opacity: 0.6, indices: buffer(w, "radarEdges") },
          ],
        },
      ]);
    }
    case "helix": {
      const w = new HelixWidget();
      return bind(w, 2.5, [
        {
          vertices: buffer(w, "vertices"),
          draws: [
            { mode: "lines", colour: "secondary", opacity: 0.45, indices: buffer(w, "rungs") },
            { mode: "lines", colour: "primary", opacity: 0.9, indices: buffer(w, "strands") },
            { mode: "points", colour: "glow", opacity: 1, pointSize: 5 },
          ],
        },
      ]);
    }
    case "molecule": {
      const w = new MoleculeWidget();
      return bind(w, 2.05, [
        {
          vertices: buffer(w, "atoms"),
          draws: [
            { mode: "lines", colour: "secondary", opacity: 0.8, indices: buffer(w, "bonds") },
            { mode: "points", colour: "primary", opacity: 1, pointSize: "radius" },
          ],
        },
      ]);
    }
  }
}
