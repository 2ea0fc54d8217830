// Measures what a first visit of each public route downloads: loads the route in headless Chromium
// (fresh profile, empty cache) against a running server, records every response until the network has
// been quiet for a while, and sizes each one. Not part of the test suite.
//
//   BASE_URL=http://127.0.0.1:3411 node scripts/first-visit.mjs [--json out.json] [--list] [--width 412]
//     [route ...]
//
// The viewport is 412 x 823 CSS px by default (Lighthouse's mobile one); the decorative widgets are
// left out below 900 px, so pass `--width 1280` to see what the graphics add on a wide screen.
//
// Sizes: `gzip` is the body compressed with gzip -9 here (the same figure whatever the server
// sends), `wire` is the encoded body as it came over the network (the server gzips text; what it
// does not compress counts in full). The budget (docs/quality.md "Pages": <= 110 KB gzip) excludes
// the decorative graphics code and the identity SDK, which must load only after the page's load
// event / only when used; both are recognised by their chunk names (GRAPHICS, IDENTITY below) and
// reported separately, with whether anything of theirs was requested before the load event.
import { writeFile } from "node:fs/promises";
import { gzipSync } from "node:zlib";
import { chromium } from "playwright-core";
import { chromiumLaunchOptions } from "../common/chromium.mjs";
import { loadCatalogue } from "./catalogue.mjs";

const baseUrl = (process.env.BASE_URL ?? "http://127.0.0.1:3411").replace(/\/$/, "");
const args = process.argv.slice(2);
const jsonOut = args.includes("--json") ? args[args.indexOf("--json") + 1] : undefined;
const list = args.includes("--list");
const width = args.includes("--width") ? Number(args[args.indexOf("--width") + 1]) : 412;
const routes = args.filter(
  (a, i) => !a.startsWith("--") && args[i - 1] !== "--json" && args[i - 1] !== "--width",
);
// By default one path per kind of page (the catalogue's `samplePaths`).
if (routes.length === 0) routes.push(...(await loadCatalogue()).samplePaths());

// The graphics code: the lazily imported renderer (the `mount` chunk, which holds the graphics wasm
// package's glue) and the graphics .wasm.
const GRAPHICS = /\/assets\/(mount|mg_core_graphics[\w]*)-[\w-]+\.(js|wasm)$/;
// vite-plugin-wasm's loader, shared by the two wasm packages: graphics on a page that loads no
// machines (.wasm other than the graphics one), else the page's own.
const WASM_HELPER = /\/assets\/__vite-plugin-wasm-helper-[\w-]+\.js$/;
const MACHINES_WASM = /\/assets\/mg_core_bg-[\w-]+\.wasm$/;
// The identity SDK (@descope/web-js-sdk and its dependencies).
const IDENTITY = /\/assets\/(descope|index\.esm)-[\w-]+\.js$/;

const kb = (bytes) => (bytes / 1024).toFixed(1);

