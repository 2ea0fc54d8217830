import { describe, expect, it } from "vitest";
import {
  againstNative,
  type CriterionBench,
  floorNs,
  isNative,
  nativeCases,
  nativeMarkdown,
  nativeReport,
  peakRates,
} from "./native";
import { type CaseResult, changesMarkdown, compareRuns, formatOfNative, summarize } from "./stats";

/** A criterion bench whose samples take `perElementNs` (± a little) per element. */
function bench(id: string, elements: number, perElementNs: number): CriterionBench {
  const iters = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100];
  const wobble = [1, 1.01, 0.99, 1.02, 0.98, 1, 1.01, 0.99, 1, 1];
  return {
    id,
    elements,
    iters,
    times: iters.map((n, i) => n * elements * perElementNs * (wobble[i] as number)),
  };
}

const benches = [
  bench("graphics/kernels/mat4_mul_vec4", 10_000, 2),
  bench("graphics/kernels/mat4_mul", 1_000, 20),
  bench("graphics/step/hypercube", 1, 100),
  bench("graphics/peak/scalar_mul_add", 240_000, 0.25),
  bench("graphics/peak/simd_mul_add", 960_000, 0.0625),
  bench("server/health", 1, 5_000),
];

const env = {
  date: "2026-11-27T10:00:00.000Z",
  compiler: "rustc 1.91.0",
  machine: { nproc: 2, cpu: "test CPU" },
  build: "abc1234",
  loadAverage: [1, 2, 3],
};

/** A browser row with `n` samples around `ns`. */
function browserRow(
  kernel: string,
  impl: CaseResult["impl"],
  shape: CaseResult["shape"],
  ns: number,
) {
  const samples = [1, 1.01, 0.99, 1.02, 0.98, 1, 1.01, 0.99, 1, 1].map((w) => ns * w);
  return { ...summarize({ kernel, impl, shape, ops: 1 }, samples), samplesNs: samples };
}

describe("criterion's results as native rows", () => {
  it("maps the /bench cases, per element, in the page's order, and leaves other benches out", () => {
    const rows = nativeCases(benches);
    expect(rows.map((r) => [r.kernel, r.impl, r.shape])).toEqual([
      ["mat4 × mat4", "native", "zero-copy"],
      ["mat4 × vec4", "native", "zero-copy"],
      ["frame: hypercube (4D)", "native", "per frame"],
    ]);
    const vec4 = rows[1] as CaseResult;
    expect(vec4.medianNs).toBeCloseTo(2, 6);
    expect(vec4.samplesNs).toHaveLength(10);
    expect(vec4.samples).toBe(10);
    // 55 iterations on average, 10,000 points each.
    expect(vec4.opsPerSample).toBe(550_000);
    expect((rows[0] as CaseResult).medianNs).toBeCloseTo(20, 6);
  });

  it("reads the peak rates and turns each kernel's operations into a floor", () => {
    const peak = peakRates(benches);
    expect(peak?.scalarFlopsPerNs).toBeCloseTo(4, 6);
    expect(peak?.simdFlopsPerNs).toBeCloseTo(16, 6);
    // 28 operations a point: 1.75 ns at 16 per ns (SIMD and native), 7 ns at 4 per ns (scalar).
    expect(floorNs("mat4 × vec4", "wasm SIMD", peak)).toBeCloseTo(1.75);
    expect(floorNs("mat4 × vec4", "native", peak)).toBeCloseTo(1.75);
    expect(floorNs("mat4 × vec4", "wasm scalar", peak)).toBeCloseTo(7);
    expect(floorNs("mat4 × mat4", "wasm scalar", peak)).toBeCloseTo(28);
    expect(floorNs("frame: helix", "wasm SIMD", peak)).toBeUndefined();
    expect(floorNs("mat4 × vec4", "wasm SIMD", undefined)).toBeUndefined();
    expect(peakRates(benches.slice(0, 3))).toBeUndefined();
  });

  it("writes a report in the page's schema, or none without a /bench case", () => {
    const report = nativeReport(benches, env);
    expect(report?.schema).toBe("mg-bench/2");
    expect(report?.cases).toHaveLength(3);
    expect(report?.peak?.simdFlopsPerNs).toBeCloseTo(16, 6);
    expect(report?.machine.cpu).toBe("test CPU");
    expect(isNative(report as { cases: CaseResult[] })).toBe(true);
    expect(isNative({ cases: [browserRow("k", "wasm SIMD", "zero-copy", 1)] })).toBe(false);
    expect(nativeReport([bench("server/health", 1, 5)], env)).toBeUndefined();
  });
});

