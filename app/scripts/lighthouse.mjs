// Runs Lighthouse (mobile settings) on the public pages of a running server and writes the four
// category scores, the main metrics and the transfer sizes to a JSON file. Not part of the test suite.
//
//   BASE_URL=http://127.0.0.1:4177 [PATHS=/,/mg/overview] [RUNS=3] node scripts/lighthouse.mjs [out.json]
//
// RUNS > 1 audits each page that many times and keeps the run with the median performance score:
// on a shared, loaded machine one run's total blocking time and LCP move by hundreds of milliseconds.
//
// The default output, test-results/lighthouse.json, is git-ignored. Lighthouse runs through npx at a
// pinned version rather than as a devDependency: one of its dependencies asks for another package at
// "latest", which puts package-lock.json out of date whenever that package publishes and breaks `npm ci`.
// Uses Debian's Chromium (CHROME_PATH, default /usr/bin/chromium); pages run one after another.
import { execFile } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { promisify } from "node:util";

const LIGHTHOUSE = "lighthouse@12.8.2";
const baseUrl = (process.env.BASE_URL ?? "http://127.0.0.1:4177").replace(/\/$/, "");
const out = process.argv[2] ?? "test-results/lighthouse.json";
const paths = (process.env.PATHS ?? "/,/apotheosis,/mg/overview").split(",");
const runs = Math.max(1, Number(process.env.RUNS ?? 1));
const run = promisify(execFile);

const kb = (bytes) => Math.round((bytes / 1024) * 10) / 10;

/** One Lighthouse run; its default config is the mobile one (Moto G Power, slow 4G throttling). */
async function audit(url) {
  const { stdout } = await run(
    "npx",
    [
      "--yes",
      LIGHTHOUSE,
      url,
      "--output=json",
      "--output-path=stdout",
      "--quiet",
      "--only-categories=performance,accessibility,best-practices,seo",
      "--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage",
    ],
    {
      env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH ?? "/usr/bin/chromium" },
      maxBuffer: 256 * 1024 * 1024,
    },
  );
  const lhr = JSON.parse(stdout);
  if (lhr.runtimeError)
    throw new Error(`Lighthouse could not load ${url}: ${lhr.runtimeError.message}`);
  return lhr;
}

const results = [];
for (const path of paths) {
  const url = `${baseUrl}${path}`;
  const lhrs = [];
  for (let run = 0; run < runs; run++) lhrs.push(await audit(url));
  lhrs.sort((a, b) => a.categories.performance.score - b.categories.performance.score);
  const { categories, audits } = lhrs[Math.floor((lhrs.length - 1) / 2)];
  const performanceRuns = lhrs.map((lhr) => Math.round(lhr.categories.performance.score * 100));
  const byType = {};
  for (const request of audits["network-requests"]?.details?.items ?? []) {
    const type = request.resourceType ?? "Other";
    byType[type] = (byType[type] ?? 0) + (request.transferSize ?? 0);
  }
  const result = {
    url,
    performanceRuns,
    scores: Object.fromEntries(
      Object.entries(categories).map(([id, category]) => [id, Math.round(category.score * 100)]),
    ),
    metrics: {
      firstContentfulPaintMs: Math.round(audits["first-contentful-paint"].numericValue),
      largestContentfulPaintMs: Math.round(audits["largest-contentful-paint"].numericValue),
      totalBlockingTimeMs: Math.round(audits["total-blocking-time"].numericValue),
      cumulativeLayoutShift: audits["cumulative-layout-shift"].numericValue,
    },
    transferKb: {
      total: kb(audits["total-byte-weight"].numericValue),
      byType: Object.fromEntries(Object.entries(byType).map(([type, bytes]) => [type, kb(bytes)])),
    },
    failedAudits: Object.values(audits)
      .filter(
        (entry) =>
          entry.score !== null && entry.score < 1 && entry.scoreDisplayMode !== "informative",
      )
      .map((entry) => ({
        id: entry.id,
        // The elements an accessibility or layout audit points at, to find the cause quickly.
        // (Some audits' items are not a list, e.g. an insight's summary object.)
        nodes: (Array.isArray(entry.details?.items) ? entry.details.items : [])
          .map((item) => item.node?.selector)
          .filter(Boolean)
          .slice(0, 5),
      })),
  };
  results.push(result);
  console.log(
    `${path}: ${JSON.stringify(result.scores)} ${result.transferKb.total} KB` +
      (runs > 1 ? ` (performance of the ${runs} runs: ${performanceRuns.join(", ")})` : ""),
  );
}

await mkdir(dirname(out), { recursive: true });
await writeFile(
  out,
  `${JSON.stringify({ measuredAt: new Date().toISOString(), baseUrl, lighthouse: LIGHTHOUSE, results }, null, 2)}\n`,
);
console.log(`Wrote ${out}`);
