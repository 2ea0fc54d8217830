// `make bench-compare A=… B=…`: two /bench result files (the page's "Download JSON", or
// target/bench-browser/*.json) as a table of changes: each case's median in both runs, run B's time
// against run A's with its 95 % interval and a verdict (faster, slower, unsure), and both runs'
// environments side by side. The statistics are the page's own (app/src/features/bench/stats.ts).
//
//   node benches/browser/bench-compare.mjs A.json B.json [--impl-a "wasm scalar" --impl-b "wasm SIMD"]
//
// --impl-a/--impl-b compare one implementation of run A with another of run B (a known change: the
// scalar build against the SIMD one). The machine's drift between the runs, measured on the
// JavaScript rows (plain JS, gl-matrix), is taken out of the browser rows before they are judged;
// --raw judges the times as measured (a browser update, which moves the JavaScript rows too). Exits
// 0; the verdicts are for a reader, not a gate.
import { readFile } from "node:fs/promises";
import { loadStats } from "./load-stats.mjs";

const args = process.argv.slice(2);
const option = (name) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args.splice(at, 2)[1] : undefined;
};
const implA = option("impl-a");
const implB = option("impl-b");
const rawAt = args.indexOf("--raw");
const raw = rawAt >= 0 && args.splice(rawAt, 1).length > 0;
const [fileA, fileB] = args;
if (!fileA || !fileB) {
  console.error("usage: bench-compare.mjs A.json B.json [--impl-a IMPL --impl-b IMPL] [--raw]");
  process.exit(2);
}
const stats = await loadStats();
const [a, b] = await Promise.all(
  [fileA, fileB].map(async (f) => JSON.parse(await readFile(f, "utf8"))),
);
const pair = implA && implB ? { implA, implB } : undefined;
const drift = stats.machineDrift(a.cases, b.cases);
const changes = stats.compareRuns(a.cases, b.cases, pair, raw ? 1 : (drift ?? 1));
console.log(`A: ${fileA}\nB: ${fileB}\n`);
console.log(stats.driftSentence(drift, raw), "\n");
console.log(stats.changesMarkdown(changes, stats.environmentRows(a, b)));
const count = (verdict) => changes.filter((c) => c.change.verdict === verdict).length;
console.log(
  `\n${changes.length} cases: ${count("faster")} faster, ${count("slower")} slower, ${count("unsure")} unsure in B.`,
);
