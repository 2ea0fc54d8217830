// The /bench page's measurements, loaded only by that page (its own chunk, with both graphics builds
// and gl-matrix): the widgets' per-frame math and three kernels, each in wasm SIMD, wasm scalar,
// gl-matrix and plain JavaScript, in the call shapes that decide which one wins.
import { mat4, type quat, vec3, vec4 } from "gl-matrix";
import { simdSupported } from "../../graphics/simd-probe";
import { nextTask } from "../../lib/next-task";
import { scalar, simd } from "../../lib/wasm/graphics-builds";
import { HelixJs, HypercubeJs, IcosahedronJs, MoleculeJs } from "./js-scenes.js";
import { jsMat4Mul, jsMat4Vec4, jsQuatRotate, kernelInputs, split, sum } from "./kernels";
import {
  type CaseResult,
  type CaseSpec,
  compare,
  EMPTY_CALL,
  type Implementation,
  precisionPct,
  referencesOf,
  summarize,
} from "./stats";

type Graphics = typeof scalar;

/** The two wasm builds, by the names the table gives their rows. */
const BUILDS = [
  ["wasm SIMD", simd],
  ["wasm scalar", scalar],
] as const;
export type WasmBuild = (typeof BUILDS)[number][0];

/**
 * Which wasm builds a run measures: both (the default), or one. One build per page load is how
 * Firefox is measured: the cases of both builds share their JavaScript call sites (one function
 * literal per shape), and SpiderMonkey's inline caches belong to the function, so in a page with
 * both builds those sites see two modules' exports, and how well each build's calls are optimised
 * depends on which one warmed up first, a different answer each load.
 */
export type WasmBuilds = "both" | WasmBuild;
const measured = (builds: WasmBuilds) =>
  BUILDS.filter(([impl]) => builds === "both" || builds === impl);

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
  /** Timed samples per case before its intervals are looked at. */
  minSamples: number;
  /** No case takes more samples than this. */
  maxSamples: number;
  /**
   * A case stops sampling once the 95 % interval of its time against each case it is compared with
   * (`referencesOf`) is within ±this many percent; a case compared with none, once its own is.
   */
  thresholdPct: number;
  /** ...or once its samples have taken this long in total. */
  caseLimitMs: number;
  /** Each sample runs the case for at least this long (calls are repeated to get there). */
  sampleMs: number;
  /** Untimed running of each case before its samples. */
  warmupMs: number;
};

