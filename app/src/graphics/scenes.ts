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

/** One draw call over a vertex buffer: indexed (`indices`) or every vertex as a point. */
export type DrawSpec = {
  mode: "lines" | "triangles" | "points";
  colour: ColourRole;
  /** Multiplies the vertex's own intensity. */
  opacity: number;
  /** Index buffer (never changes, uploaded once); none for `points`. */
  indices?: () => { ptr: number; len: number };
  /** Points: `size` px wide, or the vertex's `a` is a radius in scene units (molecule atoms). */
  pointSize?: number | "radius";
};

export type VertexSet = {
  vertices: () => { ptr: number; len: number };
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

export function createScene(name: SceneName, seed: number): SceneBinding {
  switch (name) {
    case "icosahedron": {
      const w = new IcosahedronWidget(seed);
      return {
        step: () => w.step(),
        drag: (dx, dy) => w.drag(dx, dy),
        free: () => w.free(),
        fitRadius: 1.75,
        sets: [
          {
            vertices: () => ({ ptr: w.coreVerticesPtr(), len: w.coreVerticesLen() }),
            draws: [
              {
                mode: "triangles",
                colour: "glow",
                opacity: 0.22,
                indices: () => ({ ptr: w.coreTrianglesPtr(), len: w.coreTrianglesLen() }),
              },
            ],
          },
          {
            vertices: () => ({ ptr: w.shellVerticesPtr(), len: w.shellVerticesLen() }),
            draws: [
              {
                mode: "triangles",
                colour: "primary",
                opacity: 0.05,
                indices: () => ({ ptr: w.shellFacesPtr(), len: w.shellFacesLen() }),
              },
              {
                mode: "lines",
                colour: "primary",
                opacity: 0.85,
                indices: () => ({ ptr: w.shellEdgesPtr(), len: w.shellEdgesLen() }),
              },
              { mode: "points", colour: "primary", opacity: 0.9, pointSize: 4 },
            ],
          },
          {
            vertices: () => ({ ptr: w.particleVerticesPtr(), len: w.particleVerticesLen() }),
            draws: [{ mode: "points", colour: "secondary", opacity: 1, pointSize: 7 }],
          },
        ],
      };
    }
    case "hypercube": {
      const w = new HypercubeWidget();
      return {
        step: () => w.step(),
        drag: (dx, dy) => w.drag(dx, dy),
        free: () => w.free(),
        fitRadius: 2.2,
        sets: [
          {
            vertices: () => ({ ptr: w.verticesPtr(), len: w.verticesLen() }),
            draws: [
              {
                mode: "triangles",
                colour: "glow",
                opacity: 0.06,
                indices: () => ({ ptr: w.facesPtr(), len: w.facesLen() }),
              },
              {
                mode: "lines",
                colour: "primary",
                opacity: 0.9,
                indices: () => ({ ptr: w.edgesPtr(), len: w.edgesLen() }),
              },
              { mode: "points", colour: "primary", opacity: 1, pointSize: 4 },
            ],
          },
          {
            vertices: () => ({ ptr: w.radarVerticesPtr(), len: w.radarVerticesLen() }),
            draws: [
              {
                mode: "lines",
                colour: "secondary",
                opacity: 0.6,
                indices: () => ({ ptr: w.radarEdgesPtr(), len: w.radarEdgesLen() }),
              },
            ],
          },
        ],
      };
    }
    case "helix": {
      const w = new HelixWidget();
      return {
        step: () => w.step(),
        drag: (dx, dy) => w.drag(dx, dy),
        free: () => w.free(),
        fitRadius: 2.5,
        sets: [
          {
            vertices: () => ({ ptr: w.verticesPtr(), len: w.verticesLen() }),
            draws: [
              {
                mode: "lines",
                colour: "secondary",
                opacity: 0.45,
                indices: () => ({ ptr: w.rungsPtr(), len: w.rungsLen() }),
              },
              {
                mode: "lines",
                colour: "primary",
                opacity: 0.9,
                indices: () => ({ ptr: w.strandsPtr(), len: w.strandsLen() }),
              },
              { mode: "points", colour: "glow", opacity: 1, pointSize: 5 },
            ],
          },
        ],
      };
    }
    case "molecule": {
      const w = new MoleculeWidget();
      return {
        step: () => w.step(),
        drag: (dx, dy) => w.drag(dx, dy),
        free: () => w.free(),
        fitRadius: 2.05,
        sets: [
          {
            vertices: () => ({ ptr: w.atomsPtr(), len: w.atomsLen() }),
            draws: [
              {
                mode: "lines",
                colour: "secondary",
                opacity: 0.8,
                indices: () => ({ ptr: w.bondsPtr(), len: w.bondsLen() }),
              },
              { mode: "points", colour: "primary", opacity: 1, pointSize: "radius" },
            ],
          },
        ],
      };
    }
  }
}
