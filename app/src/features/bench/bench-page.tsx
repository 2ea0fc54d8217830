// /bench: the graphics math timed in the visitor's own browser. The server sends this page with
// Cross-Origin-Opener-Policy and Cross-Origin-Embedder-Policy, so it is cross-origin isolated and
// performance.now() ticks in microseconds rather than the coarse steps other pages get. The
// measurements (runner.ts: both graphics builds and gl-matrix) load only here, after first paint.
import { useEffect, useRef, useState } from "react";
import { usePageMeta } from "../../components/document-title";
import { NeedsScript } from "../../components/needs-script";
import { BenchChart } from "./bench-chart";
import type { Progress, RunSizeName } from "./runner";
import {
  type CaseResult,
  formatNs,
  formatOps,
  formatSpeedup,
  markdownTable,
  speedup,
} from "./stats";
import "./bench.css";

type Runner = typeof import("./runner");

type Environment = {
  isolated: boolean;
  simd: boolean;
  /** Smallest step of performance.now() seen, in microseconds. */
  timerStepUs: number;
};

export type BenchReport = {
  schema: "mg-bench/1";
  date: string;
  userAgent: string;
  crossOriginIsolated: boolean;
  timerStepUs: number;
  simdSupported: boolean;
  /** The page's chunk (its content hash names the build). */
  build: string;
  size: RunSizeName;
  cases: CaseResult[];
};

declare global {
  interface Window {
    /** The last finished run, for `make bench-browser` and the e2e test. */
    mgBenchReport?: BenchReport;
    /** Its table as Markdown (what "Copy as Markdown" copies). */
    mgBenchMarkdown?: string;
  }
}

function timerStep(): number {
  let smallest = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 20; i += 1) {
    const start = performance.now();
    let next = start;
    while (next === start) next = performance.now();
    smallest = Math.min(smallest, next - start);
  }
  return smallest * 1000;
}

function sizeFromQuery(): RunSizeName {
  return new URLSearchParams(window.location.search).get("size") === "quick" ? "quick" : "full";
}

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

