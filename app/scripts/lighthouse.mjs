// Runs Lighthouse (mobile settings) on pages of a running server and writes the four category
// scores, the main metrics and the transfer sizes to a JSON file. Not part of the test suite.
//
//   BASE_URL=http://127.0.0.1:4177 [PATHS=/,/mg/overview,/bench] [SIGNED_IN_PATHS=/home,/apotheosis]
//     [SIGN_IN_EMAIL=lighthouse-operator@example.com] [RUNS=3] node scripts/lighthouse.mjs [out.json]
//
// RUNS > 1 audits each page that many times and keeps the run with the median performance score:
// on a shared, loaded machine one run's total blocking time and LCP move by hundreds of milliseconds.
//
// Three ways a page is audited, all with Lighthouse's default (mobile) configuration:
// - a public page: the Lighthouse CLI, a fresh browser per run;
// - a cross-origin-isolated page (it answers `Cross-Origin-Opener-Policy: same-origin`, e.g. /bench):
//   the CLI's navigation from about:blank moves the tab to another renderer process and Lighthouse
//   fails with NO_NAVSTART, so the page is loaded once, and then audited by a navigation from
//   itself (a user flow's navigation step, without the detour through about:blank); the storage
//   and HTTP cache are reset before it as in any Lighthouse navigation;
// - SIGNED_IN_PATHS: in one browser that first signs in through the server's local identity
//   emulator (docs/identity.md) as SIGN_IN_EMAIL, then audits each page with its session kept (the
//   HTTP cache is cleared before each navigation, storage is not). For the operator view of
//   /apotheosis, start the server with IDENTITY_EMULATOR_OPERATORS naming that address; a
//   signed-in page that does not show what it shows signed in fails the run (SIGNED_IN_MARKS).
//
// The default output, test-results/lighthouse.json, is git-ignored. Lighthouse runs through npx at a
// pinned version rather than as a devDependency: one of its dependencies asks for another package at
// "latest", which puts package-lock.json out of date whenever that package publishes and breaks `npm ci`.
// The user flows import it, and the puppeteer-core it depends on, from that npx install.
// Uses Debian's Chromium (CHROME_PATH, default /usr/bin/chromium); pages run one after another.
import { execFile } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { loadCatalogue } from "./catalogue.mjs";

const LIGHTHOUSE = "lighthouse@12.8.2";
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"];
const CHROME_FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"];
const chromePath = process.env.CHROME_PATH ?? "/usr/bin/chromium";
const baseUrl = (process.env.BASE_URL ?? "http://127.0.0.1:4177").replace(/\/$/, "");
const out = process.argv[2] ?? "test-results/lighthouse.json";
const list = (value) => (value ?? "").split(",").filter(Boolean);
const paths = list(process.env.PATHS ?? "/,/apotheosis,/mg/overview");
const signedInPaths = list(process.env.SIGNED_IN_PATHS);
const signInEmail = process.env.SIGN_IN_EMAIL ?? "lighthouse-operator@example.com";
const runs = Math.max(1, Number(process.env.RUNS ?? 1));
const run = promisify(execFile);

/** What a signed-in page shows only to its session: the audit fails without it. */
const { paths: routes } = await loadCatalogue();
const SIGNED_IN_MARKS = {
  [routes.dashboard]: '[data-testid="user-email"]',
  [routes.status]: '[data-testid="operator-view"]',
};

const kb = (bytes) => Math.round((bytes / 1024) * 10) / 10;

function checked(lhr, url) {
  if (lhr.runtimeError)
    throw new Error(`Lighthouse could not load ${url}: ${lhr.runtimeError.message}`);
  return lhr;
}

/** One Lighthouse CLI run; its default config is the mobile one (Moto G Power, slow 4G throttling). */
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
      `--only-categories=${CATEGORIES.join(",")}`,
      `--chrome-flags=${CHROME_FLAGS.join(" ")}`,
    ],
    { env: { ...process.env, CHROME_PATH: chromePath }, maxBuffer: 256 * 1024 * 1024 },
  );
  return checked(JSON.parse(stdout), url);
}

/** Lighthouse's Node API and puppeteer-core, from the npx install of the pinned version. */
async function lighthouseModules() {
  const { stdout } = await run("npx", ["--yes", "-p", LIGHTHOUSE, "-c", "command -v lighthouse"]);
  const modules = dirname(dirname(stdout.trim()));
  const from = (path) => import(pathToFileURL(join(modules, path)).href);
  const { startFlow } = await from("lighthouse/core/index.js");
  const { default: puppeteer } = await from("puppeteer-core/lib/esm/puppeteer/puppeteer-core.js");
  return { startFlow, puppeteer };
}

