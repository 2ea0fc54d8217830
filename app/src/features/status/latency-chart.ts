// The 24 h latency chart's geometry: the top of the scale and the SVG paths. What the buckets hold
// and how they read are the wasm core's (its LatencyRow); this only draws them. No React, so
// Vitest checks it all.

/** One bucket as the chart reads it: `null` where the bucket has no checks (a gap in the line). */
export interface LatencySample {
  p50: number | null;
  p95: number | null;
}

/** The smallest 1, 2 or 5 × 10^n at or above `value` (at least 0.1 ms), for the chart's top line. */
export function niceCeiling(value: number): number {
  if (!Number.isFinite(value) || value <= 0.1) return 0.1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) {
    const top = Number((step * magnitude).toPrecision(3));
    if (top >= value - 1e-9) return top;
  }
  return Number((10 * magnitude).toPrecision(3));
}

export interface LatencyChart {
  /** The value of the top edge, in ms. */
  max: number;
  /** SVG path data in a `width` × `height` box; gaps (buckets without checks) break the lines. */
  p50: { line: string; dots: string };
  p95: { line: string; dots: string };
}

/** A line through neighbouring buckets with checks (`line`), and the lone ones as dots (`dots`). */
function path(
  values: (number | null)[],
  width: number,
  height: number,
  max: number,
): { line: string; dots: string } {
  const step = values.length > 1 ? width / (values.length - 1) : 0;
  const runs: string[][] = [[]];
  values.forEach((value, i) => {
    if (value === null) {
      runs.push([]);
      return;
    }
    const x = values.length > 1 ? i * step : width / 2;
    const y = height - (Math.min(value, max) / max) * height;
    runs[runs.length - 1]?.push(`${x.toFixed(1)},${y.toFixed(1)}`);
  });
  let line = "";
  let dots = "";
  for (const run of runs) {
    if (run.length === 1) dots += `M${run[0]}h0`;
    else if (run.length > 1) line += `M${run.join("L")}`;
  }
  return { line, dots };
}

export function latencyChart(
  samples: LatencySample[],
  width: number,
  height: number,
): LatencyChart {
  const p50 = samples.map((sample) => sample.p50);
  const p95 = samples.map((sample) => sample.p95);
  const top = Math.max(0, ...p95.map((v) => v ?? 0), ...p50.map((v) => v ?? 0));
  const max = niceCeiling(top);
  return { max, p50: path(p50, width, height, max), p95: path(p95, width, height, max) };
}
