// The /bench statistics, in one place for the page, its compare view and the terminal scripts
// (benches/browser/*.mjs load this file through the app's esbuild): summaries of a case's
// samples, the 95 % interval of the difference between two cases, the verdict it supports, and
// the Markdown table. No imports: unit-tested alone (stats.test.ts).
//
// Intervals are taken on the logarithm of the samples (times are skewed: a busy machine adds long
// stalls, never negative ones), so a comparison is a ratio of geometric means with Welch's interval
// (unequal variances and sample counts): "0.52× to 0.55× the baseline's time".

/** "native": the same Rust compiled for the machine, from `make bench` (native.ts). */
export type Implementation = "wasm SIMD" | "wasm scalar" | "gl-matrix" | "plain JS" | "native";
export type Shape =
  | "per op"
  | "per op, in place"
  | "empty call"
  | "per batch"
  | "zero-copy"
  | "per frame";

/** The kernel name of the empty-call case (a wasm export with no arguments and nothing to do). */
export const EMPTY_CALL = "call with no arguments";

/** What a case measures: `ops` operations per run (matrices, points or frames). */
export type CaseSpec = { kernel: string; impl: Implementation; shape: Shape; ops: number };

export type CaseResult = {
  kernel: string;
  impl: Implementation;
  shape: Shape;
  /** Nanoseconds per operation. */
  medianNs: number;
  p75Ns: number;
  p99Ns: number;
  meanNs: number;
  /** Operations per second at the median. */
  opsPerSec: number;
  /** Relative margin of error of the mean at 95 % confidence, in percent. */
  rmePct: number;
  samples: number;
  /** Operations timed per sample (a run of the case is repeated to fill the sample). */
  opsPerSample: number;
  /** Every sample, nanoseconds per operation, in the order taken (what a comparison needs). */
  samplesNs?: number[];
  /** Why sampling stopped: the intervals were narrow enough, or the case's time ran out. */
  stopped?: "converged" | "time limit" | "sample limit";
};

/** What an interval of a difference supports: lower time is faster. */
export type Verdict = "faster" | "slower" | "unsure";

/** `time(a) / time(b)` (geometric means) with its 95 % interval. */
export type Comparison = {
  ratio: number;
  low: number;
  high: number;
  verdict: Verdict;
  /** Half the interval's width, in percent of the ratio: what the convergence threshold bounds. */
  halfWidthPct: number;
};

// Student's t at 97.5 % for 1..30 degrees of freedom; 1.96 beyond.
const T975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145,
  2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048,
  2.045, 2.042,
];

/**
 * Student's t at 97.5 % for `df` degrees of freedom (fractional from Welch's formula: rounded down,
 * which widens the interval a little): the table to 30, Cornish-Fisher's expansion beyond.
 */
