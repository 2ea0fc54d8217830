// The /bench page's measurements, loaded only by that page (its own chunk, with both graphics builds
// and gl-matrix): the widgets' per-frame math and three kernels, each in wasm SIMD, wasm scalar,
// gl-matrix and plain JavaScript, in the call shapes that decide which one wins.
import { mat4, quat, vec3, vec4 } from "gl-matrix";
import { simdSupported } from "../../graphics/simd-probe";
import { scalar, simd } from "../../lib/wasm/graphics-builds";
import { HelixJs, HypercubeJs, IcosahedronJs, MoleculeJs } from "./js-scenes.js";
import { type CaseSpec, type Implementation, summarize } from "./stats";

type Graphics = typeof scalar;

/** The wasm objects a run made (buffers, widgets): freed when it ends, so runs do not pile up. */
let allocated: { free(): void }[] = [];
function keep<T extends { free(): void }>(object: T): T {
  allocated.push(object);
  return object;
}

/** How much work a run does. */
export type RunSize = {
  /** Points in the mat4 x vec4 and quaternion batches. */
  points: number;
  /** Matrix pairs in the mat4 x mat4 batch. */
  matrices: number;
  /** Timed samples per case. */
  samples: number;
  /** Each sample runs the case for at least this long (calls are repeated to get there). */
  sampleMs: number;
  /** Untimed running of each case before its samples. */
  warmupMs: number;
};

export const RUN_SIZES = {
  full: { points: 10_000, matrices: 1_000, samples: 30, sampleMs: 8, warmupMs: 150 },
  quick: { points: 1_000, matrices: 100, samples: 5, sampleMs: 1, warmupMs: 5 },
} as const satisfies Record<string, RunSize>;

export type RunSizeName = keyof typeof RUN_SIZES;

/** One runnable case: `run` does `ops` operations; `check` returns a value so nothing is optimised away. */
type Case = CaseSpec & { run: () => void; check: () => number };

function random(n: number, seed: number): Float32Array {
  // A small LCG: the same inputs on every run and in every implementation.
  const out = new Float32Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i += 1) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out[i] = (s / 2 ** 32) * 2 - 1;
  }
  return out;
}

// Plain JavaScript: the loops a developer writes by hand over flat Float32Arrays (column-major).
function jsMat4Mul(a: Float32Array, b: Float32Array, out: Float32Array, count: number): void {
  for (let m = 0; m < count; m += 1) {
    const o = m * 16;
    for (let c = 0; c < 4; c += 1) {
      const b0 = b[o + c * 4] as number;
      const b1 = b[o + c * 4 + 1] as number;
      const b2 = b[o + c * 4 + 2] as number;
      const b3 = b[o + c * 4 + 3] as number;
      for (let r = 0; r < 4; r += 1) {
        out[o + c * 4 + r] =
          (a[o + r] as number) * b0 +
          (a[o + 4 + r] as number) * b1 +
          (a[o + 8 + r] as number) * b2 +
          (a[o + 12 + r] as number) * b3;
      }
    }
  }
}

function jsMat4Vec4(m: Float32Array, p: Float32Array, out: Float32Array, count: number): void {
  const [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15] = m as unknown as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  for (let i = 0; i < count * 4; i += 4) {
    const x = p[i] as number;
    const y = p[i + 1] as number;
    const z = p[i + 2] as number;
    const w = p[i + 3] as number;
    out[i] = m0 * x + m4 * y + m8 * z + m12 * w;
    out[i + 1] = m1 * x + m5 * y + m9 * z + m13 * w;
    out[i + 2] = m2 * x + m6 * y + m10 * z + m14 * w;
    out[i + 3] = m3 * x + m7 * y + m11 * z + m15 * w;
  }
}

function jsQuatRotate(q: Float32Array, p: Float32Array, out: Float32Array, count: number): void {
  const qx = q[0] as number;
  const qy = q[1] as number;
  const qz = q[2] as number;
  const qw = q[3] as number;
  for (let i = 0; i < count * 4; i += 4) {
    const x = p[i] as number;
    const y = p[i + 1] as number;
    const z = p[i + 2] as number;
    // v + 2w(q x v) + 2 q x (q x v)
    const tx = 2 * (qy * z - qz * y);
    const ty = 2 * (qz * x - qx * z);
    const tz = 2 * (qx * y - qy * x);
    out[i] = x + qw * tx + (qy * tz - qz * ty);
    out[i + 1] = y + qw * ty + (qz * tx - qx * tz);
    out[i + 2] = z + qw * tz + (qx * ty - qy * tx);
    out[i + 3] = p[i + 3] as number;
  }
}

