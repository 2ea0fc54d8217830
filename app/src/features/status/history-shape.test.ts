import { describe, expect, it } from "vitest";
import type { HistoryPoint } from "../../lib/status-api";
import { formatUptime } from "../../lib/status-api";
import {
  barsSummary,
  barText,
  DAYS,
  dayBars,
  latencyChart,
  niceCeiling,
  toneOf,
} from "./history-shape";

const NOW = Date.parse("2026-11-24T02:30:00Z");

function day(date: string, extra: Partial<HistoryPoint> = {}): HistoryPoint {
  return {
    start: `${date}T00:00:00.000Z`,
    checks: 2880,
    failures: 0,
    uptime: 100,
    latency_p50_ms: 1,
    latency_p95_ms: 2,
    latency_max_ms: 4,
    incidents: 0,
    ...extra,
  };
}

describe("dayBars", () => {
  it("always gives 90 bars ending today, days without checks as no data", () => {
    const bars = dayBars([day("2026-11-24", { uptime: 99.5, incidents: 1 })], NOW);
    expect(bars).toHaveLength(DAYS);
    expect(bars[0]?.date).toBe("2026-08-27");
    const today = bars[DAYS - 1];
    expect(today?.date).toBe("2026-11-24");
    expect(today?.tone).toBe("minor");
    expect(today?.text).toBe("24 Nov 2026: 99.5% uptime, 1 incident");
    expect(bars[DAYS - 2]?.tone).toBe("none");
    expect(bars[DAYS - 2]?.text).toBe("23 Nov 2026: no data");
  });

  it("treats a day the server sent without checks as no data, and no answer as 90 empty days", () => {
    const bars = dayBars([day("2026-11-23", { checks: 0, uptime: null })], NOW);
    expect(bars[DAYS - 2]?.uptime).toBeNull();
    expect(dayBars(undefined, NOW).every((bar) => bar.tone === "none")).toBe(true);
  });
});

describe("bar colour and words", () => {
  it("colours by uptime", () => {
    expect(toneOf(null)).toBe("none");
    expect(toneOf(100)).toBe("up");
    expect(toneOf(99.9)).toBe("up");
    expect(toneOf(99.5)).toBe("minor");
    expect(toneOf(50)).toBe("down");
  });

  it("counts incidents in words and never rounds a near-perfect day up to 100%", () => {
    expect(barText("2026-11-01", 99.996, 2)).toBe("1 Nov 2026: 99.99% uptime, 2 incidents");
    expect(barText("2026-11-01", 100, 0)).toBe("1 Nov 2026: 100% uptime, 0 incidents");
    expect(formatUptime(null)).toBeUndefined();
  });

  it("summarises the bars in one sentence for screen readers", () => {
    const bars = dayBars([day("2026-11-22", { uptime: 97.25 }), day("2026-11-24")], NOW);
    expect(barsSummary("Database", bars, 98.6)).toBe(
      "Database, last 90 days: 98.6% uptime, 2 days with checks, 0 with incidents, lowest day 22 Nov 2026 at 97.25%.",
    );
    expect(barsSummary("API", dayBars([], NOW), null)).toBe(
      "API: no checks recorded in the last 90 days yet.",
    );
  });
});

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
    const points = [
      day("2026-11-23", { latency_p50_ms: 1, latency_p95_ms: 4 }),
      day("2026-11-23", { checks: 0, uptime: null, latency_p50_ms: null, latency_p95_ms: null }),
      day("2026-11-24", { latency_p50_ms: 2.5, latency_p95_ms: 5 }),
    ];
    const chart = latencyChart(points, 600, 100);
    expect(chart.max).toBe(5);
    expect(chart.buckets).toBe(2);
    // Two separate dots (a gap in the middle), at x 0 and x 600; 5 ms is the top edge (y 0).
    expect(chart.p95).toEqual({ line: "", dots: "M0.0,20.0h0M600.0,0.0h0" });
    expect(chart.p50).toEqual({ line: "", dots: "M0.0,80.0h0M600.0,50.0h0" });
  });

  it("joins neighbouring buckets into one line", () => {
    const chart = latencyChart([day("2026-11-23"), day("2026-11-24")], 100, 10);
    expect(chart.p50).toEqual({ line: "M0.0,5.0L100.0,5.0", dots: "" });
  });
});
