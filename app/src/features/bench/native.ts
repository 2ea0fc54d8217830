// Native beside wasm: criterion's results for the /bench cases (`make bench`:
// benches/benches/kernels.rs and graphics.rs) as a report in the page's schema, and the wasm rows
// of a browser run as a percentage of native and of each kernel's arithmetic floor. Used by
// benches/browser/native-report.mjs (writes the native report), bench-browser.mjs (prints the
// comparison) and the page's compare view (a native report on either side); unit-tested in
// native.test.ts.
import {
  type CaseResult,
  compare,
  formatNs,
  formatShare,
  type ShareOfNative,
  shareOfNative,
  summarize,
} from "./stats";

/** The implementation name of native rows: the same Rust, compiled for the machine by rustc. */
export const NATIVE = "native";

/** Which /bench case a criterion bench measures (its `group_id/function_id`). */
export const NATIVE_CASES: Record<string, { kernel: string; shape: CaseResult["shape"] }> = {
  "graphics/kernels/mat4_mul": { kernel: "mat4 × mat4", shape: "zero-copy" },
  "graphics/kernels/mat4_mul_vec4": { kernel: "mat4 × vec4", shape: "zero-copy" },
  "graphics/kernels/quat_rotate": { kernel: "quat rotate", shape: "zero-copy" },
  "graphics/step/icosahedron": { kernel: "frame: icosahedron + particles", shape: "per frame" },
  "graphics/step/hypercube": { kernel: "frame: hypercube (4D)", shape: "per frame" },
  "graphics/step/double_helix": { kernel: "frame: helix", shape: "per frame" },
  "graphics/step/molecule": { kernel: "frame: molecule", shape: "per frame" },
};

/** The criterion benches of the machine's peak multiply-add rate (floating-point ops per trip). */
export const PEAK_BENCHES = {
  scalar: "graphics/peak/scalar_mul_add",
  simd: "graphics/peak/simd_mul_add",
} as const;

/**
 * Floating-point operations per element of each kernel, counted from its code
 * (core-wasm/src/graphics/kernels.rs, glam's `Mat4 * Vec4`: four lane-wise multiplies and three
 * adds of four lanes, 16 + 12): a point is one `Mat4 * Vec4`, 28; a matrix pair is four, 112. The
 * quaternion kernel turns its quaternion into a matrix once per batch, so a point is 28 too (the
 * rotation alone would need 15: its matrix's last row and column are the identity's).
 */
export const KERNEL_FLOPS: Record<string, number> = {
  "mat4 × mat4": 112,
  "mat4 × vec4": 28,
  "quat rotate": 28,
};

/** What criterion leaves for one bench (its folder's benchmark.json and new/sample.json). */
export type CriterionBench = {
  /** `group_id/function_id` of benchmark.json. */
  id: string;
  /** Elements per iteration (benchmark.json's `throughput.Elements`); 1 when absent. */
  elements: number;
  /** sample.json: iterations of each sample and their total times in nanoseconds. */
  iters: number[];
  times: number[];
};

/** The machine's peak rates, floating-point operations per nanosecond. */
export type PeakRates = { scalarFlopsPerNs: number; simdFlopsPerNs: number };

/** Nanoseconds per element of each sample of a bench. */
export function perElementNs(bench: CriterionBench): number[] {
  const elements = bench.elements > 0 ? bench.elements : 1;
  return bench.times.map((t, i) => t / ((bench.iters[i] ?? 1) * elements));
}

/** The /bench cases among `benches`, as native rows (every sample kept for the intervals). */
export function nativeCases(benches: readonly CriterionBench[]): CaseResult[] {
  const rows: CaseResult[] = [];
  for (const bench of benches) {
    const spec = NATIVE_CASES[bench.id];
    if (!spec) continue;
    const samples = perElementNs(bench);
    const iters = bench.iters.reduce((total, n) => total + n, 0) / Math.max(1, bench.iters.length);
    rows.push({
      ...summarize({ ...spec, impl: NATIVE, ops: bench.elements }, samples),
      opsPerSample: Math.round(iters * bench.elements),
      samplesNs: samples,
      stopped: "sample limit",
    });
  }
  const order = Object.values(NATIVE_CASES).map((c) => c.kernel);
  return rows.sort((x, y) => order.indexOf(x.kernel) - order.indexOf(y.kernel));
}

/** The peak rates from the peak benches (their median sample), or undefined without both. */
export function peakRates(benches: readonly CriterionBench[]): PeakRates | undefined {
  const rate = (id: string) => {
    const bench = benches.find((b) => b.id === id);
    if (!bench || bench.times.length === 0) return undefined;
    const sorted = perElementNs(bench).sort((x, y) => x - y);
    const median = sorted[Math.floor(sorted.length / 2)] as number;
    return median > 0 ? 1 / median : undefined;
  };
  const scalar = rate(PEAK_BENCHES.scalar);
  const simd = rate(PEAK_BENCHES.simd);
  return scalar && simd ? { scalarFlopsPerNs: scalar, simdFlopsPerNs: simd } : undefined;
}

