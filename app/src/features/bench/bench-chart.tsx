// The /bench results as bars: one small chart per case (each on its own scale, since a frame and a
// point differ by orders of magnitude), a bar per implementation and call shape at its median time
// per operation, and whiskers of the 95 % margin of error. The table beside it holds the same numbers
// for screen readers; the chart is a picture of it.
import { type CaseResult, formatNs } from "./stats";

const IMPL_CLASS: Record<CaseResult["impl"], string> = {
  "wasm SIMD": "simd",
  "wasm scalar": "scalar",
  "gl-matrix": "glmatrix",
  "plain JS": "js",
};

const ROW = 22;
const LABEL = 168;
const WIDTH = 640;
const VALUE = 86;

function Group({ kernel, rows }: { kernel: string; rows: CaseResult[] }) {
  const high = (row: CaseResult) => row.medianNs + (row.rmePct / 100) * row.meanNs;
  const max = Math.max(...rows.map(high), 1e-9);
  const plot = WIDTH - LABEL - VALUE;
  const x = (ns: number) => LABEL + Math.min(1, Math.max(0, ns / max)) * plot;
  const height = rows.length * ROW + 6;
  return (
    <figure className="bench-chart__group">
      <figcaption>{kernel}</figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${height}`} width="100%" aria-hidden="true" focusable="false">
        {rows.map((row, i) => {
          const y = 3 + i * ROW;
          const moe = (row.rmePct / 100) * row.meanNs;
          const low = x(row.medianNs - moe);
          const top = x(row.medianNs + moe);
          const mid = y + ROW / 2 - 2;
          return (
            <g key={`${row.impl}|${row.shape}`}>
              <text className="bench-chart__label" x={LABEL - 8} y={mid + 4} textAnchor="end">
                {row.impl} · {row.shape}
              </text>
              <rect
                className={`bench-chart__bar bench-chart__bar--${IMPL_CLASS[row.impl]}`}
                x={LABEL}
                y={y + 2}
                width={Math.max(1, x(row.medianNs) - LABEL)}
                height={ROW - 8}
                rx={3}
              />
              <line className="bench-chart__whisker" x1={low} x2={top} y1={mid} y2={mid} />
              <line className="bench-chart__whisker" x1={low} x2={low} y1={mid - 4} y2={mid + 4} />
              <line className="bench-chart__whisker" x1={top} x2={top} y1={mid - 4} y2={mid + 4} />
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

export function BenchChart({ rows }: { rows: readonly CaseResult[] }) {
  const kernels = [...new Set(rows.map((row) => row.kernel))];
  return (
    <div className="bench-chart" data-testid="bench-chart">
      <p className="bench-chart__legend" aria-hidden="true">
        {Object.entries(IMPL_CLASS).map(([impl, name]) => (
          <span key={name}>
            <span className={`bench-chart__swatch bench-chart__bar--${name}`} /> {impl}
          </span>
        ))}
        <span>Bars: median time per operation (shorter is faster); whiskers: ±95 % margin.</span>
      </p>
      {kernels.map((kernel) => (
        <Group key={kernel} kernel={kernel} rows={rows.filter((row) => row.kernel === kernel)} />
      ))}
    </div>
  );
}
