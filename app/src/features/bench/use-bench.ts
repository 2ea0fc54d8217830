// The /bench page's state: the measurements' module (loaded after first paint), what this browser
// offers, and a run's progress and report, which it also leaves on `window` for `make bench-browser`
// and the e2e test.
import { useEffect, useRef, useState } from "react";
import type { Progress, RunSize, RunSizeName, WasmBuilds } from "./runner";
import { boundarySentence, type CaseResult, formatNs, markdownTable } from "./stats";

type Runner = typeof import("./runner");

export type Environment = {
  isolated: boolean;
  simd: boolean;
  /** Smallest step of performance.now() seen, in microseconds. */
  timerStepUs: number;
};

export type BenchReport = {
  /** 2: cases carry every sample (`samplesNs`) and why sampling stopped; `settings` is new. */
  schema: "mg-bench/2";
  date: string;
  userAgent: string;
  /** navigator.hardwareConcurrency. */
  cpus: number;
  crossOriginIsolated: boolean;
  timerStepUs: number;
  simdSupported: boolean;
  /** The page's chunk (its content hash names the build). */
  build: string;
  size: RunSizeName;
  /** The wasm builds measured: both, or one alone (`?build=`); older reports say nothing (both). */
  builds?: WasmBuilds;
  /** The convergence settings of the run. */
  settings: { thresholdPct: number; caseLimitMs: number; minSamples: number; maxSamples: number };
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

/** `?build=simd` or `?build=scalar`: measure that wasm build alone (how Firefox is measured). */
export function buildsFromQuery(search: string): WasmBuilds {
  const build = new URLSearchParams(search).get("build");
  if (build === "simd") return "wasm SIMD";
  if (build === "scalar") return "wasm scalar";
  return "both";
}

/** `?case=…&impl=…[&shape=…][&seconds=10]`: one case to run continuously for a profiler. */
export function continuousFromQuery(search: string) {
  const query = new URLSearchParams(search);
  const kernel = query.get("case");
  const impl = query.get("impl");
  if (!kernel || !impl) return undefined;
  const seconds = Number(query.get("seconds") ?? 10);
  return {
    kernel,
    impl,
    shape: query.get("shape") ?? undefined,
    seconds: Number.isFinite(seconds) && seconds > 0 && seconds <= 600 ? seconds : 10,
  };
}

/** `?threshold=2` (± percent) and `?limit=5` (seconds per case) over a run size's defaults. */
export function withQuery(size: RunSize, search: string): RunSize {
  const query = new URLSearchParams(search);
  const number = (name: string, low: number, high: number) => {
    const value = Number(query.get(name));
    return query.has(name) && Number.isFinite(value) && value >= low && value <= high
      ? value
      : undefined;
  };
  const threshold = number("threshold", 0.1, 100);
  const limit = number("limit", 0.1, 600);
  return {
    ...size,
    thresholdPct: threshold ?? size.thresholdPct,
    caseLimitMs: limit === undefined ? size.caseLimitMs : limit * 1000,
  };
}

/** The bench's state and its two actions (run, copy the table). */
export function useBench() {
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
    const continuous = continuousFromQuery(window.location.search);
    if (continuous) {
      try {
        const ran = await loaded.runContinuously(loaded.RUN_SIZES[size], continuous, setProgress);
        const row = ran?.result;
        setStatus(
          row
            ? `Ran ${continuous.kernel}, ${continuous.impl} (${row.shape}) for ${continuous.seconds} s: ${row.samples} samples, median ${formatNs(row.medianNs)} per operation.`
            : `No case is called “${continuous.kernel}” with implementation “${continuous.impl}”.`,
        );
      } catch (cause) {
        setError(`The run failed: ${String(cause)}`);
        setStatus("");
      } finally {
        setRunning(false);
      }
      return;
    }
    try {
      const settings = withQuery(loaded.RUN_SIZES[size], window.location.search);
      const builds = buildsFromQuery(window.location.search);
      const { results } = await loaded.runBench(settings, setProgress, builds);
      const next: BenchReport = {
        schema: "mg-bench/2",
        date: new Date().toISOString(),
        userAgent: navigator.userAgent,
        cpus: navigator.hardwareConcurrency,
        crossOriginIsolated: env.isolated,
        timerStepUs: env.timerStepUs,
        simdSupported: env.simd,
        build: loaded.buildId,
        size,
        builds,
        settings: {
          thresholdPct: settings.thresholdPct,
          caseLimitMs: settings.caseLimitMs,
          minSamples: settings.minSamples,
          maxSamples: settings.maxSamples,
        },
        cases: results,
      };
      window.mgBenchMarkdown = [markdownTable(results), boundarySentence(results)]
        .filter(Boolean)
        .join("\n\n");
      window.mgBenchReport = next;
      setReport(next);
      const alone = builds === "both" ? "" : ` (the ${builds} build alone)`;
      setStatus(`Done: ${results.length} cases${alone}. The table below has every number.`);
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

  return {
    env,
    ready,
    size,
    setSize,
    running,
    progress,
    percent,
    report,
    status,
    error,
    run,
    copyMarkdown,
  };
}