/**
 * A kernel's arithmetic floor in nanoseconds per element: its operations at the machine's peak
 * rate (four-lane for SIMD and native code, one-lane for the scalar build). Undefined for the
 * frames (not counted) and without peak rates.
 */
export function floorNs(kernel: string, impl: string, peak: PeakRates | undefined) {
  const flops = KERNEL_FLOPS[kernel];
  if (flops === undefined || !peak) return undefined;
  return flops / (impl === "wasm scalar" ? peak.scalarFlopsPerNs : peak.simdFlopsPerNs);
}

/** One line of the comparison with native: a wasm (or the native) row and what it is against. */
export type NativeRow = {
  kernel: string;
  impl: string;
  shape: CaseResult["shape"];
  medianNs: number;
  nativeNs: number;
  ofNative: ShareOfNative | undefined;
  floorNs: number | undefined;
  /** 100 × floor / median: how close the row is to the arithmetic limit. */
  pctOfFloor: number | undefined;
};

/** The wasm rows of a browser run (zero-copy kernels and frames) against the native rows. */
export function againstNative(
  browser: readonly CaseResult[],
  native: readonly CaseResult[],
  peak: PeakRates | undefined,
): NativeRow[] {
  const out: NativeRow[] = [];
  for (const n of native) {
    const rows = browser.filter(
      (r) =>
        r.kernel === n.kernel &&
        r.shape === n.shape &&
        (r.impl === "wasm SIMD" || r.impl === "wasm scalar"),
    );
    for (const row of [n, ...rows]) {
      const floor = floorNs(row.kernel, row.impl, peak);
      const samples =
        row.samplesNs && n.samplesNs ? compare(row.samplesNs, n.samplesNs) : undefined;
      out.push({
        kernel: row.kernel,
        impl: row.impl,
        shape: row.shape,
        medianNs: row.medianNs,
        nativeNs: n.medianNs,
        ofNative: row === n ? undefined : samples && shareOfNative(samples),
        floorNs: floor,
        pctOfFloor: floor === undefined ? undefined : (100 * floor) / row.medianNs,
      });
    }
  }
  return out;
}

/** The comparison as a GitHub Markdown table, with a line on the peak rates it used. */
export function nativeMarkdown(rows: readonly NativeRow[], peak: PeakRates | undefined): string {
  const lines = [
    peak
      ? `Peak multiply-add rate of this machine (native): ${peak.scalarFlopsPerNs.toFixed(2)} flop/ns one lane, ${peak.simdFlopsPerNs.toFixed(2)} flop/ns four lanes. Floor: the kernel's operations per element (${Object.entries(
          KERNEL_FLOPS,
        )
          .map(([k, n]) => `${k} ${n}`)
          .join(", ")}) at that rate.`
      : "No peak rates in the native report: no floors.",
    "",
    "| Case | Implementation | Shape | Median / op | Native | % of native (95 % interval) | Floor / op | % of floor |",
    "|---|---|---|---:|---:|---:|---:|---:|",
  ];
  for (const r of rows) {
    const floor = r.floorNs === undefined ? "–" : formatNs(r.floorNs);
    const ofFloor = r.pctOfFloor === undefined ? "–" : `${r.pctOfFloor.toFixed(1)} %`;
    const ofNative = r.ofNative ? formatShare(r.ofNative) : r.impl === NATIVE ? "100 %" : "–";
    lines.push(
      `| ${r.kernel} | ${r.impl} | ${r.shape} | ${formatNs(r.medianNs)} | ${formatNs(r.nativeNs)} | ${ofNative} | ${floor} | ${ofFloor} |`,
    );
  }
  return lines.join("\n");
}

/** What a native report records of the machine and the build, besides the rows. */
export type NativeEnvironment = {
  date: string;
  /** rustc's version line. */
  compiler: string;
  machine: { nproc: number; cpu: string };
  /** The commit the benches were built from. */
  build: string;
  loadAverage: number[];
};

/**
 * A native report in the page's schema (mg-bench/2: the compare view and `make bench-compare` read
 * it like a browser run), with the peak rates beside the rows. Undefined when no bench of `benches`
 * is a /bench case.
 */
export function nativeReport(benches: readonly CriterionBench[], env: NativeEnvironment) {
  const cases = nativeCases(benches);
  if (cases.length === 0) return undefined;
  return {
    schema: "mg-bench/2" as const,
    date: env.date,
    userAgent: `native, criterion (${env.compiler})`,
    browserVersion: `native (${env.compiler})`,
    cpus: env.machine.nproc,
    machine: env.machine,
    crossOriginIsolated: false,
    timerStepUs: 0,
    simdSupported: true,
    build: env.build,
    size: "full" as const,
    loadAverage: env.loadAverage,
    peak: peakRates(benches),
    cases,
  };
}

/** A native report as `nativeReport` writes it (the fields the comparison reads). */
export type NativeReport = { cases: CaseResult[]; peak?: PeakRates };

/** Whether a parsed report is a native one (every row native). */
export function isNative(report: { cases: readonly { impl: string }[] }): boolean {
  return report.cases.length > 0 && report.cases.every((c) => c.impl === NATIVE);
}