describe("wasm against native", () => {
  const native = nativeCases(benches);
  const peak = peakRates(benches);
  const browser = [
    browserRow("mat4 × vec4", "wasm SIMD", "zero-copy", 4),
    browserRow("mat4 × vec4", "wasm scalar", "zero-copy", 8),
    browserRow("mat4 × vec4", "wasm SIMD", "per batch", 40),
    browserRow("mat4 × vec4", "gl-matrix", "per batch", 30),
    browserRow("frame: hypercube (4D)", "wasm SIMD", "per frame", 250),
  ];

  it("shows each wasm row of the same case and shape as a share of native and of its floor", () => {
    const rows = againstNative(browser, native, peak);
    const vec4 = rows.filter((r) => r.kernel === "mat4 × vec4");
    expect(vec4.map((r) => r.impl)).toEqual(["native", "wasm SIMD", "wasm scalar"]);
    const [own, simd, scalar] = vec4;
    expect(own?.ofNative).toBeUndefined();
    expect(simd?.ofNative?.pct).toBeCloseTo(50, 6);
    expect(simd?.ofNative?.low).toBeLessThan(50);
    expect(simd?.ofNative?.high).toBeGreaterThan(50);
    expect(scalar?.ofNative?.pct).toBeCloseTo(25, 6);
    // Floors: 1.75 ns (four lanes) against 4 ns; 7 ns (one lane) against 8 ns; native 1.75 / 2.
    expect(simd?.pctOfFloor).toBeCloseTo(43.75, 4);
    expect(scalar?.pctOfFloor).toBeCloseTo(87.5, 4);
    expect(own?.pctOfFloor).toBeCloseTo(87.5, 4);
    const frame = rows.find((r) => r.impl === "wasm SIMD" && r.kernel.startsWith("frame"));
    expect(frame?.ofNative?.pct).toBeCloseTo(40, 6);
    expect(frame?.floorNs).toBeUndefined();
    const table = nativeMarkdown(rows, peak);
    expect(table).toContain("| mat4 × vec4 | wasm SIMD | zero-copy | 4.00 ns | 2.00 ns | 50 % (");
    expect(table).toContain("| 1.75 ns | 43.8 % |");
    expect(table).toContain(
      "| frame: hypercube (4D) | native | per frame | 100.0 ns | 100.0 ns | 100 % | – | – |",
    );
  });

  it("compares a native run with a browser run on either side, as a share of native", () => {
    const nativeFirst = compareRuns(native, browser);
    // Every browser row whose case and shape have a native row: not gl-matrix, not per batch.
    expect(nativeFirst.map((c) => c.impl)).toEqual([
      "native → wasm SIMD",
      "native → wasm scalar",
      "native → wasm SIMD",
    ]);
    expect(nativeFirst.every((c) => c.native === "A")).toBe(true);
    expect(formatOfNative(nativeFirst[0] as never)).toMatch(/^50 % of native \(4\d–5\d %\)$/);
    const nativeSecond = compareRuns(browser, native);
    expect(nativeSecond.every((c) => c.native === "B")).toBe(true);
    const scalar = nativeSecond.find((c) => c.impl === "wasm scalar → native");
    expect(formatOfNative(scalar as never)).toMatch(/^25 % of native \(2\d–2\d %\)$/);
    expect(changesMarkdown(nativeSecond, [])).toContain("25 % of native");
    // Two browser runs: no native, the usual change.
    const same = compareRuns(browser, browser);
    expect(same).toHaveLength(browser.length);
    expect(same.every((c) => c.native === undefined && formatOfNative(c) === undefined)).toBe(true);
  });
});