/** gl-matrix as its documentation shows it: one small typed array per matrix or vector. */
function split(flat: Float32Array, width: number): Float32Array[] {
  const items: Float32Array[] = [];
  for (let i = 0; i + width <= flat.length; i += width) items.push(flat.slice(i, i + width));
  return items;
}

const sum = (array: Float32Array): number => {
  let total = 0;
  for (let i = 0; i < array.length; i += 7) total += array[i] as number;
  return total;
};

function wasmCases(impl: Implementation, g: Graphics, size: RunSize): Case[] {
  const { points, matrices } = size;
  const a = random(matrices * 16, 1);
  const b = random(matrices * 16, 2);
  const p = random(points * 4, 3);
  const m = a.slice(0, 16);
  const q = new Float32Array(quat.normalize(quat.create(), quat.fromValues(0.3, -0.5, 0.2, 0.8)));
  const outM = new Float32Array(matrices * 16);
  const outP = new Float32Array(points * 4);
  // Zero-copy: the inputs live in wasm memory, written once before any sample (as a renderer keeps
  // its vertex buffers there); a call passes only counts, and the results are read through a view.
  const mats = keep(new g.KernelBuffers(matrices));
  const pts = keep(new g.KernelBuffers(Math.ceil(points / 4)));
  // Views are rebuilt from the memory's current buffer at each use: a per-op call allocates, and
  // memory growth replaces the buffer.
  const qpts = keep(new g.KernelBuffers(Math.ceil(points / 4)));
  const view = (ptr: number, floats: number) =>
    new Float32Array(g.wasmMemory().buffer, ptr, floats);
  view(mats.aPtr(), a.length).set(a);
  view(mats.bPtr(), b.length).set(b);
  view(pts.aPtr(), 16).set(m);
  view(pts.bPtr(), p.length).set(p);
  view(qpts.aPtr(), 4).set(q);
  view(qpts.bPtr(), p.length).set(p);
  let last: Float32Array = outP;
  const perOpMats = Math.min(matrices, 200);
  const perOpPoints = Math.min(points, 1_000);
  const cases: Case[] = [
    {
      kernel: "mat4 × mat4",
      impl,
      shape: "per op",
      ops: perOpMats,
      run: () => {
        for (let i = 0; i < perOpMats; i += 1) {
          last = g.mat4Mul(a.subarray(i * 16, i * 16 + 16), b.subarray(i * 16, i * 16 + 16));
        }
      },
      check: () => sum(last),
    },
    {
      kernel: "mat4 × mat4",
      impl,
      shape: "per batch",
      ops: matrices,
      run: () => g.mat4MulBatch(a, b, outM),
      check: () => sum(outM),
    },
    {
      kernel: "mat4 × mat4",
      impl,
      shape: "zero-copy",
      ops: matrices,
      run: () => mats.mat4Mul(matrices),
      check: () => sum(view(mats.outPtr(), matrices * 16)),
    },
    {
      kernel: "mat4 × vec4",
      impl,
      shape: "per op",
      ops: perOpPoints,
      run: () => {
        for (let i = 0; i < perOpPoints; i += 1)
          last = g.mat4MulVec4(m, p.subarray(i * 4, i * 4 + 4));
      },
      check: () => sum(last),
    },
    {
      kernel: "mat4 × vec4",
      impl,
      shape: "per batch",
      ops: points,
      run: () => g.mat4MulVec4Batch(m, p, outP),
      check: () => sum(outP),
    },
    {
      kernel: "mat4 × vec4",
      impl,
      shape: "zero-copy",
      ops: points,
      run: () => pts.mat4MulVec4(points),
      check: () => sum(view(pts.outPtr(), points * 4)),
    },
    {
      kernel: "quat rotate",
      impl,
      shape: "per op",
      ops: perOpPoints,
      run: () => {
        for (let i = 0; i < perOpPoints; i += 1)
          last = g.quatRotate(q, p.subarray(i * 4, i * 4 + 4));
      },
      check: () => sum(last),
    },
    {
      kernel: "quat rotate",
      impl,
      shape: "per batch",
      ops: points,
      run: () => g.quatRotateBatch(q, p, outP),
      check: () => sum(outP),
    },
    {
      kernel: "quat rotate",
      impl,
      shape: "zero-copy",
      ops: points,
      run: () => qpts.quatRotate(points),
      check: () => sum(view(qpts.outPtr(), points * 4)),
    },
  ];
  return cases;
}