export function t975(df: number): number {
  if (!(df >= 1)) return Number.POSITIVE_INFINITY;
  const whole = Math.floor(df);
  if (whole <= T975.length) return T975[whole - 1] as number;
  const z = 1.959964;
  const g1 = (z ** 3 + z) / 4;
  const g2 = (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 96;
  const g3 = (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / 384;
  return z + g1 / whole + g2 / whole ** 2 + g3 / whole ** 3;
}

function logMoments(samples: readonly number[]): { n: number; mean: number; variance: number } {
  const logs = samples.filter((x) => x > 0).map(Math.log);
  const n = logs.length;
  const mean = logs.reduce((total, x) => total + x, 0) / n;
  const variance = n > 1 ? logs.reduce((total, x) => total + (x - mean) ** 2, 0) / (n - 1) : 0;
  return { n, mean, variance };
}

/** Half the 95 % interval of one case's geometric mean, in percent (its own precision). */
export function precisionPct(samples: readonly number[]): number {
  const { n, variance } = logMoments(samples);
  if (n < 2) return Number.POSITIVE_INFINITY;
  return 100 * Math.expm1(t975(n - 1) * Math.sqrt(variance / n));
}

/** A ratio with no interval to judge it by: unsure, between 0 and infinity. */
function unsure(ratio: number): Comparison {
  return {
    ratio,
    low: 0,
    high: Number.POSITIVE_INFINITY,
    verdict: "unsure",
    halfWidthPct: Infinity,
  };
}

/** `a` against `b`: the ratio of their geometric means with Welch's 95 % interval and a verdict. */
export function compare(a: readonly number[], b: readonly number[]): Comparison {
  const x = logMoments(a);
  const y = logMoments(b);
  const ratio = Math.exp(x.mean - y.mean);
  if (x.n < 2 || y.n < 2) return unsure(ratio);
  const vx = x.variance / x.n;
  const vy = y.variance / y.n;
  const se = Math.sqrt(vx + vy);
  const df = se > 0 ? (vx + vy) ** 2 / (vx ** 2 / (x.n - 1) + vy ** 2 / (y.n - 1)) : Infinity;
  const half = se > 0 ? t975(df) * se : 0;
  const low = ratio * Math.exp(-half);
  const high = ratio * Math.exp(half);
  const verdict: Verdict = high < 1 ? "faster" : low > 1 ? "slower" : "unsure";
  return { ratio, low, high, verdict, halfWidthPct: 100 * Math.expm1(half) };
}

/** Whether a comparison is as precise as asked: its interval within ±`thresholdPct`. */
export function converged(comparison: Comparison, thresholdPct: number): boolean {
  return comparison.halfWidthPct <= thresholdPct;
}

/** The `p`-th percentile (0..1) of sorted `values`, by linear interpolation between ranks. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const at = (sorted.length - 1) * p;
  const low = Math.floor(at);
  const high = Math.ceil(at);
  const a = sorted[low] as number;
  const b = sorted[high] as number;
  return a + (b - a) * (at - low);
}

/** Median, p75, p99, ops/s and the relative margin of error of `samples` (ns per op). */
export function summarize(spec: CaseSpec, samples: readonly number[]): CaseResult {
  const sorted = [...samples].sort((x, y) => x - y);
  const n = sorted.length;
  const mean = sorted.reduce((total, x) => total + x, 0) / n;
  const variance = n > 1 ? sorted.reduce((total, x) => total + (x - mean) ** 2, 0) / (n - 1) : 0;
  const t = n > 1 ? (T975[n - 2] ?? 1.96) : 0;
  const moe = (t * Math.sqrt(variance)) / Math.sqrt(n);
  const median = percentile(sorted, 0.5);
  return {
    kernel: spec.kernel,
    impl: spec.impl,
    shape: spec.shape,
    medianNs: median,
    p75Ns: percentile(sorted, 0.75),
    p99Ns: percentile(sorted, 0.99),
    meanNs: mean,
    opsPerSec: median > 0 ? 1e9 / median : Number.POSITIVE_INFINITY,
    rmePct: mean > 0 ? (100 * moe) / mean : 0,
    samples: n,
    opsPerSample: spec.ops,
  };
}

/** A time in nanoseconds, in the unit that keeps 3 significant digits readable. */
export function formatNs(ns: number): string {
  if (!Number.isFinite(ns)) return "–";
  if (ns < 10) return `${ns.toFixed(2)} ns`;
  if (ns < 1_000) return `${ns.toFixed(1)} ns`;
  if (ns < 1_000_000) return `${(ns / 1_000).toFixed(2)} µs`;
  return `${(ns / 1_000_000).toFixed(2)} ms`;
}

/** Operations per second, grouped by thousands. */
export function formatOps(ops: number): string {
  if (!Number.isFinite(ops)) return "–";
  if (ops >= 1e6) return `${(ops / 1e6).toFixed(1)} M`;
  if (ops >= 1e3) return `${(ops / 1e3).toFixed(1)} k`;
  return ops.toFixed(0);
}

type Identity = Pick<CaseSpec, "kernel" | "impl" | "shape">;

/** The baseline a row is compared with: gl-matrix for the kernels, plain JS for the frames. */
export function baselineOf<T extends Identity>(row: T, rows: readonly T[]): T | undefined {
  const impl: Implementation = row.shape === "per frame" ? "plain JS" : "gl-matrix";
  return rows.find((other) => other.kernel === row.kernel && other.impl === impl);
}

/** What a row is compared with: its baseline and, for wasm SIMD, wasm scalar in the same shape. */
export function referencesOf<T extends Identity>(row: T, rows: readonly T[]): T[] {
  const base = baselineOf(row, rows);
  const scalar =
    row.impl === "wasm SIMD"
      ? rows.find(
          (o) => o.kernel === row.kernel && o.impl === "wasm scalar" && o.shape === row.shape,
        )
      : undefined;
  return [base, scalar].filter((o): o is T => o !== undefined && o !== row);
}

/** `row` against `other` from their samples (medians alone when a report has no samples). */
export function compareRows(row: CaseResult, other: CaseResult): Comparison {
  if (row.samplesNs && other.samplesNs) return compare(row.samplesNs, other.samplesNs);
  return unsure(row.medianNs / other.medianNs);
}

/** How many times faster than the baseline (above 1: faster), with its interval. */
export function speedup(row: CaseResult, rows: readonly CaseResult[]): Comparison | undefined {
  const base = baselineOf(row, rows);
  return base && base !== row ? compareRows(row, base) : undefined;
}

/** wasm SIMD against wasm scalar in the same shape, for a wasm SIMD row. */
export function simdGain(row: CaseResult, rows: readonly CaseResult[]): Comparison | undefined {
  const scalar = referencesOf(row, rows).find((o) => o.impl === "wasm scalar");
  return scalar ? compareRows(row, scalar) : undefined;
}

/** A comparison as a speed-up: "2.10× (2.02–2.19)"; the interval only when the samples give one. */
export function formatSpeedup(c: Comparison | undefined): string {
  if (c === undefined) return "–";
  const main = `${(1 / c.ratio).toFixed(2)}×`;
  if (!Number.isFinite(c.high) || c.low <= 0) return main;
  return `${main} (${(1 / c.high).toFixed(2)}–${(1 / c.low).toFixed(2)}), ${c.verdict}`;
}

/** A comparison as a verdict with the change of time: "faster, −52 % (−54 to −50 %)". */
export function formatChange(c: Comparison | undefined): string {
  if (c === undefined) return "–";
  const pct = (x: number) =>
    `${x > 1 ? "+" : x < 1 ? "−" : "±"}${Math.abs(100 * (x - 1)).toFixed(1)} %`;
  if (!Number.isFinite(c.high) || c.low <= 0) return `${c.verdict}, ${pct(c.ratio)}`;
  return `${c.verdict}, ${pct(c.ratio)} (${pct(c.low)} to ${pct(c.high)})`;
}

/** The results as a GitHub Markdown table. */
export function markdownTable(rows: readonly CaseResult[]): string {
  const lines = [
    "| Case | Implementation | Shape | Median / op | p75 | p99 | ops/s | ±95 % | Samples | vs baseline (95 % interval) | SIMD vs scalar |",
    "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const row of rows) {
    const precision = row.samplesNs ? precisionPct(row.samplesNs) : row.rmePct;
    lines.push(
      `| ${row.kernel} | ${row.impl} | ${row.shape} | ${formatNs(row.medianNs)} | ${formatNs(row.p75Ns)} | ${formatNs(row.p99Ns)} | ${formatOps(row.opsPerSec)} | ±${precision.toFixed(1)} % | ${row.samples} | ${formatSpeedup(speedup(row, rows))} | ${formatSpeedup(simdGain(row, rows))} |`,
    );
  }
  return lines.join("\n");
}

/** One case in two runs: run B's time against run A's. */
export type RunChange = {
  kernel: string;
  impl: string;
  shape: Shape;
  aNs: number;
  bNs: number;
  change: Comparison;
  /** Which run's row is native (`make bench`), when one is: the other is then a share of it. */
  native?: "A" | "B";
};

/**
 * How far a case's time moves between two runs of the same build on one quiet machine once the
 * machine's drift is taken out (`machineDrift`): up to about 15 % in Chromium (two runs of
 * `make bench-browser`, 44 rows each, the largest move 16.7 % with an interval reaching 12.7 %):
 * each page load places and compiles the wasm anew. Within a run the implementations' samples are
 * interleaved, so they share the machine's state; between runs they do not, so a change between
 * runs is a verdict only when its whole interval lies beyond this band, and "unsure" otherwise.
 */
export const RUN_TO_RUN_NOISE = 0.15;

/**
 * The band of the shapes that time the call itself (one call per operation, or an empty one): tens
 * of nanoseconds, in which the engine's path into the wasm, chosen anew at each page load, shows.
 * Measured between loads of one build (each build in its own page, as Firefox is run): Firefox's
 * quat rotate in place 52, 59, 69 and 78 ns (1.5x); in Chromium within 15 %.
 */
export const CALL_RUN_TO_RUN_NOISE = 0.5;

const CALL_SHAPES: readonly Shape[] = ["per op", "per op, in place", "empty call"];

/** How far a case of `shape` moves between two runs of one build (see the two bands above). */
export const runToRunNoise = (shape: Shape): number =>
  CALL_SHAPES.includes(shape) ? CALL_RUN_TO_RUN_NOISE : RUN_TO_RUN_NOISE;

/** `c` judged against the run-to-run band (`noise`) instead of against no change. */
function beyondRunNoise(c: Comparison, noise: number): Comparison {
  const verdict: Verdict =
    c.high < 1 / (1 + noise) ? "faster" : c.low > 1 + noise ? "slower" : "unsure";
  return { ...c, verdict };
}

/**
 * The implementations written in JavaScript. A change to the wasm builds (or to the core's code)
 * leaves them as they were, so between two runs on one machine they show how far the machine's own
 * speed moved: a turbo or thermal state, a busy neighbour. Measured here: two runs of one build
 * moved every row by the same 10-25 % when the machine's speed drifted between them.
 */
const REFERENCE_IMPLS: readonly Implementation[] = ["plain JS", "gl-matrix"];

/**
 * How much longer run B took than run A for the same work, from the reference implementations: the
 * geometric mean of B's time over A's across the rows both runs have (1: the same speed).
 * Undefined when they share no such row (a native run on either side, or a run without them).
 */
export function machineDrift(
  a: readonly CaseResult[],
  b: readonly CaseResult[],
): number | undefined {
  const logs: number[] = [];
  for (const row of b) {
    if (!REFERENCE_IMPLS.includes(row.impl)) continue;
    const before = a.find(
      (o) => o.kernel === row.kernel && o.impl === row.impl && o.shape === row.shape,
    );
    // The same measure a change is judged by (the ratio of geometric means), so the drift divides out.
    const ratio = before ? compareRows(row, before).ratio : Number.NaN;
    if (ratio > 0 && Number.isFinite(ratio)) logs.push(Math.log(ratio));
  }
  if (logs.length === 0) return undefined;
  return Math.exp(logs.reduce((sum, x) => sum + x, 0) / logs.length);
}

/** What the compare says of the machine's drift, and whether it was taken out. */
export function driftSentence(drift: number | undefined, raw = false): string {
  if (drift === undefined)
    return "Machine speed: the runs share no JavaScript row to measure it by; times as measured.";
  const moved = `${Math.abs(100 * (drift - 1)).toFixed(1)} % ${drift >= 1 ? "more" : "less"} time`;
  return raw
    ? `Machine speed: the JavaScript rows took ${moved} in B; times as measured.`
    : `Machine speed: the JavaScript rows took ${moved} in B; B's browser rows are judged with that taken out.`;
}

/** `c` with run B's times divided by the machine's drift. */
function withoutDrift(c: Comparison, drift: number): Comparison {
  return { ...c, ratio: c.ratio / drift, low: c.low / drift, high: c.high / drift };
}

/**
 * Every case of run B against the same case of run A (same kernel, implementation and shape); with
 * `implA`/`implB`, A's rows of one implementation against B's of another (e.g. wasm scalar in A
 * against wasm SIMD in B: a known change, to check that the comparison finds it). A native row
 * (either side) stands against every implementation of its case on the other side.
 */
export function compareRuns(
  a: readonly CaseResult[],
  b: readonly CaseResult[],
  pair?: { implA: string; implB: string },
  /** `machineDrift(a, b)` to judge the browser rows with the machine's drift taken out; 1: as measured. */
  drift = 1,
): RunChange[] {
  const changes: RunChange[] = [];
  for (const row of b) {
    if (pair && row.impl !== pair.implB) continue;
    const matches = a.filter((o) => {
      if (o.kernel !== row.kernel || o.shape !== row.shape) return false;
      if (pair) return o.impl === pair.implA;
      return o.impl === row.impl || o.impl === "native" || row.impl === "native";
    });
    for (const before of matches) {
      const native =
        before.impl === row.impl
          ? undefined
          : before.impl === "native"
            ? "A"
            : row.impl === "native"
              ? "B"
              : undefined;
      changes.push({
        kernel: row.kernel,
        impl: before.impl === row.impl ? row.impl : `${before.impl} → ${row.impl}`,
        shape: row.shape,
        aNs: before.medianNs,
        bNs: row.medianNs,
        change: beyondRunNoise(
          native ? compareRows(row, before) : withoutDrift(compareRows(row, before), drift),
          runToRunNoise(row.shape),
        ),
        ...(native && !pair ? { native } : {}),
      });
    }
  }
  return changes;
}

/** A time as a share of native speed, in percent (100: as fast as native), with its interval. */
export type ShareOfNative = { pct: number; low: number; high: number };

/** `c` is time(x) / time(native): x's share of native speed is its inverse. */
export function shareOfNative(c: Comparison): ShareOfNative {
  return { pct: 100 / c.ratio, low: 100 / c.high, high: c.low > 0 ? 100 / c.low : Infinity };
}

/** "43 % (40–46 %)"; the interval only when the samples give one. */
export function formatShare({ pct, low, high }: ShareOfNative): string {
  const whole = (x: number) => (x >= 10 ? x.toFixed(0) : x.toFixed(1));
  if (!(low > 0) || !Number.isFinite(high)) return `${whole(pct)} %`;
  return `${whole(pct)} % (${whole(low)}–${whole(high)} %)`;
}

/** The non-native side of a change as a share of native: "43 % of native (40–46 %)", or undefined. */
export function formatOfNative(c: RunChange): string | undefined {
  if (!c.native) return undefined;
  // change = time(B) / time(A); with native in B, A's time against native's is its inverse.
  const change =
    c.native === "A"
      ? c.change
      : { ...c.change, ratio: 1 / c.change.ratio, low: 1 / c.change.high, high: 1 / c.change.low };
  return formatShare(shareOfNative(change)).replace(" %", " % of native");
}

/** What a run's numbers depend on: the fields of a report that the compare view sets side by side. */
export type RunEnvironment = {
  date: string;
  userAgent: string;
  browserVersion?: string;
  cpus?: number;
  machine?: { nproc: number; cpu: string };
  crossOriginIsolated: boolean;
  timerStepUs: number;
  simdSupported: boolean;
  build: string;
  settings?: { thresholdPct: number; caseLimitMs: number };
};

/** The two environments as rows: label, run A, run B. */
export function environmentRows(a: RunEnvironment, b: RunEnvironment): [string, string, string][] {
  const browser = (e: RunEnvironment) => e.browserVersion ?? e.userAgent;
  const cpus = (e: RunEnvironment) =>
    e.machine ? `${e.machine.nproc}, ${e.machine.cpu}` : String(e.cpus ?? "–");
  const fields: [string, (e: RunEnvironment) => string][] = [
    ["Date", (e) => e.date],
    ["Browser", browser],
    ["CPUs", cpus],
    ["Cross-origin isolated", (e) => (e.crossOriginIsolated ? "yes" : "no")],
    ["Timer step", (e) => `${e.timerStepUs.toFixed(1)} µs`],
    ["wasm SIMD", (e) => (e.simdSupported ? "supported" : "not supported")],
    ["Page version", (e) => e.build],
    [
      "Threshold, time limit",
      (e) =>
        e.settings ? `±${e.settings.thresholdPct} %, ${e.settings.caseLimitMs / 1000} s` : "–",
    ],
  ];
  return fields.map(([label, value]) => [label, value(a), value(b)]);
}

/** The changes between two runs, and both environments, as GitHub Markdown. */
export function changesMarkdown(
  changes: readonly RunChange[],
  environments: [string, string, string][],
): string {
  const lines = ["| | Run A | Run B |", "|---|---|---|"];
  for (const [label, a, b] of environments) lines.push(`| ${label} | ${a} | ${b} |`);
  lines.push(
    "",
    "| Case | Implementation | Shape | A median | B median | B against A (95 % interval) |",
    "|---|---|---|---:|---:|---|",
  );
  for (const c of changes) {
    const ofNative = formatOfNative(c);
    lines.push(
      `| ${c.kernel} | ${c.impl} | ${c.shape} | ${formatNs(c.aNs)} | ${formatNs(c.bNs)} | ${ofNative ?? formatChange(c.change)} |`,
    );
  }
  return lines.join("\n");
}

/**
 * What one call per operation costs, split (wasm SIMD, mat4 × vec4): the call itself (an export
 * with no arguments), a call that works in place in wasm memory (the call and one product), and
 * today's copying call (two arrays copied into fresh wasm memory, the result copied out into a new
 * array, three frees). Undefined when a report lacks one of the three.
 */
export function boundarySplit(rows: readonly CaseResult[]) {
  const find = (kernel: string, shape: Shape) =>
    rows.find((r) => r.kernel === kernel && r.impl === "wasm SIMD" && r.shape === shape)?.medianNs;
  const call = find(EMPTY_CALL, "empty call");
  const inPlace = find("mat4 × vec4", "per op, in place");
  const copying = find("mat4 × vec4", "per op");
  if (call === undefined || inPlace === undefined || copying === undefined) return undefined;
  return { call, inPlace, copying, copyAndAllocation: copying - inPlace };
}

/** The split as the sentence the page shows: the figures, and the share copying takes. */
export function boundarySentence(rows: readonly CaseResult[]): string | undefined {
  const split = boundarySplit(rows);
  if (!split) return undefined;
  const share = Math.round((100 * split.copyAndAllocation) / split.copying);
  return `One call per point (mat4 × vec4, wasm SIMD) took ${formatNs(split.copying)} when it copies its arrays in and its result out, ${formatNs(split.inPlace)} when it works in place in wasm memory (no allocation, no copy), and a call with no arguments ${formatNs(split.call)}: copying and allocating account for ${formatNs(split.copyAndAllocation)}, ${share} % of the copying call.`;
}