async function visit(browser, route) {
  const context = await browser.newContext({ viewport: { width, height: 823 } });
  const page = await context.newPage();
  const responses = [];
  page.on("response", (response) => responses.push(response));
  let lastActivity = Date.now();
  page.on("request", () => {
    lastActivity = Date.now();
  });
  page.on("requestfinished", () => {
    lastActivity = Date.now();
  });
  const errors = [];
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  page.on("pageerror", (e) => errors.push(String(e)));

  await page.goto(`${baseUrl}${route}`, { waitUntil: "load" });
  await page.waitForLoadState("networkidle");
  // The graphics load in an idle callback after `load` (timeout 1 s); wait until 2 s pass with no request.
  const deadline = Date.now() + 20_000;
  while (Date.now() - lastActivity < 2000 && Date.now() < deadline) await page.waitForTimeout(250);

  const timing = await page.evaluate(() => {
    const nav = performance.getEntriesByType("navigation")[0];
    const fcp = performance.getEntriesByName("first-contentful-paint")[0];
    return {
      loadEventStart: nav?.loadEventStart ?? 0,
      fcp: fcp?.startTime ?? null,
      starts: Object.fromEntries(
        performance.getEntriesByType("resource").map((r) => [r.name, r.startTime]),
      ),
    };
  });

  const machines = responses.some((response) => MACHINES_WASM.test(response.url()));
  const kindOf = (path) =>
    GRAPHICS.test(path) || (WASM_HELPER.test(path) && !machines)
      ? "graphics"
      : IDENTITY.test(path)
        ? "identity"
        : "page";
  const rows = [];
  for (const response of responses) {
    const url = response.url();
    if (!url.startsWith(baseUrl)) continue;
    let body;
    try {
      body = await response.body();
    } catch {
      continue; // redirects have no body
    }
    const sizes = await response.request().sizes();
    const path = url.slice(baseUrl.length);
    const start = url === `${baseUrl}${route}` ? 0 : (timing.starts[url] ?? null);
    rows.push({
      path,
      status: response.status(),
      kind: kindOf(path),
      raw: body.length,
      gzip: Math.min(body.length, gzipSync(body, { level: 9 }).length),
      wire: sizes.responseBodySize,
      startMs: start === null ? null : Math.round(start),
      afterLoad: start !== null && start >= timing.loadEventStart,
    });
  }
  await context.close();

  const sum = (filter, key) => rows.filter(filter).reduce((total, row) => total + row[key], 0);
  const early = (kind) => rows.filter((r) => r.kind === kind && !r.afterLoad).map((r) => r.path);
  return {
    route,
    requests: rows.length,
    loadEventMs: Math.round(timing.loadEventStart),
    fcpMs: timing.fcp === null ? null : Math.round(timing.fcp),
    gzip: {
      total: sum(() => true, "gzip"),
      budgeted: sum((r) => r.kind === "page", "gzip"),
      graphics: sum((r) => r.kind === "graphics", "gzip"),
      identity: sum((r) => r.kind === "identity", "gzip"),
    },
    wire: { total: sum(() => true, "wire"), budgeted: sum((r) => r.kind === "page", "wire") },
    graphicsBeforeLoad: early("graphics"),
    identityBeforeLoad: early("identity"),
    errors,
    rows,
  };
}

const browser = await chromium.launch(chromiumLaunchOptions);
const results = [];
try {
  for (const route of routes) {
    const r = await visit(browser, route);
    results.push(r);
    console.log(
      `${route.padEnd(14)} gzip ${kb(r.gzip.budgeted).padStart(6)} KB without graphics/identity ` +
        `(total ${kb(r.gzip.total)} KB: graphics ${kb(r.gzip.graphics)}, identity ${kb(r.gzip.identity)}; ` +
        `wire ${kb(r.wire.total)} KB) ${r.requests} requests, FCP ${r.fcpMs} ms, load ${r.loadEventMs} ms`,
    );
    if (r.graphicsBeforeLoad.length)
      console.log(`  graphics requested before load: ${r.graphicsBeforeLoad.join(", ")}`);
    if (r.identityBeforeLoad.length)
      console.log(`  identity requested before load: ${r.identityBeforeLoad.join(", ")}`);
    for (const e of r.errors) console.log(`  console error: ${e}`);
    if (list)
      for (const row of [...r.rows].sort((a, b) => (a.startMs ?? 0) - (b.startMs ?? 0)))
        console.log(
          `    ${String(row.startMs).padStart(5)} ms ${row.afterLoad ? "after " : "before"} load  ` +
            `${kb(row.gzip).padStart(6)} KB gz ${kb(row.wire).padStart(6)} KB wire  ${row.kind.padEnd(8)} ${row.path}`,
        );
  }
} finally {
  await browser.close();
}
if (jsonOut)
  await writeFile(
    jsonOut,
    `${JSON.stringify({ measuredAt: new Date().toISOString(), baseUrl, results }, null, 2)}\n`,
  );
