// The /bench page's results: the chart, the table with every number, and the report to take away.
import { BenchChart } from "./bench-chart";
import { BenchTable } from "./bench-table";
import {
  boundarySentence,
  formatNs,
  formatOps,
  formatSpeedup,
  precisionPct,
  simdGain,
  speedup,
} from "./stats";
import type { BenchReport } from "./use-bench";

function download(report: BenchReport): void {
  const blob = new Blob([`${JSON.stringify(report, null, 2)}\n`], { type: "application/json" });
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = `mg-bench-${report.date.slice(0, 19).replaceAll(":", "-")}.json`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}

export function BenchResults({
  report,
  onCopy,
}: {
  report: BenchReport;
  /** Copies the table as Markdown. */
  onCopy: () => void;
}) {
  return (
    <section className="bench__panel" aria-labelledby="bench-results">
      <div className="bench__results-head">
        <h2 id="bench-results">Results</h2>
        <div className="bench__actions">
          <button type="button" className="button" onClick={() => download(report)}>
            Download JSON
          </button>
          <button type="button" className="button" onClick={onCopy}>
            Copy as Markdown
          </button>
        </div>
      </div>
      <BenchChart rows={report.cases} />
      {boundarySentence(report.cases) && (
        <p className="bench__note" data-testid="bench-boundary">
          {boundarySentence(report.cases)}
        </p>
      )}
      <BenchTable
        label="Results table"
        testId="bench-table"
        caption={
          <>
            Time per operation (a matrix product, a point or a frame), lower is better. ±95 % is the
            interval of the case's own mean; “vs baseline” compares with gl-matrix for the kernels
            and with plain JavaScript for the frames, “SIMD vs scalar” the two wasm builds: the
            speed-up, its 95 % interval and the verdict it supports (faster, slower or unsure). Each
            case sampled until its intervals were within ±{report.settings.thresholdPct} % or it had
            run {report.settings.caseLimitMs / 1000} s.
          </>
        }
        columns={[
          "Case",
          "Implementation",
          "Shape",
          "Median",
          "p75",
          "p99",
          "ops/s",
          "±95 %",
          "Samples",
          "vs baseline",
          "SIMD vs scalar",
        ]}
      >
        {report.cases.map((row) => (
          <tr key={`${row.kernel}|${row.impl}|${row.shape}`} data-impl={row.impl}>
            <th scope="row">{row.kernel}</th>
            <td>{row.impl}</td>
            <td>{row.shape}</td>
            <td>{formatNs(row.medianNs)}</td>
            <td>{formatNs(row.p75Ns)}</td>
            <td>{formatNs(row.p99Ns)}</td>
            <td>{formatOps(row.opsPerSec)}</td>
            <td>±{(row.samplesNs ? precisionPct(row.samplesNs) : row.rmePct).toFixed(1)} %</td>
            <td title={row.stopped}>{row.samples}</td>
            <td>{formatSpeedup(speedup(row, report.cases))}</td>
            <td>{formatSpeedup(simdGain(row, report.cases))}</td>
          </tr>
        ))}
      </BenchTable>
    </section>
  );
}
