// The native half of "native beside wasm": criterion's results for the /bench cases
// (benches/benches/kernels.rs and graphics.rs, run by `make bench`) as a report in the page's schema,
// written to target/bench-browser/native.json (and native.md). `make bench-browser` reads it to show
// each wasm row as a percentage of native and of its kernel's arithmetic floor; the page's compare
// view and `make bench-compare` take it as either run. The mapping and the arithmetic are
// app/src/features/bench/native.ts (unit-tested there).
//
//   node benches/browser/native-report.mjs [--criterion DIR] [--out DIR]
import { execFileSync } from "node:child_process";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadNative } from "./load-stats.mjs";
import { thisMachine } from "./machine.mjs";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 && args[at + 1] ? args[at + 1] : fallback;
};
const criterionDir = option("criterion", join(repo, "target", "criterion"));
const outDir = option("out", join(repo, "target", "bench-browser"));

/** Every bench criterion has a result for: the folders holding new/benchmark.json. */
async function criterionBenches(dir) {
  const found = [];
  const walk = async (at) => {
    let entries;
    try {
      entries = await readdir(at, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (!entry.isDirectory()) continue;
      const path = join(at, entry.name);
      if (entry.name !== "new") {
        await walk(path);
        continue;
      }
      try {
        const meta = JSON.parse(await readFile(join(path, "benchmark.json"), "utf8"));
        const sample = JSON.parse(await readFile(join(path, "sample.json"), "utf8"));
        found.push({
          id: meta.full_id,
          elements: meta.throughput?.Elements ?? 1,
          iters: sample.iters,
          times: sample.times,
        });
      } catch {
        // a folder without a finished result
      }
    }
  };
  await walk(dir);
  return found;
}

const run = (command, commandArgs) => {
  try {
    return execFileSync(command, commandArgs, { cwd: repo, encoding: "utf8" }).trim();
  } catch {
    return "unknown";
  }
};

const native = await loadNative();
const benches = await criterionBenches(criterionDir);
const report = native.nativeReport(benches, {
  date: new Date().toISOString(),
  compiler: run("rustc", ["-V"]),
  machine: await thisMachine(),
  build: run("git", ["rev-parse", "--short", "HEAD"]),
  loadAverage: loadavg(),
});
if (!report) {
  console.error(
    `No /bench case among criterion's results in ${criterionDir}: run \`cargo bench -p mg-benches --bench kernels --bench graphics\` first.`,
  );
  process.exit(1);
}
await mkdir(outDir, { recursive: true });
await writeFile(join(outDir, "native.json"), `${JSON.stringify(report, null, 2)}\n`);
const table = native.nativeMarkdown(
  native.againstNative([], report.cases, report.peak),
  report.peak,
);
const header = `Native, ${report.browserVersion}; ${report.machine.nproc} CPUs, ${report.machine.cpu}; commit ${report.build}; load average ${report.loadAverage.map((x) => x.toFixed(2)).join(", ")}; ${report.date}.\n\n`;
await writeFile(join(outDir, "native.md"), `${header}${table}\n`);
console.log(`${header}${table}\n\n(written to ${join(outDir, "native.json")})`);
