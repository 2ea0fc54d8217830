import { describe, expect, it } from "vitest";
import { formatNs, markdownTable, percentile, speedup, summarize } from "./stats";

describe("bench statistics", () => {
  it("interpolates percentiles between ranks", () => {
    const sorted = [1, 2, 3, 4, 5];
    expect(percentile(sorted, 0.5)).toBe(3);
    expect(percentile(sorted, 0.75)).toBe(4);
    expect(percentile(sorted, 0.99)).toBeCloseTo(4.96);
    expect(percentile([], 0.5)).toBeNaN();
  });

  it("summarises samples: median, p75, p99, ops/s and the 95 % margin with Student's t", () => {
    const spec = { kernel: "k", impl: "wasm SIMD", shape: "per batch", ops: 10 } as const;
    const r = summarize(spec, [12, 10, 11, 9, 8]);
    expect(r.medianNs).toBe(10);
    expect(r.p75Ns).toBe(11);
    expect(r.opsPerSec).toBe(1e8);
    // mean 10, sd sqrt(2.5), t(4) = 2.776: margin 1.963, i.e. 19.6 %.
    expect(r.rmePct).toBeCloseTo(19.63, 1);
    expect(r.samples).toBe(5);
    expect(summarize(spec, [5]).rmePct).toBe(0);
  });

  it("compares kernels with gl-matrix and frames with plain JS", () => {
    const row = (impl: "wasm SIMD" | "gl-matrix" | "plain JS", kernel: string, ns: number) =>
      summarize({ kernel, impl, shape: kernel === "f" ? "per frame" : "per batch", ops: 1 }, [ns]);
    const rows = [
      row("wasm SIMD", "k", 2),
      row("gl-matrix", "k", 6),
      row("wasm SIMD", "f", 5),
      row("plain JS", "f", 10),
    ];
    expect(speedup(rows[0] as never, rows)).toBe(3);
    expect(speedup(rows[2] as never, rows)).toBe(2);
    const table = markdownTable(rows);
    expect(table.split("\n")).toHaveLength(6);
    expect(table).toContain("| k | wasm SIMD | per batch | 2.00 ns |");
    expect(table).toContain("| 3.00× |");
  });

  it("formats times in readable units", () => {
    expect(formatNs(1.234)).toBe("1.23 ns");
    expect(formatNs(456.7)).toBe("456.7 ns");
    expect(formatNs(12_345)).toBe("12.35 µs");
    expect(formatNs(2_500_000)).toBe("2.50 ms");
  });
});
