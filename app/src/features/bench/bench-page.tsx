// /bench: the graphics math timed in the visitor's own browser. The server sends this page with
// Cross-Origin-Opener-Policy and Cross-Origin-Embedder-Policy, so it is cross-origin isolated and
// performance.now() ticks in microseconds rather than the coarse steps other pages get. The
// measurements (runner.ts: both graphics builds and gl-matrix) load only here, after first paint.
import { usePageMeta } from "../../components/document-title";
import { NeedsScript } from "../../components/needs-script";
import { BenchCompare } from "./bench-compare";
import { BenchEnvironment } from "./bench-environment";
import { BenchResults } from "./bench-results";
import type { RunSizeName } from "./runner";
import { useBench } from "./use-bench";
import "./bench.css";

export function BenchPage() {
  usePageMeta(
    "Graphics bench",
    "Time the 3D widgets' math in your own browser: wasm SIMD, wasm scalar, gl-matrix and plain JavaScript, per call, per batch and zero-copy.",
  );
  const bench = useBench();
  const { env, report, progress, percent, running } = bench;

  return (
    <main id="main" className="page bench">
      <p className="eyebrow">Benchmarks</p>
      <h1>Graphics bench</h1>
      <p className="page__lead">
        The math behind this site's 3D widgets, timed in your browser: glam compiled to WebAssembly
        with and without SIMD, against gl-matrix and hand-written JavaScript, on the same data.
      </p>

      <BenchEnvironment env={env} />

      <section className="bench__panel" aria-labelledby="bench-run">
        <h2 id="bench-run">Run</h2>
        <NeedsScript>The bench runs in your browser and needs JavaScript.</NeedsScript>
        <div className="bench__controls">
          <label className="bench__size">
            <span>Run size</span>
            <select
              value={bench.size}
              onChange={(event) => bench.setSize(event.target.value as RunSizeName)}
              disabled={running}
            >
              <option value="full">
                Full: 10,000 points, sampled to ±5 % or 3 s a case (under 2 minutes)
              </option>
              <option value="quick">Quick: 1,000 points, 5 samples (a few seconds)</option>
            </select>
          </label>
          <button
            type="button"
            className="button button--primary"
            onClick={bench.run}
            disabled={!bench.ready || running}
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
          {bench.status}
        </p>
        {bench.error && (
          <p className="bench__error" role="alert">
            {bench.error}
          </p>
        )}
      </section>

      {report && <BenchResults report={report} onCopy={bench.copyMarkdown} />}

      <BenchCompare />
    </main>
  );
}
