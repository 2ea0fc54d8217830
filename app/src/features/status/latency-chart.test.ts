import { describe, expect, it } from "vitest";
import { latencyChart, niceCeiling } from "./latency-chart";

describe("latency chart", () => {
  it("rounds the top of the scale up to 1, 2 or 5 times a power of ten", () => {
    expect(niceCeiling(0)).toBe(0.1);
    expect(niceCeiling(0.13)).toBe(0.2);
    expect(niceCeiling(0.35)).toBe(0.5);
    expect(niceCeiling(1)).toBe(1);
    expect(niceCeiling(1.3)).toBe(2);
    expect(niceCeiling(4.71)).toBe(5);
    expect(niceCeiling(7)).toBe(10);
    expect(niceCeiling(120)).toBe(200);
  });

  it("draws p50 and p95 on the same scale and breaks the lines where a bucket has no checks", () => {
    const samples = [
      { p50: 1, p95: 4 },
      { p50: null, p95: null },
      { p50: 2.5, p95: 5 },
    ];
    const chart = latencyChart(samples, 600, 100);
    expect(chart.max).toBe(5);
    // Two separate dots (a gap in the middle), at x 0 and x 600; 5 ms is the top edge (y 0).
    expect(chart.p95).toEqual({ line: "", dots: "M0.0,20.0h0M600.0,0.0h0" });
    expect(chart.p50).toEqual({ line: "", dots: "M0.0,80.0h0M600.0,50.0h0" });
  });

  it("joins neighbouring buckets into one line", () => {
    const chart = latencyChart(
      [
        { p50: 1, p95: 2 },
        { p50: 1, p95: 2 },
      ],
      100,
      10,
    );
    expect(chart.p50).toEqual({ line: "M0.0,5.0L100.0,5.0", dots: "" });
  });
});
