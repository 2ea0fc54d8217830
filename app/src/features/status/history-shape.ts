// Pure shaping of the server's status history for the page: the 90 daily bars and their tooltip
// text, and the scales and paths of the 24 h latency chart. No React here, so Vitest checks it all.
import type { HistoryPoint } from "../../lib/status-api";
import { formatUptime } from "../../lib/status-api";

export const DAYS = 90;

/** How a day's bar is coloured: no checks, all (or nearly all) up, some downtime, a real outage. */
export type BarTone = "none" | "up" | "minor" | "down";

export interface DayBar {
  /** The day (UTC), YYYY-MM-DD. */
  date: string;
  uptime: number | null;
  incidents: number;
  tone: BarTone;
  /** What the tooltip and the bar's accessible name say. */
  text: string;
}

const DAY_MS = 86_400_000;

/** 99.9% and above reads as up (a few failed checks in a day); 95% and above as partial. */
export function toneOf(uptime: number | null): BarTone {
  if (uptime === null) return "none";
  if (uptime >= 99.9) return "up";
  if (uptime >= 95) return "minor";
  return "down";
}

/** "24 Nov 2026" for a UTC day. */
export function formatDay(date: string): string {
  return new Date(`${date}T00:00:00Z`).toLocaleDateString("en-GB", {
    day: "numeric",
    month: "short",
    year: "numeric",
    timeZone: "UTC",
  });
}

export function barText(date: string, uptime: number | null, incidents: number): string {
  const day = formatDay(date);
  if (uptime === null) return `${day}: no data`;
  const count = incidents === 1 ? "1 incident" : `${incidents} incidents`;
  return `${day}: ${formatUptime(uptime)} uptime, ${count}`;
}

function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * Exactly 90 bars, oldest first, the last one today (UTC). Days the server sent fill their bar;
 * any other day of the window (none yet, or a missing answer) is a "no data" bar.
 */
export function dayBars(points: HistoryPoint[] | undefined, now: number): DayBar[] {
  const byDay = new Map<string, HistoryPoint>();
  for (const point of points ?? []) byDay.set(point.start.slice(0, 10), point);
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const bars: DayBar[] = [];
  for (let i = DAYS - 1; i >= 0; i -= 1) {
    const date = isoDay(today - i * DAY_MS);
    const point = byDay.get(date);
    const uptime = point && point.checks > 0 ? point.uptime : null;
    const incidents = point?.incidents ?? 0;
    bars.push({
      date,
      uptime,
      incidents,
      tone: toneOf(uptime),
      text: barText(date, uptime, incidents),
    });
  }
  return bars;
}

/** One sentence for screen readers: the period's figure, the days with data and with incidents. */
export function barsSummary(name: string, bars: DayBar[], uptime90: number | null): string {
  const withData = bars.filter((bar) => bar.uptime !== null);
  if (withData.length === 0) return `${name}: no checks recorded in the last 90 days yet.`;
  const incidentDays = bars.filter((bar) => bar.incidents > 0).length;
  const worst = withData.reduce((low, bar) =>
    (bar.uptime ?? 100) < (low.uptime ?? 100) ? bar : low,
  );
  const figure = formatUptime(uptime90);
  return [
    `${name}, last 90 days: ${figure ? `${figure} uptime` : "uptime not known"}`,
    `${withData.length} ${withData.length === 1 ? "day" : "days"} with checks`,
    `${incidentDays} with incidents`,
    `lowest day ${formatDay(worst.date)} at ${formatUptime(worst.uptime)}.`,
  ].join(", ");
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
  /** Buckets with checks. */
  buckets: number;
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

export function latencyChart(points: HistoryPoint[], width: number, height: number): LatencyChart {
  const usable = points.map((point) => (point.checks > 0 ? point : undefined));
  const p50 = usable.map((point) => point?.latency_p50_ms ?? null);
  const p95 = usable.map((point) => point?.latency_p95_ms ?? null);
  const top = Math.max(0, ...p95.map((v) => v ?? 0), ...p50.map((v) => v ?? 0));
  const max = niceCeiling(top);
  return {
    max,
    p50: path(p50, width, height, max),
    p95: path(p95, width, height, max),
    buckets: usable.filter(Boolean).length,
  };
}

/** "1.27 ms" (three significant figures, at most two decimals). */
export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return "—";
  const digits = ms >= 100 ? 0 : ms >= 10 ? 1 : 2;
  return `${ms.toFixed(digits)} ms`;
}

/** "14:15" (UTC) for a bucket start. */
export function formatClock(start: string): string {
  return new Date(start).toLocaleTimeString("en-GB", {
    hour: "2-digit",
    minute: "2-digit",
    hour12: false,
    timeZone: "UTC",
  });
}
