// Summaries of the /bench page's samples, and the Markdown table. No imports: unit-tested alone.

export type Implementation = "wasm SIMD" | "wasm scalar" | "gl-matrix" | "plain JS";
export type Shape = "per op" | "per batch" | "zero-copy" | "per frame";

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
};

// Student's t at 97.5 % for 1..30 degrees of freedom; 1.96 beyond.
const T975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145,
  2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048,
  2.045, 2.042,
];

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

/** The baseline a row is compared with: gl-matrix for the kernels, plain JS for the frames. */
export function baselineOf(row: CaseResult, rows: readonly CaseResult[]): CaseResult | undefined {
  const impl: Implementation = row.shape === "per frame" ? "plain JS" : "gl-matrix";
  return rows.find((other) => other.kernel === row.kernel && other.impl === impl);
}

/** How many times faster than the baseline (above 1: faster). */
export function speedup(row: CaseResult, rows: readonly CaseResult[]): number | undefined {
  const base = baselineOf(row, rows);
  return base ? base.medianNs / row.medianNs : undefined;
}

export function formatSpeedup(value: number | undefined): string {
  return value === undefined ? "–" : `${value.toFixed(2)}×`;
}

/** The results as a GitHub Markdown table. */
export function markdownTable(rows: readonly CaseResult[]): string {
  const lines = [
    "| Case | Implementation | Shape | Median / op | p75 | p99 | ops/s | ±RME | Samples | vs baseline |",
    "|---|---|---|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const row of rows) {
    lines.push(
      `| ${row.kernel} | ${row.impl} | ${row.shape} | ${formatNs(row.medianNs)} | ${formatNs(row.p75Ns)} | ${formatNs(row.p99Ns)} | ${formatOps(row.opsPerSec)} | ±${row.rmePct.toFixed(1)} % | ${row.samples} | ${formatSpeedup(speedup(row, rows))} |`,
    );
  }
  return lines.join("\n");
}