function jsCases(size: RunSize): Case[] {
  const { points, matrices } = size;
  const a = random(matrices * 16, 1);
  const b = random(matrices * 16, 2);
  const p = random(points * 4, 3);
  const m = a.slice(0, 16);
  const q = new Float32Array(quat.normalize(quat.create(), quat.fromValues(0.3, -0.5, 0.2, 0.8)));
  const outM = new Float32Array(matrices * 16);
  const outP = new Float32Array(points * 4);
  // gl-matrix's idiom: arrays of small typed arrays.
  const aList = split(a, 16);
  const bList = split(b, 16);
  const outList = split(outM, 16);
  const pList = split(p, 4);
  const outPList = split(outP, 4);
  const v3 = vec3.create();
  const glm = "gl-matrix" as const;
  const js = "plain JS" as const;
  return [
    {
      kernel: "mat4 × mat4",
      impl: glm,
      shape: "per batch",
      ops: matrices,
      run: () => {
        for (let i = 0; i < matrices; i += 1)
          mat4.multiply(outList[i] as mat4, aList[i] as mat4, bList[i] as mat4);
      },
      check: () => (outList[0]?.[0] ?? 0) + (outList[matrices - 1]?.[15] ?? 0),
    },
    {
      kernel: "mat4 × mat4",
      impl: js,
      shape: "per batch",
      ops: matrices,
      run: () => jsMat4Mul(a, b, outM, matrices),
      check: () => sum(outM),
    },
    {
      kernel: "mat4 × vec4",
      impl: glm,
      shape: "per batch",
      ops: points,
      run: () => {
        for (let i = 0; i < points; i += 1)
          vec4.transformMat4(outPList[i] as vec4, pList[i] as vec4, m as unknown as mat4);
      },
      check: () => (outPList[0]?.[0] ?? 0) + (outPList[points - 1]?.[3] ?? 0),
    },
    {
      kernel: "mat4 × vec4",
      impl: js,
      shape: "per batch",
      ops: points,
      run: () => jsMat4Vec4(m, p, outP, points),
      check: () => sum(outP),
    },
    {
      kernel: "quat rotate",
      impl: glm,
      shape: "per batch",
      ops: points,
      run: () => {
        for (let i = 0; i < points; i += 1) {
          const from = pList[i] as Float32Array;
          const to = outPList[i] as Float32Array;
          vec3.transformQuat(v3, from as unknown as vec3, q as unknown as quat);
          to[0] = v3[0];
          to[1] = v3[1];
          to[2] = v3[2];
          to[3] = from[3] as number;
        }
      },
      check: () => (outPList[0]?.[0] ?? 0) + (outPList[points - 1]?.[2] ?? 0),
    },
    {
      kernel: "quat rotate",
      impl: js,
      shape: "per batch",
      ops: points,
      run: () => jsQuatRotate(q, p, outP, points),
      check: () => sum(outP),
    },
  ];
}

/** The widgets' per-frame math: one `step()` is one frame (a call across the boundary in wasm). */
function sceneCases(): Case[] {
  const scenes = [
    {
      name: "icosahedron + particles",
      w: (g: Graphics) => new g.IcosahedronWidget(7),
      js: () => new IcosahedronJs(),
    },
    {
      name: "hypercube (4D)",
      w: (g: Graphics) => new g.HypercubeWidget(),
      js: () => new HypercubeJs(),
    },
    { name: "helix", w: (g: Graphics) => new g.HelixWidget(), js: () => new HelixJs() },
    { name: "molecule", w: (g: Graphics) => new g.MoleculeWidget(), js: () => new MoleculeJs() },
  ];
  const cases: Case[] = [];
  for (const scene of scenes) {
    for (const [impl, g] of [
      ["wasm SIMD", simd],
      ["wasm scalar", scalar],
    ] as const) {
      const widget = keep(scene.w(g));
      cases.push({
        kernel: `frame: ${scene.name}`,
        impl,
        shape: "per frame",
        ops: 1,
        run: () => widget.step(),
        check: () => 0,
      });
    }
    const twin = scene.js();
    cases.push({
      kernel: `frame: ${scene.name}`,
      impl: "plain JS",
      shape: "per frame",
      ops: 1,
      run: () => twin.step(),
      check: () => 0,
    });
  }
  return cases;
}