export function BenchPage() {
  usePageMeta(
    "Graphics bench",
    "Time the 3D widgets' math in your own browser: wasm SIMD, wasm scalar, gl-matrix and plain JavaScript, per call, per batch and zero-copy.",
  );
  const runner = useRef<Runner | null>(null);
  const [env, setEnv] = useState<Environment | null>(null);
  const [ready, setReady] = useState(false);
  const [size, setSize] = useState<RunSizeName>("full");
  const [running, setRunning] = useState(false);
  const [progress, setProgress] = useState<Progress | null>(null);
  const [report, setReport] = useState<BenchReport | null>(null);
  const [status, setStatus] = useState("");
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    setSize(sizeFromQuery());
    let cancelled = false;
    import("./runner")
      .then((loaded) => {
        if (cancelled) return;
        runner.current = loaded;
        setEnv({
          isolated: window.crossOriginIsolated === true,
          simd: loaded.simdSupported(),
          timerStepUs: timerStep(),
        });
        setReady(true);
      })
      .catch((cause: unknown) => setError(`The bench could not load: ${String(cause)}`));
    return () => {
      cancelled = true;
    };
  }, []);

  const run = async () => {
    const loaded = runner.current;
    if (!loaded || !env || running) return;
    setRunning(true);
    setError(null);
    setStatus("Running. The page may stutter while a sample is timed.");
    try {
      const { results } = await loaded.runBench(loaded.RUN_SIZES[size], setProgress);
      const next: BenchReport = {
        schema: "mg-bench/1",
        date: new Date().toISOString(),
        userAgent: navigator.userAgent,
        crossOriginIsolated: env.isolated,
        timerStepUs: env.timerStepUs,
        simdSupported: env.simd,
        build: loaded.buildId,
        size,
        cases: results,
      };
      window.mgBenchMarkdown = markdownTable(results);
      window.mgBenchReport = next;
      setReport(next);
      setStatus(`Done: ${results.length} cases. The table below has every number.`);
    } catch (cause) {
      setError(`The run failed: ${String(cause)}`);
      setStatus("");
    } finally {
      setRunning(false);
    }
  };

  const copyMarkdown = async () => {
    if (!report) return;
    try {
      await navigator.clipboard.writeText(markdownTable(report.cases));
      setStatus("Copied the table as Markdown.");
    } catch {
      setStatus("The clipboard is not available here; download the JSON instead.");
    }
  };

  const percent = progress ? Math.round((100 * progress.done) / progress.total) : 0;

  return (
    <main id="main" className="page bench">
      <p className="eyebrow">Benchmarks</p>
      <h1>Graphics bench</h1>
      <p className="page__lead">
        The math behind this site's 3D widgets, timed in your browser: glam compiled to WebAssembly
        with and without SIMD, against gl-matrix and hand-written JavaScript, on the same data.
      </p>

      <section className="bench__panel" aria-labelledby="bench-env">
        <h2 id="bench-env">This browser</h2>
        <dl className="bench__env">
          <div>
            <dt>Cross-origin isolated</dt>
            <dd data-testid="bench-isolated">
              {env ? (env.isolated ? "Yes" : "No: timings are coarse") : "Checking…"}
            </dd>
          </div>
          <div>
            <dt>Timer step</dt>
            <dd>{env ? `${env.timerStepUs.toFixed(1)} µs` : "Checking…"}</dd>
          </div>
          <div>
            <dt>Wasm SIMD</dt>
            <dd data-testid="bench-simd">
              {env
                ? env.simd
                  ? "Supported: the widgets use the SIMD build"
                  : "Not supported: the widgets use the scalar build"
                : "Checking…"}
            </dd>
          </div>
        </dl>
        <p className="bench__note">
          Why can one wasm call per operation lose to plain JavaScript? Each call across the
          boundary copies its arrays into wasm memory and its result back out, and that copying
          costs more than the dozen multiplications it wraps; batched or zero-copy calls pay it once
          for thousands of points, which is where wasm and SIMD win.
        </p>
      </section>

      <section className="bench__panel" aria-labelledby="bench-run">
        <h2 id="bench-run">Run</h2>
        <NeedsScript>The bench runs in your browser and needs JavaScript.</NeedsScript>
        <div className="bench__controls">
          <label className="bench__size">
            <span>Run size</span>
            <select
              value={size}
              onChange={(event) => setSize(event.target.value as RunSizeName)}
              disabled={running}
            >
              <option value="full">Full: 10,000 points, 30 samples (about 30 s)</option>
              <option value="quick">Quick: 1,000 points, 5 samples (a few seconds)</option>
            </select>
          </label>
          <button
            type="button"
            className="button button--primary"
            onClick={run}
            disabled={!ready || running}
            aria-describedby="bench-status"
          >
            {running ? "Running…" : report ? "Run again" : "Run"}
          </button>
        </div>
        <div className="bench__progress">
          <progress
            max={100}
            value={percent}
            aria-label="Bench progress"
            aria-valuetext={progress ? `${percent} %, ${progress.current}` : "Not started"}
          />
          <span aria-hidden="true">{progress ? `${percent} %` : ""}</span>
        </div>
        <p id="bench-status" className="bench__status" role="status">
          {status}
        </p>
        {error && (
          <p className="bench__error" role="alert">
            {error}
          </p>
        )}
      </section>

      {report && (
        <section className="bench__panel" aria-labelledby="bench-results">
          <div className="bench__results-head">
            <h2 id="bench-results">Results</h2>
            <div className="bench__actions">
              <button type="button" className="button" onClick={() => download(report)}>
                Download JSON
              </button>
              <button type="button" className="button" onClick={copyMarkdown}>
                Copy as Markdown
              </button>
            </div>
          </div>
          <BenchChart rows={report.cases} />
          {/* Scrolls sideways on a narrow screen: focusable so the keyboard can scroll it too. */}
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be focusable */}
          <section className="bench__table-wrap" aria-label="Results table" tabIndex={0}>
            <table className="bench__table" data-testid="bench-table">
              <caption>
                Time per operation (a matrix product, a point or a frame), lower is better; “vs
                baseline” compares with gl-matrix for the kernels and with plain JavaScript for the
                frames.
              </caption>
              <thead>
                <tr>
                  <th scope="col">Case</th>
                  <th scope="col">Implementation</th>
                  <th scope="col">Shape</th>
                  <th scope="col">Median</th>
                  <th scope="col">p75</th>
                  <th scope="col">p99</th>
                  <th scope="col">ops/s</th>
                  <th scope="col">±RME</th>
                  <th scope="col">Samples</th>
                  <th scope="col">vs baseline</th>
                </tr>
              </thead>
              <tbody>
                {report.cases.map((row) => (
                  <tr key={`${row.kernel}|${row.impl}|${row.shape}`} data-impl={row.impl}>
                    <th scope="row">{row.kernel}</th>
                    <td>{row.impl}</td>
                    <td>{row.shape}</td>
                    <td>{formatNs(row.medianNs)}</td>
                    <td>{formatNs(row.p75Ns)}</td>
                    <td>{formatNs(row.p99Ns)}</td>
                    <td>{formatOps(row.opsPerSec)}</td>
                    <td>±{row.rmePct.toFixed(1)} %</td>
                    <td>{row.samples}</td>
                    <td>{formatSpeedup(speedup(row, report.cases))}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        </section>
      )}
    </main>
  );
}
