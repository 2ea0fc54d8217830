// The /bench results as bars: one chart per case, a bar per implementation and call shape at its
// median time per operation, whiskers of the 95 % margin of error. The scale is logarithmic (one call
// per operation is a hundred times slower than a batch; on a linear scale the batches would vanish),
// with a gridline per power of ten. The table below holds the same numbers for screen readers; the
// chart is a picture of it.
import { useEffect, useState } from "react";
import { type CaseResult, formatNs } from "./stats";

const IMPL_CLASS: Record<CaseResult["impl"], string> = {
  "wasm SIMD": "simd",
  "wasm scalar": "scalar",
  "gl-matrix": "glmatrix",
  "plain JS": "js",
  native: "native",
};

/** Geometry in SVG units: wide screens put the labels left of the bars, narrow ones above them. */
type Layout = { width: number; label: number; value: number; row: number; above: boolean };
const WIDE: Layout = { width: 760, label: 190, value: 80, row: 24, above: false };
const NARROW: Layout = { width: 340, label: 4, value: 66, row: 36, above: true };
const AXIS = 18;

function tickLabel(ns: number): string {
  if (ns >= 1e6) return `${ns / 1e6} ms`;
  if (ns >= 1e3) return `${ns / 1e3} µs`;
  return `${ns} ns`;
}

/** The 8 px upright stroke that ends a whisker at `x`. */
function WhiskerEnd({ x, mid }: { x: number; mid: number }) {
  return <line className="bench-chart__whisker" x1={x} x2={x} y1={mid - 4} y2={mid + 4} />;
}

function Group({ kernel, rows, layout }: { kernel: string; rows: CaseResult[]; layout: Layout }) {
  const { width: WIDTH, label: LABEL, value: VALUE, row: ROW, above } = layout;
  const high = (row: CaseResult) => row.medianNs + (row.rmePct / 100) * row.meanNs;
  const low = Math.min(...rows.map((row) => row.medianNs));
  // Whole decades around the data, so the gridlines land on 1, 10, 100, ...
  const from = 10 ** Math.floor(Math.log10(Math.max(low, 1e-3)));
  const to = 10 ** Math.ceil(Math.log10(Math.max(...rows.map(high), from * 10)));
  const plot = WIDTH - LABEL - VALUE;
  const x = (ns: number) =>
    LABEL +
    Math.min(1, Math.max(0, Math.log10(Math.max(ns, from) / from) / Math.log10(to / from))) * plot;
  const decades: number[] = [];
  for (let d = from; d <= to * 1.0001; d *= 10) decades.push(d);
  const height = rows.length * ROW + 6 + AXIS;
  return (
    <figure className="bench-chart__group">
      <figcaption>{kernel}</figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${height}`} width="100%" aria-hidden="true" focusable="false">
        {decades.map((d, i) => (
          <g key={d}>
            <line className="bench-chart__grid" x1={x(d)} x2={x(d)} y1={0} y2={height - AXIS} />
            <text
              className="bench-chart__tick"
              x={x(d)}
              y={height - 4}
              textAnchor={i === 0 ? "start" : i === decades.length - 1 ? "end" : "middle"}
            >
              {tickLabel(d)}
            </text>
          </g>
        ))}
        {rows.map((row, i) => {
          const y = 3 + i * ROW;
          const moe = (row.rmePct / 100) * row.meanNs;
          const left = x(row.medianNs - moe);
          const right = x(row.medianNs + moe);
          // Narrow: the label on a line of its own above the bar.
          const barTop = above ? y + 16 : y + 2;
          const barHeight = above ? ROW - 20 : ROW - 8;
          const mid = barTop + barHeight / 2;
          return (
            <g key={`${row.impl}|${row.shape}`}>
              <text
                className="bench-chart__label"
                x={above ? LABEL : LABEL - 8}
                y={above ? y + 12 : mid + 4}
                textAnchor={above ? "start" : "end"}
              >
                {row.impl} · {row.shape}
              </text>
              <rect
                className={`bench-chart__bar bench-chart__bar--${IMPL_CLASS[row.impl]}`}
                x={LABEL}
                y={barTop}
                width={Math.max(1, x(row.medianNs) - LABEL)}
                height={barHeight}
                rx={3}
              />
              <line className="bench-chart__whisker" x1={left} x2={right} y1={mid} y2={mid} />
              <WhiskerEnd x={left} mid={mid} />
              <WhiskerEnd x={right} mid={mid} />
              <text className="bench-chart__value" x={WIDTH - VALUE + 8} y={mid + 4}>
                {formatNs(row.medianNs)}
              </text>
            </g>
          );
        })}
      </svg>
    </figure>
  );
}

function useNarrow(): boolean {
  const query = "(max-width: 40rem)";
  const [narrow, setNarrow] = useState(() => window.matchMedia?.(query).matches ?? false);
  useEffect(() => {
    const list = window.matchMedia?.(query);
    if (!list) return;
    const update = () => setNarrow(list.matches);
    list.addEventListener("change", update);
    return () => list.removeEventListener("change", update);
  }, []);
  return narrow;
}

/** Rendered only in the browser, after a run (never prerendered). */
export function BenchChart({ rows }: { rows: readonly CaseResult[] }) {
  const kernels = [...new Set(rows.map((row) => row.kernel))];
  const layout = useNarrow() ? NARROW : WIDE;
  return (
    <div className="bench-chart" data-testid="bench-chart">
      <p className="bench-chart__legend" aria-hidden="true">
        {Object.entries(IMPL_CLASS)
          .filter(([impl]) => rows.some((row) => row.impl === impl))
          .map(([impl, name]) => (
            <span key={name}>
              <span className={`bench-chart__swatch bench-chart__bar--${name}`} /> {impl}
            </span>
          ))}
        <span>
          Bars: median time per operation, log scale (shorter is faster); whiskers: ±95 % margin.
        </span>
      </p>
      {kernels.map((kernel) => (
        <Group
          key={kernel}
          kernel={kernel}
          rows={rows.filter((row) => row.kernel === kernel)}
          layout={layout}
        />
      ))}
    </div>
  );
}