export const RUN_SIZES = {
  full: {
    points: 10_000,
    matrices: 1_000,
    minSamples: 10,
    maxSamples: 2_000,
    thresholdPct: 5,
    caseLimitMs: 3_000,
    sampleMs: 8,
    warmupMs: 150,
  },
  quick: {
    points: 1_000,
    matrices: 100,
    minSamples: 5,
    maxSamples: 5,
    thresholdPct: 5,
    caseLimitMs: 1_000,
    sampleMs: 1,
    warmupMs: 5,
  },
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
  /** `count` copying calls, one operation each; returns the last result. */
  ones: (count: number) => Float32Array;
  batch: () => void;
  batchOut: Float32Array;
  zeroCopy: () => void;
  zeroCopyOut: () => Float32Array;
  /** `count` calls of one operation each in wasm memory: no copy and no allocation. */
  inPlace: (count: number) => void;
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
  // The loops of the one-call-per-operation shapes are written out per kernel: a loop shared by
  // the kernels would call three exports from one call site, and how an engine optimises such a
  // site depends on which kernel warmed up first (Firefox's rows moved between page loads).
  const kernels: WasmKernel[] = [
    {
      kernel: "mat4 × mat4",
      ops: matrices,
      perOp: Math.min(matrices, 200),
      ones: (count) => {
        let last: Float32Array = outM;
        for (let i = 0; i < count; i += 1)
          last = g.mat4Mul(a.subarray(i * 16, i * 16 + 16), b.subarray(i * 16, i * 16 + 16));
        return last;
      },
      batch: () => g.mat4MulBatch(a, b, outM),
      batchOut: outM,
      zeroCopy: () => mats.mat4Mul(matrices),
      inPlace: (count) => {
        for (let i = 0; i < count; i += 1) mats.mat4Mul(1);
      },
      zeroCopyOut: () => view(mats.outPtr(), matrices * 16),
    },
    {
      kernel: "mat4 × vec4",
      ops: points,
      perOp: Math.min(points, 1_000),
      ones: (count) => {
        let last: Float32Array = outP;
        for (let i = 0; i < count; i += 1) last = g.mat4MulVec4(m, point(i));
        return last;
      },
      batch: () => g.mat4MulVec4Batch(m, p, outP),
      batchOut: outP,
      zeroCopy: () => pts.mat4MulVec4(points),
      inPlace: (count) => {
        for (let i = 0; i < count; i += 1) pts.mat4MulVec4(1);
      },
      zeroCopyOut: () => view(pts.outPtr(), points * 4),
    },
    {
      kernel: "quat rotate",
      ops: points,
      perOp: Math.min(points, 1_000),
      ones: (count) => {
        let last: Float32Array = outP;
        for (let i = 0; i < count; i += 1) last = g.quatRotate(q, point(i));
        return last;
      },
      batch: () => g.quatRotateBatch(q, p, outP),
      batchOut: outP,
      zeroCopy: () => qpts.quatRotate(points),
      inPlace: (count) => {
        for (let i = 0; i < count; i += 1) qpts.quatRotate(1);
      },
      zeroCopyOut: () => view(qpts.outPtr(), points * 4),
    },
  ];
  // The call alone: an export with no arguments that returns a constant.
  let stride = 0;
  const emptyCall: Case = {
    kernel: EMPTY_CALL,
    impl,
    shape: "empty call",
    ops: 1_000,
    run: () => {
      for (let i = 0; i < 1_000; i += 1) stride += g.vertexStride();
    },
    check: () => stride,
  };
  const perKernel = kernels.flatMap((k): Case[] => {
    let result: Float32Array = outP;
    const perOp = () => {
      result = k.ones(k.perOp);
    };
    const inPlace = () => k.inPlace(k.perOp);
    return [
      {
        kernel: k.kernel,
        impl,
        shape: "per op",
        ops: k.perOp,
        run: perOp,
        check: () => sum(result),
      },
      {
        kernel: k.kernel,
        impl,
        shape: "per op, in place",
        ops: k.perOp,
        run: inPlace,
        check: () => sum(k.zeroCopyOut()),
      },
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
  return [...perKernel, emptyCall];
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
function sceneCases(builds: WasmBuilds): Case[] {
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
    for (const [impl, g] of measured(builds)) {
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

/** Every case, in the order the table shows them. */
export function buildCases(size: RunSize, builds: WasmBuilds = "both"): Case[] {
  const wasm = measured(builds).flatMap(([impl, g]) => wasmCases(impl, g, size));
  const all = [...wasm, ...jsCases(size), ...sceneCases(builds)];
  const implOrder = ["wasm SIMD", "wasm scalar", "gl-matrix", "plain JS"];
  const shapeOrder = [
    "zero-copy",
    "per batch",
    "per frame",
    "per op, in place",
    "per op",
    "empty call",
  ];
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
 * (thermal, other tabs) spreads over all cases instead of landing on the last ones. A case leaves the
 * rounds when its intervals are narrow enough or its time runs out (`RunSize`); a case others are
 * compared with stays while they need it. Every sample is a User Timing measure named after its case,
 * for a profiler's timeline.
 */
export async function runBench(
  size: RunSize,
  onProgress: (progress: Progress) => void,
  builds: WasmBuilds = "both",
) {
  try {
    return await measure(size, onProgress, builds);
  } finally {
    for (const object of allocated) object.free();
    allocated = [];
  }
}

/** The User Timing name of a case: "mg-bench quat rotate | wasm SIMD | zero-copy". */
export const caseLabel = (c: CaseSpec) => `mg-bench ${c.kernel} | ${c.impl} | ${c.shape}`;

/** Untimed runs, then the repetitions that make a sample last `sampleMs`; returns the checksum. */
function warmUp(c: Case, size: RunSize, reps: Map<Case, number>): number {
  const warmEnd = performance.now() + size.warmupMs;
  let calls = 0;
  do {
    c.run();
    calls += 1;
  } while (performance.now() < warmEnd);
  // Calibrate: time a few calls now that the code is warm.
  const start = performance.now();
  let n = 0;
  do {
    c.run();
    n += 1;
  } while (performance.now() - start < size.sampleMs / 4 && n < 1e6);
  const perCall = (performance.now() - start) / n;
  reps.set(c, Math.max(1, Math.ceil(size.sampleMs / Math.max(perCall, 1e-6))));
  return c.check() + calls;
}

/** One timed sample of `c`, in nanoseconds per operation; `spent` gains its milliseconds. */
function sample(c: Case, times: number, spent: Map<Case, number>): number {
  const start = performance.now();
  for (let i = 0; i < times; i += 1) c.run();
  const end = performance.now();
  performance.measure(caseLabel(c), { start, end });
  spent.set(c, (spent.get(c) ?? 0) + end - start);
  return ((end - start) * 1e6) / (times * c.ops);
}

async function measure(
  size: RunSize,
  onProgress: (progress: Progress) => void,
  builds: WasmBuilds,
) {
  const cases = buildCases(size, builds);
  const total = cases.length * 100;
  performance.clearMeasures();
  const reps = new Map<Case, number>();
  const samples = new Map<Case, number[]>(cases.map((c) => [c, []]));
  const spent = new Map<Case, number>();
  const stopped = new Map<Case, NonNullable<CaseResult["stopped"]>>();
  const refs = new Map<Case, Case[]>(cases.map((c) => [c, referencesOf(c, cases)]));
  let sink = 0;
  let warmed = 0;
  for (const c of shuffle(cases)) {
    onProgress({ done: warmed * 10, total, current: `warming up ${c.kernel}, ${c.impl}` });
    await nextTask();
    sink += warmUp(c, size, reps);
    warmed += 1;
  }
  const precise = (c: Case): boolean => {
    const own = samples.get(c) ?? [];
    const against = refs.get(c) ?? [];
    if (against.length === 0) return precisionPct(own) <= size.thresholdPct;
    return against.every(
      (r) => compare(own, samples.get(r) ?? []).halfWidthPct <= size.thresholdPct,
    );
  };
  // Each case's share of the bar: a tenth for its warm-up, the rest for its time or convergence.
  const share = (c: Case) =>
    stopped.has(c) ? 90 : Math.min(89, (90 * (spent.get(c) ?? 0)) / size.caseLimitMs);
  for (let round = 1; stopped.size < cases.length; round += 1) {
    const active = cases.filter((c) => !stopped.has(c));
    // A reference keeps sampling for the cases compared with it, within its own time limit.
    const inTime = (r: Case) => (spent.get(r) ?? 0) < size.caseLimitMs;
    const needed = new Set(active.flatMap((c) => [c, ...(refs.get(c) ?? []).filter(inTime)]));
    let timed = 0;
    for (const c of shuffle([...needed])) {
      samples.get(c)?.push(sample(c, reps.get(c) ?? 1, spent));
      sink += c.check();
      timed += 1;
      if (timed % 4 === 0) await nextTask();
    }
    for (const c of active) {
      const n = samples.get(c)?.length ?? 0;
      if (n >= size.maxSamples) stopped.set(c, "sample limit");
      else if (n >= size.minSamples && precise(c)) stopped.set(c, "converged");
      else if ((spent.get(c) ?? 0) >= size.caseLimitMs && n >= size.minSamples)
        stopped.set(c, "time limit");
    }
    const done = cases.length * 10 + cases.reduce((sum, c) => sum + share(c), 0);
    onProgress({
      done: Math.round(done),
      total,
      current: `round ${round}: ${cases.length - stopped.size} of ${cases.length} cases still sampling`,
    });
    await nextTask();
  }
  onProgress({ done: total, total, current: "done" });
  const results = cases.map(
    (c): CaseResult => ({
      ...summarize(c, samples.get(c) ?? []),
      opsPerSample: c.ops * (reps.get(c) ?? 1),
      samplesNs: samples.get(c) ?? [],
      stopped: stopped.get(c) ?? "converged",
    }),
  );
  return { results, checksum: sink, simd: simdSupported() };
}

/** What `?case=…&impl=…[&shape=…]&seconds=…` asks for: one case, run continuously. */
export type Continuous = { kernel: string; impl: string; shape?: string; seconds: number };

/**
 * Runs one case over and over for `seconds` (after its warm-up), each sample a User Timing measure,
 * so a profiler (DevTools' Performance panel, Firefox's profiler, `perf`) records nothing else.
 * Returns its summary (and the checksum that keeps the work from being optimised away), or
 * undefined when no case matches.
 */
export async function runContinuously(
  size: RunSize,
  wanted: Continuous,
  onProgress: (progress: Progress) => void,
): Promise<{ result: CaseResult; checksum: number } | undefined> {
  try {
    // Only the wanted case's build, so its calls are what they are in a page of that build alone.
    const only = BUILDS.find(([impl]) => impl === wanted.impl)?.[0];
    const found = buildCases(size, only ?? "both").find(
      (c) =>
        c.kernel === wanted.kernel &&
        c.impl === wanted.impl &&
        (wanted.shape === undefined || c.shape === wanted.shape),
    );
    if (!found) return undefined;
    performance.clearMeasures();
    const reps = new Map<Case, number>();
    let sink = warmUp(found, size, reps);
    const spent = new Map<Case, number>();
    const samples: number[] = [];
    const end = performance.now() + wanted.seconds * 1000;
    let yielded = performance.now();
    while (performance.now() < end) {
      samples.push(sample(found, reps.get(found) ?? 1, spent));
      sink += found.check();
      // Let the page paint a few times a second; the gaps show as idle in the profile.
      if (performance.now() - yielded > 250) {
        const left = Math.max(0, end - performance.now());
        onProgress({
          done: Math.round(1000 - (1000 * left) / (wanted.seconds * 1000)),
          total: 1000,
          current: `running ${caseLabel(found)}`,
        });
        await nextTask();
        yielded = performance.now();
      }
    }
    onProgress({ done: 1000, total: 1000, current: "done" });
    const result: CaseResult = {
      ...summarize(found, samples),
      opsPerSample: found.ops * (reps.get(found) ?? 1),
      stopped: "time limit",
    };
    return { result, checksum: sink };
  } finally {
    for (const object of allocated) object.free();
    allocated = [];
  }
}

export { simdSupported };

/** The file this module was served as: its content hash names the build that made the numbers. */
export const buildId = new URL(import.meta.url).pathname.split("/").pop() ?? "unknown";