/** A browser driven by puppeteer, whose page the user flows audit. */
async function flowBrowser() {
  const { startFlow, puppeteer } = await lighthouseModules();
  const browser = await puppeteer.launch({
    executablePath: chromePath,
    headless: true,
    args: CHROME_FLAGS.slice(1),
  });
  const page = await browser.newPage();
  /**
   * One navigation step with the default config. Lighthouse's own about:blank step is skipped (a
   * cross-origin-isolated page is audited from itself, see above); a signed-in page is audited from
   * about:blank as the CLI does, so the teardown of the page audited before (its DOM, its WebGL
   * context, the garbage it leaves) does not run inside this page's trace.
   */
  const navigate = async (url, { keepStorage }) => {
    if (keepStorage) {
      await page.goto("about:blank");
      const cdp = await page.createCDPSession();
      await cdp.send("Network.clearBrowserCache");
      await cdp.detach();
    }
    const flow = await startFlow(page, {
      config: {
        extends: "lighthouse:default",
        settings: {
          onlyCategories: CATEGORIES,
          skipAboutBlank: true,
          disableStorageReset: keepStorage,
        },
      },
    });
    await flow.navigate(url);
    const [step] = (await flow.createFlowResult()).steps;
    return checked(step.lhr, url);
  };
  return { page, navigate, close: () => browser.close() };
}

/** Signs in through the emulator's provider page (the login modal, as a person does); ends on /home. */
async function signIn(page, email) {
  await page.goto(`${baseUrl}/`, { waitUntil: "networkidle0" });
  await page.locator("::-p-aria([name='Log in'][role='button'])").click();
  await page.locator("::-p-aria([name='Continue with Discord'][role='button'])").click();
  // The emulator's page (emulator/src/page.rs): "Another account", then its three fields.
  await page.waitForSelector("::-p-text(Local identity emulator)");
  await page.locator("input[name='account'][value='custom']").click();
  await page.locator("#email").fill(email);
  await page.locator("#name").fill("Lighthouse Operator");
  await page.locator("#username").fill("lighthouse-operator");
  await page.locator("::-p-aria([name='Continue'][role='button'])").click();
  await page.waitForSelector(SIGNED_IN_MARKS[routes.dashboard], { timeout: 20_000 });
}

async function isolated(url) {
  const res = await fetch(url, { method: "HEAD" });
  return res.headers.get("cross-origin-opener-policy") === "same-origin";
}

/** The long tasks Lighthouse found in one run (what its total blocking time counts). */
const longTasks = (audits) =>
  (audits["long-tasks"]?.details?.items ?? []).map((task) => ({
    url: task.url,
    startMs: Math.round(task.startTime),
    durationMs: Math.round(task.duration),
  }));

function summary(url, lhrs, label) {
  lhrs.sort((a, b) => a.categories.performance.score - b.categories.performance.score);
  const { categories, audits } = lhrs[Math.floor((lhrs.length - 1) / 2)];
  const performanceRuns = lhrs.map((lhr) => Math.round(lhr.categories.performance.score * 100));
  const byType = {};
  for (const request of audits["network-requests"]?.details?.items ?? []) {
    const type = request.resourceType ?? "Other";
    byType[type] = (byType[type] ?? 0) + (request.transferSize ?? 0);
  }
  return {
    url,
    ...(label ? { audited: label } : {}),
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
    // Where the main thread went: the long tasks (what blocking time counts) and each script's time.
    longTasksMs: longTasks(audits),
    // Every run's blocking time and long tasks, the worst score first: what moves between runs.
    runs: lhrs.map((lhr) => ({
      performance: Math.round(lhr.categories.performance.score * 100),
      totalBlockingTimeMs: Math.round(lhr.audits["total-blocking-time"].numericValue),
      longTasksMs: longTasks(lhr.audits),
    })),
    scriptingMs: Object.fromEntries(
      (audits["bootup-time"]?.details?.items ?? []).map((item) => [
        item.url,
        Math.round(item.scripting),
      ]),
    ),
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
}

const results = [];
function report(path, result) {
  results.push(result);
  console.log(
    `${path}${result.audited ? ` (${result.audited})` : ""}: ${JSON.stringify(result.scores)} ${result.transferKb.total} KB` +
      (runs > 1 ? ` (performance of the ${runs} runs: ${result.performanceRuns.join(", ")})` : ""),
  );
}

for (const path of paths) {
  const url = `${baseUrl}${path}`;
  const lhrs = [];
  if (await isolated(url)) {
    const browser = await flowBrowser();
    try {
      for (let i = 0; i < runs; i++) {
        await browser.page.goto(url, { waitUntil: "load" });
        lhrs.push(await browser.navigate(url, { keepStorage: false }));
      }
    } finally {
      await browser.close();
    }
    report(path, summary(url, lhrs, "cross-origin isolated, from itself"));
  } else {
    for (let i = 0; i < runs; i++) lhrs.push(await audit(url));
    report(path, summary(url, lhrs));
  }
}

if (signedInPaths.length) {
  const browser = await flowBrowser();
  try {
    await signIn(browser.page, signInEmail);
    for (const path of signedInPaths) {
      const url = `${baseUrl}${path}`;
      const lhrs = [];
      for (let i = 0; i < runs; i++) {
        lhrs.push(await browser.navigate(url, { keepStorage: true }));
        const mark = SIGNED_IN_MARKS[path];
        if (mark && !(await browser.page.$(mark)))
          throw new Error(`${path} signed in as ${signInEmail} does not show ${mark}`);
      }
      report(path, summary(url, lhrs, `signed in as ${signInEmail}`));
    }
  } finally {
    await browser.close();
  }
}

await mkdir(dirname(out), { recursive: true });
await writeFile(
  out,
  `${JSON.stringify({ measuredAt: new Date().toISOString(), baseUrl, lighthouse: LIGHTHOUSE, results }, null, 2)}\n`,
);
console.log(`Wrote ${out}`);
