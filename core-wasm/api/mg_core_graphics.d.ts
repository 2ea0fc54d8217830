/// <reference lib="esnext.disposable" />
/* tslint:disable */
/* eslint-disable */

/**
 * A double helix: draw the vertices with the strands and the rungs as `LINES`.
 */
export class HelixWidget {
    free(): void;
    [Symbol.dispose](): void;
    /**
     * A pointer drag of `dx` by `dy` CSS pixels; stops the spin.
     */
    drag(dx: number, dy: number): void;
    /**
     * The helix, its buffers already holding a drawable frame.
     */
    constructor();
    /**
     * Indices in the rung buffer.
     */
    rungsLen(): number;
    /**
     * Rungs (`u16` pairs). Never changes.
     */
    rungsPtr(): number;
    /**
     * One animation frame: spin and the travelling pulse.
     */
    step(): void;
    /**
     * Indices in the strand buffer.
     */
    strandsLen(): number;
    /**
     * Strand segments (`u16` pairs). Never changes.
     */
    strandsPtr(): number;
    /**
     * Floats in the vertex buffer.
     */
    verticesLen(): number;
    /**
     * Vertices (`f32`, 96 × 4): strand A then strand B.
     */
    verticesPtr(): number;
}

/**
 * Widget 2: a tesseract turning in 4D, projected to 3D, with radar cube pulses. Draw the
 * vertices with the edges as `LINES` and the faces as translucent `TRIANGLES`, and the radar
 * vertices with the radar edges as `LINES`.
 */
export class HypercubeWidget {
    free(): void;
    [Symbol.dispose](): void;
    /**
     * A pointer drag of `dx` by `dy` CSS pixels; stops the 3D auto-yaw (the 4D turn goes on).
     */
    drag(dx: number, dy: number): void;
    /**
     * Indices in the edge buffer.
     */
    edgesLen(): number;
    /**
     * Edges (`u16` pairs, 32 edges). Never changes.
     */
    edgesPtr(): number;
    /**
     * Indices in the face buffer.
     */
    facesLen(): number;
    /**
     * Faces (`u16` triples, 48 triangles). Never changes.
     */
    facesPtr(): number;
    /**
     * The tesseract at rest, its buffers already holding a drawable frame.
     */
    constructor();
    /**
     * Indices in the radar edge buffer.
     */
    radarEdgesLen(): number;
    /**
     * Radar cube edges (`u16` pairs). Never changes.
     */
    radarEdgesPtr(): number;
    /**
     * Floats in the radar vertex buffer.
     */
    radarVerticesLen(): number;
    /**
     * Radar cube corners (`f32`, 2 cubes × 8 × 4); `a` is 0 for a dead cube.
     */
    radarVerticesPtr(): number;
    /**
     * One animation frame: 4D rotation, tilt, auto-yaw, radar pulses.
     */
    step(): void;
    /**
     * Floats in the vertex buffer.
     */
    verticesLen(): number;
    /**
     * Projected vertices (`f32`, 16 × 4).
     */
    verticesPtr(): number;
}

/**
 * Widget 1: a wireframe icosahedron (radius 1.5) around a glowing core (radius 0.5) with signal
 * particles. Draw the shell as `LINES` (edges) and faint `TRIANGLES` (faces), the core as
 * `TRIANGLES` and the particles as `POINTS`, skipping vertices whose `a` is 0.
 */
export class IcosahedronWidget {
    free(): void;
    [Symbol.dispose](): void;
    /**
     * Indices in the core triangle buffer.
     */
    coreTrianglesLen(): number;
    /**
     * Core sphere triangles (`u16` triples). Never changes.
     */
    coreTrianglesPtr(): number;
    /**
     * Floats in the core vertex buffer.
     */
    coreVerticesLen(): number;
    /**
     * Core sphere vertices (`f32` × 4); `a` is the glow pulse.
     */
    coreVerticesPtr(): number;
    /**
     * A pointer drag of `dx` by `dy` CSS pixels (0.005 rad per pixel); stops auto-rotation.
     */
    drag(dx: number, dy: number): void;
    /**
     * `seed` fixes the particle sequence (time-based in the app, constant in tests).
     */
    constructor(seed: number);
    /**
     * Floats in the particle buffer.
     */
    particleVerticesLen(): number;
    /**
     * Particle points (`f32`, 14 × 4: 8 outward then 6 inward); `a` is 0 for a dead slot.
     */
    particleVerticesPtr(): number;
    /**
     * Indices in the shell edge buffer.
     */
    shellEdgesLen(): number;
    /**
     * Shell edges (`u16` pairs, 30 edges). Never changes.
     */
    shellEdgesPtr(): number;
    /**
     * Indices in the shell face buffer.
     */
    shellFacesLen(): number;
    /**
     * Shell faces (`u16` triples, 20 faces). Never changes.
     */
    shellFacesPtr(): number;
    /**
     * Floats in the shell vertex buffer.
     */
    shellVerticesLen(): number;
    /**
     * Shell vertices (`f32`, 12 × 4).
     */
    shellVerticesPtr(): number;
    /**
     * One animation frame: rotation, particles, glow; rewrites the vertex buffers in place.
     */
    step(): void;
}

