// The 24 h latency chart (p50 and p95 per 15 minutes) and, for screen readers, the same as a table.

import { memo } from "react";
import { ColumnHeads } from "../../components/column-heads";
import type { HistoryView } from "../../lib/wasm/use-status-page";
import { latencyChart } from "./latency-chart";
import "./latency.css";

const CHART_W = 600;
const CHART_H = 120;

/** Memoised: the chart re-renders only when the server's answers gave a new history. */
export const Latency = memo(function Latency({
  id,
  name,
  history,
}: {
  id: string;
  name: string;
  history: HistoryView;
}) {
  const chart =
    history.latencyMessage === null ? latencyChart(history.latency, CHART_W, CHART_H) : undefined;
  const rows = history.latency.filter((row) => row.checks > 0);
  const captionId = `latency-${id}-caption`;
  return (
    <figure className="latency" aria-labelledby={captionId} data-testid={`latency-${id}`}>
      <figcaption className="latency__head" id={captionId}>
        <span className="latency__title">Latency, last 24 h</span>
        <span className="latency__legend">
          <span className="latency__key latency__key--p50">p50 {history.p50Text}</span>
          <span className="latency__key latency__key--p95">p95 {history.p95Text}</span>
        </span>
      </figcaption>
      <div className={`latency__plot${chart ? "" : " latency__plot--message"}`}>
        {chart ? (
          <>
            <span className="latency__tick latency__tick--top" aria-hidden="true">
              {chart.max} ms
            </span>
            <span className="latency__tick latency__tick--bottom" aria-hidden="true">
              0
            </span>
            <svg
              className="latency__svg"
              viewBox={`0 0 ${CHART_W} ${CHART_H}`}
              preserveAspectRatio="none"
              aria-hidden="true"
              focusable="false"
            >
              <line className="latency__grid" x1={0} x2={CHART_W} y1={0} y2={0} />
              <line
                className="latency__grid"
                x1={0}
                x2={CHART_W}
                y1={CHART_H / 2}
                y2={CHART_H / 2}
              />
              <line className="latency__base" x1={0} x2={CHART_W} y1={CHART_H} y2={CHART_H} />
              <path className="latency__line latency__line--p95" d={chart.p95.line} />
              <path className="latency__line latency__line--p50" d={chart.p50.line} />
              <path className="latency__dots latency__dots--p95" d={chart.p95.dots} />
              <path className="latency__dots latency__dots--p50" d={chart.p50.dots} />
            </svg>
          </>
        ) : (
          <p className="history__message">{history.latencyMessage}</p>
        )}
      </div>
      <div className="history__axis" aria-hidden="true">
        <span>24 h ago</span>
        <span>Now</span>
      </div>
      {/* A table ignores its own width, so the clipping box is a div around it. */}
      <div className="visually-hidden">
        <table data-testid={`latency-table-${id}`}>
          <caption>{name} latency per 15 minutes over the last 24 hours (UTC)</caption>
          <ColumnHeads columns={["From", "p50", "p95", "Checks", "Failed"]} />
          <tbody>
            {rows.length === 0 ? (
              <tr>
                <td colSpan={5}>No checks recorded yet</td>
              </tr>
            ) : (
              rows.map((row) => (
                <tr key={row.start}>
                  <th scope="row">{row.clock}</th>
                  <td>{row.p50Text}</td>
                  <td>{row.p95Text}</td>
                  <td>{row.checks}</td>
                  <td>{row.failures}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
    </figure>
  );
});
