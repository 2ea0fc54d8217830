import { describe, expect, it } from "vitest";
import {
  boundarySplit,
  compare,
  compareRuns,
  converged,
  EMPTY_CALL,
  formatChange,
  formatNs,
  formatSpeedup,
  machineDrift,
  markdownTable,
  percentile,
  precisionPct,
  referencesOf,
  speedup,
  summarize,
  t975,
} from "./stats";

/** A seeded source of standard normal draws (an LCG and Box-Muller), the same on every run. */
function normals(seed: number) {
  let s = seed >>> 0;
  const uniform = () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return (s + 0.5) / 2 ** 32;
  };
  return () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
}

/** `n` log-normal times around `median` with log-spread `sigma` (how busy-machine samples look). */
function times(next: () => number, n: number, median: number, sigma: number): number[] {
  return Array.from({ length: n }, () => median * Math.exp(sigma * next()));
}

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
    expect(1 / (speedup(rows[0] as never, rows)?.ratio ?? 0)).toBe(3);
    expect(1 / (speedup(rows[2] as never, rows)?.ratio ?? 0)).toBe(2);
    expect(speedup(rows[1] as never, rows)).toBeUndefined();
    const table = markdownTable(rows);
    expect(table.split("\n")).toHaveLength(6);
    expect(table).toContain("| k | wasm SIMD | per batch | 2.00 ns |");
    expect(table).toContain("| 3.00× |");
  });

  it("compares wasm SIMD with its baseline and with wasm scalar in the same shape", () => {
    const spec = (
      impl: "wasm SIMD" | "wasm scalar" | "gl-matrix",
      shape: "per batch" | "zero-copy",
    ) => ({ kernel: "k", impl, shape, ops: 1 }) as const;
    const simd = spec("wasm SIMD", "zero-copy");
    const batch = spec("wasm scalar", "per batch");
    const scalar = spec("wasm scalar", "zero-copy");
    const glMatrix = spec("gl-matrix", "per batch");
    const rows = [simd, batch, scalar, glMatrix];
    expect(referencesOf(simd, rows)).toEqual([glMatrix, scalar]);
    expect(referencesOf(batch, rows)).toEqual([glMatrix]);
    expect(referencesOf(glMatrix, rows)).toEqual([]);
  });

  it("gives Student's t at 97.5 % for whole, fractional and large degrees of freedom", () => {
    expect(t975(1)).toBeCloseTo(12.706, 3);
    expect(t975(10)).toBeCloseTo(2.228, 3);
    expect(t975(10.9)).toBeCloseTo(2.228, 3);
    expect(t975(30)).toBeCloseTo(2.042, 3);
    // Reference values: 2.000 (60), 1.984 (100), 1.962 (1000).
    expect(t975(60)).toBeCloseTo(2.0, 2);
    expect(t975(100)).toBeCloseTo(1.984, 3);
    expect(t975(1000)).toBeCloseTo(1.962, 3);
    expect(t975(0.5)).toBe(Number.POSITIVE_INFINITY);
  });

  it("covers the true ratio 95 % of the time when two cases are the same", () => {
    const next = normals(11);
    let covered = 0;
    const trials = 1_000;
    for (let i = 0; i < trials; i += 1) {
      const c = compare(times(next, 12, 100, 0.2), times(next, 30, 100, 0.05));
      if (c.low <= 1 && c.high >= 1) covered += 1;
    }
    // Welch's interval with unequal spreads and counts: 95 % within sampling error (±1.4 %).
    expect(covered / trials).toBeGreaterThan(0.93);
    expect(covered / trials).toBeLessThan(0.975);
  });

  it("finds a known 20 % change, brackets it, and narrows as 1/sqrt(n)", () => {
    const next = normals(5);
    const small = compare(times(next, 50, 80, 0.1), times(next, 50, 100, 0.1));
    const large = compare(times(next, 800, 80, 0.1), times(next, 800, 100, 0.1));
    for (const c of [small, large]) {
      expect(c.verdict).toBe("faster");
      expect(c.low).toBeLessThan(0.8);
      expect(c.high).toBeGreaterThan(0.8);
    }
    // 16 times the samples: a quarter of the width, within sampling error.
    expect(large.halfWidthPct / small.halfWidthPct).toBeGreaterThan(0.2);
    expect(large.halfWidthPct / small.halfWidthPct).toBeLessThan(0.3);
    expect(converged(large, 5)).toBe(true);
    expect(compare(times(next, 50, 125, 0.1), times(next, 50, 100, 0.1)).verdict).toBe("slower");
  });

  it("says unsure when the interval straddles no change, and converges only when narrow", () => {
    const next = normals(9);
    const same = compare(times(next, 40, 100, 0.3), times(next, 40, 100, 0.3));
    expect(same.verdict).toBe("unsure");
    expect(converged(same, 1)).toBe(false);
    const identical = compare([5, 5, 5], [5, 5, 5]);
    expect(identical).toMatchObject({ ratio: 1, low: 1, high: 1, verdict: "unsure" });
    expect(converged(identical, 5)).toBe(true);
    expect(compare([5], [5, 6]).verdict).toBe("unsure");
  });

  it("between two runs, calls a change only beyond the run-to-run band", () => {
    const next = normals(11);
    const run = (ns: number) => [
      {
        kernel: "mat4 × vec4",
        impl: "wasm SIMD",
        shape: "zero-copy" as const,
        medianNs: ns,
        samplesNs: times(next, 400, ns, 0.05),
      },
    ];
    const a = run(100);
    // 3 % slower with a narrow interval: a difference within a run, not between runs.
    const small = run(103);
    expect(compare(small[0]?.samplesNs ?? [], a[0]?.samplesNs ?? []).verdict).toBe("slower");
    expect(compareRuns(a as never, small as never)[0]?.change.verdict).toBe("unsure");
    // 20 % slower and 30 % faster are changes whatever the band.
    expect(compareRuns(a as never, run(120) as never)[0]?.change.verdict).toBe("slower");
    expect(compareRuns(a as never, run(70) as never)[0]?.change.verdict).toBe("faster");
  });

  it("gives the shapes that time a call alone their wider band between runs", () => {
    const next = normals(13);
    const run = (shape: "per op, in place" | "per batch", ns: number) => [
      {
        kernel: "quat rotate",
        impl: "wasm scalar",
        shape,
        medianNs: ns,
        samplesNs: times(next, 400, ns, 0.03),
      },
    ];
    const verdict = (shape: "per op, in place" | "per batch", ns: number) =>
      compareRuns(run(shape, 52) as never, run(shape, ns) as never)[0]?.change.verdict;
    // 52 -> 78 ns: what one call moved between two page loads of one build.
    expect(verdict("per op, in place", 78)).toBe("unsure");
    expect(verdict("per batch", 78)).toBe("slower");
    // Twice as slow is a change in either shape.
    expect(verdict("per op, in place", 104)).toBe("slower");
    expect(verdict("per op, in place", 26)).toBe("faster");
  });

  it("takes a machine's drift between two runs out, measured on the JavaScript rows", () => {
    const next = normals(12);
    const row = (impl: string, kernel: string, ns: number) => ({
      kernel,
      impl,
      shape: "per batch" as const,
      medianNs: ns,
      samplesNs: times(next, 400, ns, 0.03),
    });
    const run = (speed: number, wasm: number) => [
      row("plain JS", "quaternion rotation", 4 * speed),
      row("gl-matrix", "mat4 × vec4", 10 * speed),
      row("wasm SIMD", "mat4 × vec4", wasm * speed),
    ];
    const a = run(1, 2);
    // The same build on a machine running 20 % slower: every row 20 % slower, as measured.
    const slowMachine = run(1.2, 2);
    const drift = machineDrift(a as never, slowMachine as never) ?? Number.NaN;
    expect(drift).toBeCloseTo(1.2, 1);
    const wasm = (changes: ReturnType<typeof compareRuns>) =>
      changes.find((c) => c.impl === "wasm SIMD")?.change;
    expect(wasm(compareRuns(a as never, slowMachine as never))?.verdict).toBe("slower");
    const judged = wasm(compareRuns(a as never, slowMachine as never, undefined, drift));
    expect(judged?.verdict).toBe("unsure");
    expect(judged?.ratio).toBeCloseTo(1, 1);
    // A real change on the slower machine (wasm 30 % faster) stays a change.
    const faster = run(1.2, 1.4);
    const drift2 = machineDrift(a as never, faster as never) ?? Number.NaN;
    expect(wasm(compareRuns(a as never, faster as never, undefined, drift2))?.verdict).toBe(
      "faster",
    );
    // No JavaScript rows in common: no drift to take out.
    expect(machineDrift(a as never, [a[2]] as never)).toBeUndefined();
  });

  it("gives a case's own precision from the spread of its logarithms", () => {
    // log-spread 0.1, n = 100: t(99) · 0.1 / 10 ≈ 1.98 % (within sampling error).
    const p = precisionPct(times(normals(3), 100, 50, 0.1));
    expect(p).toBeGreaterThan(1.6);
    expect(p).toBeLessThan(2.4);
    expect(precisionPct([1])).toBe(Number.POSITIVE_INFINITY);
  });

  it("formats a comparison as a speed-up with its interval and a change with its verdict", () => {
    const c = { ratio: 0.5, low: 0.4, high: 0.625, verdict: "faster", halfWidthPct: 25 } as const;
    expect(formatSpeedup(c)).toBe("2.00× (1.60–2.50), faster");
    expect(formatChange(c)).toBe("faster, −50.0 % (−60.0 % to −37.5 %)");
    expect(formatSpeedup(undefined)).toBe("–");
  });

  it("formats times in readable units", () => {
    expect(formatNs(1.234)).toBe("1.23 ns");
    expect(formatNs(456.7)).toBe("456.7 ns");
    expect(formatNs(12_345)).toBe("12.35 µs");
    expect(formatNs(2_500_000)).toBe("2.50 ms");
  });

  it("splits one call per operation into the call and the copying around it", () => {
    const row = (kernel: string, shape: "per op" | "per op, in place" | "empty call", ns: number) =>
      summarize({ kernel, impl: "wasm SIMD", shape, ops: 1 }, [ns]);
    const rows = [
      row(EMPTY_CALL, "empty call", 4),
      row("mat4 × vec4", "per op, in place", 9),
      row("mat4 × vec4", "per op", 400),
    ];
    expect(boundarySplit(rows)).toEqual({
      call: 4,
      inPlace: 9,
      copying: 400,
      copyAndAllocation: 391,
    });
    expect(boundarySplit(rows.slice(1))).toBeUndefined();
  });
});
