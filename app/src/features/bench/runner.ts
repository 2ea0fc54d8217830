// The /bench page's measurements, loaded only by that page (its own chunk, with both graphics builds
// and gl-matrix): the widgets' per-frame math and three kernels, each in wasm SIMD, wasm scalar,
// gl-matrix and plain JavaScript, in the call shapes that decide which one wins.
import { mat4, type quat, vec3, vec4 } from "gl-matrix";
import { simdSupported } from "../../graphics/simd-probe";
import { scalar, simd } from "../../lib/wasm/graphics-builds";
import { HelixJs, HypercubeJs, IcosahedronJs, MoleculeJs } from "./js-scenes.js";
import { jsMat4Mul, jsMat4Vec4, jsQuatRotate, kernelInputs, split, sum } from "./kernels";
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

/** A kernel of the graphics package: one call, a batch call, and a call on data in wasm memory. */
type WasmKernel = {
  kernel: string;
  /** Operations of a batch or zero-copy call. */
  ops: number;
  /** Operations of a per-op run (single calls allocate, so fewer). */
  perOp: number;
  one: (index: number) => Float32Array;
  batch: () => void;
  batchOut: Float32Array;
  zeroCopy: () => void;
  zeroCopyOut: () => Float32Array;
};

/** A kernel in gl-matrix and in plain JavaScript, each over the whole batch. */
type JsKernel = {
  kernel: string;
  ops: number;
  glMatrix: () => void;
  glMatrixCheck: () => number;
  plain: () => void;
  plainOut: Float32Array;
};

/** The kernels each build of the graphics package exports, in its three call shapes. */
function wasmCases(impl: Implementation, g: Graphics, size: RunSize): Case[] {
  const { points, matrices } = size;
  const { a, b, p, m, q, outM, outP } = kernelInputs(points, matrices);
  // Zero-copy: the inputs live in wasm memory, written once before any sample (as a renderer keeps
  // its vertex buffers there); a call passes only counts, and the results are read through a view.
  const mats = keep(new g.KernelBuffers(matrices));
  const pts = keep(new g.KernelBuffers(Math.ceil(points / 4)));
  const qpts = keep(new g.KernelBuffers(Math.ceil(points / 4)));
  // Views are rebuilt from the memory's current buffer at each use: a per-op call allocates, and
  // memory growth replaces the buffer.
  const view = (ptr: number, floats: number) =>
    new Float32Array(g.wasmMemory().buffer, ptr, floats);
  view(mats.aPtr(), a.length).set(a);
  view(mats.bPtr(), b.length).set(b);
  view(pts.aPtr(), 16).set(m);
  view(pts.bPtr(), p.length).set(p);
  view(qpts.aPtr(), 4).set(q);
  view(qpts.bPtr(), p.length).set(p);
  const point = (i: number) => p.subarray(i * 4, i * 4 + 4);
  const kernels: WasmKernel[] = [
    {
      kernel: "mat4 × mat4",
      ops: matrices,
      perOp: Math.min(matrices, 200),
      one: (i) => g.mat4Mul(a.subarray(i * 16, i * 16 + 16), b.subarray(i * 16, i * 16 + 16)),
      batch: () => g.mat4MulBatch(a, b, outM),
      batchOut: outM,
      zeroCopy: () => mats.mat4Mul(matrices),
      zeroCopyOut: () => view(mats.outPtr(), matrices * 16),
    },
    {
      kernel: "mat4 × vec4",
      ops: points,
      perOp: Math.min(points, 1_000),
      one: (i) => g.mat4MulVec4(m, point(i)),
      batch: () => g.mat4MulVec4Batch(m, p, outP),
      batchOut: outP,
      zeroCopy: () => pts.mat4MulVec4(points),
      zeroCopyOut: () => view(pts.outPtr(), points * 4),
    },
    {
      kernel: "quat rotate",
      ops: points,
      perOp: Math.min(points, 1_000),
      one: (i) => g.quatRotate(q, point(i)),
      batch: () => g.quatRotateBatch(q, p, outP),
      batchOut: outP,
      zeroCopy: () => qpts.quatRotate(points),
      zeroCopyOut: () => view(qpts.outPtr(), points * 4),
    },
  ];
  return kernels.flatMap((k): Case[] => {
    let last: Float32Array = outP;
    const perOp = () => {
      for (let i = 0; i < k.perOp; i += 1) last = k.one(i);
    };
    return [
      { kernel: k.kernel, impl, shape: "per op", ops: k.perOp, run: perOp, check: () => sum(last) },
      {
        kernel: k.kernel,
        impl,
        shape: "per batch",
        ops: k.ops,
        run: k.batch,
        check: () => sum(k.batchOut),
      },
      {
        kernel: k.kernel,
        impl,
        shape: "zero-copy",
        ops: k.ops,
        run: k.zeroCopy,
        check: () => sum(k.zeroCopyOut()),
      },
    ];
  });
}

/** gl-matrix (as its documentation shows it: one small typed array each) and plain JavaScript. */
function jsCases(size: RunSize): Case[] {
  const { points, matrices } = size;
  const { a, b, p, m, q, outM, outP } = kernelInputs(points, matrices);
  const aList = split(a, 16);
  const bList = split(b, 16);
  const outList = split(outM, 16);
  const pList = split(p, 4);
  const outPList = split(outP, 4);
  const v3 = vec3.create();
  const kernels: JsKernel[] = [
    {
      kernel: "mat4 × mat4",
      ops: matrices,
      glMatrix: () => {
        for (let i = 0; i < matrices; i += 1)
          mat4.multiply(outList[i] as mat4, aList[i] as mat4, bList[i] as mat4);
      },
      glMatrixCheck: () => (outList[0]?.[0] ?? 0) + (outList[matrices - 1]?.[15] ?? 0),
      plain: () => jsMat4Mul(a, b, outM, matrices),
      plainOut: outM,
    },
    {
      kernel: "mat4 × vec4",
      ops: points,
      glMatrix: () => {
        for (let i = 0; i < points; i += 1)
          vec4.transformMat4(outPList[i] as vec4, pList[i] as vec4, m as unknown as mat4);
      },
      glMatrixCheck: () => (outPList[0]?.[0] ?? 0) + (outPList[points - 1]?.[3] ?? 0),
      plain: () => jsMat4Vec4(m, p, outP, points),
      plainOut: outP,
    },
    {
      kernel: "quat rotate",
      ops: points,
      glMatrix: () => {
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
      glMatrixCheck: () => (outPList[0]?.[0] ?? 0) + (outPList[points - 1]?.[2] ?? 0),
      plain: () => jsQuatRotate(q, p, outP, points),
      plainOut: outP,
    },
  ];
  return kernels.flatMap((k): Case[] => [
    {
      kernel: k.kernel,
      impl: "gl-matrix",
      shape: "per batch",
      ops: k.ops,
      run: k.glMatrix,
      check: k.glMatrixCheck,
    },
    {
      kernel: k.kernel,
      impl: "plain JS",
      shape: "per batch",
      ops: k.ops,
      run: k.plain,
      check: () => sum(k.plainOut),
    },
  ]);
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