/**
 * Three `f32` buffers in wasm memory (`a`, `b`, `out`) of `16 × capacity` floats each, for the
 * zero-copy shape. Build the views from `wasmMemory().buffer` after construction (it may grow
 * memory) and never keep them across another allocation.
 */
export class KernelBuffers {
    free(): void;
    [Symbol.dispose](): void;
    /**
     * Byte offset of buffer `a` in wasm memory.
     */
    aPtr(): number;
    /**
     * Byte offset of buffer `b`.
     */
    bPtr(): number;
    /**
     * Whether the buffers hold nothing (capacity 0).
     */
    isEmpty(): boolean;
    /**
     * Floats in each buffer.
     */
    len(): number;
    /**
     * `out[i] = m * b[i]` for the first `count` points, `m` the first matrix of `a`.
     */
    mat4MulVec4(count: number): void;
    /**
     * `out[i] = a[i] * b[i]` for the first `count` matrix pairs.
     */
    mat4Mul(count: number): void;
    /**
     * Room for `capacity` matrices (or `4 × capacity` points) in each buffer, zero-filled.
     */
    constructor(capacity: number);
    /**
     * Byte offset of buffer `out`.
     */
    outPtr(): number;
    /**
     * `out[i] = q * b[i]` for the first `count` points, `q` the first four floats of `a`.
     */
    quatRotate(count: number): void;
}

/**
 * A vibrating molecule: draw the atoms as `POINTS` (`a` is the atom radius in scene units)
 * and the bonds into the same buffer as `LINES`.
 */
export class MoleculeWidget {
    free(): void;
    [Symbol.dispose](): void;
    /**
     * Floats in the atom buffer.
     */
    atomsLen(): number;
    /**
     * Atoms (`f32`, 9 × 4: `x, y, z, radius`).
     */
    atomsPtr(): number;
    /**
     * Indices in the bond buffer.
     */
    bondsLen(): number;
    /**
     * Bonds (`u16` pairs). Never changes.
     */
    bondsPtr(): number;
    /**
     * A pointer drag of `dx` by `dy` CSS pixels; stops auto-rotation.
     */
    drag(dx: number, dy: number): void;
    /**
     * The molecule, its buffers already holding a drawable frame.
     */
    constructor();
    /**
     * One animation frame: rotation and vibration.
     */
    step(): void;
}

/**
 * `a * b` for one pair of matrices (per-operation shape).
 */
export function mat4Mul(a: Float32Array | number[], b: Float32Array | number[]): Float32Array;

/**
 * `out[i] = a[i] * b[i]` for every whole matrix pair (per-batch shape; `out` is copied back).
 */
export function mat4MulBatch(a: Float32Array | number[], b: Float32Array | number[], out: Float32Array): void;

/**
 * `m * v` for one point (per-operation shape).
 */
export function mat4MulVec4(m: Float32Array | number[], v: Float32Array | number[]): Float32Array;

/**
 * `out[i] = m * points[i]` (per-batch shape).
 */
export function mat4MulVec4Batch(m: Float32Array | number[], points: Float32Array | number[], out: Float32Array): void;

/**
 * `q * v` for one point (per-operation shape).
 */
export function quatRotate(q: Float32Array | number[], v: Float32Array | number[]): Float32Array;

/**
 * `out[i] = q * points[i]` (per-batch shape).
 */
export function quatRotateBatch(q: Float32Array | number[], points: Float32Array | number[], out: Float32Array): void;

/**
 * Floats per vertex in every vertex buffer: 4 (`x, y, z, a`).
 */
export function vertexStride(): number;

/**
 * The module's `WebAssembly.Memory`, over which the buffer views are built.
 */
export function wasmMemory(): WebAssembly.Memory;
