// The packaging matrix (`make test`, suite package-matrix): the packed tarball, installed into this
// folder's node_modules (`make package-fixtures`), used by each fixture project below in its own
// runtime or bundler; the browser fixtures are then loaded in Chromium and in Firefox, and the dev
// servers' pages in Chromium. Each prints what it did; a failure names its fixture. Before them
// (package-checks.mjs): the package's .d.ts against the committed contract (core-wasm/api/), each
// .wasm against its gzip budget, the package README's figures, publint and arethetypeswrong.
//   node examples/run-matrix.mjs [--force] [fixture ...]
// The whole matrix is skipped, with the reason printed, when its input is that of the last run that
// passed on this machine (common/input-key.mjs); it always runs with CI set, with --force or
// MG_PACKAGE_MATRIX_FORCE=1, and when fixtures are named.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { testChromiumLaunchOptions } from "../app/common/chromium.mjs";
import { inputKey, rememberPassed, skipReason } from "./common/input-key.mjs";
import { nextFixture } from "./common/next.mjs";
import { startServer } from "./common/server.mjs";
import { checkReadmes } from "./readme/check.mjs";
import { checkPackage, lintTarball } from "./package-checks.mjs";
import { fetchFromWorker } from "./workerd/serve.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const bin = (name) => join(here, "node_modules", ".bin", name);
const args = process.argv.slice(2);
const only = new Set(args.filter((arg) => arg !== "--force"));
const root = join(here, "..");
const key = only.size ? undefined : inputKey(root);
const force = args.includes("--force") || Boolean(process.env.MG_PACKAGE_MATRIX_FORCE);
const skipped = skipReason(root, key, { force, ci: Boolean(process.env.CI) });
if (skipped) {
  console.log(`package matrix: ${skipped}`);
  process.exit(0);
}

/** Runs a command in a fixture's folder; resolves with its output, rejects with it on failure. */
function run(command, args, dir, timeoutMs = 120_000) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: join(here, dir), stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(output.trim());
      else reject(new Error(`${command} ${args.join(" ")} exited ${signal ?? code}:\n${output.trim()}`));
    });
  });
}

async function viteBuild(dir) {
  const { build } = await import("vite");
  await build({ root: join(here, dir), configFile: join(here, dir, "vite.config.js"), logLevel: "warn" });
}

async function webpackBuild(dir) {
  const { default: webpack } = await import("webpack");
  const { default: config } = await import(join(here, dir, "webpack.config.js"));
  await new Promise((resolve, reject) =>
    webpack(config, (error, stats) => {
      if (error) reject(error);
      else if (stats.hasErrors()) reject(new Error(stats.toString("errors-only")));
      else resolve();
    }),
  );
}

// The bundlers' own command lines, as their READMEs give them; no configuration about mg-core.
const cli = {
  esbuild: () => run(bin("esbuild"), ["main.js", "--bundle", "--outdir=dist", "--log-level=warning"], "esbuild"),
  rollup: () => run(bin("rollup"), ["main.js", "-p", "@rollup/plugin-node-resolve", "-d", "dist", "--silent"], "rollup"),
  parcel: () =>
    run(bin("parcel"), ["build", "index.html", "--dist-dir", "dist", "--no-cache", "--public-url", "./", "--log-level", "warn"], "parcel"),
  rsbuild: () => run(bin("rsbuild"), ["build", "--log-level", "warn"], "rsbuild"),
  // Angular's production configuration, one application of angular/angular.json.
  ng: (project) => run(bin("ng"), ["build", project], "angular", 300_000),
};

// Two builds at a time (the machines have two cores): every selected fixture's build starts at
// once, each runs when a slot frees, and a fixture waits only for its own.
let slots = 2;
const queue = [];
function limited(task) {
  return new Promise((resolve, reject) => {
    const start = () => {
      slots -= 1;
      task()
        .then(resolve, reject)
        .finally(() => {
          slots += 1;
          queue.shift()?.();
        });
    };
    if (slots > 0) start();
    else queue.push(start);
  });
}