function shuffle<T>(items: T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** Every case, in the order the table shows them. */
export function buildCases(size: RunSize): Case[] {
  const wasm = [...wasmCases("wasm SIMD", simd, size), ...wasmCases("wasm scalar", scalar, size)];
  const all = [...wasm, ...jsCases(size), ...sceneCases()];
  const implOrder = ["wasm SIMD", "wasm scalar", "gl-matrix", "plain JS"];
  const shapeOrder = ["zero-copy", "per batch", "per frame", "per op"];
  const kernels = [...new Set(all.map((c) => c.kernel))];
  return all.sort(
    (x, y) =>
      kernels.indexOf(x.kernel) - kernels.indexOf(y.kernel) ||
      implOrder.indexOf(x.impl) - implOrder.indexOf(y.impl) ||
      shapeOrder.indexOf(x.shape) - shapeOrder.indexOf(y.shape),
  );
}

export type Progress = { done: number; total: number; current: string };

/**
 * Runs every case: each is warmed up and calibrated (repetitions per sample so a sample lasts at
 * least `sampleMs`), then rounds of one sample per case, in a new random order each round, so drift
 * (thermal, other tabs) spreads over all cases instead of landing on the last ones.
 */
export async function runBench(size: RunSize, onProgress: (progress: Progress) => void) {
  try {
    return await measure(size, onProgress);
  } finally {
    for (const object of allocated) object.free();
    allocated = [];
  }
}

async function measure(size: RunSize, onProgress: (progress: Progress) => void) {
  const cases = buildCases(size);
  const total = cases.length * (size.samples + 1);
  let done = 0;
  const reps = new Map<Case, number>();
  const samples = new Map<Case, number[]>();
  const order: string[] = [];
  let sink = 0;
  for (const c of shuffle(cases)) {
    onProgress({ done, total, current: `warming up ${c.kernel}, ${c.impl}` });
    await nextTask();
    const warmEnd = performance.now() + size.warmupMs;
    let calls = 0;
    let start = performance.now();
    do {
      c.run();
      calls += 1;
    } while (performance.now() < warmEnd);
    // Calibrate: time a few calls now that the code is warm.
    start = performance.now();
    let n = 0;
    do {
      c.run();
      n += 1;
    } while (performance.now() - start < size.sampleMs / 4 && n < 1e6);
    const perCall = (performance.now() - start) / n;
    reps.set(c, Math.max(1, Math.ceil(size.sampleMs / Math.max(perCall, 1e-6))));
    samples.set(c, []);
    sink += c.check() + calls;
    done += 1;
  }
  for (let round = 0; round < size.samples; round += 1) {
    const shuffled = shuffle(cases);
    order.push(shuffled.map((c) => `${c.kernel}|${c.impl}|${c.shape}`).join(","));
    for (const c of shuffled) {
      const times = reps.get(c) ?? 1;
      const start = performance.now();
      for (let i = 0; i < times; i += 1) c.run();
      const elapsed = performance.now() - start;
      samples.get(c)?.push((elapsed * 1e6) / (times * c.ops));
      sink += c.check();
      done += 1;
      if (done % 4 === 0) {
        onProgress({ done, total, current: `round ${round + 1} of ${size.samples}` });
        await nextTask();
      }
    }
  }
  onProgress({ done: total, total, current: "done" });
  const results = cases.map((c) => ({
    ...summarize(c, samples.get(c) ?? []),
    opsPerSample: c.ops * (reps.get(c) ?? 1),
  }));
  return { results, checksum: sink, simd: simdSupported() };
}

export { simdSupported };

/** The file this module was served as: its content hash names the build that made the numbers. */
export const buildId = new URL(import.meta.url).pathname.split("/").pop() ?? "unknown";
