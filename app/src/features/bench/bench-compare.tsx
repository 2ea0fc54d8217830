// The /bench compare view: two result files (this page's "Download JSON", or `make bench-browser`'s
// bench.json), picked or dropped, as a table of changes (run B against run A, with the 95 % interval
// and a verdict) and both runs' environments side by side. `make bench-compare` prints the same.
import { type DragEvent, useState } from "react";
import { BenchTable } from "./bench-table";
import {
  type CaseResult,
  compareRuns,
  driftSentence,
  environmentRows,
  formatChange,
  formatNs,
  formatOfNative,
  machineDrift,
  type RunEnvironment,
} from "./stats";

type Run = RunEnvironment & { cases: CaseResult[]; name: string };

/** A result file, or why it is not one. Only the fields the view reads are checked. */
async function readRun(file: File): Promise<Run | string> {
  if (file.size > 20_000_000) return `${file.name} is larger than a bench result can be.`;
  try {
    const parsed: unknown = JSON.parse(await file.text());
    const run = parsed as Partial<Run> & { schema?: unknown };
    if (
      typeof run.schema !== "string" ||
      !run.schema.startsWith("mg-bench/") ||
      !Array.isArray(run.cases) ||
      typeof run.timerStepUs !== "number"
    ) {
      return `${file.name} is not a /bench result (no "mg-bench" schema).`;
    }
    return { ...(run as Run), name: file.name };
  } catch {
    return `${file.name} is not JSON.`;
  }
}

export function BenchCompare() {
  const [runs, setRuns] = useState<[Run | null, Run | null]>([null, null]);
  const [error, setError] = useState<string | null>(null);
  const [over, setOver] = useState(false);

  const load = async (files: File[], slot?: 0 | 1) => {
    setError(null);
    const read = await Promise.all(files.slice(0, 2).map(readRun));
    const failed = read.find((r): r is string => typeof r === "string");
    if (failed) {
      setError(failed);
      return;
    }
    const loaded = read as Run[];
    setRuns(([a, b]) => {
      if (slot !== undefined) return slot === 0 ? [loaded[0] ?? a, b] : [a, loaded[0] ?? b];
      if (loaded.length === 2) return [loaded[0] ?? null, loaded[1] ?? null];
      return a && !b ? [a, loaded[0] ?? null] : [loaded[0] ?? null, b];
    });
  };

  const drop = (event: DragEvent<HTMLElement>) => {
    event.preventDefault();
    setOver(false);
    void load([...event.dataTransfer.files]);
  };

  const [a, b] = runs;
  const drift = a && b ? machineDrift(a.cases, b.cases) : undefined;
  const changes = a && b ? compareRuns(a.cases, b.cases, undefined, drift ?? 1) : [];
  return (
    <section
      className={`bench__panel bench__compare${over ? " bench__compare--over" : ""}`}
      aria-labelledby="bench-compare"
      onDragOver={(event) => {
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
    >
      <h2 id="bench-compare">Compare two runs</h2>
      <p>
        Pick or drop two result files (Download JSON above, <code>make bench-browser</code>'s
        bench.json, or <code>make bench</code>'s native.json on either side): each case of run B
        against run A, with the 95 % interval of the change.
      </p>
      <div className="bench__controls">
        {(["A", "B"] as const).map((label, slot) => (
          <label key={label} className="bench__file">
            <span>Result file {label}</span>
            <input
              type="file"
              accept="application/json,.json"
              onChange={(event) => void load([...(event.target.files ?? [])], slot as 0 | 1)}
            />
          </label>
        ))}
      </div>
      {error && (
        <p className="bench__error" role="alert">
          {error}
        </p>
      )}
      {a && b && (
        <>
          <BenchTable
            label="Environments"
            caption="What each run's numbers depend on."
            columns={["Environment", "Run A", "Run B"]}
          >
            {environmentRows(a, b).map(([label, x, y]) => (
              <tr key={label}>
                <th scope="row">{label}</th>
                <td>{x}</td>
                <td>{y}</td>
              </tr>
            ))}
          </BenchTable>
          <p data-testid="bench-drift">{driftSentence(drift)}</p>
          <BenchTable
            label="Changes table"
            testId="bench-changes"
            caption={
              <>
                Run B against run A, case by case: the change of time per operation, its 95 %
                interval and the verdict it supports (faster, slower, or unsure when the interval
                holds no change). Against a native run (<code>make bench</code>'s native.json), each
                row of the other run is a share of native speed.
              </>
            }
            columns={["Case", "Implementation", "Shape", "A median", "B median", "B against A"]}
          >
            {changes.map((c) => (
              <tr key={`${c.kernel}|${c.impl}|${c.shape}`} data-verdict={c.change.verdict}>
                <th scope="row">{c.kernel}</th>
                <td>{c.impl}</td>
                <td>{c.shape}</td>
                <td>{formatNs(c.aNs)}</td>
                <td>{formatNs(c.bNs)}</td>
                <td>{formatOfNative(c) ?? formatChange(c.change)}</td>
              </tr>
            ))}
          </BenchTable>
        </>
      )}
    </section>
  );
}
