// `make bench-browser`: the /bench page, run headless. Starts the server on the built app (app/dist,
// a fresh data directory, 127.0.0.1 only), opens /bench in headless Chromium and then in Firefox ESR,
// presses Run, and writes the page's own report as JSON plus a Markdown table (with the browser
// version, the machine and its load average) to target/bench-browser/ (bench.* for Chromium,
// bench-firefox.* for Firefox).
//
//   node benches/browser/bench-browser.mjs [--size full|quick] [--browser chromium|firefox|both]
//                                          [--out DIR] [--threshold PCT] [--limit S]
//                                          [--build simd|scalar]
//
// --threshold and --limit pass the page's ?threshold= (± percent each case's intervals must reach,
// default 5) and ?limit= (seconds of samples a case may take, default 3); --build simd|scalar its
// ?build= (one wasm build alone, as Firefox is measured; see benches/README.md).
//
// When a native report is there (--native FILE, default target/bench-browser/native.json, written by
// `make bench`), each wasm row of the zero-copy kernels and the frames is also shown as a percentage
// of native on this machine, and each kernel's time against its arithmetic floor
// (app/src/features/bench/native.ts); without one, the script says how to make it.
//
// MG_SERVER_BIN picks the server binary (default: target/debug/mg-server); CHROMIUM_PATH the browser.
// playwright-core is the app's (app/node_modules): this folder installs nothing of its own.
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromiumLaunchOptions } from "../../app/common/chromium.mjs";
import { loadCatalogue } from "../../app/scripts/catalogue.mjs";
import { loadNative } from "./load-stats.mjs";
import { thisMachine } from "./machine.mjs";

const appDir = fileURLToPath(new URL("../../app", import.meta.url));
const repo = join(appDir, "..");
const { chromium } = createRequire(join(appDir, "package.json"))("playwright-core");
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 && args[at + 1] ? args[at + 1] : fallback;
};
const size = option("size", "full");
// Chromium, then Firefox ESR: --browser chromium|firefox|both (default both).
const browserOption = option("browser", "both");
const engines = browserOption === "both" ? ["chromium", "firefox"] : [browserOption];
const outDir = option("out", join(repo, "target", "bench-browser"));
const query = new URLSearchParams({ size });
for (const name of ["threshold", "limit", "build"]) if (option(name)) query.set(name, option(name));
const nativeFile = option("native", join(outDir, "native.json"));
const port = Number(process.env.BENCH_PORT ?? 3471);
const origin = `http://127.0.0.1:${port}`;

async function waitForHealth(server) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited (${server.exitCode})`);
    try {
      if ((await fetch(`${origin}/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error("the server did not answer /health within 60 s");
}