// The browser fixtures are served from this folder (so the no-bundler worker reaches node_modules/).
const types = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm" };
function serve() {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    try {
      if (path.includes("..")) throw new Error("no");
      const body = readFileSync(join(here, path));
      res.writeHead(200, { "content-type": types[extname(path)] ?? "application/octet-stream" });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

let origin;
const browsers = {};
/** The static server, once; the browsers, each once. */
async function open(engine) {
  if (!origin) {
    const server = await serve();
    origin = `http://127.0.0.1:${server.address().port}`;
    server.unref();
  }
  browsers[engine] ??= (async () => {
    if (engine === "chromium") {
      const { chromium } = await import("playwright-core");
      const browser = await chromium.launch(testChromiumLaunchOptions);
      const wait = (tab, fn, timeout) => tab.waitForFunction(fn, undefined, { timeout });
      return { newPage: () => browser.newPage(), wait, close: () => browser.close() };
    }
    // Firefox through WebDriver BiDi (puppeteer-core drives Debian's firefox-esr; geckodriver is
    // not packaged and Playwright's own Firefox build cannot be downloaded here).
    const { default: puppeteer } = await import("puppeteer-core");
    const browser = await puppeteer.launch({
      browser: "firefox",
      executablePath: "/usr/bin/firefox-esr",
      headless: true,
    });
    const wait = (tab, fn, timeout) => tab.waitForFunction(fn, { timeout });
    return { newPage: () => browser.newPage(), wait, close: () => browser.close() };
  })();
  return browsers[engine];
}

/**
 * Opens a fixture page (a path under this folder, or a dev server's URL) and waits for the outcome it
 * publishes (common/report.mjs).
 */
async function inBrowser(engine, page) {
  const browser = await open(engine);
  const tab = await browser.newPage();
  const errors = [];
  tab.on("pageerror", (error) => errors.push(String(error)));
  tab.on("console", (message) => message.type() === "error" && errors.push(message.text()));
  try {
    await tab.goto(/^https?:/.test(page) ? page : `${origin}/${page}`);
    await browser.wait(tab, () => globalThis.__fixture, 30_000).catch(() => {
      throw new Error(`no outcome within 30 s; page errors: ${errors.join(" | ") || "none"}`);
    });
    const outcome = await tab.evaluate(() => globalThis.__fixture);
    if (!outcome.ok) throw new Error(outcome.error);
    return outcome.lines.join("\n");
  } finally {
    await tab.close();
  }
}

// Browser fixtures: built once (if they have a build), then loaded in each engine.
const pages = {
  vite: [() => viteBuild("vite"), "vite/dist/index.html"],
  "vite-plugin": [() => viteBuild("vite-plugin"), "vite-plugin/dist/index.html"],
  "vite-web": [() => viteBuild("vite-web"), "vite-web/dist/index.html"],
  webpack: [() => webpackBuild("webpack"), "webpack/index.html"],
  esbuild: [cli.esbuild, "esbuild/index.html"],
  rollup: [cli.rollup, "rollup/index.html"],
  parcel: [cli.parcel, "parcel/dist/index.html"],
  rsbuild: [cli.rsbuild, "rsbuild/dist/index.html"],
  // The application `ng new` makes (zoneless), importing `mg-core`; one with zone.js, `mg-core/inline`.
  angular: [() => cli.ng("zoneless"), "angular/dist/zoneless/browser/index.html"],
  "angular-zone": [() => cli.ng("zone"), "angular/dist/zone/browser/index.html"],
  worker: [async () => {}, "worker/index.html"],
};
const builds = {};
for (const [name, [build]] of Object.entries(pages))
  if (!only.size || only.has(name) || only.has(`${name} (firefox)`))
    builds[name] = limited(build);
// A failed build fails its fixtures when they await it, not the matrix before them.
for (const build of Object.values(builds)) build.catch(() => {});
const browserFixtures = (engine, suffix) =>
  Object.fromEntries(
    Object.entries(pages).map(([name, [build, page]]) => [
      `${name}${suffix}`,
      async () => {
        builds[name] ??= build();
        await builds[name];
        return inBrowser(engine, page);
      },
    ]),
  );

/**
 * Starts a dev server in `dir` and checks its page. By default a Vite-based one, `--force`: its
 * dependencies are pre-bundled from the tarball installed now, never an older one; `args` replaces
 * that command line (`what` then names it). `warm`: a path asked for first.
 */
async function devPage(command, dir, { warm, env = {}, args = viteDevArgs, timeoutMs, what = "dev" } = {}) {
  const server = await startServer({ command, args, cwd: join(here, dir), env, timeoutMs });
  try {
    if (warm) await fetch(server.origin + warm);
    return `${dir} ${what}\n${await inBrowser("chromium", `${server.origin}/`)}`;
  } finally {
    server.stop();
  }
}
const viteDevArgs = (port) => ["dev", "--port", String(port), "--strictPort", "--host", "127.0.0.1", "--force"];

/**
 * `ng serve` of the zoneless application, after its production build if that runs too (the two share
 * the project's cache folder). Angular's dev server pre-bundles dependencies with the Vite inside it,
 * into .angular/cache/<version>/<project>/vite, and has no `--force`: that folder is removed first.
 */
async function angularDev() {
  await builds.angular?.catch(() => {});
  const cache = join(here, "angular", ".angular", "cache");
  for (const version of existsSync(cache) ? readdirSync(cache) : [])
    rmSync(join(cache, version, "zoneless", "vite"), { recursive: true, force: true });
  const args = (port) => ["serve", "zoneless", "--port", String(port), "--host", "127.0.0.1"];
  return devPage(bin("ng"), "angular", { args, env: { NG_CLI_ANALYTICS: "false" }, timeoutMs: 180_000 });
}

const fixtures = {
  "package-checks": async () => `${checkPackage()}\n${await lintTarball()}`,
  readme: () =>
    checkReadmes({ here, run, bin, workerd: (entry, config) => fetchFromWorker({ here, entry, config }) }),
  // The types of every entry, strict and without skipLibCheck, as each resolver finds them: NodeNext,
  // Node16, Bundler, node10 (no `exports`), and a `lib` without ESNext.Disposable.
  typescript: async () => {
    const configs = ["tsconfig.json", "tsconfig.node16.json", "tsconfig.bundler.json", "tsconfig.node10.json", "tsconfig.nolib.json"];
    await Promise.all(configs.map((config) => limited(() => run(bin("tsc"), ["-p", config], "typescript", 600_000))));
    return "tsc --strict: NodeNext, Node16 (ES module and CommonJS files), Bundler, node10; lib without ESNext.Disposable";
  },
  "node-esm": () => run("node", ["main.mjs"], "node-esm"),
  // Jest with no configuration: node/CommonJS and jsdom (the docblock picks it).
  jest: () => run(bin("jest"), ["--rootDir", ".", "--ci"], "jest"),
  // Vitest with the `browser` resolve condition, in jsdom.
  vitest: () => run(bin("vitest"), ["run"], "vitest"),
  // require() gets the CommonJS build whether Node can require() ES modules or not (the flag turns
  // that off).
  "node-require": async () =>
    [
      await run("node", ["main.cjs"], "node-require"),
      await run("node", ["--no-experimental-require-module", "main.cjs"], "node-require"),
    ].join("\n"),
  // The same require()s bundled by esbuild for Node, then run from the bundle's folder.
  "esbuild-node": async () => {
    await run(bin("esbuild"), ["node.cjs", "--bundle", "--platform=node", "--outfile=dist/node.cjs", "--log-level=warning"], "esbuild");
    return run("node", ["dist/node.cjs"], "esbuild");
  },
  "node-errors": () => run("node", ["errors.mjs"], "node-errors"),
  "node-leak": () => run("node", ["leak.mjs"], "node-leak", 600_000),
  deno: () => run(bin("deno"), ["run", "--allow-read", "--allow-env", "main.ts"], "deno"),
  bun: () => run(bin("bun"), ["main.ts"], "bun"),
  // Cloudflare Workers: bundled with Wrangler's conditions, served by the workerd binary, asked over HTTP.
  workerd: async () => {
    const config = join(here, "workerd", "config.capnp");
    const body = await fetchFromWorker({ here, entry: join(here, "workerd", "worker.js"), config });
    if (!/^theme cosmic->void; .*\nhypercube: 64 floats, 64 edge indices$/.test(body))
      throw new Error(`the Worker answered:\n${body}`);
    return body;
  },
  ...browserFixtures("chromium", ""),
  // Dev servers, nothing about mg-core configured: their dependency pre-bundlers and the
  // `development` condition. Vite finds a worker's dependencies when it first transforms the worker,
  // then pre-bundles them and reloads the page; asked for the worker first, it does so before the
  // page loads.
  "vite-dev": () => devPage(bin("vite"), "vite", { warm: "/worker.js?worker_file&type=module" }),
  // React Router's framework mode: the route's loader on the server (Vite's SSR), the page in Chromium.
  "react-router-dev": () => devPage(bin("react-router"), "react-router"),
  // Vike with vike-react: the page's server data, then the page.
  "vike-dev": () => devPage(bin("vike"), "vike"),
  // Astro 5 (its own Vite 6): the page's frontmatter on the server, its <script> in the browser.
  "astro-dev": () => devPage(bin("astro"), "astro", { env: { ASTRO_TELEMETRY_DISABLED: "1" } }),
  // SvelteKit: the page's server load and the page (Svelte, so no mg-core/react).
  "sveltekit-dev": () => devPage(bin("vite"), "sveltekit"),
  // TanStack Start: a server function on the server (Vite's SSR), the page with `mg-core/react`.
  "tanstack-start-dev": () => devPage(bin("vite"), "tanstack-start"),
  // The same built (`vite build`: the client's environment and the server's), served by `vite preview`.
  "tanstack-start": async () => {
    await limited(() => run(bin("vite"), ["build"], "tanstack-start"));
    const args = (port) => ["preview", "--port", String(port), "--strictPort", "--host", "127.0.0.1"];
    return devPage(bin("vite"), "tanstack-start", { args, what: "build, preview" });
  },
  // Angular's `ng serve` (the `development` condition, pre-bundled by the Vite inside it).
  "angular-dev": angularDev,
  // Next.js App Router: built and started, checked in Chromium, with Turbopack, then webpack; then
  // in `next dev` with each (one folder, so one after the other).
  "next-turbopack": () => nextFixture({ mode: "turbopack", here, run, bin, newPage: async () => (await open("chromium")).newPage() }),
  "next-webpack": () => nextFixture({ mode: "webpack", here, run, bin, newPage: async () => (await open("chromium")).newPage() }),
  "next-dev-turbopack": () =>
    nextFixture({ mode: "turbopack", dev: true, here, run, bin, newPage: async () => (await open("chromium")).newPage() }),
  "next-dev-webpack": () =>
    nextFixture({ mode: "webpack", dev: true, here, run, bin, newPage: async () => (await open("chromium")).newPage() }),
  ...browserFixtures("firefox", " (firefox)"),
};

// Two lanes side by side, each running its fixtures one after the other, so the matrix takes about
// as long as the longer lane: the Next.js builds and `next dev --webpack`, and everything else, led
// by `next dev` with Turbopack. Next.js keeps a dev server's output apart from a build's
// (.next/dev), so a build and a dev server share the folder; two dev servers cannot, so
// next-dev-webpack waits for next-dev-turbopack.
const failed = [];
const done = {};
const after = { "next-dev-webpack": "next-dev-turbopack" };
async function lane(names) {
  for (const name of names) {
    if (only.size && !only.has(name)) continue;
    done[name] = (async () => {
      await done[after[name]];
      const started = performance.now();
      try {
        const output = await fixtures[name]();
        const seconds = ((performance.now() - started) / 1000).toFixed(1);
        console.log(`ok   ${name} (${seconds} s)\n${String(output ?? "").replace(/^/gm, "       ")}`);
      } catch (error) {
        failed.push(name);
        console.log(`FAIL ${name}: ${String(error?.stack ?? error).replace(/\n/g, "\n       ")}`);
      }
    })();
    await done[name];
  }
}
const nextLane = ["next-turbopack", "next-webpack", "next-dev-webpack"];
const rest = Object.keys(fixtures).filter((name) => !nextLane.includes(name) && name !== "next-dev-turbopack");
await Promise.all([lane(nextLane), lane(["next-dev-turbopack", ...rest])]);
for (const browser of Object.values(browsers)) await (await browser).close();
console.log(failed.length ? `package matrix: failed fixtures: ${failed.join(", ")}` : "package matrix: all fixtures passed");
if (!failed.length) rememberPassed(root, key);
process.exit(failed.length ? 1 : 0);
