// Runs Lighthouse (mobile settings) on the public pages of a running server and writes the four
// category scores, the main metrics and the transfer sizes to a JSON file. Not part of the test suite.
//
//   BASE_URL=http://127.0.0.1:4177 node scripts/lighthouse.mjs [out.json]
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
const paths = ["/", "/apotheosis", "/mg/overview"];
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
  const { categories, audits } = await audit(url);
  const byType = {};
  for (const request of audits["network-requests"]?.details?.items ?? []) {
    const type = request.resourceType ?? "Other";
    byType[type] = (byType[type] ?? 0) + (request.transferSize ?? 0);
  }
  const result = {
    url,
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
        nodes: (entry.details?.items ?? [])
          .map((item) => item.node?.selector)
          .filter(Boolean)
          .slice(0, 5),
      })),
  };
  results.push(result);
  console.log(`${path}: ${JSON.stringify(result.scores)} ${result.transferKb.total} KB`);
}

await mkdir(dirname(out), { recursive: true });
await writeFile(
  out,
  `${JSON.stringify({ measuredAt: new Date().toISOString(), baseUrl, lighthouse: LIGHTHOUSE, results }, null, 2)}\n`,
);
console.log(`Wrote ${out}`);