const data = await mkdtemp(join(tmpdir(), "mg-bench-"));
const server = spawn(process.env.MG_SERVER_BIN ?? join(repo, "target", "debug", "mg-server"), [], {
  env: {
    ...process.env,
    PORT: String(port),
    DATA_DIR: data,
    STATIC_DIR: join(appDir, "dist"),
    SANCTIFIED: "false",
    RUST_LOG: "warn",
  },
  stdio: ["ignore", "ignore", "inherit"],
});
/** An engine's browser behind the few calls this script makes. */
async function launch(engine) {
  if (engine === "chromium") {
    const browser = await chromium.launch(chromiumLaunchOptions);
    const page = await browser.newPage();
    page.on("pageerror", (error) => console.error(error));
    return {
      page,
      version: `Chromium ${browser.version()}`,
      wait: (fn, timeout) => page.waitForFunction(fn, null, { timeout }),
      close: () => browser.close(),
    };
  }
  // Firefox ESR over WebDriver BiDi, as the package fixtures drive it (examples/run-matrix.mjs):
  // puppeteer-core from examples/node_modules and Debian's firefox-esr.
  const puppeteer = createRequire(join(repo, "examples", "package.json"))("puppeteer-core");
  const browser = await puppeteer.launch({
    browser: "firefox",
    executablePath: process.env.FIREFOX_PATH ?? "/usr/bin/firefox-esr",
    headless: true,
    // A full run waits minutes for its report in one call; puppeteer's default is 3 minutes.
    protocolTimeout: 900_000,
  });
  const page = await browser.newPage();
  page.on("pageerror", (error) => console.error(error));
  const version = (await browser.version()).replace(/^firefox\//i, "Firefox ");
  return {
    page,
    version,
    wait: (fn, timeout) => page.waitForFunction(fn, { timeout }),
    close: () => browser.close(),
  };
}

/** The wasm rows against the native report, as Markdown; or how to make the report. */
async function againstNative(cases) {
  let nativeReport;
  try {
    nativeReport = JSON.parse(await readFile(nativeFile, "utf8"));
  } catch {
    return `No native results (${nativeFile}): \`make bench\` (or \`cargo bench -p mg-benches --bench kernels --bench graphics\`, then \`node benches/browser/native-report.mjs\`) writes them; the next run shows each wasm row as a percentage of native.`;
  }
  const native = await loadNative();
  const rows = native.againstNative(cases, nativeReport.cases, nativeReport.peak);
  return [
    `Against native (${nativeReport.browserVersion}, ${nativeReport.date}, load average ${nativeReport.loadAverage?.map((x) => x.toFixed(2)).join(", ") ?? "unknown"}): % of native is native's time over the row's, with its 95 % interval; % of floor is the kernel's arithmetic floor over the row's time.`,
    "",
    native.nativeMarkdown(rows, nativeReport.peak),
  ].join("\n");
}

/** Runs the page in one engine and writes its JSON and Markdown (`bench` + suffix). */
async function runIn(engine, suffix) {
  const browser = await launch(engine);
  try {
    const { page } = browser;
    const { paths } = await loadCatalogue();
    await page.goto(`${origin}${paths.bench}?${query}`);
    const runButton = ".bench__controls button.button--primary";
    await browser.wait(() => {
      const button = document.querySelector(".bench__controls button.button--primary");
      return button !== null && !button.disabled;
    }, 60_000);
    const started = Date.now();
    await page.click(runButton);
    await browser.wait(() => window.mgBenchReport !== undefined, 600_000);
    const report = await page.evaluate(() => window.mgBenchReport);
    const machine = await thisMachine();
    const browserVersion = browser.version;
    // The page's own table ("Copy as Markdown" copies the same text).
    const table = await page.evaluate(() => window.mgBenchMarkdown ?? "");
    await mkdir(outDir, { recursive: true });
    const full = { ...report, browserVersion, machine, loadAverage: loadavg() };
    await writeFile(join(outDir, `bench${suffix}.json`), `${JSON.stringify(full, null, 2)}\n`);
    const header = [
      `${browserVersion}, headless; ${machine.nproc} CPUs, ${machine.cpu}; ${report.crossOriginIsolated ? "cross-origin isolated" : "NOT isolated"}; timer step ${report.timerStepUs.toFixed(1)} µs; wasm SIMD ${report.simdSupported ? "supported" : "not supported"}; size ${report.size}, each case sampled to ±${report.settings.thresholdPct} % or ${report.settings.caseLimitMs / 1000} s; load average ${loadavg().map((x) => x.toFixed(2)).join(", ")}; ${report.date}.`,
      "",
      "Median, p75 and p99 time per operation; ±95 % is the interval of the case's own (geometric) mean; vs baseline: the speed-up over gl-matrix for the kernels and over plain JavaScript for the frames, SIMD vs scalar: over the scalar build in the same shape, each with its 95 % interval and verdict.",
      "",
    ].join("\n");
    const against = await againstNative(report.cases);
    await writeFile(join(outDir, `bench${suffix}.md`), `${header}${table}\n\n${against}\n`);
    console.log(`${header}${table}\n\n${against}\n`);
    console.log(`(${((Date.now() - started) / 1000).toFixed(0)} s; written to ${outDir})\n`);
  } finally {
    await browser.close();
  }
}

try {
  await waitForHealth(server);
  // Chromium writes bench.json/bench.md, Firefox bench-firefox.json/.md.
  for (const engine of engines) await runIn(engine, engine === "chromium" ? "" : `-${engine}`);
} finally {
  server.kill("SIGTERM");
  await rm(data, { recursive: true, force: true });
}
