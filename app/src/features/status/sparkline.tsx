// A small inline SVG line of check latencies; failed checks are marked with a cross.
import type { CheckSample } from "./use-check-history";

const WIDTH = 240;
const HEIGHT = 48;
const PAD = 4;

function failed(sample: CheckSample): boolean {
  return sample.status !== undefined && (sample.status < 200 || sample.status >= 300);
}

/** `label` names the component; the figure's text alternative summarises the data. */
export function Sparkline({ samples, label }: { samples: CheckSample[]; label: string }) {
  const summary = describe(samples, label);
  if (samples.length === 0) {
    return (
      <p className="sparkline sparkline--empty" data-testid="sparkline">
        <span>No checks yet</span>
        <span className="visually-hidden">{summary}</span>
      </p>
    );
  }
  const max = Math.max(...samples.map((s) => s.latencyMs), 1);
  const step = samples.length > 1 ? (WIDTH - PAD * 2) / (samples.length - 1) : 0;
  const points = samples.map((s, i) => ({
    x: samples.length > 1 ? PAD + i * step : WIDTH / 2,
    y: HEIGHT - PAD - (s.latencyMs / max) * (HEIGHT - PAD * 2),
    bad: failed(s),
  }));
  const line = points.map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(" ");
  const last = points[points.length - 1];
  return (
    <figure className="sparkline" data-testid="sparkline">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={summary}>
        <line
          className="sparkline__base"
          x1={PAD}
          x2={WIDTH - PAD}
          y1={HEIGHT - PAD}
          y2={HEIGHT - PAD}
        />
        {points.length > 1 && <polyline className="sparkline__line" points={line} />}
        {points
          .filter((p) => p.bad)
          .map((p) => (
            <path
              key={`${p.x}`}
              className="sparkline__fail"
              d={`M${p.x - 3},${p.y - 3}l6,6m0,-6l-6,6`}
            />
          ))}
        {last && !last.bad && <circle className="sparkline__dot" cx={last.x} cy={last.y} r={3} />}
      </svg>
      <figcaption className="sparkline__caption" aria-hidden="true">
        {samples.length} {samples.length === 1 ? "check" : "checks"}, max {max} ms
      </figcaption>
    </figure>
  );
}

function describe(samples: CheckSample[], label: string): string {
  if (samples.length === 0) return `${label}: no checks recorded in this session yet.`;
  const latencies = samples.map((s) => s.latencyMs);
  const failures = samples.filter(failed).length;
  const min = Math.min(...latencies);
  const max = Math.max(...latencies);
  const last = latencies[latencies.length - 1];
  return `${label} latency over the last ${samples.length} checks: from ${min} to ${max} ms, latest ${last} ms; ${failures} failed.`;
}
